//! Why a hex the umpire names for a withdrawal is refused (8.4, 6.5.1): each reason in the
//! rule's words, with the rivers and roads that decide it.

use std::collections::BTreeMap;

use crate::model::HexId;

use super::WithdrawalPlan;
use super::search::{Ground, Search};

/// Why each hex within reach of the loser (one hex beyond its allowance) is refused.
pub(super) fn refusals(g: &Ground<'_>, s: &Search<'_>, plan: &WithdrawalPlan) -> BTreeMap<HexId, String> {
    let grid = &g.c.map.grid;
    let from = g.from;
    let radius = i32::try_from(plan.allowance + 1).unwrap_or(i32::MAX);
    let (relaxed, clean) = (g.reach(false), g.reach(true));
    let roads = g.shortest_roads();
    let mut out = BTreeMap::new();
    for dc in -radius..=radius {
        for dr in -radius - 1..=radius + 1 {
            let (Ok(col), Ok(row)) =
                (u16::try_from(i32::from(from.col) + dc), u16::try_from(i32::from(from.row) + dr))
            else {
                continue;
            };
            let t = HexId::new(col, row);
            if !grid.contains(t) || grid.distance(from, t) as i32 > radius || s.best.contains_key(&t) {
                continue;
            }
            out.insert(t, refusal(g, s, plan, t, &relaxed, &clean, &roads));
        }
    }
    out
}

pub(super) fn refusal(
    g: &Ground<'_>,
    s: &Search<'_>,
    plan: &WithdrawalPlan,
    t: HexId,
    relaxed: &BTreeMap<HexId, u32>,
    clean: &BTreeMap<HexId, u32>,
    roads: &BTreeMap<HexId, (u32, Vec<String>, bool)>,
) -> String {
    let (map, from) = (&g.c.map, g.from);
    if t == from {
        return format!("{t} is where {} stands: a loser must withdraw (8.4)", plan.force);
    }
    if let Some(e) = g.enemy_at.get(&t) {
        return format!("{t} holds the enemy force {e}");
    }
    let (there, here) = (g.away(t), g.away(from));
    if there <= here {
        return format!(
            "{t} is not farther from the victor than {from} ({there} hexes against {here}): \
             a loser withdraws away from the victorious enemy at each step (8.4)"
        );
    }
    if let Some(e) = g.zone_closing(t, map.grid.adjacent(from, t)) {
        return format!("{t} is in the zone of control of the enemy force {e} (8.1)");
    }
    if !relaxed.contains_key(&t) {
        let unbridged = map.grid.neighbours(t).find_map(|n| {
            let behind = relaxed.contains_key(&n) && g.away(n) < there && map.road(n, t).is_none();
            behind.then(|| map.river(n, t)).flatten()
        });
        return match unbridged {
            Some(r) => format!(
                "{t} lies across the {r} where no road bridge is: major rivers are crossed only \
                 where roads meet them (6.5.1)"
            ),
            None => format!("no road leads from {from} to {t} with every step farther from the victor (8.4)"),
        };
    }
    if !clean.contains_key(&t) {
        return format!(
            "every road from {from} to {t} that leads away from the victor passes through an enemy \
             zone of control or an enemy-held hex (8.1)"
        );
    }
    if let Some(n) = s.short.get(&t) {
        return format!(
            "{t} is only {n} road hexes from {from}: a loser withdraws at least {} unless it falls \
             back into a friendly city or fortress (8.4)",
            plan.minimum
        );
    }
    match s.over.get(&t) {
        Some((hexes, limit)) => format!(
            "{t} is beyond the allowance: the shortest road there is {hexes} hexes from {from}, and {} \
             may march {limit} on it after river and secondary-road penalties (6.2, 6.3, 6.5.1)",
            plan.force
        ),
        None => {
            let (hexes, rivers, secondary) = roads.get(&t).cloned().unwrap_or((clean[&t], Vec::new(), false));
            let limit = s.allowance.for_path(rivers.len() as u32, secondary);
            let crossing = if rivers.is_empty() {
                String::new()
            } else {
                format!(" and crosses the {}", river_list(&rivers))
            };
            if rivers.is_empty() && !secondary {
                format!(
                    "{t} is beyond the allowance: the shortest road there is {hexes} hexes from {from}, \
                     and {} may march at most {} (6.2, 6.3)",
                    plan.force, plan.allowance
                )
            } else {
                format!(
                    "{t} is beyond the allowance: the shortest road there is {hexes} hexes from {from}{crossing}, \
                     and {} may march {limit} on it after river and secondary-road penalties ({} before \
                     them; 6.2, 6.3, 6.5.1)",
                    plan.force, plan.allowance
                )
            }
        }
    }
}

/// The rivers a path crosses, for a sentence: "Rio Guadiana", "Rio Guadiana and the Rio Tajo",
/// "Rio A, the Rio B and the Rio C".
pub fn river_list(rivers: &[String]) -> String {
    match rivers {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and the {last}", init.join(", the ")),
    }
}
