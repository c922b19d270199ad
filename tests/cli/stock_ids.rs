//! The shipped vocabularies against the game's real files: the x64 profile may name only ids
//! that a real stock Waterloo/Remastered OOB (R1, `tests/data/r1-stock-ids.csv`) uses, each
//! for the role it has there, with R1's attribute scales; the napmod-g1 wagon is no
//! `Wagon` (not a class in real Gettysburg-engine Logistics). sow-formats.md §7.3.

use std::collections::{BTreeMap, BTreeSet};

use sowbridge::formats::profile::{builtin, load};
use sowbridge::model::vocabulary::{SowLevel, VocabEntry, Vocabulary};

use crate::common::*;

fn shipped(name: &str) -> Vocabulary {
    let b = builtin(name).unwrap();
    load(&format!("built-in templates/{name}"), b.profile, b.vocabulary.as_bytes(), b.quality.as_bytes())
        .unwrap()
        .1
}

/// R1's ids by kind (`class`, `weapon`, `flag`, `formation`, `portrait`).
fn r1() -> BTreeMap<String, BTreeSet<String>> {
    let text = std::fs::read_to_string(repo().join("tests/data/r1-stock-ids.csv")).unwrap();
    let mut m: BTreeMap<String, BTreeSet<String>> = BTreeMap::new();
    for l in text.lines().filter(|l| !l.starts_with('#') && !l.is_empty()) {
        let (kind, id) = l.split_once(',').unwrap();
        m.entry(kind.to_string()).or_default().insert(id.to_string());
    }
    m
}

/// Ids sowbridge once wrote for x64 that R1 does not have (sow-formats.md §7.3).
const NOT_IN_R1: [&str; 10] = [
    "UGLB_FR_Inf_Light_1",
    "UGLB_FR_Inf_Grenadier_1",
    "UGLB_FR_Cav_Dragoon",
    "UGLB_FR_Cav_Cuirassier",
    "UGLB_BR_Inf_Light_1",
    "UGLB_BR_Inf_Guards_1",
    "UGLB_BR_Cav_Light_Dragoon",
    "UGLB_BR_Art_Limbered_HA",
    "GFX_Cav_French_Dragoons",
    "GFX_Cav_French_Cuirassiers",
];

fn key(e: &VocabEntry) -> String {
    format!(
        "{},{},{}",
        e.nation.map_or("*".into(), |n| n.to_string()),
        e.level,
        e.arm.map(|a| a.to_string()).unwrap_or_default()
    )
}

/// Every id of a row with the kind R1 files it under.
fn ids(e: &VocabEntry) -> Vec<(&'static str, &str)> {
    [
        ("class", e.class.as_str()),
        ("weapon", e.weapon.as_str()),
        ("flag", e.flag.as_str()),
        ("flag", e.flag2.as_str()),
        ("formation", e.formation.as_str()),
        ("portrait", e.portrait.as_str()),
    ]
    .into_iter()
    .filter(|(_, id)| !id.is_empty())
    .collect()
}

#[test]
fn the_x64_vocabulary_names_no_id_the_stock_game_lacks() {
    let v = shipped("x64");
    let real = r1();
    let mut bad = Vec::new();
    for e in &v.entries {
        for (kind, id) in ids(e) {
            if NOT_IN_R1.contains(&id) || !real[kind].contains(id) {
                bad.push(format!("line {}: {kind} {id}", e.line));
            }
        }
        assert!(e.verified, "line {}: every x64 id is a stock id, so every row is verified", e.line);
    }
    assert!(bad.is_empty(), "ids not in R1:\n{}", bad.join("\n"));
}

