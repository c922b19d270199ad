//! Depots (rule 3.2.1): one per French corps and per Allied army, in a settlement it holds;
//! how long a new or retaken one takes, and what its capture costs.

use std::collections::BTreeMap;

use serde::Serialize;

use super::{ALLIED_DEPOT_TURNS, FRENCH_DEPOT_TURNS, SupplyRecord};
pub use crate::model::supply::DepotState;
use crate::model::{Campaign, Side};
use crate::rules::control::SettlementControl;

/// A force's depot this turn (3.2.1).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Depot {
    /// The force (a French corps or an Allied army, or any force naming a depot).
    pub force: String,
    /// The settlement.
    pub depot: String,
    /// Its state.
    pub state: DepotState,
    /// The turn from which an establishing depot is in use.
    pub ready: Option<u32>,
    /// What changed this turn, if anything.
    pub note: Option<String>,
}

/// The depots of the forces this turn (3.2.1), from what `supply.csv` remembers.
pub(super) fn depots(
    c: &Campaign,
    control: &[SettlementControl],
    records: &[SupplyRecord],
    turn: u32,
) -> Vec<Depot> {
    let by_force: BTreeMap<&str, &SupplyRecord> = records.iter().map(|r| (r.force.as_str(), r)).collect();
    let mut out = Vec::new();
    for f in c.oob.forces() {
        let Some(name) = f.depot() else { continue };
        let side = f.side();
        let held =
            c.map.settlements.iter().zip(control).find(|(s, _)| s.name == name).map(|(_, k)| k.control);
        let enemy_holds = held.and_then(|k| k.side()) == Some(side.enemy());
        let prev = by_force.get(f.id.as_str()).copied();
        let (mut state, mut ready, mut note) = match prev {
            // The first turn sowbridge sees a depot, it is taken as established.
            None => (DepotState::Established, None, None),
            Some(r) if r.depot.as_deref() != Some(name) => match side {
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
            Some(r) => (r.depot_state, r.depot_ready, None),
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
        out.push(Depot { force: f.id.to_string(), depot: name.to_string(), state, ready, note });
    }
    out
}
