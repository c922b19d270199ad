//! The loser's withdrawal after a battle (rule 8.4): "A loser must withdraw at least half and
//! up to his full road move distance away from the victorious enemy unless a city or fortress
//! is to his rear when he may fall back into it and stop." This module lists every legal
//! destination with its road, picks the one toward the force's own supply source, explains
//! why any other hex the umpire names is refused, and finds the loser trapped when no road
//! leads away (6.5.1: "it is now possible to trap an enemy against a river").

use std::cmp::Reverse;
use std::collections::{BTreeMap, VecDeque};

use super::movement::road_allowance;
use crate::model::{Campaign, HexGrid, HexId, SettlementKind, Turn, Unit};

mod refusal;
mod search;

use self::refusal::refusals;
pub use self::refusal::river_list;
pub use self::search::SIDEWAYS_STEPS;
use self::search::{Ground, Search};

/// A hex the loser may withdraw to, and the road it takes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Destination {
    /// Where the withdrawal ends.
    pub hex: HexId,
    /// The road taken, from the loser's hex to `hex` inclusive.
    pub path: Vec<HexId>,
    /// Hexes marched (`path.len() - 1`).
    pub road_hexes: u32,
    /// Major rivers crossed by road bridge on the way, in order (these trigger 6.5.2).
    pub crosses_rivers: Vec<String>,
    /// The friendly city or fortress the loser falls back into and stops in, short of the
    /// minimum withdrawal (8.4).
    pub stop_in: Option<String>,
    /// Road hexes from `hex` to the force's supply source, if a road joins them.
    pub distance_to_supply: Option<u32>,
}

/// Where a beaten force may withdraw to, and where sowbridge proposes it goes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct WithdrawalPlan {
    /// The withdrawing force.
    pub force: String,
    /// Its hex at the end of the battle.
    pub from: HexId,
    /// Its full road move this turn, before the per-path penalties (6.2, 6.3).
    pub allowance: u32,
    /// The least it must withdraw: half the allowance rounded up (8.4).
    pub minimum: u32,
    /// Every legal destination, by hex.
    pub destinations: Vec<Destination>,
    /// The destination sowbridge proposes: the one nearest its supply source by road.
    pub chosen: Option<Destination>,
    /// No road leads away: the force is trapped (6.5.1).
    pub trapped: bool,
    /// The force's supply source: its depot, else the nearest friendly city by road.
    pub supply_source: Option<(String, HexId)>,
    /// Why the plan is empty without the force being trapped (force or victors not on the map).
    pub note: Option<String>,
    /// Why each hex near the loser is refused.
    #[serde(skip)]
    refusals: BTreeMap<HexId, String>,
    #[serde(skip)]
    grid: HexGrid,
}

/// Plans the withdrawal of a beaten force away from the victor's principal forces (rule 8.4).
///
/// A legal path follows roads only (so a major river is crossed only by a road bridge,
/// 6.5.1), each step farther from the nearest victor (at most [`SIDEWAYS_STEPS`] keeping the
/// same distance) and ending farther than it started, never into a hex held by an
/// enemy force nor into an enemy zone of control (8.1), except that a victor sharing the
/// loser's hex does not hold the loser's first step. It is at least [`WithdrawalPlan::minimum`]
/// hexes long, or ends early in a friendly city or fortress, and no longer than the force's
/// allowance for that path (river crossings and secondary roads deducted, halved in winter).
/// Every path is enumerated depth first. Each step moves away from the victor, so no path
/// loops; the search stops at the allowance (at most 15 hexes) and a hex has at most three
/// neighbours farther from the victor, so over the sparse road net this is a few hundred
/// paths. For each end hex the path with the fewest river crossings, then the fewest hexes,
/// then the lowest hexes is kept. The proposal is the destination nearest by road to the
/// supply source, then with the fewest river crossings, then farthest from the victor, then
/// the lowest hex id.
pub fn plan_withdrawal(c: &Campaign, force_id: &str, victors: &[String], turn: Turn) -> WithdrawalPlan {
    let allowance = road_allowance(c, force_id, turn);
    let mut plan = WithdrawalPlan {
        force: force_id.to_string(),
        from: HexId::new(0, 0),
        allowance: allowance.hexes(),
        minimum: allowance.hexes().div_ceil(2),
        destinations: Vec::new(),
        chosen: None,
        trapped: false,
        supply_source: None,
        note: None,
        refusals: BTreeMap::new(),
        grid: c.map.grid,
    };
    let Some((force, from)) = c.oob.get(force_id).and_then(|f| Some((f, f.hex?))) else {
        plan.note = Some(format!("'{force_id}' is not a force standing on the map"));
        return plan;
    };
    plan.from = from;
    let mut victor_hexes: Vec<HexId> = victors.iter().filter_map(|v| c.oob.get(v)?.hex).collect();
    victor_hexes.sort();
    victor_hexes.dedup();
    if victor_hexes.is_empty() {
        plan.note = Some(format!("none of the victors ({}) stands on the map", victors.join(", ")));
        return plan;
    }
    let ground = Ground::new(c, force, from, victor_hexes);
    let mut search = Search {
        ground: &ground,
        allowance,
        minimum: plan.minimum,
        best: BTreeMap::new(),
        short: BTreeMap::new(),
        over: BTreeMap::new(),
        seen: BTreeMap::new(),
    };
    search.walk(&mut vec![from], &mut Vec::new(), false, 0);

    plan.supply_source = supply_source(c, force, from);
    let to_supply = plan.supply_source.as_ref().map(|(_, h)| road_distances(c, *h)).unwrap_or_default();
    let mut destinations: Vec<Destination> = std::mem::take(&mut search.best).into_values().collect();
    // 8.4: a loser with "a city or fortress ... to his rear ... may fall back into it and
    // stop"; one already inside a friendly city or fortress (a beaten garrison) may stay.
    let stay = staying_inside(&ground, from);
    if let Some(d) = &stay {
        destinations.push(d.clone());
        destinations.sort_by_key(|d| d.hex);
    }
    for d in &mut destinations {
        d.distance_to_supply = to_supply.get(&d.hex).copied();
    }
    plan.chosen = match &stay {
        Some(d) => destinations.iter().find(|x| x.hex == d.hex).cloned(),
        None => destinations
            .iter()
            .min_by_key(|d| {
                let supply = (d.distance_to_supply.is_none(), d.distance_to_supply);
                (supply, d.crosses_rivers.len(), Reverse(ground.away(d.hex)), d.hex)
            })
            .cloned(),
    };
    plan.trapped = destinations.is_empty();
    plan.destinations = destinations;
    plan.refusals = refusals(&ground, &search, &plan);
    plan
}

