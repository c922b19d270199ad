//! Interrupted commands and concurrent writers: a change cut short and asked for again, a
//! lock file removed under a running command, a hand edit after an interrupted command,
//! Ctrl-C, and a commit manifest that is damaged or came from elsewhere.

use std::process::Command;

use crate::common::*;
use crate::nothing_lost::{BATTLE, count, ready, run_env};

/// The points of a commit after its commit point: the change is committed, not finished.
const COMMITTED: [&str; 3] = ["after-manifest", "after-journal", "mid-rename"];

#[test]
fn an_interrupted_turn_advance_run_again_advances_one_turn() {
    for point in COMMITTED {
        let (c, dump) = ready();
        assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
        let o = run_env(&c, &[("SOWBRIDGE_CRASH_AT", point)], &["turn", "advance"]);
        assert_ne!(o.status.code(), Some(0), "{point}: the hook did not fire");
        let again = c.run(&["turn", "advance"]);
        assert_code(&again, 0);
        assert!(stderr(&again).contains("not made a second time"), "{point}: {}", stderr(&again));
        assert!(c.read("campaign.toml").contains("turn = 21"), "{point}: not turn 21");
        assert_eq!(count(&c, "turn-advance"), 1, "{point}");
        assert_code(&c.run(&["audit"]), 0);
        // The next turn advance is a turn advance of its own.
        assert_code(&c.run(&["turn", "advance"]), 0);
        assert!(c.read("campaign.toml").contains("turn = 22"), "{point}");
    }
}

#[test]
fn an_interrupted_apply_or_undo_run_again_is_finished_not_repeated() {
    let (c, dump) = ready();
    let o = run_env(&c, &[("SOWBRIDGE_CRASH_AT", "after-journal")], &["apply", dump.to_str().unwrap()]);
    assert_ne!(o.status.code(), Some(0));
    let again = c.run(&["apply", dump.to_str().unwrap()]);
    assert_code(&again, 0);
    assert!(stderr(&again).contains("not made a second time"), "{}", stderr(&again));
    assert_eq!(count(&c, "apply"), 1);
    // An interrupted undo, run again, does not undo a second change.
    assert_code(&c.run(&["turn", "advance"]), 0);
    let o = run_env(&c, &[("SOWBRIDGE_CRASH_AT", "after-manifest")], &["undo", "turn"]);
    assert_ne!(o.status.code(), Some(0));
    let again = c.run(&["undo", "turn"]);
    assert_code(&again, 0);
    assert!(stderr(&again).contains("not made a second time"), "{}", stderr(&again));
    assert_eq!(count(&c, "undo"), 1);
    assert!(c.read("campaign.toml").contains("turn = 20"));
    assert_code(&c.run(&["audit"]), 0);
}

