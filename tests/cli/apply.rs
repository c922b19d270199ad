//! `apply`, `undo`, `audit` and the withdrawal after defeat, through the real binary on the
//! Medellín battle of the fixture.

use serde_json::Value;

use crate::common::*;

const FR: &str = "FR-I-RUF-1-9L1"; // 500 men
const SP: &str = "SP-EXT-IZQ-1-REI1"; // 750 men

/// The worked example: the French battalion loses 40 deserted, 10 killed, 50 wounded; the
/// Spanish one 100, 20, 80; every other row nothing.
fn worked(kind: &str, unit: Option<&str>, _men: u32) -> RowLosses {
    match (kind, unit) {
        ("unit", Some(FR)) => (40, 10, 50),
        ("unit", Some(SP)) => (100, 20, 80),
        _ => (0, 0, 0),
    }
}

fn write_dump(c: &Camp, name: &str, f: impl Fn(&str, Option<&str>, u32) -> RowLosses) -> std::path::PathBuf {
    let dir = c.tmp.path().join("work");
    std::fs::create_dir_all(&dir).unwrap();
    let p = dir.join(name);
    std::fs::write(&p, dump_for(c, "T20-18.28", f)).unwrap();
    p
}

fn apply(c: &Camp, file: &std::path::Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["apply", file.to_str().unwrap()];
    args.extend_from_slice(extra);
    c.run(&args)
}

fn returns(c: &Camp, unit: &str) -> Vec<String> {
    c.read("returns.csv").lines().filter(|l| l.contains(&format!(",{unit},"))).map(str::to_string).collect()
}

fn last_carryover(c: &Camp, unit: &str) -> Value {
    let journal = c.read("journal.jsonl");
    let last: Value = serde_json::from_str(journal.lines().last().unwrap()).unwrap();
    last["carryover"].as_array().unwrap().iter().find(|u| u["unit"] == unit).unwrap().clone()
}

#[test]
fn a_dump_changes_strengths_as_the_model_says_and_audit_passes() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let dump = write_dump(&c, "sowgb_gamedb_03-28-09_15-00-00.csv", worked);
    let o = apply(&c, &dump, &["--winner", "french", "--river-retreat", "no"]);
    assert_code(&o, 0);
    let m = men(&c);
    // Winner: 500 - 100 lost in battle; wounded 40 % back on turn 24 (20), stragglers 85 %
    // next turn (34).
    assert_eq!(m[FR], 400);
    assert_eq!(
        returns(&c, FR),
        ["21,FR-I-RUF-1-9L1,34,stragglers,T20-18.28", "24,FR-I-RUF-1-9L1,20,wounded,T20-18.28"]
    );
    // Loser: wounded 30 % captured (24), 40 % of the other 56 back (22), 34 lost; stragglers
    // 55 % back (55), the other 45 half captured (22), half lost (23).
    assert_eq!(m[SP], 550);
    assert_eq!(
        returns(&c, SP),
        ["21,SP-EXT-IZQ-1-REI1,55,stragglers,T20-18.28", "24,SP-EXT-IZQ-1-REI1,22,wounded,T20-18.28"]
    );
    let co = last_carryover(&c, SP);
    assert_eq!((co["wounded_captured"].as_u64(), co["wounded_lost"].as_u64()), (Some(24), Some(34)));
    assert_eq!((co["stragglers_captured"].as_u64(), co["stragglers_lost"].as_u64()), (Some(22), Some(23)));
    // Score, records, report, battle state.
    assert!(c.read("score.csv").contains("2,French,1,0,0,46,0,1"), "{}", c.read("score.csv"));
    let rec: Value = serde_json::from_str(&c.read("battles/T20-18.28/battle.json")).unwrap();
    assert_eq!(rec["state"], "applied");
    assert!(c.read("battles/T20-18.28/report.md").contains("French victory"));
    assert!(c.read("commanders.csv").contains("Victor,French,7,6,"), "{}", c.read("commanders.csv"));
    let o = c.run(&["audit"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("every man is accounted for"));
    let o = c.run(&["battles", "--json"]);
    let list: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(list[0]["state"], "applied");
    assert_eq!(list[0]["winner"], "french");
}

