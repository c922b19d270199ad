//! What the engine sees of the inbox: files found by hints and re-scans, their signatures
//! observed until they settle, and files gone.

use std::collections::BTreeSet;
use std::time::Instant;

use super::Engine;
use crate::inbox::folder::{Look, is_hidden_or_temp, list, look, sha256_hex};
use crate::inbox::settle::{Observed, Signature};

impl Engine<'_> {
    /// True for a parked file whose retry time has not come (its changes are seen by
    /// [`Engine::observe`], which unparks it).
    pub(super) fn resting(&self, name: &str, now: Instant) -> bool {
        self.parked.get(name).is_some_and(|p| p.retry_at.is_none_or(|t| now < t))
    }

    /// Looks at every file of the inbox; forgets those that vanished.
    pub(super) fn rescan(&mut self) {
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
    pub(super) fn ignored_by_name(&mut self, name: &str) {
        if is_hidden_or_temp(name) || !name.to_ascii_lowercase().ends_with(".csv") {
            return;
        }
        let text =
            format!("ignored: not a result file name (the watcher takes {})", self.judge.names_taken());
        self.say_once(name, "-", &text);
    }

    /// Follows a hint about `name`.
    pub(super) fn look_at(&mut self, name: &str) {
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
    pub(super) fn observe(&mut self, name: &str, sig: Signature) {
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
    pub(super) fn forget(&mut self, name: &str) {
        self.settle.forget(name);
        self.parked.remove(name);
        self.hashes.remove(name);
        self.known.remove(name);
        self.said.remove(name);
        self.incomplete_since.remove(name);
        self.resolve_startup(name);
    }

    /// Counts a file present at start as worked through.
    pub(super) fn resolve_startup(&mut self, name: &str) {
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
}
