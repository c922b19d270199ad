//! Crash tests: `apply`, `undo` and `turn advance` killed (aborted by the test hook
//! `SOWBRIDGE_CRASH_AT`) at every point of a commit. After each crash the campaign is the
//! old state or the new one, `audit` passes, and running the command again ends in exactly
//! one application.

use std::process::Command;

use crate::common::*;

const POINTS: [&str; 5] = ["staging", "before-manifest", "after-manifest", "after-journal", "mid-rename"];

fn run_crashing(c: &Camp, point: &str, args: &[&str]) -> std::process::Output {
    output(
        Command::new(env!("CARGO_BIN_EXE_sowbridge"))
            .arg("--campaign")
            .arg(&c.dir)
            .args(args)
            .env_remove("SOWBRIDGE_CAMPAIGN")
            .env("SOWBRIDGE_CRASH_AT", point),
    )
}

fn entries(c: &Camp, kind: &str) -> usize {
    if !c.path("journal.jsonl").is_file() {
        return 0;
    }
    c.read("journal.jsonl").lines().filter(|l| l.contains(&format!("\"kind\":\"{kind}\""))).count()
}

fn state(c: &Camp) -> Vec<Vec<u8>> {
    ["forces.csv", "commanders.csv", "returns.csv", "score.csv", "campaign.toml"]
        .iter()
        .map(|f| std::fs::read(c.path(f)).unwrap_or_default())
        .collect()
}

fn losses(kind: &str, _u: Option<&str>, men: u32) -> RowLosses {
    if kind == "unit" { (men / 8, men / 25, men / 9) } else { (0, 0, 0) }
}

/// A campaign with Medellín exported and its dump written; returns the dump's path.
fn ready() -> (Camp, std::path::PathBuf) {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let p = c.tmp.path().join("sowgb_gamedb_1.csv");
    std::fs::write(&p, dump_for(&c, "T20-18.28", losses)).unwrap();
    (c, p)
}

#[test]
fn apply_killed_at_every_point_is_old_or_new_and_ends_applied_once() {
    let (reference, dump) = ready();
    let old = state(&reference);
    assert_code(&reference.run(&["apply", dump.to_str().unwrap()]), 0);
    let new = state(&reference);
    for point in POINTS {
        let (c, dump) = ready();
        let o = run_crashing(&c, point, &["apply", dump.to_str().unwrap()]);
        assert_ne!(o.status.code(), Some(0), "{point}: the hook did not fire");
        // Any command taking the lock finishes a committed change or drops an uncommitted
        // one; audit does, and must pass.
        assert_code(&c.run(&["audit"]), 0);
        let now = state(&c);
        assert!(now == old || now == new, "{point}: neither the old state nor the new");
        let again = c.run(&["apply", dump.to_str().unwrap()]);
        if now == old {
            assert_code(&again, 0);
        } else {
            assert_code(&again, 1);
            assert!(stderr(&again).contains("already applied"), "{point}: {}", stderr(&again));
        }
        assert_eq!(entries(&c, "apply"), 1, "{point}");
        assert_eq!(state(&c), new, "{point}: the end state differs from an uninterrupted apply");
        assert_code(&c.run(&["audit"]), 0);
    }
}

#[test]
fn undo_killed_at_every_point_is_old_or_new() {
    for point in POINTS {
        let (c, dump) = ready();
        let before_apply = state(&c);
        assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
        let applied = state(&c);
        let o = run_crashing(&c, point, &["undo", "T20-18.28"]);
        assert_ne!(o.status.code(), Some(0), "{point}");
        assert_code(&c.run(&["audit"]), 0);
        let now = state(&c);
        assert!(now == applied || now == before_apply, "{point}: neither state");
        if now == applied {
            assert_code(&c.run(&["undo", "T20-18.28"]), 0);
        }
        assert_eq!(state(&c), before_apply, "{point}");
        assert_eq!(entries(&c, "undo"), 1, "{point}");
        assert_code(&c.run(&["audit"]), 0);
    }
}

#[test]
fn turn_advance_killed_at_every_point_is_old_or_new() {
    for point in POINTS {
        let (c, dump) = ready();
        assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
        let before = state(&c);
        let o = run_crashing(&c, point, &["turn", "advance"]);
        assert_ne!(o.status.code(), Some(0), "{point}");
        assert_code(&c.run(&["audit"]), 0);
        let now = state(&c);
        if now == before {
            assert_code(&c.run(&["turn", "advance"]), 0);
        }
        assert!(c.read("campaign.toml").contains("turn = 21"), "{point}");
        assert_eq!(entries(&c, "turn-advance"), 1, "{point}");
        assert_code(&c.run(&["audit"]), 0);
    }
}

fn run_failing(c: &Camp, point: &str, args: &[&str]) -> std::process::Output {
    output(
        Command::new(env!("CARGO_BIN_EXE_sowbridge"))
            .arg("--campaign")
            .arg(&c.dir)
            .args(args)
            .env_remove("SOWBRIDGE_CAMPAIGN")
            .env("SOWBRIDGE_FAIL_AT", point),
    )
}

#[test]
fn a_commit_that_cannot_finish_is_taken_back_by_the_same_command() {
    for point in ["after-journal", "mid-rename"] {
        let (c, dump) = ready();
        let before = c.snapshot();
        let o = run_failing(&c, point, &["apply", dump.to_str().unwrap()]);
        assert_code(&o, 2);
        assert!(stderr(&o).contains(&format!("failing at {point}")), "{point}: {}", stderr(&o));
        assert!(c.snapshot() == before, "{point}: the campaign is not as it was");
        assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
        assert_eq!(entries(&c, "apply"), 1, "{point}");
        assert_code(&c.run(&["audit"]), 0);
    }
}

#[test]
fn read_only_commands_finish_an_interrupted_commit_before_they_show_anything() {
    let (reference, dump) = ready();
    assert_code(&reference.run(&["apply", dump.to_str().unwrap()]), 0);
    let new = state(&reference);
    for command in
        [&["status"][..], &["battles"], &["contacts"], &["check"], &["battle", "show", "T20-18.28"]]
    {
        let expected = reference.run(command);
        let (c, dump) = ready();
        let o = run_crashing(&c, "after-manifest", &["apply", dump.to_str().unwrap()]);
        assert_ne!(o.status.code(), Some(0));
        let shown = c.run(command);
        assert_code(&shown, expected.status.code().unwrap());
        assert!(stderr(&shown).contains("finished a change"), "{command:?}: {}", stderr(&shown));
        let here = stdout(&shown).replace(c.dir.to_str().unwrap(), reference.dir.to_str().unwrap());
        assert_eq!(here, stdout(&expected), "{command:?} shows a half-committed campaign");
        assert!(state(&c) == new, "{command:?}");
    }
}
