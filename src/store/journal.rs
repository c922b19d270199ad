//! The journal (`journal.jsonl`): an append-only record of every change sowbridge makes to
//! the campaign's state files and of every manual edit it finds, with a baseline copy of
//! the files as they were when the journal began (`journal-baseline/`). Replaying the
//! baseline through the entries rebuilds the state exactly; `audit` and `undo` rely on it.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

use crate::error::{Error, Result};
use crate::model::carryover::UnitCarryover;
use crate::model::dialect::{Dialect, Encoding};
use crate::model::roll::Roll;

/// The state files the journal follows (relative paths).
pub const STATE_FILES: [&str; 23] = [
    "campaign.toml",
    "forces.csv",
    "commanders.csv",
    "returns.csv",
    "score.csv",
    "avoidance.csv",
    // The turn's books (`formats::books`); `juntas.csv` is the umpire's table, not state.
    "sieges.csv",
    "siege-trains.csv",
    "revolts.csv",
    "occupation.csv",
    "campaign-years.csv",
    "intelligence.csv",
    "junta-orders.csv",
    "settlements.csv",
    "supply.csv",
    "trails.csv",
    "roads-seen.csv",
    // The advice and decisions on contact (8.1, 8.2, 8.5), written by `contacts`.
    "decisions.csv",
    "messages.csv",
    "standing-orders.csv",
    // The map, changed by `map import`.
    "map/hexes.csv",
    "map/roads.csv",
    "map/rivers.csv",
];

/// Folder of the baseline copies.
pub const BASELINE_DIR: &str = "journal-baseline";

/// The journal's head: the sequence number of the journal's last entry, written in the same
/// commit as the files that entry changed. A journal that does not end there is short (an
/// older copy restored, a sync conflict) or ahead of the files, never a manual edit.
pub const HEAD: &str = "journal-head.txt";

/// What an entry records.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EntryKind {
    /// Differences found between the files and the journal's last state.
    ManualEdit,
    /// A battle result applied.
    Apply,
    /// An applied battle reverted.
    Undo,
    /// The campaign moved to the next turn.
    TurnAdvance,
    /// Forces marched on their orders (`move`).
    Move,
    /// The map's files changed from a Tiled map (`map import`).
    MapImport,
    /// An exported battle cancelled (`battle cancel`): it will not be fought. No state file
    /// changes; the battle record says it.
    Cancel,
    /// Contacts advised or decided (`contacts --advise`, `contacts decide`): `decisions.csv`,
    /// with the dice of the advice (8.1, 8.2, 8.5).
    Contacts,
    /// Messages between commanders sent (`messages`, 6.3.1).
    Messages,
}

/// One changed line of a file whose rows kept their order.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct LineChange {
    /// 0-based line index.
    pub i: usize,
    /// The line before.
    pub before: String,
    /// The line after.
    pub after: String,
}

/// File content, as text or (for bytes that are not UTF-8) hex.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Content {
    /// UTF-8 text.
    Text(String),
    /// Hex of raw bytes.
    Hex(String),
}

impl Content {
    /// From bytes.
    pub fn of(bytes: &[u8]) -> Content {
        match std::str::from_utf8(bytes) {
            Ok(s) => Content::Text(s.to_string()),
            Err(_) => Content::Hex(bytes.iter().map(|b| format!("{b:02x}")).collect()),
        }
    }
    /// Back to bytes.
    pub fn bytes(&self) -> Result<Vec<u8>> {
        match self {
            Content::Text(s) => Ok(s.clone().into_bytes()),
            Content::Hex(h) => (0..h.len())
                .step_by(2)
                .map(|i| {
                    h.get(i..i + 2)
                        .and_then(|p| u8::from_str_radix(p, 16).ok())
                        .ok_or_else(|| Error::Other("journal: bad hex content".to_string()))
                })
                .collect(),
        }
    }
}

/// A change to one state file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "how", rename_all = "lowercase")]
pub enum FileChange {
    /// Lines changed in place (same number of lines, same keys in the same order).
    Lines {
        /// File.
        file: String,
        /// Changed lines.
        lines: Vec<LineChange>,
    },
    /// The whole file replaced (rows added, removed or reordered; or not text).
    Whole {
        /// File.
        file: String,
        /// Content before (None: absent).
        before: Option<Content>,
        /// Content after (None: removed).
        after: Option<Content>,
    },
}

