//! The watcher's loop: hints and re-scans feed the settle tracker; stable files (and files
//! whose content is already applied) are handed to the judge one at a time; each outcome is
//! one rename and one log line. Everything kept in memory here is a cache of what is on disk
//! (the inbox) or in the judge: dropping it loses nothing but time.

use std::collections::{BTreeMap, BTreeSet};
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};

use super::folder::{
    INTERIM, Inbox, Look, PROCESSED, REJECTED, holds_content, is_hidden_or_temp, list, look, moved_to,
    sha256_hex,
};
use super::hints::Hints;
use super::settle::{Observed, Settle, Signature};
use super::{Clock, Judge, Judgement, WAIT_RETRY, WatchOptions, WatchSummary};
use crate::error::Result;
use crate::store::replace::{is_held_open, probe};

/// Where a file that is no result to apply is put.
#[derive(Debug, Clone, Copy)]
enum Aside {
    /// `interim/`: a dump written during its battle.
    Interim,
    /// `rejected/`: a copy already applied, or a file that belongs to nothing.
    NothingToDo,
}

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

    /// True for a parked file whose retry time has not come (its changes are seen by
    /// [`Engine::observe`], which unparks it).
    fn resting(&self, name: &str, now: Instant) -> bool {
        self.parked.get(name).is_some_and(|p| p.retry_at.is_none_or(|t| now < t))
    }

    /// Looks at every file of the inbox; forgets those that vanished.
    fn rescan(&mut self) {
        let present = match list(&self.inbox.dir) {
            Ok(p) => p,
            Err(e) => {
                self.say_once("-", "-", &format!("error: cannot list the inbox: {e}"));
                return;
            }
        };
        let names: BTreeSet<&str> = present.iter().map(|(n, _)| n.as_str()).collect();
        for gone in self.settle.names().into_iter().filter(|n| !names.contains(n.as_str())) {
            self.forget(&gone);
        }
        for (name, sig) in &present {
            if self.judge.is_candidate(name) {
                self.observe(name, *sig);
            } else {
                self.ignored_by_name(name);
            }
        }
    }

    /// Says once of a CSV file that its name is not one the watcher takes, and which are: a
    /// result saved under another name would otherwise wait unseen.
    fn ignored_by_name(&mut self, name: &str) {
        if is_hidden_or_temp(name) || !name.to_ascii_lowercase().ends_with(".csv") {
            return;
        }
        let text =
            format!("ignored: not a result file name (the watcher takes {})", self.judge.names_taken());
        self.say_once(name, "-", &text);
    }

    /// Follows a hint about `name`.
    fn look_at(&mut self, name: &str) {
        if is_hidden_or_temp(name) {
            return;
        }
        if !self.judge.is_candidate(name) {
            return self.ignored_by_name(name);
        }
        match look(&self.inbox.path(name)) {
            Ok(Look::File(sig)) => self.observe(name, sig),
            Ok(Look::Gone) => self.forget(name),
            // Perhaps locked while being written; the next look will tell.
            Err(_) => {}
        }
    }

    /// Records a look at a candidate. A new or changed file is unparked, and its hash is
    /// checked at once: a copy of an applied result need not wait to settle.
    fn observe(&mut self, name: &str, sig: Signature) {
        if self.settle.observe(name, sig, self.clock.now()) == Observed::Same {
            return;
        }
        // It grew or changed: whoever writes it is still at work, so its time without a line
        // ending starts again.
        self.incomplete_since.remove(name);
        if self.parked.get(name).is_some_and(|p| p.sig != sig) {
            self.parked.remove(name);
        }
        if self.parked.contains_key(name) {
            return;
        }
        // A file being written may not be readable yet; it is read again once it settles.
        if let Ok(bytes) = std::fs::read(self.inbox.path(name)) {
            let hash = sha256_hex(&bytes);
            if self.judge.applied_hash(&hash).is_some() {
                self.known.insert(name.to_string());
            }
            self.hashes.insert(name.to_string(), (sig, hash));
        }
    }

    /// Drops everything known of `name` (it vanished, or it has left the inbox).
    fn forget(&mut self, name: &str) {
        self.settle.forget(name);
        self.parked.remove(name);
        self.hashes.remove(name);
        self.known.remove(name);
        self.said.remove(name);
        self.incomplete_since.remove(name);
        self.resolve_startup(name);
    }

    /// Counts a file present at start as worked through.
    fn resolve_startup(&mut self, name: &str) {
        if self.startup.remove(name) {
            if let Some(bar) = &self.bar {
                bar.inc(1);
            }
            if self.startup.is_empty()
                && let Some(bar) = self.bar.take()
            {
                bar.finish_and_clear();
            }
        }
    }

    /// Takes one file: a last look, the hash, then set aside or judged.
    fn handle(&mut self, name: &str) {
        let path = self.inbox.path(name);
        let sig = match look(&path) {
            Ok(Look::File(sig)) => sig,
            Ok(Look::Gone) => return self.forget(name),
            Err(e) => return self.fail(name, "-", &format!("cannot look at it: {e}")),
        };
        self.observe(name, sig);
        let now = self.clock.now();
        let stable = self.settle.is_stable(name, now);
        if !stable && !self.known.contains(name) {
            return;
        }
        let bytes = match std::fs::read(&path) {
            Ok(b) => b,
            Err(_) if !stable => return,
            Err(e) if is_held_open(&e) => return self.still_being_written(name, now),
            Err(e) => return self.fail(name, "-", &format!("cannot read it: {e}")),
        };
        let hash = sha256_hex(&bytes);
        if self.hashes.get(name).is_some_and(|(s, h)| *s == sig && *h != hash) {
            // New content under the same size and time: wait for it to settle again.
            self.settle.restart(name, now);
            self.known.remove(name);
            self.hashes.insert(name.to_string(), (sig, hash));
            return;
        }
        self.hashes.insert(name.to_string(), (sig, hash.clone()));
        if let Some((battle, applied_as)) = self.judge.applied_hash(&hash) {
            return self.set_aside(name, &battle, &applied_as, &hash);
        }
        self.known.remove(name);
        if !stable {
            return;
        }
        // The game holds the dump while it writes it (and a while after): it could be read,
        // but not moved to processed/ once applied.
        if probe(&path).is_err_and(|e| is_held_open(&e)) {
            return self.still_being_written(name, now);
        }
        let companion = self.judge.is_companion(name);
        match self.judge.judge(&path) {
            Judgement::Applied { battle, summary, companions } => {
                self.summary.applied += 1;
                match self.inbox.move_to_processed(name) {
                    Ok(to) => {
                        self.say(
                            name,
                            &battle,
                            &format!("applied: {summary} -> {}", moved_to(PROCESSED, &to)),
                        );
                        self.forget(name);
                        for (other, hash) in companions {
                            self.move_companion(&other, &hash, &to, &battle);
                        }
                    }
                    Err(e) => self.fail(
                        name,
                        &battle,
                        &format!("applied ({summary}), but cannot move it to processed/: {e}"),
                    ),
                }
            }
            Judgement::AlreadyApplied { battle, applied_as } => {
                self.set_aside(name, &battle, &applied_as, &hash)
            }
            Judgement::Rejected { reason } => match self.inbox.move_to_rejected(name, &reason) {
                Ok(to) => {
                    self.summary.rejected += 1;
                    self.say(name, "-", &format!("rejected: {reason} -> {}", moved_to(REJECTED, &to)));
                    self.forget(name);
                }
                Err(e) => self.fail(name, "-", &format!("rejected ({reason}), but cannot move it: {e}")),
            },
            Judgement::Interim { battle, reason } => {
                let note = format!(
                    "{reason}\n\nsowbridge watch set {name} aside as an interim dump of battle {battle}: \
                     written during the battle, not at its end. Only the battle's final dump is applied. \
                     If the battle crashed before its end and this is the best record of it, apply it \
                     deliberately: sowbridge apply --interim \"{}\"\n",
                    self.inbox.interim.join(name).display()
                );
                self.put_aside(name, &battle, Aside::Interim, &reason, &note);
            }
            Judgement::Stray { reason } => {
                let note = format!(
                    "{reason}\n\nsowbridge watch set {name} aside so that it cannot be taken for the \
                     final record of a later battle. Nothing to do with it.\n"
                );
                self.put_aside(name, "-", Aside::NothingToDo, &reason, &note);
            }
            Judgement::Wait { reason } => {
                let retry_at = Some(self.clock.now() + WAIT_RETRY);
                self.parked.insert(name.to_string(), Parked { sig, retry_at, waiting: true });
                self.say_once(name, "-", &format!("waiting: {reason}"));
                self.resolve_startup(name);
            }
            Judgement::Incomplete { reason } => self.incomplete(name, sig, &reason),
            Judgement::Ignore => {
                self.parked.insert(name.to_string(), Parked { sig, retry_at: None, waiting: false });
                self.say_once(name, "-", "ignored: not a battle result");
                self.resolve_startup(name);
            }
        }
        if companion {
            self.wake_waiting(name);
        }
    }

    /// A file still being written: it waits, unless it has stayed so for the incomplete limit,
    /// when it is set aside with its reason.
    fn incomplete(&mut self, name: &str, sig: Signature, reason: &str) {
        let now = self.clock.now();
        let since = *self.incomplete_since.entry(name.to_string()).or_insert(now);
        let waited = now.saturating_duration_since(since);
        let limit = self.opts.incomplete_limit;
        if waited >= limit {
            let why = format!(
                "{reason}, and it has not changed for {} s: the game (or a copy) stopped writing it mid-line",
                waited.as_secs()
            );
            match self.inbox.move_to_rejected(name, &why) {
                Ok(to) => {
                    self.summary.rejected += 1;
                    self.say(name, "-", &format!("rejected: {why} -> {}", moved_to(REJECTED, &to)));
                    self.forget(name);
                }
                Err(e) => self.fail(name, "-", &format!("{why}, but cannot move it: {e}")),
            }
            return;
        }
        let retry_at = Some(now + WAIT_RETRY.min(limit - waited));
        self.parked.insert(name.to_string(), Parked { sig, retry_at, waiting: true });
        self.say_once(name, "-", &format!("waiting: {reason}"));
        self.resolve_startup(name);
    }

    /// Moves a file into `interim/` or `rejected/` with its note; logs what it was and why.
    fn put_aside(&mut self, name: &str, battle: &str, aside: Aside, reason: &str, note: &str) {
        let (sub, folder, what) = match aside {
            Aside::Interim => (self.inbox.interim.clone(), INTERIM, "interim"),
            Aside::NothingToDo => (self.inbox.rejected.clone(), REJECTED, "set aside"),
        };
        match self.inbox.set_aside(&sub, name, note) {
            Ok(to) => {
                self.summary.set_aside += 1;
                self.say(name, battle, &format!("{what}: {reason} -> {}", moved_to(folder, &to)));
                self.forget(name);
            }
            Err(e) => self.fail(name, battle, &format!("{what} ({reason}), but cannot move it: {e}")),
        }
    }

    /// Moves a file read with an applied result into `processed/` beside it, if it still holds
    /// the bytes that were read.
    fn move_companion(&mut self, other: &str, hash: &str, result_as: &str, battle: &str) {
        let path = self.inbox.path(other);
        if !std::fs::read(&path).is_ok_and(|b| sha256_hex(&b) == hash) {
            return;
        }
        match self.inbox.move_to_processed_as(other, &format!("{result_as}.{other}")) {
            Ok(to) => {
                self.say(
                    other,
                    battle,
                    &format!("read with {} -> {}", moved_to(PROCESSED, result_as), moved_to(PROCESSED, &to)),
                );
                self.forget(other);
            }
            Err(e) => self.fail(other, battle, &format!("cannot move it to processed/: {e}")),
        }
    }

    /// Every waiting file is judged again at once (a companion file has come or changed).
    fn wake_waiting(&mut self, except: &str) {
        self.parked.retain(|n, p| n == except || !p.waiting);
    }

    /// A file another program (the game) holds open: still being written, so it waits for
    /// a fresh settle window and is looked at again.
    fn still_being_written(&mut self, name: &str, now: Instant) {
        self.settle.restart(name, now);
        self.say_once(name, "-", "waiting: still being written (another program holds it open)");
    }

    /// A file whose content was applied before. Under its own name and not yet in
    /// `processed/`, it is the original whose move was interrupted: it goes there now. Any
    /// other is a copy, set aside in `rejected/`.
    fn set_aside(&mut self, name: &str, battle: &str, applied_as: &str, hash: &str) {
        if name == applied_as && !holds_content(&self.inbox.processed, name, hash) {
            match self.inbox.move_to_processed(name) {
                Ok(to) => {
                    self.summary.set_aside += 1;
                    let line = format!("already applied; move finished -> {}", moved_to(PROCESSED, &to));
                    self.say(name, battle, &line);
                    self.forget(name);
                }
                Err(e) => self.fail(name, battle, &format!("cannot move it to processed/: {e}")),
            }
            return;
        }
        let reason = format!("already applied to battle {battle} as {applied_as}; nothing to do");
        let note = format!(
            "{reason}\n\nThis file holds the same bytes as the result applied to battle {battle}: \
             nothing to do. sowbridge watch keeps the copy here only so that nothing is lost; \
             delete it when you like.\n"
        );
        self.put_aside(name, battle, Aside::NothingToDo, &reason, &note);
    }

    /// A problem with one file: logged once, the file tried again after [`WAIT_RETRY`].
    fn fail(&mut self, name: &str, battle: &str, message: &str) {
        match self.settle.signature(name) {
            Some(sig) => {
                let retry_at = Some(self.clock.now() + WAIT_RETRY);
                self.parked.insert(name.to_string(), Parked { sig, retry_at, waiting: false });
            }
            None => self.forget(name),
        }
        self.say_once(name, battle, &format!("error: {message}"));
        self.resolve_startup(name);
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

#[cfg(test)]
mod tests {
    use super::*;
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
            Judgement::Applied {
                battle: "T3-4.5".to_string(),
                summary: "ok".to_string(),
                companions: Vec::new(),
            }
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
}
