//! `vocab check` and `vocab init` on Logistics folders written in the engine's own format:
//! documentation rows, comma-led rows, quoted fields, drills with slot maps, `NEW` blocks.

use std::collections::BTreeMap;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use sowbridge::formats::logistics::ClassType;
use sowbridge::formats::profile::{builtin, load};
use sowbridge::model::vocabulary::{ATTRIBUTE_TABLES, SowLevel, Vocabulary};
use sowbridge::ops::vocab::required_type;

use crate::common::*;

/// The shipped napmod-g1 vocabulary.
fn shipped() -> Vocabulary {
    shipped_profile("napmod-g1")
}

fn shipped_profile(name: &str) -> Vocabulary {
    let b = builtin(name).unwrap();
    load(&format!("built-in templates/{name}"), b.profile, b.vocabulary.as_bytes(), b.quality.as_bytes())
        .unwrap()
        .1
}

fn type_code(t: &ClassType) -> &'static str {
    match t {
        ClassType::Infantry => "1",
        ClassType::Cavalry => "2",
        ClassType::Artillery => "3",
        ClassType::Ordnance => "4",
        ClassType::Courier => "5",
        ClassType::Other(_) => "1",
    }
}

/// GCM's table names and level counts (sow-formats.md §1.6), `morale` levels of Morale;
/// `at_least` raises every table to that many levels (the stock x64 tables run to 9).
fn unitattributes(morale: u32, at_least: u32) -> String {
    let names = [
        ("Ability", 8),
        ("Command", 8),
        ("Control", 7),
        ("Leadership", 8),
        ("Style", 7),
        ("Experience", 10),
        ("Fatigue", 7),
        ("Morale", morale),
        ("Close Order Proficiency", 10),
        ("Open Order Proficiency", 10),
        ("Edged Weapon Proficiency", 10),
        ("Firearm Proficiency", 10),
        ("Marksmanship", 10),
        ("Horsemanship", 10),
        ("Surgeon Ability", 10),
        ("Calisthenics", 10),
    ];
    let mut s = String::from(
        ",INTEGERS ONLY,Level Name,Fallback Chance\r\n,Level Name,Textual label for this level,,\r\n",
    );
    s.push_str(",,\"Initial design has 40pts-morale,30pts-exp\",,\r\n\r\nNEW,Weather,,\r\n,Visibility (yds),Label\r\n0,900,IDS_UATT_Day_Cloudy\r\n1,1000,IDS_UATT_Day_Clear\r\n,,,\r\n");
    for (name, n) in names {
        let n = n.max(at_least);
        write!(s, "NEW,{name},,,\r\n,Points,Label,,\r\n").unwrap();
        for i in 0..n {
            write!(s, "{i},{},IDS_UATT_{i},,\r\n", 10 * (i + 1)).unwrap();
        }
        s.push_str(",,,,\r\n");
    }
    s
}

