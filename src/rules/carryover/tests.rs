//! Tests of the carry-over model with the default numbers of `rules.toml`, worked by hand.

use proptest::prelude::*;
use rust_decimal_macros::dec;

use super::*;
use crate::formats::campaign::{CampaignFiles, names, parse_campaign};
use crate::model::RulesConfig;
use crate::rules::ScriptedDice;

const TURN: u32 = 20;

fn losses(men: u32, killed: u32, wounded: u32, deserted: u32) -> UnitLosses {
    UnitLosses {
        unit: "FR-I-1-1-a".into(),
        men_before: men,
        killed,
        wounded,
        deserted,
        guns_before: 0,
        guns_lost: 0,
        out_of_supply: false,
    }
}

/// The battalion of the worked examples: 600 men, 40 killed, 100 wounded, 120 deserted.
fn battalion() -> UnitLosses {
    losses(600, 40, 100, 120)
}

fn out_of_supply(mut u: UnitLosses) -> UnitLosses {
    u.out_of_supply = true;
    u
}

fn pursuit(winner_pursues: bool, loser_rearguard: bool) -> Pursuit {
    Pursuit { winner_pursues, loser_rearguard, explanation: String::new() }
}

#[track_caller]
fn carry_with(
    rules: &CarryoverRules,
    outcome: Outcome,
    p: &Pursuit,
    river: bool,
    u: &UnitLosses,
) -> UnitCarryover {
    let c = carry_over(rules, outcome, p, river, TURN, u).unwrap();
    assert!(c.conserved(), "not conserved: {c:?}");
    c
}

#[track_caller]
fn carry(outcome: Outcome, p: &Pursuit, river: bool, u: &UnitLosses) -> UnitCarryover {
    carry_with(&CarryoverRules::default(), outcome, p, river, u)
}

/// (wounded returning, captured, lost) and (stragglers returning, captured, lost, drowned).
fn split(c: &UnitCarryover) -> ([u32; 3], [u32; 4]) {
    (
        [c.wounded_returning, c.wounded_captured, c.wounded_lost],
        [c.stragglers_returning, c.stragglers_captured, c.stragglers_lost, c.stragglers_drowned],
    )
}

#[test]
fn a_beaten_battalion_carries_over_by_the_default_numbers() {
    let c = carry(Outcome::Lost, &Pursuit::default(), false, &battalion());
    // In the ranks: 600 - 40 - 100 - 120 = 340.
    // Wounded 100: 30 % captured = 30; 40 % of the other 70 return = 28; 42 lost.
    // Stragglers 120: 55 % return = 66; the other 54 half captured (27), half lost (27).
    assert_eq!(
        c,
        UnitCarryover {
            unit: "FR-I-1-1-a".into(),
            men_before: 600,
            men_after: 340,
            killed: 40,
            wounded_returning: 28,
            wounded_captured: 30,
            wounded_lost: 42,
            stragglers_returning: 66,
            stragglers_captured: 27,
            stragglers_lost: 27,
            stragglers_drowned: 0,
            guns_before: 0,
            guns_after: 0,
            guns_captured_by_enemy: 0,
            guns_destroyed: 0,
            wounded_return_turn: 24,
            stragglers_return_turn: 21,
        }
    );
    assert_eq!(c.captured(), 57);
}

#[test]
fn the_winner_and_a_draw_lose_no_prisoners() {
    // Winner: wounded 40 % of 100 return, 60 lost; stragglers 85 % of 120 = 102 return, 18 lost.
    let w = carry(Outcome::Won, &Pursuit::default(), false, &battalion());
    assert_eq!(w.men_after, 340);
    assert_eq!(split(&w), ([40, 0, 60], [102, 0, 18, 0]));
    // Draw: wounded as the winner; stragglers 75 % of 120 = 90 return, 30 lost.
    let d = carry(Outcome::Drawn, &Pursuit::default(), false, &battalion());
    assert_eq!(split(&d), ([40, 0, 60], [90, 0, 30, 0]));
}

