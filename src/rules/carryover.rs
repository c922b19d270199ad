//! The carry-over of a battle's casualties into the campaign: what becomes of each unit's
//! killed, wounded and stragglers once a SoW battle is over (the "carry-over calculator" of
//! rules 6.5.2.3 and 8.7, with supply from 3.1), and the river penalties of 6.5.2 for a
//! loser with a major river at its back.
//!
//! Arithmetic is exact (`rust_decimal`). Men are rounded down per unit and per category, so
//! no man is ever created, and what the rounding leaves goes to a named category, so every
//! man is accounted for: `men_before = men_after + killed + wounded_* + stragglers_*`.
//! Every number comes from [`CarryoverRules`] (`[carryover]` of `rules.toml`).

use std::collections::{BTreeMap, BTreeSet};

use rust_decimal::Decimal;
use rust_decimal::prelude::ToPrimitive;
use serde::{Deserialize, Serialize};

use super::dice::{Dice, Roll};
use crate::error::Problem;
pub use crate::model::carryover::UnitCarryover;
use crate::model::config::CarryoverRules;
use crate::model::kinds::format_status_list;
use crate::model::{ArmClass, Campaign, Level, OrderOfBattle, Status, StatusKind};

/// The result of a battle for one side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Outcome {
    /// The side won the battle.
    Won,
    /// Neither side won.
    Drawn,
    /// The side lost the battle and withdraws (8.4).
    Lost,
}

/// One unit's losses as the game's dump reports them, with what the carry-over needs to know.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct UnitLosses {
    /// Campaign unit id.
    pub unit: String,
    /// Men before the battle.
    pub men_before: u32,
    /// Killed in the battle.
    pub killed: u32,
    /// Wounded in the battle.
    pub wounded: u32,
    /// Deserted: stragglers, routed and missing.
    pub deserted: u32,
    /// Guns before the battle.
    pub guns_before: u32,
    /// Guns whose crew is gone (decided by the caller).
    pub guns_lost: u32,
    /// True when the unit's force is out of supply (rule 3.1).
    pub out_of_supply: bool,
}

/// One side's light-cavalry reserve (rule 8.7) and its result.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct SideSituation {
    /// The side's result.
    pub outcome: Outcome,
    /// Squadrons kept out of the battle as a light-cavalry reserve; 0 is no reserve.
    pub reserve_squadrons: u32,
}

/// What the two light-cavalry reserves do to the loser's carry-over (rule 8.7).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pursuit {
    /// The winner's reserve pursues: more of the loser's stragglers and wounded are captured.
    pub winner_pursues: bool,
    /// The loser's reserve covers the retreat: more of its stragglers return.
    pub loser_rearguard: bool,
    /// Why, in the umpire's words, for the battle report.
    pub explanation: String,
}

/// Decides what the light-cavalry reserves do (rule 8.7). A winner's reserve alone pursues;
/// a loser's reserve alone is a rearguard; two reserves cancel unless one has at least
/// `reserve_edge` times the other's squadrons (the rule's "significant edge"), in which
/// case the bigger acts as if alone. After a draw the reserves do nothing.
pub fn resolve_pursuit(rules: &CarryoverRules, winner: &SideSituation, loser: &SideSituation) -> Pursuit {
    let (w, l) = (winner.reserve_squadrons, loser.reserve_squadrons);
    let pursues = |explanation: String| Pursuit { winner_pursues: true, loser_rearguard: false, explanation };
    let rearguard =
        |explanation: String| Pursuit { winner_pursues: false, loser_rearguard: true, explanation };
    let neither =
        |explanation: String| Pursuit { winner_pursues: false, loser_rearguard: false, explanation };
    if winner.outcome == Outcome::Drawn || loser.outcome == Outcome::Drawn {
        return neither("a draw: light cavalry reserves play no part in the carry-over (8.7)".into());
    }
    let has_edge = |big: u32, small: u32| {
        Decimal::from(small).checked_mul(rules.reserve_edge).is_some_and(|need| Decimal::from(big) >= need)
    };
    match (w > 0, l > 0) {
        (false, false) => neither("no light cavalry reserve on either side (8.7)".into()),
        (true, false) => pursues(format!("the winner's reserve of {w} squadrons pursues (8.7)")),
        (false, true) => rearguard(format!("the loser's reserve of {l} squadrons covers the retreat (8.7)")),
        (true, true) if has_edge(w, l) => pursues(format!(
            "the winner's reserve of {w} squadrons has at least {}× the loser's {l} and pursues (8.7)",
            rules.reserve_edge.normalize()
        )),
        (true, true) if has_edge(l, w) => rearguard(format!(
            "the loser's reserve of {l} squadrons has at least {}× the winner's {w} and covers the retreat (8.7)",
            rules.reserve_edge.normalize()
        )),
        (true, true) => neither(format!(
            "the reserves of {w} and {l} squadrons cancel out: neither has {}× the other's (8.7)",
            rules.reserve_edge.normalize()
        )),
    }
}