/// A Logistics folder in the engine's format holding the given classes (with types),
/// drills, small arms and guns.
fn write_logistics(
    dir: &Path,
    classes: &BTreeMap<String, &str>,
    drills: &[String],
    rifles: &[String],
    guns: &[String],
    morale: u32,
) {
    std::fs::create_dir_all(dir).unwrap();
    let mut ug = String::from("Class,Type,Alt Class,Captured Class,Walk Speed (miles/hr)\r\n,,,,\r\n");
    ug.push_str(",Class,\"this is the ID of the class, is used in the OOB and scenario.csv files\",,\r\n");
    ug.push_str(",Type,\"this determines the type of a unit,1 = Infantry,2 = Cavalry,3 = Artillery,4 = Ordnance,5 = Courier\",,\r\n");
    for (i, (id, t)) in classes.iter().enumerate() {
        // Every other class is quoted, as a spreadsheet may write it.
        if i % 2 == 0 {
            write!(ug, "\"{id}\",{t},,,4\r\n").unwrap();
        } else {
            write!(ug, "{id},{t},,,4\r\n").unwrap();
        }
    }
    std::fs::write(dir.join("unitglobal.csv"), ug).unwrap();
    let mut dr = String::from(
        "Name,ID,Rows,Columns,RowDist\r\n,idstring,[1/1000],[1/1000]\r\n,ID,\"id of this drill, used in unitglobal.csv\"\r\n",
    );
    for d in drills {
        // A definition line, then its two slot-map lines, which begin with a slot number.
        write!(dr, "Drill {d},{d},2,3,3\r\n124,122,120\r\n(3.01)125,,(0-0-2)1\r\n").unwrap();
    }
    std::fs::write(dir.join("drills.csv"), dr).unwrap();
    let weapons = |list: &[String]| {
        let mut s = String::from("Name,ID,Ammo ID,Min\r\n,idstring,idstring,[1/10000]\r\n,,,\r\n");
        for w in list {
            // The name holds a comma inside quotes: honoured, so the ID stays in column 2.
            write!(s, "\"{w}, as issued\",{w},IDS_ARSN_Musket_69_caliber,20\r\n").unwrap();
        }
        s
    };
    std::fs::write(dir.join("rifles.csv"), weapons(rifles)).unwrap();
    std::fs::write(dir.join("artillery.csv"), weapons(guns)).unwrap();
    std::fs::write(dir.join("unitattributes.csv"), unitattributes(morale, 0)).unwrap();
}

/// A Logistics folder holding every id of the shipped vocabulary, with the Type each row needs.
fn complete_logistics(dir: &Path, v: &Vocabulary, morale: u32, leave_out: &str) {
    let (mut classes, drills, rifles, guns) = vocabulary_ids(v);
    classes.remove(leave_out);
    write_logistics(dir, &classes, &drills, &rifles, &guns, morale);
}

/// Every class (with the Type its rows need), drill, small arm and gun a vocabulary names.
type Ids = (BTreeMap<String, &'static str>, Vec<String>, Vec<String>, Vec<String>);
fn vocabulary_ids(v: &Vocabulary) -> Ids {
    let mut classes: BTreeMap<String, &'static str> = BTreeMap::new();
    let (mut drills, mut rifles, mut guns) = (Vec::new(), Vec::new(), Vec::new());
    for e in &v.entries {
        let t = required_type(e.level, e.arm).map_or("1", |t| type_code(&t));
        if let Some(old) = classes.insert(e.class.clone(), t) {
            assert_eq!(old, t, "{} is asked for two unit types", e.class);
        }
        drills.push(e.formation.clone());
        match e.level {
            SowLevel::Gun => guns.push(e.weapon.clone()),
            SowLevel::Unit => rifles.push(e.weapon.clone()),
            _ => assert!(e.weapon.is_empty()),
        }
    }
    for l in [&mut drills, &mut rifles, &mut guns] {
        l.sort();
        l.dedup();
    }
    (classes, drills, rifles, guns)
}

fn nowhere(tmp: &tempfile::TempDir) -> PathBuf {
    tmp.path().join("no-campaign")
}

#[test]
fn an_install_holding_every_id_passes() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("NapMod").join("Logistics");
    complete_logistics(&dir, &shipped(), 20, "");
    let d = dir.to_str().unwrap();
    let o = sowbridge(&nowhere(&tmp), &["vocab", "check", d, "--profile", "napmod-g1"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("built-in templates/napmod-g1: all 115 rows"), "{}", stdout(&o));
    // The mod's own folder works too: its Logistics subfolder is read.
    let m = tmp.path().join("NapMod");
    let o = sowbridge(&nowhere(&tmp), &["vocab", "check", m.to_str().unwrap(), "--profile", "napmod-g1"]);
    assert_code(&o, 0);
}

#[test]
fn a_mod_without_a_file_is_layered_over_the_base_game() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("SOWGB").join("Logistics");
    complete_logistics(&base, &shipped(), 20, "");
    let modl = tmp.path().join("Mods").join("NapMod").join("Logistics");
    std::fs::create_dir_all(&modl).unwrap();
    for f in ["unitglobal.csv", "drills.csv", "rifles.csv"] {
        std::fs::copy(base.join(f), modl.join(f)).unwrap();
    }
    let m = modl.to_str().unwrap();
    let o = sowbridge(&nowhere(&tmp), &["vocab", "check", m, "--profile", "napmod-g1"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("artillery.csv: not found in"), "{}", stderr(&o));
    assert!(stderr(&o).contains("unitattributes.csv: not found in"), "{}", stderr(&o));
    let b = base.to_str().unwrap();
    let o = sowbridge(&nowhere(&tmp), &["vocab", "check", m, "--base", b, "--profile", "napmod-g1"]);
    assert_code(&o, 0);
}

#[test]
fn a_missing_class_is_named_with_its_vocabulary_line() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("Logistics");
    let v = shipped();
    complete_logistics(&dir, &v, 20, "NAP_BR_Dragoon");
    let o = sowbridge(&nowhere(&tmp), &["vocab", "check", dir.to_str().unwrap(), "--profile", "napmod-g1"]);
    assert_code(&o, 1);
    let line = v.entries.iter().find(|e| e.class == "NAP_BR_Dragoon").unwrap().line;
    let want = format!(
        "built-in templates/napmod-g1/vocabulary.csv:{line}: class: NAP_BR_Dragoon is not a Class in"
    );
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    assert!(stderr(&o).contains("1 problem:"), "only that class is missing: {}", stderr(&o));
}

