//! Tests of the siege phase, with rule 7.1.1's own Toledo.

use super::*;
use crate::model::{Nation, SettlementKind, Side};
use crate::rules::dice::ScriptedDice;
use crate::rules::effects::apply_effects;
use crate::rules::effects::testing::{camp, ctx};

/// Toledo (2.4.2: a city "(Fr) but invested by (Sp)", its Alcázar a fortress-town, 2.5.3)
/// held by 1,570 French, Girón's 3,770 Spaniards next door.
const TOLEDO: &str = "Toledo,28.23,city,,yes,Castile-La Mancha,Fr,Sp,yes\nMadrid,29.21,capital,,,,Sp,,\n";
const FORCES: &str = "FR-TOL,,brigade,Garnison de Tolede,Rey,Fr,,,,,28.23\n\
    FR-TOL-1,FR-TOL,battalion,28e Ligne,,Fr,line,500,,,\n\
    FR-TOL-2,FR-TOL,battalion,32e Ligne,,Fr,line,520,,,\n\
    FR-TOL-3,FR-TOL,battalion,58e Ligne,,Fr,line,550,,,\n\
    SP-MAN,,division,Giron,,Sp,,,,,28.24\n\
    SP-MAN-1,SP-MAN,battalion,1,,Sp,line,1900,,,\n\
    SP-MAN-2,SP-MAN,battalion,2,,Sp,line,1870,,,\n";

fn men(c: &Campaign, id: &str) -> u32 {
    c.oob.strength(id).men()
}

