//! `supply`: every force's supply line, every settlement's computed control and production,
//! and every French force's line of communications (rules 2.1, 2.3, 3.1–3.5), with the working.
//! Reads only; `turn advance` writes the same results into the campaign.

use anyhow::Result;

use crate::formats::report::supply::{render, report_json};
use crate::store::CampaignDir;

/// Runs `supply`.
pub fn run(dir: &CampaignDir, json: bool) -> Result<()> {
    let (c, r) = crate::ops::campaign_now(dir)?;
    if json {
        let mut v = report_json(&r);
        v["standing"] = crate::formats::report::standing::json(&c, None);
        super::print_json(&v)?;
    } else {
        crate::out!("{}", render(&c, &r));
    }
    super::done_with(c);
    Ok(())
}
