//! The decisions of a battle's aftermath, one by one: the verdict, pursuit (8.7), the
//! losers' withdrawals (8.4) with the river at their backs (6.5.2), every unit's carry-over
//! and the river penalties' dice.

use std::collections::BTreeMap;

use crate::error::{Error, Problem, Problems, Result};
use crate::model::battle::{BattleRecord, Role};
use crate::model::result::Matched;
use crate::model::{Campaign, HexId, Side, Supply, Turn};
use crate::rules::carryover::{
    Outcome, Pursuit, RiverPenalties, SideSituation, UnitCarryover, UnitLosses, carry_over, resolve_pursuit,
    river_penalties,
};
use crate::rules::dice::Dice;
use crate::rules::verdict::{Presence, Verdict, objectives_held, policy_verdict};
use crate::rules::withdrawal::{check_destination, plan_withdrawal, river_list};

use super::{Aftermath, AftermathOptions, Withdrawal};

fn outcome_of(side: Side, winner: Option<Side>) -> Outcome {
    match winner {
        None => Outcome::Drawn,
        Some(w) if w == side => Outcome::Won,
        Some(_) => Outcome::Lost,
    }
}

/// The destinations the umpire gave, by losing force: one named, or every loser.
fn forced_destinations(
    items: &[(Option<String>, HexId)],
    losers: &[String],
) -> Result<BTreeMap<String, HexId>> {
    let mut out = BTreeMap::new();
    for (force, hex) in items {
        match force {
            Some(f) => {
                if !losers.contains(f) {
                    return Err(Error::refused(format!(
                        "--withdraw-to {f}={hex}: {f} is not a losing force of this battle"
                    )));
                }
                out.insert(f.clone(), *hex);
            }
            None => {
                for f in losers {
                    out.entry(f.clone()).or_insert(*hex);
                }
            }
        }
    }
    Ok(out)
}

/// True when a major river runs along a side of the hex that faces away from the victor
/// (the river at the loser's back when it cannot withdraw, 6.5.2).
fn river_behind(c: &Campaign, hex: HexId, victor_hexes: &[HexId]) -> Option<String> {
    let g = &c.map.grid;
    let near = |h: HexId| victor_hexes.iter().map(|v| g.distance(h, *v)).min().unwrap_or(0);
    g.neighbours(hex).filter(|n| near(*n) > near(hex)).find_map(|n| c.map.river(hex, n).map(str::to_string))
}

/// Decides a battle's aftermath from what its result says (`m`), the units' end positions
/// when known (`presence`, for the objectives) and the umpire's options, rolling `dice` for
/// the river penalties.
pub fn compute(
    c: &Campaign,
    b: &BattleRecord,
    m: &Matched,
    presence: Option<&Presence>,
    req: &AftermathOptions,
    dice: &mut dyn Dice,
) -> Result<Aftermath> {
    let verdict = verdict(c, b, m, presence, req);
    let winner = verdict.winner;
    if winner.is_none() {
        refuse_draw_flags(req, &verdict)?;
    }
    let pursuit = pursuit(c, b, winner);
    let (withdrawals, river_forces) = match winner {
        Some(w) => withdrawals(c, b, req, w)?,
        None => (Vec::new(), Vec::new()),
    };
    let (carryover, ammo) = carry_over_units(c, b, m, winner, &pursuit, &river_forces)?;
    let river = river_penalties_after(c, &carryover, &river_forces, dice);
    Ok(Aftermath {
        verdict,
        pursuit_explanation: pursuit.explanation.clone(),
        carryover,
        ammo,
        withdrawals,
        river,
        dice: dice.log().to_vec(),
        commanders: m.commanders.clone(),
        missing: m.missing.clone(),
        river_forces,
    })
}
/// The verdict: the umpire's (`--winner`), or the campaign's policy over the casualties each
/// side inflicted and the objectives held at the end (`presence`).
fn verdict(
    c: &Campaign,
    b: &BattleRecord,
    m: &Matched,
    presence: Option<&Presence>,
    req: &AftermathOptions,
) -> Verdict {
    let unit_side: BTreeMap<&str, Side> = b.units.iter().map(|u| (u.unit.as_str(), u.side)).collect();
    match req.winner {
        Some(w) => Verdict {
            winner: w,
            scores: BTreeMap::new(),
            held: Vec::new(),
            explanation: format!(
                "decided by the umpire (--winner {})",
                w.map_or("draw".to_string(), |s| s.slug().to_string())
            ),
        },
        None => {
            let mut inflicted: BTreeMap<Side, u64> = BTreeMap::new();
            for (unit, l) in &m.losses {
                if let Some(s) = unit_side.get(unit.as_str()) {
                    *inflicted.entry(s.enemy()).or_default() += u64::from(l.killed)
                        + u64::from(l.wounded)
                        + u64::from(l.deserted)
                        + u64::from(l.captured);
                }
            }
            let held = match presence {
                Some(presence) => objectives_held(
                    &b.objectives,
                    presence,
                    f64::from(c.rules.verdict.holding_radius_yards) * 30.0,
                ),
                None => Vec::new(),
            };
            policy_verdict(&inflicted, &b.objectives, held, c.rules.verdict.win_ratio)
        }
    }
}

