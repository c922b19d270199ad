//! What sowbridge keeps beside the order of battle: men due back on later turns
//! (`returns.csv`) and the campaign score per year and side (`score.csv`, rule 4.0).

use super::kinds::Side;

/// Why men come back.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ReturnKind {
    /// Stragglers, routed and missing men rejoining.
    Stragglers,
    /// Wounded men recovered.
    Wounded,
}

impl ReturnKind {
    /// The word in `returns.csv`.
    pub fn word(self) -> &'static str {
        match self {
            ReturnKind::Stragglers => "stragglers",
            ReturnKind::Wounded => "wounded",
        }
    }
}

impl std::str::FromStr for ReturnKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "stragglers" => Ok(ReturnKind::Stragglers),
            "wounded" => Ok(ReturnKind::Wounded),
            o => Err(format!("'{o}' is not stragglers or wounded")),
        }
    }
}

/// One row of `returns.csv`: men due back to a unit at the start of a turn.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
pub struct Return {
    /// The turn they return on.
    pub turn: u32,
    /// Campaign unit.
    pub unit: String,
    /// Men.
    pub men: u32,
    /// Stragglers or wounded.
    pub kind: ReturnKind,
    /// The battle they were lost in.
    pub battle: String,
}

/// One row of `score.csv`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct ScoreRow {
    /// Campaign year (rule 4.1: the first ends in February 1809).
    pub year: u32,
    /// Side.
    pub side: Side,
    /// Battles won.
    pub battles_won: u32,
    /// Battles lost.
    pub battles_lost: u32,
    /// Battles drawn.
    pub battles_drawn: u32,
    /// Enemy men taken prisoner.
    pub prisoners_taken: u32,
    /// Enemy guns captured.
    pub guns_captured: u32,
}

impl ScoreRow {
    /// A row of zeros.
    pub fn new(year: u32, side: Side) -> Self {
        ScoreRow {
            year,
            side,
            battles_won: 0,
            battles_lost: 0,
            battles_drawn: 0,
            prisoners_taken: 0,
            guns_captured: 0,
        }
    }
    /// Battle score of rule 4.0: won +1, lost −1; a draw scores 0 (it counts only in the
    /// French test of `rules::score::french_battles_succeed`).
    pub fn battle_score(&self) -> i64 {
        i64::from(self.battles_won) - i64::from(self.battles_lost)
    }
}

/// 4.0's separate test of the French battles for a year: they "must have won more battles
/// than they have lost or drawn".
pub fn french_battles_succeed(won: u32, lost: u32, drawn: u32) -> bool {
    u64::from(won) > u64::from(lost) + u64::from(drawn)
}
