//! What a battle's result does before anything is written: the verdict, pursuit, the
//! loser's withdrawal and the river at its back, every unit's carry-over and the river
//! penalties' dice — then, on a campaign value, every change and the report.

use std::collections::BTreeMap;

use crate::error::{Error, Problem, Problems, Result};
use crate::formats::ledger::score_row;
use crate::formats::results::StartLocs;
use crate::model::battle::{BattleRecord, Role};
use crate::model::ledger::{Return, ReturnKind};
use crate::model::{Campaign, HexId, Side, Supply, Turn};
use crate::rules::carryover::{
    Outcome, RiverPenalties, SideSituation, UnitCarryover, UnitLosses, carry_over, resolve_pursuit,
    river_penalties,
};
use crate::rules::dice::{Dice, SeededDice};
use crate::rules::verdict::{Presence, Verdict, objectives_held, policy_verdict};
use crate::rules::withdrawal::{check_destination, plan_withdrawal, river_list};

use super::matching::{self, Matched, side_of_row};
use super::{ApplyRequest, Withdrawal, report};

/// Everything decided before the campaign is changed.
#[derive(Debug)]
pub(super) struct Aftermath {
    pub(super) verdict: Verdict,
    pub(super) pursuit_explanation: String,
    pub(super) carryover: Vec<UnitCarryover>,
    pub(super) ammo: BTreeMap<String, u32>,
    pub(super) withdrawals: Vec<Withdrawal>,
    pub(super) river: RiverPenalties,
    pub(super) dice: Vec<crate::rules::dice::Roll>,
    pub(super) commanders: Vec<matching::CommanderHit>,
    pub(super) missing: Vec<String>,
    pub(super) river_forces: Vec<String>,
}

fn outcome_of(side: Side, winner: Option<Side>) -> Outcome {
    match winner {
        None => Outcome::Drawn,
        Some(w) if w == side => Outcome::Won,
        Some(_) => Outcome::Lost,
    }
}

