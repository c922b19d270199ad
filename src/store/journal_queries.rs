//! What the journal says still stands: one reading of its undo entries for every command.
//!
//! An undo entry takes back one earlier entry, written in one of two ways: the undo of a
//! battle names the battle (`battle`) and takes back the newest apply of that battle not yet
//! taken back; the undo of a move or of a turn advance names the entry by its sequence number
//! (`undoes`). An entry stands when it is no undo and no undo took it back.

use std::collections::BTreeMap;

use super::journal::{Entry, EntryKind, Journal};

impl Journal {
    /// Each entry an undo took back, by sequence number, with the sequence number of that undo.
    fn undone(&self) -> BTreeMap<u64, u64> {
        let mut undone = BTreeMap::new();
        let mut applied: BTreeMap<&str, Vec<u64>> = BTreeMap::new();
        for e in &self.entries {
            match (e.kind, e.battle.as_deref(), e.undoes) {
                (EntryKind::Apply, Some(b), _) => applied.entry(b).or_default().push(e.seq),
                (EntryKind::Undo, _, Some(seq)) => {
                    undone.insert(seq, e.seq);
                }
                (EntryKind::Undo, Some(b), None) => {
                    if let Some(seq) = applied.entry(b).or_default().pop() {
                        undone.insert(seq, e.seq);
                    }
                }
                _ => {}
            }
        }
        undone
    }

    /// The sequence number of the undo that took back entry `seq`, if one did.
    pub fn undone_by(&self, seq: u64) -> Option<u64> {
        self.undone().get(&seq).copied()
    }

    /// The entry an undo entry took back (`None` for any other entry).
    pub fn taken_back_by(&self, undo: &Entry) -> Option<&Entry> {
        if undo.kind != EntryKind::Undo {
            return None;
        }
        let undone = self.undone();
        self.entries.iter().find(|e| undone.get(&e.seq) == Some(&undo.seq))
    }

    /// True when entry `seq` is in the journal, is no undo, and no undo took it back.
    pub fn is_standing(&self, seq: u64) -> bool {
        self.entries.iter().any(|e| e.seq == seq && e.kind != EntryKind::Undo)
            && self.undone_by(seq).is_none()
    }

    /// The entries that stand, in journal order: every entry but the undos and the entries
    /// they took back.
    pub fn standing(&self) -> Vec<&Entry> {
        let undone = self.undone();
        self.entries.iter().filter(|e| e.kind != EntryKind::Undo && !undone.contains_key(&e.seq)).collect()
    }

    /// The newest entry of `kind` that stands.
    pub fn last_standing(&self, kind: EntryKind) -> Option<&Entry> {
        self.standing().into_iter().rev().find(|e| e.kind == kind)
    }

    /// The index in [`Journal::entries`] of entry `seq`.
    pub fn index_of(&self, seq: u64) -> Option<usize> {
        self.entries.iter().position(|e| e.seq == seq)
    }

    /// The apply entries that stand, in journal order: an apply stands until an undo of its
    /// battle follows it. The journal, not the battle records, is the authority on what was
    /// applied: a record restored from a backup does not take an apply back. Two standing
    /// applies of one battle are a result counted twice (`audit` fails on them).
    pub fn standing_applies(&self) -> Vec<&Entry> {
        self.standing().into_iter().filter(|e| e.kind == EntryKind::Apply && e.battle.is_some()).collect()
    }

    /// The standing apply of a battle, or of a result with this content hash.
    pub fn standing_apply(&self, battle: Option<&str>, hash: Option<&str>) -> Option<&Entry> {
        self.standing_applies().into_iter().find(|e| {
            (battle.is_some() && e.battle.as_deref() == battle)
                || (hash.is_some() && e.result_hash.as_deref() == hash)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn journal(entries: Vec<Entry>) -> Journal {
        let entries =
            entries.into_iter().enumerate().map(|(i, e)| Entry { seq: i as u64 + 1, ..e }).collect();
        Journal { entries }
    }

    #[test]
    fn both_undo_conventions_take_an_entry_back() {
        let a = Entry::apply("B1", 1, "battle B1".into(), vec![], "h1".into(), vec![]);
        let mut a1 = a.clone();
        a1.seq = 1;
        let adv = Entry::turn_advance(2, "turn 2".into(), vec![], vec![], vec![]);
        let mut adv2 = adv.clone();
        adv2.seq = 3;
        let j = journal(vec![
            a.clone(),
            Entry::undo_battle(&a1, "undo B1".into()),
            adv.clone(),
            Entry::undo_of(&adv2, "undo turn".into()),
            a,
            Entry::moved(2, "move".into(), vec![]),
        ]);
        assert_eq!(j.undone_by(1), Some(2));
        assert_eq!(j.undone_by(3), Some(4));
        assert_eq!(j.taken_back_by(&j.entries[3]).map(|e| e.seq), Some(3));
        assert!(!j.is_standing(1) && !j.is_standing(2) && j.is_standing(5));
        assert_eq!(j.standing().iter().map(|e| e.seq).collect::<Vec<_>>(), [5, 6]);
        assert_eq!(j.last_standing(EntryKind::TurnAdvance), None);
        assert_eq!(j.standing_apply(Some("B1"), None).map(|e| e.seq), Some(5));
        assert_eq!(j.standing_apply(None, Some("h1")).map(|e| e.seq), Some(5));
        assert_eq!(j.index_of(6), Some(5));
    }
}
