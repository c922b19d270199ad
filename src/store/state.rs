//! A change to the campaign's state, journalled. Every writing command opens a
//! [`StateTxn`] under the lock: it finishes any interrupted commit, reads the state files,
//! and records as a "manual edit" any difference between them and the journal's last state
//! (the umpire edits the files by hand between battles). The command then hands over the
//! new files and its own entry; both go into the journal in one all-or-nothing commit.

use std::collections::{BTreeMap, BTreeSet};

use crate::error::Result;

use super::commit::file_hash;
use super::journal::{
    BASELINE_DIR, Entry, HEAD, Journal, STATE_FILES, StateFiles, diff_file, entry_line, sha256_hex,
    state_hashes,
};
use super::staging::Staging;
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

    /// The journal entry the next journalled change would get, and whether an entry recording
    /// manual edits would come before it (for dry runs, which take no lock and write nothing).
    pub fn planned_seq(&self) -> Result<(u64, bool)> {
        let journal = self.read_journal()?;
        if journal.entries.is_empty() {
            return Ok((journal.next_seq(), false));
        }
        let edited = recorded_state(&journal) != Some(state_hashes(&self.read_state()?));
        Ok((journal.next_seq() + u64::from(edited), edited))
    }

    /// Where the journal stands against the files: `None` when it ends where the files' head
    /// says (or no head was written yet and nothing says a journal was begun), else what is
    /// wrong, in the umpire's words.
    pub fn journal_gap(&self, journal: &Journal) -> Result<Option<String>> {
        let last = journal.entries.last().map_or(0, |e| e.seq);
        let head = self.read(HEAD)?.map(|b| String::from_utf8_lossy(&b).trim().to_string());
        let advice = "restore journal.jsonl from the same backup as the campaign's files (see \
                      docs/journal.md, \"After a crash, a restore from backup, or a sync conflict\")";
        match head.map(|h| h.split_whitespace().next().unwrap_or("").parse::<u64>()) {
            Some(Ok(n)) if n == last => Ok(None),
            Some(Ok(n)) if n > last => Ok(Some(format!(
                "journal.jsonl ends at entry {last}, but the campaign's files were written with entry {n} \
                 ({HEAD}): the journal is {} (an older copy restored, a sync conflict?); {advice}",
                if last == 0 { "missing" } else { "short" }
            ))),
            Some(Ok(n)) => Ok(Some(format!(
                "journal.jsonl goes on to entry {last}, but the campaign's files were written with entry \
                 {n} ({HEAD}): the files are older than the journal (restored from an older copy?); \
                 restore the files from the same backup as the journal (see docs/journal.md)"
            ))),
            Some(Err(_)) => Ok(Some(format!("{HEAD}: not a journal entry number; {advice}"))),
            None if last == 0 && self.path(BASELINE_DIR).is_dir() => Ok(Some(format!(
                "journal.jsonl is missing, but {BASELINE_DIR}/ shows a journal was begun: the journal was \
                 deleted or lost; {advice}"
            ))),
            None => Ok(None),
        }
    }

    /// Opens a journalled change: recovers an interrupted commit, then records manual edits.
    /// A journal that does not end where the files say (see [`Self::journal_gap`]) is refused:
    /// such a gap is never journalled as a manual edit.
    pub fn begin<'a>(&'a self, lock: &'a CampaignLock) -> Result<StateTxn<'a>> {
        self.recover(lock)?;
        self.open_txn(lock)
    }

    /// [`Self::begin`], with `beside` run on a thread of its own once an interrupted commit is
    /// recovered, while the journal and the state files are read and compared: what `beside`
    /// reads of the campaign is what the change finds (a turn advance loads the campaign
    /// there). An error of the change's opening is the one returned; `beside`'s own is the
    /// caller's to look at.
    pub fn begin_beside<'a, T: Send>(
        &'a self,
        lock: &'a CampaignLock,
        beside: impl FnOnce() -> T + Send,
    ) -> Result<(StateTxn<'a>, T)> {
        self.recover(lock)?;
        std::thread::scope(|s| {
            let beside = s.spawn(beside);
            let txn = self.open_txn(lock);
            let t = beside.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
            Ok((txn?, t))
        })
    }

    /// The change opened once nothing is left to recover: the journal read and checked against
    /// the files, and a manual edit found.
    fn open_txn<'a>(&'a self, lock: &'a CampaignLock) -> Result<StateTxn<'a>> {
        let journal = self.read_journal()?;
        if let Some(gap) = self.journal_gap(&journal)? {
            return Err(crate::error::Error::refused(format!("{gap}; nothing changed")));
        }
        let mut txn = StateTxn {
            dir: self,
            lock,
            current: None,
            journal,
            baseline_new: false,
            manual: None,
            current_hashes: BTreeMap::new(),
        };
        if txn.journal.entries.is_empty() {
            // Nothing to compare the files with: they are read when a change needs them.
            txn.baseline_new = true;
            return Ok(txn);
        }
        let current = txn.current.insert(self.read_state()?);
        let hashes = state_hashes(current);
        txn.current_hashes.clone_from(&hashes);
        if recorded_state(&txn.journal).as_ref() != Some(&hashes) {
            let before = txn.journal.replay(&self.read_baseline()?, None)?;
            let changes: Vec<_> = STATE_FILES
                .iter()
                .filter_map(|f| diff_file(f, content(&before, f), content(current, f)))
                .collect();
            let files: Vec<&str> = changes.iter().map(|c| c.file()).collect();
            let summary = format!("manual edit of {}", files.join(", "));
            txn.manual = Some(Entry {
                seq: txn.journal.next_seq(),
                changes,
                state: hashes,
                ..Entry::manual_edit(summary)
            });
        }
        Ok(txn)
    }
}

