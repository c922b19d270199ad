//! All-or-nothing writes of campaign state. A change is staged file by file in a folder of
//! its own under `.sowbridge/`, then, once the lock is proved still held, a manifest is
//! written atomically: that is the commit point.
//! The journal line is appended and the staged files are renamed over their targets; the
//! manifest is removed last. Any command that takes the lock first finishes (redoes) a
//! committed change left half-done by a crash, and throws away an uncommitted one.

use std::collections::BTreeMap;
use std::io::Write;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

use super::replace::{check_replaceable, held_open_message, is_held_open, probe};
use super::{CampaignDir, CampaignLock, atomic_write, read_optional};

pub(super) const WORK_DIR: &str = ".sowbridge";
/// The staging folder of a manifest written before each change had a folder of its own.
const LEGACY_STAGING: &str = ".sowbridge/staging";
/// The start of every staging folder's name.
pub(super) const STAGING_PREFIX: &str = "staging";
pub(super) const MANIFEST: &str = ".sowbridge/commit.json";
/// The append-only journal.
pub const JOURNAL: &str = "journal.jsonl";

/// One change to the campaign folder: files to write (relative `/` paths) and a journal line.
#[derive(Debug, Default, Clone)]
pub struct Commit {
    /// New contents by relative path.
    pub writes: BTreeMap<String, Vec<u8>>,
    /// Files to remove.
    pub removes: Vec<String>,
    /// JSON lines for `journal.jsonl`, with their sequence numbers (each appended once).
    pub journal: Vec<(u64, String)>,
    /// What the command was asked to do, as [`crate::commands::operation`] names it: a
    /// command that finds its own change interrupted finishes it and stops, instead of making
    /// it a second time.
    pub operation: Option<String>,
}

#[derive(Debug, Serialize, Deserialize)]
pub(super) struct Manifest {
    /// Staged file name → target relative path.
    pub(super) moves: Vec<(String, String)>,
    pub(super) removes: Vec<String>,
    pub(super) journal: Vec<(u64, String)>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub(super) operation: Option<String>,
    /// The change's own staging folder (relative).
    #[serde(default = "legacy_staging")]
    pub(super) staging: String,
    /// SHA-256 of each staged file, by move: a staged file that is missing is done only when
    /// its target holds exactly this.
    #[serde(default)]
    pub(super) after: Vec<String>,
    /// SHA-256 of each move's target when the change was committed ("" for none): what the
    /// target must still hold for an interrupted change to be finished over it.
    #[serde(default)]
    pub(super) before: Vec<String>,
    /// The journal's length when the change was committed, to take it back to.
    #[serde(default)]
    pub(super) journal_len: Option<u64>,
}

fn legacy_staging() -> String {
    LEGACY_STAGING.to_string()
}

/// A staging folder no other change uses: the process and the time.
pub(super) fn new_staging() -> String {
    let nanos =
        std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).map_or(0, |d| d.as_nanos());
    format!("{WORK_DIR}/{STAGING_PREFIX}-{}-{nanos}", std::process::id())
}

/// SHA-256 of a file, "" when it is absent. Read a piece at a time: the order of battle of a
/// large campaign is many megabytes, and a change hashes it while holding the new one.
pub(super) fn file_hash(path: &std::path::Path) -> Result<String> {
    use sha2::Digest as _;
    use std::io::Read as _;
    let mut file = match std::fs::File::open(path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(String::new()),
        Err(e) => return Err(crate::error::Error::io(path, e)),
    };
    let mut hasher = sha2::Sha256::new();
    let mut buf = vec![0u8; 1 << 16];
    loop {
        match file.read(&mut buf) {
            Ok(0) => break,
            Ok(n) => hasher.update(&buf[..n]),
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
            Err(e) => return Err(crate::error::Error::io(path, e)),
        }
    }
    Ok(super::journal::hex(&hasher.finalize()))
}
/// True from a change's commit point until it is finished: what a Ctrl-C then leaves is a
/// committed change for the next command to finish.
static COMMITTED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// What the umpire reads when a writing command is interrupted (Ctrl-C): one line, saying
/// whether its change was committed.
pub fn interrupted_message() -> &'static str {
    if COMMITTED.load(std::sync::atomic::Ordering::SeqCst) {
        "interrupted after its change was committed: the next sowbridge command finishes it (if you \
         edit a file it changes first, that command takes the change back and keeps both versions)"
    } else {
        "interrupted before its change was committed: nothing was changed"
    }
}

