//! Information of enemy forces prior to battle (rule 8.5). Before a battle each side scores
//! points for its scouts (light cavalry, dragoons, light infantry) and for its commander's
//! record; comparing the two totals fixes how much the side learns of the enemy — which
//! formations it has, and its men and guns within ±10 % to ±40 % — and which die sets the
//! error. The briefing each side receives is built here; [`markdown`] renders it.

pub mod known;
pub mod markdown;

use std::cmp::Reverse;
use std::collections::BTreeSet;

use crate::model::{Arm, Campaign, Commander, HexId, Level, Side, StatusKind, Unit};

use super::Dice;

/// Points of one side (8.5): 2 per light-cavalry squadron, 1 per dragoon squadron, 1 per
/// light-infantry battalion, +1 per battle its commander has fought, +1 per battle won.
#[derive(Debug, Clone, Default, PartialEq, Eq, serde::Serialize)]
pub struct IntelPoints {
    /// Squadrons of light cavalry (hussars, chasseurs, lancers): 2 points each.
    pub light_cavalry_squadrons: u32,
    /// Squadrons of dragoons: 1 point each.
    pub dragoon_squadrons: u32,
    /// Battalions of light infantry: 1 point each.
    pub light_battalions: u32,
    /// The side's commander for 8.5 (see [`senior_commander`]), if any is named.
    pub commander: Option<String>,
    /// Battles the commander has fought: 1 point each.
    pub battles_fought: u32,
    /// Battles the commander has won: 1 point each, on top of the battle fought.
    pub battles_won: u32,
    /// The sum of the above.
    pub total: u32,
}

/// What one side brings to a battle, as rule 8.5 sees it: the forces that fight (principals
/// and joiners, 8.6) and any light-cavalry reserve held out of the battle (8.7). Ids may name
/// top-level forces or formations inside them (a reserve is often one brigade of a force).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Participants {
    /// Forces in the battle.
    pub forces: Vec<String>,
    /// Subtrees held back as a light-cavalry reserve (8.7): they scout, but do not fight.
    pub reserves: Vec<String>,
    /// Units that stay out of the battle without scouting for it either way: the defender's
    /// men beyond a fortress's maximum garrison, outside its walls (2.5.1). They count in
    /// neither side's reported strength.
    pub outside: Vec<String>,
}

impl Participants {
    /// Forces that all fight, with no reserve.
    pub fn fighting(forces: &[String]) -> Self {
        Participants { forces: forces.to_vec(), ..Participants::default() }
    }

    /// Every id that scores 8.5 points: the forces and the reserves.
    pub fn scouting(&self) -> Vec<String> {
        self.forces.iter().chain(&self.reserves).cloned().collect()
    }
}

/// Rows of the subtrees of `ids`, each once, in the order met; unknown ids are skipped.
fn rows_under<'a>(c: &'a Campaign, ids: &[String]) -> Vec<&'a Unit> {
    let mut seen = BTreeSet::new();
    let mut out = Vec::new();
    for id in ids {
        for u in c.oob.subtree(id) {
            if seen.insert(u.id.as_str()) {
                out.push(u);
            }
        }
    }
    out
}

/// True when a unit takes part at the current turn: neither it nor a formation above it is
/// unavailable (6.5.2.4). Unavailable brigades stay out of the battle, so they neither
/// scout nor count in the enemy's strength.
fn available(c: &Campaign, u: &Unit) -> bool {
    let turn = c.turn().0;
    !u.has_status(StatusKind::Unavailable, turn)
        && !c.oob.ancestors(&u.id).iter().any(|a| a.has_status(StatusKind::Unavailable, turn))
}

/// Rows that fight: under `forces`, not under a reserve.
fn fighting_rows<'a>(c: &'a Campaign, side: &Participants) -> Vec<&'a Unit> {
    let mut held: BTreeSet<&str> = rows_under(c, &side.reserves).into_iter().map(|u| u.id.as_str()).collect();
    held.extend(side.outside.iter().map(String::as_str));
    rows_under(c, &side.forces).into_iter().filter(|u| !held.contains(u.id.as_str())).collect()
}

