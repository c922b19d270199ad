//! The journal's answers about the turn: the last turn advance that stands, and what the
//! moves of a turn that stand have marched.

use std::collections::{BTreeMap, BTreeSet};

use super::journal::{Entry, EntryKind, FileChange, Journal, MarchRoute};

impl Journal {
    /// The entry of the last turn advance that stands (not undone by `undo turn`), by index.
    pub fn last_standing_turn_advance(&self) -> Option<usize> {
        let undone: BTreeSet<u64> = self.entries.iter().filter_map(|e| e.undoes).collect();
        self.entries.iter().rposition(|e| e.kind == EntryKind::TurnAdvance && !undone.contains(&e.seq))
    }

    /// The lines of `file` that the entries from index `from` on changed (then `more`, an
    /// entry not yet written, such as the manual edit a change found), each as it stood before
    /// the first of them changed it, by line index (0 is the header): with the file as it is
    /// now, the file as it stood after entry `from - 1`. `None` when one of them rewrote the
    /// file whole (rows added, removed or reordered, the header changed): only a replay tells.
    pub fn lines_before<'j>(
        &'j self,
        from: usize,
        more: Option<&'j Entry>,
        file: &str,
    ) -> Option<BTreeMap<usize, &'j str>> {
        let mut out = BTreeMap::new();
        for e in self.entries.iter().skip(from).chain(more) {
            for ch in e.changes.iter().filter(|ch| ch.file() == file) {
                match ch {
                    FileChange::Lines { lines, .. } => {
                        for l in lines {
                            out.entry(l.i).or_insert(l.before.as_str());
                        }
                    }
                    FileChange::Whole { .. } => return None,
                }
            }
        }
        Some(out)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::journal::LineChange;

    fn lines(file: &str, changed: &[(usize, &str, &str)]) -> FileChange {
        FileChange::Lines {
            file: file.to_string(),
            lines: changed
                .iter()
                .map(|&(i, b, a)| LineChange { i, before: b.to_string(), after: a.to_string() })
                .collect(),
        }
    }

    fn entry(changes: Vec<FileChange>) -> Entry {
        Entry { changes, ..Entry::manual_edit("edit".into()) }
    }

    #[test]
    fn lines_before_are_the_first_before_of_each_line_since_an_entry() {
        let j = Journal {
            entries: vec![
                entry(vec![lines("forces.csv", &[(2, "A,0", "A,1")])]),
                entry(vec![lines("forces.csv", &[(3, "B,0", "B,1")]), lines("score.csv", &[(1, "x", "y")])]),
                entry(vec![lines("forces.csv", &[(3, "B,1", "B,2"), (5, "C,0", "C,1")])]),
            ],
        };
        let manual = entry(vec![lines("forces.csv", &[(5, "C,1", "C,2"), (7, "D,0", "D,1")])]);
        let got = j.lines_before(1, Some(&manual), "forces.csv").unwrap();
        let want: BTreeMap<usize, &str> = [(3, "B,0"), (5, "C,0"), (7, "D,0")].into();
        assert_eq!(got, want, "entry 0 is before, and each line's first change counts");
        assert_eq!(j.lines_before(3, None, "forces.csv").unwrap(), BTreeMap::new());
        assert_eq!(j.lines_before(1, None, "score.csv").unwrap(), BTreeMap::from([(1, "x")]));
        let whole = entry(vec![FileChange::Whole { file: "forces.csv".into(), before: None, after: None }]);
        assert_eq!(j.lines_before(1, Some(&whole), "forces.csv"), None, "a file rewritten whole");
        assert!(j.lines_before(0, Some(&whole), "score.csv").is_some(), "only the file asked about");
    }
}
