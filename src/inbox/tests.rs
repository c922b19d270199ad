//! The watcher against a real folder with real file events, and a fake judge that judges by
//! content: `GOOD <battle> … END` is applied, `WAIT` waits, `IGNORE` is ignored, anything else
//! (an unfinished `GOOD` file included) is rejected. Every wait is bounded.

use std::collections::BTreeMap;
use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{Receiver, channel};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime};

use super::clock::SteadyClock;
use super::folder::sha256_hex;
use super::{Judge, Judgement, WatchOptions, WatchSummary, run_watch};

const SETTLE: Duration = Duration::from_millis(200);
const GOOD: &str = "GOOD T1-1.1\nsideIndex,armyIndex\n0,1\nEND\n";

/// What the fake judge was asked.
#[derive(Debug, Default)]
struct Calls {
    /// (file name, content) of every `judge` call, in order.
    judged: Vec<(String, String)>,
}

#[derive(Debug)]
struct FakeJudge {
    calls: Arc<Mutex<Calls>>,
    /// hash → (battle, file name), as the campaign journal would record it.
    applied: BTreeMap<String, (String, String)>,
    /// Set when a file is judged (to test stopping between files).
    stop_when_judging: Option<Arc<AtomicBool>>,
}

impl FakeJudge {
    fn new() -> (FakeJudge, Arc<Mutex<Calls>>) {
        let calls = Arc::new(Mutex::new(Calls::default()));
        let judge =
            FakeJudge { calls: Arc::clone(&calls), applied: BTreeMap::new(), stop_when_judging: None };
        (judge, calls)
    }
}

impl Judge for FakeJudge {
    fn is_candidate(&self, name: &str) -> bool {
        name.starts_with("sowgb_gamedb_") && name.ends_with(".csv")
    }
    fn applied_hash(&mut self, sha256_hex: &str) -> Option<(String, String)> {
        self.applied.get(sha256_hex).cloned()
    }
    fn judge(&mut self, path: &Path) -> Judgement {
        let name = path.file_name().unwrap().to_str().unwrap().to_string();
        let bytes = std::fs::read(path).unwrap();
        let text = String::from_utf8_lossy(&bytes).into_owned();
        self.calls.lock().unwrap().judged.push((name.clone(), text.clone()));
        if let Some(stop) = &self.stop_when_judging {
            stop.store(true, Ordering::SeqCst);
        }
        if text.starts_with("GOOD ") && text.ends_with("END\n") {
            let battle = text[5..].split_whitespace().next().unwrap().to_string();
            self.applied.insert(sha256_hex(&bytes), (battle.clone(), name));
            Judgement::Applied {
                battle,
                summary: "2 units, 0 casualties".to_string(),
                companions: Vec::new(),
            }
        } else if text.starts_with("WAIT") {
            Judgement::Wait { reason: "not final: no final startlocs.csv".to_string() }
        } else if text.starts_with("IGNORE") {
            Judgement::Ignore
        } else {
            Judgement::Rejected { reason: format!("{name}:1: not a battle result\nexpected a header") }
        }
    }
}

/// A watcher running in its own thread.
struct Running {
    stop: Arc<AtomicBool>,
    rx: Receiver<(Result<WatchSummary, crate::error::Error>, String, FakeJudge)>,
}

fn options(dir: &Path, exit_after: Option<usize>) -> WatchOptions {
    WatchOptions { settle: SETTLE, exit_after, ..WatchOptions::new(dir) }
}

fn spawn(opts: WatchOptions, mut judge: FakeJudge, stop: Arc<AtomicBool>) -> Running {
    let (tx, rx) = channel();
    let flag = Arc::clone(&stop);
    std::thread::spawn(move || {
        let mut log = Vec::new();
        let res = run_watch(&opts, &mut judge, &flag, &mut log, &SteadyClock);
        let _ = tx.send((res, String::from_utf8(log).unwrap(), judge));
    });
    Running { stop, rx }
}

