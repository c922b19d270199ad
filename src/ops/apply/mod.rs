//! Applying a battle's result to the campaign (`apply FILE`, and the watcher): matched to its
//! battle, judged, carried over under the campaign's model, the loser withdrawn along roads,
//! the score and records kept — exactly once, journalled, and reversible with `undo`.

pub mod matching;

use std::path::PathBuf;

use crate::error::{Error, Problem, Result};
use crate::formats::report::battle::{self as report, FileDiff, MANUAL};
use crate::formats::results::{
    ResultFile, ResultInput, STARTLOCS, StartLocs, parse_result, parse_startlocs, read_result_input,
};
use crate::formats::sow::scenario::parse_time;
use crate::formats::svg::aftermath::aftermath_picture;
use crate::model::battle::{AppliedResult, BattleRecord, BattleState};
use crate::model::{HexId, Side};
use crate::rules::aftermath::{self, AftermathOptions};
use crate::rules::dice::{Dice, SeededDice};
use crate::rules::finality::{Finality, LocsEvidence, finality};
use crate::rules::verdict::Presence;
use crate::store::battles::{aftermath_path, record_bytes, record_path, report_path};
use crate::store::files::changed_files;
use crate::store::journal::{
    Content, Entry, FileChange, Journal, STATE_FILES, StateFiles, diff_file, sha256_hex,
};
use crate::store::{CampaignDir, Commit};

use matching::{dump_belongs, match_dump, match_manual, rows_listed, units_recognised};

/// How the umpire asks for a result to be applied.
#[derive(Debug, Clone, Default)]
pub struct ApplyRequest {
    /// The result file.
    pub path: PathBuf,
    /// The battle, when the file could match several.
    pub battle: Option<String>,
    /// `--winner`: Some(None) is a draw.
    pub winner: Option<Option<Side>>,
    /// `--river-retreat yes|no`.
    pub river_retreat: Option<bool>,
    /// `--withdraw-to [FORCE=]CC.RR`.
    pub withdraw_to: Vec<String>,
    /// Accept exported units missing from the result.
    pub allow_missing: bool,
    /// Compute and report only.
    pub dry_run: bool,
    /// Refuse a dump unless the battle's final `startlocs.csv` lies beside it (the watcher).
    pub require_final: bool,
    /// `--interim`: apply a dump written before the battle's end (a battle that crashed).
    pub interim: bool,
    /// `--verbose`: a refused dump shows its rows' problems too.
    pub verbose: bool,
}

pub use crate::formats::report::battle::Applied;
pub use crate::rules::aftermath::Withdrawal;

/// The operation of applying the result with this content hash (see `commands::operation`).
pub fn operation(hash: &str) -> String {
    format!("apply {hash}")
}

/// The battle to which a content hash was applied, with the file name it was applied as.
pub fn applied_hash(dir: &CampaignDir, hash: &str) -> Result<Option<(String, String)>> {
    Ok(dir
        .battles()?
        .into_iter()
        .find_map(|b| b.result.as_ref().filter(|r| r.hash == hash).map(|r| (b.id.clone(), r.file.clone()))))
}

