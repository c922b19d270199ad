//! The battle record (`battles/<id>/battle.json`): everything export decided and wrote, and
//! the chain map that joins the game's dump back to campaign units. Apply, watch, undo and
//! audit read it; it is the single source of truth about one battle.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::chain::Chain;
use super::hex::HexId;
use super::kinds::Side;
use super::roll::Roll;

/// When the battlescript runs the final dumps: seconds before `endscenario`, `dumplocs`
/// first, then `dumpdead`, then `dumpgamedb`. The finality check relies on that order: the
/// final dump is the one written just after the `startlocs.csv` of the final `dumplocs`.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalDumps {
    /// Seconds before the end of the final `dumplocs` (writes `startlocs.csv`).
    pub dumplocs: u32,
    /// Seconds before the end of the final `dumpdead`.
    pub dumpdead: u32,
    /// Seconds before the end of the final `dumpgamedb`.
    pub dumpgamedb: u32,
}

impl FinalDumps {
    /// The margins of battles exported before they were a setting: 3, 2 and 1 seconds.
    pub const LEGACY: FinalDumps = FinalDumps { dumplocs: 3, dumpdead: 2, dumpgamedb: 1 };

    /// Why these margins cannot be written, if they cannot: the order must be `dumplocs`,
    /// `dumpdead`, `dumpgamedb`, each at least a second before the next, the last at least
    /// a second before the end.
    pub fn fault(&self) -> Option<String> {
        let FinalDumps { dumplocs, dumpdead, dumpgamedb } = *self;
        if dumpgamedb == 0 {
            return Some("the final dumpgamedb must come at least 1 s before endscenario".to_string());
        }
        if !(dumplocs > dumpdead && dumpdead > dumpgamedb) {
            return Some(format!(
                "the final dumps must run dumplocs, then dumpdead, then dumpgamedb (seconds before the end: \
                 {dumplocs}, {dumpdead}, {dumpgamedb} are not in falling order)"
            ));
        }
        None
    }

    /// Seconds from the final `dumplocs` to the final `dumpgamedb`.
    pub fn gap(&self) -> u32 {
        self.dumplocs.saturating_sub(self.dumpgamedb)
    }

    /// `40 s, 35 s and 30 s`: the margins in words.
    pub fn describe(&self) -> String {
        format!(
            "dumplocs {} s, dumpdead {} s and dumpgamedb {} s before endscenario",
            self.dumplocs, self.dumpdead, self.dumpgamedb
        )
    }
}

/// [`FinalDumps::LEGACY`], for records written before the margins were recorded.
pub fn legacy_final_dumps() -> FinalDumps {
    FinalDumps::LEGACY
}

/// Where a battle stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum BattleState {
    /// Exported, waiting for its result.
    Exported,
    /// Its result was applied.
    Applied,
    /// Its result was applied, then undone; waiting again.
    Undone,
    /// Replaced by a later export of the same hex.
    Replaced,
    /// Cancelled by the umpire (`battle cancel`): it will not be fought, its forces are free.
    Cancelled,
}

impl BattleState {
    /// The state in the umpire's words, as `battles` lists it.
    pub fn word(self) -> &'static str {
        match self {
            BattleState::Exported => "exported",
            BattleState::Applied => "applied",
            BattleState::Undone => "undone",
            BattleState::Replaced => "replaced",
            BattleState::Cancelled => "cancelled",
        }
    }

    /// True while a result may be applied to it.
    pub fn is_pending(self) -> bool {
        matches!(self, BattleState::Exported | BattleState::Undone)
    }
}

/// The part a force plays.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// In the battle hex, or an enemy in contact with one there.
    Principal,
    /// In the zone of control of a principal (8.6): arrives late.
    Joiner,
}

