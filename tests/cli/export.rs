//! `export hex`: the Medellín battle of the fixture through the real binary.

use std::collections::{BTreeMap, BTreeSet};

use serde_json::Value;

use crate::common::*;

fn export(c: &Camp, args: &[&str]) -> (std::process::Output, std::path::PathBuf) {
    let out = c.tmp.path().join("out");
    let mut all = vec!["export", "hex"];
    all.extend_from_slice(args);
    let o_str = out.to_string_lossy().into_owned();
    all.extend(["--out", o_str.as_str()]);
    (c.run(&all), out)
}

fn record(c: &Camp, id: &str) -> Value {
    serde_json::from_str(&c.read(&format!("battles/{id}/battle.json"))).unwrap()
}

fn forces_men(c: &Camp) -> BTreeMap<String, (u32, u32)> {
    let text = c.read("forces.csv");
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let h = rdr.headers().unwrap().clone();
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let (id, men, guns) = (col("id"), col("men"), col("guns"));
    rdr.records()
        .map(|r| {
            let r = r.unwrap();
            (r[id].to_string(), (r[men].parse().unwrap_or(0), r[guns].parse().unwrap_or(0)))
        })
        .collect()
}

#[test]
fn medellin_exports_a_complete_battle() {
    let c = Camp::new("peninsula");
    let (o, out) = export(&c, &["18.28"]);
    assert_code(&o, 0);
    let oob = sow_rows(&out.join("OOBs/T20-18.28.csv"));
    let scen = out.join("Scenarios/T20-18.28");
    for f in ["scenario.ini", "scenario.csv", "battlescript.csv", "maplocations.csv", "intro.txt"] {
        assert!(scen.join(f).is_file(), "{f} missing");
    }
    // Header as sow-formats.md §1.2 with the G1 OOBMOD column after CLASS.
    assert_eq!(
        oob[0].join(","),
        "Name,ID,NAME1,NAME2,SIDE 1,ARMY 2,CORPS 3,DIV 4,BGDE 5,BTN 6,CLASS,OOBMOD,PORTRAIT,Weapon,AMMO,FLAGS,FLAG2,Formation,Head Count,Ability,Command,Control,Leadership,Style,Experience,Fatigue,Morale,Close,Open,Edged,Firearm,Marksmanship,Horsemanship,Surgeon,Calisthenics"
    );
    let width = oob[0].len();
    // The stand-alone scenario.csv as GCM's G1 battles wrote it, and maplocations.csv's
    // 21 columns (sow-formats.md §2.3, §2.4).
    let scen_rows = sow_rows(&scen.join("scenario.csv"));
    assert_eq!(
        scen_rows[0].join(","),
        "SANDBOXOOB,ARMY,CORPS,DIV,BGDE,REG,ID,NAME1,NAME2,CLASS,OOBMOD,PICT,WEAP,AMMO,dir x,dir z,loc x,loc z,FLAGS,FLAG2,Formation,Head Count,Ability,Command,Control,Leadership,Style,Experience,Fatigue,Morale,Close,Open,Edged,Firearm,Marksmanship,Horsemanship,Surgeon,Calisthenics"
    );
    assert!(scen_rows[1..].iter().all(|r| r.len() == scen_rows[0].len()));
    let locs = sow_rows(&scen.join("maplocations.csv"));
    assert_eq!(
        locs[0].join(","),
        "Name,ID,Priority,Type,AI,loc x,loc z,radius,Men,Points,Fatigue,Morale,Ammo,OccMod,Beg,End,Interval,Sprite,Army1,Army2,Army3"
    );
    assert_eq!((locs[1][0].as_str(), locs[1][2].as_str()), ("Medellin", "Major"));
    let ini = String::from_utf8(std::fs::read(scen.join("scenario.ini")).unwrap()).unwrap();
    let rec0: Value = serde_json::from_str(&c.read("battles/T20-18.28/battle.json")).unwrap();
    assert!(ini.contains(&format!("map={}\r\n", rec0["map"]["id"].as_str().unwrap())), "{ini}");
    assert!(ini.contains("starttime=10:00:00\r\n"));
    let rec = record(&c, "T20-18.28");
    let chains = rec["chains"].as_array().unwrap();
    assert_eq!(chains.len(), oob.len() - 1);
    // Every row has the header's width (no comma inside a field), a unique id, levels 1-99.
    let mut ids = BTreeSet::new();
    let mut keys: BTreeSet<Vec<u32>> = BTreeSet::new();
    for r in &oob[1..] {
        assert_eq!(r.len(), width, "{r:?}");
        assert!(ids.insert(r[1].clone()), "duplicate id {}", r[1]);
        let chain: Vec<u32> = r[4..10].iter().map(|x| x.parse().unwrap()).collect();
        assert!(chain.iter().all(|&x| x <= 99));
        assert_eq!(r[1], format!("OOB_{}", chain.iter().map(u32::to_string).collect::<Vec<_>>().join("_")));
        keys.insert(chain);
    }
    // Every chain is complete: each row's commanders above it exist.
    for k in &keys {
        let level = k.iter().position(|&x| x == 0).unwrap_or(6);
        for l in 1..level {
            let mut up = k.clone();
            for x in up.iter_mut().skip(l) {
                *x = 0;
            }
            assert!(keys.contains(&up), "{k:?} lacks its commander {up:?}");
        }
    }
    // Men of unit and gun rows equal the men of the exported campaign units; guns = gun rows.
    let men_col = 18;
    let by_id: BTreeMap<&str, &Vec<String>> = oob[1..].iter().map(|r| (r[1].as_str(), r)).collect();
    let campaign = forces_men(&c);
    let mut exported_men = 0;
    let mut exported_guns = 0;
    for u in rec["units"].as_array().unwrap() {
        let (m, g) = campaign[u["unit"].as_str().unwrap()];
        assert_eq!(u["men"].as_u64().unwrap() as u32, m);
        exported_men += m;
        exported_guns += g;
    }
    let mut row_men = 0;
    let mut gun_rows = 0;
    for e in chains {
        let kind = e["kind"].as_str().unwrap();
        let row = by_id[e["id"].as_str().unwrap()];
        if kind == "unit" || kind == "gun" {
            row_men += row[men_col].parse::<u32>().unwrap();
        }
        if kind == "gun" {
            gun_rows += 1;
        }
    }
    assert_eq!(row_men, exported_men);
    assert_eq!(gun_rows, exported_guns);
    // The exported units are exactly the participants' units.
    let parts: Vec<&str> =
        rec["participants"].as_array().unwrap().iter().map(|p| p["force"].as_str().unwrap()).collect();
    assert_eq!(parts, ["FR-I", "SP-EXT", "SP-EXT-VAN", "FR-LM", "SP-ALB"]);
    // Every vocabulary id used is in the vocabulary file.
    let vocab = std::fs::read_to_string(repo().join("templates/napmod-g1/vocabulary.csv")).unwrap();
    let known: BTreeSet<&str> = vocab.lines().skip(1).flat_map(|l| l.split(',').take(10).skip(3)).collect();
    for r in &oob[1..] {
        for i in [10, 12, 13, 15, 16, 17] {
            if !r[i].is_empty() {
                assert!(known.contains(r[i].as_str()), "{} not in the vocabulary", r[i]);
            }
        }
    }
    // Battle record and briefings; none inside the scenario folder both sides receive.
    assert_eq!(rec["state"], "exported");
    assert!(c.path("battles/T20-18.28/briefings/french.md").is_file());
    assert!(c.path("battles/T20-18.28/briefings/allies.md").is_file());
    for e in walkdir::WalkDir::new(&out) {
        let name = e.unwrap().file_name().to_string_lossy().to_lowercase();
        assert!(!name.contains("brief"), "briefing {name} in the output folder");
    }
    assert!(c.read("map/battle-maps.csv").contains("18.28,"));
    // The 8.5 dice are in the battle record; each side's briefing is printed by `battle show`.
    let purposes: Vec<&str> =
        rec["dice"].as_array().unwrap().iter().map(|d| d["purpose"].as_str().unwrap()).collect();
    for side in ["French", "Allies"] {
        assert!(
            purposes.iter().any(|p| p.starts_with(&format!("8.5 {side} intelligence: enemy men"))),
            "{purposes:?}"
        );
        assert!(
            purposes.iter().any(|p| p.starts_with(&format!("8.5 {side} intelligence: enemy guns"))),
            "{purposes:?}"
        );
    }
    let o = c.run(&["battle", "show", "T20-18.28", "--briefing", "french"]);
    assert_code(&o, 0);
    assert_eq!(stdout(&o), c.read("battles/T20-18.28/briefings/french.md"));
    assert!(stdout(&o).contains("T20-18.28"));
    // The French see about the Allies' strength, never its exact figure.
    let allied_men: u64 = rec["units"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|u| u["side"] == "Allies")
        .map(|u| u["men"].as_u64().unwrap())
        .sum();
    assert!(!stdout(&o).contains(&allied_men.to_string()), "exact enemy strength in the briefing");
    assert!(c.read("battles/T20-18.28/briefings/french-umpire.md").contains("d"));
}

