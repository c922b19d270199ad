//! The one place that owns the settings for the umpire's CSV files: header-keyed reading
//! with line numbers, typed fields that report `file:line: field: problem`, and writing.

use std::str::FromStr;

use crate::error::{Problem, Problems};

use super::text::decode;

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
    /// than a string per field (a large order of battle has hundreds of thousands of rows).
    text: String,
    /// Where each field of `text` ends.
    ends: Vec<usize>,
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

impl Table {
    /// Reads a CSV file's bytes (UTF-8, UTF-8 with BOM or Windows-1252). Problems with the
    /// file's shape (bad CSV, wrong number of fields) are pushed; good rows are kept.
    pub fn parse(file: &str, bytes: &[u8], problems: &mut Problems) -> Table {
        let (text, _) = decode(bytes);
        let mut rdr = csv::ReaderBuilder::new().has_headers(true).flexible(true).from_reader(text.as_bytes());
        let headers: Vec<String> = match rdr.headers() {
            Ok(h) => h.iter().map(|s| s.trim().to_ascii_lowercase()).collect(),
            Err(e) => {
                problems.push(Problem::at(file, 1, "", format!("cannot read the header line: {e}")));
                return Table { file: file.to_string(), ..Table::default() };
            }
        };
        let mut rows = Vec::new();
        let mut text = String::with_capacity(bytes.len());
        let mut ends = Vec::new();
        let mut r = csv::StringRecord::new();
        loop {
            match rdr.read_record(&mut r) {
                Ok(false) => break,
                Ok(true) => {
                    let line = r.position().map_or(0, csv::Position::line);
                    // Fields are trimmed once, as they are stored.
                    if r.iter().all(|f| f.bytes().all(|b| b.is_ascii_whitespace())) {
                        continue;
                    }
                    if r.len() > headers.len() {
                        problems.push(Problem::at(
                            file,
                            line,
                            "",
                            format!("{} fields but the header has {}", r.len(), headers.len()),
                        ));
                        continue;
                    }
                    let first = ends.len();
                    for f in &r {
                        text.push_str(f.trim_ascii());
                        ends.push(text.len());
                    }
                    rows.push(Row { line, first, len: r.len() });
                }
                Err(e) => {
                    let line = e.position().map_or(0, csv::Position::line);
                    problems.push(Problem::at(file, line, "", format!("malformed CSV: {e}")));
                }
            }
        }
        Table { file: file.to_string(), headers, rows, text, ends }
    }

    /// Field `i` of a row, trimmed ("" past the row's end).
    fn field(&self, row: &Row, i: usize) -> &str {
        if i >= row.len {
            return "";
        }
        let k = row.first + i;
        let start = if k == 0 { 0 } else { self.ends[k - 1] };
        &self.text[start..self.ends[k]]
    }

    /// Index of a column by (lower-case) name.
    pub fn col(&self, name: &str) -> Option<usize> {
        self.headers.iter().position(|h| h == name)
    }

    /// Pushes a problem for each required column that is missing; true when all are there.
    pub fn require(&self, names: &[&str], problems: &mut Problems) -> bool {
        let mut ok = true;
        for n in names {
            if self.col(n).is_none() {
                problems.push(Problem::at(&self.file, 1, n, "required column is missing from the header"));
                ok = false;
            }
        }
        ok
    }

    /// Columns not in `known`, in file order.
    pub fn extra_columns(&self, known: &[&str]) -> Vec<String> {
        self.headers.iter().filter(|h| !known.contains(&h.as_str())).cloned().collect()
    }
}

/// A column named once and looked up once per table, for readers that ask for the same
/// columns on every row of a large file.
#[derive(Debug, Clone, Copy)]
pub struct Col<'n> {
    /// Index in the header, if the column is there.
    pub idx: Option<usize>,
    /// Its name, for messages.
    pub name: &'n str,
}

/// A way to name a column: its name, looked up each time, or a [`Col`] already resolved.
pub trait ColumnRef: Copy {
    /// The column's index in a table.
    fn index(self, t: &Table) -> Option<usize>;
    /// The column's name, for messages.
    fn label(&self) -> &str;
}

