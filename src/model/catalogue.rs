//! The catalogue of SoW battle maps (`sow-maps/catalogue.csv`) as values: what the battle map
//! choice (rule 8.4, `rules::map_choice`) scores a hex's features against.

use std::collections::BTreeSet;

/// A map of the catalogue (`sow-maps/catalogue.csv`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CatalogueMap {
    /// SoW map id.
    pub id: String,
    /// Display name.
    pub name: String,
    /// Size multiplier (world size = multiplier × profile's world units).
    pub multiplier: u32,
    /// Terrain tags: town, river, fortification, forest, hills, open.
    pub tags: BTreeSet<String>,
    /// Where it comes from.
    pub source: String,
}

/// The terrain tags the catalogue and the features use.
pub const TAGS: [&str; 6] = ["town", "river", "fortification", "forest", "hills", "open"];
