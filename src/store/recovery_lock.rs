//! Finishing, before any command runs, a change an interrupted command committed.

use crate::error::Result;

use super::recover::Finished;
use super::{CampaignDir, CampaignLock};

impl CampaignDir {
    /// When an interrupted command left a committed change, takes the campaign lock (waiting
    /// up to a minute for another sowbridge command to finish) and finishes it, saying which
    /// change was finished. `None` when there was nothing to finish.
    pub fn finish_unfinished_change(&self) -> Result<Option<Finished>> {
        if !self.has_unfinished_change() {
            return Ok(None);
        }
        let lock = CampaignLock::acquire(self, std::time::Duration::from_secs(60))?;
        self.recover_change(&lock)
    }
}
