//! The strategic map: terrain per hex, roads and major rivers along hex sides, and
//! settlements (rule 2.4).

use std::collections::{BTreeMap, BTreeSet};

use super::hex::{HexGrid, HexId};
use super::kinds::Side;

/// Ground of a hex (rule 1.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Terrain {
    /// Low-lying land or farmland (the default for unlisted hexes).
    #[default]
    Low,
    /// Higher ground or mountain.
    High,
    /// Sea: no land force enters it (1.2: only land is "traversable by military forces"),
    /// and no road, river or settlement lies in it.
    Sea,
}

impl Terrain {
    /// The word in `map/hexes.csv`.
    pub fn word(self) -> &'static str {
        match self {
            Terrain::Low => "low",
            Terrain::High => "high",
            Terrain::Sea => "sea",
        }
    }
}

/// What `map/hexes.csv` says of one hex.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct HexInfo {
    /// Ground.
    pub terrain: Terrain,
    /// Thick forest.
    pub forest: bool,
    /// The umpire's notes.
    pub notes: String,
    /// The province the hex lies in, in the words of `settlements.csv`'s `province` column:
    /// a Spanish province of 2.2, or a country outside Spain (`Portugal`, `France`, …);
    /// empty where the map gives none (and at sea).
    pub province: String,
}

/// Provinces of the map that are not Spain's (2.2): each is its own country.
pub const NOT_SPAIN: [&str; 6] = ["Portugal", "France", "Gibraltar", "Andorra", "Morocco", "Algeria"];

/// The country a province lies in: a province outside Spain is its own country, every other
/// is Spain's; none for no province.
pub fn country_of(province: &str) -> Option<&str> {
    match province.trim() {
        "" => None,
        p => Some(NOT_SPAIN.iter().find(|n| n.eq_ignore_ascii_case(p)).copied().unwrap_or("Spain")),
    }
}

/// Class of road (rule 1.2 and the 13 July 2014 secondary-road rule).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum RoadClass {
    /// Militarily useful road.
    Major,
    /// Secondary road: one hex of allowance lost, two for artillery.
    Secondary,
}

/// An unordered pair of adjacent hexes: a hex side.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Side2(HexId, HexId);

impl Side2 {
    /// The side between two hexes, in canonical order.
    pub fn new(a: HexId, b: HexId) -> Self {
        if a <= b { Side2(a, b) } else { Side2(b, a) }
    }
    /// The two hexes.
    pub fn hexes(&self) -> (HexId, HexId) {
        (self.0, self.1)
    }
}

/// Kind of settlement (rule 2.4).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum SettlementKind {
    /// A capital (2.4.1).
    Capital,
    /// An open city (2.4.2).
    City,
    /// A fortress city (2.4.3).
    FortressCity,
    /// A fortress town (2.4.4).
    FortressTown,
    /// An open town (2.4.6).
    Town,
    /// A village or minor town (2.1.3).
    Village,
}

impl SettlementKind {
    /// Every kind, most important first.
    pub const ALL: [SettlementKind; 6] = [
        SettlementKind::Capital,
        SettlementKind::City,
        SettlementKind::FortressCity,
        SettlementKind::FortressTown,
        SettlementKind::Town,
        SettlementKind::Village,
    ];
    /// The word in `settlements.csv`.
    pub fn word(self) -> &'static str {
        match self {
            SettlementKind::Capital => "capital",
            SettlementKind::City => "city",
            SettlementKind::FortressCity => "fortress-city",
            SettlementKind::FortressTown => "fortress-town",
            SettlementKind::Town => "town",
            SettlementKind::Village => "village",
        }
    }
    /// Importance for choosing a battle's major objective (higher first).
    pub fn importance(self) -> u8 {
        match self {
            SettlementKind::Capital => 6,
            SettlementKind::FortressCity => 5,
            SettlementKind::City => 4,
            SettlementKind::FortressTown => 3,
            SettlementKind::Town => 2,
            SettlementKind::Village => 1,
        }
    }
    /// True for fortress cities and fortress towns.
    pub fn is_fortress(self) -> bool {
        matches!(self, SettlementKind::FortressCity | SettlementKind::FortressTown)
    }
    /// True for a city, fortress city or capital (where a withdrawing loser may stop, 8.4).
    pub fn is_city_or_fortress(self) -> bool {
        !matches!(self, SettlementKind::Town | SettlementKind::Village)
    }
}

impl std::str::FromStr for SettlementKind {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim();
        SettlementKind::ALL.into_iter().find(|k| k.word().eq_ignore_ascii_case(t)).ok_or_else(|| {
            format!(
                "unknown settlement kind '{t}' (expected one of: capital, city, fortress-city, fortress-town, town, village)"
            )
        })
    }
}

/// Who a settlement is friendly to (rule 2.4.8).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
pub enum Control {
    /// Friendly to a nation.
    Nation(super::kinds::Nation),
    /// Civil unrest, unfriendly to all (`-`).
    Unrest,
}

