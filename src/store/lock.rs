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
}

impl CampaignLock {
    /// Takes the lock, waiting up to `wait` for another sowbridge process to finish.
    pub fn acquire(dir: &CampaignDir, wait: Duration) -> Result<CampaignLock> {
        let path = dir.path(LOCK_FILE);
        let file = OpenOptions::new()
            .create(true)
            .truncate(false)
            .read(true)
            .write(true)
            .open(&path)
            .map_err(|e| Error::io(&path, e))?;
        let start = Instant::now();
        let mut told = false;
        loop {
            match file.try_lock() {
                Ok(()) => return Ok(CampaignLock { file }),
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
}

impl Drop for CampaignLock {
    fn drop(&mut self) {
        let _ = self.file.unlock();
    }
}
