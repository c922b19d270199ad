//! `turn advance`: moves the campaign to its next two-week turn (rule 6.1) and applies what
//! falls due, in one journalled, all-or-nothing commit (`ops::turn`).

use crate::formats::report::turn::{begun, pending_warning, render};
use crate::ops::turn::{AdvanceRequest, advance, reports_dir};
use crate::store::CampaignDir;

// Where `undo` still finds the paths of a turn's reports.

/// Runs `turn advance`.
pub fn run(dir: &CampaignDir, a: &crate::cli::TurnAdvanceArgs) -> anyhow::Result<()> {
    // Said before anything changes, where the umpire looks: a battle left pending is a result
    // forgotten, and its losses will fall into the wrong turn.
    let r = advance(dir, AdvanceRequest { dry_run: a.dry_run }, |pending| {
        for b in pending {
            crate::errln!("{}", pending_warning(b, a.dry_run));
        }
    })?;
    if a.json {
        super::print_json(&r)?;
    } else {
        crate::out!("{}", render(&r));
        if !a.dry_run {
            crate::errln!("{}", begun(&r, &reports_dir(r.changes.to.turn)));
        }
    }
    super::done_with(r);
    Ok(())
}
