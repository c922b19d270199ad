//! The SoW vocabulary of a profile: which class, portrait, weapon, ammunition, flags and
//! drill each nation × level × arm gets, and which attribute levels each quality gets.
//! Ids are data, never code: they come from `templates/<profile>/` or the campaign's copy.

use std::fmt;
use std::str::FromStr;

use super::kinds::{Arm, Nation, Quality};

/// A row level of a SoW order of battle, as the vocabulary keys it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum SowLevel {
    /// Side commander (level 1).
    Side,
    /// Army commander (level 2).
    Army,
    /// Corps commander (level 3).
    Corps,
    /// Division commander (level 4).
    Division,
    /// Brigade or battery commander (level 5).
    Brigade,
    /// Battalion, cavalry regiment or squadron (level 6).
    Unit,
    /// One gun of a battery (level 6).
    Gun,
    /// An army's courier.
    Courier,
    /// A supply wagon.
    Wagon,
}

impl SowLevel {
    /// Every level.
    pub const ALL: [SowLevel; 9] = [
        SowLevel::Side,
        SowLevel::Army,
        SowLevel::Corps,
        SowLevel::Division,
        SowLevel::Brigade,
        SowLevel::Unit,
        SowLevel::Gun,
        SowLevel::Courier,
        SowLevel::Wagon,
    ];
    /// The word in the vocabulary files.
    pub fn word(self) -> &'static str {
        match self {
            SowLevel::Side => "side",
            SowLevel::Army => "army",
            SowLevel::Corps => "corps",
            SowLevel::Division => "division",
            SowLevel::Brigade => "brigade",
            SowLevel::Unit => "unit",
            SowLevel::Gun => "gun",
            SowLevel::Courier => "courier",
            SowLevel::Wagon => "wagon",
        }
    }
    /// True for rows that command (levels 1–5): they take leader attributes.
    pub fn is_commander(self) -> bool {
        matches!(
            self,
            SowLevel::Side | SowLevel::Army | SowLevel::Corps | SowLevel::Division | SowLevel::Brigade
        )
    }
}

impl fmt::Display for SowLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.word())
    }
}

impl FromStr for SowLevel {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        let t = s.trim();
        SowLevel::ALL.into_iter().find(|l| l.word().eq_ignore_ascii_case(t)).ok_or_else(|| {
            format!("unknown level '{t}' (expected side, army, corps, division, brigade, unit, gun, courier or wagon)")
        })
    }
}

/// One row of `vocabulary.csv`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct VocabEntry {
    /// Line in the file.
    pub line: u64,
    /// Nation, `None` for `*`.
    pub nation: Option<Nation>,
    /// Level.
    pub level: SowLevel,
    /// Arm, `None` for any.
    pub arm: Option<Arm>,
    /// `unitglobal.csv` class id.
    pub class: String,
    /// Portrait cell `(x-y)`.
    pub portrait: String,
    /// `rifles.csv` / `artillery.csv` id (empty for commanders).
    pub weapon: String,
    /// Full load of ammunition.
    pub ammo: u32,
    /// Flag sprite.
    pub flag: String,
    /// Second flag sprite.
    pub flag2: String,
    /// `drills.csv` id.
    pub formation: String,
    /// Whether the ids were seen in a real install.
    pub verified: bool,
    /// How the row was chosen.
    pub comment: String,
}

/// How a vocabulary's comment marks a row that lends another nation's ids.
pub const BORROWED: &str = "borrowed from";

impl VocabEntry {
    /// The `borrowed from …` clause (up to its colon) when the row lends another nation's
    /// ids because the game has none of its own (the x64 profile's Spanish and Portuguese
    /// rows): `vocab init` replaces such ids with the install's own where it has them.
    pub fn borrowed_from(&self) -> Option<&str> {
        let c = self.comment.trim_start();
        c.get(..BORROWED.len())
            .is_some_and(|h| h.eq_ignore_ascii_case(BORROWED))
            .then(|| c.split(':').next().unwrap_or(c).trim_end())
    }
}

/// Names of the 16 attribute columns of `quality.csv`, in SoW's order.
pub const ATTRIBUTES: [&str; 16] = [
    "ability",
    "command",
    "control",
    "leadership",
    "style",
    "experience",
    "fatigue",
    "morale",
    "close",
    "open",
    "edged",
    "firearm",
    "marksmanship",
    "horsemanship",
    "surgeon",
    "calisthenics",
];

/// SoW `unitattributes.csv` table name of each attribute column (same order).
pub const ATTRIBUTE_TABLES: [&str; 16] = [
    "Ability",
    "Command",
    "Control",
    "Leadership",
    "Style",
    "Experience",
    "Fatigue",
    "Morale",
    "Close",
    "Open",
    "Edged",
    "Firearm",
    "Marksmanship",
    "Horsemanship",
    "Surgeon",
    "Calisthenics",
];

/// One row of `quality.csv`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct QualityEntry {
    /// Line in the file.
    pub line: u64,
    /// Quality.
    pub quality: Quality,
    /// Level, `None` for `*`.
    pub level: Option<SowLevel>,
    /// Attribute levels, blank where the convention leaves them blank.
    pub values: [Option<u8>; 16],
}

/// A profile's vocabulary.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Vocabulary {
    /// Where it came from (a path or `templates/<profile>`), for messages.
    pub source: String,
    /// `vocabulary.csv` rows.
    pub entries: Vec<VocabEntry>,
    /// `quality.csv` rows.
    pub qualities: Vec<QualityEntry>,
}

impl Vocabulary {
    /// The entry for a nation, level and arm: exact, then any arm, then `*` nation with the
    /// arm, then `*` with any arm.
    pub fn lookup(&self, nation: Nation, level: SowLevel, arm: Option<Arm>) -> Option<&VocabEntry> {
        let find = |n: Option<Nation>, a: Option<Arm>| {
            self.entries.iter().find(|e| e.nation == n && e.level == level && e.arm == a)
        };
        arm.and_then(|a| find(Some(nation), Some(a)))
            .or_else(|| find(Some(nation), None))
            .or_else(|| arm.and_then(|a| find(None, Some(a))))
            .or_else(|| find(None, None))
    }

    /// The attribute levels for a quality at a level: exact, then level `*`.
    pub fn quality(&self, q: Quality, level: SowLevel) -> Option<&QualityEntry> {
        self.qualities
            .iter()
            .find(|e| e.quality == q && e.level == Some(level))
            .or_else(|| self.qualities.iter().find(|e| e.quality == q && e.level.is_none()))
    }
}
