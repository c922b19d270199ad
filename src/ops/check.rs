//! The check use case: the campaign loaded and validated (every problem at once, as
//! [`crate::error::Error::Rejected`]), with what is valid but strained: places whose typed
//! control is not what the garrisons make it (2.1), and garrisons beyond a fortress-town's or
//! a citadel's maximum (2.5.1, 2.5.3).

use crate::error::Result;
use crate::model::{Campaign, Control};
use crate::rules::control::{SettlementControl, compute};
use crate::rules::garrison::{OverMaximum, over_maximum_with};
use crate::store::CampaignDir;

/// What `check` finds in a valid campaign.
#[derive(Debug)]
pub struct CheckOutcome {
    /// The campaign as loaded.
    pub campaign: Campaign,
    /// The places whose typed control is not the computed (or overruled) one: the next
    /// `turn advance` writes the computed one; an `overrule` keeps a place as it is.
    pub control_differences: Vec<SettlementControl>,
    /// The places holding more men than their walls take, under the computed control.
    pub over_maximum: Vec<OverMaximum>,
}

/// Loads and checks the campaign.
pub fn check(dir: &CampaignDir) -> Result<CheckOutcome> {
    let campaign = dir.load()?;
    let computed = compute(&campaign);
    let held: Vec<Control> = computed.iter().map(|k| k.control).collect();
    let over_maximum = over_maximum_with(&campaign, &held);
    let control_differences = computed.into_iter().filter(|k| k.control != k.typed).collect();
    Ok(CheckOutcome { campaign, control_differences, over_maximum })
}
