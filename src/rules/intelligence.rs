//! General intelligence of the enemy (rule 9.0). At the start every enemy field force's
//! location and approximate strength is known; after that each enemy movement has a die
//! rolled for it: within one map move of the side's own forces it is known this turn on 4–6,
//! next turn on 1–3; beyond, next turn on 4–6, after two turns (a month) on 1–3. Each
//! movement becomes a row of `intelligence.csv` with the turn the side learns of it; the turn
//! advance that ends that turn reports it to the side, and the side's view
//! (`rules::intel::known`) shows the force where it was seen from then on.
//!
//! One map move is the moving force's own road move (6.3). A strength is "approximate" (9.0)
//! at 8.5's accuracy for the side that hears of it: the reading of its points (8.5) within one
//! map move of the force (or in contact with it) against the force's own, one die for the men
//! and another for the guns off 8.5's table; news from beyond one map move is rumour, at 8.5's
//! widest band (±40 % on a d10). A contact is seen: at each turn advance each side learns, this
//! turn, of every enemy force in contact with one of its own (8.1), where it stands, its
//! strength at the accuracy of the reading between the forces in that contact. A force
//! destroyed or captured leaves the side's picture ([`crate::rules::intel::known::reports`]).
//!
//! A battle is seen ([`after_battle`]): when its result is applied, each side sees every enemy
//! force that fought it as the battle ends — where it stands after the loser's withdrawal
//! (8.4: the withdrawal is the battle's last act, made away from the victor in its presence,
//! so the victor sees where it ends; it is no 9.0 movement and rolls no die of news), its
//! strength after the battle at the accuracy of the reading between that side's forces in the
//! battle and the force (8.5) — and a force destroyed or dispersed in it is not seen at all.
//! Such a sighting is a row of `intelligence.csv` with the hex the force fought from and no
//! die; it is learnt the turn of the battle, above that turn's opening position and news of
//! the withdrawal, below a contact seen at a later position.

use std::cmp::Reverse;
use std::collections::{HashMap, HashSet};

use compact_str::CompactString;

use crate::model::battle::BattleRecord;
use crate::model::books::Sighting;
use crate::model::oob::IdMap;
use crate::model::{Arm, Campaign, Commander, HexId, Side, StatusKind, Strength, Unit};
use crate::rules::dice::Dice;
use crate::rules::effects::Effect;
use crate::rules::intel::{Reading, reading, reported_guns, reported_men, seniority_with};
use crate::rules::movement::road_allowance;
use crate::rules::turn::{PhaseOutcome, Section, TurnContext};

/// The turn the side learns of a movement of turn `moved` (9.0).
pub fn known_on(moved: u32, near: bool, die: u32) -> u32 {
    match (near, die >= 4) {
        (true, true) => moved,
        (true, false) | (false, true) => moved + 1,
        (false, false) => moved + 2,
    }
}

/// What 9.0 needs of every top-level force, worked out once for the phase: where it stands,
/// its own points of 8.5 (light cavalry, dragoons, light battalions of its available units),
/// the senior named commander in it and its strength, so that a side's points within one map
/// move of a force are a sum over the hexes there, not a walk of the order of battle for every
/// force heard of. The sums are [`crate::rules::intel::intel_points`]'s: the forces' subtrees
/// do not overlap, and a set's commander is the one of its most senior force that names one.
struct Scouting<'a> {
    /// Each force's place among the forces (`forces.csv` order), by id.
    numbers: IdMap<&'a str, u32>,
    /// Each force's scouting, by its place.
    scouts: Vec<Scout<'a>>,
    /// What each side's forces in each hex add up to: one slot per side and hex of the grid
    /// ([`Scouting::slot`]), so that the points within one map move are a sum over hexes.
    cells: Vec<Tally>,
}

struct Scout<'a> {
    /// 2 × light cavalry squadrons + dragoon squadrons + light battalions.
    units: u32,
    seniority: (u8, Reverse<u32>, CompactString),
    /// The senior named commander in its subtree.
    commander: Option<&'a Commander>,
    /// Its men and guns (all its units, as [`crate::model::OrderOfBattle::strength`] counts).
    strength: Strength,
}

/// Forces summed for their points (8.5): one force, one side's forces in a hex, or those
/// within one map move.
#[derive(Clone, Copy, Default)]
struct Tally {
    forces: u32,
    units: u32,
    /// The most senior of them that names a commander, by its place.
    senior: Option<u32>,
}

