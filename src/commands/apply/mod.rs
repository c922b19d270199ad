//! `apply FILE`: a battle's result into the campaign — matched to its battle, judged,
//! carried over under the campaign's model, the loser withdrawn along roads, the score and
//! records kept — exactly once, journalled, and reversible with `undo`.

pub mod matching;
pub mod report;

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;
use std::time::Duration;

use crate::error::{Error, Problem, Problems, Result};
use crate::formats::campaign::{write_commanders, write_forces};
use crate::formats::ledger::{score_row, write_returns, write_score};
use crate::formats::results::{
    ResultFile, ResultInput, StartLocs, parse_result, parse_startlocs, read_result_input,
};
use crate::formats::sow::scenario::parse_time;
use crate::model::battle::{AppliedResult, BattleRecord, BattleState, Role};
use crate::model::ledger::{Return, ReturnKind};
use crate::model::{Campaign, HexId, Side, Supply, Turn};
use crate::rules::carryover::{
    Outcome, RiverPenalties, SideSituation, UnitCarryover, UnitLosses, carry_over, resolve_pursuit,
    river_penalties,
};
use crate::rules::dice::{Dice, SeededDice};
use crate::rules::verdict::{Presence, Verdict, objectives_held, policy_verdict};
use crate::rules::withdrawal::{WithdrawalPlan, check_destination, plan_withdrawal};
use crate::store::battles::{record_bytes, record_path, report_path};
use crate::store::journal::{Entry, EntryKind, STATE_FILES, sha256_hex};
use crate::store::{CampaignDir, CampaignLock, Commit};

use matching::{Matched, chains_known, match_dump, match_manual};

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
    print!("{}", r.report);
    if a.dry_run {
        println!("\n## Changes (dry run: nothing written)\n");
        print!("{}", r.diff);
    } else {
        eprintln!("applied {} to battle {} (journal entry {})", a.file.display(), r.battle, r.journal_seq);
    }
    Ok(())
}