/// The state hashes after the journal's last entry, with every state file it did not know of
/// (a journal begun before sowbridge followed that file) as absent.
fn recorded_state(journal: &Journal) -> Option<BTreeMap<String, String>> {
    let mut s = journal.last_state()?.clone();
    for f in STATE_FILES {
        s.entry(f.to_string()).or_default();
    }
    Some(s)
}

/// An open journalled change.
#[derive(Debug)]
pub struct StateTxn<'a> {
    dir: &'a CampaignDir,
    lock: &'a CampaignLock,
    /// The state files as found (read by `begin` when the journal has entries, else when
    /// first needed).
    current: Option<StateFiles>,
    /// The journal as found.
    pub journal: Journal,
    baseline_new: bool,
    manual: Option<Entry>,
    /// Hashes of `current`, when `begin` needed them (empty otherwise).
    current_hashes: BTreeMap<String, String>,
}

/// A state file's content, `None` when absent.
fn content<'s>(files: &'s StateFiles, f: &str) -> Option<&'s [u8]> {
    files.get(f).and_then(|c| c.as_deref())
}

impl<'a> StateTxn<'a> {
    /// The state files as found.
    pub fn current(&mut self) -> Result<&StateFiles> {
        let dir = self.dir;
        match &mut self.current {
            Some(c) => Ok(c),
            slot @ None => Ok(slot.insert(dir.read_state()?)),
        }
    }

    /// One state file as found: from the files read, else read now (the rest are read when a
    /// change needs them).
    pub fn file(&self, f: &str) -> Result<Option<Vec<u8>>> {
        match &self.current {
            Some(c) => Ok(c.get(f).cloned().flatten()),
            None => self.dir.read(f),
        }
    }

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
    pub fn finish(self, new_files: StateFiles, entry: Option<Entry>, extra: Commit) -> Result<u64> {
        let others: Vec<String> = extra.writes.keys().chain(&extra.removes).cloned().collect();
        let others: Vec<&str> = others.iter().map(String::as_str).collect();
        self.stage(new_files, entry, &others)?.finish(extra)
    }

