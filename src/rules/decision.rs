//! The decision to fight (8.1, 8.2): "the two force commanders are then advised of enemy
//! strengths and compositions … If both agree to fight, a battle is set up"; "if one force
//! declines to fight it must withdraw out of the enemy ZoC". Each side's advice is its 8.5
//! briefing ([`crate::rules::intel::brief_sides`]: the same points, table and dice as the
//! briefing `export` writes), given on contact and kept with its dice in `decisions.csv`, so
//! that the battle's briefing later tells the same.

use crate::model::decisions::{ContactDecision, Decision};
use crate::model::{Campaign, HexId, Side};
use crate::rules::Dice;
use crate::rules::battle::{WhoFightsOptions, who_fights};
use crate::rules::intel::{Briefing, Participants, brief_sides};
use crate::rules::zoc::Contact;

/// This turn's rows of contact `k` in `decisions.csv`.
pub fn rows_of<'a>(c: &'a Campaign, k: &Contact) -> Vec<&'a ContactDecision> {
    c.decisions.iter().filter(|d| d.turn == c.config.turn && k.hexes.contains(&d.hex)).collect()
}

/// The hex a contact is advised at, and each side's forces there: of the contact's hexes, the
/// one whose battle would take in the most forces (principals and joiners, as `export` counts
/// them; the lowest hex on a tie); the contact's own forces if no battle can be set up.
pub fn advice_hex(c: &Campaign, contacts: &[Contact], k: &Contact) -> (HexId, Vec<String>, Vec<String>) {
    let mut best: Option<(usize, HexId, Vec<String>, Vec<String>)> = None;
    for &h in &k.hexes {
        let Ok(who) = who_fights(c, contacts, h, &WhoFightsOptions::default()) else { continue };
        let of = |s: Side| -> Vec<String> {
            who.participants.iter().filter(|p| p.side == s).map(|p| p.force.clone()).collect()
        };
        let n = who.participants.len();
        if best.as_ref().is_none_or(|b| n > b.0) {
            best = Some((n, h, of(Side::French), of(Side::Allies)));
        }
    }
    match best {
        Some((_, h, fr, al)) => (h, fr, al),
        None => (k.hexes[0], k.french.clone(), k.allies.clone()),
    }
}

/// Dice that give back the faces of an advice already rolled (and log them), then roll on.
struct Recorded<'a> {
    faces: std::collections::VecDeque<u32>,
    dice: &'a mut dyn Dice,
    log: Vec<crate::rules::dice::Roll>,
}

impl Dice for Recorded<'_> {
    fn roll(&mut self, sides: u32, purpose: &str) -> u32 {
        let value = match self.faces.pop_front() {
            Some(v) if (1..=sides).contains(&v) => v,
            _ => self.dice.roll(sides, purpose),
        };
        self.log.push(crate::rules::dice::Roll { sides, value, purpose: purpose.to_string() });
        value
    }
    fn log(&self) -> &[crate::rules::dice::Roll] {
        &self.log
    }
}

/// Side `side`'s briefing (8.5) for a battle of `own` against `enemy`: with the faces of the
/// advice it was given on this contact (`recorded`, when its die is the one this briefing
/// reads), else rolled on `dice`. The one way `contacts --advise` and `export` brief a side.
#[allow(clippy::too_many_arguments)]
pub fn briefing(
    c: &Campaign,
    id: &str,
    hex: HexId,
    side: Side,
    own: &Participants,
    enemy: &Participants,
    recorded: Option<&ContactDecision>,
    dice: &mut dyn Dice,
) -> Briefing {
    let die = || {
        let points = |p: &Participants| crate::rules::intel::intel_points(c, &p.scouting()).total;
        crate::rules::intel::reading(points(own), points(enemy)).die()
    };
    if let Some(r) = recorded.filter(|r| r.advised() && r.die == die()) {
        let mut rec = Recorded { faces: [r.men_roll, r.guns_roll].into(), dice: &mut *dice, log: Vec::new() };
        let b = brief_sides(c, id, hex, side, own, enemy, &mut rec);
        let Recorded { log, dice, .. } = rec;
        for roll in log {
            dice.note(crate::rules::dice::Roll {
                purpose: format!("{} (as advised on contact, turn {})", roll.purpose, r.turn),
                ..roll
            });
        }
        return b;
    }
    brief_sides(c, id, hex, side, own, enemy, dice)
}

/// The side that declined the contact at `hex` this turn (8.2: `withdraw` in
/// `decisions.csv`), unless its retreat was caught (`avoidance.csv`): then the battle is
/// forced on it and may be exported.
pub fn declined_at(c: &Campaign, contacts: &[Contact], hex: HexId) -> Option<Side> {
    let k = contacts.iter().find(|k| k.hexes.contains(&hex))?;
    if crate::rules::avoidance::avoiding_side(c, k).is_some() {
        return None;
    }
    rows_of(c, k).into_iter().find(|d| d.decision == Some(Decision::Withdraw)).map(|d| d.side)
}

/// This turn's decision of `side` on contact `k`, if it made one.
pub fn decision_of(c: &Campaign, k: &Contact, side: Side) -> Option<Decision> {
    rows_of(c, k).into_iter().find(|d| d.side == side).and_then(|d| d.decision)
}
