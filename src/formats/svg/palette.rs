//! The colours of every picture, in one place: the map legend's (rule 1.2) for the ground,
//! roads and rivers and the settlement symbols, and one colour per side and per nation.

use crate::model::{Control, Nation, Side, Terrain};

/// Low-lying land or farmland: the legend's white/yellow.
pub const LOW: &str = "#f7f0d0";
/// Higher ground or mountain: the legend's orange/brown.
pub const HIGH: &str = "#dba66a";
/// Thick forest on low ground.
pub const FOREST_LOW: &str = "#b5d39a";
/// Thick forest on high ground.
pub const FOREST_HIGH: &str = "#9fae6a";
/// The sea.
pub const SEA: &str = "#b7d3ea";
/// The coastline: the sides between sea and land hexes.
pub const COAST: &str = "#3f6f94";
/// A national border (Portugal, Spain, France).
pub const BORDER: &str = "#6b2d6b";
/// A province's border, and its name.
pub const PROVINCE: &str = "#9a6b9a";
/// Hex outlines.
pub const HEX_LINE: &str = "#c9bfa0";
/// Hex ids.
pub const HEX_ID: &str = "#8a826a";
/// Roads: the legend's brown line (broken for a secondary road).
pub const ROAD: &str = "#8b4a1c";
/// Major rivers: the legend's blue line.
pub const RIVER: &str = "#2a6fd6";
/// A town's or fortress town's symbol: black.
pub const TOWN: &str = "#111111";
/// A city's or fortress city's symbol: red.
pub const CITY: &str = "#d0181b";
/// Text.
pub const INK: &str = "#1a1a1a";
/// A line of supply (3.1).
pub const SUPPLY: &str = "#2e8b57";
/// Where a line of supply is cut (3.3).
pub const CUT: &str = "#d62728";
/// A contact between two forces.
pub const CONTACT: &str = "#7a0a6e";

/// The colour of a side's forces.
pub fn side(s: Side) -> &'static str {
    match s {
        Side::French => "#1f4fa8",
        Side::Allies => "#c0392b",
    }
}

/// The colour of a nation, for who holds a settlement.
pub fn nation(n: Nation) -> &'static str {
    match n {
        Nation::Fr => "#1f4fa8",
        Nation::Sp => "#e0a800",
        Nation::Po => "#1e8a4c",
        Nation::Br => "#c0392b",
    }
}

/// The colour of a settlement's control: its nation's, grey for civil unrest.
pub fn control(c: Control) -> &'static str {
    match c {
        Control::Nation(n) => nation(n),
        Control::Unrest => "#8c8c8c",
    }
}

/// The fill of a hex by its ground.
pub fn ground(t: Terrain, forest: bool) -> &'static str {
    match (t, forest) {
        (Terrain::Low, false) => LOW,
        (Terrain::High, false) => HIGH,
        (Terrain::Low, true) => FOREST_LOW,
        (Terrain::High, true) => FOREST_HIGH,
        (Terrain::Sea, _) => SEA,
    }
}