    /// The first half of [`Self::finish`]: the journal lines are made and the state files
    /// that change (and, with the journal's first entry, its baseline) are staged, written and
    /// synced on threads of their own meanwhile. Nothing of the campaign changes until
    /// [`Staged::finish`]; a command may build its other files meanwhile. `others` are the
    /// other files the change will write or remove: they are asked after with the state's, so
    /// that every file held open (by Excel, say) is named at once, before anything is staged.
    pub fn stage(self, new_files: StateFiles, entry: Option<Entry>, others: &[&str]) -> Result<Staged<'a>> {
        let StateTxn { dir, lock, current, journal, baseline_new, manual, current_hashes } = self;
        let current = match current {
            Some(c) => c,
            None if entry.is_some() || !new_files.is_empty() => dir.read_state()?,
            // Nothing of the state changes or is journalled (an export).
            None => StateFiles::new(),
        };
        // Only the files that change are held twice; the rest are read where they are (a
        // large order of battle is many megabytes).
        let changed: StateFiles = new_files.into_iter().filter(|(f, v)| current.get(f) != Some(v)).collect();
        // The baseline is taken with the journal's first entry, not before: a copy of each
        // file as read.
        let baseline: Vec<(String, &String, &[u8])> = if baseline_new && entry.is_some() {
            current
                .iter()
                .filter_map(|(f, c)| Some((format!("{BASELINE_DIR}/{f}"), f, c.as_deref()?)))
                .collect()
        } else {
            Vec::new()
        };
        let journalled = entry.is_some() || manual.is_some();
        dir.check_targets(
            baseline
                .iter()
                .map(|(f, _, _)| f.as_str())
                .chain(changed.keys().map(String::as_str))
                .chain(journalled.then_some(HEAD))
                .chain(others.iter().copied()),
        )?;
        let new: Vec<(&String, &[u8])> =
            changed.iter().filter_map(|(f, v)| Some((f, v.as_deref()?))).collect();
        let bytes: Vec<&[u8]> =
            baseline.iter().map(|(_, _, b)| *b).chain(new.iter().map(|(_, b)| *b)).collect();
        let mut staging = dir.staging()?;
        // The files go to disk (the slow part, each synced) while the journal's lines and the
        // hashes are made from the same bytes.
        let (written, made) = std::thread::scope(|s| {
            let w = s.spawn(|| staging.write_all(&bytes));
            let change = Change { current: &current, changed: &changed, read_hashes: current_hashes };
            let made = change.journal_lines(&journal, manual.as_ref(), entry);
            (w.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)), made)
        });
        written?;
        let JournalLines { lines, seq, read_hashes, mut hashes } = made?;
        for (target, f, b) in &baseline {
            let before = file_hash(&dir.path(target))?;
            let after = read_hashes.get(*f).cloned().unwrap_or_else(|| sha256_hex(b));
            staging.record(target.clone(), after, before)?;
        }
        for (f, b) in new {
            let after = hashes.remove(f.as_str()).unwrap_or_else(|| sha256_hex(b));
            let before = match read_hashes.get(f) {
                Some(h) => h.clone(),
                None => file_hash(&dir.path(f))?,
            };
            staging.record(f.clone(), after, before)?;
        }
        let removes = changed.into_iter().filter(|(_, v)| v.is_none()).map(|(f, _)| f).collect();
        Ok(Staged { dir, lock, staging, removes, journal: lines, seq })
    }
}

/// What [`Change::journal_lines`] makes.
struct JournalLines {
    /// The journal lines, with their sequence numbers.
    lines: Vec<(u64, String)>,
    /// The command's own entry's sequence number.
    seq: u64,
    /// Each state file's hash as the change read it.
    read_hashes: BTreeMap<String, String>,
    /// The hash of each file the entry changes, as it will be.
    hashes: BTreeMap<String, String>,
}

/// The state files a change reads and writes, for its journal lines.
struct Change<'c> {
    current: &'c StateFiles,
    changed: &'c StateFiles,
    /// The hashes of `current` taken already (by `begin`).
    read_hashes: BTreeMap<String, String>,
}

