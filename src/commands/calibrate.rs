//! `calibrate`: a tiny battle that settles, on the umpire's own install, what no public file
//! shows (sow-formats.md §7), written with the umpire's one-page instruction and the record
//! `inspect` matches the game's files against (`ops::calibrate`).

use std::path::Path;

use anyhow::Result;

use crate::ops::calibrate::CalibrateRequest;
use crate::store::CampaignDir;

/// Runs `calibrate`.
pub fn run(dir: &CampaignDir, out: Option<&Path>, profile: Option<&str>) -> Result<()> {
    let req = CalibrateRequest { out: out.map(Path::to_path_buf), profile: profile.map(str::to_string) };
    let c = crate::ops::calibrate::calibrate(dir, &req)?;
    crate::outln!("{}", c.instructions.display());
    crate::errout!("{}", crate::formats::report::calibrate::written(&c));
    Ok(())
}