#[test]
fn the_same_result_twice_or_a_copy_of_it_is_refused_and_nothing_changes() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let dump = write_dump(&c, "sowgb_gamedb_1.csv", worked);
    assert_code(&apply(&c, &dump, &["--winner", "french"]), 0);
    let before = c.snapshot();
    let o = apply(&c, &dump, &["--winner", "french"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("already applied to battle T20-18.28"), "{}", stderr(&o));
    let copy = c.tmp.path().join("work").join("sowgb_gamedb_copy.csv");
    std::fs::copy(&dump, &copy).unwrap();
    assert_code(&apply(&c, &copy, &[]), 1);
    // A different result for the battle already applied is refused too.
    let other =
        write_dump(
            &c,
            "sowgb_gamedb_2.csv",
            |k, u, m| if k == "unit" { (1, 1, 1.min(m)) } else { worked(k, u, m) },
        );
    let o = apply(&c, &other, &[]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("which is applied from sowgb_gamedb_1.csv in journal entry 1: nothing to do"),
        "{}",
        stderr(&o)
    );
    assert_eq!(c.snapshot(), before);
}

#[test]
fn bad_dumps_are_refused_naming_the_row_and_nothing_changes() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let before = c.snapshot();
    let good: String = dump_for(&c, "T20-18.28", worked).iter().map(|&b| b as char).collect();
    let latin1 = |s: String| -> Vec<u8> { s.chars().map(|ch| ch as u32 as u8).collect() };
    let lines: Vec<&str> = good.split("\r\n").collect();
    let at = |prefix: &str| lines.iter().position(|l| l.starts_with(prefix)).unwrap();
    let (u1, u2) = (at("1,1,1,1,1,1,"), at("1,1,1,1,1,2,"));
    let (l1, l2) = (format!(":{}", u1 + 1), format!(":{}", u2 + 1));
    // An unknown chain.
    let mut unknown = lines.clone();
    let bad_row = lines[u1].replacen("1,1,1,1,1,1,", "1,7,1,1,1,1,", 1);
    unknown[u1] = &bad_row;
    // Losses above strength.
    let fields: Vec<&str> = lines[u1].split(',').collect();
    let over = format!("{},{},{},{},{}", fields[..9].join(","), 99999, 0, 0, fields[12..].join(","));
    let mut above = lines.clone();
    above[u1] = &over;
    // A non-number.
    let nan = lines[u2].replacen(",OK,", ",OK,abc", 1);
    let mut garbage_row = lines.clone();
    garbage_row[u2] = &nan;
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        ("unknown.csv", latin1(unknown.join("\r\n")), l1.as_str()),
        ("above.csv", latin1(above.join("\r\n")), l1.as_str()),
        ("nan.csv", latin1(garbage_row.join("\r\n")), l2.as_str()),
        ("garbage.csv", b"\x00\x01 not a dump at all \xff\xfe".to_vec(), "garbage.csv"),
        ("truncated.csv", latin1(good[..good.len() / 2].to_string()), "truncated.csv"),
    ];
    for (name, bytes, at) in cases {
        let p = c.tmp.path().join(name);
        std::fs::write(&p, bytes).unwrap();
        let o = apply(&c, &p, &["--winner", "french"]);
        assert_code(&o, 1);
        assert!(stderr(&o).contains(name) && stderr(&o).contains(at), "{name}: {}", stderr(&o));
        assert_eq!(c.snapshot(), before, "{name} changed the campaign");
    }
}

#[test]
fn undo_then_apply_again_gives_the_same_state() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let dump = write_dump(&c, "sowgb_gamedb_1.csv", |k, u, m| {
        if k == "gun" {
            (0, 1, 0)
        } else {
            let l = m / 10;
            let _ = u;
            (l, l / 2, l)
        }
    });
    assert_code(&apply(&c, &dump, &[]), 0);
    let first = c.snapshot();
    let o = c.run(&["undo", "T20-18.28"]);
    assert_code(&o, 0);
    assert_eq!(
        c.read("forces.csv"),
        String::from_utf8(c.snapshot()["journal-baseline/forces.csv"].clone()).unwrap()
    );
    assert_code(&c.run(&["audit"]), 0);
    assert_code(&apply(&c, &dump, &[]), 0);
    let second = c.snapshot();
    for f in
        ["forces.csv", "commanders.csv", "returns.csv", "score.csv", "campaign.toml", "map/battle-maps.csv"]
    {
        assert_eq!(first[f], second[f], "{f} differs after undo and apply");
    }
    assert_code(&c.run(&["audit"]), 0);
    // Only the newest applied battle can be undone: a turn advance or another battle after
    // it blocks; an unknown or pending battle is refused.
    assert_code(&c.run(&["undo", "T99-01.01"]), 1);
}

