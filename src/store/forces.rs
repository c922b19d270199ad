//! `forces.csv` read from the campaign folder as it is parsed: the order of battle is by far
//! the largest file of a campaign, and is never held whole. The parsing is
//! `formats::campaign`'s; opening the file is the store's.

use std::io::Read;
use std::path::Path;

use crate::error::Problems;
use crate::formats::campaign::{CampaignFiles, ForcesFile, parse_campaign_with};
use crate::model::Campaign;

/// `forces.csv` at a path of the campaign folder.
#[derive(Debug, Clone, Copy)]
pub struct ForcesAt<'p>(pub &'p Path);

impl ForcesFile for ForcesAt<'_> {
    fn place(&self) -> String {
        self.0.display().to_string()
    }

    fn open(&self) -> std::io::Result<(Box<dyn Read + Send + '_>, u64)> {
        let file = std::fs::File::open(self.0)?;
        let size = file.metadata()?.len();
        Ok((Box::new(file), size))
    }

    fn read_all(&self) -> std::io::Result<Vec<u8>> {
        std::fs::read(self.0)
    }

    fn size(&self) -> Option<u64> {
        std::fs::metadata(self.0).ok().map(|m| m.len())
    }
}

/// Parses and validates a whole campaign, reading `forces.csv` from `files.forces_path` when
/// `files` does not hold its bytes. Every problem is collected.
pub fn parse_campaign(files: &CampaignFiles) -> Result<Campaign, Problems> {
    let at = files.forces_path.as_deref().map(ForcesAt);
    parse_campaign_with(files, at.as_ref().map(|f| f as &dyn ForcesFile))
}
