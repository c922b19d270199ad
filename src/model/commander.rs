//! Commanding generals and their battle records (rule 8.5 counts battles fought and won).

use super::kinds::Side;

/// One row of `commanders.csv`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Commander {
    /// Name as used in `forces.csv`.
    pub name: String,
    /// Side.
    pub side: Side,
    /// Battles fought.
    pub battles_fought: u32,
    /// Battles won.
    pub battles_won: u32,
    /// Blank, or `wounded`, `killed`, `captured`: flagged for replacement.
    pub status: String,
    /// Values of columns sowbridge does not know.
    pub extra: Vec<String>,
}