impl Change<'_> {
    /// A file's content after the change.
    fn after(&self, f: &str) -> Option<&[u8]> {
        match self.changed.get(f) {
            Some(v) => v.as_deref(),
            None => content(self.current, f),
        }
    }

    /// The journal lines of the change: a manual edit found, then the command's entry with
    /// its changes and state filled in.
    fn journal_lines(
        mut self,
        journal: &Journal,
        manual: Option<&Entry>,
        entry: Option<Entry>,
    ) -> Result<JournalLines> {
        let (current, changed) = (self.current, self.changed);
        let mut lines = Vec::new();
        let mut seq = journal.next_seq();
        if let Some(m) = manual {
            lines.push((m.seq, entry_line(m)?));
            seq = m.seq + 1;
        }
        // Each state file's hash as the change read it, taken once (when the opening of the
        // change did not) for the entry, the baseline's copy and the target a new file
        // replaces: the entry's and the baseline's files are every file read, the rest only
        // the files that change.
        let to_hash: Vec<&String> =
            if entry.is_some() { current.keys().collect() } else { changed.keys().collect() };
        for f in to_hash {
            if !self.read_hashes.contains_key(f.as_str()) {
                self.read_hashes.insert(f.clone(), content(current, f).map(sha256_hex).unwrap_or_default());
            }
        }
        // The hashes of the files that change, taken once for the entry and the staging.
        let mut hashes = BTreeMap::new();
        if let Some(mut e) = entry {
            e.seq = seq;
            e.changes =
                STATE_FILES.iter().filter_map(|f| diff_file(f, content(current, f), self.after(f))).collect();
            let files: BTreeSet<&str> = current.keys().chain(changed.keys()).map(String::as_str).collect();
            e.state = files
                .into_iter()
                .map(|f| {
                    let hash = match self.read_hashes.get(f) {
                        Some(h) if !changed.contains_key(f) => h.clone(),
                        _ => self.after(f).map(sha256_hex).unwrap_or_default(),
                    };
                    if changed.contains_key(f) {
                        hashes.insert(f.to_string(), hash.clone());
                    }
                    (f.to_string(), hash)
                })
                .collect();
            lines.push((e.seq, entry_line(&e)?));
        }
        Ok(JournalLines { lines, seq, read_hashes: self.read_hashes, hashes })
    }
}

/// A journalled change whose state files are staged (see [`StateTxn::stage`]).
#[derive(Debug)]
pub struct Staged<'a> {
    dir: &'a CampaignDir,
    lock: &'a CampaignLock,
    staging: Staging<'a>,
    /// The state files the change removes.
    removes: Vec<String>,
    /// The journal lines, with their sequence numbers.
    journal: Vec<(u64, String)>,
    /// The command's own entry's sequence number.
    seq: u64,
}

impl Staged<'_> {
    /// Stages one more file of the change now (a report as soon as it is written), and lets
    /// its bytes go.
    pub fn write(&mut self, rel: String, bytes: Vec<u8>) -> Result<()> {
        self.dir.check_targets(std::iter::once(rel.as_str()))?;
        self.staging.add_all(vec![(rel, bytes)])
    }

    /// Stages the other files of `extra` and commits the change, all or nothing. Returns the
    /// command's entry's sequence number.
    pub fn finish(self, mut extra: Commit) -> Result<u64> {
        let Staged { dir, lock, mut staging, mut removes, journal, seq } = self;
        if let Some((last, _)) = journal.last() {
            extra.write(HEAD, format!("{last}\n").into_bytes());
        }
        removes.append(&mut extra.removes);
        dir.check_targets(extra.writes.keys().chain(&removes).map(String::as_str))?;
        staging.add_all(extra.writes.into_iter().collect())?;
        staging.commit(removes, journal, extra.operation, lock)?;
        Ok(seq)
    }
}

#[cfg(test)]
mod tests {
    use std::collections::BTreeMap;
    use std::path::Path;

    use super::*;

    /// A campaign folder of the example's state files, in a folder of its own.
    fn campaign() -> (tempfile::TempDir, CampaignDir) {
        let tmp = tempfile::tempdir().expect("tempdir");
        let fixture = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/peninsula");
        for f in ["campaign.toml", "forces.csv", "settlements.csv"] {
            std::fs::copy(fixture.join(f), tmp.path().join(f)).expect("copy");
        }
        let dir = CampaignDir::new(tmp.path());
        (tmp, dir)
    }

