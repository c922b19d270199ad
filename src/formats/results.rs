//! Readers for battle results: the game's own dump (`sowgb_gamedb_*.csv`, sow-formats.md
//! §3.1), sowbridge's result CSV for battles settled by hand, and the `dumplocs` file
//! (`startlocs.csv`, §3.2). They only read and check; joining rows to campaign units and the
//! carry-over rules belong to `apply`. A torn or garbage file must never pass as a smaller
//! battle, so every reader refuses what it cannot read in full and names the line and field.
//!
//! The engine's own files (the dump and `startlocs.csv`) are read by the engine's CSV rules
//! with the helpers here; sowbridge's own CSV goes through `formats::table`.

mod gamedb;
mod manual;
mod startlocs;

use crate::error::{Problem, Problems};
use crate::model::Chain;

use super::text::decode;

pub use gamedb::{DumpUnit, GameDump, Hit, parse_gamedb};
pub use manual::{ManualResult, ManualRow, TemplateRow, parse_manual, write_template};
pub use startlocs::{EndLocation, StartLocs, parse_startlocs};

/// A figure above this is taken for garbage, not a battle's losses or a unit's men.
const ABSURD: u64 = 1_000_000;

/// A result file of either kind.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ResultFile {
    /// The game's dump.
    GameDump(GameDump),
    /// sowbridge's result CSV.
    Manual(ManualResult),
}

/// Decides by content (not name) which kind a file is: own result CSV has a header starting
/// with the columns `battle` and `unit` (case-insensitive), whatever separates them (`,`, or
/// `;` as Excel saves in some locales; the reader then says if it cannot read the
/// separator); otherwise a game dump.
pub fn parse_result(file: &str, bytes: &[u8]) -> Result<ResultFile, Problems> {
    let (text, _) = decode(bytes);
    let first = text.lines().next().unwrap_or("");
    let header: String = first.chars().filter(|c| c.is_ascii_alphanumeric() || *c == '_').collect();
    if header.to_ascii_lowercase().starts_with("battleunit") {
        parse_manual(file, bytes).map(ResultFile::Manual)
    } else {
        parse_gamedb(file, bytes).map(ResultFile::GameDump)
    }
}

/// One line of a file read by the engine's rules, and whether a line ending closed it.
struct Line<'a> {
    number: u64,
    text: &'a str,
    ended: bool,
}

/// Splits text into lines (LF or CRLF), remembering whether the last one was cut short.
fn lines(text: &str) -> Vec<Line<'_>> {
    let mut out = Vec::new();
    let mut rest = text;
    let mut number = 0;
    while !rest.is_empty() {
        number += 1;
        let (raw, ended, next) = match rest.find('\n') {
            Some(i) => (&rest[..i], true, &rest[i + 1..]),
            None => (rest, rest.ends_with('\r'), ""),
        };
        out.push(Line { number, text: raw.strip_suffix('\r').unwrap_or(raw), ended });
        rest = next;
    }
    out
}

/// The engine's CSV rules (sow-formats.md §1.1): every comma splits, quotes are stripped.
fn engine_fields(line: &str) -> Vec<String> {
    line.split(',').map(|f| f.replace('"', "").trim().to_string()).collect()
}

/// True for an empty line or one of empty fields only.
fn blank(fields: &[String]) -> bool {
    fields.iter().all(String::is_empty)
}

/// A located checker of the engine's positional fields.
struct At<'a> {
    file: &'a str,
    line: u64,
    problems: &'a mut Problems,
}

impl At<'_> {
    /// Pushes a problem on this line.
    fn problem(&mut self, field: &str, message: impl Into<String>) {
        self.problems.push(Problem::at(self.file, self.line, field, message));
    }

    /// A whole number 0..=1,000,000; blank is `None` without a problem.
    fn opt_count(&mut self, field: &str, text: &str) -> Option<u32> {
        if text.is_empty() {
            return None;
        }
        match text.parse::<i64>() {
            Ok(v) if v < 0 => self.problem(field, format!("'{text}' is negative")),
            Ok(v) if v as u64 > ABSURD => {
                self.problem(field, format!("'{text}' is absurd (more than {ABSURD})"))
            }
            Ok(v) => return u32::try_from(v).ok(),
            Err(_) if text.bytes().all(|b| b.is_ascii_digit()) => {
                self.problem(field, format!("'{text}' is absurd (more than {ABSURD})"))
            }
            Err(_) => self.problem(field, format!("'{text}' is not a whole number")),
        }
        None
    }

    /// A required whole number.
    fn count(&mut self, field: &str, text: &str) -> Option<u32> {
        if text.is_empty() {
            self.problem(field, "is empty");
        }
        self.opt_count(field, text)
    }

    /// A hierarchy index 0..=99.
    fn index(&mut self, field: &str, text: &str) -> Option<u8> {
        match text.parse::<u8>() {
            Ok(v) if v <= 99 => Some(v),
            _ => {
                self.problem(field, format!("'{text}' is not a hierarchy index 0-99"));
                None
            }
        }
    }

    /// Six indices from `names`/`texts` as a chain.
    fn chain(&mut self, names: &[&str], texts: &[String]) -> Option<Chain> {
        let mut out = [0u8; 6];
        let mut ok = true;
        for (i, slot) in out.iter_mut().enumerate() {
            let text = texts.get(i).map_or("", String::as_str);
            match self.index(names[i], text) {
                Some(v) => *slot = v,
                None => ok = false,
            }
        }
        ok.then_some(Chain(out))
    }
}

/// The value when nothing is wrong, else every problem, sorted.
fn finish<T>(value: T, mut problems: Problems) -> Result<T, Problems> {
    if problems.is_empty() {
        return Ok(value);
    }
    problems.0.sort();
    problems.0.dedup();
    Err(problems)
}

