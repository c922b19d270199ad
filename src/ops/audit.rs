//! `audit`: rebuilds the state from the journal's baseline and entries, compares it with
//! the files, and proves every man is accounted for: for every unit of every applied battle,
//! men before = men after + killed + wounded (returning, captured, lost) + stragglers
//! (returning, captured, lost, drowned); returns scheduled and returned match the units.

use std::collections::{BTreeMap, BTreeSet};

use crate::error::{Problem, Problems, Result};
use crate::formats::report::audit::AuditReport;
use crate::formats::table::{Fields, Table};
use crate::formats::text::{Encoding, decode};
use crate::model::battle::BattleState;
use crate::model::dialect::Dialect;
use crate::store::CampaignDir;
use crate::store::journal::{
    Entry, EntryKind, FileChange, Journal, STATE_FILES, StateFiles, replay_entry, state_hashes,
};

/// What the audit found: its report, and the problems it found (none: every man is
/// accounted for).
#[derive(Debug)]
pub struct Audited {
    /// The report (its problems as found).
    pub report: AuditReport,
    /// The problems found.
    pub problems: Problems,
}

/// Men of the given units in a `forces.csv`. Only their rows are read as CSV: where no field
/// of the file is quoted and its first column is the id, a unit's row is the line that
/// starts with its id and a comma (a large order of battle has hundreds of thousands of
/// lines, and a battle a few dozen units).
fn men_of(bytes: Option<&[u8]>, ids: &BTreeSet<&str>) -> BTreeMap<String, u32> {
    let Some(b) = bytes.filter(|_| !ids.is_empty()) else { return BTreeMap::new() };
    let (text, _) = decode(b);
    let (header, body) = text.split_once('\n').unwrap_or((&text, ""));
    let sep = char::from(Dialect::sniff(header.as_bytes(), Encoding::Utf8).separator);
    let keyed = header.split(sep).next().is_some_and(|h| h.trim().eq_ignore_ascii_case("id"));
    let rows: std::borrow::Cow<'_, str> = if keyed && !text.contains('"') {
        let mut rows = format!("{header}\n");
        for line in body.lines() {
            if line.split_once(sep).is_some_and(|(k, _)| ids.contains(k.trim_ascii())) {
                rows.push_str(line);
                rows.push('\n');
            }
        }
        rows.into()
    } else {
        text
    };
    let mut p = Problems::default();
    let t = Table::parse("forces.csv", rows.as_bytes(), &mut p);
    let (c_id, c_men) = (t.column("id"), t.column("men"));
    t.rows
        .iter()
        .filter_map(|r| {
            let mut f = Fields::new(&t, r, &mut p);
            let id = f.text(c_id);
            if !ids.contains(id) {
                return None;
            }
            f.count(c_men).map(|m| (id.to_string(), m))
        })
        .collect()
}

fn returns_by_battle(bytes: Option<&[u8]>, battle: &str) -> u64 {
    let mut p = Problems::default();
    let Some(b) = bytes else { return 0 };
    let t = Table::parse("returns.csv", b, &mut p);
    t.rows
        .iter()
        .map(|r| {
            let mut f = Fields::new(&t, r, &mut p);
            if f.text("battle") == battle { u64::from(f.count("men").unwrap_or(0)) } else { 0 }
        })
        .sum()
}

/// Men due back in a `returns.csv`, all rows summed.
fn returns_total(bytes: Option<&[u8]>) -> u64 {
    let Some(b) = bytes else { return 0 };
    let mut p = Problems::default();
    let t = Table::parse("returns.csv", b, &mut p);
    t.rows.iter().map(|r| u64::from(Fields::new(&t, r, &mut p).count("men").unwrap_or(0))).sum()
}