/// Clamps a share to 0..=1, so that no override can create or un-count men.
fn clamp_share(d: Decimal) -> Decimal {
    d.clamp(Decimal::ZERO, Decimal::ONE)
}

/// `floor(men × share)`, the share clamped to 0..=1: never more than `men`.
fn share_of(men: u32, share: Decimal) -> u32 {
    Decimal::from(men)
        .checked_mul(clamp_share(share))
        .and_then(|v| v.floor().to_u32())
        .map_or(0, |v| v.min(men))
}

/// How the wounded split: (returning, captured, lost).
fn wounded_split(rules: &CarryoverRules, outcome: Outcome, pursuit: &Pursuit, oos: bool, w: u32) -> [u32; 3] {
    let captured_share = match outcome {
        Outcome::Lost if pursuit.winner_pursues => rules.wounded_captured_loser + rules.pursuit_wounded,
        Outcome::Lost => rules.wounded_captured_loser,
        Outcome::Won | Outcome::Drawn => Decimal::ZERO,
    };
    let captured = share_of(w, captured_share);
    let rest = w - captured;
    let supply = if oos { clamp_share(rules.out_of_supply_wounded) } else { Decimal::ONE };
    let returning = share_of(rest, clamp_share(rules.wounded_return) * supply);
    [returning, captured, rest - returning]
}

/// How the stragglers split: (returning, captured, lost, drowned).
fn straggler_split(
    rules: &CarryoverRules,
    outcome: Outcome,
    pursuit: &Pursuit,
    river_at_back: bool,
    oos: bool,
    s: u32,
) -> [u32; 4] {
    let supply = if oos { clamp_share(rules.out_of_supply_stragglers) } else { Decimal::ONE };
    let base = match outcome {
        Outcome::Won => rules.straggler_return_winner,
        Outcome::Drawn => rules.straggler_return_draw,
        Outcome::Lost => rules.straggler_return_loser,
    };
    if outcome != Outcome::Lost {
        let returning = share_of(s, clamp_share(base) * supply);
        return [returning, 0, s - returning, 0];
    }
    // The loser: rearguard first, then pursuit, then the river, each taking points of
    // what is left of the return share (never below 0).
    let rearguard = if pursuit.loser_rearguard { rules.rearguard_stragglers } else { Decimal::ZERO };
    let mut share = clamp_share(base + rearguard);
    let pursuit_points =
        if pursuit.winner_pursues { clamp_share(rules.pursuit_stragglers).min(share) } else { Decimal::ZERO };
    share -= pursuit_points;
    let river_points =
        if river_at_back { clamp_share(rules.river_stragglers).min(share) } else { Decimal::ZERO };
    share -= river_points;
    let returning = share_of(s, share * supply);
    let pursuit_captured = share_of(s, pursuit_points);
    let river = share_of(s, river_points);
    let drowned = river / 2;
    // Each floor is at most its share of s and the shares sum to at most 1, so this
    // never saturates; saturating keeps it total all the same.
    let remainder = s.saturating_sub(returning).saturating_sub(pursuit_captured).saturating_sub(river);
    let remainder_captured = remainder / 2;
    let captured = pursuit_captured + (river - drowned) + remainder_captured;
    [returning, captured, remainder - remainder_captured, drowned]
}

