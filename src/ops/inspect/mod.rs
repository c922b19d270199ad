//! `inspect FILE|DIR…`: what sowbridge understands of the files the game wrote — a dump,
//! `startlocs.csv`, the OOB and scenario `dumpoobscen`/`dumpscen` wrote, or a whole `Work`
//! folder — and what it does not: each file's facts, the battle (pending, applied or
//! calibration) it belongs to, what `apply` would do with it, and every fact of the SoW
//! formats it confirms or contradicts, by name. Nothing is changed but, when asked, the
//! campaign's own profile; an unknown layout or `Status` value is a finding, never a failure.

mod file;
mod names;

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::formats::inspect::FileKind;
use crate::formats::profile::{Profile, parse_profile};
use crate::model::battle::{BattleRecord, ChainEntry};
use crate::ops::calibrate::{CalibrationRecord, RECORD};
use crate::ops::watch::glob_match;
use crate::store::{CampaignDir, read_optional};

pub use crate::formats::report::inspect::{FileReport, Finding, Inspection, Setting};

/// What the files show of the profile's switches: whether the engine's own OOB has the
/// `OOBMOD` column, and how the install names its battle dumps. Only what differs from the
/// profile in use is a setting to make.
pub fn learned(reports: &[FileReport], profile: &Profile) -> Vec<Setting> {
    let mut out = Vec::new();
    for r in reports {
        if let (FileKind::Oob, Some(h)) = (r.facts.kind, &r.dumped_header) {
            let has = h.split(',').any(|c| c.trim().eq_ignore_ascii_case("OOBMOD"));
            if has != profile.oobmod_column && !out.iter().any(|s: &Setting| s.key == "oobmod_column") {
                out.push(Setting {
                    key: "oobmod_column",
                    value: has.to_string(),
                    why: format!(
                        "the OOB the engine dumped ({}) {} an OOBMOD column",
                        r.path,
                        if has { "has" } else { "has no" }
                    ),
                });
            }
        }
        let name =
            Path::new(&r.path).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let lower = name.to_ascii_lowercase();
        if r.facts.kind == FileKind::GameDump
            && !glob_match(&profile.gamedb_pattern, &name)
            && let Some(at) = lower.find("_gamedb_")
            && lower.ends_with(".csv")
            && !out.iter().any(|s: &Setting| s.key == "gamedb_pattern")
        {
            out.push(Setting {
                key: "gamedb_pattern",
                value: format!("\"{}_gamedb_*.csv\"", &name[..at]),
                why: format!("the install names its dumps like {name}, not {}", profile.gamedb_pattern),
            });
        }
    }
    out
}

/// `profile.toml` with each setting's line replaced (or added at the end).
pub fn with_settings(profile_toml: &str, settings: &[Setting]) -> String {
    let mut lines: Vec<String> = profile_toml.lines().map(str::to_string).collect();
    for s in settings {
        let line = format!("{} = {}", s.key, s.value);
        let found = lines.iter().position(|l| l.split('=').next().is_some_and(|k| k.trim() == s.key));
        match found {
            Some(i) => lines[i] = line,
            None => lines.push(line),
        }
    }
    lines.join("\n") + "\n"
}

/// `inspect`: the files and folders to read, and whether to write the settings they show.
#[derive(Debug, Clone)]
pub struct InspectRequest {
    /// Files or folders to read.
    pub paths: Vec<PathBuf>,
    /// Write the profile settings the files show into the campaign's own
    /// `templates/<profile>/profile.toml`.
    pub write: bool,
}

/// A battle a file may belong to: a campaign battle or a calibration battle.
struct Known<'a> {
    label: String,
    chains: &'a [ChainEntry],
    battle: Option<&'a BattleRecord>,
}

fn finding(fact: &str, ok: bool, detail: impl Into<String>) -> Finding {
    Finding {
        fact: fact.to_string(),
        verdict: if ok { "confirmed" } else { "contradicted" },
        detail: detail.into(),
    }
}

fn seen(fact: &str, detail: impl Into<String>) -> Finding {
    Finding { fact: fact.to_string(), verdict: "seen", detail: detail.into() }
}

