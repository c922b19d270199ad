//! When is a file finished? SoW writes a dump in one go, a copy over a network share arrives in
//! pieces, and file events can be late, doubled or lost. So a file is taken only when its size
//! and modification time have stayed the same for a whole settle window; any change starts the
//! window again, and a file that vanishes is forgotten. Pure: the caller brings the
//! observations and the instants, so the tests drive it with a fake clock.

use std::collections::BTreeMap;
use std::time::{Duration, Instant, SystemTime};

/// What the watcher can see of a file without reading it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord)]
pub struct Signature {
    /// Size in bytes.
    pub len: u64,
    /// Last modification time, where the file system gives one.
    pub modified: Option<SystemTime>,
}

impl Signature {
    /// The signature of a file's metadata.
    pub fn of(meta: &std::fs::Metadata) -> Self {
        Signature { len: meta.len(), modified: meta.modified().ok() }
    }
}

/// One file being watched: what it looked like, and since when it has looked like that.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct Seen {
    sig: Signature,
    since: Instant,
}

/// The files of the inbox that are waiting to become stable.
#[derive(Debug, Clone)]
pub struct Settle {
    window: Duration,
    files: BTreeMap<String, Seen>,
}

/// What an observation changed.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Observed {
    /// A file not watched before; its window starts now.
    New,
    /// Size or modification time differ from the last look; the window starts again.
    Changed,
    /// As before; the window runs on.
    Same,
}

impl Settle {
    /// A tracker whose files must stay unchanged for `window`.
    pub fn new(window: Duration) -> Self {
        Settle { window, files: BTreeMap::new() }
    }

    /// The settle window.
    pub fn window(&self) -> Duration {
        self.window
    }

    /// Records a look at file `name` at `now`. A different signature restarts its window.
    pub fn observe(&mut self, name: &str, sig: Signature, now: Instant) -> Observed {
        match self.files.get_mut(name) {
            None => {
                self.files.insert(name.to_string(), Seen { sig, since: now });
                Observed::New
            }
            Some(seen) if seen.sig != sig => {
                *seen = Seen { sig, since: now };
                Observed::Changed
            }
            Some(_) => Observed::Same,
        }
    }

    /// Starts the window of `name` again without a new signature (its content was seen to
    /// change while size and time stayed the same, as on file systems with coarse times).
    pub fn restart(&mut self, name: &str, now: Instant) {
        if let Some(seen) = self.files.get_mut(name) {
            seen.since = now;
        }
    }

    /// Forgets a file (it vanished, or it has been handled).
    pub fn forget(&mut self, name: &str) {
        self.files.remove(name);
    }

    /// True when `name` is watched.
    pub fn contains(&self, name: &str) -> bool {
        self.files.contains_key(name)
    }

    /// The last signature seen of `name`.
    pub fn signature(&self, name: &str) -> Option<Signature> {
        self.files.get(name).map(|s| s.sig)
    }

    /// The names of every watched file.
    pub fn names(&self) -> Vec<String> {
        self.files.keys().cloned().collect()
    }

    /// Files whose window has run out at `now` if nothing changed since the last look. The
    /// caller looks at each once more ([`Settle::observe`]) and takes it only if it is then
    /// [`Settle::is_stable`]: a change that no event reported is caught at that last look.
    pub fn due(&self, now: Instant) -> Vec<String> {
        self.files
            .iter()
            .filter(|(_, s)| now.saturating_duration_since(s.since) >= self.window)
            .map(|(n, _)| n.clone())
            .collect()
    }

    /// True when `name` has kept its signature for the whole window at `now`.
    pub fn is_stable(&self, name: &str, now: Instant) -> bool {
        self.files.get(name).is_some_and(|s| now.saturating_duration_since(s.since) >= self.window)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::inbox::Clock;
    use crate::inbox::clock::FakeClock;

    const WINDOW: Duration = Duration::from_secs(2);

    fn sig(len: u64, secs: u64) -> Signature {
        Signature { len, modified: Some(SystemTime::UNIX_EPOCH + Duration::from_secs(1_700_000_000 + secs)) }
    }

    #[test]
    fn a_growing_file_is_never_taken() {
        let clock = FakeClock::new();
        let mut settle = Settle::new(WINDOW);
        for step in 0..10u64 {
            settle.observe("sowgb_gamedb_a.csv", sig(1000 * (step + 1), step), clock.now());
            assert!(!settle.is_stable("sowgb_gamedb_a.csv", clock.now()), "taken at step {step}");
            clock.sleep(Duration::from_millis(500));
        }
        assert!(settle.due(clock.now()).is_empty());
    }

    #[test]
    fn a_file_is_taken_once_the_window_has_passed_unchanged() {
        let clock = FakeClock::new();
        let mut settle = Settle::new(WINDOW);
        assert_eq!(settle.observe("a.csv", sig(10, 0), clock.now()), Observed::New);
        clock.sleep(Duration::from_millis(1999));
        assert_eq!(settle.observe("a.csv", sig(10, 0), clock.now()), Observed::Same);
        assert!(!settle.is_stable("a.csv", clock.now()));
        assert!(settle.due(clock.now()).is_empty());
        clock.sleep(Duration::from_millis(1));
        assert_eq!(settle.due(clock.now()), vec!["a.csv".to_string()]);
        assert!(settle.is_stable("a.csv", clock.now()));
    }

    #[test]
    fn any_change_restarts_the_window() {
        let clock = FakeClock::new();
        let mut settle = Settle::new(WINDOW);
        settle.observe("a.csv", sig(10, 0), clock.now());
        clock.sleep(Duration::from_millis(1500));
        // Same size, newer time: still a change.
        assert_eq!(settle.observe("a.csv", sig(10, 1), clock.now()), Observed::Changed);
        clock.sleep(Duration::from_millis(1500));
        assert!(!settle.is_stable("a.csv", clock.now()), "3 s after the first look, 1.5 s after the change");
        clock.sleep(Duration::from_millis(500));
        assert!(settle.is_stable("a.csv", clock.now()));
        // A change seen only in the content restarts it as well.
        settle.restart("a.csv", clock.now());
        assert!(!settle.is_stable("a.csv", clock.now()));
    }

    #[test]
    fn a_vanished_file_is_forgotten() {
        let clock = FakeClock::new();
        let mut settle = Settle::new(WINDOW);
        settle.observe("a.csv", sig(10, 0), clock.now());
        settle.observe("b.csv", sig(20, 0), clock.now());
        settle.forget("a.csv");
        clock.sleep(WINDOW);
        assert_eq!(settle.due(clock.now()), vec!["b.csv".to_string()]);
        assert!(!settle.contains("a.csv"));
        assert!(!settle.is_stable("a.csv", clock.now()));
        // Back again, it starts from scratch.
        assert_eq!(settle.observe("a.csv", sig(10, 0), clock.now()), Observed::New);
        assert!(!settle.is_stable("a.csv", clock.now()));
    }
}
