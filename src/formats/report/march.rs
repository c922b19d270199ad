//! The text of `move`: every force ordered, the route it was given and where it stopped, and
//! the contacts the march made.

use std::fmt::Write as _;

use serde::Serialize;

use crate::formats::orders::Avoidance;
use crate::model::standing::StandingOrder;
use crate::model::{Campaign, HexId};
use crate::rules::march::detach::{Attached, Detached};
use crate::rules::march::{Halt, Marched, TURN_UNITS};
use crate::rules::zoc::Contact;

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
    /// The orders sent by messenger during the turn (6.3.1): each ride, and whether the order
    /// arrived, was caught or was replaced by a later one.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub messengers: Vec<crate::rules::messenger::Dispatch>,
    /// Nothing was written.
    pub dry_run: bool,
    /// Journal entry (0 on a dry run).
    pub journal_seq: u64,
    /// The parts of forces detached as forces of their own.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub detached: Vec<Detached>,
    /// The forces ordered to attach, and whether they did.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub attached: Vec<Attached>,
    /// The standing orders after the move.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub standing: Vec<StandingOrder>,
    /// What became of standing orders: continued to the end, replaced, cancelled, or not
    /// continued and why.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub standing_notes: Vec<String>,
    /// What the march does to its side's garrisons, supply and communications (2.1, 3.3, 3.5).
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

/// The journal entry's one line, naming the orders files.
pub fn summary(r: &MoveReport, files: &[std::path::PathBuf]) -> String {
    let halted = r.forces.iter().filter(|m| m.halt.is_some()).count();
    let names: Vec<String> = files
        .iter()
        .map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default())
        .collect();
    let names = if names.is_empty() { "standing orders".to_string() } else { names.join(", ") };
    format!(
        "move ({names}): {} forces marched, {} halted, {} new contacts",
        r.forces.len(),
        halted,
        r.new_contacts.len()
    )
}

/// The line said on stderr once the move is done (or not, on a dry run).
pub fn done_line(r: &MoveReport) -> String {
    if r.dry_run {
        "dry run: nothing written".to_string()
    } else if r.journal_seq == 0 {
        "nothing to march: no journal entry written".to_string()
    } else {
        format!("{} forces marched (journal entry {}); `undo move` reverts it", r.forces.len(), r.journal_seq)
    }
}

fn hexes(v: &[HexId]) -> String {
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
    messenger_lines(&mut s, &r.messengers);
    for d in &r.detached {
        let _ = writeln!(s, "{} detached from {} at {}: a force of its own", d.force, d.from, d.hex);
    }
    for m in &r.forces {
        let late = r.messengers.iter().any(|d| d.force == m.force && d.halts_at == Some(m.end()));
        force_lines(&mut s, c, m, late);
    }
    for a in &r.attached {
        match &a.why {
            None => {
                let _ = writeln!(s, "\n{} attached to {}", a.force, a.to);
            }
            Some(why) => {
                let _ = writeln!(s, "\n{} not attached to {}: {why}", a.force, a.to);
            }
        }
    }
    standing_lines(&mut s, r);
    if !r.warnings.is_empty() {
        let _ = writeln!(s, "\nWarnings:");
        for w in &r.warnings {
            let _ = writeln!(s, "- {w}");
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

/// The orders sent by messenger (6.3.1): when each arrives, or why it does not.
fn messenger_lines(s: &mut String, ds: &[crate::rules::messenger::Dispatch]) {
    use crate::rules::messenger::{Fate, TURN_DAYS};
    for d in ds {
        let t = &d.trip;
        let fate = match (t.fate, &t.crosses) {
            (Fate::Intercepted, Some(x)) => {
                format!(
                    "intercepted at {} on the {} supply line of {}: the force does not march",
                    x.hex, x.side, x.line_of
                )
            }
            _ if t.arrives > TURN_DAYS => {
                format!("arrives on day {}, after the turn: the force does not march", t.arrives)
            }
            _ if d.superseded => format!("arrives on day {}, replaced by a later order", t.arrives),
            _ => format!(
                "arrives on day {}: the force marches on {}/{TURN_DAYS} of its turn{}",
                t.arrives,
                TURN_DAYS + 1 - t.arrives,
                d.halts_at.map(|h| format!(", which runs out at {h}")).unwrap_or_default()
            ),
        };
        let _ = writeln!(
            s,
            "Order to {} ({}:{}) sent on day {} from {}, {} hexes by {}: {fate} (6.3.1)",
            d.force,
            d.file,
            d.line,
            t.day,
            d.from,
            t.route.len().saturating_sub(1),
            if t.by_road { "road" } else { "country (no road)" }
        );
        let _ = writeln!(s, "  its road: {}", hexes(&t.route));
        if let (Fate::Delivered, Some(x)) = (t.fate, &t.crosses) {
            let _ = writeln!(
                s,
                "  crosses the {} supply line of {} at {}: not caught (6.3.1)",
                x.side, x.line_of, x.hex
            );
        }
    }
}

/// The standing orders after the move, and what became of them.
fn standing_lines(s: &mut String, r: &MoveReport) {
    if !r.standing_notes.is_empty() {
        let _ = writeln!(s, "\nStanding orders:");
        for n in &r.standing_notes {
            let _ = writeln!(s, "- {n}");
        }
    }
}

/// One force's march.
fn force_lines(s: &mut String, c: &Campaign, m: &Marched, late: bool) {
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
    let _ = writeln!(s, "  marched: {} ({n} {})", hexes(&m.marched), if n == 1 { "hex" } else { "hexes" });
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
        None if late => {
            let _ = writeln!(
                s,
                "  halted at {}: its order came late, and its share of the turn ran out (6.3.1)",
                m.end()
            );
        }
        None if !m.standing.is_empty() => {
            let _ = writeln!(s, "  marched as far as the turn allows, to {}", m.end());
        }
        None => {
            let _ = writeln!(s, "  arrived at {}", m.end());
        }
    }
    if let Some(to) = m.standing.last() {
        let _ =
            writeln!(s, "  standing order: {} hexes on to {to} ({})", m.standing.len(), hexes(&m.standing));
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
