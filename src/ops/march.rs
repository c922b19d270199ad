//! The move use case: the turn's marching. Every order of every file is judged first (as
//! `check` judges the campaign); one bad order refuses the lot and nothing moves. Then all
//! forces march at once (`rules::march`), and the new hexes and `moving_to` of `forces.csv`,
//! with the retreats before battle that were caught (`avoidance.csv`, 8.2), are committed as
//! one `move` journal entry, which `undo move` reverts. The marches ordered beyond this turn
//! are kept as standing orders (`standing-orders.csv`) and continued by each later `move`; the
//! parts of forces ordered are detached first, and the forces ordered to attach join after.

use std::collections::{BTreeMap, BTreeSet};
use std::path::PathBuf;

use crate::error::{Error, Problem, Problems, Result};
use crate::formats::orders::{Avoidance, parse_orders};
use crate::formats::report::march::summary;
use crate::formats::standing::STANDING;
use crate::model::Campaign;
use crate::rules::march::detach::{attach, attach_refusals, detach};
use crate::rules::march::{
    Marched, Order, TURN_UNITS, after_move, continuing, march, plan_each, plan_orders, supply_refusals,
    warnings,
};
use crate::rules::zoc::{Contact, contacts};
use crate::store::files::changed_files;
use crate::store::journal::{Entry, Journal};
use crate::store::{CampaignDir, Commit, read_optional};

pub use crate::formats::report::march::MoveReport;

/// A move asked for: the orders files, in order.
#[derive(Debug, Clone)]
pub struct MoveRequest {
    /// The orders files.
    pub orders: Vec<PathBuf>,
    /// Only say what would happen; write nothing and take no lock.
    pub dry_run: bool,
    /// Draw the marches on the map into this file (FILE.svg or FILE.html), the user's, not
    /// the campaign's (`ops::map::write_move_map`).
    pub map: Option<PathBuf>,
}

/// The forces marched, with the campaign value they leave.
#[derive(Debug)]
pub struct Moved {
    /// What the move did.
    pub report: MoveReport,
    /// The campaign with the forces where they stopped.
    pub campaign: Campaign,
}

/// The operation of a move on these orders files (see [`crate::commands::operation`]): the
/// hashes of their contents, in order. `None` when one cannot be read.
pub fn operation(paths: &[PathBuf]) -> Option<String> {
    let hashes: Option<Vec<String>> = paths
        .iter()
        .map(|p| read_optional(p).ok().flatten().map(|b| crate::store::journal::sha256_hex(&b)))
        .collect();
    Some(format!("move {}", hashes?.join(" ")))
}

