//! The calibration kit: `calibrate` writes a tiny battle in the campaign's profile that passes
//! the layout checks an export does; `inspect` reports what it understands of the game's files.

use crate::common::*;

#[test]
fn calibrate_writes_a_battle_that_passes_the_export_layout_checks_in_both_profiles() {
    for (profile, oobmod) in [("napmod-g1", true), ("x64", false)] {
        let c = Camp::new("peninsula");
        let before = c.snapshot();
        let out = c.tmp.path().join("Work");
        let o = c.run(&["calibrate", "--profile", profile, "--out", out.to_str().unwrap()]);
        assert_code(&o, 0);
        assert_eq!(c.snapshot(), before, "calibrate changed the campaign");
        let id = format!("CAL-{profile}");
        let oob = sow_rows(&out.join(format!("OOBs/{id}.csv")));
        assert_eq!(oob[0].contains(&"OOBMOD".to_string()), oobmod, "{profile}: {:?}", oob[0]);
        assert_eq!(&oob[0][..2], ["Name", "ID"]);
        let width = oob[0].len();
        let mut keys = std::collections::BTreeSet::new();
        for r in &oob[1..] {
            assert_eq!(r.len(), width, "{profile}: {r:?}");
            let chain: Vec<u32> = r[4..10].iter().map(|x| x.parse().unwrap()).collect();
            assert_eq!(
                r[1],
                format!("OOB_{}", chain.iter().map(u32::to_string).collect::<Vec<_>>().join("_"))
            );
            assert!(keys.insert(chain));
        }
        for k in &keys {
            let level = k.iter().position(|&x| x == 0).unwrap_or(6);
            for l in 1..level {
                let mut up = k.clone();
                for x in up.iter_mut().skip(l) {
                    *x = 0;
                }
                assert!(keys.contains(&up), "{profile}: {k:?} lacks its commander {up:?}");
            }
        }
        // Both sides: a brigade of two battalions and a battery of four guns each.
        let record: serde_json::Value = serde_json::from_slice(
            &std::fs::read(out.join(format!("Scenarios/{id}/sowbridge-calibration.json"))).unwrap(),
        )
        .unwrap();
        let kinds = |side: &str, kind: &str| {
            record["chains"]
                .as_array()
                .unwrap()
                .iter()
                .filter(|e| e["chain"].as_str().unwrap().starts_with(side) && e["kind"] == kind)
                .count()
        };
        for side in ["1_", "2_"] {
            assert_eq!(kinds(side, "unit"), 2, "{profile} {side}");
            assert_eq!(kinds(side, "gun"), 4, "{profile} {side}");
        }
        let scen = out.join(format!("Scenarios/{id}"));
        let script = sow_rows(&scen.join("battlescript.csv"));
        let commands: Vec<(String, String)> =
            script[1..].iter().map(|r| (r[0].clone(), r[2].clone())).collect();
        let start = record["start_time"].as_str().unwrap();
        assert_eq!(start, "10:00:00");
        assert_eq!(
            commands,
            [
                ("10:00:00", "dumpoobscen"),
                ("10:00:00", "dumpscen"),
                ("10:02:00", "dumpgamedb"),
                ("10:05:00", "dumpgamedb"),
                ("10:09:20", "dumplocs"),
                ("10:09:25", "dumpdead"),
                ("10:09:30", "dumpgamedb"),
                ("10:10:00", "endscenario"),
            ]
            .map(|(t, c)| (t.to_string(), c.to_string()))
        );
        let scenario = sow_rows(&scen.join("scenario.csv"));
        assert!(scenario[1..].iter().all(|r| r.len() == scenario[0].len()));
        let howto = std::fs::read_to_string(scen.join("CALIBRATION.txt")).unwrap();
        assert!(howto.contains("sowbridge inspect"), "{howto}");
        assert!(howto.contains(&id), "{howto}");
    }
}

#[test]
fn inspect_reports_the_project_s_sample_dump_fact_by_fact() {
    let c = Camp::new("peninsula");
    let o = c.run(&["inspect", repo().join("tests/data/sample-gamedb.csv").to_str().unwrap()]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("sample-gamedb.csv: game dump"), "{out}");
    assert!(out.contains("[confirmed] §7.1 exactly 3 non-blank lines before the first unit row"), "{out}");
    assert!(out.contains("[confirmed] §7.1 20 positional columns"), "{out}");
    assert!(out.contains("\"Wavering\" ×1"), "{out}");
    assert!(out.contains("battle: none"), "{out}");
}

#[test]
fn inspect_of_a_dump_by_ids_names_its_battle_and_what_apply_would_do() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let work = c.tmp.path().join("Work");
    std::fs::create_dir_all(&work).unwrap();
    let rec: serde_json::Value = serde_json::from_str(&c.read("battles/T20-18.28/battle.json")).unwrap();
    let mut text: String =
        dump_for(&c, "T20-18.28", |k, _, m| if k == "unit" { (m / 10, m / 20, 0) } else { (0, 0, 0) })
            .iter()
            .map(|&b| char::from(b))
            .collect();
    for e in rec["chains"].as_array().unwrap() {
        let chain = e["chain"].as_str().unwrap().replace('_', ",");
        text = text.replace(
            &format!("{chain},{},", e["name"].as_str().unwrap()),
            &format!("{chain},{},", e["id"].as_str().unwrap()),
        );
    }
    let dump = work.join("sowgb_gamedb_03-28-09_15-00-00.csv");
    std::fs::write(work.join("startlocs.csv"), final_startlocs(&c, "T20-18.28")).unwrap();
    std::fs::write(
        &dump,
        text.chars().map(|ch| u8::try_from(u32::from(ch)).unwrap_or(b'?')).collect::<Vec<u8>>(),
    )
    .unwrap();
    let before = c.snapshot();
    let o = c.run(&["inspect", work.to_str().unwrap()]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("battle: battle T20-18.28 (exported): 229 of the dump's 229 units recognised"),
        "{out}"
    );
    assert!(out.contains("units named: 229 by SoW id, 0 by display name"), "{out}");
    assert!(out.contains("apply would: apply it to battle T20-18.28 as journal entry 1"), "{out}");
    assert!(out.contains("startlocs.csv: startlocs.csv"), "{out}");
    assert_eq!(c.snapshot(), before, "inspect changed the campaign");
    let j = c.run(&["inspect", "--json", dump.to_str().unwrap()]);
    assert_code(&j, 0);
    let v: serde_json::Value = serde_json::from_slice(&j.stdout).unwrap();
    assert_eq!(v["files"][0]["facts"]["kind"], "game-dump");
}

