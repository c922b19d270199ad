//! Undoing the newest change (`undo BATTLE`, `undo move`, `undo turn`, `undo map`): an applied
//! battle, a move, a turn advance or a map import reverted exactly, from its journal entry. Manual edits made since
//! are kept; an edit that touched the same lines is a conflict, refused.

use crate::error::{Error, Result};
use crate::formats::record_merge::revert_records;
use crate::formats::report::undo::{Undid, Undone};
use crate::model::battle::BattleState;
use crate::store::battles::{aftermath_path, record_bytes, record_path, report_path};
use crate::store::journal::{Entry, EntryKind, Journal, StateFiles, apply_change};
use crate::store::state::StateTxn;
use crate::store::{CampaignDir, Commit};

/// What to undo.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum UndoTarget {
    /// The applied battle of this id.
    Battle(String),
    /// The newest move that stands.
    Move,
    /// The newest turn advance that stands.
    Turn,
    /// The newest map import that stands.
    Map,
    /// The newest advice or decisions on contact that stand.
    Contacts,
    /// The newest messages sent (6.3.1) that stand.
    Messages,
}

/// An undo, as the umpire asks it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UndoRequest {
    /// What to undo.
    pub target: UndoTarget,
    /// Only say what would be reverted.
    pub dry_run: bool,
}

/// Undoes the newest change of the kind asked (or, with `dry_run`, says what it would revert).
/// The lock is taken even for a dry run: the journal and the files are read as one.
pub fn undo(dir: &CampaignDir, req: &UndoRequest) -> Result<Undone> {
    let lock = dir.lock_for_change()?;
    // The campaign must read as `check` reads it: a file a spreadsheet damaged is refused
    // here, with its line and field, never journalled as a hand edit and undone over.
    dir.load()?;
    let txn = dir.begin(&lock)?;
    match &req.target {
        UndoTarget::Battle(id) => undo_battle(dir, txn, id, req.dry_run),
        UndoTarget::Move => undo_move(dir, txn, req.dry_run),
        UndoTarget::Turn => undo_turn(dir, txn, req.dry_run),
        UndoTarget::Map => undo_map(dir, txn, req.dry_run),
        UndoTarget::Contacts => undo_contacts(dir, txn, req.dry_run),
        UndoTarget::Messages => undo_messages(dir, txn, req.dry_run),
    }
}

/// The outcome of reverting entry `e`, before the undo's own entry is written.
fn undone(undid: Undid, e: &Entry) -> Undone {
    Undone {
        undid,
        reverted_seq: e.seq,
        reverted_summary: e.summary.clone(),
        files: e.changes.iter().map(|ch| ch.file().to_string()).collect(),
        seq: 0,
    }
}

/// `undo BATTLE`: reverts the newest applied battle, when nothing but manual edits (and
/// changes undone again) came after its apply entry.
fn undo_battle(dir: &CampaignDir, mut txn: StateTxn<'_>, id: &str, dry_run: bool) -> Result<Undone> {
    let mut record = dir.read_battle(id)?;
    if record.state == BattleState::Cancelled {
        return undo_cancel(txn, record, dry_run);
    }
    // A record restored from a backup may say pending while the journal, the authority,
    // still has the battle applied: the undo goes by the journal.
    if record.state != BattleState::Applied && txn.journal.standing_apply(Some(id), None).is_none() {
        return Err(Error::refused(format!(
            "battle {id} is {}: only an applied battle can be undone",
            record.state.word()
        )));
    }
    let state = txn.current()?.clone();
    let journal = &txn.journal;
    let Some(pos) =
        journal.entries.iter().rposition(|e| e.kind == EntryKind::Apply && e.battle.as_deref() == Some(id))
    else {
        return Err(Error::refused(format!("battle {id} has no apply entry in journal.jsonl")));
    };
    let apply = &journal.entries[pos];
    if let Some(later) = newer_change(journal, apply) {
        return Err(Error::refused(format!(
            "battle {id} is not the newest change: journal entry {} ({}) came after it; only the newest applied battle can be undone",
            later.seq, later.summary
        )));
    }
    let state = reverted(dir, journal, pos, state, &format!("battle {id}"))?;
    let mut outcome = undone(Undid::Battle(id.to_string()), apply);
    if dry_run {
        return Ok(outcome);
    }
    record.state = BattleState::Undone;
    record.result = None;
    let mut extra = Commit { operation: Some(format!("undo {id}")), ..Commit::default() };
    extra.write(record_path(id), record_bytes(&record)?);
    extra.removes.push(report_path(id));
    extra.removes.push(aftermath_path(id));
    let entry = Entry::undo_battle(apply, format!("undo of battle {id} (journal entry {})", apply.seq));
    outcome.seq = txn.finish(state, Some(entry), extra)?;
    Ok(outcome)
}

