//! SoW profiles: the column layouts and conventions of one engine generation
//! (`templates/<name>/profile.toml`) with its vocabulary. The shipped profiles are built
//! into the binary; a campaign may carry its own copy under `templates/<name>/`.

use serde::Deserialize;

use crate::error::Problems;
use crate::model::vocabulary::Vocabulary;

use super::vocabulary::parse_vocabulary;

/// One SoW engine generation's layout switches and conventions.
#[derive(Debug, Clone, PartialEq, Eq, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Profile {
    /// Profile name.
    pub name: String,
    /// What it is for.
    pub description: String,
    /// OOB and sandbox files carry `OOBMOD` after `CLASS`.
    pub oobmod_column: bool,
    /// `scenario.csv` has `BTN` after `REG`; sandbox files a 7th hierarchy column.
    pub btn_column: bool,
    /// `battlescript.csv` has a `FromID` column.
    pub battlescript_fromid: bool,
    /// Sandbox files end with a `Skirmish` column.
    pub skirmish_column: bool,
    /// Name of the intro text file in the scenario folder.
    pub intro_file: String,
    /// Name of the loading-screen text file.
    pub screen_file: String,
    /// File-name pattern of the game's battle dump.
    pub gamedb_pattern: String,
    /// Men of one gun row.
    pub crew_per_gun: u32,
    /// Supply wagons per corps.
    pub wagons_per_corps: u32,
    /// Head count of a wagon row.
    pub wagon_men: u32,
    /// Head count of a courier row.
    pub courier_men: u32,
    /// World units per map multiplier.
    pub world_per_multiplier: u32,
    /// Axis convention of `loc x` / `loc z`.
    pub axis: String,
    /// `[MenPerSprite] Inf=`.
    pub men_per_sprite_infantry: u32,
    /// `[MenPerSprite] Cav=`.
    pub men_per_sprite_cavalry: u32,
    /// `[MenPerSprite] Art=`.
    pub men_per_sprite_artillery: u32,
}

/// Files of a shipped profile: `profile.toml`, `vocabulary.csv`, `quality.csv`.
#[derive(Debug, Clone, Copy)]
pub struct BuiltinProfile {
    /// Name.
    pub name: &'static str,
    /// `profile.toml`.
    pub profile: &'static str,
    /// `vocabulary.csv`.
    pub vocabulary: &'static str,
    /// `quality.csv`.
    pub quality: &'static str,
}

/// The profiles shipped in `templates/`.
pub const BUILTIN: [BuiltinProfile; 2] = [
    BuiltinProfile {
        name: "napmod-g1",
        profile: include_str!("../../templates/napmod-g1/profile.toml"),
        vocabulary: include_str!("../../templates/napmod-g1/vocabulary.csv"),
        quality: include_str!("../../templates/napmod-g1/quality.csv"),
    },
    BuiltinProfile {
        name: "x64",
        profile: include_str!("../../templates/x64/profile.toml"),
        vocabulary: include_str!("../../templates/x64/vocabulary.csv"),
        quality: include_str!("../../templates/x64/quality.csv"),
    },
];

/// A shipped profile by name.
pub fn builtin(name: &str) -> Option<&'static BuiltinProfile> {
    BUILTIN.iter().find(|b| b.name == name)
}

/// Parses `profile.toml`.
pub fn parse_profile(label: &str, text: &str) -> Result<Profile, Problems> {
    toml::from_str::<Profile>(text).map_err(|e| {
        Problems(vec![super::campaign::toml_problem(&format!("{label}/profile.toml"), text, &e)])
    })
}

/// A profile with its vocabulary, from the three files' contents.
pub fn load(
    label: &str,
    profile: &str,
    vocab: &[u8],
    quality: &[u8],
) -> Result<(Profile, Vocabulary), Problems> {
    let p = parse_profile(label, profile);
    let v = parse_vocabulary(label, vocab, quality);
    match (p, v) {
        (Ok(p), Ok(v)) => Ok((p, v)),
        (Err(mut a), Err(b)) => {
            a.0.extend(b.0);
            Err(a)
        }
        (Err(a), _) | (_, Err(a)) => Err(a),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::vocabulary::SowLevel;
    use crate::model::{Arm, ArmClass, Nation, Quality};

    #[test]
    fn shipped_profiles_load_and_resolve_every_level() {
        for b in BUILTIN {
            let (p, v) = load(
                &format!("templates/{}", b.name),
                b.profile,
                b.vocabulary.as_bytes(),
                b.quality.as_bytes(),
            )
            .unwrap_or_else(|e| panic!("{e}"));
            assert_eq!(p.name, b.name);
            for n in Nation::ALL {
                for l in SowLevel::ALL {
                    let arms: Vec<Option<Arm>> = match l {
                        SowLevel::Unit => Arm::ALL
                            .iter()
                            .filter(|a| a.class() != ArmClass::Artillery)
                            .map(|a| Some(*a))
                            .collect(),
                        SowLevel::Gun => vec![Some(Arm::FootArtillery), Some(Arm::HorseArtillery)],
                        _ => std::iter::once(None).chain(Arm::ALL.iter().map(|a| Some(*a))).collect(),
                    };
                    for a in arms {
                        assert!(v.lookup(*n, l, a).is_some(), "{} {n} {l} {a:?}", b.name);
                    }
                }
            }
            for q in Quality::ALL {
                for l in SowLevel::ALL {
                    assert!(v.quality(*q, l).is_some());
                }
            }
        }
    }
}