#[test]
fn out_of_supply_fewer_return_rule_3_1() {
    // Loser: wounded 70 after capture × 40 % × 0.75 = 21 return, 49 lost.
    // Stragglers 120 × 55 % × 0.6 = 39.6 → 39 return; the other 81: 40 captured, 41 lost.
    let l = carry(Outcome::Lost, &Pursuit::default(), false, &out_of_supply(battalion()));
    assert_eq!(split(&l), ([21, 30, 49], [39, 40, 41, 0]));
    // Winner: wounded 100 × 40 % × 0.75 = 30 return; stragglers 120 × 85 % × 0.6 = 61.2 → 61.
    let w = carry(Outcome::Won, &Pursuit::default(), false, &out_of_supply(battalion()));
    assert_eq!(split(&w), ([30, 0, 70], [61, 0, 59, 0]));
    // Draw: 120 × 75 % × 0.6 = 54.
    let d = carry(Outcome::Drawn, &Pursuit::default(), false, &out_of_supply(battalion()));
    assert_eq!(split(&d), ([30, 0, 70], [54, 0, 66, 0]));
}

#[test]
fn a_pursuit_turns_25_points_of_stragglers_and_20_of_wounded_into_prisoners_rule_8_7() {
    let plain = carry(Outcome::Lost, &Pursuit::default(), false, &battalion());
    let pursued = carry(Outcome::Lost, &pursuit(true, false), false, &battalion());
    // Stragglers: 55 % - 25 = 30 % of 120 = 36 return; 25 % of 120 = 30 captured in the
    // pursuit; the other 54 as before: 27 captured, 27 lost.
    assert_eq!(plain.stragglers_returning - pursued.stragglers_returning, 30, "25 % of 120");
    assert_eq!(pursued.stragglers_captured - plain.stragglers_captured, 30);
    assert_eq!(pursued.stragglers_lost, plain.stragglers_lost);
    // Wounded: 30 % + 20 = 50 % of 100 captured; 40 % of the other 50 = 20 return; 30 lost.
    assert_eq!(split(&pursued), ([20, 50, 30], [36, 57, 27, 0]));
    assert_eq!(pursued.captured(), 107);
}

#[test]
fn pursuit_and_rearguard_touch_only_the_loser() {
    for outcome in [Outcome::Won, Outcome::Drawn] {
        let plain = carry(outcome, &Pursuit::default(), false, &battalion());
        assert_eq!(carry(outcome, &pursuit(true, false), true, &battalion()), plain);
        assert_eq!(carry(outcome, &pursuit(false, true), true, &battalion()), plain);
    }
}

#[test]
fn a_rearguard_brings_10_more_points_of_stragglers_back_rule_8_7() {
    // 55 % + 10 = 65 % of 120 = 78 return; the other 42: 21 captured, 21 lost.
    let c = carry(Outcome::Lost, &pursuit(false, true), false, &battalion());
    assert_eq!(split(&c), ([28, 30, 42], [78, 21, 21, 0]));
}

fn side(outcome: Outcome, reserve_squadrons: u32) -> SideSituation {
    SideSituation { outcome, reserve_squadrons }
}

fn resolved(winner: u32, loser: u32) -> (bool, bool) {
    let p =
        resolve_pursuit(&CarryoverRules::default(), &side(Outcome::Won, winner), &side(Outcome::Lost, loser));
    assert!(p.explanation.contains("8.7"), "{}", p.explanation);
    (p.winner_pursues, p.loser_rearguard)
}

#[test]
fn reserves_pursue_cover_or_cancel_rule_8_7() {
    assert_eq!(resolved(0, 0), (false, false));
    assert_eq!(resolved(4, 0), (true, false), "the winner's reserve alone pursues");
    assert_eq!(resolved(0, 4), (false, true), "the loser's reserve alone is a rearguard");
    assert_eq!(resolved(5, 4), (false, false), "5 is 1.25× 4: cancel");
    assert_eq!(resolved(4, 5), (false, false));
    assert_eq!(resolved(6, 4), (true, false), "6 is exactly 1.5× 4: the winner has the edge");
    assert_eq!(resolved(4, 6), (false, true), "the loser has the edge: rearguard");
    assert_eq!(resolved(8, 6), (false, false), "8 is 1.33× 6: cancel");
    let p = resolve_pursuit(&CarryoverRules::default(), &side(Outcome::Drawn, 8), &side(Outcome::Drawn, 0));
    assert_eq!((p.winner_pursues, p.loser_rearguard), (false, false), "a draw: reserves do nothing");
    assert!(p.explanation.contains("draw"));
}