/// The change after entry `e` that keeps it from being undone, if any: a later battle
/// still applied, or anything else that stands (a turn advance, a move) or that undid an
/// entry from before it. Manual edits are kept, and a change undone again since changes
/// nothing; a standing change other than an apply is named first.
fn newer_change<'j>(journal: &'j Journal, e: &Entry) -> Option<&'j Entry> {
    let standing: std::collections::BTreeSet<u64> = journal.standing().iter().map(|x| x.seq).collect();
    let later: Vec<&Entry> = journal
        .entries
        .iter()
        .filter(|x| x.seq > e.seq && x.kind != EntryKind::ManualEdit)
        .filter(|x| match x.kind {
            EntryKind::Undo => journal.taken_back_by(x).is_none_or(|t| t.seq <= e.seq),
            _ => standing.contains(&x.seq),
        })
        .collect();
    later.iter().find(|x| x.kind != EntryKind::Apply).or(later.first()).copied()
}

/// The newest entry of `kind` that stands, when nothing but manual edits and moves or turn
/// advances undone already (with their undos) came after it (`what`: "move", "turn advance").
/// An applied battle, and the undo of one, are changes that come after.
fn newest_standing<'j>(journal: &'j Journal, kind: EntryKind, what: &str) -> Result<&'j Entry> {
    let moved = |e: &Entry| {
        matches!(
            e.kind,
            EntryKind::Move
                | EntryKind::TurnAdvance
                | EntryKind::MapImport
                | EntryKind::Contacts
                | EntryKind::Messages
        )
    };
    let standing: std::collections::BTreeSet<u64> = journal.standing().iter().map(|x| x.seq).collect();
    for e in journal.entries.iter().rev() {
        let quiet = e.kind == EntryKind::ManualEdit
            || (moved(e) && !standing.contains(&e.seq))
            || journal.taken_back_by(e).is_some_and(moved);
        if quiet {
            continue;
        }
        if e.kind == kind {
            return Ok(e);
        }
        return Err(Error::refused(format!(
            "no {what} to undo: journal entry {} ({}) is newer than any {what}; only the newest change can be undone",
            e.seq, e.summary
        )));
    }
    Err(Error::refused(format!("no {what} to undo: journal.jsonl has no {what} that stands")))
}

/// The state files with the changes of journal entry `pos` taken back, newest first; `what`
/// names it in a refusal. A file whose lines are not as the entry left them (a spreadsheet
/// saved it again: other line ends, encoding, separator, quoting, row or column order) is
/// taken back by its records: only a field the entry set that has another value now is a
/// conflict, named by its row, field and both values.
fn reverted(
    dir: &CampaignDir,
    journal: &Journal,
    pos: usize,
    mut state: StateFiles,
    what: &str,
) -> Result<StateFiles> {
    let e = &journal.entries[pos];
    // The state files before and after the entry, replayed only when a file needs them.
    let mut around: Option<(StateFiles, StateFiles)> = None;
    for ch in e.changes.iter().rev() {
        let file = ch.file();
        let cur = state.get(file).cloned().flatten();
        let before = match apply_change(cur.clone(), ch, false) {
            Ok(b) => b,
            Err(err) if !file.ends_with(".csv") => {
                return Err(Error::refused(format!("cannot undo {what}: {err} (edited by hand since?)")));
            }
            Err(_) => {
                if around.is_none() {
                    let baseline = dir.read_baseline()?;
                    around = Some((
                        journal.replay(&baseline, Some(pos))?,
                        journal.replay(&baseline, Some(pos + 1))?,
                    ));
                }
                let (then_before, then_after) = around
                    .as_ref()
                    .map(|(b, a)| (b, a))
                    .ok_or_else(|| Error::Other("the journal could not be replayed".to_string()))?;
                let get = |s: &StateFiles| s.get(file).cloned().flatten();
                revert_records(file, get(then_before).as_deref(), get(then_after).as_deref(), cur.as_deref())
                    .map_err(|conflicts| {
                        Error::refused(format!("cannot undo {what}:\n  {}", conflicts.join("\n  ")))
                    })?
            }
        };
        state.insert(file.to_string(), before);
    }
    Ok(state)
}

