//! The trail (3.2, and the clarification of 4 September 2014: "Supply routes follow a military
//! force like the tail of a tadpole following its head. You cannot send a force along one road
//! and route its supply path via another road"). A force's line of supply is the way it came:
//! the hexes it marched, back to the source its line ran to before it marched. `move` extends
//! the trail and shortens it (a step back onto it, a retreat along it, cuts it back to that
//! hex); the line runs along it to the first source of the force's side on it and is cut where
//! a place on it is hostile, a junction of a secondary road on it unmanned, or a step of it
//! off the roads. A force that has not marched since the campaign began (no trail) draws on
//! the nearest source by road, and that road becomes its trail when it marches.

use std::collections::BTreeMap;

use super::{Net, SupplyReport, first_break};
use crate::model::supply::Trail;
use crate::model::{Campaign, HexId};

/// The trail after a march along `marched` (the force's hex first): each step onto a hex of
/// the trail cuts it back to that hex; every other step lengthens it.
pub fn extend(trail: &[HexId], marched: &[HexId]) -> Vec<HexId> {
    let mut t: Vec<HexId> = match (trail.iter().position(|h| Some(h) == marched.first()), marched.first()) {
        (Some(i), _) => trail[i..].to_vec(),
        (None, Some(&h)) => vec![h],
        (None, None) => return trail.to_vec(),
    };
    for &p in marched.iter().skip(1) {
        match t.iter().position(|&h| h == p) {
            Some(i) => {
                t.drain(..i);
            }
            None => t.insert(0, p),
        }
    }
    t
}

/// Every trail after the marches (each force's hexes, its own first): a force that marched
/// extends its trail, or, with none, the line it had (its road to the nearest source, as
/// `report` computed it before the march). The others keep theirs. In force id order.
pub fn after_march(c: &Campaign, report: &SupplyReport, marched: &[(String, Vec<HexId>)]) -> Vec<Trail> {
    let mut trails: BTreeMap<String, Vec<HexId>> =
        c.trails.iter().map(|t| (t.force.clone(), t.hexes.clone())).collect();
    let lines: BTreeMap<&str, &Vec<HexId>> =
        report.forces.iter().map(|f| (f.force.as_str(), &f.path)).collect();
    for (force, hexes) in marched.iter().filter(|(_, h)| h.len() > 1) {
        let had = trails
            .get(force)
            .filter(|t| t.contains(&hexes[0]))
            .cloned()
            .unwrap_or_else(|| lines.get(force.as_str()).map(|p| p.to_vec()).unwrap_or_default());
        trails.insert(force.clone(), extend(&had, hexes));
    }
    trails.into_iter().map(|(force, hexes)| Trail { force, hexes }).collect()
}

/// The part of a trail the force stands on: from its hex, if its hex is on the trail (a force
/// moved otherwise, by a battle's withdrawal, has none and draws by road).
pub(super) fn from_hex(t: &Trail, hex: HexId) -> Option<&[HexId]> {
    t.hexes.iter().position(|&h| h == hex).map(|i| &t.hexes[i..])
}

/// A walk along the trail.
pub(super) enum Walk {
    /// In supply: the line to the first source on the trail, and that source.
    In(Vec<HexId>, usize),
    /// Cut: the trail to its source (or its end), where, and why.
    Cut(Vec<HexId>, HexId, String),
    /// The trail reaches no source of the side.
    NoSource(Vec<HexId>),
}

/// Walks a trail to the first of `sources` (by hex, their index) on it.
pub(super) fn walk(net: &Net<'_>, sources: &BTreeMap<HexId, usize>, trail: &[HexId]) -> Walk {
    let end = trail.iter().position(|h| sources.contains_key(h));
    let path = match end {
        Some(k) => trail[..=k].to_vec(),
        None => trail.to_vec(),
    };
    let off_road = path.windows(2).position(|w| net.c.map.road(w[0], w[1]).is_none()).map(|i| {
        let (a, b) = (path[i], path[i + 1]);
        (i + 1, b, format!("no road from {a} to {b}: a supply line runs along roads (3.1)"))
    });
    let hostile =
        first_break(net, &path).and_then(|(h, why)| path.iter().position(|&x| x == h).map(|i| (i, h, why)));
    let cut = match (off_road, hostile) {
        (Some(a), Some(b)) => Some(if a.0 <= b.0 { a } else { b }),
        (a, b) => a.or(b),
    };
    match (cut, end) {
        (Some((_, at, why)), _) => Walk::Cut(path, at, why),
        (None, Some(k)) => {
            let i = sources[&trail[k]];
            Walk::In(path, i)
        }
        (None, None) => Walk::NoSource(path),
    }
}
