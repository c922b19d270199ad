//! The status use case: the campaign as the rules see it now, its contacts, rule 4.0's French
//! battle test by campaign year, and the battles exported.

use crate::error::Result;
use crate::model::Campaign;
use crate::model::battle::BattleRecord;
use crate::rules::score::{FrenchBattleTest, french_battle_tests};
use crate::rules::supply::SupplyReport;
use crate::rules::zoc::{Contact, contacts};
use crate::store::CampaignDir;

/// What `status` shows.
#[derive(Debug)]
pub struct StatusOutcome {
    /// The campaign now ([`super::campaign_now`]).
    pub campaign: Campaign,
    /// Its supply working: each force's line today.
    pub supply: SupplyReport,
    /// Every group of enemy forces in contact.
    pub contacts: Vec<Contact>,
    /// Rule 4.0's test for each campaign year of `score.csv`.
    pub french_battle_tests: Vec<FrenchBattleTest>,
    /// The battles' records, or why they cannot be read: the text shows the campaign's name
    /// and turn before it says so.
    pub battles: Result<Vec<BattleRecord>>,
}

/// The campaign's status now.
pub fn status(dir: &CampaignDir) -> Result<StatusOutcome> {
    let (campaign, supply) = super::campaign_now(dir)?;
    let contacts = contacts(&campaign);
    let french_battle_tests = french_battle_tests(&campaign.score);
    let battles = dir.battles();
    Ok(StatusOutcome { campaign, supply, contacts, french_battle_tests, battles })
}
