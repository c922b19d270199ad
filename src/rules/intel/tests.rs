//! Tests of rule 8.5 on a small campaign parsed from CSV text.

use super::*;
use crate::formats::campaign::{CampaignFiles, names, parse_campaign};
use crate::rules::{Roll, ScriptedDice, SeededDice};

const COMMANDERS: &str = "\
name,side,battles_fought,battles_won
Soult,French,5,3
Merle,French,2,1
Loison,French,4,0
Delaborde,French,1,0
Heudelet,French,0,0
Mermet,French,6,2
Reynaud,French,1,1
Wellesley,Allies,3,3
Fane,Allies,1,1
";

// French: II Corps (light cavalry 7 sqn, dragoons 4 sqn, heavy 4 sqn, 2 light battalions,
// 12 guns) and Loison's division (1 light battalion, 6 guns) make 8,613 men and 18 guns.
// Allies: Wellesley's division (1 light battalion, 2 sqn light dragoons, 6 guns) and a
// Spanish brigade.
const FORCES: &str = "\
id,parent,level,name,commander,nation,arm,men,squadrons,guns,hex,status
fr1,,corps,II Corps,Soult,Fr,,,,,03.03,
fr1d1,fr1,division,Merle's Division,Merle,Fr,,,,,,
fr1b1,fr1d1,brigade,Sarrut's Brigade,,Fr,,,,,,
b1,fr1b1,battalion,2e Leger,,Fr,light,1200,,,,
b2,fr1b1,battalion,36e Ligne,,Fr,line,1500,,,,
b3,fr1b1,battalion,4e Leger,,Fr,light,1100,,,,
fr1b2,fr1d1,brigade,Reynaud's Brigade,,Fr,,,,,,
b4,fr1b2,battalion,47e Ligne,,Fr,line,1400,,,,
art1,fr1d1,battery,Foot Battery,,Fr,foot-artillery,300,,12,,
fr1c,fr1,brigade,Franceschi's Brigade,,Fr,,,,,,
r1,fr1c,regiment,1er Hussards,,Fr,light-cavalry,500,4,,,
r2,fr1c,regiment,22e Chasseurs,,Fr,light-cavalry,450,3,,,
fr1dr,fr1,brigade,Lorge's Brigade,,Fr,,,,,,
r3,fr1dr,regiment,15e Dragons,,Fr,dragoon,600,4,,,
r4,fr1dr,regiment,13e Cuirassiers,,Fr,heavy-cavalry,500,4,,,
fr2,,division,Loison's Division,Loison,Fr,,,,,03.04,
fr2b,fr2,brigade,Charlot's Brigade,,Fr,,,,,,
b5,fr2b,battalion,12e Leger,,Fr,light,913,,,,
art2,fr2b,battery,Horse Battery,,Fr,horse-artillery,150,,6,,
fr3,,brigade,Detached Dragoons,,Fr,,,,,04.03,
r5,fr3,regiment,18e Dragons,,Fr,dragoon,300,2,,,
r6,fr3,regiment,5e Chasseurs,,Fr,light-cavalry,300,2,,,unavailable:9
fr4,,division,Delaborde's Division,Delaborde,Fr,,,,,06.06,
b6,fr4,battalion,70e Ligne,,Fr,line,3000,,,,
fr5,,division,Heudelet's Division,Heudelet,Fr,,,,,06.07,
b7,fr5,battalion,15e Ligne,,Fr,line,3000,,,,
fr6,,corps,VIII Corps,,Fr,,,,,07.07,
fr6b,fr6,brigade,Foy's Brigade,Reynaud,Fr,,,,,,
b8,fr6b,battalion,31e Leger,,Fr,light,2000,,,,
fr6d,fr6,division,Mermet's Division,Mermet,Fr,,,,,,
b9,fr6d,battalion,86e Ligne,,Fr,line,500,,,,
al1,,division,Wellesley's Division,Wellesley,Br,,,,,04.04,
al1b1,al1,brigade,Fane's Brigade,Fane,Br,,,,,,
a1,al1b1,battalion,5/60th Rifles,,Br,light,800,,,,
a2,al1b1,battalion,1/9th Foot,,Br,line,700,,,,
al1c,al1,brigade,Light Dragoon Brigade,,Br,,,,,,
a3,al1c,regiment,20th Light Dragoons,,Br,light-cavalry,300,2,,,
abat,al1,battery,Royal Artillery,,Br,foot-artillery,200,,6,,
al2,,brigade,Spanish Brigade,,Sp,,,,,05.04,
a4,al2,battalion,Regimiento de Zamora,,Sp,line,1000,,,,
";

