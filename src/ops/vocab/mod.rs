//! The vocabulary's use cases: `vocab check` proves that every SoW id the campaign's
//! vocabulary will write into a battle (class, drill, weapon, attribute level) exists in the
//! umpire's installed NapMod, and `vocab init` writes a starting vocabulary from that install.
//! An unknown id makes the game log "Can't find unit class type" or "Formation not found" and
//! field a unit without its look or formation, so export must never depend on a guess.

pub mod init;

use std::path::PathBuf;

use anyhow::Result;

use crate::error::{Problem, Problems};
use crate::formats::logistics::{ClassType, Logistics, read_logistics};
use crate::formats::sow::names::{is_sowbridge_tag, read_names};
use crate::model::vocabulary::{ATTRIBUTE_TABLES, ATTRIBUTES, SowLevel, VocabEntry, Vocabulary};
use crate::model::{Arm, ArmClass};
use crate::store::CampaignDir;
use crate::store::profile::{campaign_profile, load_profile};

pub use init::{InitOutcome, InitReport, InitRequest, init, init_vocabulary};

/// The install and the vocabulary a vocab use case works on.
#[derive(Debug, Clone, Default)]
pub struct Install {
    /// The mod's Logistics folder (or the mod's own folder holding `Logistics`).
    pub dir: PathBuf,
    /// Folders layered under `dir`, lowest first (the base game's Logistics): files the mod
    /// does not ship come from them.
    pub base: Vec<PathBuf>,
    /// The profile whose vocabulary to use (default: `profile` in campaign.toml).
    pub profile: Option<String>,
}

/// What a vocab use case tells the umpire on its way, before its outcome or its refusal.
#[derive(Debug)]
pub enum Note {
    /// No campaign.toml in this folder: the default profile napmod-g1 is used.
    DefaultProfile {
        /// The campaign folder looked in.
        root: PathBuf,
    },
    /// The install's files have these problems; `vocab init` goes on without them.
    InstallWarnings(Problems),
}

/// What the install's names file showed (x64 profiles).
#[derive(Debug, Clone)]
pub enum NamesCheck {
    /// The profile writes no names file: nothing to check.
    NotAsked,
    /// No names file beside the folders given.
    NotFound {
        /// The file looked for (`Layout/Media/Language/OOBNames.xml`).
        names_file: String,
    },
    /// The names file read.
    Read(NamesSeen),
}

/// The install's names file as read.
#[derive(Debug, Clone)]
pub struct NamesSeen {
    /// The file, shown as its path.
    pub file: String,
    /// How many tags it holds.
    pub tags: usize,
    /// Whether it begins with a byte-order mark.
    pub bom: bool,
    /// Why it is no well-formed XML, when it is not (then read tag by tag).
    pub not_xml: Option<String>,
    /// The ids of sowbridge's scheme the game already names.
    pub sowbridge_ids: Vec<String>,
}

/// What `vocab check` found.
#[derive(Debug)]
pub struct CheckOutcome {
    /// The vocabulary checked.
    pub vocabulary: Vocabulary,
    /// What the install defines.
    pub logistics: Logistics,
    /// What the install's names file showed.
    pub names: NamesCheck,
    /// Every finding, sorted, each once: the install's own problems, the ids it lacks, and the
    /// ids of sowbridge's scheme its names file already names.
    pub problems: Problems,
}

/// The profile name to use: the one given, else campaign.toml's, else the default.
fn profile_name(dir: &CampaignDir, install: &Install, note: &mut dyn FnMut(Note)) -> Result<String> {
    if let Some(p) = &install.profile {
        return Ok(p.clone());
    }
    match campaign_profile(dir)? {
        Some(p) => Ok(p),
        None => {
            note(Note::DefaultProfile { root: dir.root().to_path_buf() });
            Ok("napmod-g1".to_string())
        }
    }
}

