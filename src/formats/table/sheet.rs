//! A CSV file as records: each row as column → value, with the header as written and the way
//! the file was saved, to change records and write the file back the same way.

use std::collections::{BTreeMap, BTreeSet};

use crate::error::Problems;
use crate::model::dialect::Dialect;

use super::{Table, write_csv};

/// A CSV file's records: header names as written, and each row as column → value.
#[derive(Debug)]
pub struct Sheet {
    /// Header names as the file spells them, in the file's order.
    pub names: Vec<String>,
    /// The lower-cased names, as rows are keyed.
    pub columns: Vec<String>,
    /// Each row, by lower-cased column name.
    pub rows: Vec<BTreeMap<String, String>>,
    /// How the file was saved.
    pub dialect: Dialect,
}

impl Sheet {
    /// Reads a file's records (a file that cannot be read as CSV has none).
    pub fn read(file: &str, bytes: &[u8]) -> Sheet {
        let mut p = Problems::default();
        let t = Table::parse(file, bytes, &mut p);
        let rows = t
            .rows
            .iter()
            .map(|r| {
                t.headers.iter().enumerate().map(|(i, h)| (h.clone(), t.field(r, i).to_string())).collect()
            })
            .collect();
        let (text, _) = crate::formats::text::decode(bytes);
        let names = t
            .dialect
            .reader()
            .has_headers(false)
            .from_reader(text.as_bytes())
            .records()
            .next()
            .and_then(Result::ok)
            .map(|r| r.iter().map(|f| f.trim().to_string()).collect())
            .unwrap_or_else(|| t.headers.clone());
        Sheet { names, columns: t.headers, rows, dialect: t.dialect }
    }

    /// The values of column `key` of every row, when they are all different: the rows' keys.
    pub fn keys(&self, key: &str) -> Option<Vec<String>> {
        let keys: Vec<String> = self.rows.iter().map(|r| r.get(key).cloned().unwrap_or_default()).collect();
        let distinct: BTreeSet<&String> = keys.iter().collect();
        (distinct.len() == keys.len()).then_some(keys)
    }

    /// The records written back in the file's own header names and dialect.
    pub fn write(&self) -> Vec<u8> {
        let names: Vec<&str> = self.names.iter().map(String::as_str).collect();
        let rows =
            self.rows.iter().map(|r| self.columns.iter().map(|c| r.get(c).cloned().unwrap_or_default()));
        write_csv(self.dialect, &names, &[], rows)
    }
}