impl FileChange {
    /// The file changed.
    pub fn file(&self) -> &str {
        match self {
            FileChange::Lines { file, .. } | FileChange::Whole { file, .. } => file,
        }
    }
}

/// A journal entry.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Entry {
    /// Sequence number, from 1.
    pub seq: u64,
    /// Kind.
    pub kind: EntryKind,
    /// The battle concerned.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub battle: Option<String>,
    /// Campaign turn when it was made.
    pub turn: u32,
    /// One line for people.
    pub summary: String,
    /// Changes to the state files.
    pub changes: Vec<FileChange>,
    /// SHA-256 of every state file after the entry ("" for an absent file).
    pub state: BTreeMap<String, String>,
    /// Dice rolled.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub dice: Vec<Roll>,
    /// Hash of the result file applied (apply).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub result_hash: Option<String>,
    /// Carry-over of every unit (apply), for the conservation audit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub carryover: Vec<UnitCarryover>,
    /// Men returned to each unit (turn advance), for the conservation audit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub returned: Vec<(String, u32)>,
    /// Units of its turn's allowance each force that marched has used, this move and earlier
    /// ones of the turn (move; a turn is `rules::march::TURN_UNITS`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub marched: Vec<(String, u64)>,
    /// The entry an undo reverted, for an undo of a move or of a turn advance.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub undoes: Option<u64>,
    /// Men each unit lost in a turn advance (sieges, winter, revolts; a garrison taken loses
    /// every man and its rows), for the conservation audit.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub lost: Vec<(String, u32)>,
    /// The dice stream the entry's dice came from (seeded from the campaign's seed), when
    /// `audit` can roll them again.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stream: Option<String>,
    /// The march of each force that marched (move), for the turn's map; absent from the
    /// entries of earlier versions, which the map then draws without routes.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub routes: Vec<MarchRoute>,
}

/// One force's march as a move entry records it, hexes as `CC.RR` separated by spaces.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct MarchRoute {
    /// The force.
    pub force: String,
    /// The hexes it marched through: its hex, then every hex entered.
    pub marched: String,
    /// The hexes ordered beyond where it stopped.
    #[serde(default, skip_serializing_if = "String::is_empty")]
    pub rest: String,
    /// Why it stopped short, in words.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub halt: Option<String>,
    /// The hex it was marching into when it halted in contact.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub toward: Option<String>,
}

/// The constructors of journal entries: the only place an entry is built. The store gives
/// each its sequence number, file changes and state hashes when it commits.
impl Entry {
    fn new(kind: EntryKind, turn: u32, summary: String) -> Entry {
        Entry {
            seq: 0,
            kind,
            battle: None,
            turn,
            summary,
            changes: Vec::new(),
            state: BTreeMap::new(),
            dice: Vec::new(),
            result_hash: None,
            carryover: Vec::new(),
            returned: Vec::new(),
            marched: Vec::new(),
            undoes: None,
            lost: Vec::new(),
            routes: Vec::new(),
            stream: None,
        }
    }

    /// Differences found between the files and the journal's last state, journalled before
    /// the change that found them.
    pub fn manual_edit(summary: String) -> Entry {
        Entry::new(EntryKind::ManualEdit, 0, summary)
    }

    /// A battle's result applied: its dice, the result file's hash and every unit's carry-over
    /// (for the conservation audit).
    pub fn apply(
        battle: &str,
        turn: u32,
        summary: String,
        dice: Vec<Roll>,
        result_hash: String,
        carryover: Vec<UnitCarryover>,
    ) -> Entry {
        Entry {
            battle: Some(battle.to_string()),
            dice,
            result_hash: Some(result_hash),
            carryover,
            ..Entry::new(EntryKind::Apply, turn, summary)
        }
    }

    /// An applied battle taken back: the apply entry it reverts.
    pub fn undo_battle(apply: &Entry, summary: String) -> Entry {
        Entry {
            battle: apply.battle.clone(),
            result_hash: apply.result_hash.clone(),
            ..Entry::new(EntryKind::Undo, apply.turn, summary)
        }
    }

    /// A move or a turn advance taken back: the entry it reverts, by sequence number.
    pub fn undo_of(e: &Entry, summary: String) -> Entry {
        Entry { undoes: Some(e.seq), ..Entry::new(EntryKind::Undo, e.turn, summary) }
    }

