//! The only code that touches the campaign folder. Reads the files into a validated
//! [`Campaign`]; writes state atomically and all-or-nothing through a redo log under a
//! sidecar lock, so that a crash at any point leaves either the old or the new state.

pub mod battles;
pub mod commit;
pub mod files;
pub mod forces;
pub mod journal;
mod journal_queries;
mod journal_turn;
pub mod lock;
pub mod logistics;
pub mod profile;
pub mod recover;
mod recovery_lock;
pub mod replace;
pub mod results;
mod staging;
pub mod state;

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::formats::campaign::{CampaignFiles, names, parse_campaign};
use crate::model::Campaign;

pub use commit::Commit;
pub use lock::CampaignLock;

/// A campaign folder on disk.
#[derive(Debug, Clone)]
pub struct CampaignDir {
    root: PathBuf,
}

/// `base` joined with a relative `/`-separated path one component at a time, so that the
/// result is written as the platform writes paths (`C:\Games\SOWGB\Work\OOBs\T20-18.28.csv`,
/// never `…\Work\OOBs/T20-18.28.csv`).
pub fn join_rel(base: &Path, rel: &str) -> PathBuf {
    rel.split('/').filter(|part| !part.is_empty()).fold(base.to_path_buf(), |p, part| p.join(part))
}

/// Reads a file, `None` when it does not exist.
pub fn read_optional(path: &Path) -> Result<Option<Vec<u8>>> {
    match std::fs::read(path) {
        Ok(b) => Ok(Some(b)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(Error::io(path, e)),
    }
}

/// True when nothing stands at `path`, or an empty folder does: a place a new folder of
/// files may be written to without replacing anything.
pub fn free_for_new_folder(path: &Path) -> bool {
    match std::fs::read_dir(path) {
        Ok(mut entries) => entries.next().is_none(),
        Err(_) => !path.exists(),
    }
}

/// Writes a file atomically: a temporary file in the same folder, flushed to disk, renamed
/// over the target. Parent folders are created.
pub fn atomic_write(path: &Path, bytes: &[u8]) -> Result<()> {
    use std::io::Write;
    let dir = path.parent().unwrap_or_else(|| Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let tmp = dir.join(format!(".{name}.tmp-{}", std::process::id()));
    let res = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(bytes)?;
        f.sync_all()?;
        drop(f);
        std::fs::rename(&tmp, path)
    })();
    res.map_err(|e| {
        let _ = std::fs::remove_file(&tmp);
        Error::io(path, e)
    })
}

/// [`atomic_write`] of each file, each on a thread of its own (their syncs wait on the disk
/// together, not one after another). Every file is tried; the first failure, in the files'
/// order, is returned.
pub fn atomic_write_all(files: &[(&Path, &[u8])]) -> Result<()> {
    all_at_once(files.iter().map(|&(path, bytes)| move || atomic_write(path, bytes)))
}

/// Runs each job on a thread of its own and waits for all of them; the first failure, in the
/// jobs' order, is returned.
fn all_at_once<J: FnOnce() -> Result<()> + Send>(jobs: impl IntoIterator<Item = J>) -> Result<()> {
    std::thread::scope(|s| {
        let running: Vec<_> = jobs.into_iter().map(|job| s.spawn(job)).collect();
        let done: Vec<Result<()>> = running
            .into_iter()
            .map(|r| r.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)))
            .collect();
        done.into_iter().collect()
    })
}

impl CampaignDir {
    /// A campaign folder at `root`.
    pub fn new(root: impl Into<PathBuf>) -> Self {
        CampaignDir { root: root.into() }
    }

    /// The folder.
    pub fn root(&self) -> &Path {
        &self.root
    }

    /// A path inside the folder (`/`-separated relative name).
    pub fn path(&self, rel: &str) -> PathBuf {
        join_rel(&self.root, rel)
    }

    /// Reads a file of the folder, `None` when absent.
    pub fn read(&self, rel: &str) -> Result<Option<Vec<u8>>> {
        read_optional(&self.path(rel))
    }