#[test]
fn joiners_are_hidden_then_shown_after_their_delay() {
    let c = Camp::new("peninsula");
    let (o, out) = export(&c, &["18.28", "--delay", "SP-ALB=75"]);
    assert_code(&o, 0);
    let rec = record(&c, "T20-18.28");
    let script = sow_rows(&out.join("Scenarios/T20-18.28/battlescript.csv"));
    assert_eq!(script[0].join(","), "Event,ID,Command,X Coord,Z Coord,timevar");
    let joiners: Vec<&Value> =
        rec["participants"].as_array().unwrap().iter().filter(|p| p["role"] == "joiner").collect();
    assert_eq!(joiners.len(), 2);
    for j in joiners {
        let delay = j["delay_minutes"].as_u64().unwrap();
        let force = j["force"].as_str().unwrap();
        if force == "FR-LM" {
            // Dragoons with horse guns, two hexes away: 2 x 60 minutes (8.6).
            assert_eq!(delay, 120);
        } else {
            assert_eq!(delay, 75, "--delay overrides");
        }
        let shown = format!("{:02}:{:02}:00", 10 + delay / 60, delay % 60);
        let rows: Vec<&Value> = rec["chains"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|e| e["unit"].as_str().is_some_and(|u| u == force || u.starts_with(&format!("{force}-"))))
            .collect();
        assert!(!rows.is_empty());
        for e in rows {
            let id = e["id"].as_str().unwrap();
            assert!(
                script.iter().any(|r| r[0] == "10:00:00" && r[1] == id && r[2] == "hideunit"),
                "{id} not hidden"
            );
            assert!(
                script.iter().any(|r| r[0] == shown && r[1] == id && r[2] == "showunit"),
                "{id} not shown at {shown}"
            );
        }
    }
    // The end: final dumps at the profile's margins (40, 35, 30 s), then endscenario.
    let tail: Vec<String> = script[script.len() - 4..].iter().map(|r| format!("{} {}", r[0], r[2])).collect();
    assert_eq!(
        tail,
        ["14:59:20 dumplocs", "14:59:25 dumpdead", "14:59:30 dumpgamedb", "15:00:00 endscenario"]
    );
}

