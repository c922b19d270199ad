//! A settled file handed to the judge, and what is done with it for each judgement: moved,
//! set aside, parked to be judged again, or failed.

use std::time::Instant;

use super::{Engine, Parked};
use crate::inbox::folder::{INTERIM, Look, PROCESSED, REJECTED, holds_content, look, moved_to, sha256_hex};
use crate::inbox::settle::Signature;
use crate::inbox::{Judgement, WAIT_RETRY};
use crate::store::replace::{is_held_open, probe};

/// Where a file that is no result to apply is put.
#[derive(Debug, Clone, Copy)]
enum Aside {
    /// `interim/`: a dump written during its battle.
    Interim,
    /// `rejected/`: a copy already applied, or a file that belongs to nothing.
    NothingToDo,
}

impl Engine<'_> {
    /// Takes one file: a last look, the hash, then set aside or judged.
    pub(super) fn handle(&mut self, name: &str) {
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
}