/// The loser's own hex as a destination when it stands inside a friendly city or fortress
/// that no enemy force holds (8.4: it may stay there), else `None`.
fn staying_inside(g: &Ground<'_>, from: HexId) -> Option<Destination> {
    if g.enemy_at.contains_key(&from) {
        return None;
    }
    let city = g.friendly_city(from)?;
    Some(Destination {
        hex: from,
        path: vec![from],
        road_hexes: 0,
        crosses_rivers: Vec::new(),
        stop_in: Some(city.to_string()),
        distance_to_supply: None,
    })
}

/// Checks a destination the umpire names (`--withdraw-to`): the legal destination at that
/// hex, or why the loser may not withdraw there.
pub fn check_destination(plan: &WithdrawalPlan, hex: HexId) -> Result<&Destination, String> {
    if let Some(d) = plan.destinations.iter().find(|d| d.hex == hex) {
        return Ok(d);
    }
    if let Some(note) = &plan.note {
        return Err(note.clone());
    }
    if let Some(why) = plan.refusals.get(&hex) {
        return Err(why.clone());
    }
    if !plan.grid.contains(hex) {
        return Err(format!("{hex} is not on the map"));
    }
    Err(format!(
        "{hex} is {} hexes from {}, beyond the allowance of {} (6.3)",
        plan.grid.distance(plan.from, hex),
        plan.from,
        plan.allowance
    ))
}

/// Road hexes from `start` to every hex joined to it by road (rivers are crossed only by
/// the road bridges the road net already holds).
fn road_distances(c: &Campaign, start: HexId) -> BTreeMap<HexId, u32> {
    let mut dist = BTreeMap::from([(start, 0)]);
    let mut queue = VecDeque::from([start]);
    while let Some(h) = queue.pop_front() {
        let k = dist[&h];
        for (n, _) in c.map.road_neighbours(h) {
            if let std::collections::btree_map::Entry::Vacant(e) = dist.entry(n) {
                e.insert(k + 1);
                queue.push_back(n);
            }
        }
    }
    dist
}

/// The force's supply source: its depot settlement if it names one, else the friendly
/// capital, city or fortress city nearest by road (ties by name, then hex).
fn supply_source(c: &Campaign, force: &Unit, from: HexId) -> Option<(String, HexId)> {
    if let Some(depot) = force.depot() {
        return c.map.settlements.iter().find(|s| s.name == depot).map(|s| (s.name.clone(), s.hex));
    }
    let dist = road_distances(c, from);
    c.map
        .settlements
        .iter()
        .filter(|s| {
            matches!(s.kind, SettlementKind::Capital | SettlementKind::City | SettlementKind::FortressCity)
                && s.control.side() == Some(force.side())
        })
        .filter_map(|s| dist.get(&s.hex).map(|&d| (d, &s.name, s.hex)))
        .min()
        .map(|(_, name, hex)| (name.clone(), hex))
}

#[cfg(test)]
mod tests;
