//! The supply text: every force's supply line, every settlement's computed control and
//! production, and every French force's line of communications (rules 2.1, 2.3, 3.1–3.5),
//! with the working, as `supply` prints it; the supply phase's section of the turn's report;
//! and the side's own supply in its briefing and turn report. Built from `rules::supply`'s
//! report, never from rendered text.

use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::model::{Campaign, Side, Supply};
use crate::rules::supply::{ForceSupply, SupplyPhase, SupplyReport};

fn force_json(f: &ForceSupply) -> Value {
    json!({
        "force": f.force,
        "side": f.side,
        "hex": f.hex,
        "state": f.state,
        "source": f.source,
        "path": f.path,
        "reason": f.reason,
        "capacity": f.capacity,
        "turns_out": f.turns_out,
        "break": f.break_hex,
        "orders": f.orders,
    })
}

/// The report as `supply --json` prints it.
pub fn report_json(r: &SupplyReport) -> Value {
    json!({
        "turn": r.turn,
        "forces": r.forces.iter().map(force_json).collect::<Vec<_>>(),
        "settlements": r.settlements.iter().map(|s| json!({
            "name": s.name,
            "hex": s.hex,
            "control": s.control.to_string(),
            "production": s.production,
            "typed": s.typed.to_string(),
            "overruled": s.overruled,
            "why": s.why,
        })).collect::<Vec<_>>(),
        "communications": r.communications.iter().map(|k| json!({
            "force": k.force,
            "state": k.state,
            "to": k.to,
            "path": k.path,
            "break": k.break_hex,
            "reason": k.reason,
        })).collect::<Vec<_>>(),
        "depots": r.depots,
    })
}

/// One force's line in words: "in, from Madrid, 16 hexes; 15860 of 25000 men, 44 of 75 guns
/// (adequate line)" or "OUT: cut at …".
pub fn describe(f: &ForceSupply) -> String {
    match f.state {
        Supply::In => {
            let mut s = format!(
                "in supply from {} ({} hexes of road)",
                f.source.as_deref().unwrap_or("?"),
                f.path.len().saturating_sub(1)
            );
            if let Some(cap) = &f.capacity {
                if (cap.men, cap.guns) == (0, 0) {
                    // A force with no men present loads no line (3.4).
                    s.push_str("; no men present; the line carries");
                } else if (cap.load_men, cap.load_guns) != (cap.men, cap.guns) {
                    // The line is shared (3.4).
                    let _ = write!(s, "; {} men, {} guns; the line carries", cap.men, cap.guns);
                } else {
                    s.push(';');
                }
                let _ = write!(
                    s,
                    " {} of {} men, {} of {} guns ({} line)",
                    cap.load_men,
                    cap.max_men,
                    cap.load_guns,
                    cap.max_guns,
                    cap.line.word()
                );
            }
            s
        }
        Supply::Out => format!(
            "OUT OF SUPPLY ({} turn{} in a row): {}",
            f.turns_out,
            if f.turns_out == 1 { "" } else { "s" },
            f.reason.as_deref().unwrap_or("cut")
        ),
    }
}