/// Hook for crash tests: `SOWBRIDGE_CRASH_AT=<point>` aborts the process at that point.
pub fn crash_point(point: &str) {
    if std::env::var("SOWBRIDGE_CRASH_AT").is_ok_and(|v| v == point) {
        crate::errln!("crash test: aborting at {point}");
        std::process::abort();
    }
}

/// Hook for concurrency tests: `SOWBRIDGE_PAUSE_AT=<point>` with
/// `SOWBRIDGE_PAUSE_FILE=<path>` stops the command at that point, creates `<path>.reached`,
/// and waits (two minutes at most) until `<path>` exists.
pub(super) fn pause_point(point: &str) {
    if !std::env::var("SOWBRIDGE_PAUSE_AT").is_ok_and(|v| v == point) {
        return;
    }
    let Some(go) = std::env::var_os("SOWBRIDGE_PAUSE_FILE").map(std::path::PathBuf::from) else { return };
    let mut reached = go.clone().into_os_string();
    reached.push(".reached");
    let _ = std::fs::write(&reached, point);
    let start = std::time::Instant::now();
    while !go.exists() && start.elapsed() < std::time::Duration::from_secs(120) {
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

/// Hook for roll-back tests: `SOWBRIDGE_FAIL_AT=<point>` makes the commit fail there, as a
/// file that cannot be replaced would.
fn fail_point(point: &str) -> Result<()> {
    if std::env::var("SOWBRIDGE_FAIL_AT").is_ok_and(|v| v == point) {
        return Err(Error::Other(format!("failure test: failing at {point}")));
    }
    Ok(())
}

impl Commit {
    /// Adds a file to write.
    pub fn write(&mut self, rel: impl Into<String>, bytes: Vec<u8>) {
        self.writes.insert(rel.into(), bytes);
    }
}

impl CampaignDir {
    /// Makes sure every file `c` writes or removes, and the journal, can be replaced: a
    /// file another program holds open is [`Error::HeldOpen`], naming it. A command that
    /// writes outside the campaign first asks this before it writes there.
    pub fn check_can_commit(&self, c: &Commit) -> Result<()> {
        self.check_targets(c.writes.keys().chain(&c.removes).map(String::as_str))
    }

    /// [`Self::check_can_commit`] for the files `targets` (relative paths) and the journal.
    pub(super) fn check_targets<'r>(&self, targets: impl Iterator<Item = &'r str>) -> Result<()> {
        let rels: Vec<&str> = targets.chain([JOURNAL]).collect();
        // A file is replaced whole by a rename: a symbolic link would become a plain file and
        // the file it points to (perhaps outside the campaign folder) would keep the old state.
        let links: Vec<String> = rels
            .iter()
            .filter(|rel| std::fs::symlink_metadata(self.path(rel)).is_ok_and(|m| m.file_type().is_symlink()))
            .map(|rel| shown(rel))
            .collect();
        if !links.is_empty() {
            return Err(Error::refused(format!(
                "{} {} a symbolic link: sowbridge replaces a file whole, and would put a plain file in \
                 place of the link while the file it points to kept the old state. Put the file itself \
                 in the campaign folder (and link the other way round, if a link is wanted); nothing changed",
                links.join(", "),
                if links.len() == 1 { "is" } else { "are" }
            )));
        }
        let paths: Vec<(String, std::path::PathBuf)> =
            rels.iter().map(|rel| (shown(rel), self.path(rel))).collect();
        check_replaceable(paths.iter().map(|(s, p)| (s.clone(), p.as_path())), probe)
    }

    /// Applies a change all-or-nothing. The lock proves the caller holds it, and is proved
    /// still held (its file still the one at its path) just before the commit point.
    pub fn commit(&self, c: Commit, lock: &CampaignLock) -> Result<()> {
        // Nothing changes unless every file can be replaced (Excel holds the CSVs it shows).
        self.check_can_commit(&c)?;
        let mut staging = self.staging()?;
        staging.add_all(c.writes.into_iter().collect())?;
        staging.commit(c.removes, c.journal, c.operation, lock)
    }

    /// Carries out the change whose manifest was just written (the commit point): finished
    /// whole, or else taken back whole by this same command.
    pub(super) fn carry_out(&self, manifest: &Manifest, journal_len: Option<u64>) -> Result<()> {
        COMMITTED.store(true, std::sync::atomic::Ordering::SeqCst);
        crash_point("after-manifest");
        pause_point("after-manifest");
        let finished = self.finish(manifest, true);
        COMMITTED.store(false, std::sync::atomic::Ordering::SeqCst);
        match finished {
            Ok(()) => Ok(()),
            Err(e) => {
                // The same command takes its change back, so that it leaves no half-commit.
                self.roll_back(manifest, journal_len).map_err(|r| {
                    Error::Other(format!(
                        "{e}; taking the change back failed too ({r}): the next sowbridge command \
                         finishes it"
                    ))
                })?;
                Err(e)
            }
        }
    }

    /// Carries out a committed change: the journal lines, then each staged file renamed
    /// over its target. With `keep_old`, each replaced or removed file stays linked (or
    /// copied) in the staging folder until the end, so that [`Self::roll_back`] can put it
    /// back. Idempotent: what was done before is skipped.
    pub(super) fn finish(&self, m: &Manifest, keep_old: bool) -> Result<()> {
        let targets: Vec<(String, std::path::PathBuf)> = m
            .moves
            .iter()
            .map(|(_, rel)| rel)
            .chain(&m.removes)
            .map(|rel| (shown(rel), self.path(rel)))
            .collect();
        check_replaceable(targets.iter().map(|(s, p)| (s.clone(), p.as_path())), probe)?;
        for (seq, line) in &m.journal {
            self.append_journal_once(*seq, line)?;
        }
        crash_point("after-journal");
        fail_point("after-journal")?;
        let staging = self.path(&m.staging);
        for (i, (name, rel)) in m.moves.iter().enumerate() {
            let from = staging.join(name);
            let to = self.path(rel);
            if !from.exists() {
                // Done before, or damage: only the target holding what was staged is done.
                if let Some(want) = m.after.get(i)
                    && file_hash(&to)? != *want
                {
                    return Err(Error::Other(format!(
                        "{}: the change that an interrupted sowbridge command committed cannot be \
                         finished: its staged copy of {} is missing, and {} is not what the change \
                         wrote. Nothing more was changed. Restore the campaign folder from a backup, or \
                         see docs/journal.md (\"After a crash\")",
                        self.path(MANIFEST).display(),
                        shown(rel),
                        shown(rel)
                    )));
                }
            } else {
                if let Some(dir) = to.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
                }
                if keep_old {
                    keep(&to, &staging.join(format!("{name}.old")))?;
                }
                std::fs::rename(&from, &to).map_err(|e| held_or_io(rel, &to, e))?;
            }
            if i == 0 {
                crash_point("mid-rename");
                fail_point("mid-rename")?;
            }
        }
        for (i, rel) in m.removes.iter().enumerate() {
            let p = self.path(rel);
            if keep_old {
                keep(&p, &staging.join(format!("removed-{i:06}.old")))?;
            }
            match std::fs::remove_file(&p) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(held_or_io(rel, &p, e)),
            }
        }
        let manifest = self.path(MANIFEST);
        std::fs::remove_file(&manifest).map_err(|e| Error::io(&manifest, e))?;
        let _ = std::fs::remove_dir_all(&staging);
        let _ = std::fs::remove_dir(self.path(WORK_DIR));
        // The change is whole: a folder its removals emptied (a turn's reports undone) goes
        // too. A folder still holding anything stays (remove_dir refuses it).
        for rel in &m.removes {
            if let Some(dir) = self.path(rel).parent() {
                let _ = std::fs::remove_dir(dir);
            }
        }
        Ok(())
    }

    /// Takes back a change [`Self::finish`] (with `keep_old`) could not carry out: every
    /// new file goes back to the staging folder and the file it replaced (if any) back to
    /// its place, removed files come back, the journal is cut back to `journal_len` bytes,
    /// and the manifest goes last. Until then the change stays committed and whole: if the
    /// roll-back stops half-way, the next command finishes the change instead.
    pub(super) fn roll_back(&self, m: &Manifest, journal_len: Option<u64>) -> Result<()> {
        let staging = self.path(&m.staging);
        for (name, rel) in &m.moves {
            let staged = staging.join(name);
            let old = staging.join(format!("{name}.old"));
            if staged.exists() {
                // Not moved in: the target is as it was.
                let _ = std::fs::remove_file(&old);
                continue;
            }
            let to = self.path(rel);
            std::fs::rename(&to, &staged).map_err(|e| held_or_io(rel, &to, e))?;
            if old.exists() {
                std::fs::rename(&old, &to).map_err(|e| held_or_io(rel, &to, e))?;
            }
        }
        for (i, rel) in m.removes.iter().enumerate() {
            let old = staging.join(format!("removed-{i:06}.old"));
            let p = self.path(rel);
            if old.exists() && !p.exists() {
                std::fs::rename(&old, &p).map_err(|e| held_or_io(rel, &p, e))?;
            }
        }
        let path = self.path(JOURNAL);
        match journal_len {
            Some(len) => {
                let f =
                    std::fs::OpenOptions::new().write(true).open(&path).map_err(|e| Error::io(&path, e))?;
                f.set_len(len).map_err(|e| Error::io(&path, e))?;
                f.sync_all().map_err(|e| Error::io(&path, e))?;
            }
            None => match std::fs::remove_file(&path) {
                Ok(()) => {}
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(e) => return Err(Error::io(&path, e)),
            },
        }
        let manifest = self.path(MANIFEST);
        std::fs::remove_file(&manifest).map_err(|e| Error::io(&manifest, e))?;
        let _ = std::fs::remove_dir_all(&staging);
        let _ = std::fs::remove_dir(self.path(WORK_DIR));
        // The change is whole: a folder its removals emptied (a turn's reports undone) goes
        // too. A folder still holding anything stays (remove_dir refuses it).
        for rel in &m.removes {
            if let Some(dir) = self.path(rel).parent() {
                let _ = std::fs::remove_dir(dir);
            }
        }
        Ok(())
    }

    /// Appends a journal line unless the journal already ends with that sequence number;
    /// drops a torn last line first.
    fn append_journal_once(&self, seq: u64, line: &str) -> Result<()> {
        let path = self.path(JOURNAL);
        let mut existing = read_optional(&path)?.unwrap_or_default();
        if !existing.is_empty() && !existing.ends_with(b"\n") {
            let keep = existing.iter().rposition(|&b| b == b'\n').map_or(0, |i| i + 1);
            existing.truncate(keep);
            atomic_write(&path, &existing)?;
        }
        if let Some(last) = existing.split(|&b| b == b'\n').rfind(|l| !l.is_empty()) {
            #[derive(Deserialize)]
            struct Seq {
                seq: u64,
            }
            if let Ok(s) = serde_json::from_slice::<Seq>(last)
                && s.seq >= seq
            {
                return Ok(());
            }
        }
        let mut f = std::fs::OpenOptions::new()
            .create(true)
            .append(true)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        f.write_all(line.as_bytes()).map_err(|e| Error::io(&path, e))?;
        f.write_all(b"\n").map_err(|e| Error::io(&path, e))?;
        f.sync_all().map_err(|e| Error::io(&path, e))
    }
}

/// A relative `/` path as the platform writes it.
pub(super) fn shown(rel: &str) -> String {
    super::join_rel(std::path::Path::new(""), rel).display().to_string()
}

/// An error replacing `rel`: a held file in the umpire's words, else the I/O error.
fn held_or_io(rel: &str, path: &std::path::Path, e: std::io::Error) -> Error {
    if is_held_open(&e) { Error::HeldOpen(held_open_message(&shown(rel))) } else { Error::io(path, e) }
}

/// Keeps the file at `path` (if any) as `old` for a roll-back: a hard link, which costs
/// nothing, or a copy where the file system has none. An `old` kept before is kept.
fn keep(path: &std::path::Path, old: &std::path::Path) -> Result<()> {
    if old.exists() || !path.exists() {
        return Ok(());
    }
    if std::fs::hard_link(path, old).is_ok() {
        return Ok(());
    }
    std::fs::copy(path, old).map(drop).map_err(|e| Error::io(path, e))
}
