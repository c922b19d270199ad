//! What `inspect` prints: the calibration battles found, the report on each file, and the
//! profile settings the files show, as text for the umpire or JSON for scripts.

use std::fmt::Write as _;
use std::path::PathBuf;

use serde::Serialize;

use crate::formats::inspect::FileFacts;
use crate::model::calibration::CalibrationRecord;

/// One fact of the formats, held against a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The fact, as the formats' notes name it.
    pub fact: String,
    /// `confirmed`, `contradicted`, or `seen` (a fact the notes mark unknown, now seen).
    pub verdict: &'static str,
    /// What this file shows.
    pub detail: String,
}

/// The report on one file.
#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    /// The file.
    pub path: String,
    /// Its facts.
    pub facts: FileFacts,
    /// The battle it belongs to, with its state, when one was found.
    pub battle: Option<String>,
    /// How its units are named (dumps, `startlocs.csv`): by id, by name, by name with a player.
    pub naming: Option<String>,
    /// What `apply` would do with it.
    pub apply: Option<String>,
    /// What sowbridge's readers refuse in it.
    pub problems: Vec<String>,
    /// Facts of the formats it confirms or contradicts.
    pub findings: Vec<Finding>,
    /// For an OOB or scenario the engine dumped: the header it wrote, when it is of a
    /// calibration battle.
    #[serde(skip)]
    pub dumped_header: Option<String>,
}

/// A setting of the campaign's profile that the game's files show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Setting {
    /// The key of `profile.toml`.
    pub key: &'static str,
    /// Its value, as TOML writes it.
    pub value: String,
    /// What showed it.
    pub why: String,
}

/// What `inspect` found.
#[derive(Debug)]
pub struct Inspection {
    /// The calibration records found below the folders given, with their paths.
    pub records: Vec<(PathBuf, CalibrationRecord)>,
    /// The report on each file read.
    pub reports: Vec<FileReport>,
    /// The profile settings the files show.
    pub settings: Vec<Setting>,
    /// The profile written, relative to the campaign, when the settings were written.
    pub written: Option<String>,
    /// The campaign's profile, when the campaign loads.
    pub profile: Option<String>,
}

use serde_json::{Value, json};

/// `inspect --json`.
pub fn inspection_json(o: &Inspection) -> Value {
    json!({
        "calibration_battles": o.records.iter().map(|(p, r)| json!({"record": p.display().to_string(), "battle": r.battle})).collect::<Vec<_>>(),
        "files": o.reports,
        "settings": o.settings,
        "written": o.written,
    })
}

/// The inspection for the umpire (stdout).
pub fn inspection_text(o: &Inspection) -> String {
    let mut s = String::new();
    for (p, r) in &o.records {
        let _ = writeln!(
            s,
            "calibration battle {} ({} rows, profile {}): {}",
            r.battle,
            r.chains.len(),
            r.profile,
            p.display()
        );
    }
    for r in &o.reports {
        s.push_str(&render(r));
    }
    if o.reports.is_empty() && !o.records.is_empty() {
        let _ = writeln!(
            s,
            "no file the game wrote is here yet: play the calibration battle, then bring its dumps, \
             startlocs.csv and dumped OOB and scenario back into this folder (CALIBRATION.txt says how)"
        );
    } else if o.reports.is_empty() {
        let _ = writeln!(
            s,
            "no CSV or text file directly in the folders given: give the SoW Work folder, or the files"
        );
    }
    if !o.settings.is_empty() {
        let _ = writeln!(s, "\nsettings the files show for profile {}:", o.profile.as_deref().unwrap_or("?"));
        for x in &o.settings {
            let _ = writeln!(s, "  {} = {}   ({})", x.key, x.value, x.why);
        }
    }
    s
}

/// Where the settings the files show went, or how to write them (stderr); nothing when the
/// files show none.
pub fn settings_line(o: &Inspection) -> Option<String> {
    if o.settings.is_empty() {
        return None;
    }
    Some(match &o.written {
        Some(rel) => format!("wrote them into {rel}"),
        None => {
            "inspect --write writes them into the campaign's templates/<profile>/profile.toml".to_string()
        }
    })
}

/// The report on one file, for people.
fn render(r: &FileReport) -> String {
    let f = &r.facts;
    let mut s = String::new();
    let _ = writeln!(s, "\n{}: {}", r.path, f.kind.label());
    let _ = writeln!(
        s,
        "  {} lines, {}, {} line ends{}",
        f.lines,
        f.encoding,
        f.line_ends.label(),
        if f.ends_with_line_end { "" } else { "; the last line has no line end (still being written?)" }
    );
    for l in &f.preamble {
        let _ = writeln!(s, "  preamble: {l:?}");
    }
    if let Some(h) = &f.header {
        let _ = writeln!(s, "  header: {h}");
    }
    if !f.fields_per_row.is_empty() {
        let _ = writeln!(s, "  fields per row: {:?}", f.fields_per_row);
    }
    for (label, v) in [("battle", &r.battle), ("units named", &r.naming), ("apply would", &r.apply)] {
        if let Some(v) = v {
            let _ = writeln!(s, "  {label}: {v}");
        }
    }
    for p in &r.problems {
        let _ = writeln!(s, "  refused: {p}");
    }
    for x in &r.findings {
        let _ = writeln!(s, "  [{}] {}: {}", x.verdict, x.fact, x.detail);
    }
    s
}
