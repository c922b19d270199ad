//! `vocab init`: a starting vocabulary chosen from the umpire's own install, for a NapMod
//! whose ids are not public. Every row of the current vocabulary keeps its key (nation ×
//! level × arm), so export finds the same rows; an id the install already defines (with a
//! fitting unit type) is kept; otherwise the best-scoring candidate is chosen by the class's
//! `Type` and by the words in the ids, and the comment says how and names the runners-up,
//! for the umpire to review. A row that borrows another nation's ids (its comment starts
//! `borrowed from`) takes the install's own class or weapon for its nation instead when the
//! install has one, and stays marked as borrowed when it has none.

use std::path::PathBuf;

use anyhow::Result;

use crate::error::Error;
use crate::formats::logistics::{FILES, Logistics};
use crate::formats::profile::load;
use crate::formats::vocabulary::{write_quality, write_vocabulary};
use crate::model::vocabulary::{ATTRIBUTE_TABLES, Vocabulary};
use crate::store::profile::profile_files;
use crate::store::replace::check_paths_replaceable;
use crate::store::{CampaignDir, atomic_write};

use super::{Install, Note, profile_name, read_install};
mod choose;
mod score;
#[cfg(test)]
mod tests;

use choose::init_entry;

/// How many rows kept their ids, had ids chosen, or found nothing fitting.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct InitReport {
    /// Rows whose every id was already in the install.
    pub kept: usize,
    /// Rows with at least one id chosen anew.
    pub chosen: usize,
    /// Rows with an id the install has no candidate for.
    pub unresolved: usize,
    /// Quality values lowered into the install's attribute tables.
    pub clamped: usize,
}

/// `vocab init`: the install, and where to write.
#[derive(Debug, Clone, Default)]
pub struct InitRequest {
    /// The install and the vocabulary whose rows to fill.
    pub install: Install,
    /// Folder to write into (default: the campaign's `templates/<profile>/`).
    pub out: Option<PathBuf>,
    /// Overwrite existing files.
    pub force: bool,
}

/// What `vocab init` wrote.
#[derive(Debug)]
pub struct InitOutcome {
    /// The folder written into.
    pub target: PathBuf,
    /// The vocabulary written.
    pub vocabulary: Vocabulary,
    /// How its rows were filled.
    pub report: InitReport,
}

/// `vocab init`: writes `vocabulary.csv`, `quality.csv` and `profile.toml` of a starting
/// vocabulary chosen from the install, refusing to overwrite them without `force`.
pub fn init(dir: &CampaignDir, req: &InitRequest, note: &mut dyn FnMut(Note)) -> Result<InitOutcome> {
    let name = profile_name(dir, &req.install, note)?;
    let files = profile_files(dir, &name)?;
    let (_, current) =
        load(&files.label, &files.profile, &files.vocabulary, &files.quality).map_err(Error::Rejected)?;
    let (l, problems) = read_install(&req.install)?;
    if FILES.iter().any(|f| !l.files.contains_key(*f)) {
        return Err(Error::Rejected(problems).into());
    }
    if !problems.is_empty() {
        note(Note::InstallWarnings(problems));
    }
    let target = match &req.out {
        Some(o) => o.clone(),
        None if dir.root().is_dir() => dir.path(&format!("templates/{name}")),
        None => {
            return Err(Error::refused(format!(
                "{}: no campaign folder to write templates/{name}/ into (give --campaign or --out DIR)",
                dir.root().display()
            ))
            .into());
        }
    };
    let outputs = ["vocabulary.csv", "quality.csv", "profile.toml"];
    let existing: Vec<String> = outputs
        .iter()
        .map(|n| target.join(n))
        .filter(|p| p.exists())
        .map(|p| p.display().to_string())
        .collect();
    if !existing.is_empty() && !req.force {
        return Err(Error::refused(format!(
            "{} already exist: give --force to overwrite",
            existing.join(", ")
        ))
        .into());
    }
    // A vocabulary open in Excel stops the command before any of the three is replaced.
    check_paths_replaceable(&outputs.map(|n| target.join(n)))?;
    let (v, report) = init_vocabulary(&current, &l, &plain(&req.install.dir.display().to_string()));
    atomic_write(&target.join("vocabulary.csv"), &write_vocabulary(&v))?;
    atomic_write(&target.join("quality.csv"), &write_quality(&v))?;
    atomic_write(&target.join("profile.toml"), files.profile.as_bytes())?;
    Ok(InitOutcome { target, vocabulary: v, report })
}

/// Text safe for a vocabulary field: no commas or quotes.
fn plain(s: &str) -> String {
    s.replace([',', '"'], " ")
}

/// A vocabulary with the same rows as `current`, its class, drill and weapon ids taken from
/// the install, and its quality levels lowered into the install's attribute tables. `origin`
/// names the install in the comments. Deterministic: candidates are ranked by score, then id.
pub fn init_vocabulary(current: &Vocabulary, l: &Logistics, origin: &str) -> (Vocabulary, InitReport) {
    let mut report = InitReport::default();
    let entries =
        current.entries.iter().map(|e| init_entry(e, l, origin, &current.source, &mut report)).collect();
    let mut qualities = current.qualities.clone();
    for q in &mut qualities {
        for (i, value) in q.values.iter_mut().enumerate() {
            if let (Some(v), Some(t)) = (value.as_mut(), l.attribute(ATTRIBUTE_TABLES[i]))
                && u32::from(*v) >= t.levels
            {
                *v = u8::try_from(t.levels - 1).unwrap_or(u8::MAX);
                report.clamped += 1;
            }
        }
    }
    let v = Vocabulary { source: current.source.clone(), entries, qualities };
    (v, report)
}