    /// Every file under `root` but the lock, by relative path.
    fn files(root: &Path) -> BTreeMap<String, Vec<u8>> {
        walkdir::WalkDir::new(root)
            .into_iter()
            .filter_map(std::result::Result::ok)
            .filter(|e| e.file_type().is_file() && e.file_name() != super::super::lock::LOCK_FILE)
            .map(|e| {
                let rel =
                    e.path().strip_prefix(root).expect("under root").to_string_lossy().replace('\\', "/");
                (rel, std::fs::read(e.path()).expect("read"))
            })
            .collect()
    }

    /// A change of `forces.csv` staged with its entry, and a report staged early.
    fn stage_with_a_report<'a>(dir: &'a CampaignDir, lock: &'a CampaignLock) -> Staged<'a> {
        let new_forces = StateFiles::from([("forces.csv".to_string(), Some(b"id,parent\n".to_vec()))]);
        let mut staged = dir
            .begin(lock)
            .expect("begin")
            .stage(new_forces, Some(Entry::manual_edit("x".into())), &[])
            .expect("stage");
        staged.write("turns/T21/report.md".to_string(), b"report".to_vec()).expect("write");
        staged
    }

    #[test]
    fn a_change_staged_and_let_go_changes_nothing_and_leaves_no_staging() {
        let (tmp, dir) = campaign();
        let before = files(tmp.path());
        let lock = dir.lock_unless_dry_run(false).expect("lock").expect("a lock");
        let staged = stage_with_a_report(&dir, &lock);
        // The state file and the report are on disk, staged: nothing of the campaign yet.
        let staged_files = files(tmp.path());
        assert!(
            staged_files.keys().any(|f| f.starts_with(".sowbridge/staging")),
            "{:?}",
            staged_files.keys()
        );
        assert!(!tmp.path().join("turns").exists());
        drop(staged);
        drop(lock);
        assert_eq!(files(tmp.path()), before);
    }

    #[test]
    fn a_file_staged_twice_in_one_change_is_refused_and_nothing_changes() {
        let (tmp, dir) = campaign();
        let before = files(tmp.path());
        let lock = dir.lock_unless_dry_run(false).expect("lock").expect("a lock");
        let mut staged = stage_with_a_report(&dir, &lock);
        let e = staged.write("turns/T21/report.md".to_string(), b"again".to_vec()).expect_err("twice");
        assert!(e.to_string().contains("turns/T21/report.md: staged twice"), "{e}");
        let mut extra = Commit::default();
        extra.write("forces.csv", b"id\n".to_vec());
        assert!(staged.finish(extra).is_err(), "a state file staged again by the command");
        drop(lock);
        assert_eq!(files(tmp.path()), before);
    }

    /// A campaign with one entry in its journal, so that opening a change reads and hashes
    /// the state files.
    fn journalled() -> (tempfile::TempDir, CampaignDir) {
        let (tmp, dir) = campaign();
        let lock = dir.lock_unless_dry_run(false).expect("lock").expect("a lock");
        stage_with_a_report(&dir, &lock).finish(Commit::default()).expect("finish");
        (tmp, dir)
    }

    #[test]
    fn what_runs_beside_the_opening_of_a_change_sees_the_files_it_finds_and_its_refusal_comes_first() {
        let (tmp, dir) = journalled();
        let lock = dir.lock_unless_dry_run(false).expect("lock").expect("a lock");
        let (txn, read) = dir.begin_beside(&lock, || dir.read("forces.csv")).expect("begin");
        assert_eq!(read.expect("read").as_deref(), Some(&b"id,parent\n"[..]));
        assert_eq!(txn.next_seq(), 2);
        assert!(txn.manual_edit().is_none());
        drop(txn);
        // A manual edit is found as `begin` finds it.
        std::fs::write(tmp.path().join("forces.csv"), b"id,parent\nF,\n").expect("edit");
        let (txn, ()) = dir.begin_beside(&lock, || ()).expect("begin");
        assert_eq!(txn.manual_edit().map(|e| e.summary.as_str()), Some("manual edit of forces.csv"));
        drop(txn);
        // A journal that stops short of the files is refused, whatever ran beside.
        std::fs::write(tmp.path().join(HEAD), b"7\n").expect("head");
        let e = dir.begin_beside(&lock, || 1).expect_err("a gap");
        assert!(e.to_string().contains("journal.jsonl ends at entry 1"), "{e}");
    }

