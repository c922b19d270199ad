//! `watch`: the inbox engine of [`crate::inbox`] with the real judge ([`judge::ApplyJudge`]),
//! which applies each final result by `apply`'s own code path.

pub mod judge;

use std::io::IsTerminal;
use std::time::Duration;

use anyhow::Result;

use crate::cli::WatchArgs;
use crate::inbox::{self, SystemClock, WatchOptions};
use crate::store::CampaignDir;

/// Runs `watch`.
pub fn run(dir: &CampaignDir, a: &WatchArgs) -> Result<()> {
    let inbox_dir = crate::ops::watch::inbox_folder(dir, a.inbox.as_ref())?;
    let stop = inbox::stop_on_ctrl_c()?;
    let opts = WatchOptions {
        poll: a.poll.map(Duration::from_millis),
        settle: Duration::from_millis(a.settle),
        exit_after: a.exit_after,
        incomplete_limit: Duration::from_secs(a.incomplete_limit),
        progress: std::io::stderr().is_terminal(),
        ..WatchOptions::new(inbox_dir)
    };
    let mut judge = judge::ApplyJudge::new(dir.clone());
    let summary = inbox::run_watch(&opts, &mut judge, &stop, &mut std::io::stderr(), &SystemClock)?;
    crate::errln!(
        "watch stopped: {} applied, {} rejected, {} set aside, {} waiting",
        summary.applied,
        summary.rejected,
        summary.set_aside,
        summary.waiting
    );
    Ok(())
}
