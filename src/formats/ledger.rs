//! `returns.csv` and `score.csv`: read and written by sowbridge, readable by the umpire.

use crate::error::Problems;
use crate::model::Side;
use crate::model::dialect::Dialect;
use crate::model::ledger::{Return, ScoreRow};

use super::table::{Fields, Table, write_csv};

/// File names.
pub const RETURNS: &str = "returns.csv";
/// File names.
pub const SCORE: &str = "score.csv";

/// Columns of `returns.csv`.
pub const RETURN_COLUMNS: [&str; 5] = ["turn", "unit", "men", "kind", "battle"];
/// Columns of `score.csv`.
pub const SCORE_COLUMNS: [&str; 9] = [
    "year",
    "side",
    "battles_won",
    "battles_lost",
    "battles_drawn",
    "prisoners_taken",
    "guns_captured",
    "battle_score",
    "french_battle_test",
];

use crate::model::limits::{MAX_TURN, MAX_UNIT_MEN};

/// Parses `returns.csv`, read as a table.
pub fn parse_returns(t: &Table, p: &mut Problems) -> Vec<Return> {
    parse_returns_lines(t, p).into_iter().map(|(_, r)| r).collect()
}

/// [`parse_returns`], each return with the line it was read from.
pub fn parse_returns_lines(t: &Table, p: &mut Problems) -> Vec<(u64, Return)> {
    let mut out = Vec::new();
    if !t.require(&RETURN_COLUMNS, p) {
        return out;
    }
    for row in &t.rows {
        let mut f = Fields::new(t, row, p);
        let turn = f.req_count("turn").and_then(|_| f.count_at_most("turn", MAX_TURN, "a turn"));
        let men = f.req_count("men").and_then(|_| f.count_at_most("men", MAX_UNIT_MEN, "one return's men"));
        let kind = f.req("kind");
        let unit = f.id("unit").to_string();
        if unit.is_empty() {
            f.problem("unit", "is empty");
        }
        if let (Some(turn), Some(men), Some(kind)) = (turn, men, kind) {
            let battle = f.text("battle").to_string();
            out.push((f.line(), Return { turn, unit, men, kind, battle }));
        }
    }
    out
}

/// Parses `score.csv`, read as a table.
pub fn parse_score(t: &Table, p: &mut Problems) -> Vec<ScoreRow> {
    let mut out = Vec::new();
    if !t.require(&SCORE_COLUMNS[..7], p) {
        return out;
    }
    for row in &t.rows {
        let mut f = Fields::new(t, row, p);
        let year = f.req_count("year");
        let side: Option<Side> = f.req("side");
        let mut n = |c: &str| f.count(c).unwrap_or(0);
        let (w, l, d, pr, g) = (
            n("battles_won"),
            n("battles_lost"),
            n("battles_drawn"),
            n("prisoners_taken"),
            n("guns_captured"),
        );
        if let (Some(year), Some(side)) = (year, side) {
            out.push(ScoreRow {
                year,
                side,
                battles_won: w,
                battles_lost: l,
                battles_drawn: d,
                prisoners_taken: pr,
                guns_captured: g,
            });
        }
    }
    out
}

/// Writes `returns.csv`, sorted by turn, unit, kind, in the dialect given.
pub fn write_returns(returns: &[Return], dialect: Dialect) -> Vec<u8> {
    let mut v = returns.to_vec();
    v.sort();
    write_csv(
        dialect,
        &RETURN_COLUMNS,
        &[],
        v.iter().map(|r| {
            vec![
                r.turn.to_string(),
                r.unit.clone(),
                r.men.to_string(),
                r.kind.word().to_string(),
                r.battle.clone(),
            ]
        }),
    )
}

/// Writes `score.csv`, by year then side, in the dialect given.
pub fn write_score(rows: &[ScoreRow], dialect: Dialect) -> Vec<u8> {
    let mut v = rows.to_vec();
    v.sort_by_key(|r| (r.year, r.side));
    write_csv(
        dialect,
        &SCORE_COLUMNS,
        &[],
        v.iter().map(|r| {
            vec![
                r.year.to_string(),
                r.side.to_string(),
                r.battles_won.to_string(),
                r.battles_lost.to_string(),
                r.battles_drawn.to_string(),
                r.prisoners_taken.to_string(),
                r.guns_captured.to_string(),
                r.battle_score().to_string(),
                match r.side {
                    Side::French => {
                        let met = crate::model::ledger::french_battles_succeed(
                            r.battles_won,
                            r.battles_lost,
                            r.battles_drawn,
                        );
                        if met { "met" } else { "not met" }.to_string()
                    }
                    Side::Allies => String::new(),
                },
            ]
        }),
    )
}