impl Tally {
    /// One force (by its place) of `scouts`.
    fn of(scouts: &[Scout<'_>], k: u32) -> Tally {
        let s = &scouts[k as usize];
        Tally { forces: 1, units: s.units, senior: s.commander.map(|_| k) }
    }

    /// Adds `more` (forces of `scouts`): the most senior named force of the two stays.
    fn add(&mut self, scouts: &[Scout<'_>], more: Tally) {
        self.forces += more.forces;
        self.units += more.units;
        if let Some(k) = more.senior
            && self.senior.is_none_or(|s| scouts[k as usize].seniority < scouts[s as usize].seniority)
        {
            self.senior = Some(k);
        }
    }
}

impl<'a> Scouting<'a> {
    fn new(c: &'a Campaign) -> Scouting<'a> {
        let names: HashMap<&str, &Commander> =
            c.commanders.iter().rev().map(|k| (k.name.as_str(), k)).collect();
        let turn = c.turn().0;
        let g = c.map.grid;
        let mut numbers = IdMap::default();
        numbers.reserve(c.oob.forces().len());
        let mut scouts: Vec<Scout<'a>> = Vec::with_capacity(c.oob.forces().len());
        let mut cells = vec![Tally::default(); 2 * g.cells()];
        // A force's rows, parents first: each with its parent's place here and whether it or a
        // formation above it is unavailable.
        let mut rows: Vec<(&Unit, usize, bool)> = Vec::new();
        let mut men: Vec<u32> = Vec::new();
        let mut stack: Vec<(&Unit, usize, bool)> = Vec::new();
        for (k, f) in c.oob.forces().enumerate() {
            let k = k as u32;
            rows.clear();
            stack.push((f, usize::MAX, f.has_status(StatusKind::Unavailable, turn)));
            while let Some((u, parent, off)) = stack.pop() {
                let here = rows.len();
                rows.push((u, parent, off));
                stack.extend(
                    c.oob
                        .children(u)
                        .map(|kid| (kid, here, off || kid.has_status(StatusKind::Unavailable, turn))),
                );
            }
            // Men below each row, children before parents.
            men.clear();
            men.resize(rows.len(), 0);
            let (mut units, mut strength) = (0, Strength::default());
            for (i, &(u, parent, off)) in rows.iter().enumerate().rev() {
                if u.is_unit() {
                    if !off {
                        units += match u.arm {
                            Some(Arm::LightCavalry) => 2 * u.squadrons,
                            Some(Arm::Dragoon) => u.squadrons,
                            Some(Arm::Light) => 1,
                            _ => 0,
                        };
                    }
                    let own = Strength::of_row(u);
                    strength.add(&own);
                    men[i] += own.men();
                }
                if parent != usize::MAX {
                    men[parent] += men[i];
                }
            }
            let mut best = None;
            for (i, &(u, _, _)) in rows.iter().enumerate() {
                if u.level.is_formation()
                    && let Some(named) = u.commander().and_then(|n| names.get(n))
                {
                    let key = seniority_with(u, men[i]);
                    if best.as_ref().is_none_or(|(b, _)| key < *b) {
                        best = Some((key, *named));
                    }
                }
            }
            let commander = best.map(|(_, named)| named);
            let seniority = seniority_with(f, men[0]);
            numbers.insert(f.id.as_str(), k);
            scouts.push(Scout { units, seniority, commander, strength });
            if let Some(i) = f.hex.and_then(|h| Scouting::slot(c, f.side(), h)) {
                cells[i].add(&scouts, Tally::of(&scouts, k));
            }
        }
        Scouting { numbers, scouts, cells }
    }

    /// The slot of a side's hex in `cells` (none for a hex off the grid).
    fn slot(c: &Campaign, side: Side, h: HexId) -> Option<usize> {
        c.map.grid.cell(h).map(|cell| cell * 2 + usize::from(side == Side::Allies))
    }

    /// The points (8.5) of a tally: its units and its senior commander's battles.
    fn points_of(&self, t: Tally) -> u32 {
        let commander = t.senior.and_then(|k| self.scouts[k as usize].commander);
        t.units + commander.map_or(0, |k| k.battles_fought + k.battles_won)
    }

    /// The points (8.5) of a set of top-level forces.
    fn points(&self, ids: &[&str]) -> u32 {
        let mut t = Tally::default();
        for &k in ids.iter().filter_map(|id| self.numbers.get(id)) {
            t.add(&self.scouts, Tally::of(&self.scouts, k));
        }
        self.points_of(t)
    }

    /// The accuracy the side of `scouts` hears force `f` at (9.0 read with 8.5): their points
    /// against the force's; with none (news from beyond one map move): 8.5's widest band.
    fn accuracy(&self, f: &Unit, scouts: &[&str]) -> Reading {
        if scouts.is_empty() {
            return Reading::TwiceFewer;
        }
        reading(self.points(scouts), self.points(&[f.id.as_str()]))
    }

    /// The forces of `side` within `reach` hexes of one of the hexes, summed (each hex once).
    fn near(&self, c: &Campaign, side: Side, hexes: &[HexId], reach: u32) -> Tally {
        let g = c.map.grid;
        let mut t = Tally::default();
        let r = i32::try_from(reach).unwrap_or(i32::MAX / 4);
        // The hexes within reach of any of them lie in one box of columns and rows.
        let cols = hexes.iter().map(|x| i32::from(x.col));
        let rows = hexes.iter().map(|x| i32::from(x.row));
        let (Some(c0), Some(c1), Some(r0), Some(r1)) =
            (cols.clone().min(), cols.max(), rows.clone().min(), rows.max())
        else {
            return t;
        };
        for col in (c0.saturating_sub(r)).max(0)..=(c1.saturating_add(r)).min(i32::from(g.columns) - 1) {
            for row in
                (r0.saturating_sub(r + 1)).max(0)..=(r1.saturating_add(r + 1)).min(i32::from(g.rows) - 1)
            {
                let h = HexId::new(col as u16, row as u16);
                // Most hexes hold no force of the side: the distance only for those that do.
                if let Some(cell) = Scouting::slot(c, side, h).map(|i| self.cells[i])
                    && cell.forces > 0
                    && hexes.iter().any(|&x| g.distance(h, x) <= reach)
                {
                    t.add(&self.scouts, cell);
                }
            }
        }
        t
    }

    /// A force's men and guns.
    fn strength(&self, c: &Campaign, f: &Unit) -> Strength {
        match self.numbers.get(f.id.as_str()) {
            Some(&k) => self.scouts[k as usize].strength,
            None => c.oob.strength(f),
        }
    }
}

/// What the enemy of a force can make of a movement of it (9.0): the force's one map move,
/// whether a force of the enemy's stands within it, and the reading of those forces.
struct Look {
    reach: u32,
    near: bool,
    reading: Reading,
}

impl Scouting<'_> {
    /// What the enemy of `f` makes of it, seen from its forces within one map move of `hexes`.
    fn look(&self, c: &Campaign, f: &Unit, hexes: &[HexId], from: crate::model::Turn) -> Look {
        let reach = road_allowance(c, &f.id, from).hexes();
        let scouts = self.near(c, f.side().enemy(), hexes, reach);
        if scouts.forces == 0 {
            return Look { reach, near: false, reading: Reading::TwiceFewer };
        }
        Look { reach, near: true, reading: reading(self.points_of(scouts), self.points(&[f.id.as_str()])) }
    }
}

/// `look` of each of `items`, in order: the two halves on two threads (a large campaign has
/// thousands of forces, and nothing here rolls a die).
fn looks<T: Sync>(items: &[T], look: impl Fn(&T) -> Look + Sync) -> Vec<Look> {
    let (a, b) = items.split_at(items.len() / 2);
    std::thread::scope(|s| {
        let second = s.spawn(|| b.iter().map(&look).collect::<Vec<_>>());
        let mut out: Vec<Look> = a.iter().map(&look).collect();
        out.extend(second.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic)));
        out
    })
}