/// Marches the forces the orders files order, and continues the standing orders of the forces
/// they do not (or, on a dry run, says how they would march). Every file and every order is
/// judged before anything is refused: the problems of the files' own shape and those of the
/// rules are shown together; a standing order that cannot go on is reported, not refused.
/// Takes the campaign lock unless it is a dry run.
pub fn march_forces(dir: &CampaignDir, req: &MoveRequest) -> Result<Moved> {
    if let Some(out) = &req.map {
        super::map::check_picture_name(out)?;
    }
    let mut problems = Problems::default();
    let orders = read_orders(&req.orders, &mut problems)?;
    let lock = dir.lock_unless_dry_run(req.dry_run)?;
    let txn = match &lock {
        Some(l) => Some(dir.begin(l)?),
        None => None,
    };
    let mut c = dir.load()?;
    let journal = match &txn {
        Some(t) => t.journal.clone(),
        None => dir.read_journal()?,
    };
    let used = used_this_turn(&journal, c.config.turn);
    // Orders sent during the turn go by messenger (6.3.1): caught, late, or replaced.
    let mut clock = crate::ops::messages::orders_clock(&c, orders, &req.orders, &mut problems);
    let orders = clock.clocked.orders.clone();
    let in_battle = forces_in_battle(dir)?;
    refuse_forces_in_battle(&c, &in_battle, &orders, &mut problems);
    let before = c.clone();
    // The parts of forces ordered are forces of their own before anything marches.
    let (detached, refusals) = detach(&mut c, &orders);
    let refusals = refusals.into_iter().chain(attach_refusals(&c, &orders));
    let mut pending = Pending::default();
    let (mut standing_orders, notes) = continuing(&c, &orders, &used, STANDING);
    pending.notes = notes;
    hold_in_battle(&mut standing_orders, &in_battle, &mut pending.notes);
    let plans: Vec<_> = plan_all(&c, &orders, &standing_orders, &used, &mut problems, &mut pending, refusals)
        .into_iter()
        .map(|p| clock.clocked.start_late(p))
        .collect();
    problems.0.sort_by(|x, y| (&x.file, x.line).cmp(&(&y.file, y.line)));
    problems.into_result()?;
    let marched = march(&c, &plans);
    let report = pending.report;
    if let Some(report) = &report {
        // The supply follows the force (3.2): each trail extended or shortened by its march.
        let steps: Vec<(String, Vec<crate::model::HexId>)> =
            marched.iter().map(|m| (m.force.clone(), m.marched.clone())).collect();
        c.trails = crate::rules::supply::trail::after_march(&c, report, &steps);
        // The secondary roads the French pass through become known to them (13 July 2014).
        let seen = crate::rules::roads::newly_seen(&c, &steps);
        c.roads_seen.extend(seen);
    }
    let new_contacts = march_into_place(&mut c, &marched, pending.contacts);
    decide_on_contact(&mut c, &[&orders[..], &standing_orders[..]].concat(), &new_contacts);
    let attached = attach(&mut c, &orders);
    let (standing, notes) = after_move(&c.standing, &orders, &marched, c.config.turn);
    c.standing = standing;
    pending.notes.extend(notes);
    let caught: Vec<Avoidance> = marched
        .iter()
        .filter(|m| m.retreat && !m.caught_by.is_empty())
        .map(|m| Avoidance {
            turn: c.config.turn,
            force: m.force.clone(),
            caught_by: m.caught_by.join(" "),
            hex: m.end(),
        })
        .collect();
    let mut r = MoveReport {
        turn: c.config.turn,
        forces: marched,
        new_contacts,
        caught,
        messengers: clock.clocked.dispatches.clone(),
        dry_run: req.dry_run,
        journal_seq: 0,
        detached,
        attached,
        standing: c.standing.clone(),
        standing_notes: pending.notes,
        warnings: Vec::new(),
    };
    if txn.is_some() {
        c.avoidance.extend(r.caught.iter().cloned());
        c.messages.extend(clock.intercepted.iter().cloned());
    }
    // The warnings' computation of supply after the march runs while the move is committed.
    let (warned, seq) = std::thread::scope(|s| {
        let w = s.spawn(|| match &report {
            Some(rep) => warnings(rep, &crate::rules::supply::compute(&c, &c.supply), &r.forces),
            None => Vec::new(),
        });
        let seq = match txn {
            // A move that marches, detaches, attaches, sends and keeps nothing new writes no
            // entry (`undo move` then takes back the last march that did).
            Some(_) if idle(&r, &before, &c, &clock) => Ok(0),
            Some(txn) => commit(txn, &before, &c, &r, req, &clock),
            None => Ok(0),
        };
        (w.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)), seq)
    });
    r.warnings = warned;
    r.journal_seq = seq?;
    if let Some(out) = &req.map {
        super::map::write_move_map(&c, &r, out)?;
    }
    Ok(Moved { report: r, campaign: c })
}

/// Commits the move: the state files it changed and its journal entry; the entry's number.
fn commit(
    mut txn: crate::store::state::StateTxn<'_>,
    before: &Campaign,
    c: &Campaign,
    r: &MoveReport,
    req: &MoveRequest,
    clock: &crate::ops::messages::OrdersClock,
) -> Result<u64> {
    let new_files = changed_files(before, c, txn.current()?)?;
    let entry = Entry::moved(
        c.config.turn,
        summary(r, &req.orders),
        r.forces.iter().map(|m| (m.force.clone(), m.used)).collect(),
    )
    .with_dice(clock.dice.clone(), clock.stream.clone())
    .with_routes(super::map::march_routes(r));
    txn.finish(new_files, Some(entry), Commit { operation: operation(&req.orders), ..Commit::default() })
}

/// True when a move changes nothing: no force marched, was detached or attached, no messenger
/// rode and the standing orders are as they were.
fn idle(r: &MoveReport, before: &Campaign, c: &Campaign, clock: &crate::ops::messages::OrdersClock) -> bool {
    r.forces.is_empty()
        && r.detached.is_empty()
        && r.attached.is_empty()
        && clock.dice.is_empty()
        && before.standing == c.standing
        && before.decisions == c.decisions
}

