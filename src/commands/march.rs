//! `move ORDERS.csv [ORDERS2.csv …]`: the turn's marching. Every order of every file is
//! judged first (as `check` judges the campaign); one bad order refuses the lot and nothing
//! moves. Then all forces march at once (`rules::march`), and the new hexes and `moving_to`
//! of `forces.csv`, with the retreats before battle that were caught (`avoidance.csv`, 8.2),
//! are committed as one `move` journal entry, which `undo move` reverts.

use std::collections::{BTreeMap, BTreeSet};
use std::fmt::Write as _;
use std::path::PathBuf;
use std::time::Duration;

use anyhow::Result;
use serde::Serialize;

use crate::error::{Error, Problem, Problems};
use crate::formats::campaign::write_forces;
use crate::formats::orders::{AVOIDANCE, Avoidance, parse_orders, write_avoidance};
use crate::model::Campaign;
use crate::rules::march::{Halt, Marched, Order, TURN_UNITS, march, plan_orders};
use crate::rules::zoc::{Contact, contacts};
use crate::store::journal::{Entry, EntryKind, Journal, StateFiles};
use crate::store::{CampaignDir, CampaignLock, Commit};

/// What `move` did (or, on a dry run, would do).
#[derive(Debug, Serialize)]
pub struct MoveReport {
    /// Turn.
    pub turn: u32,
    /// Every force ordered, in the orders' order.
    pub forces: Vec<Marched>,
    /// Contacts after the march that the march made (a pair of forces not in contact before).
    pub new_contacts: Vec<Contact>,
    /// Retreats before battle caught by the enemy (8.2), recorded for `export`.
    pub caught: Vec<Avoidance>,
    /// Nothing was written.
    pub dry_run: bool,
    /// Journal entry (0 on a dry run).
    pub journal_seq: u64,
}

/// Runs `move`.
pub fn run(dir: &CampaignDir, a: &crate::cli::MoveArgs) -> Result<()> {
    // Every file and every order is judged before anything is refused: the problems of the
    // files' own shape and those of the rules are shown together.
    let mut problems = Problems::default();
    let orders = read_orders(&a.orders, &mut problems)?;
    let lock = if a.dry_run { None } else { Some(CampaignLock::acquire(dir, Duration::from_secs(60))?) };
    let mut txn = match &lock {
        Some(l) => Some(dir.begin(l)?),
        None => None,
    };
    let mut c = dir.load()?;
    let journal = match &txn {
        Some(t) => t.journal.clone(),
        None => dir.read_journal()?,
    };
    let used = used_this_turn(&journal, c.config.turn);
    // A force in a battle exported and waiting for its result stays where the battle is.
    let mut in_battle: BTreeMap<String, String> = BTreeMap::new();
    for b in dir.battles()?.into_iter().filter(|b| b.state.is_pending()) {
        for p in &b.participants {
            in_battle.entry(p.force.clone()).or_insert_with(|| b.id.clone());
        }
    }
    for o in orders.iter().filter(|o| in_battle.contains_key(&o.force)) {
        problems.push(Problem::at(
            &o.file,
            o.line,
            "force",
            format!(
                "{}: in battle {}, exported and waiting for its result: apply the result before it marches",
                o.force, in_battle[&o.force]
            ),
        ));
    }
    let plans = match plan_orders(&c, &orders, c.turn(), &used) {
        Ok(plans) => plans,
        Err(refusals) => {
            for r in refusals {
                problems.push(Problem::at(&r.file, r.line, r.field, r.to_string()));
            }
            Vec::new()
        }
    };
    problems.0.sort_by(|x, y| (&x.file, x.line).cmp(&(&y.file, y.line)));
    problems.into_result()?;
    let marched = march(&c, &plans);
    let before: BTreeSet<(String, String)> = contacts(&c)
        .iter()
        .flat_map(|k| k.pairs.iter().map(|p| (p.french.clone(), p.allies.clone())))
        .collect();
    for m in &marched {
        if let Some(f) = c.oob.get_mut(&m.force) {
            f.hex = Some(m.end());
            f.moving_to = m.moving_to;
        }
    }
    let new_contacts: Vec<Contact> = contacts(&c)
        .into_iter()
        .filter(|k| k.pairs.iter().any(|p| !before.contains(&(p.french.clone(), p.allies.clone()))))
        .collect();
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
        dry_run: a.dry_run,
        journal_seq: 0,
    };
    if let Some(txn) = txn.take() {
        let mut new_files: StateFiles = BTreeMap::new();
        new_files.insert("forces.csv".to_string(), Some(write_forces(&c.oob, c.dialect("forces.csv"))));
        if !r.caught.is_empty() {
            c.avoidance.extend(r.caught.iter().cloned());
            new_files
                .insert(AVOIDANCE.to_string(), Some(write_avoidance(&c.avoidance, c.dialect(AVOIDANCE))));
        }
        let entry = Entry::moved(
            c.config.turn,
            summary(&r, &a.orders),
            r.forces.iter().map(|m| (m.force.clone(), m.used)).collect(),
        );
        r.journal_seq = txn.finish(
            new_files,
            Some(entry),
            Commit { operation: operation(&a.orders), ..Commit::default() },
        )?;
    }
    if a.json {
        super::print_json(&r)?;
    } else {
        crate::out!("{}", render(&c, &r));
    }
    if a.dry_run {
        crate::errln!("dry run: nothing written");
    } else {
        crate::errln!(
            "{} forces marched (journal entry {}); `undo move` reverts it",
            r.forces.len(),
            r.journal_seq
        );
    }
    super::done_with(c);
    Ok(())
}