#[test]
fn a_river_at_the_losers_back_drowns_and_captures_15_points_rule_6_5_2_3() {
    // 55 % - 15 = 40 % of 120 = 48 return; 15 % of 120 = 18: 9 drowned, 9 captured;
    // the other 54: 27 captured, 27 lost.
    let c = carry(Outcome::Lost, &Pursuit::default(), true, &battalion());
    assert_eq!(split(&c).1, [48, 36, 27, 9]);
    // 140 stragglers: 40 % = 56 return; 15 % = 21: 10 drowned, 11 captured; the other 63:
    // 31 captured, 32 lost (the odd man lost).
    let c = carry(Outcome::Lost, &Pursuit::default(), true, &losses(600, 0, 0, 140));
    assert_eq!(split(&c).1, [56, 42, 32, 10]);
    // The river is the loser's only.
    let w = carry(Outcome::Won, &Pursuit::default(), true, &battalion());
    assert_eq!(w, carry(Outcome::Won, &Pursuit::default(), false, &battalion()));
}

#[test]
fn pursuit_and_river_are_cumulative_rule_6_5_2_3() {
    // 55 - 25 - 15 = 15 % of 120 = 18 return; pursuit 30 captured; river 18: 9 drowned,
    // 9 captured; the other 54: 27 captured, 27 lost. Captured 30 + 9 + 27 = 66.
    let c = carry(Outcome::Lost, &pursuit(true, false), true, &battalion());
    assert_eq!(split(&c), ([20, 50, 30], [18, 66, 27, 9]));
}

fn parse_rules(text: &str) -> RulesConfig {
    toml::from_str::<RulesConfig>(text).unwrap()
}

#[test]
fn pursuit_and_river_stop_at_a_return_share_of_nothing() {
    // base 30 %: the pursuit takes 25 points, the river only the 5 that are left.
    let rules = parse_rules("[carryover]\nstraggler_return_loser = 0.30\n").carryover;
    assert_eq!(rules.straggler_return_loser, dec!(0.30));
    let c = carry_with(&rules, Outcome::Lost, &pursuit(true, false), true, &battalion());
    // None return; pursuit 30 captured; river 5 % of 120 = 6: 3 drowned, 3 captured; the
    // other 84: 42 captured, 42 lost. Captured 30 + 3 + 42 = 75.
    assert_eq!(split(&c).1, [0, 75, 42, 3]);
    // base 20 %: the pursuit itself stops at 20 points and the river finds nothing.
    let rules = parse_rules("[carryover]\nstraggler_return_loser = 0.20\n").carryover;
    let c = carry_with(&rules, Outcome::Lost, &pursuit(true, false), true, &battalion());
    // Pursuit 24 captured; the other 96: 48 captured, 48 lost.
    assert_eq!(split(&c).1, [0, 72, 48, 0]);
}

#[test]
fn guns_without_crew_go_to_the_winner_or_are_lost() {
    let mut u = losses(120, 10, 5, 5);
    u.guns_before = 8;
    u.guns_lost = 3;
    let l = carry(Outcome::Lost, &Pursuit::default(), false, &u);
    assert_eq!((l.guns_after, l.guns_captured_by_enemy, l.guns_destroyed), (5, 3, 0));
    for outcome in [Outcome::Won, Outcome::Drawn] {
        let c = carry(outcome, &Pursuit::default(), false, &u);
        assert_eq!((c.guns_after, c.guns_captured_by_enemy, c.guns_destroyed), (5, 0, 3));
    }
}