    #[test]
    fn what_runs_beside_the_opening_of_a_change_reads_the_campaign_an_interrupted_commit_left() {
        use super::super::commit::{MANIFEST, Manifest, new_staging};
        let (tmp, dir) = journalled();
        // Taking the lock finishes what it finds: the change is cut short under it.
        let lock = dir.lock_unless_dry_run(false).expect("lock").expect("a lock");
        // A change cut short after its commit point: its manifest written, its new
        // forces.csv still in its staging folder.
        let staging = new_staging();
        std::fs::create_dir_all(dir.path(&staging)).expect("staging");
        let new = b"id,parent\nR,\n";
        std::fs::write(dir.path(&staging).join("000000"), new).expect("staged");
        let m = Manifest {
            moves: vec![("000000".into(), "forces.csv".into())],
            removes: Vec::new(),
            journal: Vec::new(),
            operation: None,
            staging,
            after: vec![sha256_hex(new)],
            before: vec![sha256_hex(b"id,parent\n")],
            journal_len: std::fs::metadata(tmp.path().join("journal.jsonl")).ok().map(|m| m.len()),
        };
        std::fs::write(dir.path(MANIFEST), serde_json::to_vec(&m).expect("json")).expect("manifest");
        let (_txn, read) = dir.begin_beside(&lock, || dir.read("forces.csv")).expect("begin");
        assert_eq!(read.expect("read").as_deref(), Some(&new[..]), "read before the change was finished");
        assert!(!dir.path(MANIFEST).exists());
    }

    #[test]
    fn a_staged_file_records_what_its_target_held_when_the_change_read_it() {
        let (tmp, dir) = journalled();
        let lock = dir.lock_unless_dry_run(false).expect("lock").expect("a lock");
        let txn = dir.begin(&lock).expect("begin");
        let found = sha256_hex(b"id,parent\n");
        // Changed on disk after the change read it (a spreadsheet saving over it): what the
        // change replaces is what it read, and a recovery tells the later edit apart.
        std::fs::write(tmp.path().join("forces.csv"), b"id,parent\nX,\n").expect("edit");
        let new_forces = StateFiles::from([("forces.csv".to_string(), Some(b"id\n".to_vec()))]);
        let staged = txn.stage(new_forces, Some(Entry::manual_edit("y".into())), &[]).expect("stage");
        assert_eq!(staged.staging.before_of("forces.csv"), Some(found.as_str()));
    }

    #[test]
    fn a_file_staged_early_is_committed_with_the_state_and_its_entry() {
        let (tmp, dir) = campaign();
        let lock = dir.lock_unless_dry_run(false).expect("lock").expect("a lock");
        let staged = stage_with_a_report(&dir, &lock);
        let mut extra = Commit::default();
        extra.write("turns/T21/french.md", b"french".to_vec());
        assert_eq!(staged.finish(extra).expect("finish"), 1);
        drop(lock);
        let after = files(tmp.path());
        assert_eq!(after["forces.csv"], b"id,parent\n");
        assert_eq!(after["turns/T21/report.md"], b"report");
        assert_eq!(after["turns/T21/french.md"], b"french");
        assert_eq!(after[HEAD], b"1\n");
        assert!(!tmp.path().join(".sowbridge").exists(), "{:?}", after.keys());
        let journal = dir.read_journal().expect("journal");
        assert_eq!(journal.entries.len(), 1);
        // The entry's state is the files as committed.
        assert_eq!(journal.last_state(), Some(&state_hashes(&dir.read_state().expect("state"))));
    }
}