    /// The campaign moved to turn `turn`: the dice of its phases, the men returned to each
    /// unit and lost by each (for the conservation audit).
    pub fn turn_advance(
        turn: u32,
        summary: String,
        dice: Vec<Roll>,
        returned: Vec<(String, u32)>,
        lost: Vec<(String, u32)>,
    ) -> Entry {
        Entry { dice, returned, lost, ..Entry::new(EntryKind::TurnAdvance, turn, summary) }
    }

    /// Forces marched on their orders: the units of its turn's allowance each has used.
    pub fn moved(turn: u32, summary: String, marched: Vec<(String, u64)>) -> Entry {
        Entry { marched, ..Entry::new(EntryKind::Move, turn, summary) }
    }

    /// An exported battle cancelled: it will not be fought, and its forces are free.
    pub fn cancel_battle(battle: &str, turn: u32, summary: String) -> Entry {
        Entry { battle: Some(battle.to_string()), ..Entry::new(EntryKind::Cancel, turn, summary) }
    }

    /// Contacts advised (the dice of each side's 8.5 advice) or decided.
    pub fn contacts(turn: u32, summary: String, dice: Vec<Roll>) -> Entry {
        Entry { dice, ..Entry::new(EntryKind::Contacts, turn, summary) }
    }

    /// The entry with each force's march recorded (move), for the turn's map.
    pub fn with_routes(self, routes: Vec<MarchRoute>) -> Entry {
        Entry { routes, ..self }
    }

    /// Messages between commanders sent (6.3.1): the dice of their messengers, from `stream`.
    pub fn messages(turn: u32, summary: String, dice: Vec<Roll>, stream: String) -> Entry {
        Entry { dice, stream: Some(stream), ..Entry::new(EntryKind::Messages, turn, summary) }
    }

    /// This entry with the dice of the messengers it sent (6.3.1), from `stream`.
    pub fn with_dice(self, dice: Vec<Roll>, stream: String) -> Entry {
        if dice.is_empty() {
            return self;
        }
        Entry { dice, stream: Some(stream), ..self }
    }

    /// The map's files changed from an edited Tiled map.
    pub fn map_import(turn: u32, summary: String) -> Entry {
        Entry::new(EntryKind::MapImport, turn, summary)
    }
}

/// SHA-256 in hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

/// Bytes in lower-case hex.
pub(super) fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// Contents of the state files (None: absent).
pub type StateFiles = BTreeMap<String, Option<Vec<u8>>>;

/// Hashes of state files.
pub fn state_hashes(files: &StateFiles) -> BTreeMap<String, String> {
    files.iter().map(|(k, v)| (k.clone(), v.as_deref().map(sha256_hex).unwrap_or_default())).collect()
}

/// A row's key: its first field (a file saved with `;` between fields keys on the text
/// before the first `;`).
fn key_of(line: &str, sep: char) -> &str {
    line.split(sep).next().unwrap_or("")
}

/// The change between two versions of a file, if any.
pub fn diff_file(file: &str, before: Option<&[u8]>, after: Option<&[u8]>) -> Option<FileChange> {
    if before == after {
        return None;
    }
    if let (Some(b), Some(a)) = (before, after)
        && let (Ok(bs), Ok(as_)) = (std::str::from_utf8(b), std::str::from_utf8(a))
        && file.ends_with(".csv")
    {
        // One pass over both files, line by line: a large order of battle has hundreds of
        // thousands of lines and a battle changes a few dozen.
        let (mut bl, mut al) = (bs.split('\n'), as_.split('\n'));
        let header = bs.split('\n').next().unwrap_or("");
        let sep = char::from(Dialect::sniff(header.as_bytes(), Encoding::Utf8).separator);
        let mut lines = Vec::new();
        let mut keyed = true;
        for i in 0.. {
            match (bl.next(), al.next()) {
                (None, None) => break,
                (Some(x), Some(y)) if x == y => {}
                (Some(x), Some(y)) if i > 0 && key_of(x, sep) == key_of(y, sep) => {
                    lines.push(LineChange { i, before: x.to_string(), after: y.to_string() });
                }
                // Rows added, removed or reordered, or a header changed: the whole file.
                _ => {
                    keyed = false;
                    break;
                }
            }
        }
        if keyed {
            return Some(FileChange::Lines { file: file.to_string(), lines });
        }
    }
    Some(FileChange::Whole {
        file: file.to_string(),
        before: before.map(Content::of),
        after: after.map(Content::of),
    })
}