/// Reads the install's layers (`base` folders first, then `dir`).
fn read_install(install: &Install) -> Result<(Logistics, Problems)> {
    let mut layers: Vec<PathBuf> = install.base.clone();
    layers.push(install.dir.clone());
    Ok(read_logistics(&layers)?)
}

/// The install's unit names file (`Layout/Media/Language/OOBNames.xml` beside a `Logistics`
/// folder, or inside a folder given): the last layer that has one, as the game layers files.
fn install_names_file(install: &Install, names_file: &str) -> Option<PathBuf> {
    let mut layers: Vec<&PathBuf> = install.base.iter().collect();
    layers.push(&install.dir);
    layers
        .iter()
        .rev()
        .flat_map(|l| {
            let up = l
                .file_name()
                .filter(|n| n.to_string_lossy().eq_ignore_ascii_case("logistics"))
                .and_then(|_| l.parent());
            [Some(l.as_path()), up].into_iter().flatten().map(|root| root.join(names_file))
        })
        .find(|p| p.is_file())
}

/// What the install's names file says (x64 profiles): which ids the game already names of
/// sowbridge's scheme (each a finding: the game's name and the campaign's would meet).
fn check_install_names(install: &Install, names_file: &str) -> Result<(NamesCheck, Problems)> {
    let mut p = Problems::default();
    let Some(path) = install_names_file(install, names_file) else {
        return Ok((NamesCheck::NotFound { names_file: names_file.to_string() }, p));
    };
    let bytes = crate::store::read_optional(&path)?.unwrap_or_default();
    let n = read_names(&bytes);
    let shown = path.display().to_string();
    let ours: Vec<String> = n.tags.keys().filter(|t| is_sowbridge_tag(t)).cloned().collect();
    for t in &ours {
        p.push(Problem::in_file(
            &shown,
            format!("{t}: the game already names an id of sowbridge's scheme (OOB_ and six numbers); an exported unit with that id may show the game's name"),
        ));
    }
    let seen =
        NamesSeen { file: shown, tags: n.tags.len(), bom: n.bom, not_xml: n.not_xml, sowbridge_ids: ours };
    Ok((NamesCheck::Read(seen), p))
}

/// `vocab check`: the vocabulary of the profile held against the install. The findings are
/// the outcome's, not a refusal: the caller shows them, then refuses with them.
pub fn check(dir: &CampaignDir, install: &Install, note: &mut dyn FnMut(Note)) -> Result<CheckOutcome> {
    let name = profile_name(dir, install, note)?;
    let (profile, v) = load_profile(dir, &name)?;
    let (l, mut problems) = read_install(install)?;
    problems.0.extend(check_vocabulary(&v, &l).0);
    let names = if profile.names_file.is_empty() {
        NamesCheck::NotAsked
    } else {
        let (n, p) = check_install_names(install, &profile.names_file)?;
        problems.0.extend(p.0);
        n
    };
    problems.0.sort();
    problems.0.dedup();
    Ok(CheckOutcome { vocabulary: v, logistics: l, names, problems })
}

/// The unit type a row's class must have, `None` when any will do. Commanders take the type
/// of the arm they command, as GCM's commander classes do (`UGLB_USA_Inf_Cdr_*` are Type 1,
/// `UGLB_USA_Cav_Cdr_*` Type 2, `UGLB_USA_Art_Cdr_*` Type 3); a commander row without an arm
/// is an infantry one, like GCM's army, wing and corps classes. Wagons are Type 4 like GCM's
/// `UGLB_USA_Wagon`; couriers Type 5 like `U_Courier`.
pub fn required_type(level: SowLevel, arm: Option<Arm>) -> Option<ClassType> {
    let of_arm = |a: Arm| match a.class() {
        ArmClass::Infantry => ClassType::Infantry,
        ArmClass::Cavalry => ClassType::Cavalry,
        ArmClass::Artillery => ClassType::Artillery,
    };
    match level {
        SowLevel::Gun => Some(ClassType::Artillery),
        SowLevel::Courier => Some(ClassType::Courier),
        SowLevel::Wagon => Some(ClassType::Ordnance),
        SowLevel::Unit => arm.map(of_arm),
        _ => Some(arm.map_or(ClassType::Infantry, of_arm)),
    }
}