impl ColumnRef for &str {
    fn index(self, t: &Table) -> Option<usize> {
        t.col(self)
    }
    fn label(&self) -> &str {
        self
    }
}

impl ColumnRef for Col<'_> {
    fn index(self, _: &Table) -> Option<usize> {
        self.idx
    }
    fn label(&self) -> &str {
        self.name
    }
}

impl Table {
    /// Resolves a column once.
    pub fn column<'n>(&self, name: &'n str) -> Col<'n> {
        Col { idx: self.col(name), name }
    }
}

/// Typed access to the fields of one row, pushing located problems.
#[derive(Debug)]
pub struct Fields<'a> {
    table: &'a Table,
    row: &'a Row,
    /// Problems found so far.
    pub problems: &'a mut Problems,
}

impl<'a> Fields<'a> {
    /// Fields of a row.
    pub fn new(table: &'a Table, row: &'a Row, problems: &'a mut Problems) -> Self {
        Fields { table, row, problems }
    }

    /// The row's line.
    pub fn line(&self) -> u64 {
        self.row.line
    }

    /// Raw text of a column ("" when missing or blank).
    pub fn text(&self, c: impl ColumnRef) -> &'a str {
        c.index(self.table).map_or("", |i| self.table.field(self.row, i))
    }

    /// Pushes a problem on this row.
    pub fn problem(&mut self, field: &str, message: impl Into<String>) {
        self.problems.push(Problem::at(&self.table.file, self.row.line, field, message));
    }

    /// An optional typed value: blank is `None`; a bad value is a problem and `None`.
    pub fn opt<T>(&mut self, c: impl ColumnRef) -> Option<T>
    where
        T: FromStr,
        T::Err: std::fmt::Display,
    {
        let t = self.text(c);
        if t.is_empty() {
            return None;
        }
        match t.parse::<T>() {
            Ok(v) => Some(v),
            Err(e) => {
                self.problem(c.label(), e.to_string());
                None
            }
        }
    }

    /// A required typed value: blank or bad is a problem.
    pub fn req<T>(&mut self, c: impl ColumnRef) -> Option<T>
    where
        T: FromStr,
        T::Err: std::fmt::Display,
    {
        if self.text(c).is_empty() {
            self.problem(c.label(), "is empty");
            return None;
        }
        self.opt(c)
    }

    /// An optional whole number.
    pub fn count(&mut self, c: impl ColumnRef) -> Option<u32> {
        let t = self.text(c);
        if t.is_empty() {
            return None;
        }
        match t.parse::<u32>() {
            Ok(v) => Some(v),
            Err(_) => {
                let msg = if t.starts_with('-') {
                    format!("'{t}' is negative")
                } else {
                    format!("'{t}' is not a whole number")
                };
                self.problem(c.label(), msg);
                None
            }
        }
    }

    /// A yes/no flag (`yes`, `y`, `true`, `1`, or blank/`no`).
    pub fn flag(&mut self, c: impl ColumnRef) -> bool {
        match self.text(c).to_ascii_lowercase().as_str() {
            "" | "no" | "n" | "false" | "0" => false,
            "yes" | "y" | "true" | "1" => true,
            other => {
                self.problem(c.label(), format!("'{other}' is not yes or no"));
                false
            }
        }
    }

    /// The values of the given columns, in order ("" when missing).
    pub fn texts(&self, names: &[String]) -> Vec<String> {
        names.iter().map(|n| self.text(n.as_str()).to_string()).collect()
    }
}

/// Writes a CSV file for the campaign folder: UTF-8, LF, quoting only where needed.
pub fn write_csv<I, R>(headers: &[&str], extra: &[String], rows: I) -> Vec<u8>
where
    I: IntoIterator<Item = R>,
    R: IntoIterator<Item = String>,
{
    let mut w = csv::WriterBuilder::new().terminator(csv::Terminator::Any(b'\n')).from_writer(Vec::new());
    let head: Vec<&str> = headers.iter().copied().chain(extra.iter().map(String::as_str)).collect();
    // Writing into a Vec<u8> cannot fail.
    let _ = w.write_record(&head);
    for r in rows {
        let r: Vec<String> = r.into_iter().collect();
        let _ = w.write_record(&r);
    }
    w.into_inner().unwrap_or_default()
}