/// Applies a change forward (`forward`) or backward to a file's content; refuses when the
/// content is not what the change expects.
pub fn apply_change(content: Option<Vec<u8>>, change: &FileChange, forward: bool) -> Result<Option<Vec<u8>>> {
    let conflict = |what: String| Error::refused(format!("{}: {what}", change.file()));
    match change {
        FileChange::Lines { lines, .. } => {
            let bytes = content.ok_or_else(|| conflict("the file is missing".to_string()))?;
            let text = std::str::from_utf8(&bytes)
                .map_err(|_| conflict("the file is not UTF-8 text".to_string()))?;
            // Where each line starts: the file is copied once around its changed lines, not
            // split into a string per line (a large order of battle has hundreds of
            // thousands of them).
            let starts: Vec<usize> =
                std::iter::once(0).chain(text.match_indices('\n').map(|(i, _)| i + 1)).collect();
            let line = |i: usize| -> Option<&str> {
                let start = *starts.get(i)?;
                let end = starts.get(i + 1).map_or(text.len(), |&n| n - 1);
                Some(&text[start..end])
            };
            let mut order: Vec<&LineChange> = lines.iter().collect();
            order.sort_by_key(|l| l.i);
            let mut out = String::with_capacity(text.len() + 64);
            let mut copied = 0;
            let mut k = 0;
            while k < order.len() {
                let i = order[k].i;
                let Some(original) = line(i) else {
                    return Err(conflict(format!("line {} is missing", i + 1)));
                };
                // Changes to one line apply one after the other, in the entry's order.
                let mut cur = original;
                while let Some(l) = order.get(k).filter(|l| l.i == i) {
                    let (from, to) = if forward { (&l.before, &l.after) } else { (&l.after, &l.before) };
                    if cur != from.as_str() {
                        return Err(conflict(format!(
                            "line {} is '{}', expected '{}'",
                            i + 1,
                            cur.trim_end(),
                            from.trim_end()
                        )));
                    }
                    cur = to;
                    k += 1;
                }
                out.push_str(&text[copied..starts[i]]);
                out.push_str(cur);
                copied = starts[i] + original.len();
            }
            out.push_str(&text[copied..]);
            Ok(Some(out.into_bytes()))
        }
        FileChange::Whole { before, after, .. } => {
            let (from, to) = if forward { (before, after) } else { (after, before) };
            let expected = from.as_ref().map(Content::bytes).transpose()?;
            if content != expected {
                return Err(conflict("the file is not as the change expects".to_string()));
            }
            to.as_ref().map(Content::bytes).transpose()
        }
    }
}

/// The parsed journal.
#[derive(Debug, Clone, Default)]
pub struct Journal {
    /// Entries in order.
    pub entries: Vec<Entry>,
}

impl Journal {
    /// Parses `journal.jsonl` (a torn last line, left by a crash before its commit, is
    /// ignored).
    pub fn parse(bytes: &[u8]) -> Result<Journal> {
        let mut entries = Vec::new();
        let complete = match bytes.iter().rposition(|&b| b == b'\n') {
            Some(i) => &bytes[..=i],
            None => &[][..],
        };
        for (n, line) in complete.split(|&b| b == b'\n').enumerate() {
            if line.iter().all(u8::is_ascii_whitespace) {
                continue;
            }
            let e: Entry = serde_json::from_slice(line)
                .map_err(|e| Error::Other(format!("journal.jsonl:{}: unreadable entry: {e}", n + 1)))?;
            entries.push(e);
        }
        Ok(Journal { entries })
    }

    /// The next sequence number.
    pub fn next_seq(&self) -> u64 {
        self.entries.last().map_or(1, |e| e.seq + 1)
    }

    /// State hashes after the last entry.
    pub fn last_state(&self) -> Option<&BTreeMap<String, String>> {
        self.entries.last().map(|e| &e.state)
    }

    /// Replays the baseline through every entry (or through the first `upto` entries).
    pub fn replay(&self, baseline: &StateFiles, upto: Option<usize>) -> Result<StateFiles> {
        let mut state = baseline.clone();
        for (i, e) in self.entries.iter().take(upto.unwrap_or(usize::MAX)).enumerate() {
            replay_entry(&mut state, e, i == 0)?;
        }
        Ok(state)
    }
}

