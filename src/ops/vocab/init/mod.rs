//! `vocab init`: a starting vocabulary chosen from the umpire's own install, for a NapMod
//! whose ids are not public. Every row of the current vocabulary keeps its key (nation ×
//! level × arm), so export finds the same rows; an id the install already defines (with a
//! fitting unit type) is kept; otherwise the best-scoring candidate is chosen by the class's
//! `Type` and by the words in the ids, and the comment says how and names the runners-up,
//! for the umpire to review. A row that borrows another nation's ids (its comment starts
//! `borrowed from`) takes the install's own class or weapon for its nation instead when the
//! install has one, and stays marked as borrowed when it has none.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::error::Error;
use crate::formats::logistics::{ClassType, FILES, IdDef, Logistics};
use crate::formats::profile::load;
use crate::formats::vocabulary::{write_quality, write_vocabulary};
use crate::model::vocabulary::{ATTRIBUTE_TABLES, SowLevel, VocabEntry, Vocabulary};
use crate::model::{Arm, ArmClass, Nation};
use crate::store::profile::profile_files;
use crate::store::replace::check_paths_replaceable;
use crate::store::{CampaignDir, atomic_write};

use super::{Install, Note, profile_name, read_install, required_type};

/// How many rows kept their ids, had ids chosen, or found nothing fitting.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct InitReport {
    /// Rows whose every id was already in the install.
    pub kept: usize,
    /// Rows with at least one id chosen anew.
    pub chosen: usize,
    /// Rows with an id the install has no candidate for.
    pub unresolved: usize,
    /// Quality values lowered into the install's attribute tables.
    pub clamped: usize,
}

/// `vocab init`: the install, and where to write.
#[derive(Debug, Clone, Default)]
pub struct InitRequest {
    /// The install and the vocabulary whose rows to fill.
    pub install: Install,
    /// Folder to write into (default: the campaign's `templates/<profile>/`).
    pub out: Option<PathBuf>,
    /// Overwrite existing files.
    pub force: bool,
}

/// What `vocab init` wrote.
#[derive(Debug)]
pub struct InitOutcome {
    /// The folder written into.
    pub target: PathBuf,
    /// The vocabulary written.
    pub vocabulary: Vocabulary,
    /// How its rows were filled.
    pub report: InitReport,
}

/// `vocab init`: writes `vocabulary.csv`, `quality.csv` and `profile.toml` of a starting
/// vocabulary chosen from the install, refusing to overwrite them without `force`.
pub fn init(dir: &CampaignDir, req: &InitRequest, note: &mut dyn FnMut(Note)) -> Result<InitOutcome> {
    let name = profile_name(dir, &req.install, note)?;
    let files = profile_files(dir, &name)?;
    let (_, current) =
        load(&files.label, &files.profile, &files.vocabulary, &files.quality).map_err(Error::Rejected)?;
    let (l, problems) = read_install(&req.install)?;
    if FILES.iter().any(|f| !l.files.contains_key(*f)) {
        return Err(Error::Rejected(problems).into());
    }
    if !problems.is_empty() {
        note(Note::InstallWarnings(problems));
    }
    let target = match &req.out {
        Some(o) => o.clone(),
        None if dir.root().is_dir() => dir.path(&format!("templates/{name}")),
        None => {
            return Err(Error::refused(format!(
                "{}: no campaign folder to write templates/{name}/ into (give --campaign or --out DIR)",
                dir.root().display()
            ))
            .into());
        }
    };
    let outputs = ["vocabulary.csv", "quality.csv", "profile.toml"];
    let existing: Vec<String> = outputs
        .iter()
        .map(|n| target.join(n))
        .filter(|p| p.exists())
        .map(|p| p.display().to_string())
        .collect();
    if !existing.is_empty() && !req.force {
        return Err(Error::refused(format!(
            "{} already exist: give --force to overwrite",
            existing.join(", ")
        ))
        .into());
    }
    // A vocabulary open in Excel stops the command before any of the three is replaced.
    check_paths_replaceable(&outputs.map(|n| target.join(n)))?;
    let (v, report) = init_vocabulary(&current, &l, &plain(&req.install.dir.display().to_string()));
    atomic_write(&target.join("vocabulary.csv"), &write_vocabulary(&v))?;
    atomic_write(&target.join("quality.csv"), &write_quality(&v))?;
    atomic_write(&target.join("profile.toml"), files.profile.as_bytes())?;
    Ok(InitOutcome { target, vocabulary: v, report })
}