#[test]
fn a_light_cavalry_reserve_is_left_out_of_the_oob() {
    let c = Camp::new("peninsula");
    let (o, out) = export(&c, &["18.28", "--reserve", "FR-I-LAS-1"]);
    assert_code(&o, 0);
    let rec = record(&c, "T20-18.28");
    assert_eq!(rec["reserves"][0]["unit"], "FR-I-LAS-1");
    assert_eq!(rec["reserves"][0]["squadrons"], 4);
    for e in rec["chains"].as_array().unwrap() {
        let u = e["unit"].as_str().unwrap_or("");
        assert!(!u.starts_with("FR-I-LAS-1"), "{u} of the reserve exported");
    }
    let oob = std::fs::read(out.join("OOBs/T20-18.28.csv")).unwrap();
    let text: String = oob.iter().map(|&b| b as char).collect();
    assert!(!text.contains("10e Chasseurs"), "a reserve regiment is in the OOB");
}

#[test]
fn a_reserve_that_breaks_rule_8_7_is_refused_and_nothing_is_written() {
    let c = Camp::new("peninsula");
    let before = c.snapshot();
    for (id, why) in
        [("FR-I-CL", "at least 4"), ("FR-NOPE", "unknown"), ("FR-I-RUF-1", "not only light cavalry")]
    {
        let (o, out) = export(&c, &["18.28", "--reserve", id]);
        assert_code(&o, 1);
        assert!(stderr(&o).contains(why), "{id}: {}", stderr(&o));
        assert!(!out.exists(), "output written for a refused export");
        assert_eq!(c.snapshot(), before, "campaign changed by a refused export");
    }
}