/// The operation of a move on these orders files (see [`super::operation`]): the hashes of their
/// contents, in order. `None` when one cannot be read.
pub fn operation(paths: &[PathBuf]) -> Option<String> {
    let hashes: Option<Vec<String>> =
        paths.iter().map(|p| std::fs::read(p).ok().map(|b| crate::store::journal::sha256_hex(&b))).collect();
    Some(format!("move {}", hashes?.join(" ")))
}

/// Reads and parses every orders file; every problem of every file at once.
fn read_orders(paths: &[PathBuf], problems: &mut Problems) -> crate::error::Result<Vec<Order>> {
    let mut orders = Vec::new();
    for path in paths {
        let name = path.display().to_string();
        let bytes = std::fs::read(path).map_err(|e| {
            if e.kind() == std::io::ErrorKind::NotFound {
                Error::refused(format!("{name}: no such orders file"))
            } else {
                Error::io(path, e)
            }
        })?;
        orders.extend(parse_orders(&name, &bytes, problems));
    }
    Ok(orders)
}

/// Units of the turn's allowance each force has used in the moves of this turn that stand
/// (not undone): the last move entry's figure for the force, which counts the earlier ones.
pub fn used_this_turn(journal: &Journal, turn: u32) -> BTreeMap<String, u64> {
    let undone: BTreeSet<u64> = journal.entries.iter().filter_map(|e| e.undoes).collect();
    let mut used = BTreeMap::new();
    for e in &journal.entries {
        if e.kind == EntryKind::Move && e.turn == turn && !undone.contains(&e.seq) {
            for (f, u) in &e.marched {
                used.insert(f.clone(), (*u).min(TURN_UNITS));
            }
        }
    }
    used
}

fn summary(r: &MoveReport, files: &[PathBuf]) -> String {
    let halted = r.forces.iter().filter(|m| m.halt.is_some()).count();
    let names: Vec<String> = files
        .iter()
        .map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default())
        .collect();
    format!(
        "move ({}): {} forces marched, {} halted, {} new contacts",
        names.join(", "),
        r.forces.len(),
        halted,
        r.new_contacts.len()
    )
}

fn hexes(v: &[crate::model::HexId]) -> String {
    v.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
}

/// Why a force halted, for people.
pub fn halt_text(h: &Halt) -> String {
    match h {
        Halt::Contact { enemy, enemy_hex, rule, entered: true } => {
            format!("entered the zone of control of {enemy} at {enemy_hex} ({rule})")
        }
        Halt::Contact { enemy, enemy_hex, rule, entered: false } => {
            format!("{enemy} came into contact from {enemy_hex} ({rule})")
        }
        Halt::Bridge { across, battalions, squadrons } => format!(
            "the Puente de Alcántara is closed: enemy forces of brigade strength hold {across} \
             ({battalions} battalions, {squadrons} squadrons; rule 2.5.3)"
        ),
    }
}

/// The report for people.
pub fn render(c: &Campaign, r: &MoveReport) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "Turn {} ({}): {} forces ordered", r.turn, c.turn().date(), r.forces.len());
    if r.dry_run {
        let _ = writeln!(s, "(dry run: nothing written)");
    }
    for m in &r.forces {
        let name = c.oob.get(&m.force).map_or("", |f| f.name.as_str());
        let _ = writeln!(
            s,
            "\n{} {} ({}:{}){}",
            m.force,
            name,
            m.file,
            m.line,
            if m.retreat { ", retreat before battle (8.2)" } else { "" }
        );
        let _ = writeln!(s, "  route:   {}", hexes(&m.route));
        let n = m.hexes();
        let _ =
            writeln!(s, "  marched: {} ({n} {})", hexes(&m.marched), if n == 1 { "hex" } else { "hexes" });
        let whole = f64::from(m.road_rate);
        let _ = writeln!(
            s,
            "  allowance used: {}% of the turn ({:.1} of {} road hexes){}",
            m.percent_used(),
            m.used as f64 * whole / TURN_UNITS as f64,
            m.road_rate,
            if m.used_before > 0 {
                format!(", {}% of it before this move", m.used_before * 100 / TURN_UNITS)
            } else {
                String::new()
            }
        );
        match &m.halt {
            Some(h) => {
                let _ = writeln!(s, "  halted at {}: {}", m.end(), halt_text(h));
            }
            None => {
                let _ = writeln!(s, "  arrived at {}", m.end());
            }
        }
        if let Some(to) = m.moving_to {
            let _ = writeln!(s, "  moving_to {to}: its side moved into contact");
        }
        if m.retreat {
            if m.caught_by.is_empty() {
                let _ = writeln!(s, "  escaped: out of every enemy zone of control");
            } else {
                let _ = writeln!(
                    s,
                    "  caught by {}: the battle is set up with it avoiding (export applies --avoiding)",
                    m.caught_by.join(", ")
                );
            }
        }
    }
    if r.new_contacts.is_empty() {
        let _ = writeln!(s, "\nNo new contacts.");
    } else {
        let _ = writeln!(s, "\nNew contacts:");
        for k in &r.new_contacts {
            s.push_str(&super::contacts::describe(c, k));
        }
    }
    s
}
