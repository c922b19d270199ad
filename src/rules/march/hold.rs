//! Supply on the march (3.3, 3.4): "Forces which have a cut supply line cannot advance towards
//! a known enemy. They may hold in position ... or withdraw"; a force beyond its line's
//! capacity "must halt or withdraw, as per the cut supply line rules, but may not conduct
//! offensive operations". A march by a force out of supply is refused at its first step that
//! advances towards a known enemy: a step into a hex held by an enemy force its side knows of
//! (8.1's contacts, 9.0's reports), or a step that brings it nearer any such force within its
//! reach, [`REACH_TURNS`] turns of its march by road from the hex the step leaves. A step
//! along its own line (the next hex of its line back to its source or break, the march on it
//! from the start) is a withdrawal and allowed, unless an enemy force holds that hex; a
//! retreat before battle (8.2) is never refused.

use std::collections::HashMap;

use super::{Plan, Refusal};
use crate::model::{Campaign, HexId, Side, Supply};
use crate::rules::intel::known::side_view;
use crate::rules::supply::{ForceSupply, HALT, SupplyReport};
use crate::rules::zoc::Contact;

/// Turns of a force's march by road within which a known enemy is one it may not advance on
/// out of supply (3.3): an enemy further off is no enemy it advances towards.
pub const REACH_TURNS: u32 = 1;

/// The marches that 3.3 and 3.4 forbid, one refusal each; `all` the campaign's contacts (8.1,
/// [`crate::rules::zoc::contacts`]), from which each side knows its enemies.
pub fn supply_refusals(c: &Campaign, report: &SupplyReport, all: &[Contact], plans: &[Plan]) -> Vec<Refusal> {
    let by_id: HashMap<&str, &ForceSupply> = report.forces.iter().map(|f| (f.force.as_str(), f)).collect();
    let out_of_supply: Vec<(&Plan, &ForceSupply)> = plans
        .iter()
        .filter(|p| !p.retreat)
        .filter_map(|p| by_id.get(p.force.as_str()).map(|&f| (p, f)))
        .filter(|(_, f)| f.state == Supply::Out)
        .collect();
    if out_of_supply.is_empty() {
        return Vec::new();
    }
    let mut known: [Option<Vec<(String, HexId)>>; 2] = [None, None];
    let mut out = Vec::new();
    for (p, f) in out_of_supply {
        let slot = usize::from(f.side == Side::Allies);
        let enemies = known[slot].get_or_insert_with(|| {
            side_view(c, all, f.side, false)
                .forces
                .into_iter()
                .filter(|k| k.side() != f.side)
                .map(|k| (k.id, k.hex))
                .collect()
        });
        let Some((step, to, enemy, at)) = first_advance(c, p, f, enemies) else { continue };
        let over = f.orders.iter().any(|o| o == HALT);
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

/// The first step of a march that advances towards a known enemy (3.3): its number, the hex it
/// enters, and the enemy with its hex.
fn first_advance(
    c: &Campaign,
    p: &Plan,
    f: &ForceSupply,
    enemies: &[(String, HexId)],
) -> Option<(usize, HexId, String, HexId)> {
    let grid = c.map.grid;
    let reach = REACH_TURNS * p.road_rate().max(1);
    for (i, w) in p.path.windows(2).enumerate() {
        let (from, to) = (w[0], w[1]);
        if let Some((id, e)) = enemies.iter().find(|(_, e)| *e == to) {
            return Some((i + 1, to, id.clone(), *e));
        }
        // Withdrawing along its line: every step so far on the line's next hexes.
        if f.path.len() > i + 1 && f.path[1..=i + 1] == p.path[1..=i + 1] {
            continue;
        }
        let nearer = enemies
            .iter()
            .map(|(id, e)| (grid.distance(from, *e), grid.distance(to, *e), id, *e))
            .filter(|&(before, after, ..)| before <= reach && after < before)
            .min_by_key(|&(_, after, id, _)| (after, id));
        if let Some((_, _, id, e)) = nearer {
            return Some((i + 1, to, id.clone(), e));
        }
    }
    None
}
