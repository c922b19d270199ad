//! Golden cases: the README's battle day on the example campaign, every file it leaves and
//! every line it prints pinned byte for byte under `tests/golden/<case>/`.
//!
//! Each case starts from the folder `sowbridge demo` sets up, without its export (the
//! fixture campaign as `sowbridge-demo/campaign`, the example result and the example orders
//! beside it), runs the README's commands up to its own through the real binary in that
//! folder (`SOWBRIDGE_CAMPAIGN=sowbridge-demo/campaign`, relative paths as the README types
//! them), and compares:
//!
//! - `stdout.txt` and `stderr.txt`: what the case's own command printed;
//! - `tree/`: every file of the folder afterwards — the campaign, the SoW output folders
//!   (`sowbridge-demo/out/` of the demo's export, `out/` of a later export without `--out`),
//!   the inputs — except `campaign.lock`, the empty sidecar the OS file lock is taken on (no
//!   campaign state; the other tests' snapshots leave it out too). A `--dry-run` case has no
//!   `tree/`: the folder must come out of it unchanged.
//!
//! The output is deterministic as it stands (the same bytes from two runs in two temporary
//! folders: no clock, no absolute path is written), so nothing is normalised, with one
//! exception: on Windows the paths sowbridge prints are joined with `\`
//! (`sowbridge-demo/out\OOBs\T20-18.28.csv`), so there, and only there, every `\` of stdout
//! and stderr is read as `/` before the comparison (no expected `stdout.txt` or `stderr.txt`
//! holds a `\`; the files sowbridge writes hold no path of the machine).
//!
//! `SOWBRIDGE_BLESS=1 cargo test --test cli golden` writes the actual output as the expected
//! files instead of comparing (docs/development.md); the diff must then be reviewed.

use std::collections::{BTreeMap, BTreeSet};
use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;

/// The example result, where `demo` puts it.
const RESULT: &str = "sowbridge-demo/T20-18.28-example.result.csv";
/// The example orders, where `demo` puts them.
const FRENCH: &str = "sowbridge-demo/orders/french.csv";
const ALLIES: &str = "sowbridge-demo/orders/allies.csv";

/// One step of the battle day: the case it is pinned as, and the command's arguments.
struct Step {
    case: &'static str,
    args: &'static [&'static str],
}

/// The README's battle day, its commands that write or plan, in its order. `demo` exports
/// Medellín into `sowbridge-demo/out`; the umpire's own `export hex 18.29` has no `--out`
/// and writes into `./out` (the example campaign sets no `sow_work`).
const DAY: [Step; 10] = [
    Step { case: "01-export-18.28", args: &["export", "hex", "18.28", "--out", "sowbridge-demo/out"] },
    Step { case: "02-apply-dry-run", args: &["apply", RESULT, "--dry-run"] },
    Step { case: "03-apply", args: &["apply", RESULT] },
    Step { case: "04-undo", args: &["undo", "T20-18.28"] },
    Step { case: "05-apply-draw", args: &["apply", RESULT, "--winner", "draw"] },
    Step { case: "06-turn-advance", args: &["turn", "advance"] },
    Step { case: "07-move-dry-run", args: &["move", FRENCH, ALLIES, "--dry-run"] },
    Step { case: "08-move", args: &["move", FRENCH, ALLIES] },
    Step { case: "09-export-18.29-dry-run", args: &["export", "hex", "18.29", "--dry-run"] },
    Step { case: "10-export-18.29", args: &["export", "hex", "18.29"] },
];

/// The folder `demo` sets up, before its export: what the umpire's commands run in.
fn start() -> tempfile::TempDir {
    let tmp = tempfile::tempdir().unwrap();
    let demo = tmp.path().join("sowbridge-demo");
    copy_dir(&fixture("peninsula"), &demo.join("campaign"));
    // `demo` leaves the fixture's .gitignore out (src/commands/demo.rs).
    std::fs::remove_file(demo.join("campaign/.gitignore")).unwrap();
    std::fs::copy(fixture("results/T20-18.28-example.result.csv"), demo.join("T20-18.28-example.result.csv"))
        .unwrap();
    std::fs::create_dir_all(demo.join("orders")).unwrap();
    for f in ["french.csv", "allies.csv"] {
        std::fs::copy(fixture("orders").join(f), demo.join("orders").join(f)).unwrap();
    }
    tmp
}

/// Runs `sowbridge args…` in `dir` as the README does.
fn run(dir: &Path, args: &[&str]) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sowbridge"));
    cmd.args(args).current_dir(dir).env("SOWBRIDGE_CAMPAIGN", "sowbridge-demo/campaign");
    output(&mut cmd)
}

