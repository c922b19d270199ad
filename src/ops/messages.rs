//! The messages use case (rule 6.3.1): each message of a file sent by its messenger, by road,
//! with the dice of a stream named for the turn and the file's contents; the messages the
//! enemy caught kept in `messages.csv` for its turn report, as one `messages` journal entry
//! (`undo messages` reverts it; `audit` rolls its dice again). Also the orders clock of `move`:
//! the messengers of the orders sent during the turn (`orders_clock`).

use std::path::{Path, PathBuf};

use crate::error::{Error, Problem, Problems, Result};
use crate::formats::messages::parse_messages;
use crate::model::orders::{Intercepted, Message, Order};
use crate::model::{Campaign, HexId};
use crate::rules::dice::{Dice, Roll, SeededDice};
use crate::rules::messenger::{Clocked, Fate, clock_orders, crossing, force_hex, ride, road};
use crate::rules::supply::SupplyReport;
use crate::store::files::changed_files;
use crate::store::journal::{Entry, EntryKind, sha256_hex};
use crate::store::{CampaignDir, Commit, read_optional};

/// Messages to send: the file, and whether to write anything.
#[derive(Debug, Clone)]
pub struct MessagesRequest {
    /// The messages file.
    pub file: PathBuf,
    /// Roll the same dice, write nothing and take no lock.
    pub dry_run: bool,
}

pub use crate::formats::report::messages::{Sent, SentMessage};

/// The operation of sending this file's messages: its contents' hash.
pub fn operation(path: &Path) -> Option<String> {
    read_optional(path).ok().flatten().map(|b| format!("messages {}", sha256_hex(&b)))
}

fn stream_of(turn: u32, hash: &str) -> String {
    format!("T{turn}-messages-{}", &hash[..12.min(hash.len())])
}

/// Sends the messages of a file (or, on a dry run, says what would become of them).
pub fn send_messages(dir: &CampaignDir, req: &MessagesRequest) -> Result<Sent> {
    let name = req.file.display().to_string();
    let bytes =
        read_optional(&req.file)?.ok_or_else(|| Error::refused(format!("{name}: no such messages file")))?;
    let mut problems = Problems::default();
    let messages = parse_messages(&name, &bytes, &mut problems);
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
    for m in &messages {
        for (field, id) in [("from", &m.from), ("to", &m.to)] {
            if force_hex(&c, id).is_none() {
                problems.push(Problem::at(
                    &m.file,
                    m.line,
                    field,
                    format!("'{id}' is not a force on the map"),
                ));
            }
        }
    }
    problems.into_result()?;
    let stream = stream_of(c.config.turn, &sha256_hex(&bytes));
    if let Some(e) = journal.standing().into_iter().find(|e| e.stream.as_deref() == Some(stream.as_str())) {
        return Err(Error::refused(format!(
            "{name}: these messages were sent already this turn (journal entry {}); undo messages to send them again",
            e.seq
        )));
    }
    let report = crate::rules::supply::compute(&c, &c.supply);
    let mut dice = SeededDice::new(c.config.seed, &stream);
    let before = c.clone();
    let sent: Vec<SentMessage> = messages.iter().map(|m| send(&mut c, &report, m, &mut dice)).collect();
    let mut out = Sent {
        turn: c.config.turn,
        messages: sent,
        stream: stream.clone(),
        dice: dice.log().to_vec(),
        dry_run: req.dry_run,
        journal_seq: 0,
    };
    if let Some(mut txn) = txn {
        let new_files = changed_files(&before, &c, txn.current()?)?;
        let caught = out.messages.iter().filter(|m| m.fate == Fate::Intercepted).count();
        let short = req.file.file_name().map_or(name.clone(), |n| n.to_string_lossy().into_owned());
        let summary = format!("messages {short}: {} sent, {caught} intercepted (6.3.1)", out.messages.len());
        let entry = Entry::messages(c.config.turn, summary, out.dice.clone(), stream);
        out.journal_seq = txn.finish(
            new_files,
            Some(entry),
            Commit { operation: operation(&req.file), ..Commit::default() },
        )?;
    }
    Ok(out)
}