    /// Reads the raw campaign files.
    pub fn read_files(&self) -> Result<CampaignFiles> {
        if !self.root.is_dir() {
            return Err(Error::refused(format!(
                "{}: no campaign folder here (set --campaign DIR or SOWBRIDGE_CAMPAIGN)",
                self.root.display()
            )));
        }
        let mut files = CampaignFiles::default();
        for name in names::ALL {
            // The order of battle is read as it is parsed, not held whole.
            if name == names::FORCES {
                let path = self.path(name);
                match std::fs::metadata(&path) {
                    Ok(m) if m.is_file() => files.forces_path = Some(path),
                    Ok(_) => return Err(Error::io(&path, std::io::Error::other("not a file"))),
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => return Err(Error::io(&path, e)),
                }
                continue;
            }
            if let Some(b) = self.read(name)? {
                files.files.insert(name, b);
            }
        }
        Ok(files)
    }

    /// Takes the campaign lock for a change (waiting up to a minute for another sowbridge
    /// command to finish) and finishes first any change an interrupted command committed: the
    /// one way a use case begins to write. Only the store takes the lock.
    pub fn lock_for_change(&self) -> Result<CampaignLock> {
        let lock = CampaignLock::acquire(self, std::time::Duration::from_secs(60))?;
        self.recover(&lock)?;
        Ok(lock)
    }

    /// [`Self::lock_for_change`] waiting at most `wait` (the watcher's short waits between
    /// files), with whether a change an interrupted command committed was finished.
    pub fn lock_for_change_within(&self, wait: std::time::Duration) -> Result<(CampaignLock, bool)> {
        let lock = CampaignLock::acquire(self, wait)?;
        let finished = self.recover(&lock)?;
        Ok((lock, finished))
    }

    /// [`Self::lock_for_change`], or no lock for a dry run, which writes nothing.
    pub fn lock_unless_dry_run(&self, dry_run: bool) -> Result<Option<CampaignLock>> {
        if dry_run { Ok(None) } else { self.lock_for_change().map(Some) }
    }

    /// Loads and validates the campaign; every problem is reported at once.
    pub fn load(&self) -> Result<Campaign> {
        let files = self.read_files()?;
        parse_campaign(&files).map_err(Error::Rejected)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_relative_path_is_joined_with_the_platform_separator() {
        let p = join_rel(Path::new("Work"), "OOBs/T20-18.28.csv");
        assert_eq!(p, Path::new("Work").join("OOBs").join("T20-18.28.csv"));
        let sep = std::path::MAIN_SEPARATOR;
        assert_eq!(p.display().to_string(), format!("Work{sep}OOBs{sep}T20-18.28.csv"));
    }

    #[test]
    fn files_written_together_are_each_written_whole_and_the_first_failure_named() {
        let tmp = tempfile::tempdir().expect("tempdir");
        // A plain file where a folder should be: the files under it cannot be written.
        for f in ["blocked1", "blocked2"] {
            std::fs::write(tmp.path().join(f), b"x").expect("write");
        }
        let (a, b) = (tmp.path().join("OOBs/a.csv"), tmp.path().join("Scenarios/b.ini"));
        let (bad1, bad2) = (tmp.path().join("blocked1/c.csv"), tmp.path().join("blocked2/d.csv"));
        let big = vec![b'7'; 3 << 20];
        let files: Vec<(&Path, &[u8])> = vec![(&a, b"one\r\n"), (&bad1, b"c"), (&b, &big), (&bad2, b"d")];
        let err = atomic_write_all(&files).unwrap_err().to_string();
        assert!(err.contains("blocked1") && !err.contains("blocked2"), "{err}");
        // Every other file was written whole, with no temporary file left beside it.
        assert_eq!(std::fs::read(&a).expect("a"), b"one\r\n");
        assert_eq!(std::fs::read(&b).expect("b"), big);
        for dir in ["OOBs", "Scenarios"] {
            let names: Vec<_> = std::fs::read_dir(tmp.path().join(dir))
                .expect("dir")
                .map(|e| e.expect("entry").file_name())
                .collect();
            assert_eq!(names.len(), 1, "{names:?}");
        }
        assert!(atomic_write_all(&[(&a, b"two")]).is_ok());
        assert_eq!(std::fs::read(&a).expect("a"), b"two");
    }
}
