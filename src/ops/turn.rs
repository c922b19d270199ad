//! The turn advance use case: moves the campaign to its next two-week turn (rule 6.1) and
//! applies what falls due — men returning from earlier battles, river-retreat penalties
//! running out, ammunition made good in supply — in one journalled, all-or-nothing commit.
//!
//! `campaign.toml` is changed by editing the one top-level `turn = N` line in place, so the
//! umpire's comments and layout stay byte for byte; the edit is proved by parsing the file
//! before and after and finding nothing else changed.

use std::collections::BTreeMap;

use crate::error::{Error, Result};
use crate::formats::campaign::set_turn;
use crate::formats::report::dispatch::{BattleFought, MapDrawn, dispatch};
use crate::formats::report::turn::{render_returns, summary, umpire_report};
use crate::model::battle::BattleRecord;
use crate::model::{Campaign, HexId, Side};
use crate::rules::dice::SeededDice;
use crate::rules::turn::{TurnContext, TurnRun, run_turn_from, supply_phase};
use crate::store::files::changed_files_at;
use crate::store::journal::Entry;
use crate::store::state::{Staged, StateTxn};
use crate::store::{CampaignDir, Commit};

/// The order of battle's file.
const FORCES: &str = "forces.csv";

pub use crate::formats::report::turn::Advanced;

/// The operation of a turn advance (see [`crate::commands::operation`]).
pub const OPERATION: &str = "turn advance";

/// The folder of a turn's reports.
pub fn reports_dir(turn: u32) -> String {
    format!("turns/T{turn}")
}

/// The reports of a turn (relative paths): the umpire's, each side's dispatch as Markdown and
/// as a page, and the umpire's map of the marches of the turn before it.
pub fn report_paths(turn: u32) -> [String; 6] {
    let d = reports_dir(turn);
    [
        format!("{d}/report.md"),
        format!("{d}/french.md"),
        format!("{d}/allies.md"),
        format!("{d}/french.html"),
        format!("{d}/allies.html"),
        format!("{d}/marches.svg"),
    ]
}

/// The dice stream of the turn advance out of `turn`.
pub fn dice_stream(turn: u32) -> String {
    format!("turn-T{turn}")
}

/// A turn advance asked for.
#[derive(Debug, Clone, Copy, Default)]
pub struct AdvanceRequest {
    /// Only say what would change; write nothing and take no lock.
    pub dry_run: bool,
}