/// Points of the side made of `forces` (8.5): every available unit of their subtrees
/// counts once, and the commander is [`senior_commander`]. Heavy cavalry scores nothing.
pub fn intel_points(c: &Campaign, forces: &[String]) -> IntelPoints {
    let mut p = IntelPoints::default();
    for u in rows_under(c, forces).into_iter().filter(|u| u.is_unit() && available(c, u)) {
        match u.arm {
            Some(Arm::LightCavalry) => p.light_cavalry_squadrons += u.squadrons,
            Some(Arm::Dragoon) => p.dragoon_squadrons += u.squadrons,
            Some(Arm::Light) => p.light_battalions += 1,
            _ => {}
        }
    }
    if let Some(cmd) = senior_commander(c, forces) {
        p.commander = Some(cmd.name.clone());
        p.battles_fought = cmd.battles_fought;
        p.battles_won = cmd.battles_won;
    }
    p.total = 2 * p.light_cavalry_squadrons
        + p.dragoon_squadrons
        + p.light_battalions
        + p.battles_fought
        + p.battles_won;
    p
}

/// Orders formations by seniority: higher level first (army > corps > division > brigade),
/// then more men, then id.
fn by_seniority(c: &Campaign, rows: &mut [&Unit]) {
    rows.sort_by_cached_key(|u| seniority(c, u));
}

/// A formation's place in seniority (8.5), smallest first: higher level, then more men, then id.
pub fn seniority(c: &Campaign, u: &Unit) -> (u8, Reverse<u32>, compact_str::CompactString) {
    seniority_with(u, c.oob.strength(u).men())
}

/// [`seniority`] of a formation whose men (its subtree's) are counted already.
pub fn seniority_with(u: &Unit, men: u32) -> (u8, Reverse<u32>, compact_str::CompactString) {
    (u.level.rank(), Reverse(men), u.id.clone())
}

/// The side's commander for 8.5: the commander of the senior participating formation
/// (highest level: army > corps > division > brigade; ties: more men, then id). When that
/// formation names no commander, the senior named commander below it is taken; when its whole
/// subtree names none, the next formation in seniority is tried. `None` when no one is named.
pub fn senior_commander<'a>(c: &'a Campaign, forces: &[String]) -> Option<&'a Commander> {
    let mut tops: Vec<&Unit> = Vec::new();
    for u in forces.iter().filter_map(|id| c.oob.get(id)) {
        if !tops.iter().any(|t| t.id == u.id) {
            tops.push(u);
        }
    }
    by_seniority(c, &mut tops);
    let named = |u: &Unit| u.commander().and_then(|n| c.commander(n));
    for top in tops {
        let mut below: Vec<&Unit> = c
            .oob
            .subtree(&top.id)
            .into_iter()
            .filter(|u| u.level.is_formation() && named(u).is_some())
            .collect();
        by_seniority(c, &mut below);
        if let Some(cmd) = below.first().and_then(|u| named(u)) {
            return Some(cmd);
        }
    }
    None
}

/// How a side's points compare with the enemy's (8.5), which sets what it learns.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub enum Reading {
    /// At least twice the enemy's points: formations down to brigades, ±10 % on a d6.
    TwiceMore,
    /// More points than the enemy: formations down to brigades, ±20 % on a d6.
    More,
    /// Fewer points, or equal: corps and divisions only, ±30 % on a d8.
    Fewer,
    /// At most half the enemy's points: corps and divisions only, ±40 % on a d10.
    TwiceFewer,
}

/// Error in per cent for each face of the die (face 1 first), as rule 8.5 lists them.
const TWICE_MORE: [i32; 6] = [-10, -10, 0, 0, 10, 10];
const MORE: [i32; 6] = [-20, -10, 0, 0, 10, 20];
const FEWER: [i32; 8] = [-30, -20, -10, 0, 0, 10, 20, 30];
const TWICE_FEWER: [i32; 10] = [-40, -30, -20, -10, 0, 0, 10, 20, 30, 40];