/// Men and guns of `f` as `side` hears them: one die for the men, another for the guns, off
/// 8.5's table for the reading.
fn heard(s: Strength, f: &Unit, side: Side, r: Reading, dice: &mut dyn Dice) -> (u32, u32, String) {
    let die = r.die();
    let m = dice.roll(die, &format!("9.0 {} men as the {side} hear them (d{die})", f.id));
    let g = dice.roll(die, &format!("9.0 {} guns as the {side} hear them (d{die})", f.id));
    let (pm, pg) = (r.error_pct(m), r.error_pct(g));
    (
        reported_men(s.men(), pm),
        reported_guns(s.guns, pg),
        format!("±{} %: d{die} {m} → {pm:+} %, d{die} {g} → {pg:+} %", r.accuracy_pct()),
    )
}

fn sighting(
    f: &Unit,
    side: Side,
    from: Option<HexId>,
    moved: u32,
    near: bool,
    die: u32,
    (men, guns): (u32, u32),
) -> Option<Sighting> {
    let hex = match (from, die) {
        // The opening positions: where the force stood before this turn's moves.
        (Some(was), 0) => was,
        _ => f.hex?,
    };
    let from = if die == 0 { None } else { from };
    Some(Sighting {
        known: if die == 0 { moved } else { known_on(moved, near, die) },
        side,
        force: f.id.to_string(),
        name: f.name.to_string(),
        from,
        hex,
        moved,
        men,
        guns,
        near,
        die,
    })
}

