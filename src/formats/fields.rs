//! Typed access to the fields of one row of a CSV file — a row of a [`Table`] or a record
//! read straight from the file — that reports every bad field as `file:line: field:
//! problem`, in the umpire's words (numbers Excel reformatted included).

use std::str::FromStr;

use crate::error::{Problem, Problems};

use super::excel::{count_problem, id_problem};
use super::table::{Row, Table};

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
    /// The column's index in a row's source.
    fn index<'a>(self, s: &impl RowSource<'a>) -> Option<usize>;
    /// The column's name, for messages.
    fn label(&self) -> &str;
}

impl ColumnRef for &str {
    fn index<'a>(self, s: &impl RowSource<'a>) -> Option<usize> {
        s.column(self)
    }
    fn label(&self) -> &str {
        self
    }
}

impl ColumnRef for Col<'_> {
    fn index<'a>(self, _: &impl RowSource<'a>) -> Option<usize> {
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

/// Where the fields of one row come from: a row of a [`Table`], or a record read straight
/// from the file by a streaming reader.
pub trait RowSource<'a>: Copy {
    /// The file's name, for messages.
    fn file(&self) -> &'a str;
    /// The row's 1-based line.
    fn line(&self) -> u64;
    /// Index of a column by (lower-case) name.
    fn column(&self, name: &str) -> Option<usize>;
    /// Field `i`, trimmed ("" past the row's end).
    fn field(&self, i: usize) -> &'a str;
}

/// One row of a [`Table`].
#[derive(Debug, Clone, Copy)]
pub struct TableRow<'a> {
    pub(super) table: &'a Table,
    pub(super) row: &'a Row,
}

impl<'a> RowSource<'a> for TableRow<'a> {
    fn file(&self) -> &'a str {
        &self.table.file
    }
    fn line(&self) -> u64 {
        self.row.line
    }
    fn column(&self, name: &str) -> Option<usize> {
        self.table.col(name)
    }
    fn field(&self, i: usize) -> &'a str {
        self.table.field(self.row, i)
    }
}

/// Typed access to the fields of one row, pushing located problems.
#[derive(Debug)]
pub struct Fields<'a, S: RowSource<'a> = TableRow<'a>> {
    src: S,
    /// Problems found so far.
    pub problems: &'a mut Problems,
}

impl<'a> Fields<'a> {
    /// Fields of a table's row.
    pub fn new(table: &'a Table, row: &'a Row, problems: &'a mut Problems) -> Self {
        Fields { src: TableRow { table, row }, problems }
    }
}

impl<'a, S: RowSource<'a>> Fields<'a, S> {
    /// Fields of any row source.
    pub fn over(src: S, problems: &'a mut Problems) -> Self {
        Fields { src, problems }
    }

    /// The row's line.
    pub fn line(&self) -> u64 {
        self.src.line()
    }

    /// Raw text of a column ("" when missing or blank).
    pub fn text(&self, c: impl ColumnRef) -> &'a str {
        c.index(&self.src).map_or("", |i| self.src.field(i))
    }

    /// Pushes a problem on this row.
    pub fn problem(&mut self, field: &str, message: impl Into<String>) {
        self.problems.push(Problem::at(self.src.file(), self.src.line(), field, message));
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

    /// An optional whole number of at most `max` (`what` says what it counts, for the
    /// message): a larger one is a problem and `None`.
    pub fn count_at_most(&mut self, c: impl ColumnRef, max: u32, what: &str) -> Option<u32> {
        let n = self.count(c)?;
        if n > max {
            self.problem(c.label(), format!("{n} is more than {what} can be (at most {max})"));
            return None;
        }
        Some(n)
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
                let msg = if t.bytes().all(|b| b.is_ascii_digit()) {
                    format!("'{t}' is too large")
                } else {
                    count_problem(t)
                };
                self.problem(c.label(), msg);
                None
            }
        }
    }

    /// A required whole number: blank is a problem, as is a number Excel reformatted.
    pub fn req_count(&mut self, c: impl ColumnRef) -> Option<u32> {
        if self.text(c).is_empty() {
            self.problem(c.label(), "is empty");
            return None;
        }
        self.count(c)
    }

    /// The text of an id column; an id Excel turned into scientific notation is a problem.
    pub fn id(&mut self, c: impl ColumnRef) -> &'a str {
        let t = self.text(c);
        if let Some(msg) = id_problem(t) {
            self.problem(c.label(), msg);
        }
        t
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