/// Every file below `dir` by its `/`-joined relative path, `campaign.lock` left out.
fn tree(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut m = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.file_type().is_file() && entry.file_name() != "campaign.lock" {
            let rel = entry.path().strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/");
            m.insert(rel, std::fs::read(entry.path()).unwrap());
        }
    }
    m
}

/// What a command printed, as compared: on Windows a printed path's `\` is read as `/`.
fn printed(bytes: &[u8]) -> Vec<u8> {
    if cfg!(windows) {
        bytes.iter().map(|&b| if b == b'\\' { b'/' } else { b }).collect()
    } else {
        bytes.to_vec()
    }
}

/// The expected files of a case.
fn golden_dir(case: &str) -> PathBuf {
    repo().join("tests/golden").join(case)
}

/// Runs the battle day up to `case`, then compares (or, with `SOWBRIDGE_BLESS=1`, writes)
/// that case's expected files.
fn golden(case: &str) {
    let n = DAY.iter().position(|s| s.case == case).unwrap();
    let tmp = start();
    for step in &DAY[..n] {
        let o = run(tmp.path(), step.args);
        assert!(
            o.status.success(),
            "golden {case}: the earlier step {} (`sowbridge {}`) failed\n--- stderr\n{}",
            step.case,
            step.args.join(" "),
            stderr(&o)
        );
    }
    let step = &DAY[n];
    let dry = step.args.contains(&"--dry-run");
    let before = tree(tmp.path());
    let o = run(tmp.path(), step.args);
    assert_code(&o, 0);
    let after = tree(tmp.path());
    let mut actual = BTreeMap::new();
    actual.insert("stdout.txt".to_string(), printed(&o.stdout));
    actual.insert("stderr.txt".to_string(), printed(&o.stderr));
    if dry {
        if let Some(m) = first_mismatch(&before, &after) {
            panic!("golden {case}: `sowbridge {}` changed the folder: {m}", step.args.join(" "));
        }
    } else {
        actual.extend(after.into_iter().map(|(k, v)| (format!("tree/{k}"), v)));
    }
    let dir = golden_dir(case);
    if std::env::var_os("SOWBRIDGE_BLESS").is_some_and(|v| v == "1") {
        if dir.exists() {
            std::fs::remove_dir_all(&dir).unwrap();
        }
        for (rel, bytes) in &actual {
            let p = dir.join(rel);
            std::fs::create_dir_all(p.parent().unwrap()).unwrap();
            std::fs::write(p, bytes).unwrap();
        }
        eprintln!("golden {case}: blessed {} files into {}; review the diff", actual.len(), dir.display());
        return;
    }
    assert!(
        dir.is_dir(),
        "golden {case}: no expected files in {}; SOWBRIDGE_BLESS=1 writes them (docs/development.md)",
        dir.display()
    );
    let expected = tree(&dir);
    if let Some(m) = first_mismatch(&expected, &actual) {
        panic!(
            "golden {case} (`sowbridge {}`) differs from tests/golden/{case}/: {m}\n\
             If the change is intended, SOWBRIDGE_BLESS=1 cargo test --test cli golden rewrites the \
             expected files; review their diff before committing.",
            step.args.join(" ")
        );
    }
}

/// The first difference between two sets of files, in path order: a file missing or extra,
/// or the first differing line of the first differing file; the other differing files named.
fn first_mismatch(
    expected: &BTreeMap<String, Vec<u8>>,
    actual: &BTreeMap<String, Vec<u8>>,
) -> Option<String> {
    let paths: BTreeSet<&String> = expected.keys().chain(actual.keys()).collect();
    let differing: Vec<&String> = paths.into_iter().filter(|p| expected.get(*p) != actual.get(*p)).collect();
    let first = *differing.first()?;
    let what = match (expected.get(first), actual.get(first)) {
        (Some(_), None) => format!("{first} is expected but was not written"),
        (None, Some(_)) => format!("{first} was written but is not expected"),
        (Some(e), Some(a)) => format!("{first}: {}", first_line_difference(e, a)),
        (None, None) => unreachable!(),
    };
    let others = differing.len() - 1;
    if others == 0 {
        return Some(what);
    }
    let names: Vec<&str> = differing[1..].iter().take(10).map(|s| s.as_str()).collect();
    let more = if others > 10 { ", …" } else { "" };
    let files = if others == 1 { "file differs" } else { "files differ" };
    Some(format!("{what}\n({others} more {files}: {}{more})", names.join(", ")))
}

