//! Supply on the march (3.3, 3.4): "Forces which have a cut supply line cannot advance towards
//! a known enemy. They may hold in position ... or withdraw"; a force beyond its line's
//! capacity "must halt or withdraw, as per the cut supply line rules, but may not conduct
//! offensive operations". A march by a force out of supply is refused when one of its steps
//! brings it nearer the nearest enemy force its side knows of (8.1's contacts, 9.0's
//! reports), unless it withdraws along its own line (the first hexes of its line back to its
//! source or break) or retreats before battle (8.2).

use super::{Plan, Refusal};
use crate::model::{Campaign, HexId, Side, Supply};
use crate::rules::intel::known::side_view;
use crate::rules::supply::SupplyReport;
use crate::rules::zoc::contacts;

/// The marches that 3.3 and 3.4 forbid, one refusal each.
pub fn supply_refusals(c: &Campaign, report: &SupplyReport, plans: &[Plan]) -> Vec<Refusal> {
    let by_id: std::collections::HashMap<&str, &crate::rules::supply::ForceSupply> =
        report.forces.iter().map(|f| (f.force.as_str(), f)).collect();
    let out_of_supply: Vec<(&Plan, &crate::rules::supply::ForceSupply)> = plans
        .iter()
        .filter(|p| !p.retreat)
        .filter_map(|p| by_id.get(p.force.as_str()).map(|&f| (p, f)))
        .filter(|(_, f)| f.state == Supply::Out)
        .collect();
    if out_of_supply.is_empty() {
        return Vec::new();
    }
    let all = contacts(c);
    let mut known: [Option<Vec<(String, HexId)>>; 2] = [None, None];
    let mut out = Vec::new();
    for (p, f) in out_of_supply {
        // Withdrawing along its line: the march's hexes are the first hexes of the line.
        let steps = &p.path[1..];
        if f.path.len() > steps.len() && f.path[1..=steps.len()] == *steps {
            continue;
        }
        let slot = usize::from(f.side == Side::Allies);
        let enemies = known[slot].get_or_insert_with(|| {
            side_view(c, &all, f.side, false)
                .forces
                .into_iter()
                .filter(|k| k.side() != f.side)
                .map(|k| (k.id, k.hex))
                .collect()
        });
        let grid = c.map.grid;
        // The nearest known enemy from a hex, and how far.
        let nearest = |h: HexId| enemies.iter().map(|(id, e)| (grid.distance(h, *e), id, *e)).min();
        let nearer = p.path.windows(2).enumerate().find_map(|(i, w)| {
            let (Some((before, ..)), Some((after, id, e))) = (nearest(w[0]), nearest(w[1])) else {
                return None;
            };
            (after < before).then(|| (i + 1, w[1], id.clone(), e))
        });
        let Some((step, to, enemy, at)) = nearer else { continue };
        let over = f.orders.iter().any(|o| o == crate::rules::supply::HALT);
        let (rule, why) = if over {
            (
                "3.4",
                "beyond its line's capacity, it must halt or withdraw and may not conduct offensive operations",
            )
        } else {
            (
                "3.3",
                "its supply line is cut: it may hold or withdraw but cannot advance towards a known enemy",
            )
        };
        out.push(Refusal {
            file: p.file.clone(),
            line: p.line,
            field: "force",
            force: p.force.clone(),
            step: Some(step),
            rule,
            message: format!(
                "out of supply ({}); {why}: the step to {to} brings it nearer {enemy} at {at} (it may withdraw along its line)",
                f.reason.as_deref().unwrap_or("cut")
            ),
        });
    }
    out
}