/// Carries one unit's battle losses into the campaign (rules 3.1, 6.5.2.3, 8.7).
///
/// Killed are lost. Wounded: the loser's first lose `wounded_captured_loser` (plus
/// `pursuit_wounded` under a pursuit) as captured; of the rest `wounded_return` (× the
/// 3.1 multiplier out of supply) return on `turn + wounded_return_turns`, the others are
/// lost. Stragglers: the outcome's return share (× the 3.1 multiplier out of supply)
/// returns on `turn + straggler_return_turns`; the winner's and a draw's others are lost.
/// For the loser the share is first raised by a rearguard, then a pursuit moves up to
/// `pursuit_stragglers` points of it into captured and a river at its back up to
/// `river_stragglers` points of what is left into drowned (half, rounded down) and
/// captured (the rest); the remainder is half captured (rounded down) and half lost.
/// Pursuit and river apply to the loser only. Guns without crew are captured by the enemy
/// when the loser's, otherwise destroyed.
///
/// Refuses losses above the unit's strength, naming the unit.
pub fn carry_over(
    rules: &CarryoverRules,
    outcome: Outcome,
    pursuit: &Pursuit,
    river_at_back: bool,
    turn: u32,
    u: &UnitLosses,
) -> Result<UnitCarryover, String> {
    let losses = u64::from(u.killed) + u64::from(u.wounded) + u64::from(u.deserted);
    if losses > u64::from(u.men_before) {
        return Err(format!(
            "unit {}: killed {} + wounded {} + deserted {} = {losses} men, more than its {} men",
            u.unit, u.killed, u.wounded, u.deserted, u.men_before
        ));
    }
    if u.guns_lost > u.guns_before {
        return Err(format!(
            "unit {}: {} guns lost, more than its {} guns",
            u.unit, u.guns_lost, u.guns_before
        ));
    }
    let [wounded_returning, wounded_captured, wounded_lost] =
        wounded_split(rules, outcome, pursuit, u.out_of_supply, u.wounded);
    let [stragglers_returning, stragglers_captured, stragglers_lost, stragglers_drowned] =
        straggler_split(rules, outcome, pursuit, river_at_back, u.out_of_supply, u.deserted);
    let (guns_captured_by_enemy, guns_destroyed) =
        if outcome == Outcome::Lost { (u.guns_lost, 0) } else { (0, u.guns_lost) };
    Ok(UnitCarryover {
        unit: u.unit.clone(),
        men_before: u.men_before,
        // losses <= men_before, checked above.
        men_after: u.men_before - u.killed - u.wounded - u.deserted,
        killed: u.killed,
        wounded_returning,
        wounded_captured,
        wounded_lost,
        stragglers_returning,
        stragglers_captured,
        stragglers_lost,
        stragglers_drowned,
        guns_before: u.guns_before,
        guns_after: u.guns_before - u.guns_lost,
        guns_captured_by_enemy,
        guns_destroyed,
        wounded_return_turn: turn.saturating_add(rules.wounded_return_turns),
        stragglers_return_turn: turn.saturating_add(rules.straggler_return_turns),
    })
}

/// The penalties of a river at the loser's back (rules 6.5.2.1, 6.5.2.2 and 6.5.2.4).
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct RiverPenalties {
    /// Brigades that rolled a 1: unavailable for combat until `until` (6.5.2.4).
    pub unavailable_brigades: Vec<String>,
    /// Batteries that rolled a 1, with the guns tipped into the river (6.5.2.4).
    pub battery_guns_lost: Vec<(String, u32)>,
    /// Statuses to add, by row id: `no-wagons` and `ammo-halved` on every row of the
    /// loser's forces (6.5.2.1–2), `unavailable` on each unavailable brigade and every row
    /// under it (6.5.2.4). Serialised as `forces.csv` writes them (`no-wagons:23;…`).
    #[serde(serialize_with = "statuses_as_text")]
    pub statuses: BTreeMap<String, Vec<Status>>,
    /// The turn at whose start the penalties end: a battle on turn 20 with the default
    /// 2-turn penalty ("1 month") leaves them in force on turns 21 and 22, so `until` is 23.
    pub until: u32,
    /// Every die rolled, in order.
    pub rolls: Vec<Roll>,
}

fn statuses_as_text<S: serde::Serializer>(
    m: &BTreeMap<String, Vec<Status>>,
    s: S,
) -> Result<S::Ok, S::Error> {
    s.collect_map(m.iter().map(|(id, v)| (id, format_status_list(v))))
}

impl RiverPenalties {
    /// Writes the penalties into an order of battle: adds each status (a status of the same
    /// kind already there keeps the later end) and takes the tipped guns from each battery.
    pub fn apply(&self, oob: &mut OrderOfBattle) {
        for (id, statuses) in &self.statuses {
            let Some(unit) = oob.get_mut(id) else { continue };
            for s in statuses {
                match unit.status_mut().iter_mut().find(|x| x.kind == s.kind) {
                    Some(x) => x.until = x.until.max(s.until),
                    None => unit.status_mut().push(*s),
                }
            }
            unit.status_mut().sort();
        }
        for (id, lost) in &self.battery_guns_lost {
            if let Some(unit) = oob.get_mut(id) {
                unit.guns = unit.guns.saturating_sub(*lost);
            }
        }
    }
}

