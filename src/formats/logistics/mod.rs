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

/// Finding and reading the install's files is the store's ([`crate::store::logistics`]);
/// kept under this path for the code that reads them from here.
pub use crate::store::logistics::{logistics_folder, read_layers, read_logistics};

mod parse;
mod records;
#[cfg(test)]
mod tests;

pub use parse::{LogisticsFile, LogisticsFiles, parse_logistics};
pub use records::{Record, records, split_fields};

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
