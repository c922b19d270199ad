//! `audit`: rebuilds the state from the journal's baseline and entries, compares it with
//! the files, and proves every man is accounted for (`ops::audit`).

use anyhow::Result;

use crate::formats::report::audit as report;
use crate::store::CampaignDir;

/// Runs `audit`.
pub fn run(dir: &CampaignDir, json: bool) -> Result<()> {
    let a = crate::ops::audit::audit(dir)?;
    if json {
        super::print_json(&a.report)?;
    } else {
        crate::out!("{}", report::audit_text(&a.report));
    }
    a.problems.into_result().map_err(|e| anyhow::Error::new(e).context("audit failed"))
}
