//! `sieges`: every investment and siege of `sieges.csv` (rules 7.1–7.2), and every place
//! whose `invested_by` is set with no record yet (its investment starts at the next turn
//! advance).

use anyhow::Result;

use crate::formats::report::sieges::render;

/// Runs `sieges`.
pub fn run(dir: &crate::store::CampaignDir, json: bool) -> Result<()> {
    let o = crate::ops::sieges::sieges(dir)?;
    super::done_with(o.campaign);
    if json {
        return super::print_json(&o.lines);
    }
    crate::out!("{}", render(&o.lines));
    Ok(())
}