#[test]
fn losses_above_strength_are_refused_naming_the_unit() {
    let rules = CarryoverRules::default();
    let e = carry_over(&rules, Outcome::Lost, &Pursuit::default(), false, TURN, &losses(600, 300, 200, 101))
        .unwrap_err();
    assert!(e.contains("FR-I-1-1-a") && e.contains("601") && e.contains("600"), "{e}");
    let mut u = losses(120, 0, 0, 0);
    u.guns_before = 4;
    u.guns_lost = 5;
    let e = carry_over(&rules, Outcome::Won, &Pursuit::default(), false, TURN, &u).unwrap_err();
    assert!(e.contains("FR-I-1-1-a") && e.contains("5 guns"), "{e}");
    // Everything lost is allowed.
    assert!(
        carry_over(&rules, Outcome::Lost, &Pursuit::default(), false, TURN, &losses(600, 300, 200, 100))
            .is_ok()
    );
}

#[test]
fn overrides_in_rules_toml_change_the_carry_over() {
    let rules = parse_rules(
        r#"
[carryover]
wounded_return = 0.5
wounded_captured_loser = "0.10"
wounded_return_turns = 2
straggler_return_loser = 0.6
straggler_return_turns = 2
out_of_supply_stragglers = 0.5
pursuit_stragglers = 0.3
"#,
    )
    .carryover;
    assert_eq!(rules.reserve_edge, dec!(1.5), "keys not given keep their defaults");
    let c = carry_with(&rules, Outcome::Lost, &pursuit(true, false), false, &out_of_supply(battalion()));
    // Wounded: 10 % + 20 = 30 % captured = 30; 70 × 50 % × 0.75 = 26.25 → 26 return.
    // Stragglers: 60 - 30 = 30 %, × 0.5 = 15 % of 120 = 18 return; 36 captured in the
    // pursuit; the other 66: 33 captured, 33 lost.
    assert_eq!(split(&c), ([26, 30, 44], [18, 69, 33, 0]));
    assert_eq!((c.wounded_return_turn, c.stragglers_return_turn), (22, 22));
    let edge = parse_rules("[carryover]\nreserve_edge = 1.2\n").carryover;
    let p = resolve_pursuit(&edge, &side(Outcome::Won, 5), &side(Outcome::Lost, 4));
    assert!(p.winner_pursues, "5 is 1.25× 4, enough for an edge of 1.2");
}

#[test]
fn rules_toml_without_carryover_gives_the_defaults_and_refuses_unknown_keys() {
    assert_eq!(parse_rules("").carryover, CarryoverRules::default());
    assert_eq!(parse_rules("[entry]\nminutes_per_hex_foot = 50\n").carryover, CarryoverRules::default());
    let e = toml::from_str::<RulesConfig>("[carryover]\nwounded_retrun = 0.4\n").unwrap_err();
    assert!(e.to_string().contains("wounded_retrun"), "{e}");
    assert!(CarryoverRules::default().problems().is_empty());
    let bad = parse_rules("[carryover]\nstraggler_return_winner = 1.2\nreserve_edge = 0.9\n").carryover;
    let fields: Vec<_> = bad.problems().into_iter().filter_map(|p| p.field).collect();
    assert_eq!(fields, ["carryover.straggler_return_winner", "carryover.reserve_edge"]);
    // Even so, no man is created.
    let c = carry_with(&bad, Outcome::Won, &Pursuit::default(), false, &battalion());
    assert_eq!(c.stragglers_returning, 120);
}

fn outcome_strategy() -> impl Strategy<Value = Outcome> {
    prop_oneof![Just(Outcome::Won), Just(Outcome::Drawn), Just(Outcome::Lost)]
}

/// A share from -0.2 to 1.3 in hundredths, to include overrides the model must clamp.
fn share_strategy() -> impl Strategy<Value = Decimal> {
    (-20i64..=130).prop_map(|n| Decimal::new(n, 2))
}

