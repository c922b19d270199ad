//! The pure campaign model: values only, no file system, clock or dice.

pub mod battle;
pub mod books;
pub mod calendar;
pub mod calibration;
pub mod campaign;
pub mod carryover;
pub mod catalogue;
pub mod chain;
pub mod commander;
pub mod config;
pub mod decisions;
pub mod dialect;
pub mod hex;
pub mod kinds;
pub mod ledger;
pub mod limits;
pub mod map;
pub mod oob;
pub mod orders;
pub mod result;
pub mod roll;
pub mod standing;
pub mod supply;

pub use calendar::{Season, Turn};
pub use campaign::{BattleMapChoice, Campaign};
pub use commander::{Commander, Player};
pub use config::{CampaignConfig, RulesConfig};
pub use hex::{Direction, HexGrid, HexId, HexIdError, HexIdFault, HexLayout};
pub use kinds::{Arm, ArmClass, Level, Nation, Quality, Side, Status, StatusKind, Supply};
pub use map::{
    CampaignMap, Control, HexInfo, NOT_SPAIN, Region, RoadClass, Settlement, SettlementKind, Side2, Terrain,
    country_of,
};
pub use oob::{ForcePlace, GarrisonUnits, OrderOfBattle, Rare, Strength, Unit, UnitKey};
pub mod vocabulary;
pub use chain::Chain;
