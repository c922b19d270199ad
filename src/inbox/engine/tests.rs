//! Tests of the watcher's loop.

use super::*;
use crate::inbox::Judgement;
use crate::inbox::clock::SteadyClock;

/// A judge that applies every file.
#[derive(Debug, Default)]
struct ApplyAll(Vec<String>);

impl Judge for ApplyAll {
    fn is_candidate(&self, name: &str) -> bool {
        name.ends_with(".result.csv")
    }
    fn applied_hash(&mut self, _: &str) -> Option<(String, String)> {
        None
    }
    fn judge(&mut self, path: &std::path::Path) -> Judgement {
        self.0.push(path.display().to_string());
        Judgement::Applied { battle: "T3-4.5".to_string(), summary: "ok".to_string(), companions: Vec::new() }
    }
}

#[test]
fn a_file_whose_events_were_all_missed_is_found_by_the_rescan() {
    let dir = tempfile::tempdir().expect("tempdir");
    let opts = WatchOptions {
        settle: Duration::from_millis(100),
        exit_after: Some(1),
        ..WatchOptions::new(dir.path())
    };
    let mut judge = ApplyAll::default();
    let mut log = Vec::new();
    let mut engine = Engine::start(&opts, &mut judge, &mut log, &SteadyClock).expect("start");
    engine.hints = Hints::silent();
    std::fs::write(dir.path().join("T3-4.5.result.csv"), "x").expect("write");
    let stop = AtomicBool::new(false);
    let deadline = Instant::now() + Duration::from_secs(5);
    while engine.summary.applied == 0 {
        assert!(Instant::now() < deadline, "the file was never found");
        engine.pass(&stop);
        std::thread::sleep(engine.tick);
    }
    assert!(dir.path().join("processed/T3-4.5.result.csv").is_file());
}