impl Control {
    /// The side the settlement is friendly to, if any.
    pub fn side(self) -> Option<Side> {
        match self {
            Control::Nation(n) => Some(n.side()),
            Control::Unrest => None,
        }
    }
}

impl std::fmt::Display for Control {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Control::Nation(n) => write!(f, "{n}"),
            Control::Unrest => f.write_str("-"),
        }
    }
}

/// One row of `settlements.csv`.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Settlement {
    /// Name as the rules spell it.
    pub name: String,
    /// Hex.
    pub hex: HexId,
    /// Kind.
    pub kind: SettlementKind,
    /// A marked port.
    pub port: bool,
    /// A marked depot.
    pub depot: bool,
    /// Province, where given.
    pub province: String,
    /// Who it is friendly to now: the `control` column as read, until the rules compute it
    /// from the garrisons (`rules::control`, applied once to the campaign value).
    pub control: Control,
    /// The `control` column as read: the state the campaign was left in (civil unrest goes
    /// on until a place is garrisoned, 2.1). The computation of control starts from it.
    pub typed: Control,
    /// The nation investing it, if any.
    pub invested_by: Option<super::kinds::Nation>,
    /// A citadel inside an open city (Toledo's Alcázar, rule 2.5.3).
    pub citadel: bool,
    /// Which side of the Pyrenees it lies on (2.1.1, 2.1.2).
    pub region: Region,
    /// The umpire's overrule of the computed control (rules::control), when set.
    pub overrule: Option<Control>,
}

/// Which side of the Pyrenees a settlement lies on: the garrisons that make it friendly
/// differ (2.1.1, 2.1.2).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Default, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Region {
    /// Spain and Portugal.
    #[default]
    South,
    /// France.
    North,
}

impl Region {
    /// The word in `settlements.csv`.
    pub fn word(self) -> &'static str {
        match self {
            Region::South => "south",
            Region::North => "north",
        }
    }
}

impl std::str::FromStr for Region {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.trim().to_ascii_lowercase().as_str() {
            "south" => Ok(Region::South),
            "north" => Ok(Region::North),
            other => Err(format!("unknown region '{other}' (expected south or north, of the Pyrenees)")),
        }
    }
}

/// Terrain, roads, rivers and settlements.
#[derive(Debug, Clone, PartialEq)]
pub struct CampaignMap {
    /// Extent and layout.
    pub grid: HexGrid,
    /// Listed hexes.
    pub hexes: BTreeMap<HexId, HexInfo>,
    /// Roads by hex side.
    pub roads: BTreeMap<Side2, RoadClass>,
    /// Major rivers by hex side, with the river's name.
    pub rivers: BTreeMap<Side2, String>,
    /// Settlements in file order.
    pub settlements: Vec<Settlement>,
}

impl CampaignMap {
    /// What is known of a hex (defaults for unlisted hexes).
    pub fn hex(&self, h: HexId) -> HexInfo {
        self.hexes.get(&h).cloned().unwrap_or_default()
    }
    /// The ground of a hex (the default for an unlisted hex), without copying its notes.
    pub fn terrain(&self, h: HexId) -> Terrain {
        self.hexes.get(&h).map(|i| i.terrain).unwrap_or_default()
    }
    /// True for a sea hex.
    pub fn is_sea(&self, h: HexId) -> bool {
        self.hexes.get(&h).is_some_and(|i| i.terrain == Terrain::Sea)
    }
    /// The province the map gives a hex, if any.
    pub fn province(&self, h: HexId) -> Option<&str> {
        self.hexes.get(&h).map(|i| i.province.as_str()).filter(|p| !p.is_empty())
    }
    /// The road between two adjacent hexes, if any.
    pub fn road(&self, a: HexId, b: HexId) -> Option<RoadClass> {
        self.roads.get(&Side2::new(a, b)).copied()
    }
    /// The major river along the side between two hexes, if any.
    pub fn river(&self, a: HexId, b: HexId) -> Option<&str> {
        self.rivers.get(&Side2::new(a, b)).map(String::as_str)
    }
    /// A road bridge: a road and a major river on the same hex side.
    pub fn bridge(&self, a: HexId, b: HexId) -> bool {
        self.road(a, b).is_some() && self.river(a, b).is_some()
    }
    /// Settlements in a hex, most important first (file order among equals).
    pub fn settlements_in(&self, h: HexId) -> Vec<&Settlement> {
        let mut v: Vec<&Settlement> = self.settlements.iter().filter(|s| s.hex == h).collect();
        v.sort_by_key(|s| std::cmp::Reverse(s.kind.importance()));
        v
    }
    /// Hexes joined to `h` by a road.
    pub fn road_neighbours(&self, h: HexId) -> Vec<(HexId, RoadClass)> {
        self.grid.neighbours(h).filter_map(|n| self.road(h, n).map(|c| (n, c))).collect()
    }
    /// Names of the rivers along any side of `h`.
    pub fn rivers_around(&self, h: HexId) -> BTreeSet<&str> {
        self.grid.neighbours(h).filter_map(|n| self.river(h, n)).collect()
    }
}