fn campaign() -> Campaign {
    let mut files = CampaignFiles::default();
    let texts: [(&'static str, &str); 8] = [
        (names::CAMPAIGN, "name = \"Test\"\nseed = 1808\nturn = 5\n[map]\ncolumns = 10\nrows = 10\n"),
        (names::HEXES, "hex,terrain\n"),
        (names::ROADS, "from,to,class\n"),
        (names::RIVERS, "from,to,name\n"),
        (names::SETTLEMENTS, "name,hex,kind,control\n"),
        (names::COMMANDERS, COMMANDERS),
        (names::FORCES, FORCES),
        (names::BATTLE_MAPS, "hex,map,orientation,battle\n"),
    ];
    for (name, text) in texts {
        files.files.insert(name, text.as_bytes().to_vec());
    }
    match parse_campaign(&files) {
        Ok(c) => c,
        Err(p) => panic!("test campaign rejected: {p:?}"),
    }
}

fn ids(v: &[&str]) -> Vec<String> {
    v.iter().map(|s| s.to_string()).collect()
}

fn hex(s: &str) -> HexId {
    s.parse().unwrap()
}

#[test]
fn points_count_scouts_and_the_commanders_record() {
    let c = campaign();
    let p = intel_points(&c, &ids(&["fr1"]));
    assert_eq!(p.light_cavalry_squadrons, 7, "hussars 4 + chasseurs 3; cuirassiers give nothing");
    assert_eq!(p.dragoon_squadrons, 4);
    assert_eq!(p.light_battalions, 2, "two leger battalions; the ligne is not light");
    assert_eq!(p.commander.as_deref(), Some("Soult"));
    assert_eq!((p.battles_fought, p.battles_won), (5, 3));
    assert_eq!(p.total, 2 * 7 + 4 + 2 + 5 + 3);

    let both = intel_points(&c, &ids(&["fr1", "fr2"]));
    assert_eq!(both.light_battalions, 3);
    assert_eq!(both.commander.as_deref(), Some("Soult"), "the corps commander outranks Loison");
    assert_eq!(both.total, 29);

    let allies = intel_points(&c, &ids(&["al1", "al2"]));
    assert_eq!(allies.light_cavalry_squadrons, 2);
    assert_eq!(allies.light_battalions, 1);
    assert_eq!(allies.commander.as_deref(), Some("Wellesley"));
    assert_eq!(allies.total, 2 * 2 + 1 + 3 + 3);
}

#[test]
fn a_unit_is_counted_once_when_its_formation_is_also_listed() {
    let c = campaign();
    assert_eq!(intel_points(&c, &ids(&["fr1", "fr1c", "fr1"])), intel_points(&c, &ids(&["fr1"])));
}

#[test]
fn unavailable_units_do_not_scout() {
    let c = campaign();
    // The 5e Chasseurs are unavailable until turn 9; the campaign stands at turn 5.
    let p = intel_points(&c, &ids(&["fr3"]));
    assert_eq!(p.light_cavalry_squadrons, 0);
    assert_eq!(p.dragoon_squadrons, 2);
    assert_eq!(p.commander, None, "a detached brigade with no named general");
    assert_eq!(p.total, 2);
}

#[test]
fn the_senior_formation_gives_the_commander() {
    let c = campaign();
    let name = |forces: &[&str]| senior_commander(&c, &ids(forces)).map(|m| m.name.clone());
    assert_eq!(name(&["fr2", "fr1"]).as_deref(), Some("Soult"), "corps before division, whatever the order");
    assert_eq!(name(&["fr2", "fr4"]).as_deref(), Some("Delaborde"), "two divisions: more men wins");
    assert_eq!(name(&["fr5", "fr4"]).as_deref(), Some("Delaborde"), "equal men: the lower id wins");
    // VIII Corps names no commander: walk down to its senior named formation, the division
    // (fewer men than Foy's brigade, but a higher level).
    assert_eq!(name(&["fr6"]).as_deref(), Some("Mermet"));
    assert_eq!(
        name(&["fr2", "fr6"]).as_deref(),
        Some("Mermet"),
        "the corps is senior even without a general"
    );
    assert_eq!(name(&["fr3"]), None);
    assert_eq!(name(&["fr3", "fr2"]).as_deref(), Some("Loison"));
    assert_eq!(name(&["nowhere"]), None, "unknown ids are skipped");
}

#[test]
fn reading_boundaries() {
    use Reading::*;
    let cases = [
        (0, 0, Fewer),
        (1, 0, TwiceMore),
        (0, 1, TwiceFewer),
        (2, 1, TwiceMore),
        (3, 2, More),
        (2, 3, Fewer),
        (2, 2, Fewer),
        (1, 2, TwiceFewer),
        (4, 2, TwiceMore),
        (2, 4, TwiceFewer),
        (5, 2, TwiceMore),
        (5, 3, More),
        (3, 5, Fewer),
        (3, 6, TwiceFewer),
        (7, 4, More),
        (8, 4, TwiceMore),
        (4, 7, Fewer),
        (4, 8, TwiceFewer),
        (u32::MAX, u32::MAX / 2, TwiceMore),
    ];
    for (own, enemy, want) in cases {
        assert_eq!(reading(own, enemy), want, "{own} points against {enemy}");
    }
}

/// The rule's tables, face 1 first, written out from rule 8.5.
fn rule_table(r: Reading) -> Vec<i32> {
    match r {
        Reading::TwiceMore => vec![-10, -10, 0, 0, 10, 10],
        Reading::More => vec![-20, -10, 0, 0, 10, 20],
        Reading::Fewer => vec![-30, -20, -10, 0, 0, 10, 20, 30],
        Reading::TwiceFewer => vec![-40, -30, -20, -10, 0, 0, 10, 20, 30, 40],
    }
}

#[test]
fn each_reading_has_its_die_band_and_advice() {
    use Reading::*;
    for (r, die, band, brigades) in
        [(TwiceMore, 6, 10, true), (More, 6, 20, true), (Fewer, 8, 30, false), (TwiceFewer, 10, 40, false)]
    {
        assert_eq!(r.die(), die);
        assert_eq!(r.accuracy_pct(), band);
        assert_eq!(r.advises_brigades(), brigades);
        let faces: Vec<i32> = (1..=die).map(|f| r.error_pct(f)).collect();
        assert_eq!(faces, rule_table(r), "{r:?}");
    }
}

/// Briefs with scripted faces for men and guns.
fn briefed(side: Side, own: &[&str], enemy: &[&str], men_face: u32, guns_face: u32) -> (Briefing, Vec<Roll>) {
    let c = campaign();
    let mut dice = ScriptedDice::new([men_face, guns_face]);
    let b = brief(&c, "T5-03.03", hex("03.03"), side, &ids(own), &ids(enemy), &mut dice);
    (b, dice.log().to_vec())
}

#[test]
fn every_face_of_every_die_gives_the_rules_error() {
    // French 29 v Allies 11: 2x more (d6) and 2x fewer (d10).
    // French 7 (Loison 4 + 1 light battalion + 2 dragoon squadrons) v Allies 11: fewer (d8)
    // for the French, more (d6) for the Allies.
    let setups = [
        (Side::French, &["fr1", "fr2"][..], &["al1", "al2"][..], Reading::TwiceMore),
        (Side::Allies, &["al1", "al2"][..], &["fr1", "fr2"][..], Reading::TwiceFewer),
        (Side::Allies, &["al1"][..], &["fr2", "fr3"][..], Reading::More),
        (Side::French, &["fr2", "fr3"][..], &["al1"][..], Reading::Fewer),
    ];
    for (side, own, enemy, want) in setups {
        let table = rule_table(want);
        let die = table.len() as u32;
        for face in 1..=die {
            let other = die + 1 - face;
            let (b, log) = briefed(side, own, enemy, face, other);
            assert_eq!(b.reading, want);
            assert_eq!((b.men_roll, b.men_error_pct), (face, table[face as usize - 1]), "{want:?} men");
            assert_eq!((b.guns_roll, b.guns_error_pct), (other, table[other as usize - 1]), "{want:?} guns");
            assert_eq!(log.len(), 2, "one die for men, one for guns");
            assert_eq!(log[0].purpose, format!("8.5 {side} intelligence: enemy men (d{die})"));
            assert_eq!(log[1].purpose, format!("8.5 {side} intelligence: enemy guns (d{die})"));
            assert!(log.iter().all(|r| r.sides == die));
        }
    }
}

#[test]
fn reported_numbers_round_to_fifty_men_and_whole_guns() {
    assert_eq!(reported_men(4321, 0), 4300);
    assert_eq!(reported_men(4324, 0), 4300);
    assert_eq!(reported_men(4325, 0), 4350, "a half rounds up");
    assert_eq!(reported_men(1000, -40), 600);
    assert_eq!(reported_men(8613, 30), 11_200, "11,196.9");
    assert_eq!(reported_men(8613, -10), 7750, "7,751.7");
    assert_eq!(reported_men(0, 40), 0);
    assert_eq!(reported_men(20, 0), 0, "fewer than 25 men round to none");
    assert_eq!(reported_guns(18, -30), 13, "12.6");
    assert_eq!(reported_guns(18, 10), 20, "19.8");
    assert_eq!(reported_guns(5, 10), 6, "5.5 rounds up");
    assert_eq!(reported_guns(5, -10), 5, "4.5 rounds up");
    assert_eq!(reported_guns(7, -40), 4, "4.2");
    assert_eq!(reported_guns(12, 0), 12);
}

#[test]
fn the_report_counts_formations_and_skews_men_and_guns() {
    // Allies of French: 8,613 men and 18 guns. d10: 2 gives -30 %, 9 gives +30 %.
    let (b, _) = briefed(Side::Allies, &["al1", "al2"], &["fr1", "fr2"], 2, 9);
    assert_eq!(b.reported_men, 6050, "8,613 x 0.7 = 6,029.1");
    assert_eq!(b.reported_guns, 23, "18 x 1.3 = 23.4");
    assert_eq!((b.corps, b.divisions), (1, 2), "II Corps; Merle's and Loison's divisions");
    assert_eq!(b.brigades, None, "2x fewer points: brigades are not advised");
    assert_eq!(b.own.total, 11);
    assert_eq!(b.enemy_points.total, 29);

    let (b, _) = briefed(Side::French, &["fr1", "fr2"], &["al1", "al2"], 3, 1);
    assert_eq!(b.reading, Reading::TwiceMore);
    assert_eq!(b.reported_men, 3000, "exact: 800 + 700 + 300 + 200 + 1,000");
    assert_eq!(b.reported_guns, 5, "6 x 0.9 = 5.4");
    assert_eq!((b.corps, b.divisions, b.brigades), (0, 1, Some(3)), "a lone brigade counts as a brigade");
    let forces: Vec<(String, String)> =
        b.enemy_forces.iter().map(|f| (f.name.clone(), f.hex.to_string())).collect();
    // The Spanish Brigade at 05.04 touches no French force (8.1): it fights as a joiner
    // (8.6) and stays unnamed until it arrives.
    assert_eq!(forces, [("Wellesley's Division".into(), "04.04".into())]);
}

#[test]
fn more_points_advise_brigades_and_fewer_hide_them() {
    let (more, _) = briefed(Side::Allies, &["al1"], &["fr2", "fr3"], 3, 3);
    assert_eq!(more.reading, Reading::More);
    assert_eq!((more.corps, more.divisions, more.brigades), (0, 1, Some(2)));
    let (fewer, _) = briefed(Side::French, &["fr2", "fr3"], &["al1"], 4, 4);
    assert_eq!(fewer.reading, Reading::Fewer);
    assert_eq!((fewer.divisions, fewer.brigades), (1, None));
}

#[test]
fn an_enemy_reserve_scouts_but_is_not_reported() {
    let c = campaign();
    let own = Participants::fighting(&ids(&["fr1", "fr2"]));
    let enemy =
        Participants { forces: ids(&["al1", "al2"]), reserves: ids(&["al1c"]), ..Participants::default() };
    let mut dice = ScriptedDice::new([3, 3]);
    let b = brief_sides(&c, "T5-03.03", hex("03.03"), Side::French, &own, &enemy, &mut dice);
    assert_eq!(b.enemy_points.total, 11, "the 20th Light Dragoons still score their 4 points");
    assert_eq!(b.reported_men, 2700, "3,000 men less the reserve's 300");
    assert_eq!(b.brigades, Some(2), "the reserve brigade is not counted");
    assert_eq!(b.enemy_forces.len(), 1, "only Wellesley's Division is in contact");
}

#[test]
fn unavailable_units_are_not_reported() {
    // Detached Dragoons: 300 men available, the chasseurs (300) unavailable.
    let (b, _) = briefed(Side::Allies, &["al1"], &["fr3"], 3, 3);
    assert_eq!(b.reported_men, 300);
}

#[test]
fn the_briefing_reads_well_and_never_gives_the_exact_strength() {
    let (b, _) = briefed(Side::French, &["fr1", "fr2"], &["al1", "al2"], 1, 6);
    let md = b.to_markdown();
    assert!(md.starts_with("# Briefing of the French: battle T5-03.03 at 03.03\n"), "{md}");
    assert!(md.contains("| light cavalry squadrons (2 points each) | 7 | 14 |"), "{md}");
    assert!(md.contains("| battles won by Soult | 3 | 3 |"), "{md}");
    assert!(md.contains("| **French total** | | **29** |"), "{md}");
    assert!(
        !md.contains("Allies total"),
        "8.5 gives formations, men and guns, not the enemy's points:\n{md}"
    );
    assert!(md.contains("The French have at least twice the enemy's points"), "{md}");
    assert!(md.contains("One d6 for the enemy's men and another d6, rolled separately"), "{md}");
    assert!(md.contains("- Formations: 0 corps, 1 division, 3 brigades.\n"), "{md}");
    assert!(md.contains("- Strength: about 2,700 men and 7 guns (accuracy ±10 %).\n"), "{md}");
    assert!(md.contains("- Wellesley's Division at 04.04\n"), "{md}");
    assert!(!md.contains("Spanish Brigade"), "a joiner in contact with no French force is named:\n{md}");
    for exact in ["3,000", "3000", "6 guns"] {
        assert!(!md.contains(exact), "the exact enemy strength {exact} leaked:\n{md}");
    }
    assert!(!md.contains("d6 = "), "the faces stay with the umpire:\n{md}");

    let umpire = b.to_umpire_markdown();
    assert!(umpire.starts_with(&md));
    assert!(umpire.contains("- enemy men: d6 = 1, -10 %\n- enemy guns: d6 = 6, +10 %\n"), "{umpire}");
    assert!(umpire.contains("| **Allies total** | | **11** |"), "the umpire's text keeps it:\n{umpire}");
}

#[test]
fn a_side_with_fewer_points_hears_of_no_brigades() {
    let (b, _) = briefed(Side::Allies, &["al1", "al2"], &["fr1", "fr2"], 5, 5);
    let md = b.to_markdown();
    assert!(md.contains("- Formations: 1 corps, 2 divisions.\n"), "{md}");
    assert!(md.contains("- Strength: about 8,600 men and 18 guns (accuracy ±40 %).\n"), "{md}");
    assert!(!md.contains("8,613") && !md.contains("8613"), "{md}");
    assert!(md.contains("the enemy's corps and divisions are known"), "{md}");
}

#[test]
fn the_same_seed_gives_the_same_briefing() {
    let c = campaign();
    let run = || {
        let mut dice = SeededDice::new(c.config.seed, "T5-03.03");
        let fr = ids(&["fr1", "fr2"]);
        let al = ids(&["al1", "al2"]);
        brief(&c, "T5-03.03", hex("03.03"), Side::French, &fr, &al, &mut dice).to_umpire_markdown()
    };
    assert_eq!(run(), run());
}
