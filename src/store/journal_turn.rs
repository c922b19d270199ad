//! The journal's answers about the turn: the last turn advance that stands, and what the
//! moves of a turn that stand have marched.

use std::collections::{BTreeMap, BTreeSet};

use super::journal::{EntryKind, Journal, MarchRoute};

impl Journal {
    /// The entry of the last turn advance that stands (not undone by `undo turn`), by index.
    pub fn last_standing_turn_advance(&self) -> Option<usize> {
        let undone: BTreeSet<u64> = self.entries.iter().filter_map(|e| e.undoes).collect();
        self.entries.iter().rposition(|e| e.kind == EntryKind::TurnAdvance && !undone.contains(&e.seq))
    }

    /// Units of the turn's allowance each force has used in the moves of `turn` that stand
    /// (not undone): the last move entry's figure for the force, which counts the earlier
    /// ones. The figures are as recorded; the rules bound them by the turn's allowance.
    pub fn marched_this_turn(&self, turn: u32) -> BTreeMap<String, u64> {
        let undone: BTreeSet<u64> = self.entries.iter().filter_map(|e| e.undoes).collect();
        let mut used = BTreeMap::new();
        for e in &self.entries {
            if e.kind == EntryKind::Move && e.turn == turn && !undone.contains(&e.seq) {
                for (f, u) in &e.marched {
                    used.insert(f.clone(), *u);
                }
            }
        }
        used
    }

    /// Each force's march in the moves of `turn` that stand (not undone), for the turn's
    /// map, by force: the hexes of its marches joined in order, why and where the last one
    /// stopped. A move recorded before routes were is left out.
    pub fn marches_this_turn(&self, turn: u32) -> BTreeMap<String, MarchRoute> {
        let undone: BTreeSet<u64> = self.entries.iter().filter_map(|e| e.undoes).collect();
        let mut out: BTreeMap<String, MarchRoute> = BTreeMap::new();
        let moves = self.entries.iter().filter(|e| e.kind == EntryKind::Move && e.turn == turn);
        for e in moves.filter(|e| !undone.contains(&e.seq)) {
            for r in &e.routes {
                match out.get_mut(&r.force) {
                    Some(was) => {
                        // The later march starts where the earlier one stopped.
                        let more: Vec<&str> = r.marched.split(' ').skip(1).collect();
                        if !more.is_empty() {
                            was.marched = format!("{} {}", was.marched, more.join(" "));
                        }
                        was.rest.clone_from(&r.rest);
                        was.halt.clone_from(&r.halt);
                        was.toward.clone_from(&r.toward);
                    }
                    None => {
                        out.insert(r.force.clone(), r.clone());
                    }
                }
            }
        }
        out
    }
}