impl Reading {
    fn table(self) -> &'static [i32] {
        match self {
            Reading::TwiceMore => &TWICE_MORE,
            Reading::More => &MORE,
            Reading::Fewer => &FEWER,
            Reading::TwiceFewer => &TWICE_FEWER,
        }
    }

    /// Faces of the die rolled for this reading: 6, 6, 8 or 10.
    pub fn die(self) -> u32 {
        self.table().len() as u32
    }

    /// The accuracy band in per cent: 10, 20, 30 or 40.
    pub fn accuracy_pct(self) -> u32 {
        self.table().iter().map(|p| p.unsigned_abs()).max().unwrap_or(0)
    }

    /// The error in per cent for a face of the die (faces outside the die are clamped).
    pub fn error_pct(self, face: u32) -> i32 {
        let t = self.table();
        let i = (face.max(1) as usize).min(t.len()) - 1;
        t[i]
    }

    /// True when the report counts the enemy's brigades as well as its corps and divisions.
    pub fn advises_brigades(self) -> bool {
        matches!(self, Reading::TwiceMore | Reading::More)
    }

    /// The comparison in words, e.g. "at least twice the enemy's points".
    pub fn describe(self) -> &'static str {
        match self {
            Reading::TwiceMore => "at least twice the enemy's points",
            Reading::More => "more points than the enemy",
            Reading::Fewer => "fewer points than the enemy, or as many",
            Reading::TwiceFewer => "at most half the enemy's points",
        }
    }
}

/// Compares a side's points with the enemy's (8.5): "2× more" when own ≥ 2 × enemy and
/// own > 0; "more" when own > enemy; "2× fewer" when enemy ≥ 2 × own and enemy > 0;
/// otherwise, equal points included, "fewer".
pub fn reading(own: u32, enemy: u32) -> Reading {
    let (own, enemy) = (u64::from(own), u64::from(enemy));
    if own > 0 && own >= 2 * enemy {
        Reading::TwiceMore
    } else if own > enemy {
        Reading::More
    } else if enemy > 0 && enemy >= 2 * own {
        Reading::TwiceFewer
    } else {
        Reading::Fewer
    }
}

/// `value × (100 + pct) / 100` rounded to the nearest multiple of `step`, halves up.
fn scaled(value: u32, pct: i32, step: u64) -> u32 {
    let factor = u64::try_from(100 + i64::from(pct)).unwrap_or(0);
    let hundredths = u64::from(value) * factor;
    let unit = 100 * step;
    u32::try_from((hundredths + unit / 2) / unit * step).unwrap_or(u32::MAX)
}

/// Men as reported (8.5): the true men off by `pct` per cent, to the nearest 50 (halves up).
pub fn reported_men(true_men: u32, pct: i32) -> u32 {
    scaled(true_men, pct, 50)
}

/// Guns as reported (8.5): the true guns off by `pct` per cent, to the nearest gun (halves up).
pub fn reported_guns(true_guns: u32, pct: i32) -> u32 {
    scaled(true_guns, pct, 1)
}

/// An enemy force known to be in contact (8.1): its name and hex, never its strength.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct ReportedForce {
    /// Hex it stands on.
    pub hex: HexId,
    /// Display name.
    pub name: String,
    /// Id in `forces.csv`.
    pub id: String,
}

/// One side's briefing before a battle (8.5): its points, the enemy's total, the dice, and
/// what it is told of the enemy. It holds no exact enemy strength.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Briefing {
    /// Battle id, e.g. `T20-18.28`.
    pub battle: String,
    /// Battle hex.
    pub hex: HexId,
    /// The side briefed.
    pub side: Side,
    /// The side's own points, itemised.
    pub own: IntelPoints,
    /// The enemy's points (the rule lets each side know the comparison).
    pub enemy_points: IntelPoints,
    /// How the points compare.
    pub reading: Reading,
    /// The die rolled for the enemy's men.
    pub men_roll: u32,
    /// The error it gives, per cent.
    pub men_error_pct: i32,
    /// The die rolled, separately, for the enemy's guns.
    pub guns_roll: u32,
    /// The error it gives, per cent.
    pub guns_error_pct: i32,
    /// Enemy men as reported, to the nearest 50.
    pub reported_men: u32,
    /// Enemy guns as reported.
    pub reported_guns: u32,
    /// Enemy corps.
    pub corps: u32,
    /// Enemy divisions.
    pub divisions: u32,
    /// Enemy brigades; `None` when the reading does not advise them (fewer points).
    pub brigades: Option<u32>,
    /// Enemy forces in the battle, by hex and name.
    pub enemy_forces: Vec<ReportedForce>,
}

