//! `undo BATTLE`: reverts the newest applied battle exactly, from its journal entry. Manual
//! edits made since are kept; an edit that touched the same lines is a conflict, refused.
//! `undo move` and `undo turn` revert the newest move or turn advance the same way.

use std::collections::BTreeMap;
use std::time::Duration;

use anyhow::Result;

use crate::error::Error;
use crate::model::battle::BattleState;
use crate::store::battles::{aftermath_path, record_bytes, record_path, report_path};
use crate::store::journal::{Entry, EntryKind, apply_change};
use crate::store::{CampaignDir, CampaignLock, Commit};

/// Runs `undo`.
pub fn run(dir: &CampaignDir, id: &str, dry_run: bool) -> Result<()> {
    if id == "move" {
        return undo_move(dir, dry_run);
    }
    if id.eq_ignore_ascii_case("turn") {
        return undo_turn(dir, dry_run);
    }
    let lock = CampaignLock::acquire(dir, Duration::from_secs(60))?;
    let mut txn = dir.begin(&lock)?;
    let mut record = dir.read_battle(id)?;
    if record.state != BattleState::Applied {
        return Err(Error::refused(format!(
            "battle {id} is {}: only an applied battle can be undone",
            record.state.word()
        ))
        .into());
    }
    let mut state = txn.current()?.clone();
    let entries = &txn.journal.entries;
    let Some(pos) =
        entries.iter().rposition(|e| e.kind == EntryKind::Apply && e.battle.as_deref() == Some(id))
    else {
        return Err(Error::refused(format!("battle {id} has no apply entry in journal.jsonl")).into());
    };
    // Later battles that were applied and undone again do not count; anything else that
    // came after (a battle still applied, a turn advance) blocks.
    let mut open: Vec<&Entry> = Vec::new();
    let mut blocking = None;
    let undone_moves: Vec<u64> = entries.iter().filter_map(|e| e.undoes).collect();
    for e in &entries[pos + 1..] {
        match e.kind {
            EntryKind::ManualEdit => {}
            // A move or turn advance undone again, and its undo, change nothing.
            EntryKind::Move | EntryKind::TurnAdvance if undone_moves.contains(&e.seq) => {}
            EntryKind::Undo if e.undoes.is_some() => {}
            EntryKind::Apply => open.push(e),
            EntryKind::Undo if open.last().is_some_and(|a| a.battle == e.battle) => {
                open.pop();
            }
            _ => {
                blocking = Some(e);
                break;
            }
        }
    }
    if let Some(later) = blocking.or_else(|| open.first().copied()) {
        return Err(Error::refused(format!(
            "battle {id} is not the newest change: journal entry {} ({}) came after it; only the newest applied battle can be undone",
            later.seq, later.summary
        ))
        .into());
    }
    let apply = &entries[pos];
    for ch in apply.changes.iter().rev() {
        let cur = state.get(ch.file()).cloned().flatten();
        let before = apply_change(cur, ch, false).map_err(|e| {
            Error::refused(format!("cannot undo battle {id}: {e} (edited by hand since the battle?)"))
        })?;
        state.insert(ch.file().to_string(), before);
    }
    if dry_run {
        crate::outln!("undo of battle {id} would revert journal entry {} ({})", apply.seq, apply.summary);
        for ch in &apply.changes {
            crate::outln!("  {}", ch.file());
        }
        return Ok(());
    }
    record.state = BattleState::Undone;
    record.result = None;
    let mut extra = Commit::default();
    extra.write(record_path(id), record_bytes(&record)?);
    extra.removes.push(report_path(id));
    extra.removes.push(aftermath_path(id));
    let entry = Entry {
        seq: 0,
        kind: EntryKind::Undo,
        battle: Some(id.to_string()),
        turn: apply.turn,
        summary: format!("undo of battle {id} (journal entry {})", apply.seq),
        changes: Vec::new(),
        state: BTreeMap::new(),
        dice: Vec::new(),
        result_hash: apply.result_hash.clone(),
        carryover: Vec::new(),
        returned: Vec::new(),
        marched: Vec::new(),
        undoes: None,
        lost: Vec::new(),
    };
    let seq = txn.finish(state, Some(entry), extra)?;
    crate::errln!(
        "battle {id} undone (journal entry {seq}); it is pending again (undone), waiting for a result"
    );
    Ok(())
}