/// Judges a manual edit (`before` the state before it, `after` after it; `earlier` the entries
/// before it) for men made by hand: men due back added to `returns.csv` (rows added, duplicated
/// or raised: no battle sent them), and `forces.csv` put back from before a standing battle
/// (every unit that lost men in it has its men from before the battle again).
fn hand_made_men(
    earlier: &[Entry],
    before: &StateFiles,
    after: &StateFiles,
    at: &str,
    problems: &mut Problems,
) {
    let get = |s: &StateFiles, f: &str| s.get(f).and_then(|c| c.as_deref()).map(<[u8]>::to_vec);
    let (was, now) = (
        returns_total(get(before, "returns.csv").as_deref()),
        returns_total(get(after, "returns.csv").as_deref()),
    );
    if now > was {
        problems.push(Problem::in_file(
            at,
            format!(
                "a manual edit of returns.csv added {} men due back that no battle sent (rows added, duplicated \
                 or raised by hand): reinforcements go into forces.csv",
                now - was
            ),
        ));
    }
    let journal = Journal { entries: earlier.to_vec() };
    for apply in journal.standing_applies() {
        let lost: Vec<&crate::rules::carryover::UnitCarryover> =
            apply.carryover.iter().filter(|co| co.men_after < co.men_before).collect();
        let ids: BTreeSet<&str> = lost.iter().map(|co| co.unit.as_str()).collect();
        let (then, now) = (
            men_of(get(before, "forces.csv").as_deref(), &ids),
            men_of(get(after, "forces.csv").as_deref(), &ids),
        );
        let restored = |co: &&crate::rules::carryover::UnitCarryover| {
            now.get(&co.unit) == Some(&co.men_before) && then.get(&co.unit) != Some(&co.men_before)
        };
        if !lost.is_empty() && lost.iter().all(restored) {
            problems.push(Problem::in_file(
                at,
                format!(
                    "a manual edit put back the men every unit had before battle {} (journal entry {}): forces.csv \
                     restored from a copy older than the battle? `undo {}` takes a battle back",
                    apply.battle.as_deref().unwrap_or("?"),
                    apply.seq,
                    apply.battle.as_deref().unwrap_or("BATTLE")
                ),
            ));
        }
    }
}

/// Audits the campaign. A change left half-done by a killed command was finished first,
/// under the lock, by `commands::run`. Audit only reads: it takes no lock, so that it runs on
/// a campaign kept where nothing may be written (a backup, a read-only share).
pub fn audit(dir: &CampaignDir) -> Result<Audited> {
    // A campaign that does not read (a file a spreadsheet damaged) is refused as `check`
    // refuses it: nothing is accounted for in files no command can use.
    dir.load()?;
    let journal = dir.read_journal()?;
    let current = dir.read_state()?;
    let mut rep = AuditReport { entries: journal.entries.len(), ..AuditReport::default() };
    let mut problems = Problems::default();
    if let Some(gap) = dir.journal_gap(&journal)? {
        problems.push(Problem::in_file("journal.jsonl", gap));
    }
    if journal.entries.is_empty() {
        // With no journal, a battle record that says applied is one the journal lost.
        for b in dir.battles()?.into_iter().filter(|b| b.state == BattleState::Applied) {
            problems.push(Problem::in_file(
                &format!("battles/{}/battle.json", b.id),
                "applied, but journal.jsonl has no entry at all: the journal was deleted or lost",
            ));
        }
        rep.problems = problems.0.clone();
        return Ok(Audited { report: rep, problems });
    }
    let state = replayed(dir, &journal, &mut rep, &mut problems)?;
    // Unrecorded manual edits: the next writing command journals them. They are judged as
    // a journalled one is.
    for f in STATE_FILES {
        if state.get(f) != current.get(f) {
            rep.unrecorded_edits.push(f.to_string());
        }
    }
    if !rep.unrecorded_edits.is_empty() {
        hand_made_men(
            &journal.entries,
            &state,
            &current,
            "files edited by hand since the last journal entry",
            &mut problems,
        );
    }
    applied_twice(&journal, &mut problems);
    check_records(dir, &journal, &mut rep, &mut problems)?;
    rep.problems = problems.0.clone();
    Ok(Audited { report: rep, problems })
}

/// What the checks of an entry need of the state before it, taken before it is replayed.
struct Before {
    /// The men of the units the entry concerns.
    men: BTreeMap<String, u32>,
    /// The whole state, before a manual edit (else empty).
    state: StateFiles,
    /// Men due back from the entry's battle.
    returns: u64,
}

