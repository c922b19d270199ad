//! `undo BATTLE`: reverts the newest applied battle exactly, from its journal entry. Manual
//! edits made since are kept; an edit that touched the same lines is a conflict, refused.
//! `undo move` and `undo turn` revert the newest move or turn advance the same way.

use std::time::Duration;

use anyhow::Result;

use crate::error::Error;
use crate::formats::record_merge::revert_records;
use crate::model::battle::BattleState;
use crate::store::battles::{aftermath_path, record_bytes, record_path, report_path};
use crate::store::journal::{Entry, EntryKind, Journal, StateFiles, apply_change};
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
    // A record restored from a backup may say pending while the journal, the authority,
    // still has the battle applied: the undo goes by the journal.
    if record.state != BattleState::Applied && txn.journal.standing_apply(Some(id), None).is_none() {
        return Err(Error::refused(format!(
            "battle {id} is {}: only an applied battle can be undone",
            record.state.word()
        ))
        .into());
    }
    let state = txn.current()?.clone();
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
    let state = reverted(dir, &txn.journal, pos, state, &format!("battle {id}"))?;
    if dry_run {
        crate::outln!("undo of battle {id} would revert journal entry {} ({})", apply.seq, apply.summary);
        for ch in &apply.changes {
            crate::outln!("  {}", ch.file());
        }
        return Ok(());
    }
    record.state = BattleState::Undone;
    record.result = None;
    let mut extra = Commit { operation: Some(format!("undo {id}")), ..Commit::default() };
    extra.write(record_path(id), record_bytes(&record)?);
    extra.removes.push(report_path(id));
    extra.removes.push(aftermath_path(id));
    let entry = Entry::undo_battle(&apply, format!("undo of battle {id} (journal entry {})", apply.seq));
    let seq = txn.finish(state, Some(entry), extra)?;
    crate::errln!(
        "battle {id} undone (journal entry {seq}); it is pending again (undone), waiting for a result"
    );
    Ok(())
}

/// The newest entry of `kind` that stands, when nothing but manual edits, undo entries and
/// moves or turn advances undone already came after it (`what`: "move", "turn advance").
fn newest_standing<'j>(entries: &'j [Entry], kind: EntryKind, what: &str) -> Result<&'j Entry> {
    let undone: Vec<u64> = entries.iter().filter_map(|e| e.undoes).collect();
    for e in entries.iter().rev() {
        match e.kind {
            EntryKind::ManualEdit => {}
            EntryKind::Undo if e.undoes.is_some() => {}
            EntryKind::Move | EntryKind::TurnAdvance if undone.contains(&e.seq) => {}
            k if k == kind => return Ok(e),
            _ => {
                return Err(Error::refused(format!(
                    "no {what} to undo: journal entry {} ({}) is newer than any {what}; only the newest change can be undone",
                    e.seq, e.summary
                ))
                .into());
            }
        }
    }
    Err(Error::refused(format!("no {what} to undo: journal.jsonl has no {what} that stands")).into())
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
                return Err(
                    Error::refused(format!("cannot undo {what}: {err} (edited by hand since?)")).into()
                );
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

/// The index of an entry of the journal.
fn position(journal: &Journal, e: &Entry) -> usize {
    journal.entries.iter().position(|x| x.seq == e.seq).unwrap_or(0)
}

/// The undo entry of journal entry `e`.
fn undo_entry(e: &Entry, summary: String) -> Entry {
    Entry::undo_of(e, summary)
}

/// `--dry-run` of `undo move` and `undo turn`: what would be reverted.
fn print_dry_run(what: &str, e: &Entry) {
    crate::outln!("undo {what} would revert journal entry {} ({})", e.seq, e.summary);
    for ch in &e.changes {
        crate::outln!("  {}", ch.file());
    }
}

/// `undo move`: reverts the newest move entry, when nothing but manual edits (and moves
/// undone already) came after it. The forces stand where they stood before it, with their
/// `moving_to`, and the retreats it recorded (`avoidance.csv`) are gone.
fn undo_move(dir: &CampaignDir, dry_run: bool) -> Result<()> {
    let lock = CampaignLock::acquire(dir, Duration::from_secs(60))?;
    let mut txn = dir.begin(&lock)?;
    let current = txn.current()?.clone();
    let mv = newest_standing(&txn.journal.entries, EntryKind::Move, "move")?;
    let pos = position(&txn.journal, mv);
    let state = reverted(dir, &txn.journal, pos, current, &format!("the move of journal entry {}", mv.seq))?;
    if dry_run {
        print_dry_run("move", mv);
        return Ok(());
    }
    let entry = undo_entry(mv, format!("undo of the move of journal entry {} ({})", mv.seq, mv.summary));
    let (seq_undone, forces) = (mv.seq, mv.marched.len());
    let seq =
        txn.finish(state, Some(entry), Commit { operation: Some("undo move".into()), ..Commit::default() })?;
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
    let current = txn.current()?.clone();
    let adv = newest_standing(&txn.journal.entries, EntryKind::TurnAdvance, "turn advance")?;
    let pos = position(&txn.journal, adv);
    let state = reverted(dir, &txn.journal, pos, current, &format!("the turn advance to turn {}", adv.turn))?;
    if dry_run {
        print_dry_run("turn", adv);
        return Ok(());
    }
    let mut extra = Commit { operation: Some("undo turn".into()), ..Commit::default() };
    extra.removes.extend(super::turn::report_paths(adv.turn));
    let entry =
        undo_entry(adv, format!("undo of the turn advance to turn {} (journal entry {})", adv.turn, adv.seq));
    let turn = adv.turn;
    let seq = txn.finish(state, Some(entry), extra)?;
    crate::errln!("the turn advance to turn {turn} is undone (journal entry {seq}); its reports are removed");
    Ok(())
}