#[test]
fn a_class_of_the_wrong_type_and_a_weapon_in_the_wrong_file_are_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("Logistics");
    complete_logistics(&dir, &shipped(), 20, "");
    let ug = std::fs::read_to_string(dir.join("unitglobal.csv")).unwrap();
    let ug = ug
        .replace("NAP_FR_Line_Inf\",1", "NAP_FR_Line_Inf\",2")
        .replace("NAP_FR_Line_Inf,1", "NAP_FR_Line_Inf,2");
    std::fs::write(dir.join("unitglobal.csv"), ug).unwrap();
    let rifles = std::fs::read_to_string(dir.join("rifles.csv")).unwrap();
    let moved = "\"IDS_NAP_Baker_Rifle, as issued\",IDS_NAP_Baker_Rifle,IDS_ARSN_Musket_69_caliber,20\r\n";
    assert!(rifles.contains(moved));
    std::fs::write(dir.join("rifles.csv"), rifles.replace(moved, "")).unwrap();
    let mut guns = std::fs::read_to_string(dir.join("artillery.csv")).unwrap();
    guns.push_str(moved);
    std::fs::write(dir.join("artillery.csv"), guns).unwrap();
    let o = sowbridge(&nowhere(&tmp), &["vocab", "check", dir.to_str().unwrap(), "--profile", "napmod-g1"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("NAP_FR_Line_Inf has Type 2 Cavalry in"), "{err}");
    assert!(err.contains("but a line unit needs Type 1 Infantry"), "{err}");
    assert!(err.contains("weapon: IDS_NAP_Baker_Rifle is in"), "{err}");
    assert!(err.contains("takes its weapon from"), "{err}");
}