/// Text safe for a vocabulary field: no commas or quotes.
fn plain(s: &str) -> String {
    s.replace([',', '"'], " ")
}

/// An id split into upper-case words at punctuation and at lower-to-upper case changes
/// (`NAP_FR_Cdr_HArt_Bty` → NAP FR CDR HART BTY).
struct Words {
    upper: String,
    tokens: Vec<String>,
}

impl Words {
    fn new(id: &str) -> Words {
        let mut tokens = Vec::new();
        let mut cur = String::new();
        let mut prev_lower = false;
        for c in id.chars() {
            if (!c.is_alphanumeric() || (c.is_uppercase() && prev_lower)) && !cur.is_empty() {
                tokens.push(std::mem::take(&mut cur));
            }
            if c.is_alphanumeric() {
                cur.extend(c.to_uppercase());
            }
            prev_lower = c.is_lowercase();
        }
        if !cur.is_empty() {
            tokens.push(cur);
        }
        Words { upper: id.to_uppercase(), tokens }
    }

    /// A word of up to three letters must be a whole token; a longer one may sit anywhere.
    fn has(&self, word: &str) -> bool {
        if word.chars().count() <= 3 {
            self.tokens.iter().any(|t| t == word)
        } else {
            self.upper.contains(word)
        }
    }

    fn any(&self, words: &[&str]) -> bool {
        words.iter().any(|w| self.has(w))
    }
}

fn nation_words(n: Nation) -> &'static [&'static str] {
    match n {
        Nation::Fr => &["FR", "FRA", "FRE", "FRENCH", "FRANC"],
        Nation::Sp => &["SP", "SPA", "ESP", "SPAIN", "SPANI", "ESPAN"],
        Nation::Br => &["BR", "BRI", "GB", "UK", "BRIT", "ENGL"],
        Nation::Po => &["PO", "POR", "PT", "PORTUG"],
    }
}

fn arm_words(a: Arm) -> &'static [&'static str] {
    match a {
        Arm::Line => &["LINE", "LIGNE", "FUSIL", "LN"],
        Arm::Light => &[
            "LIGHT", "LEGER", "LÉGER", "LT", "VOLTIG", "RIFLE", "CAZAD", "CACAD", "JAGER", "JAEGER", "SKIRM",
        ],
        Arm::Grenadier => &["GREN", "GUARD", "GDS", "ELITE"],
        Arm::Dragoon => &["DRAG", "DRG"],
        Arm::LightCavalry => &["HUSS", "CHASS", "LANC", "ULAN", "LIGHT", "LT", "CHEVAU"],
        Arm::HeavyCavalry => &["CUIR", "HEAVY", "HVY", "CARAB"],
        Arm::FootArtillery => &["FOOT", "FT", "FA"],
        Arm::HorseArtillery => &["HORSE", "HA", "HART"],
    }
}

fn class_words(c: ArmClass) -> &'static [&'static str] {
    match c {
        ArmClass::Infantry => &["INF", "INFANTRY"],
        ArmClass::Cavalry => &["CAV", "CAVALRY"],
        ArmClass::Artillery => &["ART", "ARTY", "ARTIL"],
    }
}

const COMMANDER: [&str; 8] = ["CDR", "CMD", "COMMAND", "HQ", "GEN", "GENERAL", "LEADER", "OFFICER"];

