//! The SoW install's `Logistics/` folder, read the way the engine reads it, so that the
//! campaign's vocabulary can be proved against the umpire's NapMod before a battle is
//! exported (sow-formats.md §1.1, §1.4, §1.6).
//!
//! The engine's CSV rules, not RFC 4180: line 1 is the header; a line that is empty or
//! starts with a comma is skipped (that is how the files carry documentation rows); a quote
//! is honoured only at the start of a field and every quote is stripped; columns are
//! positional, whatever the header says. Ids are upper-cased by the loader, so they
//! compare without regard to case. Content is layered: base game, then mods, and a later
//! layer's copy of a file replaces the earlier one whole.

use std::collections::BTreeMap;

use crate::error::{Problem, Problems};

use super::text::decode;

/// Finding and reading the install's files is the store's ([`crate::store::logistics`]);
/// kept under this path for the code that reads them from here.
pub use crate::store::logistics::{logistics_folder, read_layers, read_logistics};

/// The five files the vocabulary is proved against.
pub const FILES: [&str; 5] =
    ["unitglobal.csv", "drills.csv", "rifles.csv", "artillery.csv", "unitattributes.csv"];

/// A class's `Type` column in `unitglobal.csv` (GCM's documentation row: 1 Infantry,
/// 2 Cavalry, 3 Artillery, 4 Ordnance, 5 Courier).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum ClassType {
    /// 1.
    Infantry,
    /// 2.
    Cavalry,
    /// 3.
    Artillery,
    /// 4: supply wagons and other ordnance trains.
    Ordnance,
    /// 5.
    Courier,
    /// Anything else, as written (later engines name types from `unittype.csv`).
    Other(String),
}

impl ClassType {
    /// Reads the column.
    pub fn parse(text: &str) -> ClassType {
        match text.trim() {
            "1" => ClassType::Infantry,
            "2" => ClassType::Cavalry,
            "3" => ClassType::Artillery,
            "4" => ClassType::Ordnance,
            "5" => ClassType::Courier,
            t => ClassType::Other(t.to_string()),
        }
    }

    /// `3 Artillery` and the like, for messages.
    pub fn describe(&self) -> String {
        match self {
            ClassType::Infantry => "1 Infantry".into(),
            ClassType::Cavalry => "2 Cavalry".into(),
            ClassType::Artillery => "3 Artillery".into(),
            ClassType::Ordnance => "4 Ordnance".into(),
            ClassType::Courier => "5 Courier".into(),
            ClassType::Other(t) => format!("'{t}'"),
        }
    }
}

/// Where an id is defined.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IdDef {
    /// The id as written.
    pub id: String,
    /// The file it was read from.
    pub file: String,
    /// Its line.
    pub line: u64,
}

/// A `unitglobal.csv` class.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ClassDef {
    /// Id, file and line.
    pub def: IdDef,
    /// Its unit type.
    pub kind: ClassType,
}

/// One `NEW,<Attribute>` block of `unitattributes.csv`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AttributeTable {
    /// Its name as written (`Close Order Proficiency`).
    pub name: String,
    /// The file it was read from.
    pub file: String,
    /// Line of the `NEW` row.
    pub line: u64,
    /// Number of level rows: the valid indices are `0..levels`.
    pub levels: u32,
}

/// What an install defines, as far as the vocabulary needs it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Logistics {
    /// Each file's name with the path it was read from.
    pub files: BTreeMap<String, String>,
    /// Classes by upper-cased id.
    pub classes: BTreeMap<String, ClassDef>,
    /// Drills by upper-cased id.
    pub drills: BTreeMap<String, IdDef>,
    /// Small arms (`rifles.csv`) by upper-cased id.
    pub rifles: BTreeMap<String, IdDef>,
    /// Guns (`artillery.csv`) by upper-cased id.
    pub artillery: BTreeMap<String, IdDef>,
    /// Attribute tables in file order.
    pub attributes: Vec<AttributeTable>,
}

impl Logistics {
    /// A class by id, any case.
    pub fn class(&self, id: &str) -> Option<&ClassDef> {
        self.classes.get(&id.trim().to_ascii_uppercase())
    }
    /// A drill by id, any case.
    pub fn drill(&self, id: &str) -> Option<&IdDef> {
        self.drills.get(&id.trim().to_ascii_uppercase())
    }
    /// A `rifles.csv` weapon by id, any case.
    pub fn rifle(&self, id: &str) -> Option<&IdDef> {
        self.rifles.get(&id.trim().to_ascii_uppercase())
    }
    /// An `artillery.csv` gun by id, any case.
    pub fn gun(&self, id: &str) -> Option<&IdDef> {
        self.artillery.get(&id.trim().to_ascii_uppercase())
    }
    /// Where a file was read from (its bare name when it was not found).
    pub fn file(&self, name: &str) -> String {
        self.files.get(name).cloned().unwrap_or_else(|| name.to_string())
    }

