//! A battle's aftermath, decided before anything is written: the verdict (the umpire's, or the
//! campaign's policy over casualties and objectives held), pursuit (8.7), the loser's
//! withdrawal (8.4) and the river at its back (6.5.2), every unit's carry-over and the river
//! penalties' dice — then, on a campaign value, every change: men, guns, returns, penalties,
//! hexes, the score (4.0) and the generals' records (8.5). Pure: the caller reads the files,
//! hands over the dice and writes the result.

use std::collections::BTreeMap;

use crate::model::result::CommanderHit;
use crate::model::{HexId, Side};
use crate::rules::carryover::{RiverPenalties, UnitCarryover};
use crate::rules::dice::Roll;
use crate::rules::verdict::Verdict;
use crate::rules::withdrawal::WithdrawalPlan;

mod apply;
mod decide;
#[cfg(test)]
mod tests;

pub use decide::compute;

/// What the umpire said of the result (`apply`'s options, parsed).
#[derive(Debug, Clone, Default)]
pub struct AftermathOptions {
    /// `--winner`: `Some(None)` is a draw; `None` leaves it to the verdict policy.
    pub winner: Option<Option<Side>>,
    /// `--river-retreat yes|no`.
    pub river_retreat: Option<bool>,
    /// `--withdraw-to [FORCE=]CC.RR`: a losing force (or every one) and its destination.
    pub withdraw_to: Vec<(Option<String>, HexId)>,
}

/// A force's withdrawal and whether a river lay at its back.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Withdrawal {
    /// The plan.
    pub plan: WithdrawalPlan,
    /// Where it went (None: it stayed, trapped).
    pub to: Option<HexId>,
    /// A river crossed on the way back, or at its back when trapped (6.5.2).
    pub river: Option<String>,
    /// Chosen by `--withdraw-to`.
    pub chosen_by_umpire: bool,
}

/// Everything decided before the campaign is changed.
#[derive(Debug)]
pub struct Aftermath {
    /// The verdict and how it was reached.
    pub verdict: Verdict,
    /// Pursuit and rearguard (8.7), in words.
    pub pursuit_explanation: String,
    /// Every unit's carry-over.
    pub carryover: Vec<UnitCarryover>,
    /// Ammunition kept from the battle by units out of supply (3.1), per cent.
    pub ammo: BTreeMap<String, u32>,
    /// The losers' withdrawals.
    pub withdrawals: Vec<Withdrawal>,
    /// The river penalties (6.5.2).
    pub river: RiverPenalties,
    /// Every die rolled, in order.
    pub dice: Vec<Roll>,
    /// Commanders hit.
    pub commanders: Vec<CommanderHit>,
    /// Exported rows the result did not mention.
    pub missing: Vec<String>,
    /// Forces with a river at their back.
    pub river_forces: Vec<String>,
}
