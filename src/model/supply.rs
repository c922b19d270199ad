//! What the supply rules and the march remember from one command to the next, as values:
//! `supply.csv` (turns out of supply, depots, 3.2.1, 3.3) and `avoidance.csv` (the retreats
//! before battle that the enemy caught, 8.2). Both are read into the campaign value with the
//! rest of its files.

use serde::Serialize;

use super::HexId;

/// What `supply.csv` remembers of a force from the last turn: its turns out of supply and
/// its depot.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct SupplyRecord {
    /// Top-level force id.
    pub force: String,
    /// Turns spent out of supply, in a row (3.3).
    pub turns_out: u32,
    /// The depot as last seen.
    pub depot: Option<String>,
    /// Its state.
    pub depot_state: DepotState,
    /// The turn from which an establishing depot is in use.
    pub depot_ready: Option<u32>,
}

/// State of a force's depot (3.2.1).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum DepotState {
    /// In use: a source when friendly and garrisoned.
    Established,
    /// A French corps's new depot, in use from `ready`.
    Establishing,
    /// Held by the enemy: its supplies and recruits are lost until it is retaken.
    Captured,
    /// An Allied army's depot retaken, in use again from `ready`.
    Reestablishing,
    /// An Allied army named a new depot: it cannot (3.2.1); not a source.
    NotAllowed,
}

impl DepotState {
    /// The word in `supply.csv`.
    pub fn word(self) -> &'static str {
        match self {
            DepotState::Established => "established",
            DepotState::Establishing => "establishing",
            DepotState::Captured => "captured",
            DepotState::Reestablishing => "reestablishing",
            DepotState::NotAllowed => "not-allowed",
        }
    }
}

impl std::str::FromStr for DepotState {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        [
            DepotState::Established,
            DepotState::Establishing,
            DepotState::Captured,
            DepotState::Reestablishing,
            DepotState::NotAllowed,
        ]
        .into_iter()
        .find(|d| d.word().eq_ignore_ascii_case(s.trim()))
        .ok_or_else(|| {
            format!("unknown depot state '{s}' (expected established, establishing, captured, reestablishing or not-allowed)")
        })
    }
}

/// A force's trail (3.2 and the clarification of 4 September 2014: "Supply routes follow a
/// military force like the tail of a tadpole following its head"): the hexes it came by, from
/// where it stands back to the source its line runs to. `move` extends it and shortens it;
/// a force with none draws on the nearest source by road.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Trail {
    /// Top-level force id.
    pub force: String,
    /// The hexes, the force's own first.
    pub hexes: Vec<HexId>,
}

/// A hex with a secondary road that a French force passed through (13 July 2014: secondary
/// roads "are initially known only to the Spanish players. French players whose troops pass
/// through a hex containing one will be informed of it, and where it (probably) leads").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct RoadSeen {
    /// The hex.
    pub hex: HexId,
    /// The turn it was passed through.
    pub turn: u32,
    /// The force that passed through it.
    pub force: String,
}

/// A force that retreated before battle (8.2) and was caught: the battle it tried to refuse
/// is set up with it as the avoiding side.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Avoidance {
    /// The turn.
    pub turn: u32,
    /// The retreating force.
    pub force: String,
    /// The enemy forces in contact with it where it ended, space-separated.
    pub caught_by: String,
    /// Where it ended.
    pub hex: HexId,
}