/// The classes R1 gives each French and British role (sow-formats.md §7.3, "Real x64
/// classes (R1), by role"), with the flag where the role has its own.
fn roles() -> Vec<(&'static str, Vec<&'static str>, Option<&'static str>)> {
    vec![
        ("Fr,unit,line", vec!["UGLB_FR_Inf_1", "UGLB_FR_Inf_3"], None),
        ("Fr,unit,light", vec!["UGLB_FR_Inf_2"], None),
        ("Fr,unit,grenadier", vec!["UGLB_FR_Inf_5", "UGLB_FR_Inf_4"], Some("GFX_French_Imperial_Gd")),
        ("Fr,unit,dragoon", vec!["UGLB_FR_Cav_2"], Some("GFX_Cav_French_Dragons")),
        ("Fr,unit,light-cavalry", vec!["UGLB_FR_Cav_5", "UGLB_FR_Cav_6", "UGLB_FR_Cav_7"], None),
        ("Fr,unit,heavy-cavalry", vec!["UGLB_FR_Cav_1"], None),
        ("Fr,gun,foot-artillery", vec!["UGLB_FR_Art_FA_Limbered_1"], Some("GFX_Art_French")),
        ("Fr,gun,horse-artillery", vec!["UGLB_FR_Art_Limbered_1"], Some("GFX_Art_French")),
        ("Fr,division,dragoon", vec!["UGLB_FR_Cav_Cdr_Div"], None),
        ("Fr,brigade,foot-artillery", vec!["UGLB_FR_Art_Cdr_Bty"], None),
        ("Fr,courier,", vec!["C_Courier"], None),
        ("Fr,wagon,", vec!["UGLB_FR_Wagon"], None),
        ("Br,unit,line", vec!["UGLB_BR_Inf_1", "UGLB_BR_Inf_12", "UGLB_BR_Inf_14", "UGLB_BR_Inf_4"], None),
        ("Br,unit,light", vec!["UGLB_BR_Inf_3", "UGLB_BR_Inf_16", "UGLB_BR_Inf_17", "UGLB_BR_Inf_2"], None),
        ("Br,unit,grenadier", vec!["UGLB_BR_Inf_6"], None),
        ("Br,unit,dragoon", vec!["UGLB_BR_Cav_2", "UGLB_BR_Cav_1"], Some("GFX_Cav_British")),
        (
            "Br,unit,light-cavalry",
            vec!["UGLB_BR_Cav_5", "UGLB_BR_Cav_4", "UGLB_BR_Cav_6", "UGLB_BR_Cav_7"],
            None,
        ),
        (
            "Br,unit,heavy-cavalry",
            vec!["UGLB_BR_Cav_2", "UGLB_BR_Cav_1", "UGLB_BR_Cav_3", "UGLB_BR_Cav_8"],
            Some("GFX_Cav_British"),
        ),
        ("Br,gun,foot-artillery", vec!["UGLB_BR_Art_Limbered_1_FA"], Some("GFX_Art_British")),
        ("Br,gun,horse-artillery", vec!["UGLB_BR_Art_Limbered_2"], Some("GFX_Art_British")),
        ("Br,division,heavy-cavalry", vec!["UGLB_BR_Cav_Cdr_Div"], None),
        ("Br,courier,", vec!["U_Courier"], None),
        ("Br,wagon,", vec!["UGLB_BR_Wagon"], None),
    ]
}

#[test]
fn french_and_british_x64_rows_use_the_stock_class_of_their_role() {
    let v = shipped("x64");
    let by: BTreeMap<String, &VocabEntry> = v.entries.iter().map(|e| (key(e), e)).collect();
    for (k, classes, flag) in roles() {
        let e = by[k];
        assert!(classes.contains(&e.class.as_str()), "{k}: {} is not one of {classes:?}", e.class);
        if let Some(f) = flag {
            assert_eq!(e.flag, f, "{k}");
        }
        assert!(e.comment.contains("R1"), "{k}: the comment names the source: {}", e.comment);
    }
    // The French musket, cavalry weapon and the British weapons R1 gives each role.
    assert_eq!(by["Fr,unit,light"].weapon, "IDS_ARSN_1777_Charleville_France");
    assert_eq!(by["Br,unit,grenadier"].weapon, "IDS_ARSN_New_Land_Pattern_British");
    assert_eq!(by["Br,unit,light"].weapon, "IDS_ARSN_New_Light_Infantry_Land_Pattern_British");
    assert_eq!(by["Br,gun,foot-artillery"].weapon, "IDS_ARSN_9lb_Cannon_Br");
    // The `*` fallback is the French rows, ids and all.
    for e in v.entries.iter().filter(|e| e.nation.is_none()) {
        let fr = by[&format!("Fr{}", &key(e)[1..])];
        assert_eq!(ids(e), ids(fr), "{}", key(e));
    }
}

#[test]
fn spanish_and_portuguese_x64_rows_borrow_the_british_rows_and_say_so() {
    let v = shipped("x64");
    let by: BTreeMap<String, &VocabEntry> = v.entries.iter().map(|e| (key(e), e)).collect();
    for nation in ["Sp", "Po"] {
        let rows: Vec<&&VocabEntry> =
            by.iter().filter(|(k, _)| k.starts_with(nation)).map(|(_, e)| e).collect();
        assert_eq!(rows.len(), 23, "{nation} has a row for every level and arm");
        for e in rows {
            assert_eq!(e.borrowed_from(), Some("borrowed from the British row"), "{}", key(e));
            let br = by[&format!("Br{}", &key(e)[2..])];
            assert_eq!(ids(e), ids(br), "{}", key(e));
            assert_eq!(e.ammo, br.ammo, "{}", key(e));
        }
    }
    let readme = std::fs::read_to_string(repo().join("templates/x64/README.md")).unwrap();
    assert!(readme.contains("borrowed from the British row"), "the README explains the borrowed rows");
}

