//! The small vocabularies of the campaign: nations and sides, arms, levels of the order of
//! battle, quality and supply. Each parses from the word the umpire types in the CSV files
//! and prints back the same word.

use std::fmt;
use std::str::FromStr;

macro_rules! word_enum {
    ($(#[$m:meta])* $name:ident, $what:literal { $($(#[$vm:meta])* $var:ident = $word:literal),+ $(,)? }) => {
        $(#[$m])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name { $($(#[$vm])* $var),+ }

        impl $name {
            /// Every value, in declaration order.
            pub const ALL: &'static [$name] = &[$($name::$var),+];
            /// The word used in the campaign files.
            pub fn word(self) -> &'static str {
                match self { $($name::$var => $word),+ }
            }
        }

        impl fmt::Display for $name {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str(self.word())
            }
        }

        impl FromStr for $name {
            type Err = String;
            fn from_str(s: &str) -> Result<Self, Self::Err> {
                // The word as sowbridge writes it, matched at once (a large order of battle
                // has hundreds of thousands); then trimmed, in any case.
                match s {
                    $($word => return Ok($name::$var),)+
                    _ => {}
                }
                let t = s.trim();
                match t {
                    $($word => return Ok($name::$var),)+
                    _ => {}
                }
                $name::ALL
                    .iter()
                    .copied()
                    .find(|v| v.word().eq_ignore_ascii_case(t))
                    .ok_or_else(|| {
                        let all: Vec<&str> = $name::ALL.iter().map(|v| v.word()).collect();
                        format!("unknown {} '{}' (expected one of: {})", $what, t, all.join(", "))
                    })
            }
        }

        impl serde::Serialize for $name {
            fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
                s.serialize_str(self.word())
            }
        }

        impl<'de> serde::Deserialize<'de> for $name {
            fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
                let s = String::deserialize(d)?;
                s.parse().map_err(serde::de::Error::custom)
            }
        }
    };
}

word_enum!(
    /// A nation of the campaign (rule 2.4's control letters).
    Nation, "nation" {
        /// France and her allies in French service.
        Fr = "Fr",
        /// Spain.
        Sp = "Sp",
        /// Portugal.
        Po = "Po",
        /// Britain.
        Br = "Br",
    }
);

word_enum!(
    /// The two sides of the campaign: France, and the alliance of Spain, Portugal and Britain.
    Side, "side" {
        /// The French.
        French = "French",
        /// Spain, Portugal and Britain (rule 2.1.2).
        Allies = "Allies",
    }
);

impl Nation {
    /// The side the nation fights on.
    pub fn side(self) -> Side {
        match self {
            Nation::Fr => Side::French,
            _ => Side::Allies,
        }
    }
}

impl Side {
    /// The other side.
    pub fn enemy(self) -> Side {
        match self {
            Side::French => Side::Allies,
            Side::Allies => Side::French,
        }
    }
    /// Lower-case word for file names and command-line values.
    pub fn slug(self) -> &'static str {
        match self {
            Side::French => "french",
            Side::Allies => "allies",
        }
    }
    /// SoW side index (1 or 2).
    pub fn sow_index(self) -> u8 {
        match self {
            Side::French => 1,
            Side::Allies => 2,
        }
    }
}

word_enum!(
    /// The arm of a unit.
    Arm, "arm" {
        /// Line infantry.
        Line = "line",
        /// Light infantry (légère, cazadores, rifles).
        Light = "light",
        /// Grenadiers and converged élite companies.
        Grenadier = "grenadier",
        /// Dragoons.
        Dragoon = "dragoon",
        /// Light cavalry: hussars, chasseurs, lancers.
        LightCavalry = "light-cavalry",
        /// Heavy cavalry: cuirassiers, carabiniers, heavy dragoons.
        HeavyCavalry = "heavy-cavalry",
        /// Foot artillery.
        FootArtillery = "foot-artillery",
        /// Horse artillery.
        HorseArtillery = "horse-artillery",
    }
);

