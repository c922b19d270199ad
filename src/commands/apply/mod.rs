//! `apply FILE`: a battle's result into the campaign — matched to its battle, judged,
//! carried over under the campaign's model, the loser withdrawn along roads, the score and
//! records kept — exactly once, journalled, and reversible with `undo`.

mod aftermath;
pub mod matching;
pub mod report;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use crate::error::{Error, Problem, Result};
use crate::formats::campaign::{write_commanders, write_forces};
use crate::formats::ledger::{write_returns, write_score};
use crate::formats::results::{
    ResultFile, ResultInput, StartLocs, parse_result, parse_startlocs, read_result_input,
};
use crate::formats::sow::scenario::parse_time;
use crate::model::battle::{AppliedResult, BattleRecord, BattleState};
use crate::model::{Campaign, HexId, Side};
use crate::rules::withdrawal::WithdrawalPlan;
use crate::store::battles::{record_bytes, record_path, report_path};
use crate::store::journal::{Entry, EntryKind, STATE_FILES, sha256_hex};
use crate::store::{CampaignDir, CampaignLock, Commit};

use matching::{chains_known, match_dump, match_manual};

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
}

/// What applying did (or would do).
#[derive(Debug, Clone, serde::Serialize)]
pub struct Applied {
    /// The battle.
    pub battle: String,
    /// The winner (None: draw).
    pub winner: Option<Side>,
    /// Journal sequence number (0 on a dry run).
    pub journal_seq: u64,
    /// The report (markdown).
    pub report: String,
    /// Every change to the state files, as a diff for people.
    pub diff: String,
}

/// A force's withdrawal and whether a river lay at its back.
#[derive(Debug, Clone, serde::Serialize)]
pub struct Withdrawal {
    /// The plan.
    pub plan: WithdrawalPlan,
    /// Where it went (None: it stayed, trapped).
    pub to: Option<HexId>,
    /// A river crossed on the way back, or at its back when trapped (6.5.2).
    pub river: Option<String>,
    /// Chosen by `--withdraw-to`.
    pub chosen_by_umpire: bool,
}

/// Runs `apply`.
pub fn run(dir: &CampaignDir, a: &crate::cli::ApplyArgs) -> anyhow::Result<()> {
    use crate::cli::{WinnerArg, YesNo};
    let req = ApplyRequest {
        path: a.file.clone(),
        battle: a.battle.clone(),
        winner: a.winner.map(|w| match w {
            WinnerArg::French => Some(Side::French),
            WinnerArg::Allies => Some(Side::Allies),
            WinnerArg::Draw => None,
        }),
        river_retreat: a.river_retreat.map(|r| r == YesNo::Yes),
        withdraw_to: a.withdraw_to.clone(),
        allow_missing: a.allow_missing,
        dry_run: a.dry_run,
        require_final: false,
    };
    let r = apply_result(dir, &req)?;
    if a.json {
        return super::print_json(&r);
    }
    crate::out!("{}", r.report);
    if a.dry_run {
        crate::outln!("\n## Changes (dry run: nothing written)\n");
        crate::out!("{}", r.diff);
    } else {
        crate::errln!(
            "applied {} to battle {} (journal entry {})",
            a.file.display(),
            r.battle,
            r.journal_seq
        );
    }
    Ok(())
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
            // Pending battles first: an applied battle's chains may be reused by a later one.
            // A file that fits no pending battle as well as an applied one is for that one.
            let mut scored: Vec<(bool, usize, &BattleRecord)> = battles
                .iter()
                .map(|b| (b.state.is_pending(), chains_known(b, d), b))
                .filter(|(_, n, _)| *n > 0)
                .collect();
            scored.sort_by_key(|(pending, n, _)| std::cmp::Reverse((*n, *pending)));
            match scored.as_slice() {
                [] => Err(Error::problem(Problem::in_file(
                    &d.file,
                    "no chain of this dump belongs to any exported battle".to_string(),
                ))),
                [(p1, n, b), (p2, m, other), ..] if n == m && p1 == p2 => Err(Error::refused(format!(
                    "{}: matches battles {} and {} equally; say --battle",
                    d.file, b.id, other.id
                ))),
                [(_, _, b), ..] => Ok(b),
            }
        }
    }
}

