//! `supply`: every force's supply line, every settlement's computed control and production,
//! and every French force's line of communications (rules 2.1, 2.3, 3.1–3.5), with the working.
//! Reads only; `turn advance` writes the same results into the campaign.

use anyhow::Result;

use crate::formats::report::supply::{render, report_json};
use crate::store::CampaignDir;

// Where `turn` and `export` still find the supply text and the supply phase's files.
pub use crate::formats::report::supply::{briefing_section, render_phase, side_section};
pub use crate::ops::turn_files::phase_files;

/// Runs `supply`.
pub fn run(dir: &CampaignDir, json: bool) -> Result<()> {
    let (c, r) = crate::ops::campaign_now(dir)?;
    if json {
        super::print_json(&report_json(&r))?;
    } else {
        crate::out!("{}", render(&c, &r));
    }
    super::done_with(c);
    Ok(())
}