impl Running {
    /// Waits (bounded) for the watcher to end by itself.
    #[track_caller]
    fn finish(self) -> (WatchSummary, String, FakeJudge) {
        match self.rx.recv_timeout(Duration::from_secs(5)) {
            Ok((res, log, judge)) => (res.unwrap(), log, judge),
            Err(_) => {
                self.stop.store(true, Ordering::SeqCst);
                let late = self.rx.recv_timeout(Duration::from_secs(2));
                panic!("the watcher did not end in time; log: {:?}", late.map(|r| r.1));
            }
        }
    }
}

#[track_caller]
fn wait_until(what: &str, cond: impl Fn() -> bool) {
    let deadline = Instant::now() + Duration::from_secs(5);
    while !cond() {
        assert!(Instant::now() < deadline, "timed out waiting until {what}");
        std::thread::sleep(Duration::from_millis(10));
    }
}

fn write_aged(path: &PathBuf, text: &str, age_secs: u64) {
    std::fs::write(path, text).unwrap();
    let f = std::fs::File::options().write(true).open(path).unwrap();
    let base = SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000);
    f.set_modified(base - Duration::from_secs(age_secs)).unwrap();
}

fn judged(calls: &Arc<Mutex<Calls>>) -> Vec<String> {
    calls.lock().unwrap().judged.iter().map(|(n, _)| n.clone()).collect()
}

#[test]
fn a_file_written_slowly_is_judged_once_when_complete() {
    let dir = tempfile::tempdir().unwrap();
    let (judge, calls) = FakeJudge::new();
    let run = spawn(options(dir.path(), Some(1)), judge, Arc::new(AtomicBool::new(false)));
    let path = dir.path().join("sowgb_gamedb_07-10-15_08-37-30.csv");
    let mut f = std::fs::File::create(&path).unwrap();
    for chunk in GOOD.split_inclusive('\n') {
        f.write_all(chunk.as_bytes()).unwrap();
        f.flush().unwrap();
        std::thread::sleep(SETTLE / 3);
    }
    drop(f);
    let (summary, log, _) = run.finish();
    assert_eq!(summary, WatchSummary { applied: 1, ..Default::default() });
    let calls = calls.lock().unwrap();
    assert_eq!(calls.judged.len(), 1, "{:?}", calls.judged);
    assert_eq!(calls.judged[0].1, GOOD);
    assert!(!path.exists());
    assert!(dir.path().join("processed/sowgb_gamedb_07-10-15_08-37-30.csv").is_file());
    assert!(
        log.contains(&native(
            "12:00:00 sowgb_gamedb_07-10-15_08-37-30.csv T1-1.1 applied: 2 units, 0 casualties -> \
             processed/sowgb_gamedb_07-10-15_08-37-30.csv\n"
        )),
        "{log}"
    );
}

#[test]
fn a_second_copy_of_an_applied_result_is_set_aside_with_its_reason() {
    let dir = tempfile::tempdir().unwrap();
    let (judge, calls) = FakeJudge::new();
    let run = spawn(options(dir.path(), Some(2)), judge, Arc::new(AtomicBool::new(false)));
    std::fs::write(dir.path().join("sowgb_gamedb_a.csv"), GOOD).unwrap();
    wait_until("the first is processed", || dir.path().join("processed/sowgb_gamedb_a.csv").exists());
    std::fs::write(dir.path().join("sowgb_gamedb_b.csv"), GOOD).unwrap();
    let (summary, log, _) = run.finish();
    assert_eq!(summary, WatchSummary { applied: 1, set_aside: 1, ..Default::default() });
    assert_eq!(judged(&calls), ["sowgb_gamedb_a.csv"], "the copy is never judged");
    assert!(dir.path().join("rejected/sowgb_gamedb_b.csv").is_file());
    let err = std::fs::read_to_string(dir.path().join("rejected/sowgb_gamedb_b.csv.err")).unwrap();
    assert!(
        err.starts_with("already applied to battle T1-1.1 as sowgb_gamedb_a.csv; nothing to do\n"),
        "{err}"
    );
    assert!(!err.contains("export the battle again"), "a copy needs nothing done: {err}");
    assert!(
        log.contains(&native("sowgb_gamedb_b.csv T1-1.1 set aside: already applied to battle T1-1.1 as sowgb_gamedb_a.csv; nothing to do -> rejected/sowgb_gamedb_b.csv")),        "{log}"
    );
}

