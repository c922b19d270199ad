//! The campaign score's battles (rule 4.0): "Lost battles count as -1. Won battles count as
//! +1. The French must generate a positive score, and must have won more battles than they
//! have lost or drawn for their campaign in Spain to be considered successful."

use crate::model::Side;
use crate::model::ledger::ScoreRow;

/// The battles' share of a side's score for a year (4.0): won +1, lost −1; a draw scores 0.
pub fn battle_score(won: u32, lost: u32) -> i64 {
    i64::from(won) - i64::from(lost)
}

pub use crate::model::ledger::french_battles_succeed;

/// The French battle test of one campaign year.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct FrenchBattleTest {
    /// Campaign year (4.1).
    pub year: u32,
    /// French battles won.
    pub won: u32,
    /// French battles lost.
    pub lost: u32,
    /// Battles drawn.
    pub drawn: u32,
    /// Whether the French won more battles than they lost or drew.
    pub met: bool,
}

/// The French battle test for every campaign year of `score.csv`, by year.
pub fn french_battle_tests(score: &[ScoreRow]) -> Vec<FrenchBattleTest> {
    let mut out: Vec<FrenchBattleTest> = score
        .iter()
        .filter(|r| r.side == Side::French)
        .map(|r| FrenchBattleTest {
            year: r.year,
            won: r.battles_won,
            lost: r.battles_lost,
            drawn: r.battles_drawn,
            met: french_battles_succeed(r.battles_won, r.battles_lost, r.battles_drawn),
        })
        .collect();
    out.sort_by_key(|t| t.year);
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_draw_scores_nothing_but_counts_against_the_french_test() {
        assert_eq!(battle_score(1, 0), 1);
        assert_eq!(battle_score(0, 1), -1);
        assert_eq!(battle_score(0, 0), 0, "a drawn battle alone");
        assert!(french_battles_succeed(2, 0, 1));
        assert!(!french_battles_succeed(1, 0, 1), "won must be more than lost or drawn");
        assert!(!french_battles_succeed(0, 0, 0));
    }
}