/// Briefs `side` for a battle (8.5) when neither side holds a reserve: points from
/// `own_forces` and `enemy_forces`, the enemy's strength and formations from `enemy_forces`.
/// The side's own light-cavalry reserve may be listed in `own_forces` (it still scouts);
/// for an enemy reserve use [`brief_sides`].
pub fn brief(
    c: &Campaign,
    battle_id: &str,
    hex: HexId,
    side: Side,
    own_forces: &[String],
    enemy_forces: &[String],
    dice: &mut dyn Dice,
) -> Briefing {
    brief_sides(
        c,
        battle_id,
        hex,
        side,
        &Participants::fighting(own_forces),
        &Participants::fighting(enemy_forces),
        dice,
    )
}

/// Briefs `side` for a battle (8.5). Each side's points count its forces and its reserves
/// (a reserve still scouts); the enemy's reported men, guns and formations cover only what
/// fights. Rolls one die for the enemy's men, then one, separately, for its guns.
pub fn brief_sides(
    c: &Campaign,
    battle_id: &str,
    hex: HexId,
    side: Side,
    own: &Participants,
    enemy: &Participants,
    dice: &mut dyn Dice,
) -> Briefing {
    let own_points = intel_points(c, &own.scouting());
    let enemy_points = intel_points(c, &enemy.scouting());
    let reading = reading(own_points.total, enemy_points.total);
    let die = reading.die();
    let men_roll = dice.roll(die, &format!("8.5 {side} intelligence: enemy men (d{die})"));
    let guns_roll = dice.roll(die, &format!("8.5 {side} intelligence: enemy guns (d{die})"));
    let (men_error_pct, guns_error_pct) = (reading.error_pct(men_roll), reading.error_pct(guns_roll));

    let fighting: Vec<&Unit> = fighting_rows(c, enemy);
    let (mut men, mut guns) = (0u32, 0u32);
    // Formations count only when an available, fighting unit stands below them.
    let mut manned: BTreeSet<&str> = BTreeSet::new();
    for u in fighting.iter().filter(|u| u.is_unit() && available(c, u)) {
        men += u.men;
        guns += u.guns;
        manned.extend(c.oob.ancestors(&u.id).into_iter().map(|a| a.id.as_str()));
    }
    let count = |level: Level| {
        let n = fighting.iter().filter(|f| f.level == level && manned.contains(f.id.as_str())).count();
        u32::try_from(n).unwrap_or(u32::MAX)
    };
    let (corps, divisions, brigades) = (count(Level::Corps), count(Level::Division), count(Level::Brigade));

    // Named are only the enemy forces in contact (8.1) with one of the side's own: an enemy
    // joiner (8.6) that no own force touches stays unknown until it arrives.
    let own_tops: Vec<&Unit> = own.forces.iter().filter_map(|f| c.oob.force_of(f)).collect();
    let mut enemy_forces: Vec<ReportedForce> = Vec::new();
    for id in &enemy.forces {
        let (Some(u), Some(top)) = (c.oob.get(id), c.oob.force_of(id)) else { continue };
        if !own_tops.iter().any(|o| super::zoc::in_contact(c, o, top).is_some()) {
            continue;
        }
        let r = ReportedForce { hex: top.hex.unwrap_or(hex), name: u.name.to_string(), id: u.id.to_string() };
        if !enemy_forces.contains(&r) {
            enemy_forces.push(r);
        }
    }
    enemy_forces.sort();

    Briefing {
        battle: battle_id.to_string(),
        hex,
        side,
        own: own_points,
        enemy_points,
        reading,
        men_roll,
        men_error_pct,
        guns_roll,
        guns_error_pct,
        reported_men: reported_men(men, men_error_pct),
        reported_guns: reported_guns(guns, guns_error_pct),
        corps,
        divisions,
        brigades: reading.advises_brigades().then_some(brigades),
        enemy_forces,
    }
}

#[cfg(test)]
mod tests;