#[test]
fn a_quality_level_beyond_the_table_is_named_with_its_attribute() {
    let tmp = tempfile::tempdir().unwrap();
    let dir = tmp.path().join("Logistics");
    // Morale 0-14: the shipped trained (15), veteran (17), elite (18) and guard (19) units
    // and guns are out of range.
    complete_logistics(&dir, &shipped(), 15, "");
    let d = dir.to_str().unwrap();
    let o = sowbridge(&nowhere(&tmp), &["vocab", "check", d, "--profile", "napmod-g1"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("quality.csv:"), "{err}");
    assert!(err.contains(": morale: level 19 is outside the Morale table"), "{err}");
    assert!(err.contains("which has levels 0-14"), "{err}");
    let o = sowbridge(&nowhere(&tmp), &["vocab", "check", d, "--profile", "napmod-g1", "--json"]);
    assert_code(&o, 1);
    let j: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(j["ok"], false);
    let findings = j["findings"].as_array().unwrap();
    assert_eq!(findings.len(), 8, "{findings:?}");
    assert!(findings.iter().all(|f| f["field"] == "morale"));
}

/// An install whose ids are not the shipped placeholders: init has to choose.
fn napmod_like(dir: &Path) {
    let classes: BTreeMap<String, &str> = [
        ("NAP_FRA_Cdr_Army", "1"),
        ("NAP_FRA_Cdr_Corps", "1"),
        ("NAP_FRA_Inf_Cdr_Div", "1"),
        ("NAP_FRA_Inf_Cdr_Brig", "1"),
        ("NAP_FRA_Cav_Cdr_Div", "2"),
        ("NAP_FRA_Cav_Cdr_Brig", "2"),
        ("NAP_FRA_Art_Cdr_Bty", "3"),
        ("NAP_FRA_Line_Infantry", "1"),
        ("NAP_FRA_Light_Infantry", "1"),
        ("NAP_FRA_Grenadiers", "1"),
        ("NAP_FRA_Dragoons", "2"),
        ("NAP_FRA_Hussars", "2"),
        ("NAP_FRA_Cuirassiers", "2"),
        ("NAP_FRA_Foot_Art_Limbered", "3"),
        ("NAP_FRA_Horse_Art_Limbered", "3"),
        ("NAP_BRIT_Line_Infantry", "1"),
        ("NAP_BRIT_Light_Infantry", "1"),
        ("NAP_BRIT_Light_Dragoons", "2"),
        ("NAP_BRIT_Foot_Art_Limbered", "3"),
        ("NAP_SPA_Line_Infantry", "1"),
        ("U_Courier", "5"),
        ("NAP_Supply_Wagon", "4"),
    ]
    .into_iter()
    .map(|(c, t)| (c.to_string(), t))
    .collect();
    let s = |l: &[&str]| l.iter().map(|x| x.to_string()).collect::<Vec<_>>();
    let drills = s(&[
        "DRIL_Lvl3_Inf_Corps_Line",
        "DRIL_Lvl4_Inf_Line",
        "DRIL_Lvl4_Cav_Column",
        "DRIL_Lvl5_Inf_Column",
        "DRIL_Lvl5_Cav_Line",
        "DRIL_Lvl5_Art_Line",
        "DRIL_Lvl6_Inf_Column",
        "DRIL_Lvl6_Inf_Line",
        "DRIL_Lvl6_Cav_Column",
        "DRIL_Lvl6_Art_Line",
        "DRIL_SupplyWagon",
    ]);
    let rifles = s(&[
        "IDS_NAP_Charleville_FR",
        "IDS_NAP_Carbine_FR",
        "IDS_NAP_Brown_Bess_BR",
        "IDS_NAP_Baker_Rifle_BR",
    ]);
    let guns = s(&["IDS_NAP_8lb_FR", "IDS_NAP_6lb_FR", "IDS_NAP_9lb_BR"]);
    write_logistics(dir, &classes, &drills, &rifles, &guns, 15);
}

/// A campaign folder with nothing but campaign.toml.
fn campaign(tmp: tempfile::TempDir) -> Camp {
    let dir = tmp.path().join("campaign");
    std::fs::create_dir_all(&dir).unwrap();
    let c = Camp { tmp, dir };
    c.write(
        "campaign.toml",
        "name = \"Test\"\nseed = 1\nturn = 1\nprofile = \"napmod-g1\"\n\n[map]\ncolumns = 10\nrows = 10\n",
    );
    c
}

#[test]
fn init_writes_a_vocabulary_that_its_install_accepts() {
    let c = campaign(tempfile::tempdir().unwrap());
    let install = c.tmp.path().join("NapMod").join("Logistics");
    napmod_like(&install);
    let i = install.to_str().unwrap();
    // The shipped placeholders are not in this install.
    assert_code(&c.run(&["vocab", "check", i]), 1);
    let o = c.run(&["vocab", "init", i]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("115 rows"), "{}", stdout(&o));
    let (vocab, quality) =
        (c.read("templates/napmod-g1/vocabulary.csv"), c.read("templates/napmod-g1/quality.csv"));
    let profile = c.read("templates/napmod-g1/profile.toml");
    let (p, v) = load("templates/napmod-g1", &profile, vocab.as_bytes(), quality.as_bytes()).unwrap();
    assert_eq!(p.name, "napmod-g1");
    // The campaign's copy is now the one checked, and the install accepts all of it.
    let o = c.run(&["vocab", "check", i]);
    assert_code(&o, 0);
    assert!(stdout(&o).starts_with("templates/napmod-g1: all 115 rows"), "{}", stdout(&o));

    let row = |n: &str, l: SowLevel, a: &str| {
        v.entries
            .iter()
            .find(|e| {
                e.nation.map_or("*".into(), |x| x.to_string()) == n
                    && e.level == l
                    && e.arm.map_or("".into(), |x| x.to_string()) == a
            })
            .unwrap()
    };
    let fr_line = row("Fr", SowLevel::Unit, "line");
    assert_eq!(
        (fr_line.class.as_str(), fr_line.weapon.as_str()),
        ("NAP_FRA_Line_Infantry", "IDS_NAP_Charleville_FR")
    );
    assert_eq!(fr_line.formation, "DRIL_Lvl6_Inf_Column", "the shipped drill is in the install and kept");
    assert!(fr_line.verified);
    assert!(
        fr_line
            .comment
            .contains("class NAP_FRA_Line_Infantry chosen from the Type 1 Infantry classes by nation + arm"),
        "{}",
        fr_line.comment
    );
    assert_eq!(fr_line.portrait, "(1-0)");
    assert_eq!(fr_line.flag, "GFX_NAP_FR_Eagle_1804", "flags are not in Logistics and are kept");
    let br_light = row("Br", SowLevel::Unit, "light");
    assert_eq!(
        (br_light.class.as_str(), br_light.weapon.as_str()),
        ("NAP_BRIT_Light_Infantry", "IDS_NAP_Baker_Rifle_BR")
    );
    assert_eq!(row("Br", SowLevel::Unit, "light-cavalry").class, "NAP_BRIT_Light_Dragoons");
    assert_eq!(row("Fr", SowLevel::Gun, "horse-artillery").weapon, "IDS_NAP_6lb_FR");
    assert_eq!(row("Br", SowLevel::Gun, "foot-artillery").weapon, "IDS_NAP_9lb_BR");
    assert_eq!(
        row("Br", SowLevel::Brigade, "foot-artillery").class,
        "NAP_FRA_Art_Cdr_Bty",
        "a battery commander, never a gun"
    );
    assert_eq!(row("Fr", SowLevel::Division, "").class, "NAP_FRA_Inf_Cdr_Div");
    assert_eq!(row("Fr", SowLevel::Division, "").formation, "DRIL_Lvl4_Inf_Line");
    assert_eq!(
        row("Fr", SowLevel::Corps, "").formation,
        "DRIL_Lvl3_Inf_Corps_Line",
        "corps take a Lvl3 drill when there is one"
    );
    assert_eq!(row("Fr", SowLevel::Division, "dragoon").class, "NAP_FRA_Cav_Cdr_Div");
    assert_eq!(row("*", SowLevel::Courier, "").class, "U_Courier");
    assert_eq!(row("*", SowLevel::Wagon, "").class, "NAP_Supply_Wagon");
    // Quality is lowered into this install's Morale table (0-14).
    assert!(v.qualities.iter().all(|q| q.values[7].is_none_or(|m| m <= 14)));
    assert_eq!(ATTRIBUTE_TABLES[7], "Morale");

    // Deterministic: the same vocabulary and install give the same bytes.
    let (a, b) = (c.tmp.path().join("a"), c.tmp.path().join("b"));
    assert_code(&c.run(&["vocab", "init", i, "--out", a.to_str().unwrap()]), 0);
    assert_code(&c.run(&["vocab", "init", i, "--out", b.to_str().unwrap()]), 0);
    let text = |d: &Path| std::fs::read_to_string(d.join("vocabulary.csv")).unwrap();
    assert_eq!(text(&a), text(&b));
    // Run again on its own output, init keeps every id it chose.
    assert!(text(&a).lines().skip(1).all(|l| !l.contains(" chosen from ")), "{}", text(&a));
}

#[test]
fn init_refuses_to_overwrite_without_force() {
    let c = campaign(tempfile::tempdir().unwrap());
    let install = c.tmp.path().join("Logistics");
    napmod_like(&install);
    let i = install.to_str().unwrap();
    let out = c.tmp.path().join("out");
    let o = out.to_str().unwrap();
    let campaign_before = c.snapshot();
    assert_code(&c.run(&["vocab", "init", i, "--out", o]), 0);
    std::fs::write(out.join("vocabulary.csv"), "edited by the umpire\n").unwrap();
    let before = snapshot(&out);
    let r = c.run(&["vocab", "init", i, "--out", o]);
    assert_code(&r, 1);
    assert!(stderr(&r).contains("already exist: give --force to overwrite"), "{}", stderr(&r));
    assert_eq!(snapshot(&out), before, "nothing was written");
    assert!(!c.path("templates").exists(), "--out leaves the campaign alone");
    assert_eq!(c.snapshot(), campaign_before);
    assert_code(&c.run(&["vocab", "init", i, "--out", o, "--force"]), 0);
    assert_ne!(snapshot(&out), before);
}

/// `export --check-vocab`: only the ids the battle writes must exist in the install.
#[test]
fn export_checks_the_ids_it_writes_against_the_install() {
    let v = shipped();
    for (leave_out, code) in [("", 0), ("NAP_PO_Line_Inf", 0), ("NAP_FR_Line_Inf", 1)] {
        let c = Camp::new("peninsula");
        let logistics = c.tmp.path().join("Logistics");
        complete_logistics(&logistics, &v, 20, leave_out);
        let out = c.tmp.path().join("out");
        let before = c.snapshot();
        let o = c.run(&[
            "export",
            "hex",
            "18.28",
            "--out",
            out.to_str().unwrap(),
            "--check-vocab",
            logistics.to_str().unwrap(),
        ]);
        assert_code(&o, code);
        if code == 1 {
            assert!(stderr(&o).contains("NAP_FR_Line_Inf"), "{}", stderr(&o));
            assert!(!out.exists());
            assert_eq!(c.snapshot(), before);
        }
    }
}

/// A vocabulary written by `vocab init` into the campaign is the one `export` uses.
#[test]
fn export_uses_the_vocabulary_that_init_wrote() {
    let c = Camp::new("peninsula");
    let install = c.tmp.path().join("NapMod").join("Logistics");
    napmod_like(&install);
    let i = install.to_str().unwrap();
    assert_code(&c.run(&["vocab", "init", i]), 0);
    let out = c.tmp.path().join("out");
    let o = c.run(&["export", "hex", "18.28", "--out", out.to_str().unwrap(), "--check-vocab", i]);
    assert_code(&o, 0);
    let oob = std::fs::read(out.join("OOBs/T20-18.28.csv")).unwrap();
    let text: String = oob.iter().map(|&b| b as char).collect();
    assert!(text.contains("NAP_FRA_Line_Infantry"), "the install's class is not in the OOB");
    assert!(!text.contains("NAP_FR_Line_Inf,"), "the shipped placeholder is still in the OOB");
}

/// The x64 profile's Spanish and Portuguese rows borrow British stock ids; `vocab init` on a
/// mod that has Spanish classes of its own gives the Spanish rows those, and leaves the
/// Portuguese rows (no Portuguese class in the install) borrowed and saying so.
#[test]
fn init_replaces_borrowed_ids_with_the_installs_own_nation() {
    let c = campaign(tempfile::tempdir().unwrap());
    c.write(
        "campaign.toml",
        "name = \"Test\"\nseed = 1\nturn = 1\nprofile = \"x64\"\n\n[map]\ncolumns = 10\nrows = 10\n",
    );
    let install = c.tmp.path().join("Mod").join("Logistics");
    let (mut classes, drills, mut rifles, guns) = vocabulary_ids(&shipped_profile("x64"));
    classes.insert("NAP_SPA_Line_Infantry".into(), "1");
    classes.insert("NAP_SPA_Cav_Cdr_Brig".into(), "2");
    rifles.push("IDS_NAP_Spanish_Musket_1791".into());
    write_logistics(&install, &classes, &drills, &rifles, &guns, 20);
    std::fs::write(install.join("unitattributes.csv"), unitattributes(20, 10)).unwrap();
    let i = install.to_str().unwrap();
    assert_code(&c.run(&["vocab", "check", i]), 0);
    assert_code(&c.run(&["vocab", "init", i]), 0);
    let (vocab, quality) = (c.read("templates/x64/vocabulary.csv"), c.read("templates/x64/quality.csv"));
    let (_, v) =
        load("templates/x64", &c.read("templates/x64/profile.toml"), vocab.as_bytes(), quality.as_bytes())
            .unwrap();
    let row = |n: &str, l: SowLevel, a: &str| {
        v.entries
            .iter()
            .find(|e| {
                e.nation.map_or("*".into(), |x| x.to_string()) == n
                    && e.level == l
                    && e.arm.map_or("".into(), |x| x.to_string()) == a
            })
            .unwrap()
    };
    let sp_line = row("Sp", SowLevel::Unit, "line");
    assert_eq!(
        (sp_line.class.as_str(), sp_line.weapon.as_str()),
        ("NAP_SPA_Line_Infantry", "IDS_NAP_Spanish_Musket_1791")
    );
    assert!(sp_line.comment.contains("instead of the borrowed UGLB_BR_Inf_1"), "{}", sp_line.comment);
    assert!(sp_line.comment.contains("flags still borrowed from the British row"), "{}", sp_line.comment);
    assert_eq!(sp_line.borrowed_from(), None);
    assert_eq!(row("Sp", SowLevel::Brigade, "dragoon").class, "NAP_SPA_Cav_Cdr_Brig");
    // A Spanish musket is no cavalry weapon: the borrowed swords and pistols stay.
    assert_eq!(row("Sp", SowLevel::Unit, "heavy-cavalry").weapon, "IDS_ARSN_Swords_and_Pistols");
    // No Spanish gun in the install: the borrowed British one stays, marked as borrowed.
    let sp_gun = row("Sp", SowLevel::Gun, "foot-artillery");
    assert_eq!(sp_gun.class, "UGLB_BR_Art_Limbered_1_FA");
    assert_eq!(sp_gun.borrowed_from(), Some("borrowed from the British row"), "{}", sp_gun.comment);
    for e in v.entries.iter().filter(|e| e.nation.is_some_and(|n| n.to_string() == "Po")) {
        assert_eq!(e.borrowed_from(), Some("borrowed from the British row"), "{}", e.comment);
        assert!(e.class.starts_with("UGLB_BR_") || e.class == "U_Courier", "{}", e.class);
    }
    // French and British rows keep their stock ids.
    assert_eq!(row("Fr", SowLevel::Unit, "dragoon").class, "UGLB_FR_Cav_2");
    assert_eq!(row("Br", SowLevel::Unit, "line").class, "UGLB_BR_Inf_1");
    // Run again on its own output, init changes nothing.
    let (a, b) = (c.tmp.path().join("a"), c.tmp.path().join("b"));
    assert_code(&c.run(&["vocab", "init", i, "--out", a.to_str().unwrap()]), 0);
    assert_code(&c.run(&["vocab", "init", i, "--out", b.to_str().unwrap(), "--force"]), 0);
    let text = |d: &Path| std::fs::read_to_string(d.join("vocabulary.csv")).unwrap();
    assert_eq!(text(&a), text(&b));
}

/// Windows: Excel holds one of the files `vocab init --force` would replace.
#[cfg(windows)]
#[test]
fn init_with_a_file_open_in_excel_replaces_none_of_them() {
    use std::os::windows::fs::OpenOptionsExt;
    let c = campaign(tempfile::tempdir().unwrap());
    let install = c.tmp.path().join("Logistics");
    napmod_like(&install);
    let i = install.to_str().unwrap();
    let out = c.tmp.path().join("out");
    let o = out.to_str().unwrap();
    assert_code(&c.run(&["vocab", "init", i, "--out", o]), 0);
    std::fs::write(out.join("vocabulary.csv"), "edited by the umpire\n").unwrap();
    let before = snapshot(&out);
    let held = std::fs::OpenOptions::new().read(true).share_mode(0x1).open(out.join("quality.csv")).unwrap();
    let r = c.run(&["vocab", "init", i, "--out", o, "--force"]);
    assert_code(&r, 1);
    let named = format!("{} is open in another program, perhaps Excel", out.join("quality.csv").display());
    assert!(stderr(&r).contains(&named), "{}", stderr(&r));
    assert_eq!(snapshot(&out), before, "a file was replaced");
    drop(held);
    assert_code(&c.run(&["vocab", "init", i, "--out", o, "--force"]), 0);
}

/// An x64 install: its `Logistics` holds every id of the x64 vocabulary; its names file, beside
/// it under `Layout/Media/Language`, has a byte-order mark and a stray `&` (no well-formed XML).
#[test]
fn an_x64_check_reads_the_install_s_names_file_and_names_the_ids_the_game_already_names() {
    let tmp = tempfile::tempdir().unwrap();
    let base = tmp.path().join("Base");
    complete_logistics(&base.join("Logistics"), &shipped_profile("x64"), 20, "");
    std::fs::write(base.join("Logistics/unitattributes.csv"), unitattributes(20, 10)).unwrap();
    let lang = base.join("Layout/Media/Language");
    std::fs::create_dir_all(&lang).unwrap();
    let names = "\u{feff}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<MyGUI>\r\n\
                 <Tag name=\"OOB_Fr_Ney\">Michel Ney & Staff</Tag>\r\n</MyGUI>\r\n";
    std::fs::write(lang.join("OOBNames.xml"), names).unwrap();
    let logistics = base.join("Logistics");
    let args = ["vocab", "check", logistics.to_str().unwrap(), "--profile", "x64"];
    let o = sowbridge(&nowhere(&tmp), &args);
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains("OOBNames.xml: 1 tags, byte-order mark, no well-formed XML"),
        "{}",
        stderr(&o)
    );
    // The game naming an id of sowbridge's scheme is a finding.
    std::fs::write(
        lang.join("OOBNames.xml"),
        names.replace("</MyGUI>", "<Tag name=\"OOB_1_1_0_0_0_0\">Clash</Tag></MyGUI>"),
    )
    .unwrap();
    let o = sowbridge(&nowhere(&tmp), &args);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("OOB_1_1_0_0_0_0: the game already names an id of sowbridge's scheme"),
        "{}",
        stderr(&o)
    );
    let mut json_args = args.to_vec();
    json_args.push("--json");
    let j: serde_json::Value = serde_json::from_slice(&sowbridge(&nowhere(&tmp), &json_args).stdout).unwrap();
    assert_eq!(j["names"]["sowbridge_ids"], serde_json::json!(["OOB_1_1_0_0_0_0"]));
    assert_eq!(j["names"]["bom"], true);
    // A G1 check looks for no names file.
    let o =
        sowbridge(&nowhere(&tmp), &["vocab", "check", logistics.to_str().unwrap(), "--profile", "napmod-g1"]);
    assert!(!stderr(&o).contains("OOBNames.xml"), "{}", stderr(&o));
}