/// `undo move`: reverts the newest move entry, when nothing but manual edits (and moves
/// undone already) came after it. The forces stand where they stood before it, with their
/// `moving_to`, and the retreats it recorded (`avoidance.csv`) are gone.
fn undo_move(dir: &CampaignDir, mut txn: StateTxn<'_>, dry_run: bool) -> Result<Undone> {
    let current = txn.current()?.clone();
    let mv = newest_standing(&txn.journal, EntryKind::Move, "move")?;
    let pos = txn.journal.index_of(mv.seq).unwrap_or(0);
    let state = reverted(dir, &txn.journal, pos, current, &format!("the move of journal entry {}", mv.seq))?;
    let mut outcome = undone(Undid::Move { forces: mv.marched.len() }, mv);
    if dry_run {
        return Ok(outcome);
    }
    let entry = Entry::undo_of(mv, format!("undo of the move of journal entry {} ({})", mv.seq, mv.summary));
    outcome.seq =
        txn.finish(state, Some(entry), Commit { operation: Some("undo move".into()), ..Commit::default() })?;
    Ok(outcome)
}

/// `undo map`: reverts the newest map import that stands, when nothing but manual edits (and
/// changes undone already) came after it: the map's files are as they were before it.
fn undo_map(dir: &CampaignDir, mut txn: StateTxn<'_>, dry_run: bool) -> Result<Undone> {
    let current = txn.current()?.clone();
    let imp = newest_standing(&txn.journal, EntryKind::MapImport, "map import")?;
    let pos = txn.journal.index_of(imp.seq).unwrap_or(0);
    let state =
        reverted(dir, &txn.journal, pos, current, &format!("the map import of journal entry {}", imp.seq))?;
    let mut outcome = undone(Undid::Map, imp);
    if dry_run {
        return Ok(outcome);
    }
    let entry =
        Entry::undo_of(imp, format!("undo of the map import of journal entry {} ({})", imp.seq, imp.summary));
    outcome.seq =
        txn.finish(state, Some(entry), Commit { operation: Some("undo map".into()), ..Commit::default() })?;
    Ok(outcome)
}

/// `undo messages`: reverts the newest messages sent that stand, when nothing but manual edits
/// (and changes undone already) came after them: the messages caught are no longer kept.
fn undo_messages(dir: &CampaignDir, mut txn: StateTxn<'_>, dry_run: bool) -> Result<Undone> {
    let current = txn.current()?.clone();
    let sent = newest_standing(&txn.journal, EntryKind::Messages, "messages")?;
    let pos = txn.journal.index_of(sent.seq).unwrap_or(0);
    let state =
        reverted(dir, &txn.journal, pos, current, &format!("the messages of journal entry {}", sent.seq))?;
    let mut outcome = undone(Undid::Messages, sent);
    if dry_run {
        return Ok(outcome);
    }
    let entry = Entry::undo_of(
        sent,
        format!("undo of the messages of journal entry {} ({})", sent.seq, sent.summary),
    );
    outcome.seq = txn.finish(
        state,
        Some(entry),
        Commit { operation: Some("undo messages".into()), ..Commit::default() },
    )?;
    Ok(outcome)
}