/// Applies a result file (or, with `dry_run`, reports what it would do).
pub fn apply_result(dir: &CampaignDir, req: &ApplyRequest) -> Result<Applied> {
    let ResultInput { name, bytes, startlocs: startlocs_bytes } = read_result_input(&req.path)?;
    let hash = sha256_hex(&bytes);
    let lock = if req.dry_run { None } else { Some(CampaignLock::acquire(dir, Duration::from_secs(60))?) };
    if let Some(l) = &lock {
        dir.recover(l)?;
    }
    if let Some((battle, as_file)) = applied_hash(dir, &hash)? {
        return Err(Error::refused(format!(
            "{name}: this result (same content) was already applied to battle {battle} as {as_file}; nothing changed"
        )));
    }
    let rf = parse_result(&name, &bytes).map_err(Error::Rejected)?;
    let battles = dir.battles()?;
    let battle = pick_battle(&battles, &rf, req.battle.as_deref())?.clone();
    if !battle.state.is_pending() {
        return Err(Error::refused(format!(
            "battle {} is {:?}, not waiting for a result: nothing changed",
            battle.id, battle.state
        )));
    }
    let startlocs = match &rf {
        ResultFile::GameDump(_) => startlocs_bytes
            .as_deref()
            .map(|b| parse_startlocs("startlocs.csv", b).map_err(Error::Rejected))
            .transpose()?,
        ResultFile::Manual(_) => None,
    };
    if req.require_final && matches!(rf, ResultFile::GameDump(_)) {
        check_final(&battle, startlocs.as_ref())?;
    }
    let matched = match &rf {
        ResultFile::GameDump(d) => match_dump(&battle, d, req.allow_missing),
        ResultFile::Manual(m) => match_manual(&battle, m, req.allow_missing),
    }
    .map_err(Error::Rejected)?;

    let mut c = dir.load()?;
    let outcome = aftermath::compute(&c, &battle, &matched, startlocs.as_ref(), req)?;
    let lock_ref = lock.as_ref();
    let mut txn = match lock_ref {
        Some(l) => Some(dir.begin(l)?),
        None => None,
    };
    let seq = txn.as_ref().map_or(0, |t| t.next_seq());
    let report = outcome.apply_to(&mut c, &battle, &name, &hash, seq)?;
    let new_files = state_files(&c);
    let diff = match &mut txn {
        Some(t) => report::state_diff(t.current()?, &new_files),
        None => report::state_diff(&dir.read_state()?, &new_files),
    };
    let mut record = battle.clone();
    record.state = BattleState::Applied;
    record.result = Some(AppliedResult {
        hash: hash.clone(),
        file: name.clone(),
        journal_seq: seq,
        winner: outcome.verdict.winner,
    });
    let Some(txn) = txn else {
        return Ok(Applied {
            battle: battle.id,
            winner: outcome.verdict.winner,
            journal_seq: 0,
            report,
            diff,
        });
    };
    let mut extra = Commit::default();
    extra.write(record_path(&record.id), record_bytes(&record)?);
    extra.write(report_path(&record.id), report.clone().into_bytes());
    extra.write(format!("battles/{}/results/{name}", record.id), bytes);
    if let (ResultFile::GameDump(_), Some(b)) = (&rf, startlocs_bytes) {
        extra.write(format!("battles/{}/results/startlocs.csv", record.id), b);
    }
    let entry = Entry {
        seq,
        kind: EntryKind::Apply,
        battle: Some(record.id.clone()),
        turn: c.config.turn,
        summary: format!(
            "battle {}: {}",
            record.id,
            outcome.verdict.winner.map_or("draw".to_string(), |w| format!("{w} victory"))
        ),
        changes: Vec::new(),
        state: BTreeMap::new(),
        dice: outcome.dice.clone(),
        result_hash: Some(hash),
        carryover: outcome.carryover.clone(),
        returned: Vec::new(),
    };
    let seq = txn.finish(new_files, Some(entry), extra)?;
    Ok(Applied { battle: record.id, winner: outcome.verdict.winner, journal_seq: seq, report, diff })
}

/// The state files of a campaign value.
pub fn state_files(c: &Campaign) -> crate::store::journal::StateFiles {
    let mut m = BTreeMap::new();
    for f in STATE_FILES {
        let v = match f {
            "forces.csv" => Some(write_forces(&c.oob)),
            "commanders.csv" => Some(write_commanders(&c.commanders, &c.commander_columns)),
            "returns.csv" => Some(write_returns(&c.returns)),
            "score.csv" => Some(write_score(&c.score)),
            _ => continue,
        };
        m.insert(f.to_string(), v);
    }
    m
}

/// A dump is final when the `startlocs.csv` beside it was written by the battle's final
/// `dumplocs` (three seconds before the end), as export's battlescript schedules it.
pub fn check_final(b: &BattleRecord, sl: Option<&StartLocs>) -> Result<()> {
    let end = parse_time(&b.end_time).unwrap_or(0);
    let final_locs = end.saturating_sub(3);
    match sl.and_then(|s| s.time.as_deref()).and_then(parse_time) {
        Some(t) if t >= final_locs => Ok(()),
        Some(t) => Err(Error::Pending(format!(
            "not final: startlocs.csv is from {} but battle {} ends at {}",
            crate::formats::sow::scenario::format_time(t),
            b.id,
            b.end_time
        ))),
        None => Err(Error::Pending(format!(
            "not final: no startlocs.csv from the final dumplocs of battle {} beside it",
            b.id
        ))),
    }
}
