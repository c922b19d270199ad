//! What a file the game wrote looks like, told without judging it: its kind, encoding and
//! line ends, the lines before its data, how many fields its rows have, the `Status` values,
//! the rows with killer data. `inspect` turns these facts into findings; nothing here refuses
//! a file or can fail on one (garbage is a kind too).

use std::collections::BTreeMap;

use serde::Serialize;

use super::text::{Encoding, decode};

/// What a file is, by its content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum FileKind {
    /// The game's battle dump (`dumpgamedb`).
    GameDump,
    /// `startlocs.csv` (`dumplocs`).
    Startlocs,
    /// sowbridge's hand-result CSV.
    HandResult,
    /// An order of battle (written by sowbridge, or dumped by `dumpoobscen`).
    Oob,
    /// A `scenario.csv` (written, or dumped by `dumpscen`).
    Scenario,
    /// An XML unit names file (`OOBNames.xml` of the x64 engine).
    Names,
    /// None of these.
    Unknown,
}

impl FileKind {
    /// The kind in words.
    pub fn label(self) -> &'static str {
        match self {
            FileKind::GameDump => "game dump",
            FileKind::Startlocs => "startlocs.csv",
            FileKind::HandResult => "hand-result CSV",
            FileKind::Oob => "order of battle",
            FileKind::Scenario => "scenario.csv",
            FileKind::Names => "unit names file (XML)",
            FileKind::Unknown => "unknown",
        }
    }
}

/// The line ends a file uses.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum LineEnds {
    /// Windows: CR LF.
    Crlf,
    /// Unix: LF.
    Lf,
    /// CR CR LF, as GCM's battlescript template has them.
    CrCrLf,
    /// More than one kind.
    Mixed,
    /// No line end at all.
    None,
}

impl LineEnds {
    /// The line ends in words.
    pub fn label(self) -> &'static str {
        match self {
            LineEnds::Crlf => "CRLF",
            LineEnds::Lf => "LF",
            LineEnds::CrCrLf => "CR CR LF",
            LineEnds::Mixed => "mixed",
            LineEnds::None => "no",
        }
    }
}

/// The facts of one file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct FileFacts {
    /// Its kind.
    pub kind: FileKind,
    /// `utf-8`, `utf-8 with BOM` or `windows-1252`.
    pub encoding: String,
    /// Its line ends.
    pub line_ends: LineEnds,
    /// True when its last line ends with a line end.
    pub ends_with_line_end: bool,
    /// Lines, counting a last one without a line end.
    pub lines: usize,
    /// The lines before the first data row, verbatim (for a dump: before the first unit row).
    pub preamble: Vec<String>,
    /// The header line, when the file has one.
    pub header: Option<String>,
    /// Rows by their number of fields (data rows only).
    pub fields_per_row: BTreeMap<usize, usize>,
    /// A dump's `Status` values with their counts.
    pub status_values: BTreeMap<String, usize>,
    /// A dump's rows with killer data (more than 13 fields, R1 not 0).
    pub rows_with_killer: usize,
    /// A dump's rows with a blank `Ammo`.
    pub blank_ammo: usize,
    /// For `startlocs.csv`: the game time its header ends with, when it has one.
    pub game_time: Option<String>,
}

/// True for a line whose first six fields are whole numbers: a dump's unit row.
fn is_unit_row(fields: &[&str]) -> bool {
    fields.len() >= 6 && fields[..6].iter().all(|f| f.trim().parse::<i64>().is_ok())
}

/// The line ends of a text.
fn line_ends(text: &str) -> LineEnds {
    let (mut crlf, mut lf, mut crcrlf) = (0, 0, 0);
    let b = text.as_bytes();
    for (i, &c) in b.iter().enumerate() {
        if c == b'\n' {
            match (i.checked_sub(2).map(|k| b[k]), i.checked_sub(1).map(|k| b[k])) {
                (Some(b'\r'), Some(b'\r')) => crcrlf += 1,
                (_, Some(b'\r')) => crlf += 1,
                _ => lf += 1,
            }
        }
    }
    match (crlf > 0, lf > 0, crcrlf > 0) {
        (false, false, false) => LineEnds::None,
        (true, false, false) => LineEnds::Crlf,
        (false, true, false) => LineEnds::Lf,
        (false, false, true) => LineEnds::CrCrLf,
        _ => LineEnds::Mixed,
    }
}

/// Tells a file's kind by its content (the name is only a hint the umpire may have changed).
fn kind_of(lines: &[&str]) -> FileKind {
    let first = lines.iter().find(|l| !l.trim().is_empty()).copied().unwrap_or("");
    let head: String = first.chars().filter(|c| *c != '"').collect::<String>().to_ascii_lowercase();
    let labels: Vec<&str> = head.split(',').map(str::trim).collect();
    let xml = head.trim_start_matches('\u{feff}').trim_start();
    if xml.starts_with("<?xml") || xml.starts_with("<mygui") {
        FileKind::Names
    } else if head.replace(' ', "").starts_with("battle,unit") {
        FileKind::HandResult
    } else if labels.first() == Some(&"name") && labels.contains(&"head count") && labels.contains(&"loc x") {
        if labels.contains(&"side 1") || labels.contains(&"class") {
            FileKind::Scenario
        } else {
            FileKind::Startlocs
        }
    } else if labels.contains(&"side 1") && labels.contains(&"class") {
        FileKind::Oob
    } else if labels.first().is_some_and(|l| *l == "sandboxoob" || *l == "master")
        || (labels.first() == Some(&"name") && labels.contains(&"loc x"))
    {
        FileKind::Scenario
    } else if lines.iter().any(|l| is_unit_row(&l.split(',').collect::<Vec<_>>())) {
        FileKind::GameDump
    } else {
        FileKind::Unknown
    }
}

