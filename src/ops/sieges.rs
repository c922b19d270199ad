//! The sieges use case: every investment and siege of `sieges.csv` (rules 7.1–7.2), and every
//! place whose `invested_by` is set with no record yet (its investment starts at the next
//! turn advance), with the garrison and the investors standing there now.

use crate::error::Result;
use crate::formats::report::sieges::SiegeLine;
use crate::model::Campaign;
use crate::rules::siege::{garrison_of, investable, investors_of};
use crate::store::CampaignDir;

/// What `sieges` shows.
#[derive(Debug)]
pub struct SiegesOutcome {
    /// The campaign as loaded.
    pub campaign: Campaign,
    /// The records first, in `sieges.csv`'s order, then the places waiting, in
    /// `settlements.csv`'s.
    pub lines: Vec<SiegeLine>,
}

/// The investments and sieges of the campaign.
pub fn sieges(dir: &CampaignDir) -> Result<SiegesOutcome> {
    let c = dir.load()?;
    let mut lines: Vec<SiegeLine> = c.books.sieges.iter().map(SiegeLine::of_record).collect();
    for s in &c.map.settlements {
        let Some(n) = s.invested_by else { continue };
        if c.books.active_siege(&s.name).is_some() || !investable(s) {
            continue;
        }
        let investor = n.side();
        let garrison = garrison_of(&c, s.hex, investor.enemy());
        let investors = investors_of(&c, s.hex, investor);
        lines.push(SiegeLine::waiting(s, garrison, investors));
    }
    Ok(SiegesOutcome { campaign: c, lines })
}
