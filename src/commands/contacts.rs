//! `contacts`: every group of enemy forces in contact, with the rule that put them there;
//! `contacts --advise`: each side advised of the enemy (8.1, 8.5); `contacts decide HEX`:
//! each side's decision to fight or withdraw (8.1, 8.2).

use anyhow::Result;

use crate::cli::{ContactsArgs, ContactsCommand};
use crate::formats::report::contacts::{advised, advised_done, decided, render};
use crate::model::HexId;
use crate::ops::contacts::DecideRequest;
use crate::store::CampaignDir;

/// Runs `contacts`.
pub fn run(dir: &CampaignDir, a: &ContactsArgs) -> Result<()> {
    if let Some(ContactsCommand::Decide { hex, french, allies }) = &a.decide {
        let hex: HexId = hex.parse().map_err(|e| anyhow::anyhow!("{hex}: {e}"))?;
        let (outcome, seq) =
            crate::ops::contacts::decide(dir, &DecideRequest { hex, french: *french, allies: *allies })?;
        crate::out!("{}", decided(hex, &outcome, seq));
        return Ok(());
    }
    if a.advise {
        let o = crate::ops::contacts::advise(dir)?;
        let lines: Vec<(HexId, bool)> = o.advised.iter().map(|x| (x.hex, x.new)).collect();
        let files: Vec<&str> = o.files.iter().map(|f| f.1.as_str()).collect();
        crate::out!("{}", advised(&lines));
        crate::errln!("{}", advised_done(&files, o.seq));
        return Ok(());
    }
    let o = crate::ops::contacts::contacts(dir)?;
    if a.json {
        super::print_json(&o.contacts)?;
    } else {
        crate::out!("{}", render(&o.campaign, &o.contacts, &o.avoiding));
    }
    super::done_with(o.campaign);
    Ok(())
}
