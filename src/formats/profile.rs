//! SoW profiles: the column layouts and conventions of one engine generation
//! (`templates/<name>/profile.toml`) with its vocabulary. The shipped profiles are built
//! into the binary; a campaign may carry its own copy under `templates/<name>/`.

use serde::Deserialize;

use crate::error::{Problem, Problems};
use crate::model::battle::FinalDumps;
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
    /// Seconds before `endscenario` of the final `dumplocs`.
    #[serde(default = "default_dumplocs")]
    pub dumplocs_before_end: u32,
    /// Seconds before `endscenario` of the final `dumpdead`.
    #[serde(default = "default_dumpdead")]
    pub dumpdead_before_end: u32,
    /// Seconds before `endscenario` of the final `dumpgamedb`.
    #[serde(default = "default_dumpgamedb")]
    pub dumpgamedb_before_end: u32,
    /// Where the unit names file goes, relative to the output folder
    /// (`Layout/Media/Language/OOBNames.xml` on x64); empty: none is written.
    #[serde(default)]
    pub names_file: String,
    /// Suffix of the id of a unit's second name in the names file (`_NAME2`).
    #[serde(default = "default_name2_suffix")]
    pub names_second_suffix: String,
    /// Suffix of the id of a unit's last name in the names file (`_Last`); empty: none.
    #[serde(default)]
    pub names_last_suffix: String,
}

/// The final dumps' default margins: the final `dumpgamedb` 30 s before `endscenario`, as in
/// NorbSoftDev's own default battlescript, and `dumplocs` and `dumpdead` 5 s apart before it.
pub const DEFAULT_FINAL_DUMPS: FinalDumps = FinalDumps { dumplocs: 40, dumpdead: 35, dumpgamedb: 30 };

fn default_dumplocs() -> u32 {
    DEFAULT_FINAL_DUMPS.dumplocs
}

fn default_dumpdead() -> u32 {
    DEFAULT_FINAL_DUMPS.dumpdead
}

fn default_dumpgamedb() -> u32 {
    DEFAULT_FINAL_DUMPS.dumpgamedb
}

fn default_name2_suffix() -> String {
    "_NAME2".to_string()
}

impl Profile {
    /// The margins of the final dumps.
    pub fn final_dumps(&self) -> FinalDumps {
        FinalDumps {
            dumplocs: self.dumplocs_before_end,
            dumpdead: self.dumpdead_before_end,
            dumpgamedb: self.dumpgamedb_before_end,
        }
    }
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

/// Parses `profile.toml`. A campaign's copy of a shipped profile takes each key added to
/// sowbridge after the copy was made ([`LATER_KEYS`]) from the shipped one of the same name
/// when it lacks it.
pub fn parse_profile(label: &str, text: &str) -> Result<Profile, Problems> {
    let file = format!("{label}/profile.toml");
    let mut p = toml::from_str::<Profile>(text)
        .map_err(|e| Problems(vec![super::campaign::toml_problem(&file, text, &e)]))?;
    take_later_keys(&mut p, text);
    match p.final_dumps().fault() {
        Some(why) => Err(Problems(vec![Problem::in_file(
            &file,
            format!("dumplocs_before_end, dumpdead_before_end, dumpgamedb_before_end: {why}"),
        )])),
        None => Ok(p),
    }
}

/// The keys added to the profiles after the first release: optional in a campaign's copy.
pub const LATER_KEYS: [&str; 6] = [
    "dumplocs_before_end",
    "dumpdead_before_end",
    "dumpgamedb_before_end",
    "names_file",
    "names_second_suffix",
    "names_last_suffix",
];

/// Fills the later keys `text` lacks from the shipped profile of the same name.
fn take_later_keys(p: &mut Profile, text: &str) {
    let Ok(own) = toml::from_str::<toml::Table>(text) else { return };
    let Some(shipped) = builtin(&p.name).and_then(|b| toml::from_str::<Profile>(b.profile).ok()) else {
        return;
    };
    for key in LATER_KEYS.iter().filter(|k| !own.contains_key(**k)) {
        match *key {
            "dumplocs_before_end" => p.dumplocs_before_end = shipped.dumplocs_before_end,
            "dumpdead_before_end" => p.dumpdead_before_end = shipped.dumpdead_before_end,
            "dumpgamedb_before_end" => p.dumpgamedb_before_end = shipped.dumpgamedb_before_end,
            "names_file" => p.names_file.clone_from(&shipped.names_file),
            "names_second_suffix" => p.names_second_suffix.clone_from(&shipped.names_second_suffix),
            _ => p.names_last_suffix.clone_from(&shipped.names_last_suffix),
        }
    }
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