/// Waits until a paused command has reached its pause point.
fn wait_for(path: &std::path::Path) {
    let start = std::time::Instant::now();
    while !path.exists() {
        assert!(start.elapsed() < std::time::Duration::from_secs(60), "the command never paused");
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

#[test]
fn a_lock_file_deleted_while_apply_runs_lets_no_second_writer_spoil_it() {
    let (c, dump) = ready();
    let go = c.tmp.path().join("go");
    let apply = spawn(
        Command::new(env!("CARGO_BIN_EXE_sowbridge"))
            .arg("--campaign")
            .arg(&c.dir)
            .args(["apply", dump.to_str().unwrap()])
            .env_remove("SOWBRIDGE_CAMPAIGN")
            .env("SOWBRIDGE_PAUSE_AT", "before-manifest")
            .env("SOWBRIDGE_PAUSE_FILE", &go)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped()),
    );
    wait_for(&c.tmp.path().join("go.reached"));
    // A clean-up removes the lock file while apply holds it (Windows refuses: the lock file
    // is held open without delete sharing).
    let removed = std::fs::remove_file(c.path("campaign.lock")).is_ok();
    let orders = fixture("orders").join("lisbon-elvas.csv");
    if removed {
        // A second writer gets a lock of its own, and its change stands.
        assert_code(&c.run(&["move", orders.to_str().unwrap()]), 0);
    } else {
        assert!(std::env::consts::OS == "windows", "the lock file could not be removed");
    }
    std::fs::write(&go, "").unwrap();
    let o = apply.wait_with_output().unwrap();
    if removed {
        // apply finds its lock no longer the lock file and changes nothing.
        assert_code(&o, 2);
        assert!(stderr(&o).contains("the campaign lock was removed or replaced"), "{}", stderr(&o));
        assert_eq!(count(&c, "apply"), 0, "a spoilt apply was journalled");
        assert_eq!(count(&c, "move"), 1);
        assert_code(&c.run(&["audit"]), 0);
        assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
    } else {
        assert_code(&o, 0);
    }
    assert_eq!(count(&c, "apply"), 1);
    assert!(c.read(&format!("battles/{BATTLE}/battle.json")).contains("\"applied\""));
    assert!(!c.path(".sowbridge").exists(), "a staging folder was left behind");
    assert_code(&c.run(&["audit"]), 0);
}

/// `forces.csv` with one name changed by hand.
fn hand_edit(c: &Camp) -> String {
    let edited = c.read("forces.csv").replacen(",Ier Corps,", ",1er Corps,", 1);
    c.write("forces.csv", &edited);
    edited
}

/// The one folder of files kept from a change taken back.
fn kept(c: &Camp) -> std::path::PathBuf {
    let kept: Vec<_> = std::fs::read_dir(c.path(".sowbridge"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.file_name().unwrap().to_string_lossy().starts_with("interrupted-"))
        .collect();
    assert_eq!(kept.len(), 1, "{kept:?}");
    kept[0].clone()
}

#[test]
fn a_hand_edit_after_an_interrupted_change_is_never_overwritten() {
    for point in ["after-manifest", "after-journal"] {
        let (c, dump) = ready();
        let unchanged = c.read("forces.csv");
        let o = run_env(&c, &[("SOWBRIDGE_CRASH_AT", point)], &["apply", dump.to_str().unwrap()]);
        assert_ne!(o.status.code(), Some(0), "{point}: the hook did not fire");
        assert_eq!(c.read("forces.csv"), unchanged, "{point}: the files look unchanged");
        let edited = hand_edit(&c);
        let o = c.run(&["status"]);
        assert_code(&o, 1);
        assert!(stderr(&o).contains("forces.csv changed after it was cut short"), "{point}: {}", stderr(&o));
        assert_eq!(c.read("forces.csv"), edited, "{point}: the hand edit was overwritten");
        // Both versions are kept: the change's own forces.csv, with the old name and the losses.
        let theirs = std::fs::read_to_string(kept(&c).join("forces.csv")).unwrap();
        assert!(theirs.contains(",Ier Corps,") && theirs != unchanged, "{point}");
        assert!(c.read(&format!("battles/{BATTLE}/battle.json")).contains("\"exported\""), "{point}");
        assert_code(&c.run(&["audit"]), 0);
        // The result applies once, over the edit, which is journalled.
        assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
        assert!(c.read("forces.csv").contains(",1er Corps,"), "{point}");
        assert_eq!(count(&c, "apply"), 1, "{point}");
        assert_code(&c.run(&["audit"]), 0);
    }
}

/// Ctrl-C (SIGINT; sending it needs `kill`, so Unix only) after the commit point prints
/// one line saying the change is committed.
#[cfg(unix)]
#[test]
fn ctrl_c_after_the_commit_point_says_so_in_one_line() {
    let (c, dump) = ready();
    let go = c.tmp.path().join("go");
    let apply = spawn(
        Command::new(env!("CARGO_BIN_EXE_sowbridge"))
            .arg("--campaign")
            .arg(&c.dir)
            .args(["apply", dump.to_str().unwrap()])
            .env_remove("SOWBRIDGE_CAMPAIGN")
            .env("SOWBRIDGE_PAUSE_AT", "after-manifest")
            .env("SOWBRIDGE_PAUSE_FILE", &go)
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::piped()),
    );
    wait_for(&c.tmp.path().join("go.reached"));
    let pid = apply.id().to_string();
    assert!(Command::new("kill").args(["-INT", &pid]).status().unwrap().success());
    let o = apply.wait_with_output().unwrap();
    assert_code(&o, 130);
    let err = stderr(&o);
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.contains("interrupted after its change was committed"), "{err}");
    let again = c.run(&["apply", dump.to_str().unwrap()]);
    assert_code(&again, 0);
    assert_eq!(count(&c, "apply"), 1);
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn a_manifest_received_with_a_campaign_never_writes_outside_it() {
    let c = Camp::new("peninsula");
    let victim = c.tmp.path().join("victim.txt");
    std::fs::write(&victim, "keep me").unwrap();
    std::fs::create_dir_all(c.path(".sowbridge/staging")).unwrap();
    std::fs::write(c.path(".sowbridge/staging/000000"), "planted").unwrap();
    let manifest = r#"{"moves":[["000000","../planted.txt"]],"removes":["../victim.txt"],"journal":[]}"#;
    c.write(".sowbridge/commit.json", manifest);
    let before = c.snapshot();
    let o = c.run(&["status"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("names '../planted.txt', outside the campaign folder"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(&victim).unwrap(), "keep me");
    assert!(!c.tmp.path().join("planted.txt").exists());
    assert!(c.snapshot() == before);
    // A staging folder outside .sowbridge is refused the same way.
    c.write(".sowbridge/commit.json", r#"{"moves":[],"removes":[],"journal":[],"staging":"../.."}"#);
    assert_code(&c.run(&["status"]), 1);
    assert!(c.tmp.path().exists() && victim.exists());
}

#[test]
fn a_damaged_manifest_gets_advice_and_a_missing_staged_file_is_damage() {
    let c = Camp::new("peninsula");
    std::fs::create_dir_all(c.path(".sowbridge")).unwrap();
    c.write(".sowbridge/commit.json", "");
    let o = c.run(&["status"]);
    assert_code(&o, 2);
    let err = stderr(&o);
    assert!(
        err.contains("commit manifest of an interrupted sowbridge command is damaged (it is empty)"),
        "{err}"
    );
    assert!(err.contains("run `sowbridge audit`"), "{err}");
    std::fs::remove_dir_all(c.path(".sowbridge")).unwrap();
    // A committed change whose staged copy of forces.csv went missing is not "done".
    let (c, dump) = ready();
    let o = run_env(&c, &[("SOWBRIDGE_CRASH_AT", "after-manifest")], &["apply", dump.to_str().unwrap()]);
    assert_ne!(o.status.code(), Some(0));
    let staging: Vec<_> = std::fs::read_dir(c.path(".sowbridge"))
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.is_dir())
        .collect();
    assert_eq!(staging.len(), 1);
    let manifest: serde_json::Value = serde_json::from_str(&c.read(".sowbridge/commit.json")).unwrap();
    let moves = manifest["moves"].as_array().unwrap();
    let forces = moves.iter().find(|m| m[1] == "forces.csv").unwrap()[0].as_str().unwrap();
    std::fs::remove_file(staging[0].join(forces)).unwrap();
    let before = c.snapshot();
    let o = c.run(&["status"]);
    assert_code(&o, 2);
    assert!(stderr(&o).contains("forces.csv is no longer what the change wrote there"), "{}", stderr(&o));
    assert!(c.snapshot() == before, "a damaged change was carried out in part");
}
