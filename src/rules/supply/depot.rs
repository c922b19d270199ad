//! Depots (rule 3.2.1): one per French corps and per Allied army, in a settlement it holds;
//! how long a new or retaken one takes, and what its capture costs.

use std::collections::BTreeMap;

use compact_str::CompactString;
use serde::Serialize;

use super::{ALLIED_DEPOT_TURNS, FRENCH_DEPOT_TURNS, SupplyRecord};
pub use crate::model::supply::DepotState;
use crate::model::{Campaign, HexId, Level, NOT_SPAIN, Nation, Side, Unit};
use crate::rules::control::SettlementControl;

/// A force's depot this turn (3.2.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Depot {
    /// The force (a French corps or an Allied army, or any force naming a depot).
    pub force: CompactString,
    /// The force's side.
    #[serde(skip)]
    pub side: Side,
    /// The settlement.
    pub depot: CompactString,
    /// Its state.
    pub state: DepotState,
    /// The turn from which an establishing depot is in use.
    pub ready: Option<u32>,
    /// What changed this turn, if anything.
    pub note: Option<String>,
}

/// The depots of the forces this turn (3.2.1), from what `supply.csv` remembers.
pub fn depots(
    c: &Campaign,
    control: &[SettlementControl],
    records: &[SupplyRecord],
    turn: u32,
) -> Vec<Depot> {
    let by_force: BTreeMap<&str, &SupplyRecord> = records.iter().map(|r| (r.force.as_str(), r)).collect();
    let by_name = settlement_index(c);
    // The depots the records know, by side and name: the first record of each that is allowed.
    let mut by_depot: BTreeMap<(Side, &str), &SupplyRecord> = BTreeMap::new();
    for r in records {
        if let (Some(f), Some(d)) = (c.oob.get(&r.force), r.depot.as_deref()) {
            let known = by_depot.entry((f.side(), d)).or_insert(r);
            if known.depot_state == DepotState::NotAllowed {
                *known = r;
            }
        }
    }
    let mut out = Vec::new();
    for f in c.oob.forces() {
        let Some(name) = f.depot() else { continue };
        let side = f.side();
        let held = by_name.get(name).map(|&i| control[i].control);
        let enemy_holds = held.and_then(|k| k.side()) == Some(side.enemy());
        let prev = by_force.get(f.id.as_str()).copied();
        let (mut state, mut ready, mut note) = match prev {
            // The first supply phase sowbridge sees, every depot is taken as established.
            None if records.is_empty() => (DepotState::Established, None, None),
            // A force new since then that names a depot of its side draws on it as it stands.
            None if by_depot.contains_key(&(side, name)) => {
                let r = by_depot[&(side, name)];
                (r.depot_state, r.depot_ready, None)
            }
            Some(r) if r.depot.as_deref() == Some(name) => (r.depot_state, r.depot_ready, None),
            // Else it names a new depot.
            _ => match side {
                Side::French => (
                    DepotState::Establishing,
                    Some(turn + FRENCH_DEPOT_TURNS),
                    Some(format!("a new depot: in use from turn {} (3.2.1)", turn + FRENCH_DEPOT_TURNS)),
                ),
                Side::Allies => (
                    DepotState::NotAllowed,
                    None,
                    Some(
                        "an Allied army cannot establish a new depot, only retake its own (3.2.1)"
                            .to_string(),
                    ),
                ),
            },
        };
        if state != DepotState::NotAllowed {
            if enemy_holds && state != DepotState::Captured {
                state = DepotState::Captured;
                ready = None;
                note = Some(
                    "captured: its supplies and recruits are lost until it is retaken (3.2.1)".to_string(),
                );
            } else if !enemy_holds && state == DepotState::Captured {
                let (s, t) = match side {
                    Side::French => (DepotState::Establishing, FRENCH_DEPOT_TURNS),
                    Side::Allies => (DepotState::Reestablishing, ALLIED_DEPOT_TURNS),
                };
                state = s;
                ready = Some(turn + t);
                note = Some(format!("retaken: in use again from turn {} (3.2.1)", turn + t));
            } else if matches!(state, DepotState::Establishing | DepotState::Reestablishing)
                && ready.is_some_and(|r| turn >= r)
            {
                state = DepotState::Established;
                ready = None;
                note = Some("established: in use from this turn (3.2.1)".to_string());
            }
        }
        out.push(Depot { force: f.id.clone(), side, depot: name.into(), state, ready, note });
    }
    out
}

/// Each settlement's index in `settlements.csv` by name (the first of a name).
fn settlement_index(c: &Campaign) -> BTreeMap<&str, usize> {
    let mut by_name = BTreeMap::new();
    for (i, s) in c.map.settlements.iter().enumerate() {
        by_name.entry(s.name.as_str()).or_insert(i);
    }
    by_name
}

/// A depot 3.2.1 does not allow: the force naming it, and why.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct DepotProblem {
    /// The force (top level) whose `depot` it is.
    pub force: String,
    /// Why the rules do not allow it.
    pub message: String,
}