/// What a row is, for messages: `a dragoon unit`, `a brigade commander`.
fn row_kind(e: &VocabEntry) -> String {
    let arm = e.arm.map(|a| format!("{a} ")).unwrap_or_default();
    match e.level {
        SowLevel::Unit | SowLevel::Gun | SowLevel::Courier | SowLevel::Wagon => format!("a {arm}{}", e.level),
        l => format!("a {arm}{l} commander"),
    }
}

/// Where an id was found, for messages.
fn at(file: &str, line: u64) -> String {
    format!("{file}:{line}")
}

/// Every id of the vocabulary the install lacks, and every quality level outside the
/// install's attribute tables. Each finding names the vocabulary file, line and field, the
/// id, and the Logistics file that lacks it. Files missing from the install are not checked
/// against (reading the install reports them).
pub fn check_vocabulary(v: &Vocabulary, l: &Logistics) -> Problems {
    let mut p = Problems::default();
    let vfile = format!("{}/vocabulary.csv", v.source);
    let has = |name: &str| l.files.contains_key(name);
    for e in &v.entries {
        let mut find = |field: &str, msg: String| p.push(Problem::at(&vfile, e.line, field, msg));
        if has("unitglobal.csv") {
            match l.class(&e.class) {
                None => find("class", format!("{} is not a Class in {}", e.class, l.file("unitglobal.csv"))),
                Some(c) => {
                    let need = required_type(e.level, e.arm);
                    if let Some(need) =
                        need.filter(|n| !matches!(c.kind, ClassType::Other(_)) && *n != c.kind)
                    {
                        find(
                            "class",
                            format!(
                                "{} has Type {} in {} but {} needs Type {}",
                                e.class,
                                c.kind.describe(),
                                at(&c.def.file, c.def.line),
                                row_kind(e),
                                need.describe()
                            ),
                        );
                    }
                }
            }
        }
        if has("drills.csv") && !e.formation.is_empty() && l.drill(&e.formation).is_none() {
            find("formation", format!("{} is not a drill in {}", e.formation, l.file("drills.csv")));
        }
        if has("rifles.csv") && has("artillery.csv") {
            check_weapon(e, l, &mut find);
        }
    }
    let qfile = format!("{}/quality.csv", v.source);
    let mut missing_table = [false; 16];
    for q in &v.qualities {
        for (i, value) in q.values.iter().enumerate() {
            let Some(value) = value else { continue };
            if !has("unitattributes.csv") {
                continue;
            }
            let Some(t) = l.attribute(ATTRIBUTE_TABLES[i]) else {
                if !missing_table[i] {
                    missing_table[i] = true;
                    p.push(Problem::at(
                        &qfile,
                        q.line,
                        ATTRIBUTES[i],
                        format!("{} has no NEW,{} table", l.file("unitattributes.csv"), ATTRIBUTE_TABLES[i]),
                    ));
                }
                continue;
            };
            if u32::from(*value) >= t.levels {
                p.push(Problem::at(
                    &qfile,
                    q.line,
                    ATTRIBUTES[i],
                    format!(
                        "level {value} is outside the {} table at {}, which has levels 0-{}",
                        t.name,
                        at(&t.file, t.line),
                        t.levels - 1
                    ),
                ));
            }
        }
    }
    p
}