#[test]
fn pursuit_and_the_river_change_the_losers_losses_by_the_table() {
    // A French light-cavalry reserve pursues (8.7): 25 points of the loser's straggler
    // return and 20 of its wounded go to captured.
    let c = Camp::new("peninsula");
    export_medellin(&c, &["--reserve", "FR-I-LAS-1"]);
    let dump = write_dump(&c, "d.csv", worked);
    assert_code(&apply(&c, &dump, &["--winner", "french", "--river-retreat", "no"]), 0);
    let co = last_carryover(&c, SP);
    assert_eq!(co["stragglers_returning"], 30, "55 % - 25 points of 100");
    assert_eq!(co["stragglers_captured"], 25 + 22);
    assert_eq!(co["wounded_captured"], 40, "30 % + 20 points of 80");
    assert_eq!(co["wounded_returning"], 16, "40 % of the other 40");
    assert_code(&c.run(&["audit"]), 0);

    // A river at the loser's back (6.5.2): 15 further points drowned or captured.
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let dump = write_dump(&c, "d.csv", worked);
    assert_code(&apply(&c, &dump, &["--winner", "french", "--river-retreat", "yes"]), 0);
    let co = last_carryover(&c, SP);
    assert_eq!(co["stragglers_returning"], 40, "55 % - 15 points");
    assert_eq!(co["stragglers_drowned"], 7);
    assert_eq!(co["stragglers_captured"], 8 + 22);
    let status = force_field(&c, SP, "status");
    assert!(status.contains("ammo-halved:23") && status.contains("no-wagons:23"), "{status}");
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn dry_run_prints_the_changes_and_writes_nothing() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let before = c.snapshot();
    let dump = write_dump(&c, "d.csv", worked);
    let o = apply(&c, &dump, &["--dry-run", "--winner", "french"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("--- forces.csv"));
    assert!(stdout(&o).contains("+FR-I-RUF-1-9L1,"));
    assert_eq!(c.snapshot(), before);
}

#[test]
fn manual_edits_between_battles_are_journalled_and_audited() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let dump = write_dump(&c, "d.csv", worked);
    assert_code(&apply(&c, &dump, &["--winner", "french"]), 0);
    // The umpire adds a reinforcement battalion by hand and moves a force.
    let forces = c.read("forces.csv");
    let mut edited = forces.replace(
        "FR-RES,,division,Division Dessolles,Dessolles,Fr,,,,,29.21,",
        "FR-RES,,division,Division Dessolles,Dessolles,Fr,,,,,29.22,",
    );
    edited.push_str("FR-RES-NEW,FR-RES,battalion,Nouveau bataillon,,Fr,line,600,,,,,,,,,\n");
    c.write("forces.csv", &edited);
    assert_code(&c.run(&["audit"]), 0);
    // The next writing command records the edit first.
    let o = c.run(&[
        "export",
        "hex",
        "28.23",
        "--overrule",
        "2.5.3",
        "--out",
        c.tmp.path().join("out2").to_str().unwrap(),
        "--attacker",
        "allies",
    ]);
    assert_code(&o, 0);
    let journal = c.read("journal.jsonl");
    assert!(
        journal.lines().any(|l| l.contains("\"kind\":\"manual-edit\"") && l.contains("forces.csv")),
        "{journal}"
    );
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn a_hand_settled_result_applies_too() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let rec: Value = serde_json::from_str(&c.read("battles/T20-18.28/battle.json")).unwrap();
    let mut s = String::from("battle,unit,killed,wounded,missing,captured,guns_lost,ammo\n");
    for u in rec["units"].as_array().unwrap() {
        let id = u["unit"].as_str().unwrap();
        let line = if id == SP { "20,80,100,10,0,".to_string() } else { "0,0,0,0,0,".to_string() };
        s.push_str(&format!("T20-18.28,{id},{line}\n"));
    }
    let p = c.tmp.path().join("medellin.result.csv");
    std::fs::write(&p, s).unwrap();
    assert_code(&apply(&c, &p, &["--winner", "french", "--river-retreat", "no"]), 0);
    assert_eq!(men(&c)[SP], 540);
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn a_french_defeat_sends_the_french_back_over_the_guadiana() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let before = c.snapshot();
    let dump = write_dump(&c, "d.csv", worked);
    // A hex nearer the victor is refused with the reason, and nothing changes.
    let o = apply(&c, &dump, &["--winner", "allies", "--withdraw-to", "FR-I=18.29"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("FR-I cannot withdraw to 18.29"), "{}", stderr(&o));
    assert_eq!(c.snapshot(), before);
    let o = apply(&c, &dump, &["--winner", "allies"]);
    assert_code(&o, 0);
    let report = c.read("battles/T20-18.28/report.md");
    assert!(report.contains("FR-I withdraws from Medellin (18.28) to"), "{report}");
    assert!(report.contains("crosses the Rio Guadiana"), "{report}");
    let hex = force_field(&c, "FR-I", "hex");
    assert_ne!(hex, "18.28");
    // Between half and the full allowance (French infantry with guns: 10 + 1 = 11, less 1
    // for the Guadiana crossed by a corps, 6.5.1), farther from the victor.
    let line = report.lines().find(|l| l.contains("FR-I withdraws")).unwrap();
    let path = line.split(" along ").nth(1).unwrap().split(" (").next().unwrap();
    let hexes = path.split(" - ").count() - 1;
    assert!((6..=10).contains(&hexes), "{hexes} hexes: {line}");
    let status = force_field(&c, FR, "status");
    assert!(status.contains("ammo-halved:23"), "river penalties: {status}");
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn a_general_hit_in_the_dump_is_flagged_for_replacement() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let dump = write_dump(&c, "d.csv", |k, u, m| match (k, u) {
        ("commander", Some("FR-I-RUF")) => (0, 1, 0),
        ("commander", Some("SP-EXT-IZQ")) => (0, 0, 1),
        _ => worked(k, u, m),
    });
    assert_code(&apply(&c, &dump, &["--winner", "french"]), 0);
    let commanders = c.read("commanders.csv");
    assert!(commanders.contains("Ruffin,French,4,4,killed,"), "{commanders}");
    assert!(
        commanders.lines().any(|l| l.starts_with("del Parque,Allies,") && l.ends_with(",wounded,")),
        "{commanders}"
    );
    assert!(c.read("battles/T20-18.28/report.md").contains("Commanders to replace"));
}

#[test]
fn only_the_newest_applied_battle_can_be_undone() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let dump = write_dump(&c, "medellin.csv", worked);
    assert_code(&apply(&c, &dump, &["--winner", "french"]), 0);
    let out = c.tmp.path().join("out");
    assert_code(
        &c.run(&[
            "export",
            "hex",
            "28.23",
            "--overrule",
            "2.5.3",
            "--attacker",
            "allies",
            "--out",
            out.to_str().unwrap(),
        ]),
        0,
    );
    let toledo = c.tmp.path().join("work").join("toledo.csv");
    std::fs::write(
        &toledo,
        dump_for(&c, "T20-28.23", |k, _u, m| if k == "unit" { (m / 10, 0, 0) } else { (0, 0, 0) }),
    )
    .unwrap();
    assert_code(&apply(&c, &toledo, &["--winner", "allies"]), 0);
    let before = c.snapshot();
    let o = c.run(&["undo", "T20-18.28"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("not the newest change"), "{}", stderr(&o));
    assert_eq!(c.snapshot(), before);
    assert_code(&c.run(&["undo", "T20-28.23"]), 0);
    assert_code(&c.run(&["undo", "T20-18.28"]), 0);
    assert_code(&c.run(&["audit"]), 0);
}
