//! `watch`: results ingested from a real folder by the real binary, exactly once, surviving
//! kills at every commit point.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::{Duration, Instant};

use crate::common::*;

const DUMP: &str = "sowgb_gamedb_03-28-09_15-00-00.csv";

fn losses(kind: &str, _unit: Option<&str>, men: u32) -> RowLosses {
    if kind == "unit" { (men / 10, men / 20, men / 10) } else { (0, 0, 0) }
}

fn start(c: &Camp, inbox: &Path, exit_after: usize, crash_at: Option<&str>) -> Child {
    start_with(c, inbox, exit_after, crash_at, &[])
}

/// Starts `watch` on an inbox with a 300 ms settle window and further arguments.
pub fn start_with(
    c: &Camp,
    inbox: &Path,
    exit_after: usize,
    crash_at: Option<&str>,
    extra: &[&str],
) -> Child {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sowbridge"));
    cmd.arg("--campaign")
        .arg(&c.dir)
        .args(["watch", "--inbox"])
        .arg(inbox)
        .args(["--settle", "300", "--exit-after", &exit_after.to_string()])
        .args(extra)
        .env_remove("SOWBRIDGE_CAMPAIGN")
        .stdout(Stdio::null())
        .stderr(Stdio::piped());
    if let Some(p) = crash_at {
        cmd.env("SOWBRIDGE_CRASH_AT", p);
    }
    spawn(&mut cmd)
}

/// Waits for the watcher to exit (killing it after `limit`); returns its stderr.
pub fn finish(mut child: Child, limit: Duration) -> (Option<i32>, String) {
    let t = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
            return (status.code(), err);
        }
        if t.elapsed() > limit {
            child.kill().unwrap();
            let _ = child.wait();
            let mut err = String::new();
            std::io::Read::read_to_string(child.stderr.as_mut().unwrap(), &mut err).unwrap();
            return (None, err);
        }
        std::thread::sleep(Duration::from_millis(50));
    }
}

fn setup() -> (Camp, PathBuf) {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let inbox = c.tmp.path().join("Work");
    std::fs::create_dir_all(&inbox).unwrap();
    (c, inbox)
}

fn applied_entries(c: &Camp) -> usize {
    c.read("journal.jsonl").lines().filter(|l| l.contains("\"kind\":\"apply\"")).count()
}

#[test]
fn a_dump_written_slowly_is_applied_once_when_complete() {
    let (c, inbox) = setup();
    std::fs::write(inbox.join("startlocs.csv"), final_startlocs(&c, "T20-18.28")).unwrap();
    let child = start(&c, &inbox, 1, None);
    let bytes = dump_for(&c, "T20-18.28", losses);
    let mut f = std::fs::File::create(inbox.join(DUMP)).unwrap();
    for chunk in bytes.chunks(bytes.len() / 4 + 1) {
        f.write_all(chunk).unwrap();
        f.flush().unwrap();
        std::thread::sleep(Duration::from_millis(120));
    }
    drop(f);
    let (code, err) = finish(child, Duration::from_secs(30));
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("T20-18.28"), "{err}");
    assert!(inbox.join("processed").join(DUMP).is_file());
    assert!(!inbox.join(DUMP).exists());
    assert!(!inbox.join("startlocs.csv").exists(), "the startlocs.csv used leaves the inbox with its dump");
    assert!(inbox.join("processed").join(format!("{DUMP}.startlocs.csv")).is_file());
    assert_eq!(applied_entries(&c), 1);
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn files_present_before_start_are_processed_and_copies_and_garbage_are_rejected() {
    let (c, inbox) = setup();
    std::fs::write(inbox.join("startlocs.csv"), final_startlocs(&c, "T20-18.28")).unwrap();
    let bytes = dump_for(&c, "T20-18.28", losses);
    std::fs::write(inbox.join(DUMP), &bytes).unwrap();
    let (code, err) = finish(start(&c, &inbox, 1, None), Duration::from_secs(30));
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(applied_entries(&c), 1);
    let before = c.snapshot();
    // The same dump dropped again under another name, and a garbage file.
    std::fs::write(inbox.join("sowgb_gamedb_again.csv"), &bytes).unwrap();
    std::fs::write(inbox.join("sowgb_gamedb_garbage.csv"), b"\x00\x01garbage\xff").unwrap();
    let (code, err) = finish(start(&c, &inbox, 2, None), Duration::from_secs(30));
    assert_eq!(code, Some(0), "{err}");
    for name in ["sowgb_gamedb_again.csv", "sowgb_gamedb_garbage.csv"] {
        assert!(inbox.join("rejected").join(name).is_file(), "{name} not rejected: {err}");
        let why = std::fs::read_to_string(inbox.join("rejected").join(format!("{name}.err"))).unwrap();
        assert!(!why.trim().is_empty());
    }
    assert!(
        std::fs::read_to_string(inbox.join("rejected/sowgb_gamedb_again.csv.err"))
            .unwrap()
            .contains("already applied")
    );
    assert_eq!(c.snapshot(), before, "the campaign changed");
}