/// The facts of a file's bytes.
pub fn facts(bytes: &[u8]) -> FileFacts {
    let (text, enc) = decode(bytes);
    let encoding = match enc {
        Encoding::Utf8 if bytes.is_ascii() => "ascii (as iso-8859-1 and utf-8 alike)",
        Encoding::Utf8 => "utf-8",
        Encoding::Utf8Bom => "utf-8 with BOM",
        Encoding::Windows1252 => "windows-1252",
    }
    .to_string();
    let all: Vec<&str> = text.split('\n').map(|l| l.trim_end_matches('\r')).collect();
    let ends_with_line_end = text.ends_with('\n') || text.is_empty();
    let lines: Vec<&str> = if ends_with_line_end { all[..all.len().saturating_sub(1)].to_vec() } else { all };
    let kind = kind_of(&lines);
    let mut f = FileFacts {
        kind,
        encoding,
        line_ends: line_ends(&text),
        ends_with_line_end,
        lines: lines.len(),
        preamble: Vec::new(),
        header: None,
        fields_per_row: BTreeMap::new(),
        status_values: BTreeMap::new(),
        rows_with_killer: 0,
        blank_ammo: 0,
        game_time: None,
    };
    match kind {
        FileKind::GameDump => {
            let start =
                lines.iter().position(|l| is_unit_row(&l.split(',').collect::<Vec<_>>())).unwrap_or(0);
            f.preamble = lines[..start].iter().map(|l| (*l).to_string()).collect();
            f.header = f.preamble.iter().find(|l| l.to_ascii_lowercase().starts_with("side,")).cloned();
            for l in lines[start..].iter().filter(|l| !l.trim().is_empty()) {
                let fields: Vec<&str> = l.split(',').map(str::trim).collect();
                *f.fields_per_row.entry(fields.len()).or_default() += 1;
                if let Some(s) = fields.get(8) {
                    *f.status_values.entry((*s).to_string()).or_default() += 1;
                }
                if fields.get(7).is_some_and(|a| a.is_empty()) {
                    f.blank_ammo += 1;
                }
                if fields.len() > 13 && fields.get(12).is_some_and(|r| !r.is_empty() && *r != "0") {
                    f.rows_with_killer += 1;
                }
            }
        }
        FileKind::Unknown => {}
        _ => {
            f.header = lines.first().map(|l| (*l).to_string());
            for l in lines.iter().skip(1).filter(|l| !l.trim().is_empty() && !l.starts_with(',')) {
                *f.fields_per_row.entry(l.split(',').count()).or_default() += 1;
            }
            if kind == FileKind::Startlocs {
                f.game_time = f
                    .header
                    .as_deref()
                    .and_then(|h| h.rsplit(',').next())
                    .map(str::trim)
                    .filter(|t| {
                        t.contains(':')
                            && t.split(':').all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
                    })
                    .map(str::to_string);
            }
        }
    }
    f
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::text::encode_sow;

    const SAMPLE: &str = include_str!("../../tests/data/sample-gamedb.csv");

    #[test]
    fn the_sample_dump_is_told_fact_by_fact() {
        let f = facts(&encode_sow(SAMPLE));
        assert_eq!(f.kind, FileKind::GameDump);
        assert_eq!(
            (f.encoding.as_str(), f.line_ends, f.ends_with_line_end),
            ("windows-1252", LineEnds::Crlf, true)
        );
        assert_eq!(facts(b"a,b\r\n").encoding, "ascii (as iso-8859-1 and utf-8 alike)");
        assert_eq!(f.preamble.len(), 3);
        assert!(f.header.as_deref().is_some_and(|h| h.starts_with("Side,Army,Corp")));
        assert!(f.fields_per_row.keys().all(|n| [12, 20].contains(n)), "{:?}", f.fields_per_row);
        assert!(f.status_values.contains_key("Wavering"), "{:?}", f.status_values);
        assert!(f.rows_with_killer > 0);
    }

    #[test]
    fn garbage_is_a_kind_not_a_failure() {
        for bytes in [&b"\x00\x01\xff\xfe garbage"[..], b"", b"\r\r\n,,,\n", b"hello\nworld"] {
            let f = facts(bytes);
            assert_eq!(f.kind, FileKind::Unknown, "{bytes:?}");
        }
    }

    #[test]
    fn startlocs_oob_scenario_and_hand_results_are_told_apart() {
        let locs = "Name,Ammo,dir x,dir z,loc x,loc z,Formation,Head Count,Fatigue,Morale,14:59:57\r\nA,1,0,0,1,1,D,10,0,0\r\n";
        let f = facts(locs.as_bytes());
        assert_eq!((f.kind, f.game_time.as_deref()), (FileKind::Startlocs, Some("14:59:57")));
        let oob = "Name,ID,NAME1,NAME2,SIDE 1,ARMY 2,CORPS 3,DIV 4,BGDE 5,BTN 6,CLASS\r\n";
        assert_eq!(facts(oob.as_bytes()).kind, FileKind::Oob);
        assert_eq!(facts(b"SANDBOXOOB,ARMY,CORPS\r\n").kind, FileKind::Scenario);
        assert_eq!(facts(b"battle,unit,killed\nT1,u,1\n").kind, FileKind::HandResult);
        assert_eq!(line_ends("a\r\r\nb\r\r\n"), LineEnds::CrCrLf);
        assert_eq!(line_ends("a\r\nb\n"), LineEnds::Mixed);
    }
}