/// A force taking part.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Participant {
    /// Top-level force id.
    pub force: String,
    /// Its name.
    pub name: String,
    /// Side.
    pub side: Side,
    /// Its campaign hex.
    pub hex: HexId,
    /// Principal or joiner.
    pub role: Role,
    /// Hexes from the battle hex.
    pub distance: u32,
    /// Campaign bearing from the battle hex, degrees (None when in the battle hex).
    pub bearing: Option<f64>,
    /// Map edge it enters by (joiners) or deploys toward.
    pub edge: String,
    /// River crossed on its way to the battle hex, if any.
    pub crosses_river: Option<String>,
    /// Entry delay in minutes (joiners).
    pub delay_minutes: u32,
    /// True when `--delay` set the delay.
    pub delay_overridden: bool,
    /// Out of supply (rule 3.1).
    pub out_of_supply: bool,
}

/// A light-cavalry brigade kept in reserve (8.7).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Reserve {
    /// Campaign id of the brigade.
    pub unit: String,
    /// Its name.
    pub name: String,
    /// Side.
    pub side: Side,
    /// Squadrons.
    pub squadrons: u32,
    /// Men.
    pub men: u32,
    /// The brigade commander.
    pub commander: String,
}

/// What kind of SoW row a chain is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RowKind {
    /// A commander of a campaign formation.
    Commander,
    /// An acting commander for a level the campaign lacks.
    Acting,
    /// A battalion, cavalry regiment or squadron.
    Unit,
    /// A battery's commander.
    Battery,
    /// One gun of a battery.
    Gun,
    /// An army courier.
    Courier,
    /// A supply wagon.
    Wagon,
}

/// One SoW row ⇄ campaign unit.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChainEntry {
    /// SoW hierarchy chain.
    pub chain: Chain,
    /// The row's SoW id.
    pub id: String,
    /// Kind.
    pub kind: RowKind,
    /// Campaign unit or formation it stands for (none for couriers, wagons, acting rows).
    pub unit: Option<String>,
    /// Display name written.
    pub name: String,
    /// Men exported on this row.
    pub men: u32,
    /// Gun number within its battery (gun rows).
    pub gun: Option<u32>,
    /// Ammunition written on the row.
    #[serde(default)]
    pub ammo: u32,
}

/// An objective on the battle map.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct ObjectiveRecord {
    /// Name.
    pub name: String,
    /// The battle's major objective.
    pub major: bool,
    /// Position (loc x, loc z).
    pub at: (f64, f64),
    /// Points for holding it at the end.
    pub points: u32,
}

/// A campaign unit as exported.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct ExportedUnit {
    /// Campaign id.
    pub unit: String,
    /// Top-level force.
    pub force: String,
    /// Side.
    pub side: Side,
    /// Men exported.
    pub men: u32,
    /// Guns exported.
    pub guns: u32,
    /// Squadrons.
    pub squadrons: u32,
    /// Ammunition exported, per cent of a full load.
    pub ammo: u32,
}

/// The battle map and orientation.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct MapRecord {
    /// SoW map id.
    pub id: String,
    /// Orientation in degrees.
    pub orientation: u16,
    /// True when taken from `map/battle-maps.csv`.
    pub reused: bool,
    /// How it was chosen.
    pub reason: String,
    /// Features of the hex that were scored.
    pub features: Vec<String>,
}

/// The applied result of a battle.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct AppliedResult {
    /// SHA-256 of the result file.
    pub hash: String,
    /// File name it came from.
    pub file: String,
    /// Journal sequence number of the application.
    pub journal_seq: u64,
    /// Winner (None: draw).
    pub winner: Option<Side>,
}

/// The line of retreat of the side that tried to avoid battle (rule 8.2): from the battle hex
/// toward its depot.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct LineOfRetreat {
    /// The side avoiding battle.
    pub side: Side,
    /// The depot it retreats toward.
    pub toward: String,
    /// The depot's hex.
    pub hex: HexId,
    /// Campaign bearing from the battle hex, degrees clockwise from north.
    pub bearing: f64,
}

