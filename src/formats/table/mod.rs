//! The one place that reads and writes the umpire's CSV files: header-keyed records with
//! their true line numbers, in the dialect each file was saved in (`excel.rs` holds the
//! dialect's reader and writer settings), and writing back in it. Typed access to a row's
//! fields is in `fields.rs`.

use crate::error::Problems;

use crate::model::dialect::Dialect;

pub use super::fields::{Col, ColumnRef, Fields, RowSource, TableRow};
use super::text::decode;

mod columns;
mod records;
mod sheet;
#[cfg(test)]
mod tests;
mod write;

pub use columns::require_columns;
pub use records::{RecordBatch, Records};
pub use sheet::Sheet;
pub use write::write_csv;

/// A CSV file read into rows, with the line each row came from.
#[derive(Debug, Clone, Default)]
pub struct Table {
    /// The file's name as shown in messages.
    pub file: String,
    /// Header names, trimmed, lower-cased.
    pub headers: Vec<String>,
    /// Data rows (blank rows dropped).
    pub rows: Vec<Row>,
    /// Every field of every row, one after the other: one buffer for the whole file rather
    /// than a string per field.
    text: String,
    /// Where each field of `text` ends.
    ends: Vec<usize>,
    /// How the file was saved, to write it back the same way.
    pub dialect: Dialect,
    /// False for a file that is not there: it reads as an empty table under its own name,
    /// whose columns are not asked for (the missing file is the one problem).
    pub present: bool,
    /// Rows left out for their shape (each with a problem of its own).
    pub skipped: u64,
}

/// One data row.
#[derive(Debug, Clone)]
pub struct Row {
    /// 1-based line number in the file.
    pub line: u64,
    /// Index of the row's first field among the table's fields.
    first: usize,
    /// Number of fields.
    len: usize,
}

impl Row {
    /// Its number of fields, as the file has them.
    pub fn fields(&self) -> usize {
        self.len
    }
}

impl Table {
    /// Reads a CSV file's bytes (UTF-8, UTF-8 with BOM or Windows-1252). Problems with the
    /// file's shape (bad CSV, wrong number of fields) are pushed; good rows are kept.
    pub fn parse(file: &str, bytes: &[u8], problems: &mut Problems) -> Table {
        let (decoded, encoding) = decode(bytes);
        let mut t = Table { file: file.to_string(), present: true, ..Table::default() };
        if let Some(mut records) = Records::open(file, &decoded, encoding, problems) {
            t.text.reserve(bytes.len());
            while let Some((line, r)) = records.next_record(problems) {
                let first = t.ends.len();
                // Fields are trimmed once, as they are stored.
                for f in r {
                    t.text.push_str(f.trim_ascii());
                    t.ends.push(t.text.len());
                }
                t.rows.push(Row { line, first, len: r.len() });
            }
            t.dialect = records.dialect();
            t.skipped = records.skipped();
            t.headers = records.headers;
        }
        t
    }

    /// The empty table of a file that is not there.
    pub fn absent(file: &str) -> Table {
        Table { file: file.to_string(), ..Table::default() }
    }

    /// Field `i` of a row, trimmed ("" past the row's end).
    pub(super) fn field(&self, row: &Row, i: usize) -> &str {
        if i >= row.len {
            return "";
        }
        let k = row.first + i;
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        &self.text[start..self.ends[k]]
    }

    /// Text of a column in a row ("" when missing or blank), borrowed from the table.
    pub fn text(&self, row: &Row, c: impl ColumnRef) -> &str {
        c.index(&TableRow { table: self, row }).map_or("", |i| self.field(row, i))
    }

    /// Index of a column by (lower-case) name.
    pub fn col(&self, name: &str) -> Option<usize> {
        self.headers.iter().position(|h| h == name)
    }

    /// Pushes a problem for each required column that is missing; true when all are there.
    /// A file that is not there has no columns to ask for: false, and nothing pushed.
    pub fn require(&self, names: &[&str], problems: &mut Problems) -> bool {
        self.present && require_columns(&self.file, &self.headers, self.dialect.separator, names, problems)
    }

    /// True when the file is there, has every one of `names` and no row was left out for
    /// its shape: what other files refer to in it can then be checked against it. (When it
    /// is not, its own problems say why, and the references are not checked: one cause,
    /// one message.)
    pub fn whole(&self, names: &[&str]) -> bool {
        self.present && self.skipped == 0 && names.iter().all(|n| self.col(n).is_some())
    }

    /// Columns not in `known`, in file order.
    pub fn extra_columns(&self, known: &[&str]) -> Vec<String> {
        self.headers.iter().filter(|h| !known.contains(&h.as_str())).cloned().collect()
    }
}