/// One message's ride; a message caught is kept in the campaign's `messages`.
fn send(c: &mut Campaign, report: &SupplyReport, m: &Message, dice: &mut dyn Dice) -> SentMessage {
    let at = |id: &str| force_hex(c, id).unwrap_or(HexId::new(0, 0));
    let (from, to) = (at(&m.from), at(&m.to));
    let side = c.oob.get(&m.from).map_or(crate::model::Side::French, |f| f.side());
    let route = road(c, side, from, to);
    let crosses = crossing(report, side.enemy(), &route.0);
    let trip =
        ride(&c.rules.messenger, route, crosses, m.day, dice, &format!("message {} to {}", m.from, m.to));
    if let (Fate::Intercepted, Some(x)) = (trip.fate, &trip.crosses) {
        c.messages.push(Intercepted {
            turn: c.config.turn,
            day: m.day,
            from: m.from.clone(),
            to: m.to.clone(),
            hex: x.hex,
            side: x.side,
            line_of: x.line_of.clone(),
            text: m.text.clone(),
        });
    }
    SentMessage {
        from: m.from.clone(),
        to: m.to.clone(),
        day: m.day,
        text: m.text.clone(),
        crosses: trip.crosses.is_some(),
        crossing_at: trip.crosses.as_ref().map(|x| x.hex),
        line_of: trip.crosses.as_ref().map(|x| x.line_of.clone()),
        arrives: (trip.fate == Fate::Delivered).then_some(trip.arrives),
        fate: trip.fate,
        route: trip.route,
        by_road: trip.by_road,
    }
}

/// The orders of a move after their messengers (the orders with a `day`, 6.3.1), with the dice
/// they rolled from a stream named for the turn and the orders files' contents.
#[derive(Debug)]
pub struct OrdersClock {
    /// The orders as they arrive, and every messenger.
    pub clocked: Clocked,
    /// The dice of the messengers.
    pub dice: Vec<Roll>,
    /// Their stream.
    pub stream: String,
    /// The orders the enemy caught, for `messages.csv`.
    pub intercepted: Vec<Intercepted>,
}

/// Sends the messengers of the orders with a `day`; a `from` that is neither a force nor a
/// hex is a problem at its line. Orders without a `day` pass as they are, and no die is rolled
/// when no order has one.
pub fn orders_clock(
    c: &Campaign,
    orders: Vec<Order>,
    files: &[PathBuf],
    problems: &mut Problems,
) -> OrdersClock {
    let hashes: Vec<String> =
        files.iter().filter_map(|p| read_optional(p).ok().flatten().map(|b| sha256_hex(&b))).collect();
    let stream =
        stream_of(c.config.turn, &sha256_hex(hashes.join(" ").as_bytes())).replace("messages", "orders");
    if orders.iter().all(|o| o.day.is_none()) {
        let clocked =
            Clocked { orders, start: Default::default(), dispatches: Vec::new(), bad_from: Vec::new() };
        return OrdersClock { clocked, dice: Vec::new(), stream, intercepted: Vec::new() };
    }
    let report = crate::rules::supply::compute(c, &c.supply);
    let mut dice = SeededDice::new(c.config.seed, &stream);
    let clocked = clock_orders(c, &report, orders, &mut dice);
    for (file, line, why) in &clocked.bad_from {
        problems.push(Problem::at(file, *line, "from", why.clone()));
    }
    let mut intercepted = Vec::new();
    for d in clocked.dispatches.iter().filter(|d| d.trip.fate == Fate::Intercepted) {
        let Some(x) = &d.trip.crosses else { continue };
        intercepted.push(Intercepted {
            turn: c.config.turn,
            day: d.trip.day,
            from: d.from.clone(),
            to: d.force.clone(),
            hex: x.hex,
            side: x.side,
            line_of: x.line_of.clone(),
            text: d.text.clone(),
        });
    }
    OrdersClock { clocked, dice: dice.log().to_vec(), stream, intercepted }
}

/// What `audit` finds wrong with an entry that rolled a stream's dice: a die that the stream,
/// rolled again from the campaign's seed, does not give; and a messages entry that changed a
/// file other than `messages.csv`.
pub fn audit_entry(e: &Entry, seed: Option<u64>) -> Vec<String> {
    let mut out = Vec::new();
    if e.kind == EntryKind::Messages {
        for ch in e.changes.iter().filter(|ch| ch.file() != crate::formats::messages::MESSAGES) {
            out.push(format!("a messages entry changed {}, which is not messages.csv", ch.file()));
        }
    }
    if let (Some(stream), Some(seed)) = (&e.stream, seed) {
        let mut again = SeededDice::new(seed, stream);
        for (i, r) in e.dice.iter().enumerate() {
            let v = again.roll(r.sides, &r.purpose);
            if v != r.value {
                out.push(format!(
                    "die {} ({}) of stream {stream} reads {} but the stream rolls {v}",
                    i + 1,
                    r.purpose,
                    r.value
                ));
                break;
            }
        }
    }
    out
}
