//! The text of `messages` (rule 6.3.1): each message's road, whether it crosses an enemy
//! supply line, and whether it arrived and when, or where the enemy caught it.

use std::fmt::Write as _;

use serde::Serialize;

use crate::model::HexId;
use crate::rules::dice::Roll;
use crate::rules::messenger::{Fate, TURN_DAYS};

/// One message and its messenger's ride.
#[derive(Debug, Clone, Serialize)]
pub struct SentMessage {
    /// The force sending it.
    pub from: String,
    /// The force it is for.
    pub to: String,
    /// The day it was sent.
    pub day: u32,
    /// What it says.
    pub text: String,
    /// The messenger's road, the sender's hex first.
    pub route: Vec<HexId>,
    /// By road all the way (else no road joins the two: a straight line).
    pub by_road: bool,
    /// It crosses an enemy supply line.
    pub crosses: bool,
    /// Where it crosses one (where it was caught, if it was).
    pub crossing_at: Option<HexId>,
    /// The enemy force whose line it crosses there.
    pub line_of: Option<String>,
    /// `delivered` or `intercepted`.
    pub fate: Fate,
    /// The day it arrives (after 14: next turn); none when intercepted.
    pub arrives: Option<u32>,
}

/// The messages sent.
#[derive(Debug, Clone, Serialize)]
pub struct Sent {
    /// The turn.
    pub turn: u32,
    /// Each message, in the file's order.
    pub messages: Vec<SentMessage>,
    /// The dice stream.
    pub stream: String,
    /// Every die rolled.
    pub dice: Vec<Roll>,
    /// Nothing was written.
    pub dry_run: bool,
    /// The journal entry (0 on a dry run).
    pub journal_seq: u64,
}

/// The report of `messages`.
pub fn render(r: &Sent) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "Turn {}: {} messages (6.3.1)", r.turn, r.messages.len());
    if r.dry_run {
        let _ = writeln!(s, "(dry run: nothing written)");
    }
    for m in &r.messages {
        let way = if m.by_road { "road" } else { "country (no road joins them)" };
        let _ = writeln!(
            s,
            "\n{} to {}, sent on day {}: {} hexes by {way}: {}",
            m.from,
            m.to,
            m.day,
            m.route.len().saturating_sub(1),
            m.route.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ")
        );
        let crossing = match (&m.crossing_at, &m.line_of) {
            (Some(h), Some(f)) => format!("crosses the supply line of {f} at {h}"),
            _ => "crosses no enemy supply line".to_string(),
        };
        let fate = match (m.fate, m.arrives) {
            (Fate::Intercepted, _) => "intercepted: it never arrives, and the enemy reads it".to_string(),
            (_, Some(d)) if d > TURN_DAYS => format!("delivered on day {d}, after this turn"),
            (_, Some(d)) => format!("delivered on day {d}"),
            (_, None) => "delivered".to_string(),
        };
        let _ = writeln!(s, "  {crossing}; {fate}");
    }
    s
}

/// The line `messages` ends with on stderr.
pub fn done_line(r: &Sent) -> String {
    let caught = r.messages.iter().filter(|m| m.fate == Fate::Intercepted).count();
    if r.dry_run {
        format!("dry run: {} messages, {caught} intercepted; nothing written", r.messages.len())
    } else {
        format!("{} messages sent, {caught} intercepted (journal entry {})", r.messages.len(), r.journal_seq)
    }
}