#[test]
fn toledo_holds_out_its_average_die_less_one_then_capitulates() {
    let mut c = camp(20, TOLEDO, FORCES, &[]);
    // 1dA: d6 4 → 4, −1 for the Alcázar: 3 turns — three rounds of 7.2, the advances out of
    // turns 20, 21 and 22, capitulating at the third. 7.2: garrison 1d6 3 (6 %), besiegers
    // 1d6 1 (2 %).
    let mut d = ScriptedDice::new([4, 3, 1]);
    let out = phase(&c, &ctx(20, &[]), &mut d);
    let rec = out
        .effects
        .iter()
        .find_map(|e| match e {
            Effect::Siege(r) => Some(r.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!((rec.garrison_original, rec.investors_original, rec.holds_until), (1570, 3770, 22));
    assert_eq!(rec.kind, SiegeKind::Investment);
    apply_effects(&mut c, &out.effects, 2);
    assert_eq!(men(&c, "FR-TOL"), 1570 - 94, "6 % of the original 1,570");
    assert_eq!(men(&c, "SP-MAN"), 3770 - 75);
    // Every turn, 1d6 × 2 % of the ORIGINAL strength: 2 % to 12 %.
    for turn in 21..=22 {
        let before = men(&c, "FR-TOL");
        let mut d = ScriptedDice::new([1, 1]);
        let out = phase(&c, &ctx(turn, &[]), &mut d);
        let lost: u32 = out
            .effects
            .iter()
            .filter_map(|e| match e {
                Effect::Loss { unit, men, .. } if unit.starts_with("FR-TOL") => Some(*men),
                _ => None,
            })
            .sum();
        assert_eq!(lost, 31, "turn {turn}: 2 % of 1,570");
        let taken = out
            .effects
            .iter()
            .any(|e| matches!(e, Effect::Captured { force, by: Side::Allies, .. } if force == "FR-TOL"));
        assert_eq!(taken, turn == 22, "turn {turn}: capitulates at the third round, as turn 22 ends");
        if taken {
            let prisoners: u32 = out
                .effects
                .iter()
                .filter_map(|e| match e {
                    Effect::Captured { men, .. } => Some(*men),
                    _ => None,
                })
                .sum();
            assert_eq!(prisoners, before - 31);
        }
        apply_effects(&mut c, &out.effects, 2);
    }
    assert!(c.oob.get("FR-TOL").is_none(), "the garrison is taken");
    assert_eq!(c.score.iter().find(|r| r.side == Side::Allies).unwrap().prisoners_taken, 1570 - 94 - 31 * 2);
    assert_eq!(c.books.sieges[0].state, SiegeState::Taken);
}

#[test]
fn a_sea_supplied_place_holds_two_turns_more_for_the_allies_only() {
    let cadiz = crate::model::Settlement {
        name: "Cádiz".into(),
        hex: "16.42".parse().unwrap(),
        kind: SettlementKind::FortressCity,
        port: true,
        depot: false,
        province: String::new(),
        control: crate::model::Control::Nation(Nation::Sp),
        typed: crate::model::Control::Nation(Nation::Sp),
        invested_by: Some(Nation::Fr),
        citadel: false,
        region: crate::model::Region::South,
        overrule: None,
    };
    assert_eq!(holdout_modifier(&cadiz, Side::Allies), 2);
    assert_eq!(holdout_modifier(&cadiz, Side::French), 0);
    let burgos = crate::model::Settlement { name: "Burgos".into(), ..cadiz.clone() };
    assert_eq!(holdout_modifier(&burgos, Side::French), 1, "a strong fortress-city");
    let town =
        crate::model::Settlement { name: "Astorga".into(), kind: SettlementKind::FortressTown, ..cadiz };
    assert_eq!(holdout_modifier(&town, Side::Allies), -1);
}

#[test]
fn a_storm_after_the_breach_takes_the_garrison_or_is_driven_back() {
    // A siege train at Toledo since turn 20: breached and stormed at the advance out of 21.
    let trains = [("siege-trains.csv", "nation,hex,arrived\nSp,28.24,20\n")];
    let c = camp(20, TOLEDO, FORCES, &trains);
    let mut d = ScriptedDice::new([6, 1, 1]);
    let first = phase(&c, &ctx(20, &[]), &mut d);
    let mut c1 = c.clone();
    apply_effects(&mut c1, &first.effects, 2);
    assert_eq!(c1.books.sieges[0].kind, SiegeKind::Siege);
    assert_eq!(c1.books.sieges[0].train_since, Some(20));
    // 7.2: 1, 1; storm: attacker 6+6 + 2 battalions = 14, defender 1+1 + 3 = 5; losses
    // attacker 1dA 2 (d6 1) × 5 %, defender 1dA 5 (d6 6) × 5 %.
    let mut d = ScriptedDice::new([1, 1, 6, 6, 1, 1, 1, 6]);
    let out = phase(&c1, &ctx(21, &[]), &mut d);
    let text = out.section.umpire.join("\n");
    assert!(
        text.contains("attacker 2d6 12 + 2 battalions and batteries = 14, defender 2d6 2 + 3 = 5"),
        "{text}"
    );
    assert!(out.effects.iter().any(|e| matches!(e, Effect::Captured { force, .. } if force == "FR-TOL")));
    let a_loss: u32 = out
        .effects
        .iter()
        .filter_map(|e| match e {
            Effect::Loss { unit, men, why } if unit.starts_with("SP-MAN") && why.contains("7.1.2") => {
                Some(*men)
            }
            _ => None,
        })
        .sum();
    assert_eq!(
        a_loss,
        (3770 - 75 - 75) * 10 / 100,
        "1dA 2 × 5 % of the attacker's infantry after two turns of 7.2"
    );
    // Driven back: attacker 1+1+2 = 4 against 6+6+3 = 15.
    let mut d = ScriptedDice::new([1, 1, 1, 1, 6, 6, 1, 1]);
    let out = phase(&c1, &ctx(21, &[]), &mut d);
    assert!(!out.effects.iter().any(|e| matches!(e, Effect::Captured { .. })));
    let rec = out
        .effects
        .iter()
        .rev()
        .find_map(|e| match e {
            Effect::Siege(r) => Some(r),
            _ => None,
        })
        .unwrap();
    assert_eq!((rec.repulsed, rec.state), (1, SiegeState::Active));
}

#[test]
fn a_garrison_under_a_fifth_may_be_assaulted_and_always_loses() {
    let forces = "FR-TOL,,brigade,G,Rey,Fr,,,,,28.23\nFR-TOL-1,FR-TOL,battalion,a,,Fr,line,600,,,\n\
        SP-MAN,,division,Giron,,Sp,,,,,28.24\nSP-MAN-1,SP-MAN,battalion,1,,Sp,line,4000,,,\n";
    let mut c = camp(20, TOLEDO, forces, &[]);
    let out = phase(&c, &ctx(20, &[]), &mut ScriptedDice::new([4, 1, 1]));
    apply_effects(&mut c, &out.effects, 2);
    c.books.sieges[0].action = SiegeAction::Storm;
    // 7.2 1, 1; then the defenders 1dA 3 (d6 2) × 10 %, the attackers 1dA 4 (d6 4) × 5 %.
    let out = phase(&c, &ctx(21, &[]), &mut ScriptedDice::new([1, 1, 2, 4]));
    assert!(out.effects.iter().any(|e| matches!(e, Effect::Captured { force, .. } if force == "FR-TOL")));
    assert!(out.section.umpire.join("\n").contains("7.1.3"));
}

#[test]
fn a_summons_accepted_marches_the_garrison_out_to_toulouse() {
    let places = format!("{TOLEDO}Toulouse,53.03,city,,,France,Fr,,\n");
    let mut c = camp(20, &places, FORCES, &[]);
    let out = phase(&c, &ctx(20, &[]), &mut ScriptedDice::new([4, 1, 1]));
    apply_effects(&mut c, &out.effects, 2);
    c.books.sieges[0].action = SiegeAction::Honours;
    let out = phase(&c, &ctx(21, &[]), &mut ScriptedDice::new([1, 1]));
    assert!(out.effects.contains(&Effect::Moved { force: "FR-TOL".into(), hex: "53.03".parse().unwrap() }));
    assert!(!out.effects.iter().any(|e| matches!(e, Effect::Captured { .. })), "no prisoners");
    apply_effects(&mut c, &out.effects, 2);
    assert_eq!(c.books.sieges[0].state, SiegeState::Honours);
    // The place changes hands (7.1): the investor's, no longer invested.
    assert!(out.effects.iter().any(|e| matches!(e, Effect::PlaceTaken { place, by, .. } if place == "Toledo" && *by == crate::model::Nation::Sp)));
    assert!(out.section.umpire.iter().any(|l| l.contains("Toledo (28.23) changes hands")));
    let toledo = c.map.settlements.iter().find(|s| s.name == "Toledo").unwrap();
    assert_eq!(
        (toledo.control, toledo.invested_by),
        (crate::model::Control::Nation(crate::model::Nation::Sp), None)
    );
}

#[test]
fn under_its_minimum_a_garrison_capitulates_after_one_turn_judged_once_when_invested() {
    // 450 men in the Alcázar (minimum 500, 2.5.3) against 1,800: exactly four times as many.
    // 7.1.4 is judged as the investment starts, by `export`'s judgement: the place capitulates
    // after one turn, at the first round, whatever 7.2's dice take from either side.
    let forces = "FR-TOL,,brigade,G,Rey,Fr,,,,,28.23\nFR-TOL-1,FR-TOL,battalion,a,,Fr,line,450,,,\n\
        SP-MAN,,division,Giron,,Sp,,,,,28.24\nSP-MAN-1,SP-MAN,battalion,1,,Sp,line,1800,,,\n";
    let c = camp(20, TOLEDO, forces, &[]);
    for (g, i) in [(1, 6), (6, 1), (3, 3)] {
        let out = phase(&c, &ctx(20, &[]), &mut ScriptedDice::new([6, g, i]));
        assert!(
            out.effects.iter().any(|e| matches!(e, Effect::Captured { force, .. } if force == "FR-TOL")),
            "7.2 dice {g}, {i}"
        );
        assert!(out.section.umpire.join("\n").contains("judged once as the investment starts (7.1.4)"));
    }
    let k = crate::rules::capitulation::judge(&c, "28.23".parse().unwrap(), Side::French, 450, 1800, false);
    assert_eq!(k.map(|k| k.minimum), Some(500));
    // 600 men hold: 7.1.4 is not judged again when 7.2 takes them under 500 later.
    let forces = "FR-TOL,,brigade,G,Rey,Fr,,,,,28.23\nFR-TOL-1,FR-TOL,battalion,a,,Fr,line,600,,,\n\
        SP-MAN,,division,Giron,,Sp,,,,,28.24\nSP-MAN-1,SP-MAN,battalion,1,,Sp,line,2400,,,\n";
    let mut c = camp(20, TOLEDO, forces, &[]);
    let out = phase(&c, &ctx(20, &[]), &mut ScriptedDice::new([6, 6, 1]));
    apply_effects(&mut c, &out.effects, 2);
    assert_eq!(c.oob.strength("FR-TOL").men(), 528, "under its minimum now");
    let out = phase(&c, &ctx(21, &[]), &mut ScriptedDice::new([1, 1]));
    assert!(!out.effects.iter().any(|e| matches!(e, Effect::Captured { .. })), "not re-judged");
}

#[test]
fn besiegers_below_half_their_original_strength_lift_the_siege() {
    let mut c = camp(20, TOLEDO, FORCES, &[]);
    let out = phase(&c, &ctx(20, &[]), &mut ScriptedDice::new([6, 1, 1]));
    apply_effects(&mut c, &out.effects, 2);
    // The Spaniards lose men elsewhere: 1,800 of 3,770 left, then 7.2 takes 2 % more.
    c.oob.get_mut("SP-MAN-1").unwrap().men = 900;
    c.oob.get_mut("SP-MAN-2").unwrap().men = 1000;
    let out = phase(&c, &ctx(21, &[]), &mut ScriptedDice::new([1, 1]));
    apply_effects(&mut c, &out.effects, 2);
    assert_eq!(c.books.sieges[0].state, SiegeState::Lifted);
    assert!(c.oob.get("FR-TOL").is_some());
    // The lift ends the investment: invested_by is cleared and no new one starts by itself.
    let toledo = c.map.settlements.iter().find(|s| s.name == "Toledo").unwrap();
    assert_eq!(toledo.invested_by, None);
    assert!(
        out.section.umpire.iter().any(|l| l.contains("Giron (SP-MAN) must withdraw (7.2)")),
        "{:?}",
        out.section.umpire
    );
    let out = phase(&c, &ctx(22, &[]), &mut ScriptedDice::new([6, 6, 6]));
    assert!(!out.effects.iter().any(|e| matches!(e, Effect::Siege(_))), "no new investment");
}

#[test]
fn a_relief_that_enters_joins_the_garrison_and_is_captured_with_it() {
    // Dessolles' 4,880 men march into invested Toledo (rule 7.1.1 with 7.2).
    let mut c = camp(20, TOLEDO, FORCES, &[]);
    let out = phase(&c, &ctx(20, &[]), &mut ScriptedDice::new([4, 1, 1]));
    apply_effects(&mut c, &out.effects, 2);
    let relief = "FR-RES,,division,Dessolles,,Fr,,,,,28.23\nFR-RES-1,FR-RES,battalion,a,,Fr,line,4880,,,\n";
    let mut with = camp(20, TOLEDO, &format!("{FORCES}{relief}"), &[]);
    with.books = c.books.clone();
    for u in ["FR-TOL-1", "FR-TOL-2", "FR-TOL-3", "SP-MAN-1", "SP-MAN-2"] {
        with.oob.get_mut(u).unwrap().men = c.oob.get(u).unwrap().men;
    }
    // Turn 21: he entered this turn, in contact with the investors: no round, the clock stops.
    let out = phase(&with, &ctx(21, &[("FR-RES", "29.21")]), &mut ScriptedDice::new([]));
    let rec = out
        .effects
        .iter()
        .find_map(|e| match e {
            Effect::Siege(r) => Some(r.clone()),
            _ => None,
        })
        .unwrap();
    assert_eq!((rec.garrison_original, rec.holds_until), (1570 + 4880, 23));
    assert_eq!(rec.garrison, ["FR-TOL", "FR-RES"]);
    assert!(!out.effects.iter().any(|e| matches!(e, Effect::Loss { .. })));
    apply_effects(&mut with, &out.effects, 2);
    // Turns 22 and 23: 7.2 on 6,450 (2 % = 129 men), and at the last round every defender
    // in the place is taken: no French force stands in a Toledo that changed hands.
    for turn in [22, 23] {
        let out = phase(&with, &ctx(turn, &[]), &mut ScriptedDice::new([1, 1]));
        let lost: u32 = out
            .effects
            .iter()
            .filter_map(|e| match e {
                Effect::Loss { unit, men, .. } if unit.starts_with("FR-") => Some(*men),
                _ => None,
            })
            .sum();
        assert_eq!(lost, 129, "2 % of 6,450");
        apply_effects(&mut with, &out.effects, 2);
    }
    assert!(with.oob.get("FR-RES").is_none() && with.oob.get("FR-TOL").is_none(), "all captured");
    assert_eq!(with.books.sieges[0].state, SiegeState::Taken);
}

#[test]
fn honours_of_war_go_to_the_garrisons_own_capital_or_the_nearest_friendly_place() {
    // Astorga (a fortress-town of León) held by a Galician division whose depot is Lugo: its
    // provincial capital is Santiago. Held by no one, the nearest friendly fortress instead.
    let places = "Astorga,18.09,fortress-town,,,Leon and Old Castile,Sp,Fr,\n\
        Valladolid,24.13,city,,,Leon and Old Castile,-,,\n\
        Lugo,12.06,town,,yes,Galicia,Sp,,\n\
        Santiago,07.05,city,,,Galicia,Sp,,\n\
        Ciudad Rodrigo,16.19,fortress-city,,,Leon and Old Castile,Sp,,\n";
    let forces = "SP-AST,,brigade,Astorga,,Sp,,,,,18.09\nSP-AST-1,SP-AST,battalion,a,,Sp,line,900,,,\n";
    let mut c = camp(20, places, forces, &[]);
    c.oob.get_mut("SP-AST").unwrap().rare =
        crate::model::Rare { depot: Some("Lugo".into()), ..Default::default() }.boxed();
    let astorga = &c.map.settlements[0];
    let h = honours_destination(&c, astorga, Nation::Sp, &["SP-AST".to_string()]).unwrap();
    assert_eq!(h.to.name, "Santiago", "{}", h.why);
    assert!(h.why.contains("Galicia, of its depot Lugo"), "{}", h.why);
    let mut c2 = c.clone();
    c2.map.settlements[3].control = crate::model::Control::Unrest;
    let h = honours_destination(&c2, &c2.map.settlements[0], Nation::Sp, &["SP-AST".to_string()]).unwrap();
    assert_eq!(h.to.name, "Ciudad Rodrigo", "{}", h.why);
    assert!(h.why.contains("Santiago (the provincial capital of its army's province"), "{}", h.why);
    assert!(h.why.contains("is not friendly to the Allies"), "{}", h.why);
}

#[test]
fn a_battle_between_garrison_and_investors_still_pending_stops_the_clock() {
    let mut c = camp(20, TOLEDO, FORCES, &[]);
    let out = phase(&c, &ctx(20, &[]), &mut ScriptedDice::new([4, 3, 1]));
    apply_effects(&mut c, &out.effects, 2);
    // A sally: the garrison and Girón in one battle still pending at 28.24 as turn 21 ends.
    let mut x = ctx(21, &[]);
    x.in_contact = [("FR-TOL", "28.24"), ("SP-MAN", "28.24")]
        .iter()
        .map(|(f, h)| (f.to_string(), h.parse().unwrap()))
        .collect();
    let out = phase(&c, &x, &mut ScriptedDice::new([]));
    assert!(out.effects.iter().all(|e| !matches!(e, Effect::Loss { .. })), "no round of 7.2");
    let rec = out.effects.iter().find_map(|e| match e {
        Effect::Siege(r) => Some(r.clone()),
        _ => None,
    });
    assert_eq!(rec.map(|r| (r.holds_until, r.state)), Some((23, SiegeState::Active)));
    let text = out.section.umpire.join("\n");
    assert!(
        text.contains(
            "Garnison de Tolede (FR-TOL) stands in contact with Giron (SP-MAN), unresolved at 28.24"
        ),
        "{text}"
    );
}