fn level_words(level: SowLevel, arm: Option<Arm>) -> &'static [&'static str] {
    match level {
        SowLevel::Side | SowLevel::Army => &["ARMY", "SIDE"],
        SowLevel::Corps => &["CORPS"],
        SowLevel::Division => &["DIV", "DIVIS"],
        SowLevel::Brigade if arm.is_some_and(|a| a.class() == ArmClass::Artillery) => &["BTY", "BATT"],
        SowLevel::Brigade => &["BRIG", "BDE"],
        _ => &[],
    }
}

/// The row's nation named in the id (`*` rows take the French ids, as the built-in profile
/// does), and another nation named against it.
fn nation_score(e: &VocabEntry, w: &Words, why: &mut Vec<&'static str>) -> i32 {
    let nation = e.nation.unwrap_or(Nation::Fr);
    let mut s = 0;
    if w.any(nation_words(nation)) {
        s += 4;
        why.push("nation");
    }
    if Nation::ALL.iter().any(|n| *n != nation && w.any(nation_words(*n))) {
        s -= 3;
    }
    s
}

/// Nation, arm and arm-class words, each with a reason for the comment.
fn common_score(e: &VocabEntry, w: &Words, why: &mut Vec<&'static str>) -> i32 {
    let mut s = nation_score(e, w, why);
    let class = e.arm.map_or(ArmClass::Infantry, Arm::class);
    if let Some(a) = e.arm {
        let own = arm_words(a);
        if w.any(own) {
            s += 3;
            why.push("arm");
        }
        let others = Arm::ALL.iter().filter(|o| **o != a && o.class() == class);
        if others.flat_map(|o| arm_words(*o)).any(|x| !own.contains(x) && w.has(x)) {
            s -= 2;
        }
    }
    if (e.arm.is_some() || e.level.is_commander()) && w.any(class_words(class)) {
        s += 2;
    }
    s
}

fn class_score(e: &VocabEntry, id: &str) -> (i32, Vec<&'static str>) {
    let w = Words::new(id);
    let mut why = Vec::new();
    let mut s = common_score(e, &w, &mut why);
    // A commander row must not get a unit's class, nor a unit row a commander's.
    let cdr = w.any(&COMMANDER);
    if e.level.is_commander() {
        if cdr {
            s += 8;
            why.push("commander");
        } else {
            s -= 8;
        }
        if w.any(level_words(e.level, e.arm)) {
            s += 3;
            why.push("level");
        }
    } else if cdr {
        s -= 8;
    }
    let (bonus, words): (i32, &[&str]) = match e.level {
        SowLevel::Gun => (1, &["LIMBER"]),
        SowLevel::Wagon => (2, &["WAGON", "SUPPLY", "AMMO", "TRAIN"]),
        SowLevel::Courier => (2, &["COURIER", "MESSENGER", "ADC"]),
        _ => (0, &[]),
    };
    if w.any(words) {
        s += bonus;
    }
    (s, why)
}

fn weapon_score(e: &VocabEntry, id: &str) -> (i32, Vec<&'static str>) {
    let w = Words::new(id);
    let mut why = Vec::new();
    let mut s = nation_score(e, &w, &mut why);
    let words: &[&str] = match e.arm {
        Some(Arm::Line | Arm::Grenadier) | None => &["MUSKET", "CHARLEVILLE", "BESS", "INF", "LINE"],
        Some(Arm::Light) => &["RIFLE", "BAKER", "LIGHT", "JAGER", "LEGER"],
        Some(Arm::Dragoon) => &["DRAG", "CARB", "MUSKETOON", "CAV"],
        Some(Arm::LightCavalry) => &["CARB", "PISTOL", "LIGHT", "HUSS", "CAV", "SABRE"],
        Some(Arm::HeavyCavalry) => &["HEAVY", "CUIR", "SWORD", "PISTOL", "CAV", "CARAB"],
        Some(Arm::FootArtillery) => &["8LB", "9LB", "12LB", "FOOT"],
        Some(Arm::HorseArtillery) => &["6LB", "4LB", "HORSE"],
    };
    if w.any(words) {
        s += 2;
        why.push("arm");
    }
    if e.arm.is_none_or(|a| a.class() == ArmClass::Infantry)
        && w.any(&["CARB", "PISTOL", "SABRE", "SWORD", "CAV", "MUSKETOON"])
    {
        s -= 2;
    }
    (s, why)
}