fn pick_battle<'a>(
    battles: &'a [BattleRecord],
    rf: &ResultFile,
    wanted: Option<&str>,
) -> Result<&'a BattleRecord> {
    if let (Some(id), ResultFile::Manual(m)) = (wanted, rf)
        && m.battle != id
    {
        return Err(Error::refused(format!(
            "{}: the result names battle {} in its battle column, but --battle says {id}; \
             a hand result names its own battle: correct the file (or leave out --battle); nothing changed",
            m.file, m.battle
        )));
    }
    if let Some(id) = wanted {
        return battles
            .iter()
            .find(|b| b.id == id)
            .ok_or_else(|| Error::refused(format!("--battle {id}: no such battle")));
    }
    match rf {
        ResultFile::Manual(m) => battles.iter().find(|b| b.id == m.battle).ok_or_else(|| {
            Error::problem(Problem::at(&m.file, 2, "battle", format!("no battle '{}'", m.battle)))
        }),
        ResultFile::GameDump(d) => {
            // The battle whose exported units most of the dump's rows are (chain and name);
            // pending battles first, since an applied battle's chains may be reused by a later one.
            let mut scored: Vec<(usize, bool, &BattleRecord)> = battles
                .iter()
                .map(|b| (units_recognised(b, d), b.state.is_pending(), b))
                .filter(|(n, _, _)| *n > 0)
                .collect();
            scored.sort_by_key(|(n, pending, _)| std::cmp::Reverse((*n, *pending)));
            match scored.as_slice() {
                [(n1, p1, b), (n2, p2, other), ..] if n1 == n2 && p1 == p2 && dump_belongs(b, d) => {
                    Err(Error::refused(format!(
                        "{}: matches battles {} and {} equally; say --battle",
                        d.file, b.id, other.id
                    )))
                }
                [(_, _, b), ..] if dump_belongs(b, d) => Ok(b),
                best => {
                    let near = best.first().map_or(String::new(), |(n, _, b)| {
                        format!(" (at most {n} match battle {}, {})", b.id, state_words(b))
                    });
                    Err(Error::refused(format!(
                        "{}: a dump of no battle sowbridge exported: of its {} units, too few carry the chain \
                         and name of one{near}. Is it from another game? Nothing changed",
                        d.file,
                        d.units.len()
                    )))
                }
            }
        }
    }
}

/// A battle's state in the umpire's words.
fn state_words(b: &BattleRecord) -> String {
    match (b.state, &b.result) {
        (BattleState::Applied, Some(r)) => {
            format!("applied from {} in journal entry {}", r.file, r.journal_seq)
        }
        (BattleState::Applied, None) => "applied".to_string(),
        (BattleState::Replaced, _) => "replaced by a later export".to_string(),
        (BattleState::Cancelled, _) => {
            "cancelled with `battle cancel`: it was not to be fought (`undo` the cancel to apply it)"
                .to_string()
        }
        (BattleState::Exported, _) => "pending".to_string(),
        (BattleState::Undone, _) => "pending (its result was undone)".to_string(),
    }
}

/// Applies a result file (or, with `dry_run`, reports what it would do).
pub fn apply_result(dir: &CampaignDir, req: &ApplyRequest) -> Result<Applied> {
    let input = read_result_input(&req.path)?;
    let ResultInput { name, bytes, .. } = &input;
    let (name, bytes) = (name.clone(), bytes.clone());
    let hash = sha256_hex(&bytes);
    let lock = dir.lock_unless_dry_run(req.dry_run)?;
    // The journal is the authority on what was applied: a battle record restored from a
    // backup (or an older checkout) does not make a result applicable again.
    let journal = dir.read_journal()?;
    refuse_applied_before(dir, &journal, &name, &hash)?;
    if req.require_final && still_being_written(&bytes) {
        return Err(Error::Pending(format!("{INCOMPLETE}: its last line has no line ending yet")));
    }
    let rf = parse_result(&name, &bytes).map_err(Error::Rejected)?;
    let battle = pending_battle(dir, &journal, &rf, req, &name)?;
    let (startlocs, evidence) = match &rf {
        ResultFile::GameDump(_) => final_evidence(&battle, &input, req)?,
        ResultFile::Manual(_) => (None, MANUAL.to_string()),
    };
    let startlocs_bytes = startlocs.as_ref().and(input.startlocs.clone());
    let matched = match &rf {
        ResultFile::GameDump(d) => match_dump(&battle, d, req.allow_missing),
        ResultFile::Manual(m) => match_manual(&battle, m, req.allow_missing),
    }
    .map_err(Error::Rejected)?;
    // A template applied as it was written: nobody lost a man. Only the umpire's word makes
    // that a battle.
    if let ResultFile::Manual(m) = &rf
        && req.winner.is_none()
        && m.rows.iter().all(|r| r.killed + r.wounded + r.missing + r.captured + r.guns_lost == 0)
    {
        return Err(Error::refused(format!(
            "{name}: every unit of battle {} has 0 losses: is it the template, not filled in yet? Fill in \
             killed, wounded, missing and captured, or give --winner SIDE|draw to apply a battle in which \
             nobody lost a man; nothing changed",
            battle.id
        )));
    }
    let judged = Judged { battle, matched, startlocs, startlocs_bytes, evidence, name, hash, bytes, rf };
    carry_out(dir, lock.as_ref(), req, judged)
}