/// Broad class of an arm.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ArmClass {
    /// Foot.
    Infantry,
    /// Horse.
    Cavalry,
    /// Guns.
    Artillery,
}

impl Arm {
    /// Infantry, cavalry or artillery.
    pub fn class(self) -> ArmClass {
        match self {
            Arm::Line | Arm::Light | Arm::Grenadier => ArmClass::Infantry,
            Arm::Dragoon | Arm::LightCavalry | Arm::HeavyCavalry => ArmClass::Cavalry,
            Arm::FootArtillery | Arm::HorseArtillery => ArmClass::Artillery,
        }
    }
}

word_enum!(
    /// A level of the order of battle: formations with a commander, then units.
    Level, "level" {
        /// An army (SoW level 2).
        Army = "army",
        /// A corps (SoW level 3).
        Corps = "corps",
        /// A division (SoW level 4).
        Division = "division",
        /// A brigade (SoW level 5).
        Brigade = "brigade",
        /// An infantry battalion.
        Battalion = "battalion",
        /// A cavalry regiment of one or more squadrons.
        Regiment = "regiment",
        /// A single cavalry squadron.
        Squadron = "squadron",
        /// An artillery battery of guns.
        Battery = "battery",
    }
);

impl Level {
    /// True for army, corps, division and brigade: rows that command others.
    pub fn is_formation(self) -> bool {
        matches!(self, Level::Army | Level::Corps | Level::Division | Level::Brigade)
    }
    /// Rank of a formation, 0 for the army; units rank below every formation.
    pub fn rank(self) -> u8 {
        match self {
            Level::Army => 0,
            Level::Corps => 1,
            Level::Division => 2,
            Level::Brigade => 3,
            _ => 4,
        }
    }
}

word_enum!(
    /// Quality of a unit or formation, mapped to SoW attribute levels by the vocabulary.
    Quality, "quality" {
        /// Armed peasantry and newly raised militia.
        Militia = "militia",
        /// Conscripts and raw levies.
        Conscript = "conscript",
        /// Trained regulars (the default).
        Trained = "trained",
        /// Veterans.
        Veteran = "veteran",
        /// Élite regiments.
        Elite = "elite",
        /// The Guard.
        Guard = "guard",
    }
);

word_enum!(
    /// Supply state of a force (rule 3).
    Supply, "supply" {
        /// In supply.
        In = "in",
        /// Supply line cut (rule 3.3).
        Out = "out",
    }
);

word_enum!(
    /// A penalty carried by a unit until a turn (rule 6.5.2).
    StatusKind, "status" {
        /// Unavailable for combat (6.5.2.4).
        Unavailable = "unavailable",
        /// Ammunition halved (6.5.2.2).
        AmmoHalved = "ammo-halved",
        /// Ammunition wagons lost (6.5.2.1).
        NoWagons = "no-wagons",
    }
);

/// A penalty and the turn on which it ends (`kind:turn` in `forces.csv`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Status {
    /// The penalty.
    pub kind: StatusKind,
    /// The turn at whose start the penalty ends.
    pub until: u32,
}

impl fmt::Display for Status {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.kind, self.until)
    }
}

impl FromStr for Status {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let (k, t) = s
            .trim()
            .split_once(':')
            .ok_or_else(|| format!("'{s}' is not a status of the form kind:turn (e.g. unavailable:22)"))?;
        let until =
            t.trim().parse::<u32>().map_err(|_| format!("'{t}' in status '{s}' is not a turn number"))?;
        Ok(Status { kind: k.parse()?, until })
    }
}

/// Parses a `;`-separated status list.
pub fn parse_status_list(s: &str) -> Result<Vec<Status>, String> {
    let mut v = Vec::new();
    if s.is_empty() {
        return Ok(v);
    }
    for part in s.split(';').map(str::trim).filter(|p| !p.is_empty()) {
        v.push(part.parse()?);
    }
    v.sort();
    Ok(v)
}

/// Prints a status list as written in `forces.csv`.
pub fn format_status_list(v: &[Status]) -> String {
    v.iter().map(ToString::to_string).collect::<Vec<_>>().join(";")
}
