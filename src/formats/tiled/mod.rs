//! The campaign's map as a Tiled map (mapeditor.org, JSON `.tmj`), for the umpire to edit
//! over his own map image: written from the campaign, read back after editing, and turned
//! into the map's files with only what changed.

mod files;
pub mod geometry;
mod png;
mod read;
mod write;

pub use files::{CurrentFiles, MapChanges, MapFiles, SettlementChange, map_files};
pub use geometry::{HexSize, Pixels};
pub use png::tileset_png;
pub use read::{TiledMap, TiledSettlement, read_tmj};
pub use write::{TiledExport, write_tmj};

/// The layers sowbridge writes, by name.
pub mod layer {
    /// The umpire's own map image.
    pub const IMAGE: &str = "your map";
    /// Low ground, high ground or sea, one tile per hex.
    pub const TERRAIN: &str = "terrain";
    /// Thick forest, one tile per forested hex.
    pub const FOREST: &str = "forest";
    /// Roads, polylines from hex centre to hex centre.
    pub const ROADS: &str = "roads";
    /// Major rivers, polylines from hex corner to hex corner.
    pub const RIVERS: &str = "rivers";
    /// Settlements, points.
    pub const SETTLEMENTS: &str = "settlements";
    /// The hexes' notes, points.
    pub const NOTES: &str = "notes";
}

/// Property names.
pub mod prop {
    /// The map's: the campaign turn it was written at.
    pub const TURN: &str = "sowbridge-turn";
    /// The map's: the campaign's name.
    pub const CAMPAIGN: &str = "campaign";
    /// A tile's ground: `low`, `high` or `sea`.
    pub const TERRAIN: &str = "terrain";
    /// A tile's forest flag.
    pub const FOREST: &str = "forest";
    /// A road's class: `major` or `secondary`.
    pub const CLASS: &str = "class";
}

/// Tile numbers in the map file (tileset order, from 1).
pub const LOW_TILE: u32 = 1;
/// High ground.
pub const HIGH_TILE: u32 = 2;
/// Thick forest.
pub const FOREST_TILE: u32 = 3;
/// Sea.
pub const SEA_TILE: u32 = 4;