proptest! {
    #[test]
    fn every_man_and_gun_is_accounted_for(
        men in 0u32..200_000,
        parts in (0u32..=1000, 0u32..=1000, 0u32..=1000),
        guns in (0u32..20, 0u32..20),
        outcome in outcome_strategy(),
        flags in (any::<bool>(), any::<bool>(), any::<bool>(), any::<bool>()),
        shares in proptest::collection::vec(share_strategy(), 9),
    ) {
        let (winner_pursues, loser_rearguard, river, oos) = flags;
        // Losses are thousandths of the men, summing to at most all of them.
        let total = (parts.0 + parts.1 + parts.2).max(1000);
        let part = |p: u32| u32::try_from(u64::from(men) * u64::from(p) / u64::from(total)).unwrap();
        let (killed, wounded, deserted) = (part(parts.0), part(parts.1), part(parts.2));
        let rules = CarryoverRules {
            wounded_return: shares[0],
            wounded_captured_loser: shares[1],
            straggler_return_winner: shares[2],
            straggler_return_draw: shares[3],
            straggler_return_loser: shares[4],
            out_of_supply_stragglers: shares[5],
            out_of_supply_wounded: shares[6],
            pursuit_stragglers: shares[7],
            river_stragglers: shares[8],
            ..CarryoverRules::default()
        };
        let u = UnitLosses {
            unit: "X".into(),
            men_before: men,
            killed,
            wounded,
            deserted,
            guns_before: guns.0.max(guns.1),
            guns_lost: guns.0.min(guns.1),
            out_of_supply: oos,
        };
        let p = pursuit(winner_pursues, loser_rearguard);
        let c = carry_over(&rules, outcome, &p, river, TURN, &u).unwrap();
        prop_assert!(c.conserved(), "{:?}", c);
        prop_assert_eq!(c.wounded_returning + c.wounded_captured + c.wounded_lost, wounded);
        prop_assert_eq!(
            c.stragglers_returning + c.stragglers_captured + c.stragglers_lost + c.stragglers_drowned,
            deserted
        );
        if outcome != Outcome::Lost {
            prop_assert_eq!(c.captured() + c.stragglers_drowned + c.guns_captured_by_enemy, 0);
        }
    }

    #[test]
    fn losses_above_strength_are_always_refused(men in 0u32..10_000, extra in 1u32..1000) {
        let u = losses(men, men / 2, men - men / 2, extra);
        prop_assert!(carry_over(&CarryoverRules::default(), Outcome::Won, &Pursuit::default(), false, TURN, &u).is_err());
    }
}

/// A small campaign: a French corps of two brigades and two batteries, and a Spanish force.
fn campaign() -> Campaign {
    let mut files = CampaignFiles::default();
    let mut put = |name: &'static str, text: &str| {
        files.files.insert(name, text.as_bytes().to_vec());
    };
    put(names::CAMPAIGN, "name = \"Test\"\nseed = 1808\nturn = 20\n[map]\ncolumns = 10\nrows = 10\n");
    put(names::HEXES, "hex,terrain\n");
    put(names::ROADS, "from,to,class\n");
    put(names::RIVERS, "from,to,name\n");
    put(names::SETTLEMENTS, "name,hex,kind,control\n");
    put(names::COMMANDERS, "name,side\n");
    put(names::BATTLE_MAPS, "hex,map,orientation,battle\n");
    put(
        names::FORCES,
        "id,parent,level,name,nation,arm,men,squadrons,guns,hex,status\n\
         FR-I,,corps,I Corps,Fr,,,,,01.01,\n\
         FR-I-1,FR-I,division,1st Division,Fr,,,,,,\n\
         FR-I-1-1,FR-I-1,brigade,1st Brigade,Fr,,,,,,\n\
         FR-I-1-1-a,FR-I-1-1,battalion,1/4e Ligne,Fr,line,600,,,,ammo-halved:25\n\
         FR-I-1-2,FR-I-1,brigade,2nd Brigade,Fr,,,,,,\n\
         FR-I-1-2-a,FR-I-1-2,battalion,1/9e Leger,Fr,light,550,,,,\n\
         FR-I-ART,FR-I,battery,Foot battery,Fr,foot-artillery,120,,6,,\n\
         FR-I-ART2,FR-I,battery,Horse battery,Fr,horse-artillery,90,,3,,\n\
         SP-1,,brigade,Spanish brigade,Sp,,,,,02.02,\n\
         SP-1-a,SP-1,battalion,Bailen,Sp,line,700,,,,\n",
    );
    parse_campaign(&files).unwrap()
}

