//! The order of battle as a tree, checked whole once every row is read: parents that exist and
//! outrank their children, no unit its own ancestor, every hex on the map, every commander listed.

use std::collections::BTreeSet;

use crate::error::{Problem, Problems};
use crate::model::oob::IdMap;
use crate::model::{CampaignMap, Commander, OrderOfBattle};

use super::names;

/// What the order of battle may refer to in the other files. A file that was not read
/// whole (see [`Table::whole`]) is `None` and references into it are not checked, since its
/// own problems say why; a name listed on a row refused for another reason is not reported
/// unknown either. One cause, one message.
#[derive(Debug, Default)]
pub(super) struct Listed {
    /// Every name on a row of `settlements.csv`.
    pub(super) settlements: Option<BTreeSet<String>>,
    /// Every name on a row of `commanders.csv`.
    pub(super) commanders: Option<BTreeSet<String>>,
}

/// Checks the tree: duplicate ids, unknown parents, cycles, sides, levels, hexes, commanders.
/// It walks the order of battle's own indexes (by id, first row of an id winning).
pub(super) fn validate_tree(
    oob: &OrderOfBattle,
    lines: &[u32],
    map: &CampaignMap,
    commanders: &[Commander],
    listed: &Listed,
    p: &mut Problems,
) {
    let file = names::FORCES;
    let rows = oob.units();
    for &(row, first) in oob.duplicates() {
        p.push(Problem::at(
            file,
            u64::from(lines[row]),
            "id",
            format!("duplicate id '{}' (first on line {})", rows[row].id, lines[first]),
        ));
    }
    let endless = endless_ancestry(oob);
    let hex_refused: BTreeSet<u64> =
        p.0.iter()
            .filter(|x| x.file == file && x.field.as_deref() == Some("hex"))
            .filter_map(|x| x.line)
            .collect();
    // Ids made of digits, by their number: built at the first unknown parent, if any.
    let mut lost_zeros: Option<IdMap<&str, &str>> = None;
    // Commanders and settlements by name: one lookup per row, not a walk over the list.
    let mut commander_by_name: IdMap<&str, &Commander> =
        IdMap::with_capacity_and_hasher(commanders.len(), Default::default());
    for c in commanders {
        commander_by_name.entry(c.name.as_str()).or_insert(c);
    }
    for (i, u) in rows.iter().enumerate() {
        let line = u64::from(lines[i]);
        match &u.parent {
            Some(pid) => match oob.parent_row(i).map(|k| &rows[k]) {
                None => {
                    let zeros = lost_zeros.get_or_insert_with(|| ids_by_number(oob));
                    let hint = match zeros.get(pid.trim_start_matches('0')) {
                        Some(id) if pid.bytes().all(|b| b.is_ascii_digit()) => format!(
                            " (there is a row '{id}': Excel drops the leading zeros of ids that look like \
                             numbers; format the id and parent columns as Text)"
                        ),
                        _ => String::new(),
                    };
                    p.push(Problem::at(file, line, "parent", format!("unknown parent '{pid}'{hint}")));
                }
                Some(parent) => {
                    if !parent.level.is_formation() {
                        p.push(Problem::at(
                            file,
                            line,
                            "parent",
                            format!("parent '{pid}' is a {}, which cannot command other rows", parent.level),
                        ));
                    } else if u.level.is_formation() && u.level.rank() <= parent.level.rank() {
                        p.push(Problem::at(
                            file,
                            line,
                            "level",
                            format!("a {} cannot stand under a {} ('{pid}')", u.level, parent.level),
                        ));
                    }
                    if parent.side() != u.side() {
                        p.push(Problem::at(
                            file,
                            line,
                            "nation",
                            format!("{} ({}) is under '{pid}' of the other side", u.id, u.nation),
                        ));
                    }
                }
            },
            None => {
                // A hex refused as written already has its problem.
                if u.hex.is_none() && !hex_refused.contains(&line) {
                    p.push(Problem::at(file, line, "hex", format!("force '{}' has no hex", u.id)));
                }
                // A march off road halts with its next hex as `moving_to` too (`move`).
                if let (Some(h), Some(m)) = (u.hex, u.moving_to)
                    && !map.grid.adjacent(h, m)
                {
                    p.push(Problem::at(file, line, "moving_to", format!("{m} is not adjacent to {h}")));
                }
                if let Some(d) = u.depot()
                    && listed.settlements.as_ref().is_some_and(|names| !names.contains(d))
                {
                    p.push(Problem::at(file, line, "depot", format!("unknown settlement '{d}'")));
                }
            }
        }
        if let Some(c) = u.commander() {
            match commander_by_name.get(c) {
                None if listed.commanders.as_ref().is_none_or(|names| names.contains(c)) => {}
                None => {
                    p.push(Problem::at(file, line, "commander", format!("'{c}' is not in commanders.csv")))
                }
                Some(cm) if cm.side != u.side() => p.push(Problem::at(
                    file,
                    line,
                    "commander",
                    format!("'{c}' fights for the {} but commands a unit of the {}", cm.side, u.side()),
                )),
                Some(_) => {}
            }
            if u.is_unit() {
                p.push(Problem::at(
                    file,
                    line,
                    "commander",
                    "units have no commanding general; leave it empty",
                ));
            }
        }
        if endless[i] {
            p.push(Problem::at(file, line, "parent", format!("'{}' is its own ancestor (a cycle)", u.id)));
        }
    }
}

/// The ids made only of digits, by their digits without leading zeros: where a parent that
/// Excel shortened (`101` for `0101`) most likely points.
pub(super) fn ids_by_number(oob: &OrderOfBattle) -> IdMap<&str, &str> {
    oob.units()
        .iter()
        .map(|u| u.id.as_str())
        .filter(|id| id.bytes().all(|b| b.is_ascii_digit()))
        .map(|id| (id.trim_start_matches('0'), id))
        .collect()
}

/// For each row, whether its walk up through the parents never ends (it is on a cycle or
/// leads into one). Each row is walked once: a walk stops at a row already judged.
pub(super) fn endless_ancestry(oob: &OrderOfBattle) -> Vec<bool> {
    #[derive(Clone, Copy, PartialEq)]
    enum State {
        Unseen,
        OnWalk,
        Ends,
        Endless,
    }
    let n = oob.units().len();
    let mut state = vec![State::Unseen; n];
    let mut walk = Vec::new();
    for start in 0..n {
        let mut cur = start;
        let verdict = loop {
            match state[cur] {
                State::Ends => break State::Ends,
                State::Endless | State::OnWalk => break State::Endless,
                State::Unseen => {}
            }
            state[cur] = State::OnWalk;
            walk.push(cur);
            match oob.parent_row(cur) {
                Some(next) => cur = next,
                None => break State::Ends,
            }
        };
        for i in walk.drain(..) {
            state[i] = verdict;
        }
    }
    state.into_iter().map(|s| s == State::Endless).collect()
}