/// `undo move`: reverts the newest move entry, when nothing but manual edits (and moves
/// undone already) came after it. The forces stand where they stood before it, with their
/// `moving_to`, and the retreats it recorded (`avoidance.csv`) are gone.
fn undo_move(dir: &CampaignDir, dry_run: bool) -> Result<()> {
    let lock = CampaignLock::acquire(dir, Duration::from_secs(60))?;
    let mut txn = dir.begin(&lock)?;
    let mut state = txn.current()?.clone();
    let entries = &txn.journal.entries;
    let undone: Vec<u64> = entries.iter().filter_map(|e| e.undoes).collect();
    let mut target = None;
    for e in entries.iter().rev() {
        match e.kind {
            EntryKind::ManualEdit => {}
            EntryKind::Undo if e.undoes.is_some() => {}
            EntryKind::Move | EntryKind::TurnAdvance if undone.contains(&e.seq) => {}
            EntryKind::Move => {
                target = Some(e);
                break;
            }
            _ => {
                return Err(Error::refused(format!(
                    "no move to undo: journal entry {} ({}) is newer than any move; only the newest change can be undone",
                    e.seq, e.summary
                ))
                .into());
            }
        }
    }
    let Some(mv) = target else {
        return Err(Error::refused("no move to undo: journal.jsonl has no move entry that stands").into());
    };
    for ch in mv.changes.iter().rev() {
        let cur = state.get(ch.file()).cloned().flatten();
        let before = apply_change(cur, ch, false).map_err(|e| {
            Error::refused(format!(
                "cannot undo the move of journal entry {}: {e} (edited by hand since?)",
                mv.seq
            ))
        })?;
        state.insert(ch.file().to_string(), before);
    }
    if dry_run {
        crate::outln!("undo move would revert journal entry {} ({})", mv.seq, mv.summary);
        for ch in &mv.changes {
            crate::outln!("  {}", ch.file());
        }
        return Ok(());
    }
    let entry = Entry {
        seq: 0,
        kind: EntryKind::Undo,
        battle: None,
        turn: mv.turn,
        summary: format!("undo of the move of journal entry {} ({})", mv.seq, mv.summary),
        changes: Vec::new(),
        state: BTreeMap::new(),
        dice: Vec::new(),
        result_hash: None,
        carryover: Vec::new(),
        returned: Vec::new(),
        marched: Vec::new(),
        undoes: Some(mv.seq),
        lost: Vec::new(),
    };
    let (seq_undone, forces) = (mv.seq, mv.marched.len());
    let seq = txn.finish(state, Some(entry), Commit::default())?;
    crate::errln!(
        "move of journal entry {seq_undone} undone ({forces} forces back where they stood; journal entry {seq})"
    );
    Ok(())
}

/// `undo turn`: reverts the newest turn advance that stands, when nothing but manual edits
/// (and moves or turn advances undone already) came after it, and removes its reports.
fn undo_turn(dir: &CampaignDir, dry_run: bool) -> Result<()> {
    let lock = CampaignLock::acquire(dir, Duration::from_secs(60))?;
    let mut txn = dir.begin(&lock)?;
    let mut state = txn.current()?.clone();
    let entries = &txn.journal.entries;
    let undone: Vec<u64> = entries.iter().filter_map(|e| e.undoes).collect();
    let mut target = None;
    for e in entries.iter().rev() {
        match e.kind {
            EntryKind::ManualEdit => {}
            EntryKind::Undo if e.undoes.is_some() => {}
            EntryKind::Move | EntryKind::TurnAdvance if undone.contains(&e.seq) => {}
            EntryKind::TurnAdvance => {
                target = Some(e);
                break;
            }
            _ => {
                return Err(Error::refused(format!(
                    "no turn advance to undo: journal entry {} ({}) is newer than any turn advance; only the newest change can be undone",
                    e.seq, e.summary
                ))
                .into());
            }
        }
    }
    let Some(adv) = target else {
        return Err(
            Error::refused("no turn advance to undo: journal.jsonl has no turn advance that stands").into()
        );
    };
    for ch in adv.changes.iter().rev() {
        let cur = state.get(ch.file()).cloned().flatten();
        let before = apply_change(cur, ch, false).map_err(|e| {
            Error::refused(format!(
                "cannot undo the turn advance to turn {}: {e} (edited by hand since?)",
                adv.turn
            ))
        })?;
        state.insert(ch.file().to_string(), before);
    }
    if dry_run {
        crate::outln!("undo turn would revert journal entry {} ({})", adv.seq, adv.summary);
        for ch in &adv.changes {
            crate::outln!("  {}", ch.file());
        }
        return Ok(());
    }
    let mut extra = Commit::default();
    extra.removes.extend(super::turn::report_paths(adv.turn));
    let entry = Entry {
        seq: 0,
        kind: EntryKind::Undo,
        battle: None,
        turn: adv.turn,
        summary: format!("undo of the turn advance to turn {} (journal entry {})", adv.turn, adv.seq),
        changes: Vec::new(),
        state: BTreeMap::new(),
        dice: Vec::new(),
        result_hash: None,
        carryover: Vec::new(),
        returned: Vec::new(),
        marched: Vec::new(),
        undoes: Some(adv.seq),
        lost: Vec::new(),
    };
    let turn = adv.turn;
    let seq = txn.finish(state, Some(entry), extra)?;
    crate::errln!("the turn advance to turn {turn} is undone (journal entry {seq}); its reports are removed");
    Ok(())
}
