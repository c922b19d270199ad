//! A change to the campaign's state, journalled. Every writing command opens a
//! [`StateTxn`] under the lock: it finishes any interrupted commit, reads the state files,
//! and records as a "manual edit" any difference between them and the journal's last state
//! (the umpire edits the files by hand between battles). The command then hands over the
//! new files and its own entry; both go into the journal in one all-or-nothing commit.

use std::collections::BTreeMap;

use crate::error::Result;

use super::journal::{
    BASELINE_DIR, Entry, EntryKind, Journal, STATE_FILES, StateFiles, diff_file, entry_line, state_hashes,
};
use super::{CampaignDir, CampaignLock, Commit};

/// Path of the journal.
pub const JOURNAL: &str = super::commit::JOURNAL;

impl CampaignDir {
    /// The state files as they are now.
    pub fn read_state(&self) -> Result<StateFiles> {
        let mut m = BTreeMap::new();
        for f in STATE_FILES {
            m.insert(f.to_string(), self.read(f)?);
        }
        Ok(m)
    }

    /// The journal (empty when there is none yet).
    pub fn read_journal(&self) -> Result<Journal> {
        match self.read(JOURNAL)? {
            Some(b) => Journal::parse(&b),
            None => Ok(Journal::default()),
        }
    }

    /// The baseline copies (the state when the journal began).
    pub fn read_baseline(&self) -> Result<StateFiles> {
        let mut m = BTreeMap::new();
        for f in STATE_FILES {
            m.insert(f.to_string(), self.read(&format!("{BASELINE_DIR}/{f}"))?);
        }
        Ok(m)
    }

    /// Opens a journalled change: recovers an interrupted commit, then records manual edits.
    pub fn begin<'a>(&'a self, lock: &'a CampaignLock) -> Result<StateTxn<'a>> {
        self.recover(lock)?;
        let current = self.read_state()?;
        let journal = self.read_journal()?;
        let mut txn = StateTxn { dir: self, lock, current, journal, baseline_new: false, manual: None };
        if txn.journal.entries.is_empty() {
            txn.baseline_new = true;
            return Ok(txn);
        }
        let hashes = state_hashes(&txn.current);
        if txn.journal.last_state() != Some(&hashes) {
            let before = txn.journal.replay(&self.read_baseline()?, None)?;
            let changes: Vec<_> = STATE_FILES
                .iter()
                .filter_map(|f| {
                    diff_file(
                        f,
                        before.get(*f).cloned().flatten().as_deref(),
                        txn.current.get(*f).cloned().flatten().as_deref(),
                    )
                })
                .collect();
            let files: Vec<&str> = changes.iter().map(|c| c.file()).collect();
            txn.manual = Some(Entry {
                seq: txn.journal.next_seq(),
                kind: EntryKind::ManualEdit,
                battle: None,
                turn: 0,
                summary: format!("manual edit of {}", files.join(", ")),
                changes,
                state: hashes,
                dice: Vec::new(),
                result_hash: None,
                carryover: Vec::new(),
                returned: Vec::new(),
            });
        }
        Ok(txn)
    }
}

/// An open journalled change.
#[derive(Debug)]
pub struct StateTxn<'a> {
    dir: &'a CampaignDir,
    lock: &'a CampaignLock,
    /// The state files as found.
    pub current: StateFiles,
    /// The journal as found.
    pub journal: Journal,
    baseline_new: bool,
    manual: Option<Entry>,
}

impl StateTxn<'_> {
    /// The manual edit found, if any.
    pub fn manual_edit(&self) -> Option<&Entry> {
        self.manual.as_ref()
    }

    /// Sequence number the command's own entry will get.
    pub fn next_seq(&self) -> u64 {
        self.journal.next_seq() + u64::from(self.manual.is_some())
    }

    /// Commits: the manual-edit entry, the new state files with the command's entry (its
    /// changes, hashes and sequence number are filled in here), and the other files of
    /// `extra`, all or nothing. Returns the entry's sequence number.
    pub fn finish(self, new_files: StateFiles, entry: Option<Entry>, mut extra: Commit) -> Result<u64> {
        let mut lines = Vec::new();
        // The baseline is taken with the journal's first entry, not before.
        if self.baseline_new && entry.is_some() {
            for (f, content) in &self.current {
                if let Some(b) = content {
                    extra.write(format!("{BASELINE_DIR}/{f}"), b.clone());
                }
            }
        }
        let mut seq = self.journal.next_seq();
        if let Some(m) = &self.manual {
            lines.push((m.seq, entry_line(m)?));
            seq = m.seq + 1;
        }
        let mut after = self.current.clone();
        for (f, v) in &new_files {
            after.insert(f.clone(), v.clone());
        }
        if let Some(mut e) = entry {
            e.seq = seq;
            e.changes = STATE_FILES
                .iter()
                .filter_map(|f| {
                    diff_file(
                        f,
                        self.current.get(*f).cloned().flatten().as_deref(),
                        after.get(*f).cloned().flatten().as_deref(),
                    )
                })
                .collect();
            e.state = state_hashes(&after);
            lines.push((e.seq, entry_line(&e)?));
        }
        for (f, v) in new_files {
            if self.current.get(&f) == Some(&v) {
                continue;
            }
            match v {
                Some(b) => extra.write(f, b),
                None => extra.removes.push(f),
            }
        }
        extra.journal = lines;
        self.dir.commit(extra, self.lock)?;
        Ok(seq)
    }
}