/// The drill level (`DRIL_Lvl5_…` → 5).
fn drill_level(id: &str) -> Option<u32> {
    let u = id.to_ascii_uppercase();
    let i = u.find("LVL")?;
    u[i + 3..].chars().next()?.to_digit(10)
}

/// Which candidates a row's drill comes from and how they score: the level's drills
/// (`Lvl3` corps and above, falling back to `Lvl4` as the built-in profile does; `Lvl4`
/// division; `Lvl5` brigade and battery; `Lvl6` unit and gun), the supply-wagon drill for
/// couriers and wagons; then the arm's word and the current drill's last word (`Column`).
fn drill_candidates<'a>(e: &VocabEntry, l: &'a Logistics) -> Vec<(i32, Vec<&'static str>, &'a IdDef)> {
    let levels: &[u32] = match e.level {
        SowLevel::Side | SowLevel::Army | SowLevel::Corps => &[3, 4],
        SowLevel::Division => &[4],
        SowLevel::Brigade => &[5],
        SowLevel::Unit | SowLevel::Gun => &[6],
        SowLevel::Courier | SowLevel::Wagon => &[],
    };
    let pool: Vec<&IdDef> = if levels.is_empty() {
        l.drills.values().filter(|d| Words::new(&d.id).any(&["SUPPLY", "WAGON"])).collect()
    } else {
        let at = |n: u32| l.drills.values().filter(|d| drill_level(&d.id) == Some(n)).collect::<Vec<_>>();
        levels.iter().map(|n| at(*n)).find(|v| !v.is_empty()).unwrap_or_default()
    };
    let class = e.arm.map_or(ArmClass::Infantry, Arm::class);
    let tail = Words::new(&e.formation).tokens.last().cloned().unwrap_or_default();
    pool.into_iter()
        .map(|d| {
            let w = Words::new(&d.id);
            let mut why = vec!["level"];
            let mut s = 0;
            if w.any(class_words(class)) {
                s += 3;
                why.push("arm");
            }
            if !tail.is_empty() && w.tokens.last() == Some(&tail) {
                s += 2;
                why.push("same drill shape");
            }
            (s, why, d)
        })
        .collect()
}

/// One field's outcome: the id written and the comment part saying how.
struct Pick {
    id: String,
    note: String,
    kept: bool,
    found: bool,
    /// A borrowed id gave way to one of the row's own nation.
    own_nation: bool,
}