    /// The table an attribute column of `quality.csv` indexes, by its `unitattributes.csv`
    /// name (`Morale`; `Close` finds `Close Order Proficiency`). The engine fixes the tables
    /// up to Morale by name and reads the proficiency columns after it in table order, so a
    /// proficiency that no table names falls back to its position after `Morale`.
    pub fn attribute(&self, table: &str) -> Option<&AttributeTable> {
        let first = |t: &AttributeTable| t.name.split_whitespace().next().unwrap_or("").to_ascii_uppercase();
        let want = table.to_ascii_uppercase();
        if let Some(t) =
            self.attributes.iter().rev().find(|t| first(t) == want || t.name.eq_ignore_ascii_case(table))
        {
            return Some(t);
        }
        const PROFICIENCIES: [&str; 8] =
            ["CLOSE", "OPEN", "EDGED", "FIREARM", "MARKSMANSHIP", "HORSEMANSHIP", "SURGEON", "CALISTHENICS"];
        let k = PROFICIENCIES.iter().position(|p| *p == want)?;
        let morale = self.attributes.iter().position(|t| first(t) == "MORALE")?;
        self.attributes.get(morale + 1 + k)
    }
}

/// One line of an engine CSV that the engine reads (not skipped), split into fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// 1-based line number.
    pub line: u64,
    /// Fields, quotes stripped, trimmed.
    pub fields: Vec<String>,
}

impl Record {
    /// Field `i`, "" past the end.
    pub fn field(&self, i: usize) -> &str {
        self.fields.get(i).map_or("", String::as_str)
    }
}

/// Splits one line as the engine does: commas separate fields, except inside a quote that
/// opens a field; every quote is dropped. Fields are trimmed.
pub fn split_fields(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut at_start = true;
    let mut quoted = false;
    for ch in line.chars() {
        match ch {
            '"' => {
                if quoted {
                    quoted = false;
                } else if at_start {
                    quoted = true;
                }
            }
            ',' if !quoted => {
                out.push(cur.trim().to_string());
                cur.clear();
                at_start = true;
                continue;
            }
            c => {
                if !(at_start && c.is_whitespace()) {
                    cur.push(c);
                }
            }
        }
        if ch != ' ' && ch != '\t' {
            at_start = false;
        }
    }
    out.push(cur.trim().to_string());
    out
}

/// Every line of a file after the header, numbered, with line ends removed.
fn raw_lines(text: &str) -> Vec<(u64, &str)> {
    text.split('\n')
        .enumerate()
        .skip(1)
        .map(|(i, l)| (i as u64 + 1, l.strip_suffix('\r').unwrap_or(l)))
        .collect()
}

/// True for a line the engine skips: empty (or blank) or comma-led.
fn skipped(raw: &str) -> bool {
    raw.trim().is_empty() || raw.starts_with(',')
}