/// The files to read: each file given, the files directly in each folder given, and the
/// calibration records below them (`Scenarios/*/sowbridge-calibration.json`).
fn expand(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<(PathBuf, CalibrationRecord)>) {
    let mut files = Vec::new();
    let mut records = Vec::new();
    for p in paths {
        if p.is_dir() {
            for e in
                walkdir::WalkDir::new(p).max_depth(4).sort_by_file_name().into_iter().filter_map(|e| e.ok())
            {
                if !e.file_type().is_file() {
                    continue;
                }
                let name = e.file_name().to_string_lossy().to_ascii_lowercase();
                if name == RECORD {
                    if let Ok(Some(b)) = read_optional(e.path())
                        && let Ok(r) = serde_json::from_slice::<CalibrationRecord>(&b)
                    {
                        records.push((e.path().to_path_buf(), r));
                    }
                } else if (e.depth() == 1
                    && (name.ends_with(".csv") || name.ends_with(".txt") || name.ends_with(".xml")))
                    || (e.depth() == 4 && name == "oobnames.xml")
                {
                    // The game's files, and the names file of Layout/Media/Language.
                    files.push(e.path().to_path_buf());
                }
            }
        } else {
            files.push(p.clone());
        }
    }
    (files, records)
}

/// `inspect`: reads each file given and the files directly in each folder given, says what
/// each is and which battle it belongs to, and gathers the profile settings they show; with
/// `write`, those settings go into the campaign's own `templates/<profile>/profile.toml`.
pub fn inspect(dir: &CampaignDir, req: &InspectRequest) -> Result<Inspection> {
    let absent: Vec<String> =
        req.paths.iter().filter(|p| !p.exists()).map(|p| p.display().to_string()).collect();
    if !absent.is_empty() {
        return Err(crate::error::Error::refused(format!(
            "inspect: no such file or folder: {}",
            absent.join(", ")
        ))
        .into());
    }
    let (files, records) = expand(&req.paths);
    let battles = dir.battles().unwrap_or_default();
    // The campaign is loaded once: its profile, and whether `apply` could run at all.
    let profile_name = dir.load().ok().map(|c| c.config.profile);
    let campaign_ok = profile_name.is_some();
    let mut known: Vec<Known<'_>> = battles
        .iter()
        .map(|b| Known {
            label: format!("battle {} ({})", b.id, b.state.word()),
            chains: &b.chains,
            battle: Some(b),
        })
        .collect();
    known.extend(records.iter().map(|(_, r)| Known {
        label: format!("calibration battle {}", r.battle),
        chains: &r.chains,
        battle: None,
    }));
    let seen_by = file::Inspector { dir, known: &known, records: &records, campaign_ok };
    let reports: Vec<FileReport> = files.iter().map(|f| seen_by.read(f)).collect();
    let parsed = profile_name.as_ref().and_then(|n| campaign_profile(dir, n));
    let settings = parsed.as_ref().map_or_else(Vec::new, |(_, _, p)| settings(&files, &reports, p));
    let mut written = None;
    if req.write {
        let Some((name, text, _)) = &parsed else {
            return Err(crate::error::Error::refused("inspect --write: the campaign does not load, so its profile is unknown; run `sowbridge check`").into());
        };
        if !settings.is_empty() {
            written = Some(write_settings(dir, name, text, &settings)?);
        }
    }
    Ok(Inspection { records, reports, settings, written, profile: profile_name })
}

/// The campaign's profile: its name, its `profile.toml` as written, and parsed; none when
/// either fails.
fn campaign_profile(dir: &CampaignDir, name: &str) -> Option<(String, String, Profile)> {
    let f = crate::store::profile::profile_files(dir, name).ok()?;
    parse_profile(name, &f.profile).ok().map(|p| (name.to_string(), f.profile.clone(), p))
}

/// The settings the files show against the profile: the engine's OOB and dump names
/// ([`learned`]), then the second-name suffix of the game's own names files.
fn settings(files: &[PathBuf], reports: &[FileReport], p: &Profile) -> Vec<Setting> {
    let mut settings = learned(reports, p);
    for (f, r) in files.iter().zip(reports).filter(|(_, r)| r.facts.kind == FileKind::Names) {
        if let Ok(Some(b)) = read_optional(f)
            && let Some(s) = names::learned_suffix(r, &b, p)
            && !settings.iter().any(|x| x.key == s.key)
        {
            settings.push(s);
        }
    }
    settings
}

/// Writes the settings into the campaign's `templates/<name>/profile.toml` under the
/// campaign lock; the file written, relative to the campaign.
fn write_settings(dir: &CampaignDir, name: &str, text: &str, settings: &[Setting]) -> Result<String> {
    let rel = format!("templates/{name}/profile.toml");
    let _lock = dir.lock_for_change()?;
    crate::store::atomic_write(&dir.path(&rel), with_settings(text, settings).as_bytes())?;
    Ok(rel)
}