/// Moves the campaign to the next turn (or, on a dry run, only says what would change).
/// `pending` is handed the battles still waiting for a result before anything changes (a
/// battle left pending is a result forgotten, and its losses would fall into the wrong turn).
/// Takes the campaign lock unless it is a dry run.
pub fn advance(
    dir: &CampaignDir,
    req: AdvanceRequest,
    pending: impl FnOnce(&[BattleRecord]),
) -> Result<Advanced> {
    let waiting: Vec<BattleRecord> = dir.battles()?.into_iter().filter(|b| b.state.is_pending()).collect();
    pending(&waiting);
    let dry_run = req.dry_run;
    let lock = dir.lock_unless_dry_run(dry_run)?;
    // The campaign is loaded while the change reads and compares the journal and state files.
    let (mut txn, c) = match &lock {
        Some(l) => {
            let (txn, c) = dir.begin_beside(l, || dir.load())?;
            (Some(txn), c)
        }
        None => (None, dir.load()),
    };
    let mut c = c?;
    let from = c.turn();
    if from.0 >= crate::model::limits::MAX_TURN {
        return Err(Error::refused(format!(
            "campaign.toml: turn {from} is the last a campaign may reach (at most {}); nothing changed",
            crate::model::limits::MAX_TURN
        )));
    }
    let ctx = TurnContext {
        from,
        to: from.next(),
        moved: moved_forces(dir, txn.as_mut(), &c)?,
        in_contact: in_contact(&c, &waiting),
    };
    let stream = dice_stream(from.0);
    let mut dice = SeededDice::new(c.config.seed, &stream);
    // The campaign as it was, for the files the turn changes and the map of its marches, is
    // copied beside the turn's first phase, which only reads it.
    let (before, supply) = std::thread::scope(|s| {
        let before = s.spawn(|| c.clone());
        let supply = supply_phase(&c);
        (before.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)), supply)
    });
    // The turn's marches on the map, as they left the forces before the turn's phases: drawn
    // on a thread of its own while the phases run (none on a dry run, which writes nothing).
    let (mut run, marches) = std::thread::scope(|s| {
        let marches = (!dry_run).then(|| s.spawn(|| super::map::turn_marches_picture(dir, &before)));
        let run = run_turn_from(&mut c, supply, &ctx, &mut dice);
        let marches = marches.map(|m| m.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        (run, marches.transpose())
    });
    let marches = marches?;
    let pending_battles: Vec<String> =
        dir.battles()?.into_iter().filter(|b| b.state.is_pending()).map(|b| b.id).collect();
    let mut r = advanced(&mut run, ctx.to.0, pending_battles, dry_run);
    // A `campaign.toml` whose turn cannot be changed in place is refused, dry run or not.
    let toml = match &mut txn {
        Some(t) => t.file("campaign.toml")?,
        None => dir.read("campaign.toml")?,
    };
    set_turn(&toml.unwrap_or_default(), r.changes.to.turn)?;
    let Some(mut txn) = txn else {
        take_working(&mut r, run);
        return Ok(r);
    };
    // The files the turn changes are found with its new turn written; the reports read the
    // campaign on the turn that ended, as they always have. The journal entry is made before
    // either, from the run.
    let to = r.changes.to.turn;
    let battles = fought(dir, &txn.journal)?;
    r.lost.clone_from(&run.lost);
    let entry = Entry::turn_advance(
        to,
        summary(&r),
        run.dice.clone(),
        r.returned_by_unit.iter().map(|(u, m)| (u.clone(), *m)).collect(),
        run.lost.clone(),
    );
    // The new state is found and staged on a thread of its own while the reports are built,
    // and each report is staged there as soon as it is written (and let go): the state files
    // as found are the transaction's own, borrowed, not copied, and the campaign as it was
    // (tens of megabytes at scale) is let go as soon as it is compared. Nothing is committed
    // until every file is staged; a failure on either side leaves the campaign as it was.
    let after = &c;
    let (put, written) = std::sync::mpsc::channel::<(String, Vec<u8>)>();
    // Said once the new state is staged (or the staging thread gave up): see `reports`.
    let (state_staged, once_staged) = std::sync::mpsc::channel::<()>();
    if let Some(marches) = marches {
        let _ = put.send((report_paths(to)[5].clone(), marches));
    }
    let staged = std::thread::scope(|s| {
        let staged = s.spawn(move || {
            let new_files = changed_files_at(&before, after, to, txn.current()?)?;
            drop(before);
            let reports = report_paths(to);
            let reports: Vec<&str> = reports.iter().map(String::as_str).collect();
            let mut staged = txn.stage(new_files, Some(entry), &reports)?;
            drop(state_staged);
            for (rel, bytes) in written {
                staged.write(rel, bytes)?;
            }
            Ok(staged)
        });
        // A report the staging thread no longer takes (it failed) is dropped: its error is
        // the one returned.
        reports(&run, &c, &r, &stream, &battles, once_staged, |rel, bytes| drop(put.send((rel, bytes))));
        drop(put);
        staged.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic))
    });
    let staged: Staged = staged?;
    let leftover = take_working(&mut r, run);
    // Nothing reads the campaign value after this: it is freed beside the commit, which only
    // renames and syncs what is staged (nothing more is allocated while it is given back, so
    // the peak stays where the reports left it).
    let seq = std::thread::scope(|s| {
        s.spawn(move || drop((c, leftover)));
        staged.finish(Commit { operation: Some(OPERATION.to_string()), ..Commit::default() })
    })?;
    r.journal_seq = seq;
    Ok(r)
}

/// What the turn advance to `to` did, with the run's supply phase moved in (a large
/// campaign's is megabytes: the run is left without it), but for what is moved in from the run
/// once the reports are built from it (see [`take_working`]).
fn advanced(run: &mut TurnRun, to: u32, pending_battles: Vec<String>, dry_run: bool) -> Advanced {
    let changes = run.returns.clone();
    Advanced {
        returned_by_unit: changes.returned_by_unit(),
        returned_by_kind: changes.totals_by_kind(),
        men_returned: changes.men_returned(),
        changes,
        phases: Vec::new(),
        lost: Vec::new(),
        dice: Vec::new(),
        reports: report_paths(to).to_vec(),
        supply: std::mem::take(&mut run.supply),
        pending_battles,
        dry_run,
        journal_seq: 0,
    }
}

/// The phases, the men lost and the dice of the run, moved into what the turn advance did;
/// what is left of the run, to be let go.
fn take_working(r: &mut Advanced, mut run: TurnRun) -> TurnRun {
    // Swapped, not assigned: what `r` held before (its copy of the men lost) goes with the run.
    std::mem::swap(&mut r.phases, &mut run.phases);
    std::mem::swap(&mut r.lost, &mut run.lost);
    std::mem::swap(&mut r.dice, &mut run.dice);
    run
}