/// Rolls and lists the penalties of a river at the loser's back (rule 6.5.2). Every row of
/// the loser's forces (`loser_forces`: ids of the top-level forces, or any rows, that took
/// part) loses its wagons and half its ammunition (6.5.2.1–2). Each brigade rolls a d6: on a
/// 1 it is unavailable (6.5.2.4). Each battery with guns rolls a d6: on a 1 it loses a
/// second d6 of guns, at most the guns it has in `c` (so apply the battle's own gun losses
/// to `c` first). Rows are visited depth first in file order, each once; unknown ids are
/// skipped. All penalties last `penalty_turns` turns after the battle's turn.
pub fn river_penalties(
    rules: &CarryoverRules,
    c: &Campaign,
    loser_forces: &[String],
    turn: u32,
    dice: &mut dyn Dice,
) -> RiverPenalties {
    let start = dice.log().len();
    let until = turn.saturating_add(1).saturating_add(rules.penalty_turns);
    let mut out = RiverPenalties { until, ..RiverPenalties::default() };
    let mut seen = BTreeSet::new();
    for force in loser_forces {
        for row in c.oob.subtree(force) {
            if !seen.insert(row.id.as_str()) {
                continue;
            }
            out.statuses.entry(row.id.to_string()).or_default().extend([
                Status { kind: StatusKind::NoWagons, until },
                Status { kind: StatusKind::AmmoHalved, until },
            ]);
            if row.level == Level::Brigade {
                if dice.roll(6, &format!("6.5.2.4 brigade {} (d6)", row.id)) == 1 {
                    out.unavailable_brigades.push(row.id.to_string());
                }
            } else if row.arm_class() == Some(ArmClass::Artillery)
                && row.guns > 0
                && dice.roll(6, &format!("6.5.2.4 battery {} (d6)", row.id)) == 1
            {
                let tipped =
                    dice.roll(6, &format!("6.5.2.4 battery {} guns tipped into the river (d6)", row.id));
                out.battery_guns_lost.push((row.id.to_string(), tipped.min(row.guns)));
            }
        }
    }
    for brigade in &out.unavailable_brigades {
        for row in c.oob.subtree(brigade) {
            out.statuses
                .entry(row.id.to_string())
                .or_default()
                .push(Status { kind: StatusKind::Unavailable, until });
        }
    }
    for statuses in out.statuses.values_mut() {
        statuses.sort();
    }
    out.rolls = dice.log().get(start..).unwrap_or_default().to_vec();
    out
}

impl CarryoverRules {
    /// Problems with `[carryover]` of `rules.toml`: shares and points outside 0–1, an edge
    /// below 1. The model clamps such values; `check` should report them.
    pub fn problems(&self) -> Vec<Problem> {
        let shares = [
            ("wounded_return", self.wounded_return),
            ("wounded_captured_loser", self.wounded_captured_loser),
            ("straggler_return_winner", self.straggler_return_winner),
            ("straggler_return_draw", self.straggler_return_draw),
            ("straggler_return_loser", self.straggler_return_loser),
            ("out_of_supply_wounded", self.out_of_supply_wounded),
            ("out_of_supply_stragglers", self.out_of_supply_stragglers),
            ("pursuit_stragglers", self.pursuit_stragglers),
            ("pursuit_wounded", self.pursuit_wounded),
            ("rearguard_stragglers", self.rearguard_stragglers),
            ("river_stragglers", self.river_stragglers),
        ];
        let problem = |key: &str, message: String| Problem {
            file: "rules.toml".to_string(),
            line: None,
            field: Some(format!("carryover.{key}")),
            message,
        };
        let mut out: Vec<Problem> = shares
            .iter()
            .filter(|(_, v)| *v < Decimal::ZERO || *v > Decimal::ONE)
            .map(|(k, v)| problem(k, format!("{v} is not a share between 0 and 1 (0.40 is 40 %)")))
            .collect();
        if self.reserve_edge < Decimal::ONE {
            out.push(problem(
                "reserve_edge",
                format!("{} is below 1: both reserves would have the edge", self.reserve_edge),
            ));
        }
        out
    }
}

#[cfg(test)]
mod tests;