/// A realistic dump as the game writes it (LF here; tests turn it into CRLF Windows-1252).
#[cfg(test)]
const SAMPLE_DUMP: &str = include_str!("../../tests/data/sample-gamedb.csv");

#[cfg(test)]
mod tests {
    use proptest::prelude::*;

    use super::*;
    use crate::formats::text::encode_sow;

    #[test]
    fn the_kind_of_result_file_is_told_by_its_content() {
        let manual = b"Battle,Unit,killed,wounded,missing,captured\nT20-18.28,br-29,1,2,3,4\n";
        assert!(matches!(parse_result("x.csv", manual), Ok(ResultFile::Manual(_))));
        let dump = encode_sow(SAMPLE_DUMP);
        assert!(matches!(parse_result("result.csv", &dump), Ok(ResultFile::GameDump(_))));
        let err = parse_result("notes.txt", b"hello\n").unwrap_err();
        assert_eq!(err.0[0].message, "no unit rows: not a SoW battle dump");
    }

    #[test]
    fn lines_know_whether_they_were_ended() {
        let l = lines("a\r\nb\n\nc");
        let shape: Vec<_> = l.iter().map(|l| (l.number, l.text, l.ended)).collect();
        assert_eq!(shape, [(1, "a", true), (2, "b", true), (3, "", true), (4, "c", false)]);
        assert!(lines("a\r")[0].ended, "a CRLF cut between CR and LF still ends its line");
        assert_eq!(engine_fields(" \"Foot, 29th\" ,x"), ["Foot", "29th", "x"]);
    }

    /// Byte offsets just past each unit row's text (before its line ending).
    fn row_ends(bytes: &[u8]) -> Vec<usize> {
        let mut ends = Vec::new();
        let mut start = 0;
        for (i, &b) in bytes.iter().enumerate() {
            if b == b'\n' {
                let end = if i > 0 && bytes[i - 1] == b'\r' { i - 1 } else { i };
                if engine_fields(&String::from_utf8_lossy(&bytes[start..end])).len() >= 12
                    && bytes[start].is_ascii_digit()
                {
                    ends.push(end);
                }
                start = i + 1;
            }
        }
        ends
    }

    proptest! {
        #[test]
        fn readers_never_panic_on_arbitrary_bytes(bytes in proptest::collection::vec(any::<u8>(), 0..600)) {
            let _ = parse_gamedb("f.csv", &bytes);
            let _ = parse_manual("f.csv", &bytes);
            let _ = parse_startlocs("f.csv", &bytes);
            let _ = parse_result("f.csv", &bytes);
        }

        #[test]
        fn readers_never_panic_on_csv_like_text(text in "[0-9a-z,\"() \r\n-]{0,300}") {
            let _ = parse_gamedb("f.csv", text.as_bytes());
            let _ = parse_manual("f.csv", text.as_bytes());
            let _ = parse_startlocs("f.csv", text.as_bytes());
        }

        /// A dump cut anywhere is refused, except exactly at a line end, where it reads as
        /// the rows before the cut: that case cannot be told from content alone (the caller
        /// compares the chains with the battle's chain map).
        #[test]
        fn a_cut_dump_is_refused_unless_cut_at_a_line_end(cut in 0usize..1000, crlf in any::<bool>()) {
            let bytes = if crlf { encode_sow(SAMPLE_DUMP) } else { SAMPLE_DUMP.as_bytes().to_vec() };
            let cut = cut % (bytes.len() + 1);
            prop_assert_eq!(check_cut(&bytes, cut), Ok(()));
            let _ = parse_manual("f.csv", &bytes[..cut]);
        }
    }

    /// The truncation property for one cut: refused unless at a line end after a unit row;
    /// accepted cuts hold exactly the rows before the cut.
    fn check_cut(bytes: &[u8], cut: usize) -> Result<(), String> {
        let prefix = &bytes[..cut];
        let at_line_end = matches!(prefix.last(), Some(b'\n' | b'\r'));
        let complete = row_ends(bytes).iter().filter(|&&e| e < cut).count();
        match parse_gamedb("f.csv", prefix) {
            Ok(_) if !at_line_end => Err(format!("cut at {cut} mid-line was accepted")),
            Ok(dump) if dump.rows != complete => {
                Err(format!("cut at {cut}: {} rows, not {complete}", dump.rows))
            }
            Err(p) if at_line_end && complete > 0 => Err(format!("cut at {cut} refused: {p}")),
            _ => Ok(()),
        }
    }

    #[test]
    fn every_cut_of_the_sample_dump_keeps_the_truncation_property() {
        for bytes in [encode_sow(SAMPLE_DUMP), SAMPLE_DUMP.as_bytes().to_vec()] {
            for cut in 0..=bytes.len() {
                assert_eq!(check_cut(&bytes, cut), Ok(()));
            }
        }
    }
}

/// A result file as read from disk, with the `startlocs.csv` lying beside it (the final
/// `dumplocs` of the battle, when the game wrote one) and the times the file system gives both.
#[derive(Debug, Clone)]
pub struct ResultInput {
    /// The file's name.
    pub name: String,
    /// Its bytes.
    pub bytes: Vec<u8>,
    /// When it was last written.
    pub modified: Option<std::time::SystemTime>,
    /// The bytes of `startlocs.csv` in the same folder, if there is one.
    pub startlocs: Option<Vec<u8>>,
    /// When that `startlocs.csv` was last written.
    pub startlocs_modified: Option<std::time::SystemTime>,
}

/// The name `dumplocs` writes.
pub const STARTLOCS: &str = "startlocs.csv";

/// Reading a result file from the disk is the store's ([`crate::store::results`]); kept
/// under this path for the code that reads it from here.
pub use crate::store::results::read_result_input;