/// The turn's reports, for the umpire and each side, each handed to `put` (its path and
/// bytes) as soon as it is written. The Allies' dispatch is built beside the French one once
/// `once_staged` says the new state is staged (its sender let go): the campaign as it was and
/// the state files, old and new, are let go by then, and two dispatches at once stay within
/// the memory one took beside them. The French one, the first, is built one part after the
/// other; the Allies' map is drawn beside its text, since the French dispatch is done before
/// it and leaves a core to spare.
fn reports(
    run: &TurnRun,
    c: &Campaign,
    r: &Advanced,
    stream: &str,
    battles: &[BattleFought],
    once_staged: std::sync::mpsc::Receiver<()>,
    mut put: impl FnMut(String, Vec<u8>),
) {
    let [umpire, french, allies, french_page, allies_page, _] = report_paths(r.changes.to.turn);
    put(umpire, umpire_report(run, &render_returns(r), c.config.seed, stream).into_bytes());
    // Each side's view is of the contacts as the turn leaves them and of its supply on the new
    // turn, worked out here, beside the staging of the new state (a dry run needs neither).
    let contacts = crate::rules::zoc::contacts(c);
    let supply_after = crate::rules::turn::supply_after(c, &r.supply, r.changes.to.turn);
    let (supply, seen) = (&supply_after, &contacts);
    std::thread::scope(|s| {
        let allies_dispatch = s.spawn(move || {
            // Nothing is ever sent: the sender let go is the signal.
            let _ = once_staged.recv();
            dispatch(run, supply, c, seen, battles, Side::Allies, MapDrawn::Beside)
        });
        let d = dispatch(run, &supply_after, c, &contacts, battles, Side::French, MapDrawn::InTurn);
        put(french, d.markdown.into_bytes());
        put(french_page, d.html);
        let d = allies_dispatch.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        put(allies, d.markdown.into_bytes());
        put(allies_page, d.html);
    });
}

/// The battles whose result was applied since the last turn advance (the turn that ends),
/// with their carry-over, report and each side's picture.
fn fought(dir: &CampaignDir, journal: &crate::store::journal::Journal) -> Result<Vec<BattleFought>> {
    use crate::store::battles::{report_path, side_view_path};
    let since = journal.last_standing_turn_advance().map_or(0, |i| journal.entries[i].seq);
    let mut out = Vec::new();
    for e in journal.standing_applies().into_iter().filter(|e| e.seq > since) {
        let Some(id) = e.battle.as_deref() else { continue };
        let record = dir.read_battle(id)?;
        let report = dir.read(&report_path(id))?.map(|b| String::from_utf8_lossy(&b).into_owned());
        let mut pictures = BTreeMap::new();
        for side in [Side::French, Side::Allies] {
            if let Some(svg) = dir.read(&side_view_path(id, side.slug()))? {
                pictures.insert(side, svg);
            }
        }
        let carryover = e.carryover.clone();
        out.push(BattleFought { record, carryover, report: report.unwrap_or_default(), pictures });
    }
    Ok(out)
}

/// Top-level forces' hexes in a `forces.csv`.
fn force_hexes(bytes: Option<&[u8]>) -> BTreeMap<String, HexId> {
    let Some(b) = bytes else { return BTreeMap::new() };
    let mut p = crate::error::Problems::default();
    let t = crate::formats::table::Table::parse("forces.csv", b, &mut p);
    t.rows
        .iter()
        .filter(|r| t.text(r, "parent").is_empty())
        .filter_map(|r| Some((t.text(r, "id").to_string(), t.text(r, "hex").parse().ok()?)))
        .collect()
}

/// The contacts unresolved as the turn ends: each force halted in contact (its `moving_to`)
/// and each force of a battle still pending (that battle's hex).
fn in_contact(c: &Campaign, pending: &[BattleRecord]) -> BTreeMap<String, HexId> {
    let mut m: BTreeMap<String, HexId> =
        c.oob.forces().filter_map(|f| Some((f.id.to_string(), f.moving_to?))).collect();
    for b in pending {
        for p in &b.participants {
            m.entry(p.force.clone()).or_insert(b.hex);
        }
    }
    m
}