#[test]
fn a_dump_that_is_not_final_waits() {
    let (c, inbox) = setup();
    let before = c.snapshot();
    let child = start(&c, &inbox, 1, None);
    let bytes = dump_for(&c, "T20-18.28", losses);
    std::fs::write(inbox.join(DUMP), &bytes).unwrap();
    std::thread::sleep(Duration::from_millis(1500));
    assert!(inbox.join(DUMP).is_file(), "a dump without its final startlocs.csv was taken");
    assert_eq!(c.snapshot(), before);
    // The final dumplocs arrives; the dump is touched (the game rewrites it): applied.
    std::fs::write(inbox.join("startlocs.csv"), final_startlocs(&c, "T20-18.28")).unwrap();
    std::fs::write(inbox.join(DUMP), &bytes).unwrap();
    let (code, err) = finish(child, Duration::from_secs(60));
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("not final"), "{err}");
    assert_eq!(applied_entries(&c), 1);
}

#[test]
fn a_watcher_killed_at_any_commit_point_applies_exactly_once_on_restart() {
    for point in ["staging", "before-manifest", "after-manifest", "after-journal", "mid-rename"] {
        let (c, inbox) = setup();
        std::fs::write(inbox.join("startlocs.csv"), final_startlocs(&c, "T20-18.28")).unwrap();
        std::fs::write(inbox.join(DUMP), dump_for(&c, "T20-18.28", losses)).unwrap();
        let (code, _) = finish(start(&c, &inbox, 1, Some(point)), Duration::from_secs(30));
        assert_ne!(code, Some(0), "{point}: the crash hook did not fire");
        let (code, err) = finish(start(&c, &inbox, 1, None), Duration::from_secs(30));
        assert_eq!(code, Some(0), "{point}: {err}");
        assert_eq!(applied_entries(&c), 1, "{point}");
        assert!(inbox.join("processed").join(DUMP).is_file(), "{point}: {err}");
        let o = c.run(&["audit"]);
        assert_eq!(o.status.code(), Some(0), "{point}: {}", stderr(&o));
    }
}

#[test]
fn a_watcher_killed_at_random_moments_never_loses_or_doubles_a_result() {
    for wait_ms in [50u64, 200, 350, 500, 800] {
        let (c, inbox) = setup();
        std::fs::write(inbox.join("startlocs.csv"), final_startlocs(&c, "T20-18.28")).unwrap();
        std::fs::write(inbox.join(DUMP), dump_for(&c, "T20-18.28", losses)).unwrap();
        let mut child = start(&c, &inbox, 1, None);
        std::thread::sleep(Duration::from_millis(wait_ms));
        let _ = child.kill();
        let _ = child.wait();
        // Whatever the moment, a restart finishes the work: the file is applied once and
        // leaves the inbox.
        if inbox.join(DUMP).exists() {
            let (code, err) = finish(start(&c, &inbox, 1, None), Duration::from_secs(30));
            assert_eq!(code, Some(0), "{wait_ms} ms: {err}");
        }
        assert!(inbox.join("processed").join(DUMP).is_file(), "{wait_ms} ms");
        let n = applied_entries_or_zero(&c);
        assert_eq!(n, 1, "{wait_ms} ms");
        assert_code(&c.run(&["audit"]), 0);
    }
}

fn applied_entries_or_zero(c: &Camp) -> usize {
    if c.path("journal.jsonl").is_file() { applied_entries(c) } else { 0 }
}
