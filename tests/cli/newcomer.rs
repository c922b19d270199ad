//! A newcomer's first ten minutes: `demo`, the README's battle day as written, `--help` with
//! examples.

use std::process::Command;

use crate::common::*;

/// Splits a command line as a shell would for these simple lines: spaces, double quotes.
fn words(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut quoted = false;
    let mut any = false;
    for ch in line.chars() {
        match ch {
            '"' => {
                quoted = !quoted;
                any = true;
            }
            ' ' if !quoted => {
                if any || !cur.is_empty() {
                    out.push(std::mem::take(&mut cur));
                }
                any = false;
            }
            c => cur.push(c),
        }
    }
    if any || !cur.is_empty() {
        out.push(cur);
    }
    out
}

/// The `sowbridge …` lines of the README's battle day, comments cut off, leaving out those
/// that need the game's own folder.
fn battle_day() -> Vec<Vec<String>> {
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    let start = readme.find("## The umpire's battle day").unwrap();
    let end = readme.find("## Your own campaign").unwrap();
    readme[start..end]
        .lines()
        .map(|l| l.split("   #").next().unwrap_or("").trim())
        .filter(|l| l.starts_with("sowbridge ") && !l.contains("C:\\"))
        .map(|l| words(l).into_iter().skip(1).collect())
        .collect()
}

#[test]
fn the_readme_battle_day_runs_as_written_after_demo() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |args: &[String]| {
        output(
            Command::new(env!("CARGO_BIN_EXE_sowbridge"))
                .args(args)
                .current_dir(tmp.path())
                .env("SOWBRIDGE_CAMPAIGN", "sowbridge-demo/campaign"),
        )
    };
    let fixture = snapshot(&repo().join("fixtures"));
    let o = run(&["demo".to_string()]);
    assert_code(&o, 0);
    assert!(tmp.path().join("sowbridge-demo/out/OOBs/T20-18.28.csv").is_file());
    assert!(tmp.path().join("sowbridge-demo/campaign/battles/T20-18.28/battle.json").is_file());
    let steps = battle_day();
    assert!(steps.len() >= 12, "the battle day lost its commands: {steps:?}");
    for args in &steps {
        let o = run(args);
        assert_code(&o, 0);
        // What `contacts decide` advises is what `export` then does: the command it gives runs.
        if args.starts_with(&["contacts".to_string(), "decide".to_string()]) {
            let said = stdout(&o);
            let advised = said.split('`').nth(1).filter(|c| c.starts_with("sowbridge export hex "));
            let Some(advised) = advised else { panic!("no export advised: {said}") };
            let mut export: Vec<String> = words(advised).into_iter().skip(1).collect();
            export.push("--dry-run".to_string());
            let e = run(&export);
            assert_code(&e, 0);
            assert!(said.contains("2.5.3") && advised.contains("--overrule 2.5.3"), "{said}");
        }
        if args[0] == "check" {
            assert!(
                stdout(&o).contains("12 forces, 185 rows of order of battle, 141 settlements"),
                "{}",
                stdout(&o)
            );
        }
    }
    let journal = std::fs::read_to_string(tmp.path().join("sowbridge-demo/campaign/journal.jsonl")).unwrap();
    assert_eq!(
        journal.lines().count(),
        7,
        "apply, undo, apply, turn advance, move, contacts advised, contacts decided: {journal}"
    );
    assert_eq!(snapshot(&repo().join("fixtures")), fixture, "the shipped campaign changed");
    // Run from a clone, the battle day writes only into the demo's folder, which the
    // repository ignores: the clone stays clean.
    let top: Vec<String> = std::fs::read_dir(tmp.path())
        .unwrap()
        .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
        .collect();
    assert_eq!(top, ["sowbridge-demo"], "the README's battle day wrote beside its demo folder");
    let ignored = std::fs::read_to_string(repo().join(".gitignore")).unwrap();
    assert!(ignored.lines().any(|l| l.trim() == "/sowbridge-demo/"), "{ignored}");
    // A second demo into the same folder is refused and changes nothing.
    let before = snapshot(tmp.path());
    let o = run(&["demo".to_string()]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("already exists and is not empty"), "{}", stderr(&o));
    assert_eq!(snapshot(tmp.path()), before);
}

/// The commands `demo` suggests, run as it prints them, each succeed and only look: the demo's
/// folder is byte for byte as the demo left it, so the README's battle day (which `demo` then
/// points to) starts where it says, on turn 20 with Medellín's battle exported.
#[test]
fn the_demo_s_next_steps_run_as_it_prints_them_and_change_nothing() {
    let tmp = tempfile::tempdir().unwrap();
    let run = |args: &[String]| {
        output(Command::new(env!("CARGO_BIN_EXE_sowbridge")).args(args).current_dir(tmp.path()))
    };
    let o = run(&["demo".to_string()]);
    assert_code(&o, 0);
    let said = stderr(&o);
    let steps: Vec<Vec<String>> = said
        .split("Next, look before anything changes:")
        .nth(1)
        .unwrap_or_else(|| panic!("no next steps: {said}"))
        .lines()
        .map(str::trim)
        .filter(|l| l.starts_with("sowbridge "))
        .map(|l| words(l).into_iter().skip(1).collect())
        .collect();
    assert!(steps.len() >= 3, "{said}");
    assert!(said.contains("README.md, \"The umpire's battle day\""), "{said}");
    let readme = std::fs::read_to_string(repo().join("README.md")).unwrap();
    assert!(
        readme.contains("## The umpire's battle day"),
        "the demo points to a README section that is gone"
    );
    let before = snapshot(tmp.path());
    for args in &steps {
        let o = run(args);
        assert_code(&o, 0);
    }
    assert_eq!(snapshot(tmp.path()), before, "the demo's next steps changed its folder");
}

#[test]
fn every_command_s_help_shows_an_example() {
    let tmp = tempfile::tempdir().unwrap();
    for cmd in [
        &["check"][..],
        &["status"],
        &["contacts"],
        &["export", "hex"],
        &["vocab", "check"],
        &["vocab", "init"],
        &["apply"],
        &["watch"],
        &["undo"],
        &["turn", "advance"],
        &["battles"],
        &["battle", "show"],
        &["battle", "template"],
        &["audit"],
        &["demo"],
        &["calibrate"],
        &["inspect"],
        &["export"],
        &["battle"],
        &["turn"],
        &["vocab"],
    ] {
        let mut args: Vec<&str> = cmd.to_vec();
        args.push("--help");
        let o = sowbridge(tmp.path(), &args);
        assert_code(&o, 0);
        assert!(stdout(&o).contains("Example"), "{cmd:?} --help has no example:\n{}", stdout(&o));
        assert!(stdout(&o).contains(&format!("sowbridge {}", cmd.join(" "))), "{cmd:?}: {}", stdout(&o));
    }
}