/// A result matched to its pending battle and judged applicable.
struct Judged {
    battle: BattleRecord,
    matched: matching::Matched,
    startlocs: Option<StartLocs>,
    startlocs_bytes: Option<Vec<u8>>,
    evidence: String,
    name: String,
    hash: String,
    bytes: Vec<u8>,
    rf: ResultFile,
}

/// Refuses a result whose content was applied already, by the journal or by a battle record.
fn refuse_applied_before(dir: &CampaignDir, journal: &Journal, name: &str, hash: &str) -> Result<()> {
    if let Some(e) = journal.standing_apply(None, Some(hash)) {
        return Err(Error::refused(format!(
            "{name}: this result (same content) was already applied to battle {} by journal entry {}; nothing to do",
            e.battle.as_deref().unwrap_or("?"),
            e.seq
        )));
    }
    if let Some((battle, as_file)) = applied_hash(dir, hash)? {
        return Err(Error::refused(format!(
            "{name}: this result (same content) was already applied to battle {battle} as {as_file}; nothing to do"
        )));
    }
    Ok(())
}

/// The battle of a result, refused unless it is pending by its record and by the journal.
fn pending_battle(
    dir: &CampaignDir,
    journal: &Journal,
    rf: &ResultFile,
    req: &ApplyRequest,
    name: &str,
) -> Result<BattleRecord> {
    let battles = dir.battles()?;
    let battle = match pick_battle(&battles, rf, req.battle.as_deref()) {
        Ok(b) => b.clone(),
        Err(e) => return Err(with_details(e, req, &battles, rf)),
    };
    if let Some(e) = journal.standing_apply(Some(&battle.id), None)
        && battle.state.is_pending()
    {
        return Err(Error::Settled(format!(
            "{name}: battle {id} was applied by journal entry {seq} ({summary}), but its record {rec} says \
             {state}: restored from a backup or an older copy? The journal is the authority: the battle \
             stands applied. `sowbridge undo {id}` takes that result back, then a result can be applied; \
             nothing changed",
            id = battle.id,
            seq = e.seq,
            summary = e.summary,
            rec = record_path(&battle.id),
            state = battle.state.word(),
        )));
    }
    if !battle.state.is_pending() {
        return Err(Error::Settled(format!(
            "{name}: a result of battle {} at {}, which is {}: nothing to do",
            battle.id,
            battle.site(),
            state_words(&battle)
        )));
    }
    Ok(battle)
}