/// R1: every unit has Fatigue 9 and Morale 9, Experience 3-8, proficiencies 3-9 and
/// Calisthenics 7; commanders' Control is a rating (brigades 3-7, divisions 2-8, corps
/// 4-9); couriers and wagons have one fixed row each.
#[test]
fn x64_quality_follows_the_stock_scales() {
    let v = shipped("x64");
    let col = |name: &str| sowbridge::model::vocabulary::ATTRIBUTES.iter().position(|a| *a == name).unwrap();
    let (control, experience, fatigue, morale) =
        (col("control"), col("experience"), col("fatigue"), col("morale"));
    assert_eq!(v.qualities.len(), 54);
    for q in &v.qualities {
        let at = |i: usize| q.values[i].unwrap_or_else(|| panic!("line {}: {} is blank", q.line, i));
        let level = q.level.unwrap();
        let tail: Vec<u8> = q.values[experience..].iter().map(|x| x.unwrap_or(u8::MAX)).collect();
        match level {
            SowLevel::Courier => assert_eq!(tail, [5, 9, 9, 1, 1, 4, 4, 4, 5, 5, 7], "line {}", q.line),
            SowLevel::Wagon => assert_eq!(tail, [0, 9, 9, 2, 2, 1, 1, 1, 5, 3, 7], "line {}", q.line),
            SowLevel::Unit | SowLevel::Gun => {
                assert_eq!((at(fatigue), at(morale)), (9, 9), "line {}", q.line);
                assert!((3..=8).contains(&at(experience)), "line {}", q.line);
                assert!(tail[3..].iter().all(|p| (3..=9).contains(p)), "line {}: {tail:?}", q.line);
                assert_eq!(tail[10], 7, "line {}: calisthenics", q.line);
            }
            _ => {
                let range = match level {
                    SowLevel::Brigade => 3..=7,
                    SowLevel::Division => 2..=8,
                    _ => 4..=9,
                };
                assert!(range.contains(&at(control)), "line {}: control {}", q.line, at(control));
                assert!(q.values[..=experience].iter().all(|x| x.is_some_and(|r| (2..=9).contains(&r))));
                assert!(q.values[fatigue..].iter().all(Option::is_none), "line {}", q.line);
            }
        }
    }
}

/// The x64 OOB exported for the fixture's battle at Medellín (French against Spanish)
/// names only stock ids, so the stock game loads it.
#[test]
fn an_x64_export_of_the_fixture_writes_only_stock_ids() {
    let c = Camp::new("peninsula");
    let out = c.tmp.path().join("out");
    let o = c.run(&["export", "hex", "18.28", "--profile", "x64", "--out", out.to_str().unwrap()]);
    assert_code(&o, 0);
    let bytes = std::fs::read(out.join("OOBs/T20-18.28.csv")).unwrap();
    let text: String = bytes.iter().map(|&b| b as char).collect();
    let mut lines = text.split("\r\n").filter(|l| !l.is_empty());
    let head: Vec<&str> = lines.next().unwrap().split(',').collect();
    let at = |name: &str| head.iter().position(|h| *h == name).unwrap();
    let cols = [
        ("class", at("CLASS")),
        ("portrait", at("PORTRAIT")),
        ("weapon", at("Weapon")),
        ("flag", at("FLAGS")),
        ("flag", at("FLAG2")),
        ("formation", at("Formation")),
    ];
    let (fatigue, morale) = (at("Fatigue"), at("Morale"));
    let real = r1();
    let mut seen = BTreeSet::new();
    let mut rows = 0;
    for l in lines {
        let f: Vec<&str> = l.split(',').collect();
        assert_eq!(f.len(), head.len(), "{l}");
        rows += 1;
        for (kind, i) in cols {
            if !f[i].is_empty() {
                assert!(real[kind].contains(f[i]), "{kind} {} is not a stock id: {l}", f[i]);
                seen.insert(f[i]);
            }
        }
        if !f[fatigue].is_empty() {
            assert_eq!((f[fatigue], f[morale]), ("9", "9"), "{l}");
        }
    }
    assert!(rows > 50, "{rows} rows");
    // Both armies are there: French ids, and the British ids the Spanish borrow.
    for id in ["UGLB_FR_Inf_1", "UGLB_FR_Cav_2", "UGLB_BR_Inf_1", "UGLB_BR_Cav_Cdr_Brig"] {
        assert!(seen.contains(id), "{id} not in the OOB");
    }
}

/// `Wagon` is not a class in real Gettysburg-engine `unitglobal.csv` (G1c); the shipped
/// napmod-g1 row must not claim it is.
#[test]
fn the_napmod_g1_wagon_is_no_verified_wagon_class() {
    let v = shipped("napmod-g1");
    for e in &v.entries {
        assert!(!(e.class == "Wagon" && e.verified), "line {}: class Wagon marked verified", e.line);
    }
    let w = v.entries.iter().find(|e| e.nation.is_none() && e.level == SowLevel::Wagon).unwrap();
    assert_ne!(w.class, "Wagon");
    assert!(!w.verified, "NapMod's own wagon class is unknown");
    assert!(w.comment.contains("not a class in real Gettysburg-engine Logistics"), "{}", w.comment);
}
