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
    /// How the winner is found when `--winner` is not given.
    pub verdict: VerdictRules,
    /// The post-battle carry-over of casualties (3.1, 6.5.2, 8.7).
    #[serde(default)]
    pub carryover: CarryoverRules,
    /// Messengers during the turn (6.3.1): their delay and the interception die.
    #[serde(default)]
    pub messenger: MessengerRules,
}

/// `[messenger]`: how long a messenger takes and how often the enemy catches one (6.3.1 and
/// the umpire's clock: "each takes about 2 days to get there and back, sometimes more").
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct MessengerRules {
    /// Days a messenger rides, one way by road, however far.
    pub days: u32,
    /// Faces of the die for a late messenger.
    pub late_die: u32,
    /// A roll of at least this is a day late, each pip above it one more day.
    pub late_from: u32,
    /// Faces of the interception die: a 1 on it, and a messenger crossing an enemy supply line
    /// is caught ("a 1 in 3 chance").
    pub intercept_die: u32,
}

defaults!(MessengerRules { days: u32 = 1, late_die: u32 = 6, late_from: u32 = 5, intercept_die: u32 = 3 });

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

/// `[verdict]`: the policy that decides a battle without `--winner`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct VerdictRules {
    /// A side wins with at least this many times the other's score.
    pub win_ratio: rust_decimal::Decimal,
    /// An objective is held by the side with more men within this many yards at the end.
    pub holding_radius_yards: u32,
}

defaults!(VerdictRules {
    win_ratio: rust_decimal::Decimal = rust_decimal::Decimal::new(125, 2),
    holding_radius_yards: u32 = 500,
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

/// `[carryover]`: the post-battle casualty carry-over model ("Hay's carry-over software" of
/// rules 6.5.2.3 and 8.7). Shares are fractions of the men in a category (`0.40` is 40 %);
/// the pursuit, rearguard and river figures are *points* of such a share. The rules give
/// no figures of their own: these defaults are sowbridge's reading, each one overridable.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct CarryoverRules {
    /// Share of the wounded that returns to the ranks (after any captured are taken out).
    pub wounded_return: rust_decimal::Decimal,
    /// Share of the loser's wounded abandoned on the field and captured, before any return.
    pub wounded_captured_loser: rust_decimal::Decimal,
    /// Turns after the battle at which the returning wounded rejoin.
    pub wounded_return_turns: u32,
    /// Share of the winner's stragglers (deserted, routed, missing) returning next turn.
    pub straggler_return_winner: rust_decimal::Decimal,
    /// Share of each side's stragglers returning after a draw.
    pub straggler_return_draw: rust_decimal::Decimal,
    /// Share of the loser's stragglers returning; half the rest is captured, half lost.
    pub straggler_return_loser: rust_decimal::Decimal,
    /// Turns after the battle at which the returning stragglers rejoin.
    pub straggler_return_turns: u32,
    /// Rule 3.1: multiplier of the wounded's return share for a unit out of supply.
    pub out_of_supply_wounded: rust_decimal::Decimal,
    /// Rule 3.1: multiplier of the stragglers' return share for a unit out of supply.
    pub out_of_supply_stragglers: rust_decimal::Decimal,
    /// Rule 8.7: points of the loser's straggler return a winner's pursuit turns into captured.
    pub pursuit_stragglers: rust_decimal::Decimal,
    /// Rule 8.7: points a winner's pursuit adds to the loser's captured wounded.
    pub pursuit_wounded: rust_decimal::Decimal,
    /// Rule 8.7: points a loser's own reserve (the rearguard) adds to its straggler return.
    pub rearguard_stragglers: rust_decimal::Decimal,
    /// Rule 8.7: how many times the other's squadrons a reserve needs for a "significant
    /// edge" when both sides kept one; below it the reserves cancel.
    pub reserve_edge: rust_decimal::Decimal,
    /// Rule 6.5.2.3: points of the loser's straggler return lost at a river at its back,
    /// half drowned, half captured.
    pub river_stragglers: rust_decimal::Decimal,
    /// Rules 6.5.2.1, 6.5.2.2 and 6.5.2.4: turns a river penalty lasts ("1 month").
    pub penalty_turns: u32,
}

defaults!(CarryoverRules {
    wounded_return: rust_decimal::Decimal = rust_decimal_macros::dec!(0.40),
    wounded_captured_loser: rust_decimal::Decimal = rust_decimal_macros::dec!(0.30),
    wounded_return_turns: u32 = 4,
    straggler_return_winner: rust_decimal::Decimal = rust_decimal_macros::dec!(0.85),
    straggler_return_draw: rust_decimal::Decimal = rust_decimal_macros::dec!(0.75),
    straggler_return_loser: rust_decimal::Decimal = rust_decimal_macros::dec!(0.55),
    straggler_return_turns: u32 = 1,
    out_of_supply_wounded: rust_decimal::Decimal = rust_decimal_macros::dec!(0.75),
    out_of_supply_stragglers: rust_decimal::Decimal = rust_decimal_macros::dec!(0.6),
    pursuit_stragglers: rust_decimal::Decimal = rust_decimal_macros::dec!(0.25),
    pursuit_wounded: rust_decimal::Decimal = rust_decimal_macros::dec!(0.20),
    rearguard_stragglers: rust_decimal::Decimal = rust_decimal_macros::dec!(0.10),
    reserve_edge: rust_decimal::Decimal = rust_decimal_macros::dec!(1.5),
    river_stragglers: rust_decimal::Decimal = rust_decimal_macros::dec!(0.15),
    penalty_turns: u32 = 2,
});