/// The units an entry concerns: an apply's units, the rows a move changed (only their
/// hexes may differ), the units a turn advance returned men to or took men from.
fn units_of(e: &Entry) -> BTreeSet<&str> {
    match e.kind {
        EntryKind::Apply => e.carryover.iter().map(|c| c.unit.as_str()).collect(),
        EntryKind::Move => e
            .changes
            .iter()
            .filter(|ch| ch.file() == "forces.csv")
            .flat_map(|ch| match ch {
                FileChange::Lines { lines, .. } => lines.iter().collect::<Vec<_>>(),
                FileChange::Whole { .. } => Vec::new(),
            })
            .filter_map(|l| l.before.split([',', ';']).next())
            .collect(),
        EntryKind::TurnAdvance => e.returned.iter().chain(&e.lost).map(|(u, _)| u.as_str()).collect(),
        _ => BTreeSet::new(),
    }
}

/// The state replayed from the baseline through every entry, each entry checked as it is
/// replayed; a replay that fails is a problem, and ends the replay there.
fn replayed(
    dir: &CampaignDir,
    journal: &Journal,
    rep: &mut AuditReport,
    problems: &mut Problems,
) -> Result<StateFiles> {
    let mut state: StateFiles = dir.read_baseline()?;
    // The state hashes before the first entry, for checking an undo of it: the baseline's own.
    let first_undone = journal
        .entries
        .first()
        .is_some_and(|first| first.kind == EntryKind::Apply && journal.undone_by(first.seq).is_some());
    let baseline_hashes = if first_undone { state_hashes(&state) } else { BTreeMap::new() };
    for (i, e) in journal.entries.iter().enumerate() {
        let ids = units_of(e);
        let battle = e.battle.clone().unwrap_or_default();
        let before = Before {
            men: men_of(state.get("forces.csv").and_then(Option::as_deref), &ids),
            // What a manual edit is judged against: the state before it.
            state: if e.kind == EntryKind::ManualEdit { state.clone() } else { StateFiles::new() },
            returns: returns_by_battle(state.get("returns.csv").and_then(Option::as_deref), &battle),
        };
        if let Err(err) = replay_entry(&mut state, e, i == 0) {
            problems.push(Problem::in_file("journal.jsonl", err.to_string()));
            break;
        }
        let at = format!("journal.jsonl entry {}", e.seq);
        let men_after = || men_of(state.get("forces.csv").and_then(Option::as_deref), &ids);
        match e.kind {
            EntryKind::Apply => {
                let scheduled = i128::from(returns_by_battle(
                    state.get("returns.csv").and_then(Option::as_deref),
                    &battle,
                )) - i128::from(before.returns);
                check_apply(journal, e, &before.men, &men_after(), scheduled, &at, rep, problems);
            }
            EntryKind::Undo => check_undo(journal, i, &baseline_hashes, &at, problems),
            EntryKind::TurnAdvance => check_turn_advance(e, &before.men, &men_after(), &at, problems),
            EntryKind::Move => {
                for p in crate::ops::messages::audit_entry(e, seed_in(&state)) {
                    problems.push(Problem::in_file(&at, p));
                }
                let after = men_after();
                if after != before.men {
                    problems.push(Problem::in_file(
                        &at,
                        format!(
                            "a move changed the men of its forces: {:?} before, {after:?} after",
                            before.men
                        ),
                    ));
                }
            }
            EntryKind::MapImport => {
                for ch in
                    e.changes.iter().filter(|ch| !crate::formats::campaign::names::MAP.contains(&ch.file()))
                {
                    problems.push(Problem::in_file(
                        &at,
                        format!("a map import changed {}, which is not the map's", ch.file()),
                    ));
                }
            }
            EntryKind::Messages => {
                for p in crate::ops::messages::audit_entry(e, seed_in(&state)) {
                    problems.push(Problem::in_file(&at, p));
                }
            }
            EntryKind::Contacts => {
                for ch in e.changes.iter().filter(|ch| ch.file() != crate::formats::decisions::DECISIONS) {
                    problems.push(Problem::in_file(
                        &at,
                        format!(
                            "contacts advised or decided changed {}, which is not decisions.csv",
                            ch.file()
                        ),
                    ));
                }
                for p in crate::ops::contacts::audit_advice(e, seed_in(&state)) {
                    problems.push(Problem::in_file(&at, p));
                }
            }
            EntryKind::Cancel => {
                for ch in &e.changes {
                    problems.push(Problem::in_file(
                        &at,
                        format!(
                            "the cancel of battle {} changed {}",
                            e.battle.as_deref().unwrap_or("?"),
                            ch.file()
                        ),
                    ));
                }
            }
            EntryKind::ManualEdit => {
                hand_made_men(&journal.entries[..i], &before.state, &state, &at, problems);
            }
        }
    }
    Ok(state)
}

