//! `inspect FILE|DIR…`: what sowbridge understands of the files the game wrote, and what it
//! does not (`ops::inspect`). Nothing is changed unless `--write` asks for the profile
//! settings the files show.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::commands::apply::matching::{listed_in, naming, recognised_in};
use crate::commands::apply::{ApplyRequest, apply_result};
use crate::formats::report::inspect as report;
use crate::ops::inspect::{ApplyPreview, InspectRequest, Peers};
use crate::store::CampaignDir;

/// What inspect asks of `apply` and the watcher.
const PEERS: Peers =
    Peers { recognised_in, naming, listed_in, glob_match: crate::commands::watch::glob_match, would_apply };

/// `apply --dry-run` of a file: what it would do, or the refusal in words.
fn would_apply(dir: &CampaignDir, f: &Path) -> std::result::Result<ApplyPreview, String> {
    let req = ApplyRequest { path: f.to_path_buf(), dry_run: true, ..ApplyRequest::default() };
    match apply_result(dir, &req) {
        Ok(a) => Ok(ApplyPreview {
            battle: a.battle,
            journal_seq: a.journal_seq,
            winner: a.winner,
            evidence: a.evidence,
        }),
        Err(e) => Err(e.to_string()),
    }
}

/// Runs `inspect`; with `write`, the settings the files show go into the campaign's own
/// `templates/<profile>/profile.toml`.
pub fn run(dir: &CampaignDir, paths: &[PathBuf], json: bool, write: bool) -> Result<()> {
    let req = InspectRequest { paths: paths.to_vec(), write, peers: PEERS };
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
