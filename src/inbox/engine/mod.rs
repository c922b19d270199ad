//! The watcher's loop: hints and re-scans feed the settle tracker; stable files (and files
//! whose content is already applied) are handed to the judge one at a time; each outcome is
//! one rename and one log line. Everything kept in memory here is a cache of what is on disk
//! (the inbox) or in the judge: dropping it loses nothing but time.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use super::folder::{Inbox, list};
use super::hints::Hints;
use super::settle::{Settle, Signature};
use super::{Clock, Judge, WatchOptions, WatchSummary};
use crate::error::Result;

mod handle;
mod scan;
#[cfg(test)]
mod tests;

/// A file judged and left in place: waiting, failed, or ignored.
#[derive(Debug, Clone, Copy)]
struct Parked {
    /// The signature it had when judged; any other signature means it changed.
    sig: Signature,
    /// When to judge it again though unchanged (`None`: only when it changes).
    retry_at: Option<Instant>,
    /// True for a [`Judgement::Wait`] (counted in the summary).
    waiting: bool,
}

/// One run of the watcher.
pub(super) struct Engine<'a> {
    opts: &'a WatchOptions,
    inbox: Inbox,
    judge: &'a mut dyn Judge,
    log: &'a mut dyn Write,
    clock: &'a dyn Clock,
    hints: Hints,
    settle: Settle,
    /// Files judged and left in place.
    parked: BTreeMap<String, Parked>,
    /// The last content hash taken of each file, with the signature it had then.
    hashes: BTreeMap<String, (Signature, String)>,
    /// Files whose content the judge says is already applied: set aside without settling.
    known: BTreeSet<String>,
    /// What was last said of each file, so that a reason is logged once.
    said: BTreeMap<String, String>,
    /// Since when each file still being written has been seen so, unchanged.
    incomplete_since: BTreeMap<String, Instant>,
    /// Files present at start and not yet handled.
    startup: BTreeSet<String>,
    bar: Option<ProgressBar>,
    summary: WatchSummary,
    next_rescan: Instant,
    tick: Duration,
}

/// A reason on one line (the `.err` keeps the full text).
fn one_line(text: &str) -> String {
    text.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("; ")
}

impl<'a> Engine<'a> {
    /// Opens the inbox, starts the file watcher and looks at the files already there.
    pub(super) fn start(
        opts: &'a WatchOptions,
        judge: &'a mut dyn Judge,
        log: &'a mut dyn Write,
        clock: &'a dyn Clock,
    ) -> Result<Engine<'a>> {
        let inbox = Inbox::open(&opts.inbox)?;
        // Short ticks: a settled file is taken within ~50 ms of its window closing.
        let quarter = (opts.settle / 40).clamp(Duration::from_millis(10), Duration::from_millis(50));
        // The watcher starts before the first scan, so that nothing written meanwhile is missed.
        let hints = Hints::start(&inbox.dir, opts.poll, quarter)?;
        let present = list(&inbox.dir)?;
        let now = clock.now();
        let mut engine = Engine {
            opts,
            inbox,
            judge,
            log,
            clock,
            hints,
            settle: Settle::new(opts.settle),
            parked: BTreeMap::new(),
            hashes: BTreeMap::new(),
            known: BTreeSet::new(),
            said: BTreeMap::new(),
            incomplete_since: BTreeMap::new(),
            startup: BTreeSet::new(),
            bar: None,
            summary: WatchSummary::default(),
            next_rescan: now + opts.settle,
            tick: quarter,
        };
        for (name, sig) in present {
            if engine.judge.is_candidate(&name) {
                engine.startup.insert(name.clone());
                engine.observe(&name, sig);
            } else {
                engine.ignored_by_name(&name);
            }
        }
        let how = match opts.poll {
            Some(every) => format!("polling every {} s", every.as_secs_f64()),
            None => "on file events".to_string(),
        };
        let line = format!(
            "watching {} ({} result file(s) present; settle {} s; {how})",
            engine.inbox.dir.display(),
            engine.startup.len(),
            opts.settle.as_secs_f64()
        );
        engine.say("-", "-", &line);
        if opts.progress && !engine.startup.is_empty() {
            let bar = ProgressBar::new(engine.startup.len() as u64);
            if let Ok(style) =
                ProgressStyle::with_template("{msg} {wide_bar} {pos}/{len} files present at start")
            {
                bar.set_style(style);
            }
            bar.set_message("inbox:");
            engine.bar = Some(bar);
        }
        Ok(engine)
    }

    /// Runs until `stop` is set or the limit of results is reached.
    pub(super) fn run(mut self, stop: &AtomicBool) -> Result<WatchSummary> {
        while !self.should_stop(stop) {
            self.pass(stop);
            if self.should_stop(stop) {
                break;
            }
            self.clock.sleep(self.tick);
        }
        if let Some(bar) = self.bar.take() {
            bar.finish_and_clear();
        }
        self.summary.waiting = self.parked.values().filter(|p| p.waiting).count();
        let s = self.summary;
        let line = format!(
            "stopped: {} applied, {} rejected, {} set aside, {} waiting",
            s.applied, s.rejected, s.set_aside, s.waiting
        );
        self.say("-", "-", &line);
        Ok(s)
    }

    fn should_stop(&self, stop: &AtomicBool) -> bool {
        stop.load(Ordering::SeqCst) || self.opts.exit_after.is_some_and(|n| self.summary.handled() >= n)
    }

    /// One look at the inbox, then every file that is ready, one at a time.
    fn pass(&mut self, stop: &AtomicBool) {
        let (names, troubles) = self.hints.drain();
        for t in troubles {
            self.say_once("-", "-", &format!("file watcher: {t} (re-scans go on)"));
        }
        for name in names {
            self.look_at(&name);
        }
        if self.clock.now() >= self.next_rescan {
            self.rescan();
            self.next_rescan = self.clock.now() + self.opts.settle;
        }
        let now = self.clock.now();
        let mut ready: Vec<String> = self.settle.due(now);
        ready.extend(self.known.iter().cloned());
        ready.sort();
        ready.dedup();
        ready.retain(|n| !self.resting(n, now));
        ready.sort_by_cached_key(|n| {
            (!self.startup.contains(n), self.settle.signature(n).and_then(|s| s.modified), n.clone())
        });
        for name in ready {
            if self.should_stop(stop) {
                return;
            }
            self.handle(&name);
        }
    }

    /// Logs a line unless the same was last said of this file.
    fn say_once(&mut self, name: &str, battle: &str, text: &str) {
        if self.said.get(name).is_some_and(|s| s == text) {
            return;
        }
        self.said.insert(name.to_string(), text.to_string());
        self.say(name, battle, text);
    }

    /// One log line: `HH:MM:SS <file> <battle or -> <outcome>`.
    fn say(&mut self, name: &str, battle: &str, text: &str) {
        let line = format!("{} {name} {battle} {}", self.clock.time_of_day(), one_line(text));
        let log = &mut *self.log;
        // A log that cannot be written must not stop the watcher.
        let mut write = || {
            let _ = writeln!(log, "{line}");
            let _ = log.flush();
        };
        match &self.bar {
            Some(bar) => bar.suspend(write),
            None => write(),
        }
    }
}