/// The campaign's seed in the state replayed so far, for rolling a journalled stream again.
fn seed_in(state: &StateFiles) -> Option<u64> {
    let bytes = state.get("campaign.toml").and_then(Option::as_deref)?;
    crate::formats::campaign::parse_config(bytes, &mut Problems::default()).map(|c| c.seed)
}

/// Checks an apply: every unit's men and guns conserved, `forces.csv` changed as its
/// carry-over says, and the men it sends back scheduled in `returns.csv` (`scheduled`,
/// signed: a journal edited by hand may even take men out). An apply undone later is
/// checked but not counted.
#[allow(clippy::too_many_arguments)]
fn check_apply(
    journal: &Journal,
    e: &Entry,
    before: &BTreeMap<String, u32>,
    after: &BTreeMap<String, u32>,
    scheduled: i128,
    at: &str,
    rep: &mut AuditReport,
    problems: &mut Problems,
) {
    let battle = e.battle.as_deref().unwrap_or_default();
    let mut returning = 0u64;
    let undo = journal.undone_by(e.seq);
    if let Some(u) = undo {
        rep.undone.push(format!("entry {} (battle {battle}), undone by entry {u}", e.seq));
    }
    for co in &e.carryover {
        if undo.is_none() {
            rep.units_checked += 1;
            rep.men_accounted += u64::from(co.men_before);
        }
        returning += u64::from(co.stragglers_returning + co.wounded_returning);
        if !co.conserved() {
            problems.push(Problem::in_file(at, format!("{}: men or guns not conserved: {co:?}", co.unit)));
        }
        if before.get(&co.unit) != Some(&co.men_before) || after.get(&co.unit) != Some(&co.men_after) {
            problems.push(Problem::in_file(
                at,
                format!(
                    "{}: forces.csv went from {:?} to {:?} men, the carry-over says {} to {}",
                    co.unit,
                    before.get(&co.unit),
                    after.get(&co.unit),
                    co.men_before,
                    co.men_after
                ),
            ));
        }
    }
    if scheduled != i128::from(returning) {
        problems.push(Problem::in_file(
            at,
            format!("battle {battle}: {scheduled} men scheduled in returns.csv, the carry-over returns {returning}"),
        ));
    }
}

/// Checks the undo at index `i`: with no manual edit in between, it restores the state before
/// the apply or turn advance it took back (`baseline_hashes`: the state before the first
/// entry, when an undo takes that back).
fn check_undo(
    journal: &Journal,
    i: usize,
    baseline_hashes: &BTreeMap<String, String>,
    at: &str,
    problems: &mut Problems,
) {
    let e = &journal.entries[i];
    let Some(taken) = journal.taken_back_by(e) else { return };
    let Some(a) = journal.index_of(taken.seq).filter(|a| *a < i) else { return };
    let edited = journal.entries[a..i].iter().any(|x| x.kind == EntryKind::ManualEdit);
    let before = if a == 0 { None } else { Some(&journal.entries[a - 1].state) };
    let failed = match taken.kind {
        EntryKind::TurnAdvance => before.is_some_and(|b| *b != e.state).then(|| {
            format!("the undo of the turn advance of entry {} did not restore the state before it", taken.seq)
        }),
        EntryKind::Apply => (*before.unwrap_or(baseline_hashes) != e.state).then(|| {
            format!("undo of {} did not restore the state before it", e.battle.as_deref().unwrap_or_default())
        }),
        _ => None,
    };
    if let (Some(message), false) = (failed, edited) {
        problems.push(Problem::in_file(at, message));
    }
}