/// Replays one entry onto the state it follows, and checks the files against the hashes the
/// entry recorded: every file at the first entry (`first`), then the files the entry
/// changed (the others are as the previous entry left and checked them).
pub fn replay_entry(state: &mut StateFiles, e: &Entry, first: bool) -> Result<()> {
    for ch in &e.changes {
        let cur = state.get_mut(ch.file()).and_then(Option::take);
        let next = apply_change(cur, ch, true)
            .map_err(|err| Error::Other(format!("journal entry {} ({:?}): {err}", e.seq, e.kind)))?;
        state.insert(ch.file().to_string(), next);
    }
    for (f, h) in &e.state {
        if !first && !e.changes.iter().any(|c| c.file() == f) {
            continue;
        }
        let Some(content) = state.get(f) else { continue };
        if content.as_deref().map(sha256_hex).unwrap_or_default() != *h {
            return Err(Error::Other(format!(
                "journal entry {} ({:?}): replayed {f} does not match the hash it recorded",
                e.seq, e.kind
            )));
        }
    }
    Ok(())
}

/// Serialises an entry as one line.
pub fn entry_line(e: &Entry) -> Result<String> {
    serde_json::to_string(e).map_err(|err| Error::Other(err.to_string()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn line_changes_replay_forward_and_back() {
        let a = b"id,men\nA,600\nB,500\n".to_vec();
        let b = b"id,men\nA,540\nB,500\n".to_vec();
        let ch = diff_file("forces.csv", Some(&a), Some(&b)).unwrap();
        assert!(matches!(&ch, FileChange::Lines { lines, .. } if lines.len() == 1));
        assert_eq!(apply_change(Some(a.clone()), &ch, true).unwrap(), Some(b.clone()));
        assert_eq!(apply_change(Some(b.clone()), &ch, false).unwrap(), Some(a.clone()));
        assert!(apply_change(Some(a.clone()), &ch, false).is_err(), "a conflict is refused");
    }

    #[test]
    fn a_file_saved_with_semicolons_is_journalled_line_by_line() {
        let a = b"id;men\r\nA;600\r\nB;500\r\n".to_vec();
        let b = b"id;men\r\nA;540\r\nB;500\r\n".to_vec();
        let ch = diff_file("forces.csv", Some(&a), Some(&b)).unwrap();
        assert!(matches!(&ch, FileChange::Lines { lines, .. } if lines.len() == 1), "{ch:?}");
        assert_eq!(apply_change(Some(a.clone()), &ch, true).unwrap(), Some(b.clone()));
        assert_eq!(apply_change(Some(b), &ch, false).unwrap(), Some(a));
    }

    #[test]
    fn added_rows_and_other_encodings_replace_the_whole_file() {
        let a = b"id,men\nA,600\n".to_vec();
        let b = b"id,men\nA,600\nC,100\n".to_vec();
        assert!(matches!(diff_file("forces.csv", Some(&a), Some(&b)), Some(FileChange::Whole { .. })));
        let w = b"id,name\nA,C\xe1diz\n".to_vec();
        let ch = diff_file("forces.csv", Some(&a), Some(&w)).unwrap();
        assert_eq!(apply_change(Some(a), &ch, true).unwrap(), Some(w));
        assert_eq!(diff_file("x.csv", Some(b"same"), Some(b"same")), None);
        let created = diff_file("returns.csv", None, Some(b"turn\n")).unwrap();
        assert_eq!(apply_change(None, &created, true).unwrap(), Some(b"turn\n".to_vec()));
    }

    #[test]
    fn a_torn_last_line_is_ignored() {
        let e = Entry {
            seq: 1,
            kind: EntryKind::ManualEdit,
            battle: None,
            turn: 1,
            summary: "x".into(),
            changes: vec![],
            state: BTreeMap::new(),
            dice: vec![],
            result_hash: None,
            carryover: vec![],
            returned: vec![],
            marched: vec![],
            undoes: None,
            lost: vec![],
            routes: vec![],
            stream: None,
        };
        let mut bytes = entry_line(&e).unwrap().into_bytes();
        bytes.push(b'\n');
        bytes.extend_from_slice(b"{\"seq\":2,\"ki");
        let j = Journal::parse(&bytes).unwrap();
        assert_eq!(j.entries.len(), 1);
        assert_eq!(j.next_seq(), 2);
    }
}
