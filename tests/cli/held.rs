//! Files another program holds open, through real Windows sharing violations (under Wine in
//! CI): Excel keeps the CSV it shows open with writing denied, the game holds the dump it
//! writes. A writing command refuses before it changes a byte, naming the file and the cure.

use std::fs::File;
use std::os::windows::fs::OpenOptionsExt;
use std::path::Path;

use crate::common::*;

const FILE_SHARE_READ: u32 = 0x1;

/// Opens a file as Excel does: reading shared, writing and deleting denied.
fn hold_as_excel(path: &Path) -> File {
    std::fs::OpenOptions::new().read(true).share_mode(FILE_SHARE_READ).open(path).unwrap()
}

fn losses(kind: &str, _u: Option<&str>, men: u32) -> RowLosses {
    if kind == "unit" { (men / 8, men / 25, men / 9) } else { (0, 0, 0) }
}

const CURE: &str = "is open in another program, perhaps Excel: close it and run the command again";

#[test]
fn apply_with_forces_csv_open_in_excel_exits_1_naming_it_and_changes_nothing() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let dump = c.tmp.path().join("sowgb_gamedb_1.csv");
    std::fs::write(&dump, dump_for(&c, "T20-18.28", losses)).unwrap();
    let before = c.snapshot();
    let held = hold_as_excel(&c.path("forces.csv"));
    let o = c.run(&["apply", dump.to_str().unwrap()]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains(&format!("forces.csv {CURE}")), "{err}");
    assert_eq!(err.matches(CURE).count(), 1, "said once: {err}");
    assert!(c.snapshot() == before, "the campaign changed");
    // Read-only commands still work while Excel shows the file.
    assert_code(&c.run(&["status"]), 0);
    drop(held);
    assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn every_held_file_is_named_at_once() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let dump = c.tmp.path().join("sowgb_gamedb_1.csv");
    std::fs::write(&dump, dump_for(&c, "T20-18.28", losses)).unwrap();
    let before = c.snapshot();
    let _forces = hold_as_excel(&c.path("forces.csv"));
    let _commanders = hold_as_excel(&c.path("commanders.csv"));
    let o = c.run(&["apply", dump.to_str().unwrap()]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains(&format!("forces.csv {CURE}")), "{err}");
    assert!(err.contains(&format!("commanders.csv {CURE}")), "{err}");
    assert!(c.snapshot() == before, "the campaign changed");
}

#[test]
fn turn_advance_and_undo_refuse_the_same_way() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let dump = c.tmp.path().join("sowgb_gamedb_1.csv");
    std::fs::write(&dump, dump_for(&c, "T20-18.28", losses)).unwrap();
    assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
    let before = c.snapshot();
    let held = hold_as_excel(&c.path("forces.csv"));
    for args in [&["turn", "advance"][..], &["undo", "T20-18.28"]] {
        let o = c.run(args);
        assert_code(&o, 1);
        assert!(stderr(&o).contains(&format!("forces.csv {CURE}")), "{args:?}: {}", stderr(&o));
        assert!(c.snapshot() == before, "{args:?}: the campaign changed");
    }
    drop(held);
    assert_code(&c.run(&["undo", "T20-18.28"]), 0);
}

#[test]
fn turn_advance_names_a_held_report_and_a_held_state_file_at_once() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let dump = c.tmp.path().join("sowgb_gamedb_1.csv");
    std::fs::write(&dump, dump_for(&c, "T20-18.28", losses)).unwrap();
    assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
    // A report the new turn writes, left open from before (the turn advanced, undone, and
    // its report still open in Word, say): asked after with the state, not once the state
    // is staged.
    std::fs::create_dir_all(c.path("turns/T21")).unwrap();
    c.write("turns/T21/report.md", "an older report\n");
    let before = c.snapshot();
    let _forces = hold_as_excel(&c.path("forces.csv"));
    let _report = hold_as_excel(&c.path("turns/T21/report.md"));
    let o = c.run(&["turn", "advance"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains(&format!("forces.csv {CURE}")), "{err}");
    assert!(err.contains(&format!("report.md {CURE}")), "{err}");
    assert!(c.snapshot() == before, "the campaign changed");
}

/// Opens a file for writing with share mode `share`: as the game's C runtime writes it
/// (reading and writing shared, deleting and so moving denied), or sharing nothing.
fn hold_as_the_game(path: &Path, share: u32) -> File {
    std::fs::OpenOptions::new().read(true).write(true).share_mode(share).open(path).unwrap()
}

#[test]
fn the_watcher_waits_while_the_game_holds_the_dump_and_applies_it_once_let_go() {
    // Readable but not movable; then not even readable.
    for share in [0x1 | 0x2, 0] {
        watch_a_held_dump(share);
    }
}