/// `undo turn`: reverts the newest turn advance that stands, when nothing but manual edits
/// (and moves or turn advances undone already) came after it, and removes its reports.
fn undo_turn(dir: &CampaignDir, mut txn: StateTxn<'_>, dry_run: bool) -> Result<Undone> {
    let current = txn.current()?.clone();
    let adv = newest_standing(&txn.journal, EntryKind::TurnAdvance, "turn advance")?;
    let pos = txn.journal.index_of(adv.seq).unwrap_or(0);
    let state = reverted(dir, &txn.journal, pos, current, &format!("the turn advance to turn {}", adv.turn))?;
    let mut outcome = undone(Undid::Turn(adv.turn), adv);
    if dry_run {
        return Ok(outcome);
    }
    let mut extra = Commit { operation: Some("undo turn".into()), ..Commit::default() };
    extra.removes.extend(crate::ops::turn::report_paths(adv.turn));
    let entry = Entry::undo_of(
        adv,
        format!("undo of the turn advance to turn {} (journal entry {})", adv.turn, adv.seq),
    );
    outcome.seq = txn.finish(state, Some(entry), extra)?;
    Ok(outcome)
}

/// `undo BATTLE` of a cancelled battle: the newest cancel of it taken back, when nothing but
/// manual edits came after it; the battle waits for its result again.
fn undo_cancel(
    mut txn: StateTxn<'_>,
    mut record: crate::model::battle::BattleRecord,
    dry_run: bool,
) -> Result<Undone> {
    let id = record.id.clone();
    let state = txn.current()?.clone();
    let journal = &txn.journal;
    let Some(cancel) = journal
        .entries
        .iter()
        .rev()
        .find(|e| e.kind == EntryKind::Cancel && e.battle.as_deref() == Some(id.as_str()))
    else {
        return Err(Error::refused(format!("battle {id} has no cancel entry in journal.jsonl")));
    };
    if let Some(later) = newer_change(journal, cancel) {
        return Err(Error::refused(format!(
            "the cancel of battle {id} is not the newest change: journal entry {} ({}) came after it",
            later.seq, later.summary
        )));
    }
    let cancel = cancel.clone();
    let mut outcome = undone(Undid::Battle(id.clone()), &cancel);
    if dry_run {
        return Ok(outcome);
    }
    let entry =
        Entry::undo_of(&cancel, format!("undo of the cancel of battle {id} (journal entry {})", cancel.seq));
    record.state = BattleState::Exported;
    let mut extra = Commit { operation: Some(format!("undo {id}")), ..Commit::default() };
    extra.write(record_path(&id), record_bytes(&record)?);
    outcome.seq = txn.finish(state, Some(entry), extra)?;
    Ok(outcome)
}

/// `undo contacts`: reverts the newest advice or decisions on contact that stand (8.1, 8.2),
/// when nothing but manual edits came after them: `decisions.csv` is as it was before, and an
/// advice's side files are removed.
fn undo_contacts(dir: &CampaignDir, mut txn: StateTxn<'_>, dry_run: bool) -> Result<Undone> {
    let current = txn.current()?.clone();
    let e = newest_standing(&txn.journal, EntryKind::Contacts, "contacts advised or decided")?;
    let pos = txn.journal.index_of(e.seq).unwrap_or(0);
    let state = reverted(dir, &txn.journal, pos, current, &format!("journal entry {}", e.seq))?;
    let mut outcome = undone(Undid::Contacts, e);
    if dry_run {
        return Ok(outcome);
    }
    let mut extra = Commit { operation: Some("undo contacts".into()), ..Commit::default() };
    if !e.dice.is_empty() {
        // An advice taken back: its side files go with it.
        for side in [crate::model::Side::French, crate::model::Side::Allies] {
            extra.removes.push(crate::ops::contacts::advice_path(e.turn, side));
        }
    }
    let entry = Entry::undo_of(e, format!("undo of journal entry {} ({})", e.seq, e.summary));
    outcome.seq = txn.finish(state, Some(entry), extra)?;
    Ok(outcome)
}