/// Computes the aftermath of a judged result, its report and picture, and (under the lock)
/// commits it with its journal entry; on a dry run, only reports.
fn carry_out(
    dir: &CampaignDir,
    lock: Option<&crate::store::CampaignLock>,
    req: &ApplyRequest,
    j: Judged,
) -> Result<Applied> {
    let battle = &j.battle;
    // Who holds each place as the rules compute it (2.1), for the withdrawal (8.4) and 7.1.4.
    let (mut c, _) = crate::ops::campaign_now(dir)?;
    // The units' end positions, for the objectives: a row counts for the side of its id or
    // of its name (names repeat: couriers, wagons).
    let presence: Option<Presence> = j.startlocs.as_ref().map(|sl| {
        sl.rows()
            .filter_map(|(key, loc)| {
                matching::side_of_row(battle, key).map(|s| ((loc.x, loc.z), s, loc.head_count))
            })
            .collect()
    });
    let options = AftermathOptions {
        winner: req.winner,
        river_retreat: req.river_retreat,
        withdraw_to: parse_withdraw_to(&req.withdraw_to)?,
    };
    let mut dice = SeededDice::new(c.config.seed, &format!("{}/apply", battle.id));
    let mut outcome = aftermath::compute(&c, battle, &j.matched, presence.as_ref(), &options, &mut dice)?;
    let mut txn = match lock {
        Some(l) => Some(dir.begin(l)?),
        None => None,
    };
    let (seq, manual_first) = match &txn {
        Some(t) => (t.next_seq(), t.manual_edit().is_some()),
        None => dir.planned_seq()?,
    };
    let before = c.clone();
    let hit = outcome.apply(&mut c, battle);
    // What each side saw of the other at the battle's end (9.0, 8.5), on apply's own dice.
    let seen = crate::rules::intelligence::after_battle(&c, battle, &mut dice);
    c.books.intelligence.extend(seen);
    outcome.dice = dice.log().to_vec();
    let input = report::ReportInput {
        verdict: &outcome.verdict,
        pursuit: &outcome.pursuit_explanation,
        carryover: &outcome.carryover,
        withdrawals: &outcome.withdrawals,
        river: &outcome.river,
        river_forces: &outcome.river_forces,
        dice: &outcome.dice,
        commanders: &hit,
        missing: &outcome.missing,
        file: &j.name,
        hash: &j.hash,
        seq,
        evidence: &j.evidence,
    };
    let report = report::render(&c, battle, &input);
    let aftermath = aftermath_picture(&report::aftermath_scene(&c, battle, &input));
    let current = match &mut txn {
        Some(t) => t.current()?.clone(),
        None => dir.read_state()?,
    };
    let new_files = changed_files(&before, &c, &current)?;
    let diff = report::state_diff(&file_diffs(&current, &new_files));
    let mut record = battle.clone();
    record.state = BattleState::Applied;
    record.result = Some(AppliedResult {
        hash: j.hash.clone(),
        file: j.name.clone(),
        journal_seq: seq,
        winner: outcome.verdict.winner,
    });
    let mut applied = Applied {
        battle: record.id.clone(),
        winner: outcome.verdict.winner,
        journal_seq: seq,
        manual_edit_first: manual_first,
        report,
        diff,
        startlocs_sha256: j.startlocs_bytes.as_deref().map(sha256_hex),
        evidence: j.evidence,
    };
    let Some(txn) = txn else { return Ok(applied) };
    let mut extra = Commit { operation: Some(operation(&j.hash)), ..Commit::default() };
    extra.write(record_path(&record.id), record_bytes(&record)?);
    extra.write(report_path(&record.id), applied.report.clone().into_bytes());
    extra.write(aftermath_path(&record.id), aftermath);
    extra.write(format!("battles/{}/results/{}", record.id, j.name), j.bytes);
    if let (ResultFile::GameDump(_), Some(b)) = (&j.rf, j.startlocs_bytes) {
        extra.write(format!("battles/{}/results/startlocs.csv", record.id), b);
    }
    let entry = Entry::apply(
        &record.id,
        c.config.turn,
        format!(
            "battle {}: {}",
            record.id,
            outcome.verdict.winner.map_or("draw".to_string(), |w| format!("{w} victory"))
        ),
        outcome.dice.clone(),
        j.hash,
        outcome.carryover.clone(),
    );
    applied.journal_seq = txn.finish(new_files, Some(entry), extra)?;
    Ok(applied)
}

/// The changes to the state files, file by file, as the dry run shows them.
fn file_diffs(before: &StateFiles, after: &StateFiles) -> Vec<FileDiff> {
    let mut diffs = Vec::new();
    for f in STATE_FILES {
        let (Some(b), Some(a)) = (before.get(f), after.get(f)) else { continue };
        match diff_file(f, b.as_deref(), a.as_deref()) {
            None => {}
            Some(FileChange::Lines { lines, .. }) => diffs.push(FileDiff::Lines {
                file: f.to_string(),
                lines: lines.into_iter().map(|l| (l.before, l.after)).collect(),
            }),
            Some(FileChange::Whole { after, .. }) => diffs.push(FileDiff::Whole {
                file: f.to_string(),
                text: match after {
                    Some(Content::Text(t)) => Some(t),
                    _ => None,
                },
            }),
        }
    }
    diffs
}

/// `--withdraw-to [FORCE=]CC.RR`, each parsed.
fn parse_withdraw_to(items: &[String]) -> Result<Vec<(Option<String>, HexId)>> {
    items
        .iter()
        .map(|it| {
            let (force, hex) = match it.split_once('=') {
                Some((f, h)) => (Some(f.trim().to_string()), h),
                None => (None, it.as_str()),
            };
            let hex: HexId = hex
                .parse()
                .map_err(|e: crate::model::HexIdError| Error::refused(format!("--withdraw-to {it}: {e}")))?;
            Ok((force, hex))
        })
        .collect()
}