#[test]
fn a_river_at_the_losers_back_costs_brigades_and_guns_rule_6_5_2_4() {
    let c = campaign();
    // Rolls in file order: brigade FR-I-1-1 → 1 (unavailable), brigade FR-I-1-2 → 4,
    // battery FR-I-ART → 1 then 4 guns, battery FR-I-ART2 → 1 then 6, capped at its 3 guns.
    let mut dice = ScriptedDice::new([1, 4, 1, 4, 1, 6]);
    let forces = vec!["FR-I".to_string()];
    let r = river_penalties(&CarryoverRules::default(), &c, &forces, TURN, &mut dice);
    assert_eq!(r.until, 23, "battle on turn 20: penalties through turns 21 and 22");
    assert_eq!(r.unavailable_brigades, ["FR-I-1-1"]);
    assert_eq!(r.battery_guns_lost, [("FR-I-ART".to_string(), 4), ("FR-I-ART2".to_string(), 3)]);
    let purposes: Vec<&str> = r.rolls.iter().map(|x| x.purpose.as_str()).collect();
    assert_eq!(
        purposes,
        [
            "6.5.2.4 brigade FR-I-1-1 (d6)",
            "6.5.2.4 brigade FR-I-1-2 (d6)",
            "6.5.2.4 battery FR-I-ART (d6)",
            "6.5.2.4 battery FR-I-ART guns tipped into the river (d6)",
            "6.5.2.4 battery FR-I-ART2 (d6)",
            "6.5.2.4 battery FR-I-ART2 guns tipped into the river (d6)",
        ]
    );
    let s = |kind, until| Status { kind, until };
    let wagons_ammo = vec![s(StatusKind::AmmoHalved, 23), s(StatusKind::NoWagons, 23)];
    let all =
        vec![s(StatusKind::Unavailable, 23), s(StatusKind::AmmoHalved, 23), s(StatusKind::NoWagons, 23)];
    let mut sorted_all = all.clone();
    sorted_all.sort();
    let mut sorted_wa = wagons_ammo.clone();
    sorted_wa.sort();
    assert_eq!(r.statuses["FR-I-1-1"], sorted_all, "the unavailable brigade");
    assert_eq!(r.statuses["FR-I-1-1-a"], sorted_all, "and its battalion");
    assert_eq!(r.statuses["FR-I-1-2-a"], sorted_wa, "6.5.2.1-2 on every row");
    assert_eq!(r.statuses.len(), 8, "every row of the corps, none of the Spanish");
    assert!(!r.statuses.contains_key("SP-1-a"));

    let mut oob = c.oob.clone();
    r.apply(&mut oob);
    let unit = |id: &str| oob.get(id).unwrap().clone();
    assert_eq!(unit("FR-I-ART").guns, 2);
    assert_eq!(unit("FR-I-ART2").guns, 0);
    assert!(unit("FR-I-1-1-a").has_status(StatusKind::Unavailable, 22));
    assert!(!unit("FR-I-1-1-a").has_status(StatusKind::Unavailable, 23));
    assert!(unit("FR-I-1-1-a").has_status(StatusKind::AmmoHalved, 24), "a later end already there stays");
    assert!(!unit("FR-I-1-2-a").has_status(StatusKind::Unavailable, 21));
    assert!(unit("FR-I-1-2-a").has_status(StatusKind::NoWagons, 22));
    assert_eq!(unit("SP-1-a").status(), []);
}

#[test]
fn river_dice_miss_and_penalties_follow_the_configured_length() {
    let c = campaign();
    // Every die a 6: no brigade fails, no battery loses guns, no second roll.
    let mut dice = ScriptedDice::new([6; 8]);
    let rules = parse_rules("[carryover]\npenalty_turns = 4\n").carryover;
    let forces = vec!["FR-I-1".to_string(), "FR-I".to_string(), "nowhere".to_string()];
    let r = river_penalties(&rules, &c, &forces, TURN, &mut dice);
    assert_eq!(r.until, 25);
    assert!(r.unavailable_brigades.is_empty() && r.battery_guns_lost.is_empty());
    assert_eq!(r.rolls.len(), 4, "each brigade and battery once, though FR-I-1 is named twice");
    assert_eq!(r.statuses.len(), 8);
}