/// The words a side reads for a sighting.
pub fn describe(s: &Sighting) -> String {
    let guns = if s.guns > 0 { format!(", {} guns", s.guns) } else { String::new() };
    match s.from {
        Some(from) if at_battle(s) && from != s.hex => format!(
            "{} ({}): seen withdrawing from {from} to {} after the battle of turn {}, about {} men{guns}",
            s.name, s.force, s.hex, s.moved, s.men
        ),
        Some(_) if at_battle(s) => format!(
            "{} ({}): at {} at the end of the battle of turn {}, about {} men{guns}",
            s.name, s.force, s.hex, s.moved, s.men
        ),
        Some(from) => format!(
            "{} ({}): seen at {} (from {from}), about {} men{guns} — moved on turn {}",
            s.name, s.force, s.hex, s.men, s.moved
        ),
        None => format!("{} ({}): at {}, about {} men{guns}", s.name, s.force, s.hex, s.men),
    }
}

/// True for a sighting made at a battle's end ([`after_battle`]): the only rows with the hex a
/// force came from and no die.
pub fn at_battle(s: &Sighting) -> bool {
    s.die == 0 && s.from.is_some()
}

/// Whether the opening positions (9.0 "at the start") have been given: `intelligence.csv`
/// holds a row a turn advance wrote (or none at all); the sightings of a battle fought before
/// the first advance do not count.
fn begun(c: &Campaign) -> bool {
    let rows = &c.books.intelligence;
    c.books.intelligence_begun && (rows.is_empty() || !rows.iter().all(at_battle))
}

/// What each side sees of the enemy at a battle's end, on the campaign as the result left it
/// (losses taken, the losers withdrawn): a sighting of every enemy force that fought, where
/// it now stands, learnt this turn, its men and guns heard at 8.5's reading of the side's
/// forces in the battle against the force (one die each, from `dice`). A force destroyed or
/// dispersed (no men left) or gone from the order of battle is not seen: it has left the
/// picture.
pub fn after_battle(c: &Campaign, b: &BattleRecord, dice: &mut dyn Dice) -> Vec<Sighting> {
    let scouting = Scouting::new(c);
    let turn = c.config.turn;
    let mut out = Vec::new();
    for side in [Side::French, Side::Allies] {
        let scouts: Vec<&str> = b.forces(side).map(|p| p.force.as_str()).collect();
        for p in b.forces(side.enemy()) {
            let Some(f) = c.oob.get(&p.force) else { continue };
            let Some(hex) = f.hex else { continue };
            if !c.oob.has_men(f) {
                continue;
            }
            let r = scouting.accuracy(f, &scouts);
            let (men, guns, _) = heard(scouting.strength(c, f), f, side, r, dice);
            out.push(Sighting {
                known: turn,
                side,
                force: f.id.to_string(),
                name: f.name.to_string(),
                from: Some(p.hex),
                hex,
                moved: turn,
                men,
                guns,
                near: true,
                die: 0,
            });
        }
    }
    out
}

