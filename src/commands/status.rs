//! `status`: turn and date, forces per side with men and guns, and contacts.

use anyhow::Result;

use crate::formats::report::status::{heading, render, report_json};
use crate::store::CampaignDir;

/// Runs `status`.
pub fn run(dir: &CampaignDir, json: bool) -> Result<()> {
    let o = crate::ops::status::status(dir)?;
    let (c, tests) = (&o.campaign, &o.french_battle_tests);
    if json {
        let battles = o.battles?;
        return super::print_json(&report_json(c, &o.supply, &o.contacts, tests, &battles));
    }
    crate::out!("{}", heading(c));
    let battles = o.battles?;
    crate::out!("{}", render(c, &o.supply, &o.contacts, tests, &battles));
    Ok(())
}
