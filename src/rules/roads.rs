//! The roads each side knows (13 July 2014): secondary roads "are initially known only to the
//! Spanish players. French players whose troops pass through a hex containing one will be
//! informed of it, and where it (probably) leads." The Allies know every road. The French
//! know every major road, and each secondary road they have seen: the secondary roads joined
//! (by secondary roads) to a hex one of their forces passed through (`roads-seen.csv`, kept by
//! `move`) or stands in. Their map, their briefings' maps and the routes `move … to` finds
//! for them use only these.

use std::collections::{BTreeSet, VecDeque};

use crate::model::map::{CampaignMap, Side2};
use crate::model::supply::RoadSeen;
use crate::model::{Campaign, HexId, RoadClass, Side};

/// The secondary roads `side` knows, by hex side; `None` when it knows them all (the Allies).
pub fn known_secondary(c: &Campaign, side: Side) -> Option<BTreeSet<Side2>> {
    if side == Side::Allies {
        return None;
    }
    let mut seen: BTreeSet<HexId> = c.roads_seen.iter().map(|r| r.hex).collect();
    seen.extend(c.oob.force_places().iter().filter(|f| f.side == side).filter_map(|f| f.hex));
    let mut queue: VecDeque<HexId> = seen.iter().copied().collect();
    let mut known = BTreeSet::new();
    while let Some(h) = queue.pop_front() {
        for (n, class) in c.map.road_neighbours(h) {
            if class == RoadClass::Secondary && known.insert(Side2::new(h, n)) && seen.insert(n) {
                queue.push_back(n);
            }
        }
    }
    Some(known)
}

/// The map as `side` knows it: every road it does not know taken off.
pub fn map_known_to(c: &Campaign, side: Side) -> std::borrow::Cow<'_, CampaignMap> {
    match known_secondary(c, side) {
        None => std::borrow::Cow::Borrowed(&c.map),
        Some(known) => {
            let mut m = c.map.clone();
            m.roads.retain(|k, class| *class == RoadClass::Major || known.contains(k));
            std::borrow::Cow::Owned(m)
        }
    }
}

/// The hexes with a secondary road that French forces marched through and the French had not
/// seen: each with the turn and the first force to pass, to add to `roads-seen.csv`.
pub fn newly_seen(c: &Campaign, marched: &[(String, Vec<HexId>)]) -> Vec<RoadSeen> {
    let mut have: BTreeSet<HexId> = c.roads_seen.iter().map(|r| r.hex).collect();
    let mut out = Vec::new();
    for (force, hexes) in marched {
        if c.oob.get(force).is_none_or(|f| f.side() != Side::French) {
            continue;
        }
        for &h in hexes {
            let secondary = c.map.road_neighbours(h).iter().any(|&(_, k)| k == RoadClass::Secondary);
            if secondary && have.insert(h) {
                out.push(RoadSeen { hex: h, turn: c.config.turn, force: force.clone() });
            }
        }
    }
    out
}