#[test]
fn a_garbage_file_is_rejected_with_an_err_file() {
    let dir = tempfile::tempdir().unwrap();
    let (judge, _) = FakeJudge::new();
    let run = spawn(options(dir.path(), Some(1)), judge, Arc::new(AtomicBool::new(false)));
    std::fs::write(dir.path().join("sowgb_gamedb_x.csv"), "garbage\n").unwrap();
    let (summary, log, _) = run.finish();
    assert_eq!(summary, WatchSummary { rejected: 1, ..Default::default() });
    assert!(!dir.path().join("sowgb_gamedb_x.csv").exists());
    assert_eq!(std::fs::read_to_string(dir.path().join("rejected/sowgb_gamedb_x.csv")).unwrap(), "garbage\n");
    let err = std::fs::read_to_string(dir.path().join("rejected/sowgb_gamedb_x.csv.err")).unwrap();
    assert!(err.starts_with("sowgb_gamedb_x.csv:1: not a battle result\nexpected a header\n"), "{err}");
    assert!(err.contains("sowbridge apply"), "{err}");
    assert!(
        log.contains(&native("12:00:00 sowgb_gamedb_x.csv - rejected: sowgb_gamedb_x.csv:1: not a battle result; expected a header -> rejected/sowgb_gamedb_x.csv\n")),
        "one line per action: {log}"
    );
}

#[test]
fn files_present_at_start_are_handled_oldest_first() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_aged(&d.join("sowgb_gamedb_c.csv"), "GOOD T1-0.1\nEND\n", 3000);
    write_aged(&d.join("sowgb_gamedb_b.csv"), "GOOD T1-0.2\nEND\n", 2000);
    write_aged(&d.join("sowgb_gamedb_a.csv"), "GOOD T1-0.3\nEND\n", 2000);
    let (judge, calls) = FakeJudge::new();
    let (summary, log, _) = spawn(options(d, Some(3)), judge, Arc::new(AtomicBool::new(false))).finish();
    assert_eq!(summary.applied, 3);
    assert_eq!(judged(&calls), ["sowgb_gamedb_c.csv", "sowgb_gamedb_a.csv", "sowgb_gamedb_b.csv"]);
    assert!(log.starts_with("12:00:00 - - watching "), "{log}");
    assert!(log.contains("(3 result file(s) present; settle 0.2 s; on file events)"), "{log}");
    assert!(log.ends_with("12:00:00 - - stopped: 3 applied, 0 rejected, 0 set aside, 0 waiting\n"), "{log}");
}

#[test]
fn files_that_are_not_results_are_left_alone() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for name in ["startlocs.csv", "deadbods.csv", "sowmp_log_1.log", ".sowgb_gamedb_hidden.csv"] {
        std::fs::write(d.join(name), "garbage\n").unwrap();
    }
    let (judge, calls) = FakeJudge::new();
    let run = spawn(options(d, Some(1)), judge, Arc::new(AtomicBool::new(false)));
    std::fs::write(d.join("deadbods.csv"), "changed\n").unwrap();
    std::fs::write(d.join("sowgb_gamedb_z.csv"), "IGNORE\n").unwrap();
    wait_until("the candidate was judged", || !judged(&calls).is_empty());
    std::fs::write(d.join("sowgb_gamedb_y.csv"), GOOD).unwrap();
    let (summary, log, _) = run.finish();
    assert_eq!(summary.handled(), 1);
    let mut seen = judged(&calls);
    seen.sort();
    assert_eq!(seen, ["sowgb_gamedb_y.csv", "sowgb_gamedb_z.csv"]);
    for name in
        ["startlocs.csv", "deadbods.csv", "sowmp_log_1.log", ".sowgb_gamedb_hidden.csv", "sowgb_gamedb_z.csv"]
    {
        assert!(d.join(name).is_file(), "{name} left in place");
    }
    assert!(log.contains("sowgb_gamedb_z.csv - ignored: not a battle result"), "{log}");
    assert_eq!(std::fs::read_dir(d.join("rejected")).unwrap().count(), 0);
}

