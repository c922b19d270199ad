//! `decisions.csv`: each side's advice of the enemy on contact (8.5, the dice rolled) and its
//! decision to fight or withdraw (8.1, 8.2).

use crate::error::Problems;
use crate::model::HexId;
use crate::model::Side;
use crate::model::decisions::{ContactDecision, Decision};
use crate::model::dialect::Dialect;

use super::table::{Fields, Table, write_csv};

/// File name.
pub const DECISIONS: &str = "decisions.csv";
/// Columns.
pub const DECISION_COLUMNS: [&str; 7] = ["turn", "hex", "side", "die", "men_roll", "guns_roll", "decision"];

/// Parses `decisions.csv`, with the dialect it was saved in.
pub fn parse_decisions_into(bytes: &[u8], p: &mut Problems) -> (Vec<ContactDecision>, Dialect) {
    let t = Table::parse(DECISIONS, bytes, p);
    let mut out = Vec::new();
    if !t.require(&DECISION_COLUMNS, p) {
        return (out, t.dialect);
    }
    for row in &t.rows {
        let mut f = Fields::new(&t, row, p);
        let turn = f.req_count("turn");
        let hex = f.req::<HexId>("hex");
        let side = f.req::<Side>("side");
        let die = f.count("die");
        let men_roll = f.count("men_roll");
        let guns_roll = f.count("guns_roll");
        let decision = f.opt::<Decision>("decision");
        if let (Some(turn), Some(hex), Some(side)) = (turn, hex, side) {
            let (die, men_roll, guns_roll) =
                (die.unwrap_or(0), men_roll.unwrap_or(0), guns_roll.unwrap_or(0));
            if die > 0 && (men_roll == 0 || men_roll > die || guns_roll == 0 || guns_roll > die) {
                f.problem(
                    "men_roll",
                    format!("the faces {men_roll} and {guns_roll} are not both faces of a d{die}"),
                );
                continue;
            }
            out.push(ContactDecision { turn, hex, side, die, men_roll, guns_roll, decision });
        }
    }
    (out, t.dialect)
}

/// Writes `decisions.csv`.
pub fn write_decisions(rows: &[ContactDecision], dialect: Dialect) -> Vec<u8> {
    let n = |v: u32| if v == 0 { String::new() } else { v.to_string() };
    write_csv(
        dialect,
        &DECISION_COLUMNS,
        &[],
        rows.iter().map(|r| {
            vec![
                r.turn.to_string(),
                r.hex.to_string(),
                r.side.to_string(),
                n(r.die),
                n(r.men_roll),
                n(r.guns_roll),
                r.decision.map(|d| d.word().to_string()).unwrap_or_default(),
            ]
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decisions_read_back_what_they_write_and_refuse_a_face_off_the_die() {
        let rows = vec![
            ContactDecision {
                turn: 20,
                hex: HexId::new(18, 28),
                side: Side::French,
                die: 8,
                men_roll: 3,
                guns_roll: 8,
                decision: Some(Decision::Fight),
            },
            ContactDecision {
                turn: 20,
                hex: HexId::new(18, 28),
                side: Side::Allies,
                die: 0,
                men_roll: 0,
                guns_roll: 0,
                decision: None,
            },
        ];
        let bytes = write_decisions(&rows, Dialect::default());
        let mut p = Problems::default();
        assert_eq!(parse_decisions_into(&bytes, &mut p).0, rows);
        assert!(p.is_empty());
        let bad = "turn,hex,side,die,men_roll,guns_roll,decision\n20,18.28,French,6,7,1,maybe\n";
        let mut p = Problems::default();
        assert!(parse_decisions_into(bad.as_bytes(), &mut p).0.is_empty());
        let text: Vec<String> = p.0.iter().map(ToString::to_string).collect();
        assert!(text.iter().any(|t| t.contains("decisions.csv") && t.contains("decision")), "{text:?}");
    }
}