/// The report for people.
pub fn render(c: &Campaign, r: &SupplyReport) -> String {
    let mut s = String::new();
    let turn = crate::model::Turn(r.turn);
    let _ = writeln!(s, "Supply on turn {} ({}), rules 3.1-3.5", r.turn, turn.date());
    for side in [Side::French, Side::Allies] {
        let _ = writeln!(s, "\n{side}:");
        for f in r.forces.iter().filter(|f| f.side == side) {
            let _ = writeln!(s, "  {:<12} {}  {}", f.force, f.hex, describe(f));
            if f.state == Supply::In && f.path.len() > 1 {
                let path: Vec<String> = f.path.iter().map(ToString::to_string).collect();
                let _ = writeln!(s, "    line: {}", path.join(" "));
            }
            if let Some(why) = f.reason.as_ref().filter(|_| f.state == Supply::In) {
                let _ = writeln!(s, "    {why}");
            }
            for o in &f.orders {
                let _ = writeln!(s, "    {o}");
            }
        }
    }
    if !r.communications.is_empty() {
        let _ = writeln!(s, "\nFrench lines of communications (3.5):");
        for k in &r.communications {
            match k.state {
                "open" => {
                    let _ = writeln!(
                        s,
                        "  {:<12} open to {} ({} hexes)",
                        k.force,
                        k.to.as_deref().unwrap_or("?"),
                        k.path.len().saturating_sub(1)
                    );
                }
                _ => {
                    let at = k.break_hex.map(|h| format!(" at {h}")).unwrap_or_default();
                    let _ = writeln!(
                        s,
                        "  {:<12} CUT{at}: {}; no replacements",
                        k.force,
                        k.reason.as_deref().unwrap_or("cut")
                    );
                }
            }
        }
    }
    if !r.depots.is_empty() {
        let _ = writeln!(s, "\nDepots (3.2.1):");
        for d in &r.depots {
            let ready = d.ready.map(|t| format!(", in use from turn {t}")).unwrap_or_default();
            let note = d.note.as_ref().map(|n| format!(": {n}")).unwrap_or_default();
            let _ = writeln!(s, "  {:<12} {} ({}{ready}){note}", d.force, d.depot, d.state.word());
        }
    }
    let _ = writeln!(s, "\nSettlements (2.1, 2.3): computed control, production");
    for k in &r.settlements {
        let typed = if k.typed != k.control { format!(" (typed {})", k.typed) } else { String::new() };
        let _ = writeln!(
            s,
            "  {:<22} {}  {:<2} {:<9}{typed}  {}",
            k.name,
            k.hex,
            k.control.to_string(),
            k.production.word(),
            k.why
        );
    }
    s.push_str(&super::standing::section(c, None));
    s
}

/// The phase's section of the turn's report.
pub fn render_phase(p: &SupplyPhase) -> String {
    let mut s = String::new();
    let _ = writeln!(s, "\nSupply and control (2.1, 3.1-3.5; `sowbridge supply` shows the working):");
    if p.control.is_empty() {
        let _ = writeln!(s, "  No settlement changes hands.");
    } else {
        let _ = writeln!(s, "  Settlements changing hands ({}):", p.control.len());
        for k in &p.control {
            let _ = writeln!(s, "    {:<22} {}  {} → {}  {}", k.name, k.hex, k.from, k.to, k.why);
        }
    }
    if p.supply.is_empty() {
        let _ = writeln!(s, "  No force goes in or out of supply.");
    } else {
        let _ = writeln!(s, "  Supply changed:");
        for f in &p.supply {
            let why = f.reason.as_ref().map(|r| format!(": {r}")).unwrap_or_default();
            let _ = writeln!(s, "    {:<12} {} → {}{why}", f.force, f.from, f.to);
        }
    }
    for (force, depot, note) in &p.depots {
        let _ = writeln!(s, "  Depot of {force} at {depot}: {note}");
    }
    if !p.orders.is_empty() {
        let _ = writeln!(s, "  Orders from the rules:");
        for (force, order) in &p.orders {
            let _ = writeln!(s, "    {force:<12} {order}");
        }
    }
    s
}

/// A briefing's section on the side's own forces' supply (3.1–3.5): each of them in or out of
/// supply and why, the orders the rules give, and, for the French, whether the line of
/// communications reaches France (3.5: "French field commanders will be advised if their LoC
/// is cut"). Only the side's own forces: nothing of the enemy's supply.
pub fn briefing_section(r: &SupplyReport, own: &[String]) -> String {
    let mut s = String::from("\n## Your supply (rules 3.1-3.5)\n\n");
    // Looked up by id, not searched: a side may have thousands of forces.
    let own: std::collections::HashSet<&str> = own.iter().map(String::as_str).collect();
    for f in r.forces.iter().filter(|f| own.contains(f.force.as_str())) {
        let _ = writeln!(s, "- {}: {}", f.force, describe(f));
        for o in &f.orders {
            let _ = writeln!(s, "  - {o}");
        }
    }
    s
}

/// A side's turn report's section on its own forces' supply (as [`briefing_section`]): the
/// French commanders are told there when their line of communications is cut (3.5).
pub fn side_section(r: &SupplyReport, side: Side) -> String {
    let own: Vec<String> = r.forces.iter().filter(|f| f.side == side).map(|f| f.force.to_string()).collect();
    briefing_section(r, &own)
}
