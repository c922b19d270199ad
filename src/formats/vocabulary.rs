//! Reading and writing a profile's `vocabulary.csv` and `quality.csv`, and finding them:
//! the campaign's own copy under `templates/<profile>/` wins over the copy built into the
//! binary.

use crate::error::{Problem, Problems};
use crate::model::dialect::Dialect;
use crate::model::kinds::Quality;
use crate::model::vocabulary::{ATTRIBUTES, QualityEntry, SowLevel, VocabEntry, Vocabulary};

use super::table::{Fields, Table, write_csv};

/// Columns of `vocabulary.csv`.
pub const VOCAB_COLUMNS: [&str; 12] = [
    "nation",
    "level",
    "arm",
    "class",
    "portrait",
    "weapon",
    "ammo",
    "flag",
    "flag2",
    "formation",
    "verified",
    "comment",
];

/// Parses a vocabulary from the two files' bytes; `label` prefixes the file names.
pub fn parse_vocabulary(label: &str, vocab: &[u8], quality: &[u8]) -> Result<Vocabulary, Problems> {
    let mut p = Problems::default();
    let vfile = format!("{label}/vocabulary.csv");
    let qfile = format!("{label}/quality.csv");
    let vt = Table::parse(&vfile, vocab, &mut p);
    let mut entries: Vec<VocabEntry> = Vec::new();
    if vt.require(&["nation", "level", "arm", "class", "formation"], &mut p) {
        for row in &vt.rows {
            let mut f = Fields::new(&vt, row, &mut p);
            let nation = match f.text("nation") {
                "*" | "" => None,
                _ => f.opt("nation"),
            };
            let level: Option<SowLevel> = f.req("level");
            let arm = f.opt("arm");
            let ammo = f.count("ammo").unwrap_or(0);
            let verified = f.flag("verified");
            let text = |f: &Fields<'_>, c: &str| f.text(c).to_string();
            let Some(level) = level else { continue };
            if f.text("class").is_empty() {
                f.problem("class", "is empty");
            }
            if entries.iter().any(|e| e.nation == nation && e.level == level && e.arm == arm) {
                f.problem("level", "this nation, level and arm are listed twice");
                continue;
            }
            entries.push(VocabEntry {
                line: f.line(),
                nation,
                level,
                arm,
                class: text(&f, "class"),
                portrait: text(&f, "portrait"),
                weapon: text(&f, "weapon"),
                ammo,
                flag: text(&f, "flag"),
                flag2: text(&f, "flag2"),
                formation: text(&f, "formation"),
                verified,
                comment: text(&f, "comment"),
            });
        }
    }
    let qt = Table::parse(&qfile, quality, &mut p);
    let mut qualities: Vec<QualityEntry> = Vec::new();
    let mut req = vec!["quality", "level"];
    req.extend(ATTRIBUTES);
    if qt.require(&req, &mut p) {
        for row in &qt.rows {
            let mut f = Fields::new(&qt, row, &mut p);
            let quality: Option<Quality> = f.req("quality");
            let level = match f.text("level") {
                "*" | "" => None,
                _ => f.opt("level"),
            };
            let mut values = [None; 16];
            for (i, a) in ATTRIBUTES.iter().enumerate() {
                values[i] = f.count(*a).map(|v| v.min(255) as u8);
            }
            if let Some(quality) = quality {
                qualities.push(QualityEntry { line: f.line(), quality, level, values });
            }
        }
    }
    // Every quality must resolve at every level, or export would have to guess.
    let v = Vocabulary { source: label.to_string(), entries, qualities };
    for q in Quality::ALL {
        for l in SowLevel::ALL {
            if v.quality(*q, l).is_none() {
                p.push(Problem::in_file(
                    &qfile,
                    format!("no row for quality {q} at level {l} (nor level *)"),
                ));
            }
        }
    }
    if p.is_empty() { Ok(v) } else { Err(p) }
}

/// Writes `vocabulary.csv`.
pub fn write_vocabulary(v: &Vocabulary) -> Vec<u8> {
    write_csv(
        Dialect::default(),
        &VOCAB_COLUMNS,
        &[],
        v.entries.iter().map(|e| {
            vec![
                e.nation.map_or("*".to_string(), |n| n.to_string()),
                e.level.to_string(),
                e.arm.map(|a| a.to_string()).unwrap_or_default(),
                e.class.clone(),
                e.portrait.clone(),
                e.weapon.clone(),
                e.ammo.to_string(),
                e.flag.clone(),
                e.flag2.clone(),
                e.formation.clone(),
                if e.verified { "yes" } else { "no" }.to_string(),
                e.comment.clone(),
            ]
        }),
    )
}

/// Writes `quality.csv`.
pub fn write_quality(v: &Vocabulary) -> Vec<u8> {
    let mut head = vec!["quality", "level"];
    head.extend(ATTRIBUTES);
    write_csv(
        Dialect::default(),
        &head,
        &[],
        v.qualities.iter().map(|q| {
            let mut r = vec![q.quality.to_string(), q.level.map_or("*".to_string(), |l| l.to_string())];
            r.extend(q.values.iter().map(|x| x.map(|v| v.to_string()).unwrap_or_default()));
            r
        }),
    )
}
