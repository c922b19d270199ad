//! The install's Logistics files parsed into their ids, classes, drills and attribute
//! tables.

use std::collections::BTreeMap;

use crate::error::{Problem, Problems};
use crate::formats::text::decode;

use super::records::{raw_lines, records, skipped, split_fields};
use super::{AttributeTable, ClassDef, ClassType, FILES, IdDef, Logistics};

/// One file's bytes and the label its problems carry.
#[derive(Debug, Clone, Default)]
pub struct LogisticsFile {
    /// The path it was read from, for messages.
    pub label: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
}

/// The raw files of the install, by lower-case name; a missing file is absent.
#[derive(Debug, Clone, Default)]
pub struct LogisticsFiles {
    /// Files by name.
    pub files: BTreeMap<String, LogisticsFile>,
    /// Where they were looked for (for the message about a missing file).
    pub searched: Vec<String>,
}

fn parse_unitglobal(file: &str, text: &str, l: &mut Logistics, p: &mut Problems) {
    for r in records(text) {
        let id = r.field(0);
        if id.is_empty() {
            p.push(Problem::at(file, r.line, "Class", "row has no Class id"));
            continue;
        }
        if r.field(1).is_empty() {
            p.push(Problem::at(
                file,
                r.line,
                "Type",
                format!("{id}: Type is blank (the game refuses to start)"),
            ));
        }
        let def = IdDef { id: id.to_string(), file: file.to_string(), line: r.line };
        l.classes.insert(id.to_ascii_uppercase(), ClassDef { def, kind: ClassType::parse(r.field(1)) });
    }
}

/// `rifles.csv` and `artillery.csv`: the id is the second column.
fn parse_weapons(file: &str, text: &str, into: &mut BTreeMap<String, IdDef>, p: &mut Problems) {
    for r in records(text) {
        let id = r.field(1);
        if id.is_empty() {
            p.push(Problem::at(file, r.line, "ID", "row has no ID"));
            continue;
        }
        into.insert(
            id.to_ascii_uppercase(),
            IdDef { id: id.to_string(), file: file.to_string(), line: r.line },
        );
    }
}

/// `drills.csv` is a definition line followed by exactly `Rows` lines of slot map, which
/// the loader consumes whatever they look like.
fn parse_drills(file: &str, text: &str, l: &mut Logistics, p: &mut Problems) {
    let lines = raw_lines(text);
    let mut i = 0;
    while i < lines.len() {
        let (line, raw) = lines[i];
        i += 1;
        if skipped(raw) {
            continue;
        }
        let f = split_fields(raw);
        let id = f.get(1).map_or("", String::as_str);
        let rows_text = f.get(2).map_or("", String::as_str);
        let rows = match rows_text.parse::<usize>() {
            Ok(n) => n,
            Err(_) => {
                p.push(Problem::at(
                    file,
                    line,
                    "Rows",
                    format!(
                        "'{rows_text}' is not a whole number: the slot map after this line cannot be found"
                    ),
                ));
                0
            }
        };
        if id.is_empty() {
            p.push(Problem::at(
                file,
                line,
                "ID",
                "read as a drill definition but has no ID (is the Rows of the drill above too small?)",
            ));
        } else {
            l.drills
                .insert(id.to_ascii_uppercase(), IdDef { id: id.to_string(), file: file.to_string(), line });
        }
        if i + rows > lines.len() {
            p.push(Problem::at(
                file,
                line,
                "Rows",
                format!("{id}: declares {rows} rows of slot map but the file ends"),
            ));
        }
        i += rows;
    }
}

/// `unitattributes.csv`: a row starting `NEW` opens a table named by its second column;
/// every row after it until the next `NEW` is one level of that table.
fn parse_attributes(file: &str, text: &str, l: &mut Logistics, p: &mut Problems) {
    let mut open: Option<AttributeTable> = None;
    let close = |t: Option<AttributeTable>, l: &mut Logistics, p: &mut Problems| {
        if let Some(t) = t {
            if t.levels == 0 {
                p.push(Problem::at(file, t.line, &t.name, "table has no level rows: the game discards it"));
            } else {
                l.attributes.retain(|o| !o.name.eq_ignore_ascii_case(&t.name));
                l.attributes.push(t);
            }
        }
    };
    for r in records(text) {
        if r.field(0).to_ascii_uppercase().starts_with("NEW") {
            close(open.take(), l, p);
            let name = r.field(1);
            if name.is_empty() {
                p.push(Problem::at(file, r.line, "", "NEW row without a table name"));
                continue;
            }
            open = Some(AttributeTable {
                name: name.to_string(),
                file: file.to_string(),
                line: r.line,
                levels: 0,
            });
            continue;
        }
        match open.as_mut() {
            Some(t) => t.levels += 1,
            None => p.push(Problem::at(
                file,
                r.line,
                "",
                "level row before any NEW row: the game reads it into no table",
            )),
        }
    }
    close(open.take(), l, p);
}

/// Parses the five files; problems (a missing file, a malformed row) are collected beside
/// whatever could be read.
pub fn parse_logistics(files: &LogisticsFiles) -> (Logistics, Problems) {
    let mut l = Logistics::default();
    let mut p = Problems::default();
    for name in FILES {
        let Some(f) = files.files.get(name) else {
            let mut msg = "missing: the vocabulary cannot be checked against it".to_string();
            if !files.searched.is_empty() {
                msg = format!(
                    "not found in {} (give the base game's Logistics folder with --base)",
                    files.searched.join(" or ")
                );
            }
            p.push(Problem::in_file(name, msg));
            continue;
        };
        let (text, _) = decode(&f.bytes);
        if text.trim().is_empty() {
            p.push(Problem::in_file(&f.label, "the file is empty"));
        }
        l.files.insert(name.to_string(), f.label.clone());
        match name {
            "unitglobal.csv" => parse_unitglobal(&f.label, &text, &mut l, &mut p),
            "drills.csv" => parse_drills(&f.label, &text, &mut l, &mut p),
            "rifles.csv" => parse_weapons(&f.label, &text, &mut l.rifles, &mut p),
            "artillery.csv" => parse_weapons(&f.label, &text, &mut l.artillery, &mut p),
            _ => parse_attributes(&f.label, &text, &mut l, &mut p),
        }
    }
    (l, p)
}