/// 6.5.2 and 8.4 concern a force "defeated or obliged to attempt a withdrawal in the face of
/// a pursuer"; after a draw no side is either, so a flag that asks for them is refused,
/// never ignored.
fn refuse_draw_flags(req: &AftermathOptions, verdict: &Verdict) -> Result<()> {
    let asked: Vec<&str> = [
        (req.river_retreat == Some(true)).then_some("--river-retreat yes"),
        (!req.withdraw_to.is_empty()).then_some("--withdraw-to"),
    ]
    .into_iter()
    .flatten()
    .collect();
    if !asked.is_empty() {
        return Err(Error::refused(format!(
            "{}: the verdict is a draw ({}), and rules 6.5.2 and 8.4 apply to a force defeated or \
             obliged to withdraw in the face of a pursuer; if one side withdrew, name the other \
             as winner with --winner SIDE; nothing written",
            asked.join(" and "),
            verdict.explanation
        )));
    }
    Ok(())
}

/// Pursuit and rearguard (8.7), from the reserve squadrons each side had.
fn pursuit(c: &Campaign, b: &BattleRecord, winner: Option<Side>) -> Pursuit {
    let reserve = |s: Side| b.reserves.iter().filter(|r| r.side == s).map(|r| r.squadrons).sum::<u32>();
    match winner {
        Some(w) => resolve_pursuit(
            &c.rules.carryover,
            &SideSituation { outcome: Outcome::Won, reserve_squadrons: reserve(w) },
            &SideSituation { outcome: Outcome::Lost, reserve_squadrons: reserve(w.enemy()) },
        ),
        None => resolve_pursuit(
            &c.rules.carryover,
            &SideSituation { outcome: Outcome::Drawn, reserve_squadrons: reserve(Side::French) },
            &SideSituation { outcome: Outcome::Drawn, reserve_squadrons: reserve(Side::Allies) },
        ),
    }
}