/// The intelligence phase of the turn (9.0).
pub fn phase(c: &Campaign, ctx: &TurnContext, dice: &mut dyn Dice) -> PhaseOutcome {
    let mut sec = Section::new("Intelligence (9.0)");
    let mut effects = Vec::new();
    let from = ctx.from.0;
    let mut new: Vec<Sighting> = Vec::new();
    let scouting = Scouting::new(c);
    // Seen at a battle's end this turn, where it still stands: no opening position, no die of
    // news for its withdrawal, no second look in contact.
    let battle_seen: HashSet<(Side, &str, HexId)> = c
        .books
        .intelligence
        .iter()
        .filter(|s| at_battle(s) && s.known == from)
        .map(|s| (s.side, s.force.as_str(), s.hex))
        .collect();
    let seen_in_battle =
        |side: Side, f: &Unit| f.hex.is_some_and(|h| battle_seen.contains(&(side, f.id.as_str(), h)));
    if !begun(c) {
        sec.umpire("9.0 at the start: every enemy field force's location and approximate strength is known to each side.");
        let known: Vec<(&Unit, HexId)> = c
            .oob
            .forces()
            .filter_map(|f| Some((f, ctx.moved.get(f.id.as_str()).copied().or(f.hex)?)))
            .filter(|(f, _)| !seen_in_battle(f.side().enemy(), f))
            .collect();
        let looks = looks(&known, |&(f, at)| scouting.look(c, f, &[at], ctx.from));
        for (&(f, at), look) in known.iter().zip(looks) {
            let side = f.side().enemy();
            let (men, guns, how) = heard(scouting.strength(c, f), f, side, look.reading, dice);
            sec.umpire(format!(
                "the {side} know {} ({}) at {at}: {men} men, {guns} guns ({how})",
                f.name, f.id
            ));
            if let Some(s) = sighting(f, side, Some(at), from, true, 0, (men, guns)) {
                new.push(s);
            }
        }
    }
    let moved: Vec<(&Unit, HexId, HexId)> = c
        .oob
        .forces()
        .filter_map(|f| Some((f, *ctx.moved.get(f.id.as_str())?, f.hex?)))
        .filter(|(f, _, _)| !seen_in_battle(f.side().enemy(), f))
        .collect();
    let looks = looks(&moved, |&(f, was, now)| scouting.look(c, f, &[was, now], ctx.from));
    for (&(f, was, now), look) in moved.iter().zip(looks) {
        let learner = f.side().enemy();
        let Look { reach, near, reading } = look;
        let die = dice.roll(6, &format!("9.0 news of {} reaching the {}", f.id, learner));
        let (men, guns, how) = heard(scouting.strength(c, f), f, learner, reading, dice);
        let Some(s) = sighting(f, learner, Some(was), from, near, die, (men, guns)) else { continue };
        sec.umpire(format!(
            "{} ({}) moved {was} → {now}, {} one map move ({reach} hexes) of the {}: 1d6 {die} → known {}; heard at {men} men, {guns} guns ({how})",
            f.name,
            f.id,
            if near { "within" } else { "beyond" },
            learner,
            match s.known - from {
                0 => "this turn".to_string(),
                1 => format!("next turn (turn {})", s.known),
                _ => format!("after two turns (turn {})", s.known),
            }
        ));
        new.push(s);
    }
    // Contacts are seen (8.1): each side learns now of every enemy force in contact.
    for k in crate::rules::zoc::contacts(c) {
        for side in [Side::French, Side::Allies] {
            let scouts: Vec<&str> = k.side(side).iter().map(String::as_str).collect();
            for id in k.side(side.enemy()) {
                let Some(f) = c.oob.get(id) else { continue };
                let Some(hex) = f.hex else { continue };
                let told = |s: &Sighting| s.side == side && s.force == *id && s.known == from && s.hex == hex;
                if new.iter().any(told) || seen_in_battle(side, f) {
                    continue;
                }
                let r = scouting.accuracy(f, &scouts);
                let (men, guns, how) = heard(scouting.strength(c, f), f, side, r, dice);
                sec.umpire(format!(
                    "the {side} see {} ({}) in contact at {hex}: {men} men, {guns} guns ({how})",
                    f.name, f.id
                ));
                new.push(Sighting {
                    known: from,
                    side,
                    force: f.id.to_string(),
                    name: f.name.to_string(),
                    from: None,
                    hex,
                    moved: from,
                    men,
                    guns,
                    near: true,
                    die: 0,
                });
            }
        }
    }
    tell(c, from, &new, &mut sec);
    effects.extend(new.into_iter().map(Effect::Sighting));
    PhaseOutcome { phase: "intelligence", section: sec, effects }
}