#[test]
fn an_applied_file_whose_move_was_interrupted_goes_to_processed() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // The crash came after the judge recorded the result and before the rename.
    write_aged(&d.join("sowgb_gamedb_x.csv"), GOOD, 60);
    write_aged(&d.join("sowgb_gamedb_copy.csv"), GOOD, 30);
    let (mut judge, calls) = FakeJudge::new();
    let applied = ("T2-3.4".to_string(), "sowgb_gamedb_x.csv".to_string());
    judge.applied.insert(sha256_hex(GOOD.as_bytes()), applied);
    let (summary, log, _) = spawn(options(d, Some(2)), judge, Arc::new(AtomicBool::new(false))).finish();
    assert_eq!(summary, WatchSummary { set_aside: 2, ..Default::default() });
    assert!(judged(&calls).is_empty(), "an applied content is never judged again");
    assert!(d.join("processed/sowgb_gamedb_x.csv").is_file());
    assert!(!d.join("rejected/sowgb_gamedb_x.csv.err").exists());
    assert!(d.join("rejected/sowgb_gamedb_copy.csv").is_file());
    assert!(
        log.contains(&native(
            "sowgb_gamedb_x.csv T2-3.4 already applied; move finished -> processed/sowgb_gamedb_x.csv"
        )),
        "{log}"
    );
}

#[test]
fn a_copy_under_the_original_name_after_it_was_processed_is_set_aside() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::create_dir(d.join("processed")).unwrap();
    std::fs::write(d.join("processed/sowgb_gamedb_x.csv"), GOOD).unwrap();
    std::fs::write(d.join("sowgb_gamedb_x.csv"), GOOD).unwrap();
    let (mut judge, _) = FakeJudge::new();
    let applied = ("T2-3.4".to_string(), "sowgb_gamedb_x.csv".to_string());
    judge.applied.insert(sha256_hex(GOOD.as_bytes()), applied);
    let (summary, _, _) = spawn(options(d, Some(1)), judge, Arc::new(AtomicBool::new(false))).finish();
    assert_eq!(summary.set_aside, 1);
    assert!(d.join("rejected/sowgb_gamedb_x.csv").is_file());
    assert!(!d.join("processed/sowgb_gamedb_x-2.csv").exists());
}

#[test]
fn polling_finds_results_without_file_events() {
    let dir = tempfile::tempdir().unwrap();
    let (judge, calls) = FakeJudge::new();
    let opts = WatchOptions { poll: Some(Duration::from_millis(50)), ..options(dir.path(), Some(2)) };
    let run = spawn(opts, judge, Arc::new(AtomicBool::new(false)));
    std::fs::write(dir.path().join("sowgb_gamedb_p.csv"), GOOD).unwrap();
    std::fs::write(dir.path().join("sowgb_gamedb_q.csv"), "bad\n").unwrap();
    let (summary, log, _) = run.finish();
    assert_eq!(summary, WatchSummary { applied: 1, rejected: 1, ..Default::default() });
    assert_eq!(calls.lock().unwrap().judged.len(), 2);
    assert!(dir.path().join("processed/sowgb_gamedb_p.csv").is_file());
    assert!(log.contains("; polling every 0.05 s)"), "{log}");
}