#[test]
fn inspect_of_garbage_says_so_and_does_not_fail() {
    let c = Camp::new("peninsula");
    let g = c.tmp.path().join("sowgb_gamedb_garbage.csv");
    std::fs::write(&g, b"\x00\x01\xfe garbage\r\n1,2,3\r\n").unwrap();
    let o = c.run(&["inspect", g.to_str().unwrap()]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("not a file sowbridge recognises"), "{out}");
}

#[test]
fn inspect_tells_whether_the_engine_read_the_calibration_oob_as_written() {
    let c = Camp::new("peninsula");
    let out = c.tmp.path().join("Work");
    assert_code(&c.run(&["calibrate", "--out", out.to_str().unwrap()]), 0);
    let written = std::fs::read_to_string(out.join("OOBs/CAL-napmod-g1.csv")).unwrap();
    // What dumpoobscen might write: the same OOB, with one unit's men read otherwise.
    let mut lines: Vec<String> = written.split("\r\n").map(str::to_string).collect();
    let row = lines.iter().position(|l| l.contains("Calibration French 1st Bn")).unwrap();
    let mut f: Vec<String> = lines[row].split(',').map(str::to_string).collect();
    f[18] = "499".to_string();
    lines[row] = f.join(",");
    std::fs::write(out.join("oobscen_dump.csv"), lines.join("\r\n")).unwrap();
    let o = c.run(&["inspect", out.to_str().unwrap()]);
    assert_code(&o, 0);
    let text = stdout(&o);
    assert!(text.contains("calibration battle CAL-napmod-g1 (28 rows"), "{text}");
    assert!(text.contains("[contradicted] the engine reads sowbridge's file as written"), "{text}");
    assert!(text.contains("Head Count: written \"500\", the engine has \"499\""), "{text}");
}

#[test]
fn what_inspect_learns_becomes_a_profile_setting_with_write() {
    let c = Camp::new("peninsula");
    let out = c.tmp.path().join("Work");
    assert_code(&c.run(&["calibrate", "--out", out.to_str().unwrap()]), 0);
    // The engine's own dump of the OOB it loaded has no OOBMOD column.
    let written = std::fs::read_to_string(out.join("OOBs/CAL-napmod-g1.csv")).unwrap();
    let header: Vec<&str> = written.lines().next().unwrap().split(',').collect();
    let at = header.iter().position(|h| *h == "OOBMOD").unwrap();
    let dumped: Vec<String> = written
        .split("\r\n")
        .filter(|l| !l.is_empty())
        .map(|l| {
            let mut f: Vec<&str> = l.split(',').collect();
            f.remove(at);
            f.join(",")
        })
        .collect();
    std::fs::write(out.join("oobscen.csv"), dumped.join("\r\n") + "\r\n").unwrap();
    let before = c.snapshot();
    let o = c.run(&["inspect", out.to_str().unwrap()]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("oobmod_column = false"), "{}", stdout(&o));
    assert_eq!(c.snapshot(), before, "inspect without --write changed the campaign");
    let o = c.run(&["inspect", out.to_str().unwrap(), "--write"]);
    assert_code(&o, 0);
    let profile = c.read("templates/napmod-g1/profile.toml");
    assert!(profile.contains("\noobmod_column = false\n"), "{profile}");
    assert!(profile.contains("crew_per_gun = 15"), "the rest of the profile is kept: {profile}");
    // The campaign's exports follow it.
    export_medellin(&c, &[]);
    let oob = sow_rows(&c.tmp.path().join("out/OOBs/T20-18.28.csv"));
    assert!(!oob[0].contains(&"OOBMOD".to_string()), "{:?}", oob[0]);
}

#[test]
fn inspect_of_a_path_that_is_not_there_is_refused() {
    let c = Camp::new("peninsula");
    let o = c.run(&["inspect", "no-such-work-folder"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("inspect: no such file or folder: no-such-work-folder"), "{}", stderr(&o));
    // A calibration folder before the battle was played says what is missing.
    let out = c.tmp.path().join("Work");
    assert_code(&c.run(&["calibrate", "--out", out.to_str().unwrap()]), 0);
    let o = c.run(&["inspect", out.to_str().unwrap()]);
    assert_code(&o, 0);
    assert!(
        stdout(&o).contains("no file the game wrote is here yet: play the calibration battle"),
        "{}",
        stdout(&o)
    );
    let howto = std::fs::read_to_string(out.join("Scenarios/CAL-napmod-g1/CALIBRATION.txt")).unwrap();
    assert!(howto.contains("--write") && howto.contains("dumpoobscen"), "{howto}");
}