/// The level that places a side's depots (3.2.1: "each French Corps Commander ... and each
/// Allied Army").
fn placer(side: Side) -> Level {
    match side {
        Side::French => Level::Corps,
        Side::Allies => Level::Army,
    }
}

/// The depots 3.2.1 does not allow, each with the force naming it: one depot per French corps
/// and per Allied army, "at a settlement within the area they control (Spanish province, or
/// Portugal for the Allies, controlled zone of Spain for the French)". A force below a corps
/// (French) or an army (Allied) names the depot it draws on, which must be one a corps or an
/// army of its side places; a corps's depot must be held by the French (unless captured, a
/// state and not a mistake: 3.2.1's recapture); a Spanish army's must lie in Spain, an
/// Anglo-Portuguese army's in Portugal.
pub fn depot_problems(c: &Campaign, control: &[SettlementControl], depots: &[Depot]) -> Vec<DepotProblem> {
    let mut placed: BTreeMap<(Side, &str), &str> = BTreeMap::new();
    for f in c.oob.forces().filter(|f| f.level == placer(f.side())) {
        if let Some(d) = f.depot() {
            placed.entry((f.side(), d)).or_insert(f.id.as_str());
        }
    }
    let state: BTreeMap<&str, DepotState> = depots.iter().map(|d| (d.force.as_str(), d.state)).collect();
    let by_name = settlement_index(c);
    let mut out = Vec::new();
    for f in c.oob.forces() {
        let Some(name) = f.depot() else {
            if let Some((p, true)) = own_province(c, f) {
                out.push(DepotProblem {
                    force: f.id.to_string(),
                    message: format!(
                        "{} names no depot: a Spanish army draws on its own province's depots (2.2); it draws on the sources of {p}, the province it stands in",
                        f.id
                    ),
                });
            }
            continue;
        };
        let side = f.side();
        let who = match side {
            Side::French => "French corps",
            Side::Allies => "Allied army",
        };
        if f.level != placer(side) {
            if !placed.contains_key(&(side, name)) {
                out.push(DepotProblem {
                    force: f.id.to_string(),
                    message: format!(
                        "{} ({}) names the depot {name}, which no {who} in forces.csv places: one depot per {who}, and a smaller force draws on its own's (3.2.1)",
                        f.id, f.level
                    ),
                });
            }
            continue;
        }
        let Some((s, k)) = by_name.get(name).map(|&i| (&c.map.settlements[i], &control[i])) else {
            continue;
        };
        let area = match (side, f.nation) {
            (Side::French, _) => (k.control.side() == Some(Side::French)
                || state.get(f.id.as_str()) == Some(&DepotState::Captured))
            .then_some(())
            .ok_or_else(|| {
                format!("{name} is not held by the French ({}), outside the zone they control", k.control)
            }),
            (Side::Allies, Nation::Sp) => (!NOT_SPAIN.contains(&s.province.as_str()))
                .then_some(())
                .ok_or_else(|| format!("{name} is in {}, not in a Spanish province", s.province)),
            (Side::Allies, _) => (s.province == "Portugal")
                .then_some(())
                .ok_or_else(|| format!("{name} is in {}, not in Portugal", s.province)),
        };
        if let Err(why) = area {
            out.push(DepotProblem {
                force: f.id.to_string(),
                message: format!("{}'s depot must lie within the area it controls: {why} (3.2.1)", f.id),
            });
        }
    }
    out
}

/// The Spanish province a hex lies in (2.2): the province `map/hexes.csv` gives it, when that
/// is a Spanish one; else the province of the nearest settlement of Spain (the one in the hex,
/// if any; of two as near, the first in `settlements.csv`), so that a hex outside Spain, or
/// of a map without provinces, counts as in the Spanish province nearest it.
pub fn province_at(c: &Campaign, hex: HexId) -> Option<&str> {
    if let Some(p) = c.map.province(hex).filter(|p| !NOT_SPAIN.contains(p)) {
        return Some(p);
    }
    let grid = c.map.grid;
    c.map
        .settlements
        .iter()
        .filter(|s| !s.province.is_empty() && !NOT_SPAIN.contains(&s.province.as_str()))
        .min_by_key(|s| grid.distance(hex, s.hex))
        .map(|s| s.province.as_str())
}

/// The province whose sources a Spanish force draws on (2.2: "rely on supply bases in their
/// own province"): its depot's; for one that names no depot, the province it stands in
/// ([`province_at`]), and true. `None` for a force of another nation.
pub fn own_province<'a>(c: &'a Campaign, f: &Unit) -> Option<(&'a str, bool)> {
    if f.nation != Nation::Sp {
        return None;
    }
    match f.depot() {
        Some(d) => c.map.settlements.iter().find(|s| s.name == d).map(|s| (s.province.as_str(), false)),
        None => province_at(c, f.hex?).map(|p| (p, true)),
    }
}