#[test]
fn exit_after_stops_once_that_many_results_are_handled() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for (i, name) in ["sowgb_gamedb_1.csv", "sowgb_gamedb_2.csv", "sowgb_gamedb_3.csv"].iter().enumerate() {
        write_aged(&d.join(name), &format!("GOOD T1-{i}.0\nEND\n"), 100 - i as u64);
    }
    let (judge, calls) = FakeJudge::new();
    let (summary, _, _) = spawn(options(d, Some(2)), judge, Arc::new(AtomicBool::new(false))).finish();
    assert_eq!(summary.applied, 2);
    assert_eq!(judged(&calls), ["sowgb_gamedb_1.csv", "sowgb_gamedb_2.csv"]);
    assert!(d.join("sowgb_gamedb_3.csv").is_file(), "the third stays in the inbox");
}

#[test]
fn the_stop_flag_stops_between_files_never_in_the_middle_of_one() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    write_aged(&d.join("sowgb_gamedb_1.csv"), "GOOD T1-1.0\nEND\n", 20);
    write_aged(&d.join("sowgb_gamedb_2.csv"), "GOOD T1-2.0\nEND\n", 10);
    let stop = Arc::new(AtomicBool::new(false));
    let (mut judge, calls) = FakeJudge::new();
    // Ctrl-C arrives while the first file is being judged.
    judge.stop_when_judging = Some(Arc::clone(&stop));
    let (summary, _, _) = spawn(options(d, None), judge, stop).finish();
    assert_eq!(summary.applied, 1);
    assert_eq!(judged(&calls), ["sowgb_gamedb_1.csv"]);
    assert!(d.join("processed/sowgb_gamedb_1.csv").is_file(), "the file in hand is finished");
    assert!(d.join("sowgb_gamedb_2.csv").is_file(), "the next is left for the next run");
}

#[test]
fn a_waiting_file_is_reported_once_and_stays() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (judge, calls) = FakeJudge::new();
    let run = spawn(options(d, Some(1)), judge, Arc::new(AtomicBool::new(false)));
    std::fs::write(d.join("sowgb_gamedb_w.csv"), "WAIT\n").unwrap();
    wait_until("it was judged", || !judged(&calls).is_empty());
    std::thread::sleep(SETTLE * 3);
    std::fs::write(d.join("sowgb_gamedb_g.csv"), GOOD).unwrap();
    let (summary, log, _) = run.finish();
    assert_eq!(summary, WatchSummary { applied: 1, waiting: 1, ..Default::default() });
    assert_eq!(judged(&calls), ["sowgb_gamedb_w.csv", "sowgb_gamedb_g.csv"], "not judged again unchanged");
    assert_eq!(log.matches("waiting: not final: no final startlocs.csv").count(), 1, "{log}");
    assert!(d.join("sowgb_gamedb_w.csv").is_file());
}

#[test]
fn a_changed_waiting_file_is_judged_again() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (judge, calls) = FakeJudge::new();
    let run = spawn(options(d, Some(1)), judge, Arc::new(AtomicBool::new(false)));
    std::fs::write(d.join("sowgb_gamedb_w.csv"), "WAIT\n").unwrap();
    wait_until("it was judged", || !judged(&calls).is_empty());
    std::fs::write(d.join("sowgb_gamedb_w.csv"), GOOD).unwrap();
    let (summary, _, _) = run.finish();
    assert_eq!(summary, WatchSummary { applied: 1, ..Default::default() });
    assert!(d.join("processed/sowgb_gamedb_w.csv").is_file());
}

#[test]
fn a_missing_inbox_stops_at_start_with_advice() {
    let dir = tempfile::tempdir().unwrap();
    let (mut judge, _) = FakeJudge::new();
    let mut log = Vec::new();
    let opts = options(&dir.path().join("Work"), None);
    let err = run_watch(&opts, &mut judge, &AtomicBool::new(false), &mut log, &SteadyClock).unwrap_err();
    assert!(err.to_string().contains("no inbox folder here; create it"), "{err}");
    assert!(err.to_string().contains("--inbox"), "{err}");
}

/// An expected log text with the `/` of its inbox folders as the platform writes them.
fn native(text: &str) -> String {
    text.replace("processed/", &format!("processed{}", std::path::MAIN_SEPARATOR))
        .replace("rejected/", &format!("rejected{}", std::path::MAIN_SEPARATOR))
}