/// Content hash of a result file, as recorded.
pub fn file_hash(bytes: &[u8]) -> String {
    sha256_hex(bytes)
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
    let hash = file_hash(&bytes);
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
    let outcome = compute(&c, &battle, &matched, startlocs.as_ref(), req)?;
    let lock_ref = lock.as_ref();
    let txn = match lock_ref {
        Some(l) => Some(dir.begin(l)?),
        None => None,
    };
    let seq = txn.as_ref().map_or(0, |t| t.next_seq());
    let report = outcome.apply_to(&mut c, &battle, &name, &hash, seq)?;
    let new_files = state_files(&c);
    let diff = match &txn {
        Some(t) => report::state_diff(&t.current, &new_files),
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

/// Everything decided before the campaign is changed.
#[derive(Debug)]
struct Outcome2 {
    verdict: Verdict,
    pursuit_explanation: String,
    carryover: Vec<UnitCarryover>,
    ammo: BTreeMap<String, u32>,
    withdrawals: Vec<Withdrawal>,
    river: RiverPenalties,
    dice: Vec<crate::rules::dice::Roll>,
    commanders: Vec<matching::CommanderHit>,
    missing: Vec<String>,
    river_forces: Vec<String>,
}

fn outcome_of(side: Side, winner: Option<Side>) -> Outcome {
    match winner {
        None => Outcome::Drawn,
        Some(w) if w == side => Outcome::Won,
        Some(_) => Outcome::Lost,
    }
}

fn parse_withdraw_to(c: &Campaign, items: &[String], losers: &[String]) -> Result<BTreeMap<String, HexId>> {
    let mut out = BTreeMap::new();
    for it in items {
        let (force, hex) = match it.split_once('=') {
            Some((f, h)) => (Some(f.trim().to_string()), h),
            None => (None, it.as_str()),
        };
        let hex: HexId =
            hex.parse().map_err(|e: String| Error::refused(format!("--withdraw-to {it}: {e}")))?;
        match force {
            Some(f) => {
                if !losers.contains(&f) {
                    return Err(Error::refused(format!(
                        "--withdraw-to {it}: {f} is not a losing force of this battle"
                    )));
                }
                out.insert(f, hex);
            }
            None => {
                for f in losers {
                    out.entry(f.clone()).or_insert(hex);
                }
            }
        }
    }
    let _ = c;
    Ok(out)
}

/// True when a major river runs along a side of the hex that faces away from the victor
/// (the river at the loser's back when it cannot withdraw, 6.5.2).
fn river_behind(c: &Campaign, hex: HexId, victor_hexes: &[HexId]) -> Option<String> {
    let g = &c.map.grid;
    let near = |h: HexId| victor_hexes.iter().map(|v| g.distance(h, *v)).min().unwrap_or(0);
    g.neighbours(hex).filter(|n| near(*n) > near(hex)).find_map(|n| c.map.river(hex, n).map(str::to_string))
}

fn compute(
    c: &Campaign,
    b: &BattleRecord,
    m: &Matched,
    startlocs: Option<&StartLocs>,
    req: &ApplyRequest,
) -> Result<Outcome2> {
    let mut dice = SeededDice::new(c.config.seed, &format!("{}/apply", b.id));
    let unit_side: BTreeMap<&str, Side> = b.units.iter().map(|u| (u.unit.as_str(), u.side)).collect();
    // Verdict.
    let verdict = match req.winner {
        Some(w) => Verdict {
            winner: w,
            scores: BTreeMap::new(),
            held: Vec::new(),
            explanation: format!(
                "decided by the umpire (--winner {})",
                w.map_or("draw".to_string(), |s| s.slug().to_string())
            ),
        },
        None => {
            let mut inflicted: BTreeMap<Side, u64> = BTreeMap::new();
            for (unit, l) in &m.losses {
                if let Some(s) = unit_side.get(unit.as_str()) {
                    *inflicted.entry(s.enemy()).or_default() += u64::from(l.killed)
                        + u64::from(l.wounded)
                        + u64::from(l.deserted)
                        + u64::from(l.captured);
                }
            }
            let held = match startlocs {
                Some(sl) => {
                    let side_of: BTreeMap<String, Side> = b
                        .chains
                        .iter()
                        .map(|e| {
                            (
                                e.id.to_uppercase(),
                                if e.chain.side() == 1 { Side::French } else { Side::Allies },
                            )
                        })
                        .collect();
                    let presence: Presence = sl
                        .units
                        .iter()
                        .filter_map(|(id, loc)| side_of.get(id).map(|s| ((loc.x, loc.z), *s, loc.head_count)))
                        .collect();
                    objectives_held(
                        &b.objectives,
                        &presence,
                        f64::from(c.rules.verdict.holding_radius_yards) * 30.0,
                    )
                }
                None => Vec::new(),
            };
            policy_verdict(&inflicted, &b.objectives, held, c.rules.verdict.win_ratio)
        }
    };
    let winner = verdict.winner;
    // Pursuit (8.7).
    let reserve = |s: Side| b.reserves.iter().filter(|r| r.side == s).map(|r| r.squadrons).sum::<u32>();
    let rules = &c.rules.carryover;
    let pursuit = match winner {
        Some(w) => resolve_pursuit(
            rules,
            &SideSituation { outcome: Outcome::Won, reserve_squadrons: reserve(w) },
            &SideSituation { outcome: Outcome::Lost, reserve_squadrons: reserve(w.enemy()) },
        ),
        None => resolve_pursuit(
            rules,
            &SideSituation { outcome: Outcome::Drawn, reserve_squadrons: reserve(Side::French) },
            &SideSituation { outcome: Outcome::Drawn, reserve_squadrons: reserve(Side::Allies) },
        ),
    };
    // Withdrawal of the loser (8.4) and the river at its back (6.5.2).
    let mut withdrawals = Vec::new();
    let mut river_forces = Vec::new();
    if let Some(w) = winner {
        let loser = w.enemy();
        let victors: Vec<String> = b
            .participants
            .iter()
            .filter(|p| p.side == w && p.role == Role::Principal)
            .map(|p| p.force.clone())
            .collect();
        let victor_hexes: Vec<HexId> =
            victors.iter().filter_map(|v| c.oob.get(v).and_then(|f| f.hex)).collect();
        let losers: Vec<String> =
            b.participants.iter().filter(|p| p.side == loser).map(|p| p.force.clone()).collect();
        let forced = parse_withdraw_to(c, &req.withdraw_to, &losers)?;
        let mut p = Problems::default();
        for f in &losers {
            let Some(force) = c.oob.get(f) else { continue };
            let plan = plan_withdrawal(c, f, &victors, Turn(c.config.turn));
            let (dest, by_umpire) = match forced.get(f) {
                Some(h) => match check_destination(&plan, *h) {
                    Ok(d) => (Some(d.clone()), true),
                    Err(why) => {
                        p.push(Problem::in_file(
                            "--withdraw-to",
                            format!("{f} cannot withdraw to {h}: {why}"),
                        ));
                        continue;
                    }
                },
                None => (plan.chosen.clone(), false),
            };
            let river = match &dest {
                Some(d) => d.crosses_rivers.first().cloned(),
                None => force.hex.and_then(|h| river_behind(c, h, &victor_hexes)),
            };
            let river = match req.river_retreat {
                Some(true) => river.or_else(|| Some("a river (--river-retreat yes)".to_string())),
                Some(false) => None,
                None => river,
            };
            if river.is_some() {
                river_forces.push(f.clone());
            }
            withdrawals.push(Withdrawal {
                to: dest.map(|d| d.hex),
                plan,
                river,
                chosen_by_umpire: by_umpire,
            });
        }
        p.into_result()?;
    }
    // Carry-over (every unit that fought).
    let mut p = Problems::default();
    let mut carryover = Vec::new();
    let mut ammo = BTreeMap::new();
    for u in &b.units {
        let Some(cu) = c.oob.get(&u.unit) else {
            p.push(Problem::in_file(
                "forces.csv",
                format!("unit {} of battle {} is no longer in forces.csv", u.unit, b.id),
            ));
            continue;
        };
        let l = m.losses.get(&u.unit).cloned().unwrap_or_default();
        let out_of_supply = c.oob.force_of(&u.unit).is_some_and(|f| f.supply == Supply::Out);
        let losses = UnitLosses {
            unit: u.unit.clone(),
            men_before: cu.men,
            killed: l.killed,
            wounded: l.wounded,
            deserted: l.deserted,
            guns_before: cu.guns,
            guns_lost: l.guns_lost.min(cu.guns),
            out_of_supply,
        };
        let river = river_forces.contains(&u.force);
        match carry_over(rules, outcome_of(u.side, winner), &pursuit, river, c.config.turn, &losses) {
            Ok(mut co) => {
                if l.captured > 0 {
                    if l.captured > co.men_after {
                        p.push(Problem::in_file(
                            "result",
                            format!("{}: losses above its {} men", u.unit, cu.men),
                        ));
                        continue;
                    }
                    co.men_after -= l.captured;
                    co.stragglers_captured += l.captured;
                }
                carryover.push(co);
            }
            Err(e) => p.push(Problem::in_file("result", e)),
        }
        // Rule 3.1: out of supply, a unit keeps the ammunition it ended the battle with.
        if out_of_supply && let Some(a) = l.ammo_pct {
            ammo.insert(u.unit.clone(), a);
        }
    }
    p.into_result()?;
    // River penalties (6.5.2) on the campaign after the battle's gun losses.
    let river = if river_forces.is_empty() {
        RiverPenalties::default()
    } else {
        let mut after = c.clone();
        for co in &carryover {
            if let Some(u) = after.oob.get_mut(&co.unit) {
                u.guns = co.guns_after;
            }
        }
        river_penalties(rules, &after, &river_forces, c.config.turn, &mut dice)
    };
    Ok(Outcome2 {
        verdict,
        pursuit_explanation: pursuit.explanation.clone(),
        carryover,
        ammo,
        withdrawals,
        river,
        dice: dice.log().to_vec(),
        commanders: m.commanders.clone(),
        missing: m.missing.clone(),
        river_forces,
    })
}

impl Outcome2 {
    /// Changes the campaign and returns the report.
    fn apply_to(
        &self,
        c: &mut Campaign,
        b: &BattleRecord,
        file: &str,
        hash: &str,
        seq: u64,
    ) -> Result<String> {
        let turn = c.config.turn;
        let year = Turn(turn).campaign_year();
        let winner = self.verdict.winner;
        let side_of: BTreeMap<&str, Side> = b.units.iter().map(|u| (u.unit.as_str(), u.side)).collect();
        let mut prisoners: BTreeMap<Side, u32> = BTreeMap::new();
        let mut guns_taken: BTreeMap<Side, u32> = BTreeMap::new();
        for co in &self.carryover {
            let side = side_of.get(co.unit.as_str()).copied().unwrap_or(Side::French);
            *prisoners.entry(side.enemy()).or_default() += co.captured();
            *guns_taken.entry(side.enemy()).or_default() += co.guns_captured_by_enemy;
            if let Some(u) = c.oob.get_mut(&co.unit) {
                u.men = co.men_after;
                u.guns = co.guns_after;
                if let Some(a) = self.ammo.get(&co.unit) {
                    u.ammo = Some((*a).min(100) as u8);
                }
            }
            for (men, kind, at) in [
                (co.stragglers_returning, ReturnKind::Stragglers, co.stragglers_return_turn),
                (co.wounded_returning, ReturnKind::Wounded, co.wounded_return_turn),
            ] {
                if men > 0 {
                    c.returns.push(Return {
                        turn: at,
                        unit: co.unit.clone(),
                        men,
                        kind,
                        battle: b.id.clone(),
                    });
                }
            }
        }
        self.river.apply(&mut c.oob);
        for w in &self.withdrawals {
            if let (Some(to), Some(f)) = (w.to, c.oob.get_mut(&w.plan.force)) {
                f.hex = Some(to);
                f.moving_to = None;
            }
        }
        // Score (4.0) and commanders' records (8.5).
        match winner {
            Some(w) => {
                score_row(c, year, w).battles_won += 1;
                score_row(c, year, w.enemy()).battles_lost += 1;
            }
            None => {
                score_row(c, year, Side::French).battles_drawn += 1;
                score_row(c, year, Side::Allies).battles_drawn += 1;
            }
        }
        for s in [Side::French, Side::Allies] {
            let r = score_row(c, year, s);
            r.prisoners_taken += prisoners.get(&s).copied().unwrap_or(0);
            r.guns_captured += guns_taken.get(&s).copied().unwrap_or(0);
        }
        let mut generals: BTreeSet<(String, Side)> = BTreeSet::new();
        for p in &b.participants {
            for u in c.oob.subtree(&p.force) {
                if let Some(cmd) = &u.commander {
                    generals.insert((cmd.clone(), p.side));
                }
            }
        }
        for (name, side) in &generals {
            if let Some(cm) = c.commanders.iter_mut().find(|x| &x.name == name) {
                cm.battles_fought += 1;
                if winner == Some(*side) {
                    cm.battles_won += 1;
                }
            }
        }
        let mut hit_names = Vec::new();
        for h in &self.commanders {
            let Some(name) = c.oob.get(&h.formation).and_then(|f| f.commander.clone()) else { continue };
            if let Some(cm) = c.commanders.iter_mut().find(|x| x.name == name) {
                cm.status = if h.killed { "killed".to_string() } else { "wounded".to_string() };
                hit_names.push((name, h.killed));
            }
        }
        Ok(report::render(
            c,
            b,
            &report::ReportInput {
                verdict: &self.verdict,
                pursuit: &self.pursuit_explanation,
                carryover: &self.carryover,
                withdrawals: &self.withdrawals,
                river: &self.river,
                river_forces: &self.river_forces,
                dice: &self.dice,
                commanders: &hit_names,
                missing: &self.missing,
                file,
                hash,
                seq,
            },
        ))
    }
}
