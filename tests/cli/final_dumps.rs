//! The final dumps stand at the profile's margins before `endscenario` (dumplocs, dumpdead,
//! dumpgamedb, in that order), the record keeps them, and `apply`, `apply --interim` and the
//! watcher judge dumps written at those margins as they judged them before.

use std::path::Path;
use std::time::{Duration, SystemTime};

use crate::common::*;
use crate::watch::{finish, start_with};

const MEDELLIN: &str = "T20-18.28";
const FINAL: &str = "sowgb_gamedb_03-28-09_14-59-30.csv";
const PERIODIC: &str = "sowgb_gamedb_03-28-09_14-30-00.csv";

fn losses(kind: &str, _unit: Option<&str>, men: u32) -> RowLosses {
    if kind == "unit" { (men / 10, men / 20, men / 10) } else { (0, 0, 0) }
}

fn stamp(path: &Path, secs: u64) {
    let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000 + secs);
    std::fs::File::options().write(true).open(path).unwrap().set_modified(t).unwrap();
}

fn record(c: &Camp) -> serde_json::Value {
    serde_json::from_str(&c.read(&format!("battles/{MEDELLIN}/battle.json"))).unwrap()
}

/// The battlescript's last four lines as `time command`.
fn script_tail(out: &Path) -> Vec<String> {
    let bytes = std::fs::read(out.join(format!("Scenarios/{MEDELLIN}/battlescript.csv"))).unwrap();
    let text: String = bytes.iter().map(|&b| char::from(b)).collect();
    let rows: Vec<Vec<&str>> = text.lines().map(|l| l.trim_end_matches('\r').split(',').collect()).collect();
    rows[rows.len() - 4..].iter().map(|r| format!("{} {}", r[0], r[2])).collect()
}

#[test]
fn each_profile_puts_the_final_dumps_at_its_margins_in_the_order_finality_relies_on() {
    for profile in ["napmod-g1", "x64"] {
        let c = Camp::new("peninsula");
        export_medellin(&c, &["--profile", profile]);
        let out = c.tmp.path().join("out");
        assert_eq!(
            script_tail(&out),
            ["14:59:20 dumplocs", "14:59:25 dumpdead", "14:59:30 dumpgamedb", "15:00:00 endscenario"],
            "{profile}"
        );
        let r = record(&c);
        assert_eq!(r["final_dumps"], serde_json::json!({"dumplocs": 40, "dumpdead": 35, "dumpgamedb": 30}));
    }
}