fn parse_withdraw_to(items: &[String], losers: &[String]) -> Result<BTreeMap<String, HexId>> {
    let mut out = BTreeMap::new();
    for it in items {
        let (force, hex) = match it.split_once('=') {
            Some((f, h)) => (Some(f.trim().to_string()), h),
            None => (None, it.as_str()),
        };
        let hex: HexId = hex
            .parse()
            .map_err(|e: crate::model::HexIdError| Error::refused(format!("--withdraw-to {it}: {e}")))?;
        match force {
            Some(f) => {
                if !losers.contains(&f) {
                    return Err(Error::refused(format!(
                        "--withdraw-to {it}: {f} is not a losing force of this battle"
                    )));
                }
                out.insert(f, hex);
            }
            None => {
                for f in losers {
                    out.entry(f.clone()).or_insert(hex);
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

pub(super) fn compute(
    c: &Campaign,
    b: &BattleRecord,
    m: &Matched,
    startlocs: Option<&StartLocs>,
    req: &ApplyRequest,
) -> Result<Aftermath> {
    let mut dice = SeededDice::new(c.config.seed, &format!("{}/apply", b.id));
    let unit_side: BTreeMap<&str, Side> = b.units.iter().map(|u| (u.unit.as_str(), u.side)).collect();
    // Verdict.
    let verdict = match req.winner {
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
            let held = match startlocs {
                Some(sl) => {
                    let presence: Presence = sl
                        .rows()
                        .filter_map(|(key, loc)| {
                            side_of_row(b, key).map(|s| ((loc.x, loc.z), s, loc.head_count))
                        })
                        .collect();
                    objectives_held(
                        &b.objectives,
                        &presence,
                        f64::from(c.rules.verdict.holding_radius_yards) * 30.0,
                    )
                }
                None => Vec::new(),
            };
            policy_verdict(&inflicted, &b.objectives, held, c.rules.verdict.win_ratio)
        }
    };
    let winner = verdict.winner;
    // 6.5.2 and 8.4 concern a force "defeated or obliged to attempt a withdrawal in the face of
    // a pursuer"; after a draw no side is either, so a flag that asks for them is refused,
    // never ignored.
    if winner.is_none() {
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
    }
    // Pursuit (8.7).
    let reserve = |s: Side| b.reserves.iter().filter(|r| r.side == s).map(|r| r.squadrons).sum::<u32>();
    let rules = &c.rules.carryover;
    let pursuit = match winner {
        Some(w) => resolve_pursuit(
            rules,
            &SideSituation { outcome: Outcome::Won, reserve_squadrons: reserve(w) },
            &SideSituation { outcome: Outcome::Lost, reserve_squadrons: reserve(w.enemy()) },
        ),
        None => resolve_pursuit(
            rules,
            &SideSituation { outcome: Outcome::Drawn, reserve_squadrons: reserve(Side::French) },
            &SideSituation { outcome: Outcome::Drawn, reserve_squadrons: reserve(Side::Allies) },
        ),
    };
    // Withdrawal of the loser (8.4) and the river at its back (6.5.2).
    let mut withdrawals = Vec::new();
    let mut river_forces = Vec::new();
    if let Some(w) = winner {
        let loser = w.enemy();
        let victors: Vec<String> = b
            .participants
            .iter()
            .filter(|p| p.side == w && p.role == Role::Principal)
            .map(|p| p.force.clone())
            .collect();
        let victor_hexes: Vec<HexId> =
            victors.iter().filter_map(|v| c.oob.get(v).and_then(|f| f.hex)).collect();
        let losers: Vec<String> =
            b.participants.iter().filter(|p| p.side == loser).map(|p| p.force.clone()).collect();
        let forced = parse_withdraw_to(&req.withdraw_to, &losers)?;
        let mut p = Problems::default();
        for f in &losers {
            let Some(force) = c.oob.get(f) else { continue };
            let plan = plan_withdrawal(c, f, &victors, Turn(c.config.turn));
            let (dest, by_umpire) = match forced.get(f) {
                Some(h) => match check_destination(&plan, *h) {
                    Ok(d) => (Some(d.clone()), true),
                    Err(why) => {
                        p.push(Problem::in_file(
                            "--withdraw-to",
                            format!("{f} cannot withdraw to {h}: {why}"),
                        ));
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
            withdrawals.push(Withdrawal {
                to: dest.map(|d| d.hex),
                plan,
                river,
                chosen_by_umpire: by_umpire,
            });
        }
        p.into_result()?;
    }
    // Carry-over (every unit that fought).
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
        match carry_over(rules, outcome_of(u.side, winner), &pursuit, river, c.config.turn, &losses) {
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
    // River penalties (6.5.2) on the campaign after the battle's gun losses.
    let river = if river_forces.is_empty() {
        RiverPenalties::default()
    } else {
        let mut after = c.clone();
        for co in &carryover {
            if let Some(u) = after.oob.get_mut(&co.unit) {
                u.guns = co.guns_after;
            }
        }
        river_penalties(rules, &after, &river_forces, c.config.turn, &mut dice)
    };
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

impl Aftermath {
    /// Changes the campaign and returns the report.
    pub(super) fn apply_to(
        &self,
        c: &mut Campaign,
        b: &BattleRecord,
        file: &str,
        hash: &str,
        seq: u64,
        evidence: &str,
    ) -> Result<String> {
        let turn = c.config.turn;
        let year = Turn(turn).campaign_year();
        let winner = self.verdict.winner;
        let side_of: BTreeMap<&str, Side> = b.units.iter().map(|u| (u.unit.as_str(), u.side)).collect();
        let mut prisoners: BTreeMap<Side, u32> = BTreeMap::new();
        let mut guns_taken: BTreeMap<Side, u32> = BTreeMap::new();
        for co in &self.carryover {
            let side = side_of.get(co.unit.as_str()).copied().unwrap_or(Side::French);
            *prisoners.entry(side.enemy()).or_default() += co.captured();
            *guns_taken.entry(side.enemy()).or_default() += co.guns_captured_by_enemy;
            if let Some(u) = c.oob.get_mut(&co.unit) {
                u.men = co.men_after;
                u.guns = co.guns_after;
                if let Some(a) = self.ammo.get(&co.unit) {
                    u.ammo = Some((*a).min(100) as u8);
                }
            }
            for (men, kind, at) in [
                (co.stragglers_returning, ReturnKind::Stragglers, co.stragglers_return_turn),
                (co.wounded_returning, ReturnKind::Wounded, co.wounded_return_turn),
            ] {
                if men > 0 {
                    c.returns.push(Return {
                        turn: at,
                        unit: co.unit.clone(),
                        men,
                        kind,
                        battle: b.id.clone(),
                    });
                }
            }
        }
        self.river.apply(&mut c.oob);
        for w in &self.withdrawals {
            if let (Some(to), Some(f)) = (w.to, c.oob.get_mut(&w.plan.force)) {
                f.hex = Some(to);
                f.moving_to = None;
            }
        }
        // Score (4.0) and commanders' records (8.5).
        match winner {
            Some(w) => {
                score_row(c, year, w).battles_won += 1;
                score_row(c, year, w.enemy()).battles_lost += 1;
            }
            None => {
                score_row(c, year, Side::French).battles_drawn += 1;
                score_row(c, year, Side::Allies).battles_drawn += 1;
            }
        }
        for s in [Side::French, Side::Allies] {
            let r = score_row(c, year, s);
            r.prisoners_taken += prisoners.get(&s).copied().unwrap_or(0);
            r.guns_captured += guns_taken.get(&s).copied().unwrap_or(0);
        }
        let generals = crate::rules::records::generals_who_fought(&c.oob, b);
        for (name, side) in &generals {
            if let Some(cm) = c.commanders.iter_mut().find(|x| &x.name == name) {
                cm.battles_fought += 1;
                if winner == Some(*side) {
                    cm.battles_won += 1;
                }
            }
        }
        let mut hit_names = Vec::new();
        for h in &self.commanders {
            let Some(name) = c.oob.get(&h.formation).and_then(|f| f.commander().map(str::to_string)) else {
                continue;
            };
            if let Some(cm) = c.commanders.iter_mut().find(|x| x.name == name) {
                cm.status = if h.killed { "killed".to_string() } else { "wounded".to_string() };
                hit_names.push((name, h.killed));
            }
        }
        Ok(report::render(
            c,
            b,
            &report::ReportInput {
                verdict: &self.verdict,
                pursuit: &self.pursuit_explanation,
                carryover: &self.carryover,
                withdrawals: &self.withdrawals,
                river: &self.river,
                river_forces: &self.river_forces,
                dice: &self.dice,
                commanders: &hit_names,
                missing: &self.missing,
                file,
                hash,
                seq,
                evidence,
            },
        ))
    }
}
