//! The whole campaign as one value: configuration, map, order of battle, commanders and
//! the state sowbridge keeps (stored battle maps). Loaded by `formats`, written by `store`.

use std::collections::BTreeMap;

use super::calendar::Turn;
use super::commander::Commander;
use super::config::{CampaignConfig, RulesConfig};
use super::dialect::Dialect;
use super::hex::HexId;
use super::map::CampaignMap;
use super::oob::OrderOfBattle;

/// The map and orientation used for battles in a hex (rule 8.4: reused for later battles).
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct BattleMapChoice {
    /// SoW map id.
    pub map: String,
    /// Orientation in degrees: 0, 90, 180 or 270.
    pub orientation: u16,
    /// The battle that chose it.
    pub battle: String,
}

/// A campaign, validated.
#[derive(Debug, Clone)]
pub struct Campaign {
    /// `campaign.toml`.
    pub config: CampaignConfig,
    /// `rules.toml` (defaults where absent).
    pub rules: RulesConfig,
    /// Terrain, roads, rivers, settlements.
    pub map: CampaignMap,
    /// `forces.csv`.
    pub oob: OrderOfBattle,
    /// `commanders.csv`.
    pub commanders: Vec<Commander>,
    /// The umpire's own columns of `commanders.csv`, kept for writing back.
    pub commander_columns: Vec<String>,
    /// `map/battle-maps.csv`.
    pub battle_maps: BTreeMap<HexId, BattleMapChoice>,
    /// `returns.csv`: men due back on later turns.
    pub returns: Vec<super::ledger::Return>,
    /// `score.csv`: the campaign score (rule 4.0).
    pub score: Vec<super::ledger::ScoreRow>,
    /// The turn's books: sieges, siege trains, revolts, occupation, years, intelligence,
    /// the Juntas' orders.
    pub books: super::books::Books,
    /// `supply.csv`: what the supply rules remember of each force from the last turn advance.
    pub supply: Vec<super::supply::SupplyRecord>,
    /// `avoidance.csv`: the retreats before battle (8.2) that `move` recorded as caught.
    pub avoidance: Vec<super::supply::Avoidance>,
    /// `trails.csv`: each marched force's trail, the way its supply follows it (3.2), in
    /// force id order.
    pub trails: Vec<super::supply::Trail>,
    /// `roads-seen.csv`: the hexes with a secondary road the French have passed through.
    pub roads_seen: Vec<super::supply::RoadSeen>,
    /// `decisions.csv`: each side's advice of the enemy on contact and its decision to fight
    /// or withdraw (8.1, 8.2, 8.5).
    pub decisions: Vec<super::decisions::ContactDecision>,
    /// `messages.csv`: the messages and orders the enemy caught on their way (6.3.1).
    pub messages: Vec<super::orders::Intercepted>,
    /// `standing-orders.csv`: the marches ordered beyond one turn, still to go (`move`).
    pub standing: Vec<super::standing::StandingOrder>,
    /// How each CSV file read was saved (by file name), to write it back the same way.
    pub dialects: BTreeMap<&'static str, Dialect>,
}

impl Campaign {
    /// The current turn.
    pub fn turn(&self) -> Turn {
        Turn(self.config.turn)
    }
    /// How to write one of the campaign's CSV files: as it was saved, or, for a file not
    /// there yet, as the order of battle was (so that a new file opens in the same
    /// spreadsheet the same way).
    pub fn dialect(&self, file: &str) -> Dialect {
        self.dialects.get(file).or_else(|| self.dialects.get("forces.csv")).copied().unwrap_or_default()
    }

    /// The score row of a side and campaign year (rule 4.0), created when absent.
    pub fn score_row(&mut self, year: u32, side: super::Side) -> &mut super::ledger::ScoreRow {
        let i = match self.score.iter().position(|r| r.year == year && r.side == side) {
            Some(i) => i,
            None => {
                self.score.push(super::ledger::ScoreRow::new(year, side));
                self.score.len() - 1
            }
        };
        &mut self.score[i]
    }

    /// A commander by name.
    pub fn commander(&self, name: &str) -> Option<&Commander> {
        self.commanders.iter().find(|c| c.name == name)
    }
}