#[test]
fn a_campaign_profile_sets_the_margins_and_a_wrong_order_is_refused() {
    let c = Camp::new("peninsula");
    let shipped = std::fs::read_to_string(repo().join("templates/napmod-g1/profile.toml")).unwrap();
    let edited = shipped
        .replace("dumplocs_before_end = 40", "dumplocs_before_end = 90")
        .replace("dumpdead_before_end = 35", "dumpdead_before_end = 60")
        .replace("dumpgamedb_before_end = 30", "dumpgamedb_before_end = 15");
    std::fs::create_dir_all(c.path("templates/napmod-g1")).unwrap();
    c.write("templates/napmod-g1/profile.toml", &edited);
    export_medellin(&c, &[]);
    let out = c.tmp.path().join("out");
    assert_eq!(
        script_tail(&out),
        ["14:58:30 dumplocs", "14:59:00 dumpdead", "14:59:45 dumpgamedb", "15:00:00 endscenario"]
    );
    assert_eq!(record(&c)["final_dumps"]["dumplocs"], 90);
    // dumpgamedb before dumplocs would make every final dump look interim.
    let c = Camp::new("peninsula");
    std::fs::create_dir_all(c.path("templates/napmod-g1")).unwrap();
    c.write(
        "templates/napmod-g1/profile.toml",
        &shipped.replace("dumpgamedb_before_end = 30", "dumpgamedb_before_end = 45"),
    );
    let o = c.run(&["export", "hex", "18.28", "--out", c.tmp.path().join("out").to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("templates/napmod-g1/profile.toml"), "{}", stderr(&o));
    assert!(stderr(&o).contains("dumplocs, then dumpdead, then dumpgamedb"), "{}", stderr(&o));
}

#[test]
fn a_campaign_profile_written_before_the_margins_takes_the_shipped_ones() {
    let c = Camp::new("peninsula");
    let shipped = std::fs::read_to_string(repo().join("templates/x64/profile.toml")).unwrap();
    let old: String = shipped
        .lines()
        .filter(|l| !l.contains("_before_end") && !l.starts_with("names_"))
        .map(|l| format!("{l}\n"))
        .collect();
    std::fs::create_dir_all(c.path("templates/x64")).unwrap();
    c.write("templates/x64/profile.toml", &old);
    export_medellin(&c, &["--profile", "x64"]);
    let out = c.tmp.path().join("out");
    assert_eq!(script_tail(&out)[0], "14:59:20 dumplocs");
    assert!(out.join("Layout/Media/Language/OOBNames.xml").is_file());
}

#[test]
fn a_dump_written_at_the_margins_is_final_by_hand_and_an_earlier_one_interim() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let work = c.tmp.path().join("Work");
    std::fs::create_dir_all(&work).unwrap();
    // The last periodic dump (14:30), then dumplocs at 14:59:20 and the final dumpgamedb
    // ten game seconds later.
    std::fs::write(work.join(PERIODIC), dump_for(&c, MEDELLIN, losses)).unwrap();
    stamp(&work.join(PERIODIC), 0);
    std::fs::write(work.join("startlocs.csv"), final_startlocs(&c, MEDELLIN)).unwrap();
    stamp(&work.join("startlocs.csv"), 1760);
    let o = c.run(&["apply", work.join(PERIODIC).to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("written 29 min 20 s before battle T20-18.28's final dumplocs"),
        "{}",
        stderr(&o)
    );
    std::fs::write(work.join(FINAL), dump_for(&c, MEDELLIN, losses)).unwrap();
    stamp(&work.join(FINAL), 1770);
    let o = c.run(&["apply", "--dry-run", work.join(FINAL).to_str().unwrap()]);
    assert_code(&o, 0);
    let o = c.run(&["apply", work.join(FINAL).to_str().unwrap()]);
    assert_code(&o, 0);
    let report = c.read(&format!("battles/{MEDELLIN}/report.md"));
    assert!(report.contains("its game time 14:59:20 is the final dumplocs'"), "{report}");
    assert!(report.contains("written 10 s after it"), "{report}");
}

#[test]
fn an_interim_dump_is_applied_deliberately_as_before() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let work = c.tmp.path().join("Work");
    std::fs::create_dir_all(&work).unwrap();
    std::fs::write(work.join(PERIODIC), dump_for(&c, MEDELLIN, losses)).unwrap();
    stamp(&work.join(PERIODIC), 0);
    std::fs::write(work.join("startlocs.csv"), final_startlocs(&c, MEDELLIN)).unwrap();
    stamp(&work.join("startlocs.csv"), 1760);
    let o = c.run(&["apply", "--interim", work.join(PERIODIC).to_str().unwrap()]);
    assert_code(&o, 0);
    assert!(
        c.read(&format!("battles/{MEDELLIN}/report.md"))
            .contains("Result: an interim dump, applied deliberately (--interim)")
    );
}

#[test]
fn the_watcher_waits_the_margin_s_gap_then_applies_the_final_dump_and_sets_the_periodic_aside() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let inbox = c.tmp.path().join("Work");
    std::fs::create_dir_all(&inbox).unwrap();
    std::fs::write(inbox.join(PERIODIC), dump_for(&c, MEDELLIN, losses)).unwrap();
    stamp(&inbox.join(PERIODIC), 0);
    std::fs::write(inbox.join("startlocs.csv"), final_startlocs(&c, MEDELLIN)).unwrap();
    stamp(&inbox.join("startlocs.csv"), 1760);
    let child = start_with(&c, &inbox, 2, None, &[]);
    std::thread::sleep(Duration::from_millis(3000));
    std::fs::write(inbox.join(FINAL), dump_for(&c, MEDELLIN, losses)).unwrap();
    stamp(&inbox.join(FINAL), 1770);
    let (code, err) = finish(child, Duration::from_secs(30));
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("waiting for its final dump, which the game writes 10 s later"), "{err}");
    assert!(inbox.join("processed").join(FINAL).is_file(), "{err}");
    assert!(inbox.join("interim").join(PERIODIC).is_file(), "{err}");
    assert_code(&c.run(&["audit"]), 0);
}
