//! `commanders.csv`: the commanders, their battles and their status, read and written.

use std::collections::hash_map::Entry;

use compact_str::CompactString;

use crate::error::Problems;
use crate::formats::table::{Fields, Table, write_csv};
use crate::model::dialect::Dialect;
use crate::model::oob::IdMap;
use crate::model::{Commander, Player, Side};

use super::COMMANDER_COLUMNS;

/// Every name on a row of `commanders.csv`, each with the side of the commander read from its
/// (first) row, `None` where that row was refused: what the order of battle's commanders are
/// looked up in.
pub(super) type Named = IdMap<CompactString, Option<Side>>;

/// The commanders of `commanders.csv`, its columns after the known ones, and its [`Named`].
pub(super) fn parse_commanders(t: &Table, p: &mut Problems) -> (Vec<Commander>, Vec<String>, Named) {
    let mut out: Vec<Commander> = Vec::with_capacity(t.rows.len());
    // Names already read, so that a duplicate is found without a walk over every row.
    let mut named: Named = IdMap::with_capacity_and_hasher(t.rows.len(), Default::default());
    let extra_cols = t.extra_columns(&COMMANDER_COLUMNS);
    let [c_name, c_side, c_fought, c_won, c_status, c_player] = COMMANDER_COLUMNS.map(|n| t.column(n));
    if !t.require(&["name", "side"], p) {
        // No row is read, but the names are listed all the same: the missing column is the
        // one problem.
        for row in &t.rows {
            named.entry(CompactString::from(t.text(row, c_name))).or_insert(None);
        }
        return (out, extra_cols, named);
    }
    for row in &t.rows {
        let name = t.text(row, c_name);
        let mut f = Fields::new(t, row, p);
        if name.is_empty() {
            f.problem("name", "is empty");
            continue;
        }
        let side: Option<Side> = f.req(c_side);
        let fought = f.count(c_fought).unwrap_or(0);
        let won = f.count(c_won).unwrap_or(0);
        if won > fought {
            f.problem("battles_won", format!("{won} battles won but only {fought} fought"));
        }
        match named.entry(CompactString::from(name)) {
            Entry::Occupied(_) => {
                f.problem("name", format!("commander '{name}' is listed twice"));
                continue;
            }
            Entry::Vacant(e) => {
                e.insert(side);
            }
        }
        // The word in any case, matched without a lower-cased copy of every row's (a large
        // campaign has tens of thousands of commanders).
        let word = f.text(c_player).trim();
        let player = match Player::ALL.into_iter().find(|p| word.eq_ignore_ascii_case(p.word())) {
            Some(player) => player,
            None => {
                f.problem("player", format!("'{}' is not yes, no, exempt or blank", word.to_lowercase()));
                Player::Default
            }
        };
        let extra = if extra_cols.is_empty() { Vec::new() } else { f.texts(&extra_cols) };
        if let Some(side) = side {
            out.push(Commander {
                name: name.to_string(),
                side,
                battles_fought: fought,
                battles_won: won,
                status: f.text(c_status).to_string(),
                player,
                extra,
            });
        }
    }
    (out, extra_cols, named)
}

/// Writes `commanders.csv` in the dialect given.
pub fn write_commanders(commanders: &[Commander], extra_cols: &[String], dialect: Dialect) -> Vec<u8> {
    write_csv(
        dialect,
        &COMMANDER_COLUMNS,
        extra_cols,
        commanders.iter().map(|c| {
            let mut r = vec![
                c.name.clone(),
                c.side.to_string(),
                c.battles_fought.to_string(),
                c.battles_won.to_string(),
                c.status.clone(),
                c.player.word().to_string(),
            ];
            r.extend(c.extra.iter().cloned());
            r
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_player_word_is_read_in_any_case_and_another_word_is_a_problem_on_its_line() {
        let text =
            "name,side,player\nA,French,YES\nB,French, Exempt \nC,French,no\nD,French,\nE,French,Maybe\n";
        let mut p = Problems::default();
        let t = Table::parse("commanders.csv", text.as_bytes(), &mut p);
        let (read, _, _) = parse_commanders(&t, &mut p);
        let players: Vec<Player> = read.iter().map(|c| c.player).collect();
        assert_eq!(players, [Player::Yes, Player::Exempt, Player::No, Player::Default, Player::Default]);
        let problems: Vec<String> = p.0.iter().map(ToString::to_string).collect();
        assert_eq!(problems.len(), 1, "{problems:?}");
        assert!(problems[0].contains("commanders.csv:6"), "{problems:?}");
        assert!(problems[0].contains("player"), "{problems:?}");
        assert!(problems[0].contains("'maybe' is not yes, no, exempt or blank"), "{problems:?}");
    }
}