/// A rule the umpire overruled for a battle (`export --overrule RULE`): the ruling stands,
/// and the record keeps what the rule would have said.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Overruling {
    /// Rule number, e.g. `2.5.3`.
    pub rule: String,
    /// The refusal the rule would have given.
    pub refusal: String,
}

/// `battles/<id>/battle.json`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct BattleRecord {
    /// Deterministic id: turn and hex (`T20-18.28`).
    pub id: String,
    /// State.
    pub state: BattleState,
    /// Campaign turn of the battle.
    pub turn: u32,
    /// Battle hex.
    pub hex: HexId,
    /// Name of the place (settlement) or the hex.
    pub place: String,
    /// Attacking side and why.
    pub attacker: Side,
    /// Why that side attacks.
    pub attacker_reason: String,
    /// Side that tried to refuse battle (8.2), if any.
    pub avoiding: Option<Side>,
    /// That side's line of retreat (8.2), when its depot is known.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub line_of_retreat: Option<LineOfRetreat>,
    /// Principals and joiners.
    pub participants: Vec<Participant>,
    /// Forces left out by `--exclude`.
    pub excluded: Vec<String>,
    /// Units left out as unavailable (6.5.2.4).
    pub unavailable: Vec<String>,
    /// Units with no men present (every man lost, returns still to come) and the formations
    /// they leave empty, left out of the SoW order of battle.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub no_men: Vec<String>,
    /// The defender's units beyond a fortress-town's (or the Alcázar's) 10,000 men, outside
    /// its walls and out of the battle (2.5.1, 2.5.3).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub outside_walls: Vec<String>,
    /// Light-cavalry reserves (8.7).
    pub reserves: Vec<Reserve>,
    /// Rules the umpire overruled at export (`--overrule RULE`), with the refusal each
    /// would have given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub overruled: Vec<Overruling>,
    /// Map.
    pub map: MapRecord,
    /// SoW profile used.
    pub profile: String,
    /// Campaign seed.
    pub seed: u64,
    /// Every die rolled for this battle, in order.
    pub dice: Vec<Roll>,
    /// SoW army index of each side (distinct from other pending battles).
    pub army_index: BTreeMap<Side, u8>,
    /// Battle start and end times.
    pub start_time: String,
    /// End time (final dumps just before it).
    pub end_time: String,
    /// When the final dumps ran before the end (a record without them predates the setting:
    /// 3, 2 and 1 seconds).
    #[serde(default = "legacy_final_dumps")]
    pub final_dumps: FinalDumps,
    /// Chain map: every row written.
    pub chains: Vec<ChainEntry>,
    /// Every campaign unit exported.
    pub units: Vec<ExportedUnit>,
    /// Objectives on the map.
    #[serde(default)]
    pub objectives: Vec<ObjectiveRecord>,
    /// Output folder and file names.
    pub scenario_dir: String,
    /// OOB file.
    pub oob: String,
    /// SHA-256 of each written file, by path relative to the output folder.
    pub files: BTreeMap<String, String>,
    /// The applied result, once applied.
    pub result: Option<AppliedResult>,
}

impl BattleRecord {
    /// The place of a battle fought in a hex without a settlement: the hex itself.
    pub fn hex_as_place(hex: HexId) -> String {
        format!("hex {hex}")
    }

    /// Where the battle is fought, as every title and report names it: the place and its
    /// hex (`Medellin (18.28)`), or the hex alone where it has no settlement (`hex 18.29`).
    pub fn site(&self) -> String {
        if self.place == Self::hex_as_place(self.hex) {
            self.place.clone()
        } else {
            format!("{} ({})", self.place, self.hex)
        }
    }

    /// Forces of a side.
    pub fn forces(&self, side: Side) -> impl Iterator<Item = &Participant> {
        self.participants.iter().filter(move |p| p.side == side)
    }
}
