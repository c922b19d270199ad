//! The supply's text for people that other reports take in: a force's line in words, and a
//! briefing's section on the side's own forces' supply (rules 3.1–3.5).

use std::fmt::Write as _;

use crate::model::Supply;
use crate::rules::supply::{ForceSupply, SupplyReport};

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
                let _ = write!(
                    s,
                    "; {} of {} men, {} of {} guns ({} line)",
                    cap.men,
                    cap.max_men,
                    cap.guns,
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

/// A briefing's section on the side's own forces' supply (3.1–3.5): each of them in or out of
/// supply and why, the orders the rules give, and, for the French, whether the line of
/// communications reaches France (3.5: "French field commanders will be advised if their LoC
/// is cut"). Only the side's own forces: nothing of the enemy's supply.
pub fn briefing_section(r: &SupplyReport, own: &[String]) -> String {
    let mut s = String::from("\n## Your supply (rules 3.1-3.5)\n\n");
    for f in r.forces.iter().filter(|f| own.contains(&f.force)) {
        let _ = writeln!(s, "- {}: {}", f.force, describe(f));
        for o in &f.orders {
            let _ = writeln!(s, "  - {o}");
        }
    }
    s
}