/// The lines of a file the engine reads as rows.
pub fn records(text: &str) -> Vec<Record> {
    raw_lines(text)
        .into_iter()
        .filter(|(_, raw)| !skipped(raw))
        .map(|(line, raw)| Record { line, fields: split_fields(raw) })
        .collect()
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn files(list: &[(&str, &[u8])]) -> LogisticsFiles {
        let mut f = LogisticsFiles::default();
        for (name, bytes) in list {
            f.files.insert(
                name.to_string(),
                LogisticsFile { label: format!("L/{name}"), bytes: bytes.to_vec() },
            );
        }
        f
    }

    #[test]
    fn a_quote_opening_a_field_keeps_its_commas() {
        assert_eq!(
            split_fields(r#",Class,"the ID, used in the OOB",x"#),
            vec!["", "Class", "the ID, used in the OOB", "x"]
        );
    }

    #[test]
    fn a_quote_inside_a_field_is_stripped_but_not_honoured() {
        assert_eq!(split_fields(r#"a"b,c"d,e"#), vec!["ab", "cd", "e"]);
        assert_eq!(split_fields(r#" "NAP_FR_Line" ,2"#), vec!["NAP_FR_Line", "2"]);
    }

    #[test]
    fn empty_and_comma_led_lines_are_skipped_and_crlf_is_removed() {
        let text = "Class,Type\r\n,doc row, with words\r\n\r\nA_Inf,1\r\n   \r\nB_Cav,2\r\n";
        let r = records(text);
        assert_eq!(r.len(), 2);
        assert_eq!(r[0], Record { line: 4, fields: vec!["A_Inf".into(), "1".into()] });
        assert_eq!(r[1].line, 6);
        assert_eq!(r[1].field(1), "2");
    }

    #[test]
    fn windows_1252_ids_are_decoded() {
        let (l, p) = parse_logistics(&files(&[("unitglobal.csv", b"Class,Type\r\nNAP_SP_Bail\xe9n,1\r\n")]));
        assert!(l.class("nap_sp_bailén").is_some(), "{:?}", l.classes);
        assert!(p.0.iter().all(|x| x.file != "L/unitglobal.csv"), "{p}");
    }

    #[test]
    fn classes_carry_their_type_and_compare_without_case() {
        let ug = b"Class,Type,Alt\n,Type,\"1 = Infantry,2 = Cavalry\"\nUGLB_USA_Inf_1,1\nU_Courier,5\nUGLB_USA_Wagon,4\nx,,\n";
        let (l, p) = parse_logistics(&files(&[("unitglobal.csv", ug)]));
        assert_eq!(l.class("u_courier").map(|c| c.kind.clone()), Some(ClassType::Courier));
        assert_eq!(l.class("UGLB_USA_WAGON").map(|c| c.kind.clone()), Some(ClassType::Ordnance));
        assert_eq!(l.class("uglb_usa_inf_1").map(|c| c.def.line), Some(3));
        let blank = p.0.iter().find(|x| x.file == "L/unitglobal.csv").expect("blank type reported");
        assert_eq!(blank.line, Some(6));
    }

    #[test]
    fn drills_skip_their_slot_maps() {
        let d = "Name,ID,Rows,Columns\n,doc\nLine (0),DRIL_Lvl6_Inf_Line,2,3\n124,122,120\n(3.01)125,,\nCol,DRIL_Lvl6_Inf_Column,1,2\n5,6\n";
        let (l, p) = parse_logistics(&files(&[("drills.csv", d.as_bytes())]));
        let ids: Vec<&str> = l.drills.values().map(|d| d.id.as_str()).collect();
        assert_eq!(ids, vec!["DRIL_Lvl6_Inf_Column", "DRIL_Lvl6_Inf_Line"]);
        assert!(p.0.iter().all(|x| x.file != "L/drills.csv"), "{p}");
        // A Rows value too small leaves a slot-map line read as a definition.
        let bad = "Name,ID,Rows\nLine,DRIL_A,1\n1,2\n3,4\n";
        let (_, p) = parse_logistics(&files(&[("drills.csv", bad.as_bytes())]));
        let hit = p.0.iter().find(|x| x.file == "L/drills.csv").expect("stray line reported");
        assert_eq!(hit.line, Some(4));
    }

    #[test]
    fn attribute_blocks_count_their_levels() {
        let ua = "\
,INTEGERS ONLY,Level Name
,Level Name,Textual label
NEW,Weather,,
,Visibility (yds),Label
0,900,IDS_UATT_Day_Cloudy
1,1000,IDS_UATT_Day_Clear
,,,
NEW,Morale
0,1,IDS_UATT_Routed
1,296,IDS_UATT_Broken
2,297,IDS_UATT_Broken
NEW,Close Order Proficiency
0,5,Raw
NEW,Open Order Proficiency
0,5,Raw
1,10,Untrained
NEW,Empty
";
        let (l, p) = parse_logistics(&files(&[("unitattributes.csv", ua.as_bytes())]));
        let levels = |t: &str| l.attribute(t).map(|a| a.levels);
        assert_eq!(levels("Weather"), Some(2));
        assert_eq!(levels("Morale"), Some(3));
        assert_eq!(levels("Close"), Some(1));
        assert_eq!(levels("Open"), Some(2));
        assert_eq!(levels("Ability"), None);
        let empty = p.0.iter().find(|x| x.file == "L/unitattributes.csv").expect("empty table reported");
        assert_eq!(empty.line, Some(17));
    }

    #[test]
    fn proficiencies_fall_back_to_their_place_after_morale() {
        let ua = "x\nNEW,Morale\n0\nNEW,Drill\n0\n1\nNEW,Skirmish\n0\n";
        let (l, _) = parse_logistics(&files(&[("unitattributes.csv", ua.as_bytes())]));
        assert_eq!(l.attribute("Close").map(|a| a.name.as_str()), Some("Drill"));
        assert_eq!(l.attribute("Open").map(|a| a.name.as_str()), Some("Skirmish"));
        assert_eq!(l.attribute("Edged"), None);
    }

    #[test]
    fn missing_files_are_named() {
        let (_, p) = parse_logistics(&files(&[("unitglobal.csv", b"Class,Type\n")]));
        let missing: Vec<&str> = p.0.iter().filter(|x| x.line.is_none()).map(|x| x.file.as_str()).collect();
        assert_eq!(missing, vec!["drills.csv", "rifles.csv", "artillery.csv", "unitattributes.csv"]);
    }
}