/// What planning leaves for the march: the supply report before it (when anything marches)
/// and the notes on standing orders.
#[derive(Default)]
struct Pending {
    report: Option<crate::rules::supply::SupplyReport>,
    /// The contacts before the march (when anything marches).
    contacts: Option<Vec<Contact>>,
    notes: Vec<String>,
}

/// Plans the orders of the files (every refusal a problem) and the standing orders continued
/// (a refusal a note: the order stays), then refuses what 3.3 and 3.4 forbid, likewise.
fn plan_all(
    c: &Campaign,
    orders: &[Order],
    standing: &[Order],
    used: &BTreeMap<String, u64>,
    problems: &mut Problems,
    pending: &mut Pending,
    refusals: impl Iterator<Item = crate::rules::march::Refusal>,
) -> Vec<crate::rules::march::Plan> {
    for r in refusals {
        problems.push(Problem::at(&r.file, r.line, r.field, r.to_string()));
    }
    // The supply and the contacts before the march, which the planning does not ask, are
    // worked out beside it whenever there is an order to plan.
    let (mut plans, before) = std::thread::scope(|s| {
        let before = (!orders.is_empty() || !standing.is_empty())
            .then(|| s.spawn(|| (crate::rules::supply::compute(c, &c.supply), contacts(c))));
        let legal = crate::rules::march::Steps::of(c);
        let mut plans = match plan_orders(c, &legal, orders, c.turn(), used) {
            Ok(plans) => plans,
            Err(refusals) => {
                for r in refusals {
                    problems.push(Problem::at(&r.file, r.line, r.field, r.to_string()));
                }
                Vec::new()
            }
        };
        let standing_orders: Vec<&Order> = standing.iter().collect();
        for planned in plan_each(c, &legal, &standing_orders, c.turn(), used) {
            match planned {
                Ok(p) => plans.push(p),
                Err(r) => pending.notes.push(not_continued(&r)),
            }
        }
        let before = before.map(|b| b.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        (plans, before)
    });
    // 3.3, 3.4: a force out of supply does not advance towards a known enemy.
    if let Some((report, contacts)) = before.filter(|_| !plans.is_empty()) {
        pending.report = Some(report);
        pending.contacts = Some(contacts);
    }
    if let (Some(report), Some(contacts)) = (&pending.report, &pending.contacts) {
        let standing: BTreeSet<&str> = standing.iter().map(|o| o.force.as_str()).collect();
        let mut stopped: BTreeSet<String> = BTreeSet::new();
        for r in supply_refusals(c, report, contacts, &plans) {
            if standing.contains(r.force.as_str()) {
                pending.notes.push(not_continued(&r));
                stopped.insert(r.force);
            } else {
                problems.push(Problem::at(&r.file, r.line, r.field, r.to_string()));
            }
        }
        plans.retain(|p| !p.standing || !stopped.contains(&p.force));
    }
    plans
}

/// The note of a standing order that cannot go on this move: it stays, for the umpire to
/// cancel or replace.
fn not_continued(r: &crate::rules::march::Refusal) -> String {
    format!("{}: standing order not continued this move (it stands): {}", r.force, r)
}

/// The forces in a battle exported and waiting for its result, each with its battle.
fn forces_in_battle(dir: &CampaignDir) -> Result<BTreeMap<String, String>> {
    let mut in_battle: BTreeMap<String, String> = BTreeMap::new();
    for b in dir.battles()?.into_iter().filter(|b| b.state.is_pending()) {
        for p in &b.participants {
            in_battle.entry(p.force.clone()).or_insert_with(|| b.id.clone());
        }
    }
    Ok(in_battle)
}

/// A force in a battle exported and waiting for its result stays where the battle is: its
/// orders are refused, and so is an order to join it (`attach`).
fn refuse_forces_in_battle(
    c: &Campaign,
    in_battle: &BTreeMap<String, String>,
    orders: &[Order],
    problems: &mut Problems,
) {
    // A part of a force is in its force's battle.
    let battle_of = |id: &str| {
        let top = c.oob.force_of(id).map_or(id, |t| t.id.as_str());
        in_battle.get(top)
    };
    for o in orders {
        if let Some(battle) = battle_of(&o.force) {
            problems.push(Problem::at(
                &o.file,
                o.line,
                "force",
                format!(
                    "{}: in battle {battle}, exported and waiting for its result: apply the result before it marches",
                    o.force
                ),
            ));
        }
        if let Some(battle) = o.attach.as_deref().and_then(battle_of) {
            problems.push(Problem::at(
                &o.file,
                o.line,
                "attach",
                format!(
                    "{}: in battle {battle}, exported and waiting for its result: no force joins it before the result is applied",
                    o.attach.as_deref().unwrap_or_default()
                ),
            ));
        }
    }
}

/// A standing order of a force in a battle exported and waiting for its result is not
/// continued (it stands, with a note): the force stays where the battle is.
fn hold_in_battle(standing: &mut Vec<Order>, in_battle: &BTreeMap<String, String>, notes: &mut Vec<String>) {
    standing.retain(|o| match in_battle.get(&o.force) {
        Some(b) => {
            notes.push(format!(
                "{}: standing order not continued this move (it stands): in battle {b}, exported and waiting for its result",
                o.force
            ));
            false
        }
        None => true,
    });
}

/// The orders' standing instructions for contact (`on_contact`, 8.1, 8.2) on the contacts the
/// march made: each side's decision recorded in `decisions.csv` where it has none this turn
/// (a side with both, `avoid` wins: one force's refusal is its side's).
fn decide_on_contact(c: &mut Campaign, orders: &[Order], new_contacts: &[Contact]) {
    for k in new_contacts {
        for side in [crate::model::Side::French, crate::model::Side::Allies] {
            let said = orders
                .iter()
                .filter(|o| k.side(side).contains(&o.force))
                .filter_map(|o| o.on_contact.map(|x| x.decision()))
                .max();
            let Some(d) = said else { continue };
            if crate::rules::decision::decision_of(c, k, side).is_some() {
                continue;
            }
            let turn = c.config.turn;
            match c
                .decisions
                .iter_mut()
                .find(|r| r.turn == turn && k.hexes.contains(&r.hex) && r.side == side)
            {
                Some(r) => r.decision = Some(d),
                None => c.decisions.push(crate::model::decisions::ContactDecision {
                    turn,
                    hex: k.hexes[0],
                    side,
                    die: 0,
                    men_roll: 0,
                    guns_roll: 0,
                    decision: Some(d),
                }),
            }
        }
    }
}

/// Puts each force marched where it stopped, and returns the contacts after the march that
/// the march made (a pair of forces not in contact before); `before`, the contacts before it
/// when they are known already.
fn march_into_place(c: &mut Campaign, marched: &[Marched], before: Option<Vec<Contact>>) -> Vec<Contact> {
    let before: BTreeSet<(String, String)> = before
        .unwrap_or_else(|| contacts(c))
        .iter()
        .flat_map(|k| k.pairs.iter().map(|p| (p.french.clone(), p.allies.clone())))
        .collect();
    for m in marched {
        if let Some(f) = c.oob.get_mut(&m.force) {
            f.hex = Some(m.end());
            f.moving_to = m.moving_to;
        }
    }
    contacts(c)
        .into_iter()
        .filter(|k| k.pairs.iter().any(|p| !before.contains(&(p.french.clone(), p.allies.clone()))))
        .collect()
}

/// Reads and parses every orders file; every problem of every file at once.
fn read_orders(paths: &[PathBuf], problems: &mut Problems) -> Result<Vec<Order>> {
    let mut orders = Vec::new();
    for path in paths {
        let name = path.display().to_string();
        let bytes =
            read_optional(path)?.ok_or_else(|| Error::refused(format!("{name}: no such orders file")))?;
        orders.extend(parse_orders(&name, &bytes, problems));
    }
    Ok(orders)
}

/// Units of the turn's allowance each force has used in the moves of this turn that stand
/// (not undone): the last move entry's figure for the force, which counts the earlier ones.
pub fn used_this_turn(journal: &Journal, turn: u32) -> BTreeMap<String, u64> {
    journal.marched_this_turn(turn).into_iter().map(|(f, u)| (f, u.min(TURN_UNITS))).collect()
}