fn watch_a_held_dump(share: u32) {
    use std::process::{Command, Stdio};
    use std::time::{Duration, Instant};
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let inbox = c.tmp.path().join("Work");
    std::fs::create_dir_all(&inbox).unwrap();
    std::fs::write(inbox.join("startlocs.csv"), final_startlocs(&c, "T20-18.28")).unwrap();
    let dump = inbox.join("sowgb_gamedb_03-28-09_15-00-00.csv");
    std::fs::write(&dump, dump_for(&c, "T20-18.28", losses)).unwrap();
    let held = hold_as_the_game(&dump, share);
    let before = c.snapshot();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sowbridge"));
    cmd.arg("--campaign")
        .arg(&c.dir)
        .args(["watch", "--inbox"])
        .arg(&inbox)
        .args(["--settle", "300", "--exit-after", "1"])
        .env_remove("SOWBRIDGE_CAMPAIGN")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    let mut child = spawn(&mut cmd);
    // Several settle windows pass while the game holds the file: nothing is applied.
    std::thread::sleep(Duration::from_secs(3));
    assert!(child.try_wait().unwrap().is_none(), "share {share}: the watcher gave up on a held dump");
    assert!(c.snapshot() == before, "share {share}: applied while the game held the dump");
    assert!(dump.is_file());
    drop(held);
    let t = Instant::now();
    let status = loop {
        if let Some(s) = child.try_wait().unwrap() {
            break s;
        }
        if t.elapsed() > Duration::from_secs(60) {
            child.kill().unwrap();
            panic!("share {share}: the watcher did not apply the dump once it was let go");
        }
        std::thread::sleep(Duration::from_millis(50));
    };
    let mut err = String::new();
    std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert_eq!(status.code(), Some(0), "{err}");
    assert!(err.contains("still being written"), "{err}");
    assert!(!err.contains("error:"), "{err}");
    assert!(inbox.join("processed").join("sowgb_gamedb_03-28-09_15-00-00.csv").is_file(), "{err}");
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn export_with_a_campaign_file_held_writes_no_sow_file() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let out = c.tmp.path().join("out");
    std::fs::remove_dir_all(&out).unwrap();
    let before = c.snapshot();
    let _held = hold_as_excel(&c.path("battles/T20-18.28/battle.json"));
    let o = c.run(&["export", "hex", "18.28", "--replace", "--out", out.to_str().unwrap()]);
    assert_code(&o, 1);
    let shown = Path::new("battles").join("T20-18.28").join("battle.json").display().to_string();
    assert!(stderr(&o).contains(&format!("{shown} {CURE}")), "{}", stderr(&o));
    assert!(c.snapshot() == before, "the campaign changed");
    assert!(!out.exists(), "SoW files were written");
}

#[test]
fn an_interrupted_commit_that_cannot_be_finished_is_refused_saying_how_then_finished() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let dump = c.tmp.path().join("sowgb_gamedb_1.csv");
    std::fs::write(&dump, dump_for(&c, "T20-18.28", losses)).unwrap();
    let mut cmd = std::process::Command::new(env!("CARGO_BIN_EXE_sowbridge"));
    cmd.arg("--campaign")
        .arg(&c.dir)
        .args(["apply", dump.to_str().unwrap()])
        .env_remove("SOWBRIDGE_CAMPAIGN")
        .env("SOWBRIDGE_CRASH_AT", "after-manifest");
    assert_ne!(output(&mut cmd).status.code(), Some(0));
    let held = hold_as_excel(&c.path("forces.csv"));
    let before = c.snapshot();
    for args in [&["status"][..], &["battles"]] {
        let o = c.run(args);
        assert_code(&o, 1);
        let err = stderr(&o);
        assert!(err.contains("an interrupted sowbridge command left a change to finish"), "{err}");
        assert!(err.contains(&format!("forces.csv {CURE}")), "{err}");
        assert!(stdout(&o).is_empty(), "{args:?} showed a half-committed campaign");
        assert!(c.snapshot() == before, "{args:?} changed the campaign");
    }
    drop(held);
    let o = c.run(&["battles"]);
    assert_code(&o, 0);
    assert!(stderr(&o).contains("finished a change"), "{}", stderr(&o));
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn export_with_its_oob_open_in_the_sow_folder_writes_nothing() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let out = c.tmp.path().join("out");
    let oob = out.join("OOBs").join("T20-18.28.csv");
    let before = (c.snapshot(), snapshot(&out));
    let _held = hold_as_excel(&oob);
    let o = c.run(&["export", "hex", "18.28", "--replace", "--out", out.to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains(&format!("{} {CURE}", oob.display())), "{}", stderr(&o));
    assert!((c.snapshot(), snapshot(&out)) == before, "something was written");
}

#[test]
fn move_with_its_map_open_in_another_program_moves_nothing() {
    let c = Camp::new("peninsula");
    let o = repo().join("fixtures/orders");
    let [fr, al] = [o.join("french.csv"), o.join("allies.csv")].map(|p| p.display().to_string());
    let map = c.tmp.path().join("orders.html");
    std::fs::write(&map, "<html></html>").unwrap();
    let before = c.snapshot();
    let held = hold_as_excel(&map);
    let o = c.run(&["move", &fr, &al, "--map", map.to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains(&format!("{} {CURE}", map.display())), "{}", stderr(&o));
    assert!(c.snapshot() == before, "the forces marched though the move was refused");
    drop(held);
    assert_code(&c.run(&["move", &fr, &al, "--map", map.to_str().unwrap()]), 0);
    assert!(std::fs::read_to_string(&map).unwrap().contains("<svg"), "the map was not drawn");
}