/// The first line (1-based) where two files differ, both versions shown escaped (a `\r` shows).
fn first_line_difference(expected: &[u8], actual: &[u8]) -> String {
    let e: Vec<&[u8]> = expected.split_inclusive(|&b| b == b'\n').collect();
    let a: Vec<&[u8]> = actual.split_inclusive(|&b| b == b'\n').collect();
    let i = (0..e.len().max(a.len())).find(|&i| e.get(i) != a.get(i)).unwrap_or(0);
    let show = |l: Option<&&[u8]>| match l {
        None => "(end of file)".to_string(),
        Some(l) => {
            let s = String::from_utf8_lossy(l);
            let cut: String = s.chars().take(300).collect();
            let more = if s.chars().count() > 300 { " …" } else { "" };
            format!("{cut:?}{more}")
        }
    };
    format!("line {} differs\n  expected: {}\n  actual:   {}", i + 1, show(e.get(i)), show(a.get(i)))
}

#[test]
fn golden_01_export_medellin() {
    golden("01-export-18.28");
}

#[test]
fn golden_02_apply_dry_run() {
    golden("02-apply-dry-run");
}

#[test]
fn golden_03_apply() {
    golden("03-apply");
}

#[test]
fn golden_04_undo() {
    golden("04-undo");
}

#[test]
fn golden_05_apply_draw() {
    golden("05-apply-draw");
}

#[test]
fn golden_06_turn_advance() {
    golden("06-turn-advance");
}

#[test]
fn golden_07_move_dry_run() {
    golden("07-move-dry-run");
}

#[test]
fn golden_08_move() {
    golden("08-move");
}

#[test]
fn golden_09_export_caught_retreat_dry_run() {
    golden("09-export-18.29-dry-run");
}

#[test]
fn golden_10_export_caught_retreat() {
    golden("10-export-18.29");
}

/// Every step of the battle day is a case with its own test above.
#[test]
fn golden_cases_are_the_battle_day() {
    let cases: BTreeSet<&str> = DAY.iter().map(|s| s.case).collect();
    assert_eq!(cases.len(), DAY.len(), "two steps share a case name");
    let on_disk: BTreeSet<String> = std::fs::read_dir(repo().join("tests/golden"))
        .unwrap()
        .map(|e| e.unwrap())
        .filter(|e| e.file_type().unwrap().is_dir())
        .map(|e| e.file_name().to_string_lossy().into_owned())
        .collect();
    let stale: Vec<&String> = on_disk.iter().filter(|d| !cases.contains(d.as_str())).collect();
    assert!(stale.is_empty(), "tests/golden holds folders of no case: {stale:?}");
}

/// The first case starts where the README does: `sowbridge demo` leaves exactly the folder
/// the fixture plus the first case's export makes.
#[test]
fn golden_start_is_what_demo_makes() {
    let demo = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sowbridge"));
    cmd.arg("demo").current_dir(demo.path()).env_remove("SOWBRIDGE_CAMPAIGN");
    let o = output(&mut cmd);
    assert_code(&o, 0);
    let ours = start();
    assert_code(&run(ours.path(), DAY[0].args), 0);
    if let Some(m) = first_mismatch(&tree(ours.path()), &tree(demo.path())) {
        panic!("golden: `sowbridge demo` differs from the fixture with case {}: {m}", DAY[0].case);
    }
}

/// The campaign's dice, pinned by value: the ChaCha8 stream of the example campaign's seed
/// for its battle of Medellín (the stream `export` draws from) and for its apply. If these
/// change, every campaign's dice change with them (src/rules/dice.rs).
#[test]
fn golden_seeded_dice_stream_values() {
    use sowbridge::rules::{Dice, SeededDice};
    let mut d = SeededDice::new(1808, "T20-18.28");
    let d6: Vec<u32> = (0..10).map(|_| d.roll(6, "golden")).collect();
    assert_eq!(d6, [2, 4, 3, 5, 2, 3, 6, 3, 1, 2], "d6 of (1808, T20-18.28)");
    // The dice export drew for Medellín, as its battle.json in tests/golden/01-export-18.28
    // records them: the map's orientation (d4), then each side's intelligence (8.5).
    let mut d = SeededDice::new(1808, "T20-18.28");
    let export: Vec<u32> = [4, 6, 6, 8, 8].iter().map(|&s| d.roll(s, "golden")).collect();
    assert_eq!(export, [2, 4, 3, 7, 2], "d4 d6 d6 d8 d8 of (1808, T20-18.28)");
    let mut d = SeededDice::new(1808, "T20-18.28/apply");
    let mixed: Vec<u32> =
        [6, 10, 20, 100, 2, 6, 6, 12, 3, 1000].iter().map(|&s| d.roll(s, "golden")).collect();
    assert_eq!(
        mixed,
        [1, 3, 20, 41, 2, 4, 1, 1, 2, 865],
        "d6 d10 d20 d100 d2 d6 d6 d12 d3 d1000 of (1808, T20-18.28/apply)"
    );
}
