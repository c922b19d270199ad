//! `campaign.toml` (the campaign's identity, turn, map and paths) and `rules.toml` (every
//! number of the rules as sowbridge applies them, each with the default it documents).

use serde::{Deserialize, Serialize};

use super::hex::{HexGrid, HexLayout};

/// `campaign.toml`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CampaignConfig {
    /// The campaign's name.
    pub name: String,
    /// Seed of every die the campaign rolls.
    pub seed: u64,
    /// Current turn (1 = early June 1808).
    pub turn: u32,
    /// SoW profile in `templates/` (default `napmod-g1`).
    #[serde(default = "default_profile")]
    pub profile: String,
    /// Map extent and layout.
    pub map: MapConfig,
    /// Folders on the umpire's machine.
    #[serde(default)]
    pub paths: PathsConfig,
}

fn default_profile() -> String {
    "napmod-g1".to_string()
}

/// `[map]` of `campaign.toml`.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct MapConfig {
    /// Columns (hex ids 00..columns-1).
    pub columns: u16,
    /// Rows.
    pub rows: u16,
    /// Offset layout (default `even-columns-down`).
    #[serde(default)]
    pub layout: HexLayout,
}

impl MapConfig {
    /// The hex grid.
    pub fn grid(&self) -> HexGrid {
        HexGrid { columns: self.columns, rows: self.rows, layout: self.layout }
    }
}

/// `[paths]` of `campaign.toml`.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PathsConfig {
    /// SoW `Work` folder: default output of `export` (empty: `./out`).
    #[serde(default)]
    pub sow_work: String,
    /// Folder `watch` reads result files from (empty: the SoW Work folder).
    #[serde(default)]
    pub inbox: String,
}

macro_rules! defaults {
    ($name:ident { $($field:ident : $ty:ty = $val:expr),+ $(,)? }) => {
        impl Default for $name {
            fn default() -> Self {
                $name { $($field: $val),+ }
            }
        }
    };
}

/// `rules.toml`: every number of the rules, overridable by the umpire.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct RulesConfig {
    /// Joiners' entry delays (8.6).
    pub entry: EntryRules,
    /// The battle's clock.
    pub battle: BattleRules,
}

/// `[entry]`: delays of forces joining a battle from adjacent hexes (rule 8.6).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct EntryRules {
    /// Minutes per hex of distance for a force with infantry or artillery.
    pub minutes_per_hex_foot: u32,
    /// Minutes per hex for a wholly cavalry force.
    pub minutes_per_hex_cavalry: u32,
    /// Extra minutes when its way to the battle hex crosses a major river.
    pub river_crossing_minutes: u32,
}

defaults!(EntryRules {
    minutes_per_hex_foot: u32 = 60,
    minutes_per_hex_cavalry: u32 = 40,
    river_crossing_minutes: u32 = 30,
});

/// `[battle]`: the SoW battle's clock.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct BattleRules {
    /// Start time of the battle, `HH:MM:SS`.
    pub start_time: String,
    /// Length of the battle in minutes; the final dumps and `endscenario` fall at its end.
    pub length_minutes: u32,
    /// Minutes between periodic `dumpgamedb` during the battle (0: none).
    pub periodic_dump_minutes: u32,
}

defaults!(BattleRules {
    start_time: String = "10:00:00".to_string(),
    length_minutes: u32 = 300,
    periodic_dump_minutes: u32 = 30,
});