/// The withdrawal of each losing force (8.4) and the river at its back (6.5.2); with them,
/// the forces that have a river at their back.
fn withdrawals(
    c: &Campaign,
    b: &BattleRecord,
    req: &AftermathOptions,
    w: Side,
) -> Result<(Vec<Withdrawal>, Vec<String>)> {
    let mut withdrawals = Vec::new();
    let mut river_forces = Vec::new();
    let loser = w.enemy();
    let victors: Vec<String> = b
        .participants
        .iter()
        .filter(|p| p.side == w && p.role == Role::Principal)
        .map(|p| p.force.clone())
        .collect();
    let victor_hexes: Vec<HexId> = victors.iter().filter_map(|v| c.oob.get(v).and_then(|f| f.hex)).collect();
    let losers: Vec<String> =
        b.participants.iter().filter(|p| p.side == loser).map(|p| p.force.clone()).collect();
    let forced = forced_destinations(&req.withdraw_to, &losers)?;
    let mut p = Problems::default();
    for f in &losers {
        let Some(force) = c.oob.get(f) else { continue };
        let plan = plan_withdrawal(c, f, &victors, Turn(c.config.turn));
        let (dest, by_umpire) = match forced.get(f) {
            Some(h) => match check_destination(&plan, *h) {
                Ok(d) => (Some(d.clone()), true),
                Err(why) => {
                    p.push(Problem::in_file("--withdraw-to", format!("{f} cannot withdraw to {h}: {why}")));
                    continue;
                }
            },
            None => (plan.chosen.clone(), false),
        };
        let river = match &dest {
            Some(d) if !d.crosses_rivers.is_empty() => Some(river_list(&d.crosses_rivers)),
            Some(_) => None,
            None => force.hex.and_then(|h| river_behind(c, h, &victor_hexes)),
        };
        let river = match req.river_retreat {
            Some(true) => river.or_else(|| Some("a river (--river-retreat yes)".to_string())),
            Some(false) => None,
            None => river,
        };
        if river.is_some() {
            river_forces.push(f.clone());
        }
        withdrawals.push(Withdrawal { to: dest.map(|d| d.hex), plan, river, chosen_by_umpire: by_umpire });
    }
    p.into_result()?;
    Ok((withdrawals, river_forces))
}

/// Every unit's carry-over, and the ammunition kept by units out of supply (3.1).
fn carry_over_units(
    c: &Campaign,
    b: &BattleRecord,
    m: &Matched,
    winner: Option<Side>,
    pursuit: &Pursuit,
    river_forces: &[String],
) -> Result<(Vec<UnitCarryover>, BTreeMap<String, u32>)> {
    let rules = &c.rules.carryover;
    let mut p = Problems::default();
    let mut carryover = Vec::new();
    let mut ammo = BTreeMap::new();
    for u in &b.units {
        let Some(cu) = c.oob.get(&u.unit) else {
            p.push(Problem::in_file(
                "forces.csv",
                format!("unit {} of battle {} is no longer in forces.csv", u.unit, b.id),
            ));
            continue;
        };
        let l = m.losses.get(&u.unit).cloned().unwrap_or_default();
        let out_of_supply = c.oob.force_of(&u.unit).is_some_and(|f| f.supply == Supply::Out);
        let losses = UnitLosses {
            unit: u.unit.clone(),
            men_before: cu.men,
            killed: l.killed,
            wounded: l.wounded,
            deserted: l.deserted,
            guns_before: cu.guns,
            guns_lost: l.guns_lost.min(cu.guns),
            out_of_supply,
        };
        let river = river_forces.contains(&u.force);
        match carry_over(rules, outcome_of(u.side, winner), pursuit, river, c.config.turn, &losses) {
            Ok(mut co) => {
                if l.captured > 0 {
                    if l.captured > co.men_after {
                        p.push(Problem::in_file(
                            "result",
                            format!("{}: losses above its {} men", u.unit, cu.men),
                        ));
                        continue;
                    }
                    co.men_after -= l.captured;
                    co.stragglers_captured += l.captured;
                }
                carryover.push(co);
            }
            Err(e) => p.push(Problem::in_file("result", e)),
        }
        // Rule 3.1: out of supply, a unit keeps the ammunition it ended the battle with.
        if out_of_supply && let Some(a) = l.ammo_pct {
            ammo.insert(u.unit.clone(), a);
        }
    }
    p.into_result()?;
    Ok((carryover, ammo))
}

/// The river penalties (6.5.2), rolled on the campaign after the battle's gun losses.
fn river_penalties_after(
    c: &Campaign,
    carryover: &[UnitCarryover],
    river_forces: &[String],
    dice: &mut dyn Dice,
) -> RiverPenalties {
    if river_forces.is_empty() {
        RiverPenalties::default()
    } else {
        let mut after = c.clone();
        for co in carryover {
            if let Some(u) = after.oob.get_mut(&co.unit) {
                u.guns = co.guns_after;
            }
        }
        river_penalties(&c.rules.carryover, &after, river_forces, c.config.turn, dice)
    }
}