/// Checks a turn advance: each unit's men in `forces.csv` changed by the men returned to it
/// less the men it lost.
fn check_turn_advance(
    e: &Entry,
    before: &BTreeMap<String, u32>,
    after: &BTreeMap<String, u32>,
    at: &str,
    problems: &mut Problems,
) {
    let mut net: BTreeMap<&str, i64> = BTreeMap::new();
    for (u, m) in &e.returned {
        *net.entry(u).or_default() += i64::from(*m);
    }
    for (u, m) in &e.lost {
        *net.entry(u).or_default() -= i64::from(*m);
    }
    for (u, m) in net {
        // A unit taken prisoner with its force leaves forces.csv: it has no men.
        let after_men = after.get(u).copied().map(i64::from).unwrap_or(0);
        let expected = before.get(u).map(|b| i64::from(*b) + m);
        if expected != Some(after_men) {
            problems.push(Problem::in_file(
                at,
                format!(
                    "{u}: {m:+} men returned and lost but forces.csv went from {:?} to {:?}",
                    before.get(u),
                    after.get(u)
                ),
            ));
        }
    }
}

/// One battle, one standing apply: a second is a result counted twice.
fn applied_twice(journal: &Journal, problems: &mut Problems) {
    let mut seen: BTreeMap<&str, u64> = BTreeMap::new();
    for e in journal.standing_applies() {
        let battle = e.battle.as_deref().unwrap_or_default();
        if let Some(first) = seen.insert(battle, e.seq) {
            problems.push(Problem::in_file(
                &format!("journal.jsonl entry {}", e.seq),
                format!(
                    "battle {battle} applied a second time: journal entry {first} applied it and stands (no undo between)"
                ),
            ));
        }
    }
}

/// Battle records agree with the journal: a battle applied by its record has the journal's
/// newest apply or undo of it an apply, of the same result; a battle whose newest entry is an
/// apply says applied.
fn check_records(
    dir: &CampaignDir,
    journal: &Journal,
    rep: &mut AuditReport,
    problems: &mut Problems,
) -> Result<()> {
    for b in dir.battles()? {
        let last = journal.entries.iter().rev().find(|e| {
            e.battle.as_deref() == Some(&b.id) && matches!(e.kind, EntryKind::Apply | EntryKind::Undo)
        });
        match (b.state, last) {
            (BattleState::Applied, Some(e)) if e.kind == EntryKind::Apply => {
                rep.battles_applied += 1;
                if b.result.as_ref().map(|r| &r.hash) != e.result_hash.as_ref() {
                    problems.push(Problem::in_file(
                        &format!("battles/{}/battle.json", b.id),
                        "result hash differs from its journal entry",
                    ));
                }
            }
            (BattleState::Applied, _) => problems.push(Problem::in_file(
                &format!("battles/{}/battle.json", b.id),
                "applied, but the journal has no standing apply entry",
            )),
            (_, Some(e)) if e.kind == EntryKind::Apply => problems.push(Problem::in_file(
                &format!("battles/{}/battle.json", b.id),
                format!("journal entry {} applied it, but the record says {}", e.seq, b.state.word()),
            )),
            _ => {}
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_men_of_units_read_the_same_through_the_quick_path_and_the_whole_file() {
        let ids: BTreeSet<&str> = ["B-1", "B-3"].into();
        let want: BTreeMap<String, u32> = [("B-1".to_string(), 500), ("B-3".to_string(), 300)].into();
        // Unquoted, id first: only the lines of B-1 and B-3 are read as CSV.
        let plain = "id,parent,name,men\nB,,Brigade,\nB-1,B,First,500\nB-2,B,Second,400\nB-3,B,Third,300\n";
        assert_eq!(men_of(Some(plain.as_bytes()), &ids), want);
        // A quoted field (it may hold a line end) or another first column: the whole file.
        let quoted = plain.replace("Second", "\"Second, the old\"");
        assert_eq!(men_of(Some(quoted.as_bytes()), &ids), want);
        let reordered = "men,id\n500,B-1\n400,B-2\n300,B-3\n";
        assert_eq!(men_of(Some(reordered.as_bytes()), &ids), want);
        // A prefix of an id is not the id.
        let prefix = "id,men\nB-1x,7\nB-1,500\nB-3,300\n";
        assert_eq!(men_of(Some(prefix.as_bytes()), &ids), want);
        assert!(men_of(None, &ids).is_empty());
        assert!(men_of(Some(plain.as_bytes()), &BTreeSet::new()).is_empty());
    }
}
