//! The sidecar `campaign.lock` that serialises every command that writes the campaign
//! (`export`, `apply`, `watch` while applying, `undo`, `turn`). An OS file lock, so a crashed
//! process never leaves a stale lock behind.

use std::fs::{File, OpenOptions, TryLockError};
use std::time::{Duration, Instant};

use crate::error::{Error, Result};

use super::CampaignDir;

/// Name of the lock file in the campaign folder.
pub const LOCK_FILE: &str = "campaign.lock";

/// Held while a command writes the campaign; released on drop.
#[derive(Debug)]
pub struct CampaignLock {
    file: File,
    path: std::path::PathBuf,
}

impl CampaignLock {
    /// Takes the lock, waiting up to `wait` for another sowbridge process to finish. The lock
    /// taken is the file at the lock's path: a lock file removed (a clean-up script, `git
    /// clean -X`, a sync client) between opening and locking is opened again.
    pub fn acquire(dir: &CampaignDir, wait: Duration) -> Result<CampaignLock> {
        let path = dir.path(LOCK_FILE);
        let start = Instant::now();
        let mut told = false;
        loop {
            let file = open_lock_file(&path).map_err(|e| Error::io(&path, e))?;
            match file.try_lock() {
                Ok(()) => {
                    let lock = CampaignLock { file, path: path.clone() };
                    if lock.is_at_its_path() {
                        return Ok(lock);
                    }
                    // Locked a file that was removed meanwhile: lock the one at the path.
                    if start.elapsed() >= wait {
                        return Err(Error::Other(format!(
                            "{}: the lock file keeps being removed or replaced; nothing changed",
                            path.display()
                        )));
                    }
                }
                Err(TryLockError::WouldBlock) => {
                    if start.elapsed() >= wait {
                        return Err(Error::Other(format!(
                            "{}: another sowbridge command holds the campaign lock; try again when it is done",
                            path.display()
                        )));
                    }
                    if !told && start.elapsed() > Duration::from_millis(500) {
                        crate::errln!("waiting for another sowbridge command to release {}", path.display());
                        told = true;
                    }
                    std::thread::sleep(Duration::from_millis(25));
                }
                Err(TryLockError::Error(e)) => return Err(Error::io(&path, e)),
            }
        }
    }

    /// Proves the lock still excludes every other sowbridge command: the file locked is still
    /// the file at the lock's path. A lock file removed or replaced while the command ran
    /// let another command take a lock of its own; the change is refused before its commit
    /// point, so nothing changes.
    pub fn verify(&self) -> Result<()> {
        if self.is_at_its_path() {
            return Ok(());
        }
        Err(Error::Other(format!(
            "{}: the campaign lock was removed or replaced while this command ran (a clean-up script, \
             `git clean`, a sync client?), so another sowbridge command may have changed the campaign \
             meanwhile; nothing changed: run the command again (and keep campaign.lock out of clean-ups)",
            self.path.display()
        )))
    }

    /// True when the file locked is the file at the lock's path.
    #[cfg(unix)]
    fn is_at_its_path(&self) -> bool {
        use std::os::unix::fs::MetadataExt;
        match (self.file.metadata(), std::fs::metadata(&self.path)) {
            (Ok(held), Ok(there)) => held.dev() == there.dev() && held.ino() == there.ino(),
            _ => false,
        }
    }

    /// True when the file locked is the file at the lock's path. On Windows the lock file is
    /// opened without delete sharing, so that nothing removes or renames it while it is held;
    /// it is still there.
    #[cfg(not(unix))]
    fn is_at_its_path(&self) -> bool {
        self.path.is_file()
    }
}

/// Opens (creating) the lock file for locking.
#[cfg(windows)]
fn open_lock_file(path: &std::path::Path) -> std::io::Result<File> {
    use std::os::windows::fs::OpenOptionsExt;
    // Read and write sharing, not delete: the lock file cannot be removed or replaced while
    // any sowbridge command holds it open.
    const FILE_SHARE_READ_WRITE: u32 = 0x1 | 0x2;
    OpenOptions::new()
        .create(true)
        .truncate(false)
        .read(true)
        .write(true)
        .share_mode(FILE_SHARE_READ_WRITE)
        .open(path)
}

/// Opens (creating) the lock file for locking.
#[cfg(not(windows))]
fn open_lock_file(path: &std::path::Path) -> std::io::Result<File> {
    OpenOptions::new().create(true).truncate(false).read(true).write(true).open(path)
}

impl Drop for CampaignLock {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}
