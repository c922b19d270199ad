//! What `vocab check` and `vocab init` tell the umpire: the notes on their way, the names
//! file read, the findings as JSON, and one line for a vocabulary the install accepts or a
//! vocabulary written.

use std::path::Path;

use serde_json::{Value, json};

use crate::ops::vocab::{CheckOutcome, InitOutcome, NamesCheck, Note};

/// A note on stderr, with its line end.
pub fn note(n: &Note) -> String {
    match n {
        Note::DefaultProfile { root } => format!(
            "note: no campaign.toml in {}: using profile napmod-g1 (give --profile or --campaign)\n",
            root.display()
        ),
        Note::InstallWarnings(problems) => format!("warning: the install's files have {problems}"),
    }
}

/// What the names file showed, for stderr (without its line end); nothing when the profile
/// writes no names file.
pub fn names_line(n: &NamesCheck) -> Option<String> {
    match n {
        NamesCheck::NotAsked => None,
        NamesCheck::NotFound { names_file } => Some(format!(
            "note: no {names_file} beside the folders given: which ids the game already names is not checked"
        )),
        NamesCheck::Read(n) => Some(format!(
            "names: {}: {} tags{}{}",
            n.file,
            n.tags,
            if n.bom { ", byte-order mark" } else { "" },
            n.not_xml
                .as_ref()
                .map_or(String::new(), |w| format!(", no well-formed XML ({w}): read tag by tag"))
        )),
    }
}

/// `vocab check --json`.
pub fn check_json(o: &CheckOutcome) -> Value {
    let names = match &o.names {
        NamesCheck::Read(n) => json!({
            "file": n.file, "tags": n.tags, "bom": n.bom, "not_xml": n.not_xml, "sowbridge_ids": n.sowbridge_ids,
        }),
        NamesCheck::NotAsked | NamesCheck::NotFound { .. } => Value::Null,
    };
    json!({
        "ok": o.problems.is_empty(),
        "vocabulary": o.vocabulary.source,
        "logistics": o.logistics.files,
        "names": names,
        "findings": o.problems.0,
    })
}

/// `vocab check` of a vocabulary the install accepts whole (`dir`: the install named).
pub fn check_passed(o: &CheckOutcome, dir: &Path) -> String {
    let (v, l) = (&o.vocabulary, &o.logistics);
    format!(
        "{}: all {} rows and {} quality rows are defined in {} ({} classes, {} drills, {} small arms, {} guns, {} attribute tables)",
        v.source,
        v.entries.len(),
        v.qualities.len(),
        dir.display(),
        l.classes.len(),
        l.drills.len(),
        l.rifles.len(),
        l.artillery.len(),
        l.attributes.len()
    )
}

/// `vocab init`'s line on what it wrote.
pub fn init_written(o: &InitOutcome) -> String {
    format!(
        "wrote {}: {} rows ({} kept, {} chosen, {} without a fitting id), {} quality values lowered into range; review the comment column",
        o.target.display(),
        o.vocabulary.entries.len(),
        o.report.kept,
        o.report.chosen,
        o.report.unresolved,
        o.report.clamped
    )
}
