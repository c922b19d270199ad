//! `contacts`: every group of enemy forces in contact, with the rule that put them there.

use anyhow::Result;

use crate::formats::report::contacts::render;
use crate::store::CampaignDir;

/// Runs `contacts`.
pub fn run(dir: &CampaignDir, json: bool) -> Result<()> {
    let o = crate::ops::contacts::contacts(dir)?;
    if json {
        super::print_json(&o.contacts)?;
    } else {
        crate::out!("{}", render(&o.campaign, &o.contacts, &o.avoiding));
    }
    super::done_with(o.campaign);
    Ok(())
}