/// The first words of a waiting reason for a file the game is still writing.
pub const INCOMPLETE: &str = "still being written";

/// True for text whose last line has no line ending yet: the game (or a copy) is still
/// writing it. A file with a NUL byte is no text the game writes, and is judged as it is.
pub fn still_being_written(bytes: &[u8]) -> bool {
    !bytes.is_empty() && !bytes.ends_with(b"\n") && !bytes.ends_with(b"\r") && !bytes.contains(&0)
}

/// The game time of a battle's end, when its final dumps are scheduled by the margins its
/// record keeps (export's battlescript).
fn battle_end(b: &BattleRecord) -> u32 {
    parse_time(&b.end_time).unwrap_or(0)
}

/// Decides whether a dump is the battle's final one (rules 8.4's battle, by the evidence of
/// [`crate::rules::finality`]), and returns the `startlocs.csv` to use (only one written by
/// this battle) with the evidence in words for the report. An interim dump is refused unless
/// `--interim`; a dump whose finality is not shown waits in the watcher and is taken as the
/// umpire's choice by hand.
fn final_evidence(
    battle: &BattleRecord,
    input: &ResultInput,
    req: &ApplyRequest,
) -> Result<(Option<StartLocs>, String)> {
    let locs = match input.startlocs.as_deref().map(|b| parse_startlocs(STARTLOCS, b)) {
        None => None,
        Some(Ok(l)) => Some(l),
        // The game may still be writing it: the watcher waits for it to be whole.
        Some(Err(p)) if req.require_final => {
            return Err(Error::Pending(format!(
                "the startlocs.csv beside it cannot be read yet: {}",
                one_line(&p.to_string())
            )));
        }
        Some(Err(p)) => return Err(Error::Rejected(p)),
    };
    let seen = locs.as_ref().map(|l| LocsEvidence {
        listed: rows_listed(battle, l),
        exported: battle.chains.len(),
        game_time: l.time.as_deref().and_then(parse_time),
        modified: input.startlocs_modified,
    });
    let ours = seen.is_some_and(|s| s.lists_the_battle());
    let locs = locs.filter(|_| ours);
    match finality(&battle.id, battle_end(battle), battle.final_dumps, input.modified, seen) {
        _ if req.interim => Ok((locs, "an interim dump, applied deliberately (--interim)".to_string())),
        Finality::Final(why) => Ok((locs, format!("final: {why}"))),
        Finality::Interim(why) => Err(Error::Interim {
            battle: battle.id.clone(),
            message: format!(
                "{}: an interim dump of battle {} ({}): {why}. Only the final dump is applied; \
                 `sowbridge apply --interim {}` applies this one deliberately (a battle that crashed before its end). \
                 Nothing changed",
                input.name,
                battle.id,
                battle.place,
                req.path.display()
            ),
        }),
        Finality::Unknown(why) if req.require_final => Err(Error::Pending(format!("not final: {why}"))),
        Finality::Unknown(why) => Ok((locs, format!("not shown ({why}); applied as the umpire's choice"))),
    }
}

/// A line of text with its line breaks folded.
fn one_line(text: &str) -> String {
    text.lines().map(str::trim).filter(|l| !l.is_empty()).collect::<Vec<_>>().join("; ")
}

/// With `--verbose`, a dump that belongs to no battle also shows, row by row, how it differs
/// from the battle it comes nearest to.
fn with_details(e: Error, req: &ApplyRequest, battles: &[BattleRecord], rf: &ResultFile) -> Error {
    let (true, Error::Refused(msg), ResultFile::GameDump(d)) = (req.verbose, &e, rf) else { return e };
    let Some(best) = battles.iter().max_by_key(|b| units_recognised(b, d)) else { return e };
    match match_dump(best, d, false) {
        Err(p) => Error::Refused(format!("{msg}\nRow by row against battle {}:\n{p}", best.id)),
        Ok(_) => e,
    }
}