/// The forces that moved this turn: each force's hex now against its hex in the state the
/// journal recorded at the last turn advance (or its baseline) — the umpire's hand edits, a
/// withdrawal and a `move` all change the `hex` column, so all of them count — and every
/// force the turn's moves that stand marched (the journal's move entries), even one that
/// ended where it began (6.2: "a military force that moves").
///
/// With the change open (`txn`), the journal and the manual edit it found lead from that state
/// to the files as found, so the rows changed since are enough; otherwise (a dry run, or rows
/// added or removed since) the journal is replayed from its baseline.
pub fn moved_forces(
    dir: &CampaignDir,
    txn: Option<&mut StateTxn<'_>>,
    c: &Campaign,
) -> Result<BTreeMap<String, HexId>> {
    let read;
    let (journal, found) = match txn {
        Some(t) if t.journal.entries.is_empty() => return Ok(BTreeMap::new()),
        Some(t) => {
            let header = t.current()?.get(FORCES).and_then(|b| b.as_deref()).map(first_line);
            (&t.journal, header.map(|h| (h, t.manual_edit())))
        }
        None => {
            read = dir.read_journal()?;
            (&read, None)
        }
    };
    if journal.entries.is_empty() {
        return Ok(BTreeMap::new());
    }
    let upto = journal.last_standing_turn_advance().map_or(0, |i| i + 1);
    let since = found.and_then(|(header, manual)| {
        let changed = journal.lines_before(upto, manual, FORCES)?;
        hexes_before(c, &header, &changed)
    });
    let before = match since {
        Some(b) => b,
        None => {
            let then = journal.replay(&dir.read_baseline()?, Some(upto))?;
            force_hexes(then.get(FORCES).and_then(|b| b.as_deref()))
        }
    };
    let marched = journal.marched_this_turn(c.config.turn);
    Ok(c.oob
        .forces()
        .filter_map(|f| {
            let was = *before.get(f.id.as_str())?;
            let went = marched.get(f.id.as_str()).is_some_and(|u| *u > 0);
            (f.hex? != was || went).then(|| (f.id.to_string(), was))
        })
        .collect())
}

/// The file's first line (its header).
fn first_line(bytes: &[u8]) -> String {
    let end = bytes.iter().position(|&b| b == b'\n').unwrap_or(bytes.len());
    String::from_utf8_lossy(&bytes[..end]).into_owned()
}

/// Top-level forces' hexes as they stood before the rows `changed` (by line index, as they
/// were) changed: the campaign's, with those rows read under `header`. `None` when a row does
/// not read as one whole record (a field running over lines).
fn hexes_before(
    c: &Campaign,
    header: &str,
    changed: &BTreeMap<usize, &str>,
) -> Option<BTreeMap<String, HexId>> {
    let mut hexes: BTreeMap<String, HexId> =
        c.oob.forces().filter_map(|f| Some((f.id.to_string(), f.hex?))).collect();
    if changed.is_empty() {
        return Some(hexes);
    }
    let mut text = header.to_string();
    for line in changed.values() {
        text.push('\n');
        text.push_str(line);
    }
    let mut p = crate::error::Problems::default();
    let t = crate::formats::table::Table::parse(FORCES, text.as_bytes(), &mut p);
    // Each row read from its one line (line 1 is the header), with every column.
    let whole = |(k, r): (usize, &crate::formats::table::Row)| {
        r.line == k as u64 + 2 && r.fields() == t.headers.len()
    };
    if !p.is_empty() || t.rows.len() != changed.len() || !t.rows.iter().enumerate().all(whole) {
        return None;
    }
    for r in &t.rows {
        let id = t.text(r, "id").to_string();
        match (t.text(r, "parent").is_empty(), t.text(r, "hex").parse().ok()) {
            (true, Some(h)) => hexes.insert(id, h),
            _ => hexes.remove(&id),
        };
    }
    Some(hexes)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::effects::testing::camp;

    const HEADER: &str = "id,parent,level,name,commander,nation,arm,men,squadrons,guns,hex";

    #[test]
    fn the_rows_changed_since_give_each_force_s_hex_as_it_was() {
        // Now: A at 10.11, B at 12.12, C at 13.13; B-1 a battalion of B.
        let c = camp(
            20,
            "",
            "A,,division,A,,Fr,,,,,10.11\nA-1,A,battalion,a,,Fr,line,500,,,\n\
             B,,division,B,,Fr,,,,,12.12\nB-1,B,battalion,b,,Fr,line,500,,,\n\
             C,,division,C,,Fr,,,,,13.13\nC-1,C,battalion,c,,Fr,line,500,,,\n",
            &[],
        );
        // Before: A stood at 10.10 (line 2), C was a brigade under B (line 6), B unchanged.
        let changed: BTreeMap<usize, &str> =
            [(1, "A,,division,A,,Fr,,,,,10.10"), (5, "C,B,brigade,C,,Fr,,,,,")].into();
        let then = hexes_before(&c, HEADER, &changed).unwrap();
        let want: BTreeMap<String, HexId> =
            [("A", "10.10"), ("B", "12.12")].map(|(f, h)| (f.to_string(), h.parse().unwrap())).into();
        assert_eq!(then, want);
        // A row cut short (a field running over lines) is not read: the journal is replayed.
        let cut: BTreeMap<usize, &str> = [(1, "A,,division,\"A")].into();
        assert_eq!(hexes_before(&c, HEADER, &cut), None);
        assert_eq!(hexes_before(&c, HEADER, &BTreeMap::new()).map(|h| h.len()), Some(3));
    }
}