#[test]
fn a_hex_without_contact_is_refused() {
    let c = Camp::new("peninsula");
    let before = c.snapshot();
    for hex in ["29.21", "10.10", "99.99", "garbage"] {
        let (o, out) = export(&c, &[hex]);
        assert_code(&o, 1);
        assert!(!out.exists());
        assert_eq!(c.snapshot(), before);
    }
    let (o, _) = export(&c, &["29.21"]);
    assert!(stderr(&o).contains("no enemy forces are in contact at 29.21"), "{}", stderr(&o));
}

#[test]
fn the_same_campaign_and_seed_give_the_same_bytes() {
    let a = Camp::new("peninsula");
    let b = Camp::new("peninsula");
    let (oa, outa) = export(&a, &["18.28", "--reserve", "SP-EXT-VAN-2"]);
    let (ob, outb) = export(&b, &["18.28", "--reserve", "SP-EXT-VAN-2"]);
    assert_code(&oa, 0);
    assert_code(&ob, 0);
    assert_eq!(snapshot(&outa), snapshot(&outb));
    assert_eq!(a.snapshot(), b.snapshot(), "battle records, briefings and map choice differ");
    assert!(!record(&a, "T20-18.28")["dice"].as_array().unwrap().is_empty());
}

#[test]
fn a_pending_battle_blocks_a_second_export_unless_replaced_and_the_map_is_reused() {
    let c = Camp::new("peninsula");
    let (o, _) = export(&c, &["18.28"]);
    assert_code(&o, 0);
    let first = record(&c, "T20-18.28");
    let (o, _) = export(&c, &["18.28"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("still pending"), "{}", stderr(&o));
    let (o, _) = export(&c, &["18.28", "--replace", "--json"]);
    assert_code(&o, 0);
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    for k in ["battle", "scenario_dir", "oob", "map", "orientation", "joiners"] {
        assert!(j.get(k).is_some(), "--json lacks {k}");
    }
    let second = record(&c, "T20-18.28");
    assert_eq!(second["map"]["reused"], true);
    assert_eq!(second["map"]["id"], first["map"]["id"]);
    assert_eq!(second["map"]["orientation"], first["map"]["orientation"]);
    // A stored map cannot be overridden silently.
    let other = if first["map"]["id"] == "FBSC" { "Gburg" } else { "FBSC" };
    let (o, _) = export(&c, &["18.28", "--replace", "--map", other]);
    assert_code(&o, 1);
}

#[test]
fn dry_run_writes_nothing() {
    let c = Camp::new("peninsula");
    let before = c.snapshot();
    let (o, out) = export(&c, &["18.28", "--dry-run"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("T20-18.28"));
    assert!(!out.exists());
    assert_eq!(c.snapshot(), before);
}

#[test]
fn an_assault_on_an_under_garrisoned_fortress_gets_a_town_map() {
    // Toledo's Alcázar holds like a fortress town: 500 men (2.5.3, 7.1.4).
    let c = Camp::new("peninsula");
    let forces = c.read("forces.csv");
    let weak: String = forces
        .lines()
        .map(|l| {
            if l.starts_with("FR-TOL-") && l.contains(",battalion,") {
                let mut f: Vec<&str> = l.split(',').collect();
                f[7] = "150";
                f.join(",")
            } else {
                l.to_string()
            }
        })
        .collect::<Vec<_>>()
        .join("\n");
    c.write("forces.csv", &(weak + "\n"));
    let full = Camp::new("peninsula");
    let (o, _) =
        export(&full, &["28.23", "--overrule", "2.5.3", "--attacker", "allies", "--dry-run", "--json"]);
    assert_code(&o, 0);
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(!j["map_reason"].as_str().unwrap().contains("7.1.4"), "a full garrison is no 7.1.4 assault");
    let (o, _) = export(
        &c,
        &[
            "28.23",
            "--overrule",
            "2.5.3",
            "--overrule",
            "7.1.4",
            "--attacker",
            "allies",
            "--dry-run",
            "--json",
        ],
    );
    assert_code(&o, 0);
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert!(j["map_reason"].as_str().unwrap().contains("7.1.4"), "{}", j["map_reason"]);
    let catalogue = std::fs::read_to_string(repo().join("sow-maps/catalogue.csv")).unwrap();
    let map = j["map"].as_str().unwrap();
    let row = catalogue.lines().find(|l| l.starts_with(&format!("{map},"))).unwrap();
    assert!(row.split(',').nth(3).unwrap().split(';').any(|t| t == "town"), "{row}");
}

#[test]
fn profiles_and_the_master_form_change_the_layout() {
    let c = Camp::new("peninsula");
    let (o, out) = export(&c, &["18.28", "--profile", "x64", "--master"]);
    assert_code(&o, 0);
    let oob = sow_rows(&out.join("OOBs/T20-18.28.csv"));
    assert!(!oob[0].contains(&"OOBMOD".to_string()));
    let scen = sow_rows(&out.join("Scenarios/T20-18.28/scenario.csv"));
    assert_eq!(
        scen[0].join(","),
        "Name,ID,SIDE,ARMY,CORPS,DIV,BGDE,REG,BTN,AMMO,dir x,dir z,loc x,loc z,Formation,Head Count,Fatigue,Morale"
    );
    assert_eq!(scen[1][0], "MASTER");
    assert_eq!(scen[1][1], "T20-18.28.csv");
    let script = sow_rows(&out.join("Scenarios/T20-18.28/battlescript.csv"));
    assert_eq!(script[0].join(","), "Event,ToID,Command,FromID,X Coord,Z Coord,timevar");
    assert!(out.join("Scenarios/T20-18.28/EnglishScenIntro.txt").is_file());
}

#[test]
fn two_pending_battles_never_share_a_chain() {
    let c = Camp::new("peninsula");
    let (o, out) = export(&c, &["18.28"]);
    assert_code(&o, 0);
    let o = c.run(&[
        "export",
        "hex",
        "28.23",
        "--overrule",
        "2.5.3",
        "--attacker",
        "allies",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_code(&o, 0);
    let a = record(&c, "T20-18.28");
    let b = record(&c, "T20-28.23");
    assert_ne!(a["army_index"], b["army_index"]);
    let chains = |r: &Value| -> BTreeSet<String> {
        // Every row but the two side commanders (1_0_0_0_0_0, 2_0_0_0_0_0), which every
        // battle has.
        r["chains"]
            .as_array()
            .unwrap()
            .iter()
            .map(|e| e["chain"].as_str().unwrap().to_string())
            .filter(|ch| !ch.ends_with("_0_0_0_0_0"))
            .collect()
    };
    assert!(chains(&a).is_disjoint(&chains(&b)), "a dump could match both battles");
    let o = c.run(&["battles", "--json"]);
    let list: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(list.as_array().unwrap().len(), 2);
}

#[test]
fn a_battle_one_side_tried_to_refuse_puts_the_attacker_across_its_retreat() {
    let c = Camp::new("peninsula");
    // The French attack at Medellín; the Allies tried to avoid battle (8.2).
    let (o, out) = export(&c, &["18.28", "--avoiding", "allies"]);
    assert_code(&o, 0);
    let rec = record(&c, "T20-18.28");
    assert_eq!(rec["avoiding"], "Allies");
    // The French brigades stand in two groups on either side of the Allied centre.
    let rows = sow_rows(&out.join("Scenarios/T20-18.28/scenario.csv"));
    let pos = |side: &str| -> Vec<(f64, f64)> {
        rows[1..]
            .iter()
            .filter(|r| r[0] == side && r[4] != "0" && r[5] == "0")
            .map(|r| (r[16].parse().unwrap(), r[17].parse().unwrap()))
            .collect()
    };
    let (fr, al) = (pos("1"), pos("2"));
    let centre =
        al.iter().fold((0.0, 0.0), |a, p| (a.0 + p.0 / al.len() as f64, a.1 + p.1 / al.len() as f64));
    let spread =
        fr.iter().map(|p| ((p.0 - centre.0).powi(2) + (p.1 - centre.1).powi(2)).sqrt()).fold(0.0, f64::max);
    assert!(fr.len() >= 4 && spread > 0.0);
    let bearings: Vec<f64> =
        fr.iter().map(|p| (p.1 - centre.1).atan2(-(p.0 - centre.0)).to_degrees()).collect();
    let span =
        bearings.iter().cloned().fold(f64::MIN, f64::max) - bearings.iter().cloned().fold(f64::MAX, f64::min);
    assert!(span > 90.0, "the attacker is not across the line of retreat: bearings {bearings:?}");
    // The attacking side cannot be the one avoiding battle.
    let c2 = Camp::new("peninsula");
    let (o, _) = export(&c2, &["18.28", "--avoiding", "french"]);
    assert_code(&o, 1);
}

/// `forces.csv` is read as it is parsed, record by record, yet decoded as a whole file is:
/// Windows-1252 and UTF-8 with a byte-order mark read as the umpire wrote them; UTF-8 with one
/// stray Windows-1252 byte far down is a Windows-1252 file, its UTF-8 letters two characters
/// each (and so its accented commanders unknown), exactly as for every other file.
#[test]
fn forces_in_every_encoding_are_read_as_the_whole_file_reads() {
    let utf8 = Camp::new("peninsula").read("forces.csv");
    let cp1252: Vec<u8> = utf8.chars().map(|ch| u8::try_from(u32::from(ch)).unwrap_or(b'?')).collect();
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(utf8.as_bytes());
    for (what, bytes) in [("Windows-1252", cp1252), ("UTF-8 with BOM", bom)] {
        let c = Camp::new("peninsula");
        std::fs::write(c.path("forces.csv"), &bytes).unwrap();
        let (o, out) = export(&c, &["18.28"]);
        assert_code(&o, 0);
        let oob = std::fs::read(out.join("OOBs/T20-18.28.csv")).unwrap();
        let want = b"9e L\xe9ger 1st Bn";
        assert!(oob.windows(want.len()).any(|w| w == want), "{what}: a name is not read as written");
    }
    let c = Camp::new("peninsula");
    let mut mixed = utf8.into_bytes();
    mixed.extend_from_slice(b"FR-ZZ,,division,Tr\xe8s loin,,Fr,,,,,40.40,,,in,,,\n");
    std::fs::write(c.path("forces.csv"), &mixed).unwrap();
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("forces.csv:8: commander: 'Labass\u{c3}\u{a9}e' is not in commanders.csv"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn the_paths_export_prints_are_written_as_the_platform_writes_them() {
    let c = Camp::new("peninsula");
    let (o, out) = export(&c, &["18.28"]);
    assert_code(&o, 0);
    let oob = out.join("OOBs").join("T20-18.28.csv").display().to_string();
    let scenario = out.join("Scenarios").join("T20-18.28").join("scenario.csv").display().to_string();
    let text = stdout(&o);
    assert!(text.lines().any(|l| l.trim() == oob), "{oob} not listed:\n{text}");
    assert!(text.lines().any(|l| l.trim() == scenario), "{scenario} not listed:\n{text}");
    let (o, _) = export(&c, &["18.28", "--replace", "--json"]);
    assert_code(&o, 0);
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["oob"], oob.as_str());
    assert_eq!(j["scenario_dir"], out.join("Scenarios").join("T20-18.28").display().to_string().as_str());
    if cfg!(windows) {
        assert!(!text.contains("OOBs/") && !text.contains("T20-18.28/"), "{text}");
    }
}
