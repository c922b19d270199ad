//! `inspect FILE|DIR…`: what sowbridge understands of the files the game wrote, and what it
//! does not (`ops::inspect`). Nothing is changed unless `--write` asks for the profile
//! settings the files show.

use std::path::PathBuf;

use anyhow::Result;

use crate::formats::report::inspect as report;
use crate::ops::inspect::InspectRequest;
use crate::store::CampaignDir;

/// Runs `inspect`; with `write`, the settings the files show go into the campaign's own
/// `templates/<profile>/profile.toml`.
pub fn run(dir: &CampaignDir, paths: &[PathBuf], json: bool, write: bool) -> Result<()> {
    let req = InspectRequest { paths: paths.to_vec(), write };
    let o = crate::ops::inspect::inspect(dir, &req)?;
    if json {
        return super::print_json(&report::inspection_json(&o));
    }
    crate::out!("{}", report::inspection_text(&o));
    if let Some(line) = report::settings_line(&o) {
        crate::errln!("{line}");
    }
    Ok(())
}