/// A unit's weapon comes from `rifles.csv`, a gun's from `artillery.csv`; any other row's
/// weapon (normally empty) from either.
fn check_weapon(e: &VocabEntry, l: &Logistics, find: &mut impl FnMut(&str, String)) {
    let w = e.weapon.as_str();
    let (rifles, guns) = (l.file("rifles.csv"), l.file("artillery.csv"));
    match e.level {
        SowLevel::Unit | SowLevel::Gun => {
            let gun = e.level == SowLevel::Gun;
            let (want, want_file, other) =
                if gun { (l.gun(w), &guns, l.rifle(w)) } else { (l.rifle(w), &rifles, l.gun(w)) };
            if w.is_empty() {
                find("weapon", format!("is empty: {} needs a weapon from {want_file}", row_kind(e)));
            } else if want.is_none() {
                match other {
                    Some(o) => find(
                        "weapon",
                        format!(
                            "{w} is in {} but {} takes its weapon from {want_file}",
                            at(&o.file, o.line),
                            row_kind(e)
                        ),
                    ),
                    None => find("weapon", format!("{w} is not in {want_file}")),
                }
            }
        }
        _ => {
            if !w.is_empty() && l.rifle(w).is_none() && l.gun(w).is_none() {
                find("weapon", format!("{w} is in neither {rifles} nor {guns}"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::logistics::{AttributeTable, ClassDef, IdDef};
    use crate::formats::profile::{builtin, load};

    fn shipped() -> Vocabulary {
        let b = builtin("napmod-g1").expect("shipped");
        load("t", b.profile, b.vocabulary.as_bytes(), b.quality.as_bytes()).expect("loads").1
    }

    fn def(id: &str) -> IdDef {
        IdDef { id: id.to_string(), file: "L/x.csv".into(), line: 9 }
    }

    #[test]
    fn commanders_take_the_type_of_the_arm_they_command() {
        assert_eq!(required_type(SowLevel::Brigade, Some(Arm::HorseArtillery)), Some(ClassType::Artillery));
        assert_eq!(required_type(SowLevel::Division, Some(Arm::Dragoon)), Some(ClassType::Cavalry));
        assert_eq!(required_type(SowLevel::Army, None), Some(ClassType::Infantry));
        assert_eq!(required_type(SowLevel::Wagon, None), Some(ClassType::Ordnance));
        assert_eq!(required_type(SowLevel::Courier, None), Some(ClassType::Courier));
    }

    #[test]
    fn a_missing_attribute_table_is_reported_once() {
        let v = shipped();
        let mut l = Logistics::default();
        l.files.insert("unitattributes.csv".into(), "L/unitattributes.csv".into());
        for (name, levels) in [("Command", 8), ("Control", 7), ("Leadership", 8), ("Style", 7)] {
            l.attributes.push(AttributeTable { name: name.into(), file: "L/u.csv".into(), line: 1, levels });
        }
        let p = check_vocabulary(&v, &l);
        let ability: Vec<_> = p.0.iter().filter(|x| x.field.as_deref() == Some("ability")).collect();
        assert_eq!(ability.len(), 1, "{p}");
        assert!(ability[0].message.contains("has no NEW,Ability table"));
        // Experience is used by every row, Fatigue by units: both reported, once each.
        assert_eq!(p.0.iter().filter(|x| x.field.as_deref() == Some("experience")).count(), 1);
        assert_eq!(p.0.iter().filter(|x| x.field.as_deref() == Some("fatigue")).count(), 1);
    }

    #[test]
    fn files_the_install_lacks_are_not_checked_against() {
        let v = shipped();
        let mut l = Logistics::default();
        l.files.insert("unitglobal.csv".into(), "L/unitglobal.csv".into());
        l.classes.insert("U_COURIER".into(), ClassDef { def: def("U_Courier"), kind: ClassType::Courier });
        let p = check_vocabulary(&v, &l);
        assert!(p.0.iter().all(|x| x.field.as_deref() == Some("class")), "{p}");
        assert_eq!(p.len(), v.entries.iter().filter(|e| e.class != "U_Courier").count());
    }
}
