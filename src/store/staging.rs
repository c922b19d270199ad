//! A change being staged: its files written one at a time, each synced, into a folder of
//! their own under `.sowbridge/`, with what each target holds now. Nothing of the campaign
//! changes until [`Staging::commit`] writes the manifest; a staging let go before that is
//! thrown away. A command may stage its large files early (a turn's new state while its
//! reports are still being written) and each file's bytes are let go once they are on disk.

use std::path::PathBuf;

use crate::error::{Error, Result};

use super::commit::JOURNAL;
use super::commit::{MANIFEST, Manifest, WORK_DIR, crash_point, file_hash, new_staging, pause_point};
use super::journal::sha256_hex;
use super::{CampaignDir, CampaignLock, atomic_write};

/// One staged file.
#[derive(Debug)]
struct Staged {
    /// Its name in the staging folder.
    name: String,
    /// The campaign file it replaces (relative `/` path).
    target: String,
    /// SHA-256 of the staged bytes.
    after: String,
    /// SHA-256 of the target as the change found it ("" for none).
    before: String,
}

/// A change's staging folder and what is staged in it so far.
#[derive(Debug)]
pub(super) struct Staging<'d> {
    dir: &'d CampaignDir,
    rel: String,
    path: PathBuf,
    files: Vec<Staged>,
    /// Set once the manifest is written: from then on the folder is the committed change's.
    committed: bool,
}

impl CampaignDir {
    /// Opens a staging folder no other change uses.
    pub(super) fn staging(&self) -> Result<Staging<'_>> {
        let rel = new_staging();
        let path = self.path(&rel);
        std::fs::create_dir_all(&path).map_err(|e| Error::io(&path, e))?;
        Ok(Staging { dir: self, rel, path, files: Vec::new(), committed: false })
    }
}

impl Staging<'_> {
    /// Writes the next files to be staged, each synced, under the names [`Self::record`] gives
    /// them in the same order. Only reads the staging, so that the caller may work on the
    /// same bytes meanwhile (their hashes, the journal's lines) while they go to disk.
    pub(super) fn write_all(&self, files: &[&[u8]]) -> Result<()> {
        // Each file on a thread of its own: their syncs wait on the disk together.
        super::all_at_once(files.iter().enumerate().map(|(k, bytes)| {
            let path = self.path.join(staged_name(self.files.len() + k));
            move || write_synced(&path, bytes)
        }))
    }

    /// Stages each of `files` (target, bytes) as its new content: all written and synced at
    /// once while their hashes (and each target's as it is now) are taken, then let go.
    pub(super) fn add_all(&mut self, files: Vec<(String, Vec<u8>)>) -> Result<()> {
        for (target, _) in &files {
            self.refuse_twice(target)?;
        }
        let bytes: Vec<&[u8]> = files.iter().map(|(_, b)| b.as_slice()).collect();
        let (written, hashes) = std::thread::scope(|s| {
            let w = s.spawn(|| self.write_all(&bytes));
            let hashes: Result<Vec<(String, String)>> = files
                .iter()
                .map(|(target, b)| Ok((sha256_hex(b), file_hash(&self.dir.path(target))?)))
                .collect();
            (w.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)), hashes)
        });
        written?;
        for ((target, _), (after, before)) in files.into_iter().zip(hashes?) {
            self.record(target, after, before)?;
        }
        Ok(())
    }

    /// Records the next file written by [`Self::write_all`] as the new `target`: `after` the
    /// SHA-256 of its bytes, `before` the target's as the change found it.
    pub(super) fn record(&mut self, target: String, after: String, before: String) -> Result<()> {
        self.refuse_twice(&target)?;
        let name = staged_name(self.files.len());
        self.files.push(Staged { name, target, after, before });
        if self.files.len() == 1 {
            crash_point("staging");
        }
        Ok(())
    }

    /// One file, one new content: a second would leave the change two renames onto one
    /// target, which a recovery could not tell finished.
    fn refuse_twice(&self, target: &str) -> Result<()> {
        if self.files.iter().any(|f| f.target == target) {
            return Err(Error::Other(format!("{target}: staged twice in one change; nothing changed")));
        }
        Ok(())
    }

    /// The commit point: once the lock is proved still held, the manifest of the staged files,
    /// `removes` and the journal lines is written atomically; then the change is carried out.
    /// Battle records are renamed last: a record saying "applied" is never seen before the
    /// state it speaks of, even by a reader that does not recover.
    pub(super) fn commit(
        mut self,
        removes: Vec<String>,
        journal: Vec<(u64, String)>,
        operation: Option<String>,
        lock: &CampaignLock,
    ) -> Result<()> {
        let dir = self.dir;
        let mut files = std::mem::take(&mut self.files);
        files.sort_by(|a, b| rename_order(&a.target).cmp(&rename_order(&b.target)));
        let journal_len = std::fs::metadata(dir.path(JOURNAL)).ok().map(|m| m.len());
        let mut manifest = Manifest {
            moves: Vec::with_capacity(files.len()),
            removes,
            journal,
            operation,
            staging: self.rel.clone(),
            after: Vec::with_capacity(files.len()),
            before: Vec::with_capacity(files.len()),
            journal_len,
        };
        for f in files {
            manifest.moves.push((f.name, f.target));
            manifest.after.push(f.after);
            manifest.before.push(f.before);
        }
        let json = serde_json::to_vec(&manifest).map_err(|e| Error::Other(e.to_string()))?;
        crash_point("before-manifest");
        pause_point("before-manifest");
        lock.verify().and_then(|()| atomic_write(&dir.path(MANIFEST), &json))?;
        self.committed = true;
        dir.carry_out(&manifest, journal_len)
    }
}

impl Drop for Staging<'_> {
    fn drop(&mut self) {
        if !self.committed {
            let _ = std::fs::remove_dir_all(&self.path);
            let _ = std::fs::remove_dir(self.dir.path(WORK_DIR));
        }
    }
}

#[cfg(test)]
impl Staging<'_> {
    /// The SHA-256 recorded as what `target` held before the change.
    pub(super) fn before_of(&self, target: &str) -> Option<&str> {
        self.files.iter().find(|f| f.target == target).map(|f| f.before.as_str())
    }
}

/// The name of the `k`th staged file in the staging folder.
fn staged_name(k: usize) -> String {
    format!("{k:06}")
}

/// Where a staged file comes in the renames: battle records last, the rest by path.
fn rename_order(target: &str) -> (bool, &str) {
    (target.starts_with("battles/"), target)
}

fn write_synced(path: &std::path::Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write as _;
    let mut f = std::fs::File::create(path).map_err(|e| Error::io(path, e))?;
    f.write_all(bytes).map_err(|e| Error::io(path, e))?;
    f.sync_all().map_err(|e| Error::io(path, e))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn battle_records_are_renamed_last_whenever_they_were_staged() {
        let mut staged = ["battles/T20-18.28.json", "turns/T21/report.md", "forces.csv", "briefings/x.md"];
        staged.sort_by(|a, b| rename_order(a).cmp(&rename_order(b)));
        assert_eq!(staged, ["briefings/x.md", "forces.csv", "turns/T21/report.md", "battles/T20-18.28.json"]);
    }
}
