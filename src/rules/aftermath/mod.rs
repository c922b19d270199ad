//! A battle's aftermath, decided before anything is written: the verdict (the umpire's, or the
//! campaign's policy over casualties and objectives held), pursuit (8.7), the loser's
//! withdrawal (8.4) and the river at its back (6.5.2), every unit's carry-over and the river
//! penalties' dice — then, on a campaign value, every change: men, guns, returns, penalties,
//! hexes, the score (4.0) and the generals' records (8.5). Pure: the caller reads the files,
//! hands over the dice and writes the result.

use std::collections::BTreeMap;

use crate::error::{Error, Problem, Problems, Result};
use crate::model::battle::{BattleRecord, Role};
use crate::model::ledger::{Return, ReturnKind};
use crate::model::result::{CommanderHit, Matched};
use crate::model::{Campaign, HexId, Side, Supply, Turn};
use crate::rules::carryover::{
    Outcome, RiverPenalties, SideSituation, UnitCarryover, UnitLosses, carry_over, resolve_pursuit,
    river_penalties,
};
use crate::rules::dice::{Dice, Roll};
use crate::rules::verdict::{Presence, Verdict, objectives_held, policy_verdict};
use crate::rules::withdrawal::{WithdrawalPlan, check_destination, plan_withdrawal, river_list};

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
        let forced = forced_destinations(&req.withdraw_to, &losers)?;
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
        river_penalties(rules, &after, &river_forces, c.config.turn, dice)
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
    /// Changes the campaign value: every unit's men, guns and ammunition, the returns, the
    /// river penalties, the losers' hexes, the score (4.0) and the generals' records (8.5).
    /// Returns the commanders hit, by name, with whether each was killed.
    pub fn apply(&self, c: &mut Campaign, b: &BattleRecord) -> Vec<(String, bool)> {
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
                c.score_row(year, w).battles_won += 1;
                c.score_row(year, w.enemy()).battles_lost += 1;
            }
            None => {
                c.score_row(year, Side::French).battles_drawn += 1;
                c.score_row(year, Side::Allies).battles_drawn += 1;
            }
        }
        for s in [Side::French, Side::Allies] {
            let r = c.score_row(year, s);
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
        hit_names
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::campaign::{CampaignFiles, names, parse_campaign};
    use crate::model::result::Losses;
    use crate::rules::ScriptedDice;

    /// A French brigade at 05.03 beaten by a Spanish one at 05.02, a major road south to 05.11.
    fn campaign() -> Campaign {
        let mut files = CampaignFiles::default();
        let mut put = |name: &'static str, text: &str| {
            files.files.insert(name, text.as_bytes().to_vec());
        };
        put(names::CAMPAIGN, "name = \"Test\"\nseed = 1808\nturn = 20\n[map]\ncolumns = 12\nrows = 12\n");
        put(names::HEXES, "hex,terrain\n");
        let road: String = (3..11).map(|r| format!("05.{r:02},05.{:02},major\n", r + 1)).collect();
        put(names::ROADS, &format!("from,to,class\n{road}"));
        put(names::RIVERS, "from,to,name\n");
        put(names::SETTLEMENTS, "name,hex,kind,control\n");
        put(names::COMMANDERS, "name,side\n");
        put(
            names::FORCES,
            "id,parent,level,name,nation,arm,men,squadrons,guns,hex\n\
             FR-1,,brigade,French brigade,Fr,,,,,05.03\n\
             FR-1-a,FR-1,battalion,1/4e Ligne,Fr,line,600,,,\n\
             SP-1,,brigade,Spanish brigade,Sp,,,,,05.02\n\
             SP-1-a,SP-1,battalion,Bailen,Sp,line,700,,,\n",
        );
        parse_campaign(&files).unwrap()
    }

    fn battle() -> BattleRecord {
        let part = |force: &str, side: &str, hex: &str| {
            serde_json::json!({"force": force, "name": force, "side": side, "hex": hex, "role": "principal",
                "distance": 0, "bearing": null, "edge": "centre", "crosses_river": null, "delay_minutes": 0,
                "delay_overridden": false, "out_of_supply": false})
        };
        let unit = |unit: &str, force: &str, side: &str, men: u32| serde_json::json!({"unit": unit, "force": force, "side": side, "men": men, "guns": 0, "squadrons": 0, "ammo": 100});
        serde_json::from_value(serde_json::json!({
            "id": "T20-05.03", "state": "exported", "turn": 20, "hex": "05.03", "place": "hex 05.03",
            "attacker": "Allies", "attacker_reason": "test", "avoiding": null,
            "participants": [part("FR-1", "French", "05.03"), part("SP-1", "Allies", "05.02")],
            "excluded": [], "unavailable": [], "reserves": [],
            "map": {"id": "M", "orientation": 0, "reused": false, "reason": "", "features": []},
            "profile": "napmod-g1", "seed": 1808, "dice": [], "army_index": {"French": 1, "Allies": 1},
            "start_time": "10:00:00", "end_time": "15:00:00", "chains": [],
            "units": [unit("FR-1-a", "FR-1", "French", 600), unit("SP-1-a", "SP-1", "Allies", 700)],
            "scenario_dir": "", "oob": "", "files": {}, "result": null
        }))
        .unwrap()
    }

    fn matched() -> Matched {
        let mut m = Matched::default();
        m.losses
            .insert("FR-1-a".into(), Losses { killed: 60, wounded: 90, deserted: 50, ..Losses::default() });
        m.losses
            .insert("SP-1-a".into(), Losses { killed: 10, wounded: 20, deserted: 5, ..Losses::default() });
        m
    }

    #[test]
    fn the_beaten_force_withdraws_away_from_the_victor_and_every_man_is_accounted_for() {
        let mut c = campaign();
        let b = battle();
        let opts = AftermathOptions { winner: Some(Some(Side::Allies)), ..AftermathOptions::default() };
        let a = compute(&c, &b, &matched(), None, &opts, &mut ScriptedDice::new([])).unwrap();
        assert_eq!(a.verdict.winner, Some(Side::Allies));
        assert_eq!(a.withdrawals.len(), 1);
        let w = &a.withdrawals[0];
        assert_eq!(w.plan.force, "FR-1");
        let to = w.to.expect("the road south, away from the Spanish");
        assert!(c.map.grid.distance(to, "05.02".parse().unwrap()) > 2, "{to}");
        for co in &a.carryover {
            assert!(co.conserved(), "{co:?}");
        }
        a.apply(&mut c, &b);
        assert_eq!(c.oob.get("FR-1").and_then(|f| f.hex), Some(to));
        let fr = a.carryover.iter().find(|co| co.unit == "FR-1-a").unwrap();
        assert_eq!(c.oob.get("FR-1-a").map(|u| u.men), Some(fr.men_after));
        assert!(fr.men_after <= 600 - 60 - 90 - 50 + 50, "killed and wounded leave the battalion");
        let score: Vec<(Side, u32, u32)> =
            c.score.iter().map(|r| (r.side, r.battles_won, r.battles_lost)).collect();
        assert!(score.contains(&(Side::Allies, 1, 0)) && score.contains(&(Side::French, 0, 1)), "{score:?}");
    }

    #[test]
    fn a_draw_moves_nobody_and_refuses_a_river_retreat_rule_6_5_2() {
        let c = campaign();
        let b = battle();
        let draw = AftermathOptions { winner: Some(None), ..AftermathOptions::default() };
        let a = compute(&c, &b, &matched(), None, &draw, &mut ScriptedDice::new([])).unwrap();
        assert!(a.withdrawals.is_empty());
        let river = AftermathOptions { river_retreat: Some(true), ..draw };
        let e = compute(&c, &b, &matched(), None, &river, &mut ScriptedDice::new([])).unwrap_err();
        assert!(e.to_string().contains("rules 6.5.2 and 8.4"), "{e}");
    }

    #[test]
    fn a_destination_for_a_force_that_did_not_lose_is_refused() {
        let c = campaign();
        let b = battle();
        let opts = AftermathOptions {
            winner: Some(Some(Side::Allies)),
            withdraw_to: vec![(Some("SP-1".to_string()), "05.01".parse().unwrap())],
            ..AftermathOptions::default()
        };
        let e = compute(&c, &b, &matched(), None, &opts, &mut ScriptedDice::new([])).unwrap_err();
        assert!(e.to_string().contains("SP-1 is not a losing force"), "{e}");
    }
}
