//! How well an install's id fits a vocabulary row: the words in the id (nation, arm, class,
//! level) scored against the row's key.

use crate::formats::logistics::{IdDef, Logistics};
use crate::model::vocabulary::{SowLevel, VocabEntry};
use crate::model::{Arm, ArmClass, Nation};

/// An id split into upper-case words at punctuation and at lower-to-upper case changes
/// (`NAP_FR_Cdr_HArt_Bty` → NAP FR CDR HART BTY).
pub(super) struct Words {
    upper: String,
    pub(super) tokens: Vec<String>,
}

impl Words {
    pub(super) fn new(id: &str) -> Words {
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
    pub(super) fn has(&self, word: &str) -> bool {
        if word.chars().count() <= 3 {
            self.tokens.iter().any(|t| t == word)
        } else {
            self.upper.contains(word)
        }
    }

    pub(super) fn any(&self, words: &[&str]) -> bool {
        words.iter().any(|w| self.has(w))
    }
}

pub(super) fn nation_words(n: Nation) -> &'static [&'static str] {
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

pub(super) fn class_score(e: &VocabEntry, id: &str) -> (i32, Vec<&'static str>) {
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

pub(super) fn weapon_score(e: &VocabEntry, id: &str) -> (i32, Vec<&'static str>) {
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
pub(super) fn drill_level(id: &str) -> Option<u32> {
    let u = id.to_ascii_uppercase();
    let i = u.find("LVL")?;
    u[i + 3..].chars().next()?.to_digit(10)
}

/// Which candidates a row's drill comes from and how they score: the level's drills
/// (`Lvl3` corps and above, falling back to `Lvl4` as the built-in profile does; `Lvl4`
/// division; `Lvl5` brigade and battery; `Lvl6` unit and gun), the supply-wagon drill for
/// couriers and wagons; then the arm's word and the current drill's last word (`Column`).
pub(super) fn drill_candidates<'a>(
    e: &VocabEntry,
    l: &'a Logistics,
) -> Vec<(i32, Vec<&'static str>, &'a IdDef)> {
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