/// Each side's lines of the turn: one per enemy force, the newest sighting the side learns
/// this turn (the latest turn moved; of one turn, the latest recorded — what was seen at a
/// battle's end, recorded by `apply`, which takes the place of the opening position and of
/// the news of the withdrawal; the opening position; the news of the turn's movement; the
/// contact seen at the advance). A force destroyed or captured is not reported.
fn tell(c: &Campaign, from: u32, new: &[Sighting], sec: &mut Section) {
    let standing = |s: &&Sighting| c.oob.get(&s.force).is_some_and(|f| c.oob.has_men(f));
    for side in [Side::French, Side::Allies] {
        let mut newest: std::collections::BTreeMap<&str, &Sighting> = std::collections::BTreeMap::new();
        for s in c.books.intelligence.iter().chain(new).filter(|s| s.side == side && s.known == from) {
            let e = newest.entry(s.force.as_str()).or_insert(s);
            if s.moved >= e.moved {
                *e = s;
            }
        }
        let mut due: Vec<&Sighting> = newest.into_values().filter(standing).collect();
        due.sort();
        if due.is_empty() {
            sec.side(side, "No news of enemy movements this turn.");
        }
        for s in due {
            let told = describe(s);
            sec.umpire(format!("the {side} learn: {told}"));
            sec.side(side, told);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;
    use crate::rules::effects::testing::{camp, ctx};

    #[test]
    fn the_looks_come_back_in_the_order_asked_whatever_the_halves() {
        for n in [0u32, 1, 2, 7] {
            let items: Vec<u32> = (0..n).collect();
            let got: Vec<u32> =
                looks(&items, |&i| Look { reach: i, near: false, reading: Reading::TwiceFewer })
                    .into_iter()
                    .map(|l| l.reach)
                    .collect();
            assert_eq!(got, items);
        }
    }

    const FORCES: &str = "FR-I,,corps,Victor,,Fr,,,,,18.28\nFR-I-1,FR-I,battalion,a,,Fr,line,6140,,,\n\
        FR-FAR,,division,Far,,Fr,,,,,60.05\nFR-FAR-1,FR-FAR,battalion,b,,Fr,line,555,,,\n\
        SP-EXT,,army,Cuesta,Cuesta,Sp,,,,,18.31\nSP-EXT-1,SP-EXT,battalion,c,,Sp,line,600,,,\n";
    const BEGUN: &str = "known,side,force,name,from,hex,moved,men,guns,near,die\n";

    #[test]
    fn news_of_a_movement_is_deferred_by_its_die() {
        let c = camp(20, "", FORCES, &[("intelligence.csv", BEGUN)]);
        // Victor moved near Cuesta: 1d6 2 → next turn; his strength heard at 8.5's reading of
        // Cuesta's points against his (0 against 0: "fewer", ±30 % on a d8): men d8 1 → −30 %,
        // guns d8 4 → exact. Far moved far away: 1d6 5 → next turn; rumour, ±40 % on a d10.
        let dice = [2, 1, 4, 5, 5, 5];
        let out =
            phase(&c, &ctx(20, &[("FR-I", "18.27"), ("FR-FAR", "60.04")]), &mut ScriptedDice::new(dice));
        let s: Vec<(&str, bool, u32)> = out
            .effects
            .iter()
            .filter_map(|e| match e {
                Effect::Sighting(s) => Some((s.force.as_str(), s.near, s.known)),
                _ => None,
            })
            .collect();
        assert_eq!(s, [("FR-I", true, 21), ("FR-FAR", false, 21)]);
        let text = out.section.umpire.join("\n");
        assert!(text.contains("heard at 4300 men, 0 guns (±30 %: d8 1 → -30 %, d8 4 → +0 %)"), "{text}");
        assert!(text.contains("(±40 %: d10 5"), "{text}");
        assert_eq!(out.section.allies, ["No news of enemy movements this turn."]);
        // Reported at the advance out of 21, with the approximate strength.
        let mut c2 = c.clone();
        crate::rules::effects::apply_effects(&mut c2, &out.effects, 2);
        let out = phase(&c2, &ctx(21, &[]), &mut ScriptedDice::new([]));
        assert_eq!(out.section.allies.len(), 2);
        assert!(
            out.section
                .allies
                .iter()
                .any(|l| l.starts_with("Victor (FR-I): seen at 18.28 (from 18.27), about 4300 men")),
            "{:?}",
            out.section.allies
        );
        // Near on 4–6: this turn; far on 1–3: after two turns.
        assert_eq!((known_on(20, true, 4), known_on(20, false, 3)), (20, 22));
    }

    #[test]
    fn the_opening_positions_are_where_the_forces_stood_before_the_turns_moves() {
        // No intelligence.csv yet: every enemy force is known, at its position before it moved;
        // the move itself waits for its die (1d6 1, near: next turn).
        let c = camp(20, "", FORCES, &[]);
        let dice = [4, 4, 4, 4, 4, 4, 1, 4, 4];
        let out = phase(&c, &ctx(20, &[("FR-I", "18.27")]), &mut ScriptedDice::new(dice));
        let victor: Vec<(Option<String>, String, u32)> = out
            .effects
            .iter()
            .filter_map(|e| match e {
                Effect::Sighting(s) if s.force == "FR-I" => {
                    Some((s.from.map(|h| h.to_string()), s.hex.to_string(), s.known))
                }
                _ => None,
            })
            .collect();
        assert_eq!(
            victor,
            [(None, "18.27".to_string(), 20), (Some("18.27".to_string()), "18.28".to_string(), 21)]
        );
        assert!(
            out.section.allies.iter().any(|l| l.starts_with("Victor (FR-I): at 18.27")),
            "{:?}",
            out.section.allies
        );
        assert!(!out.section.allies.iter().any(|l| l.contains("18.28")), "the move is not known yet");
    }

    #[test]
    fn a_contact_is_seen_now_and_a_destroyed_force_leaves_the_picture() {
        // Victor at 18.28 next to Cuesta at 18.29: each side sees the other this turn, at the
        // reading of the forces in contact (0 against 0 points: ±30 % on a d8).
        let forces = FORCES.replace("Sp,,,,,18.31", "Sp,,,,,18.29");
        let c = camp(20, "", &forces, &[("intelligence.csv", BEGUN)]);
        let out = phase(&c, &ctx(20, &[]), &mut ScriptedDice::new([4, 4, 8, 4]));
        assert!(out.section.french.iter().any(|l| l.starts_with("Cuesta (SP-EXT): at 18.29, about 600 men")));
        assert!(out.section.allies.iter().any(|l| l.starts_with("Victor (FR-I): at 18.28, about 8000 men")));
        // Cuesta's army destroyed: the French picture drops it, whatever they heard before.
        let mut c2 = c.clone();
        crate::rules::effects::apply_effects(&mut c2, &out.effects, 2);
        c2.config.turn = 21;
        c2.oob.get_mut("SP-EXT-1").unwrap().men = 0;
        assert!(!crate::rules::intel::known::reports(&c2, Side::French).contains_key("SP-EXT"));
        assert!(crate::rules::intel::known::reports(&c2, Side::Allies).contains_key("FR-I"));
    }

    #[test]
    fn the_points_within_one_map_move_are_8_5_s_points_of_the_forces_there() {
        // Allied forces at growing distances from 18.28: a named army with a named division
        // inside it (the army more senior), scouts of every kind, an unavailable brigade whose
        // light battalion scouts nothing, a division naming no one, and a lone far force.
        let forces = "id,parent,level,name,commander,nation,arm,men,squadrons,guns,hex,status\n\
            FR-I,,corps,Victor,,Fr,,,,,18.28,\n\
            FR-I-1,FR-I,battalion,a,,Fr,light,900,,,,\n\
            FR-I-2,FR-I,battery,b,,Fr,foot-artillery,120,,6,,\n\
            SP-A,,army,Ejército,Cuesta,Sp,,,,,18.29,\n\
            SP-A-D,SP-A,division,1ª,Palafox,Sp,,,,,,\n\
            SP-A-D-1,SP-A-D,regiment,h,,Sp,light-cavalry,300,3,,,\n\
            SP-A-D-2,SP-A-D,regiment,d,,Sp,dragoon,200,2,,,\n\
            SP-A-D-3,SP-A-D,battalion,c,,Sp,light,500,,,,\n\
            SP-A-B,SP-A,brigade,off,,Sp,,,,,,unavailable:25\n\
            SP-A-B-1,SP-A-B,battalion,e,,Sp,light,400,,,,\n\
            SP-B,,division,2ª,,Sp,,,,,20.30,\n\
            SP-B-1,SP-B,battalion,f,,Sp,light,450,,,,\n\
            SP-C,,division,3ª,Palafox,Sp,,,,,22.28,\n\
            SP-C-1,SP-C,regiment,g,,Sp,light-cavalry,250,4,,,\n\
            SP-FAR,,division,Far,,Sp,,,,,60.05,\n\
            SP-FAR-1,SP-FAR,regiment,i,,Sp,light-cavalry,250,4,,,\n";
        let commanders =
            "name,side,battles_fought,battles_won\nCuesta,Allies,4,2\nPalafox,Allies,1,0\nRey,French,0,0\n";
        let c = camp(20, "", "", &[("forces.csv", forces), ("commanders.csv", commanders)]);
        let scouting = Scouting::new(&c);
        let victor = c.oob.get("FR-I").unwrap();
        let at: HexId = "18.28".parse().unwrap();
        let mut seen = Vec::new();
        for reach in 0..=8 {
            let ids: Vec<String> = c
                .oob
                .forces()
                .filter(|f| {
                    f.side() == Side::Allies && f.hex.is_some_and(|h| c.map.grid.distance(h, at) <= reach)
                })
                .map(|f| f.id.to_string())
                .collect();
            let near = scouting.near(&c, Side::Allies, &[at], reach);
            assert_eq!(near.forces as usize, ids.len(), "reach {reach}");
            // The sum over hexes is 8.5's points of the forces there, as a battle counts them.
            let points = crate::rules::intel::intel_points(&c, &ids).total;
            assert_eq!(scouting.points_of(near), points, "reach {reach}: {ids:?}");
            seen.push(points);
        }
        // Cuesta's army (2×3 + 2 + 1, not the unavailable brigade's battalion, and his record
        // 4 + 2), then the division naming no one (+1), then Palafox's division (+8: his
        // record is not counted beside Cuesta's, the more senior); never Far.
        assert_eq!(seen, [0, 15, 15, 16, 24, 24, 24, 24, 24]);
        // Seen from two hexes, a force within reach of both counts once.
        let both = scouting.near(&c, Side::Allies, &[at, "18.29".parse().unwrap()], 1);
        assert_eq!((both.forces, scouting.points_of(both)), (1, 15));
        // The strength heard is the force's whole strength.
        for f in c.oob.forces() {
            assert_eq!(scouting.strength(&c, f), c.oob.strength(f), "{}", f.id);
        }
        assert_eq!(scouting.accuracy(victor, &["SP-A", "SP-B"]), reading(16, 1));
    }

    /// A battle at 18.28 of these forces, each fighting from the hex given.
    fn battle(parts: &[(&str, &str, &str)]) -> BattleRecord {
        let parts: Vec<serde_json::Value> = parts
            .iter()
            .map(|(f, side, hex)| {
                serde_json::json!({"force": f, "name": f, "side": side, "hex": hex, "role": "principal",
                    "distance": 0, "bearing": null, "edge": "centre", "crosses_river": null,
                    "delay_minutes": 0, "delay_overridden": false, "out_of_supply": false})
            })
            .collect();
        serde_json::from_value(serde_json::json!({
            "id": "T20-18.28", "state": "exported", "turn": 20, "hex": "18.28", "place": "x",
            "attacker": "French", "attacker_reason": "", "avoiding": null, "participants": parts,
            "excluded": [], "unavailable": [], "reserves": [],
            "map": {"id": "M", "orientation": 0, "reused": false, "reason": "", "features": []},
            "profile": "napmod-g1", "seed": 1808, "dice": [], "army_index": {"French": 1, "Allies": 1},
            "start_time": "10:00:00", "end_time": "15:00:00", "chains": [], "units": [],
            "scenario_dir": "", "oob": "", "files": {}, "result": null
        }))
        .unwrap()
    }

    #[test]
    fn a_battle_is_seen_at_its_end_the_loser_where_it_withdrew_a_destroyed_force_not_at_all() {
        // Cuesta beaten at 18.29 and withdrawn to 13.29; Far (French) destroyed in the battle.
        let forces = FORCES.replace("Sp,,,,,18.31", "Sp,,,,,13.29");
        let mut c = camp(20, "", &forces, &[]);
        c.oob.get_mut("SP-EXT-1").unwrap().men = 500;
        c.oob.get_mut("FR-FAR-1").unwrap().men = 0;
        let b = battle(&[
            ("FR-I", "French", "18.28"),
            ("FR-FAR", "French", "18.28"),
            ("SP-EXT", "Allies", "18.29"),
        ]);
        // 0 points against 0: "fewer", ±30 % on a d8; 4 is exact. Far, destroyed, rolls none.
        let mut dice = ScriptedDice::new([4, 4, 8, 4]);
        let seen = after_battle(&c, &b, &mut dice);
        let rows: Vec<(Side, &str, String, String, u32)> = seen
            .iter()
            .map(|s| (s.side, s.force.as_str(), s.from.unwrap().to_string(), s.hex.to_string(), s.men))
            .collect();
        assert_eq!(
            rows,
            [
                (Side::French, "SP-EXT", "18.29".into(), "13.29".into(), 500),
                (Side::Allies, "FR-I", "18.28".into(), "18.28".into(), 8000),
            ]
        );
        assert!(seen.iter().all(|s| at_battle(s) && s.known == 20 && s.moved == 20));
        assert_eq!(dice.log().len(), 4);
        // The advance out of 20: the battle's sightings are the first rows, so the opening
        // positions are still given, but not of a force seen at the battle; Cuesta's
        // withdrawal is no news (no die); Far is not reported.
        c.books.intelligence = seen;
        c.books.intelligence_begun = true;
        let out = phase(&c, &ctx(20, &[("SP-EXT", "18.29")]), &mut ScriptedDice::new([]));
        assert_eq!(
            out.section.french,
            [
                "Cuesta (SP-EXT): seen withdrawing from 18.29 to 13.29 after the battle of turn 20, about 500 men"
            ]
        );
        assert_eq!(
            out.section.allies,
            ["Victor (FR-I): at 18.28 at the end of the battle of turn 20, about 8000 men"]
        );
        assert!(out.effects.iter().all(|e| !matches!(e, Effect::Sighting(s) if s.force != "FR-FAR")));
        // Next turn, the side view shows Cuesta where the French saw him withdraw to.
        c.config.turn = 21;
        assert_eq!(crate::rules::intel::known::reports(&c, Side::French)["SP-EXT"].hex.to_string(), "13.29");
        assert!(!crate::rules::intel::known::reports(&c, Side::Allies).contains_key("FR-FAR"));
    }

    #[test]
    fn the_side_view_shows_a_reported_enemy_where_it_was_seen() {
        let rows = format!("{BEGUN}20,Allies,FR-FAR,Far,60.06,60.05,20,600,0,no,5\n");
        let c = camp(21, "", FORCES, &[("intelligence.csv", &rows)]);
        let k = crate::rules::zoc::contacts(&c);
        let v = crate::rules::intel::known::side_view(&c, &k, Side::Allies, false);
        let far = v.forces.iter().find(|f| f.id == "FR-FAR").expect("reported: in the view");
        assert_eq!((far.hex.to_string(), far.reported.as_ref().map(|r| r.men)), ("60.05".into(), Some(600)));
        assert_eq!(far.strength, None);
        let fr = crate::rules::intel::known::side_view(&c, &k, Side::French, false);
        assert!(!fr.forces.iter().any(|f| f.id == "SP-EXT"), "the French have no report of Cuesta");
    }
}