/// Keeps `current` when `fits` finds it; else takes the best of `cands`; else keeps
/// `current` and says nothing fits. A borrowed id (another nation's, lent because the game
/// had none) gives way to the best candidate when that one has every reason in `borrowed`
/// (the row's own nation, and for a unit its arm); an empty `borrowed` means not borrowed.
fn pick(
    field: &str,
    current: &str,
    kept: Option<&IdDef>,
    mut cands: Vec<(i32, Vec<&'static str>, &IdDef)>,
    pool: &str,
    borrowed: &[&str],
) -> Pick {
    cands.sort_by(|a, b| {
        b.0.cmp(&a.0).then_with(|| a.2.id.to_ascii_uppercase().cmp(&b.2.id.to_ascii_uppercase()))
    });
    let own_nation =
        !borrowed.is_empty() && cands.first().is_some_and(|c| borrowed.iter().all(|r| c.1.contains(r)));
    let kept = kept.filter(|_| !own_nation);
    let others = |skip: &str| {
        let o: Vec<&str> = cands
            .iter()
            .map(|c| c.2.id.as_str())
            .filter(|id| !id.eq_ignore_ascii_case(skip))
            .take(3)
            .collect();
        if o.is_empty() { String::new() } else { format!(" (other candidates: {})", o.join(" ")) }
    };
    if let Some(k) = kept {
        let note = format!("{field} {} kept: line {} of {}{}", k.id, k.line, short(&k.file), others(&k.id));
        return Pick { id: k.id.clone(), note, kept: true, found: true, own_nation: false };
    }
    match cands.first() {
        Some((_, why, d)) => {
            let by =
                if why.is_empty() { "first by name".to_string() } else { format!("by {}", why.join(" + ")) };
            let instead =
                if own_nation { format!(" instead of the borrowed {current}") } else { String::new() };
            let note = format!("{field} {} chosen from {pool} {by}{instead}{}", d.id, others(&d.id));
            Pick { id: d.id.clone(), note, kept: false, found: true, own_nation }
        }
        None => Pick {
            id: current.to_string(),
            note: format!(
                "{field} NOT FOUND: the install has no {pool}; {current} left for the umpire to replace"
            ),
            kept: false,
            found: false,
            own_nation: false,
        },
    }
}

/// A Logistics path's file name, for comments.
fn short(file: &str) -> String {
    Path::new(file).file_name().map_or(file.to_string(), |n| n.to_string_lossy().into_owned())
}

fn init_entry(
    e: &VocabEntry,
    l: &Logistics,
    origin: &str,
    previous: &str,
    report: &mut InitReport,
) -> VocabEntry {
    let need = required_type(e.level, e.arm);
    // A `Type` that is not G1's 1-5 (a later engine's unittype.csv id) cannot be judged.
    let fits =
        |kind: &ClassType| matches!(kind, ClassType::Other(_)) || need.as_ref().is_none_or(|n| n == kind);
    let type_name = need.as_ref().map_or("any Type".to_string(), |t| format!("Type {}", t.describe()));
    let classes: Vec<_> = l
        .classes
        .values()
        .filter(|c| fits(&c.kind))
        .map(|c| {
            let (s, why) = class_score(e, &c.def.id);
            (s, why, &c.def)
        })
        .collect();
    let borrowed = e.borrowed_from();
    // What a candidate must match to replace a borrowed id: the nation, and a unit's arm.
    let needs: &[&str] = match (borrowed, e.arm) {
        (None, _) => &[],
        (Some(_), Some(_)) if !e.level.is_commander() => &["nation", "arm"],
        (Some(_), _) => &["nation"],
    };
    let kept_class = l.class(&e.class).filter(|c| fits(&c.kind)).map(|c| &c.def);
    let class = pick("class", &e.class, kept_class, classes, &format!("the {type_name} classes"), needs);
    let drills = drill_candidates(e, l);
    let formation =
        pick("formation", &e.formation, l.drill(&e.formation), drills, "drills of this level", &[]);
    let weapon = match e.level {
        SowLevel::Unit | SowLevel::Gun => {
            let gun = e.level == SowLevel::Gun;
            let src = if gun { &l.artillery } else { &l.rifles };
            let cands = src
                .values()
                .map(|d| {
                    let (s, why) = weapon_score(e, &d.id);
                    (s, why, d)
                })
                .collect();
            let kept = if gun { l.gun(&e.weapon) } else { l.rifle(&e.weapon) };
            let pool = if gun { "artillery.csv guns" } else { "rifles.csv weapons" };
            let needs: &[&str] = if borrowed.is_some() { &["nation", "arm"] } else { &[] };
            Some(pick("weapon", &e.weapon, kept, cands, pool, needs))
        }
        _ => None,
    };
    let picks: Vec<&Pick> = [Some(&class), Some(&formation), weapon.as_ref()].into_iter().flatten().collect();
    let found = picks.iter().all(|p| p.found);
    if !found {
        report.unresolved += 1;
    } else if picks.iter().all(|p| p.kept) {
        report.kept += 1;
    } else {
        report.chosen += 1;
    }
    let notes: Vec<&str> = picks.iter().map(|p| p.note.as_str()).collect();
    // A row whose class is still the lent one stays marked as borrowed; one that got its
    // nation's own class still wears the lent portrait and flags, which Logistics cannot give.
    let (head, tail) = match borrowed {
        Some(b) if class.own_nation => {
            (String::new(), format!(" (portrait and flags still {b}: set them from the mod)"))
        }
        Some(b) => (format!("{b}: "), String::new()),
        None => (String::new(), String::new()),
    };
    let comment = plain(&format!(
        "{head}vocab init from {origin}: {}; portrait flags and ammo kept from {previous}{tail}",
        notes.join("; ")
    ));
    VocabEntry {
        class: class.id.clone(),
        formation: formation.id.clone(),
        weapon: weapon.map_or_else(|| e.weapon.clone(), |w| w.id),
        verified: found,
        comment,
        ..e.clone()
    }
}

/// A vocabulary with the same rows as `current`, its class, drill and weapon ids taken from
/// the install, and its quality levels lowered into the install's attribute tables. `origin`
/// names the install in the comments. Deterministic: candidates are ranked by score, then id.
pub fn init_vocabulary(current: &Vocabulary, l: &Logistics, origin: &str) -> (Vocabulary, InitReport) {
    let mut report = InitReport::default();
    let entries =
        current.entries.iter().map(|e| init_entry(e, l, origin, &current.source, &mut report)).collect();
    let mut qualities = current.qualities.clone();
    for q in &mut qualities {
        for (i, value) in q.values.iter_mut().enumerate() {
            if let (Some(v), Some(t)) = (value.as_mut(), l.attribute(ATTRIBUTE_TABLES[i]))
                && u32::from(*v) >= t.levels
            {
                *v = u8::try_from(t.levels - 1).unwrap_or(u8::MAX);
                report.clamped += 1;
            }
        }
    }
    let v = Vocabulary { source: current.source.clone(), entries, qualities };
    (v, report)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(nation: Option<Nation>, level: SowLevel, arm: Option<Arm>) -> VocabEntry {
        VocabEntry {
            line: 2,
            nation,
            level,
            arm,
            class: String::new(),
            portrait: String::new(),
            weapon: String::new(),
            ammo: 0,
            flag: String::new(),
            flag2: String::new(),
            formation: String::new(),
            verified: false,
            comment: String::new(),
        }
    }

    #[test]
    fn ids_split_into_words_and_short_words_must_match_whole() {
        let w = Words::new("NAP_FR_Cdr_HArt_Bty");
        assert_eq!(w.tokens, vec!["NAP", "FR", "CDR", "HART", "BTY"]);
        assert!(w.has("FR"));
        assert!(!Words::new("NAP_Fresh_Troops").has("FR"), "FR is a word, not a prefix");
        assert!(Words::new("NapBritishLightDragoons").any(nation_words(Nation::Br)));
        assert!(!Words::new("UGLB_Transport_Wagon").any(nation_words(Nation::Po)));
    }

    #[test]
    fn a_battery_commander_never_gets_a_gun_class() {
        let e = entry(Some(Nation::Br), SowLevel::Brigade, Some(Arm::FootArtillery));
        let (cdr, _) = class_score(&e, "NAP_FRA_Art_Cdr_Bty");
        let (gun, _) = class_score(&e, "NAP_BRIT_Foot_Art_Limbered");
        assert!(cdr > gun, "{cdr} {gun}");
        let g = entry(Some(Nation::Br), SowLevel::Gun, Some(Arm::FootArtillery));
        assert!(class_score(&g, "NAP_BRIT_Foot_Art_Limbered").0 > class_score(&g, "NAP_BRIT_Art_Cdr_Bty").0);
    }

    #[test]
    fn drill_levels_are_read_from_the_id() {
        assert_eq!(drill_level("DRIL_Lvl5_Art_Line"), Some(5));
        assert_eq!(drill_level("dril_lvl3_inf"), Some(3));
        assert_eq!(drill_level("DRIL_SupplyWagon"), None);
    }
}
