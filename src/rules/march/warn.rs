//! What a march does to its side's hold on the map, said before it is made (`move --dry-run`,
//! and `move`): a settlement its garrison marched out of that falls below the garrison its
//! control needs (2.1, [`crate::rules::control`]), forces whose supply line it cuts (3.1-3.3)
//! and French lines of communications it cuts (3.5, [`crate::rules::supply`]). Both come from
//! the rules' own computation of the campaign before and after the march, never a second one.

use std::collections::BTreeMap;

use super::Marched;
use crate::model::{HexId, Supply};
use crate::rules::supply::SupplyReport;

/// The warnings, one sentence each, naming the forces affected: `before` and `after` are the
/// supply and control of the campaign before the march and after it.
pub fn warnings(before: &SupplyReport, after: &SupplyReport, marched: &[Marched]) -> Vec<String> {
    let mut out = Vec::new();
    // Who marched out of each hex.
    let mut left: BTreeMap<HexId, Vec<&str>> = BTreeMap::new();
    for m in marched.iter().filter(|m| m.hexes() > 0) {
        left.entry(m.marched[0]).or_default().push(m.force.as_str());
    }
    for (b, a) in before.settlements.iter().zip(&after.settlements) {
        let Some(gone) = left.get(&b.hex) else { continue };
        let Some(side) = b.control.side() else { continue };
        if a.control.side() != Some(side) {
            out.push(format!(
                "{} ({}) falls below the garrison its control needs once {} marches out: {} → {} ({}) (2.1)",
                b.name,
                b.hex,
                gone.join(", "),
                b.control,
                a.control,
                a.why
            ));
        }
    }
    let after_state: BTreeMap<&str, _> = after.forces.iter().map(|f| (f.force.as_str(), f)).collect();
    let mut cut: BTreeMap<String, Vec<String>> = BTreeMap::new();
    for f in before.forces.iter().filter(|f| f.state == Supply::In) {
        if let Some(a) = after_state.get(f.force.as_str()).filter(|a| a.state == Supply::Out) {
            let why = a.reason.as_deref().unwrap_or("cut");
            cut.entry(f.side.to_string()).or_default().push(format!("{} ({why})", f.force));
        }
    }
    for (side, forces) in cut {
        out.push(format!(
            "the march cuts the supply of {} {side} force{}: {} (3.3)",
            forces.len(),
            if forces.len() == 1 { "" } else { "s" },
            forces.join("; ")
        ));
    }
    let comm_after: BTreeMap<&str, &str> =
        after.communications.iter().map(|k| (k.force.as_str(), k.state)).collect();
    let comm_cut: Vec<&str> = before
        .communications
        .iter()
        .filter(|k| k.state == "open" && comm_after.get(k.force.as_str()) == Some(&"cut"))
        .map(|k| k.force.as_str())
        .collect();
    if !comm_cut.is_empty() {
        out.push(format!(
            "the march cuts the French line of communications (3.5) of {}",
            comm_cut.join(", ")
        ));
    }
    out
}
