//! Toledo's Puente de Alcántara (rule 2.5.3): "NO CROSSING between 28.23 and 28.24 is
//! allowed if there are enemy forces of at least brigade strength in the other hex." The
//! crossings in open country that join 27.24 to 28.23 directly are the rule's exception.

use crate::model::battle::{Participant, Role};
use crate::model::{ArmClass, Campaign, HexId, Level, Side, StatusKind, Unit};

/// The rule.
pub const RULE: &str = "2.5.3";

/// The two hexes the bridge joins: Toledo (28.23) on the north bank, 28.24 on the south.
pub fn bridge_hexes() -> (HexId, HexId) {
    (HexId::new(28, 23), HexId::new(28, 24))
}

/// Infantry battalions and cavalry squadrons that make a brigade (2.1.1: "a minimum of 3
/// infantry battalions or 2 dragoon cavalry regiments (4 squadrons)").
pub const BRIGADE_BATTALIONS: u32 = 3;
/// See [`BRIGADE_BATTALIONS`].
pub const BRIGADE_SQUADRONS: u32 = 4;

/// Available infantry battalions and cavalry squadrons of a side standing in a hex.
pub fn strength_in(c: &Campaign, side: Side, hex: HexId) -> (u32, u32) {
    let mut total = (0, 0);
    for f in c.oob.forces().filter(|f| f.side() == side && f.hex == Some(hex)) {
        let (b, s) = force_strength(c, &f.id);
        total = (total.0 + b, total.1 + s);
    }
    total
}

/// Available infantry battalions and cavalry squadrons of one force.
pub fn force_strength(c: &Campaign, force_id: &str) -> (u32, u32) {
    let turn = c.config.turn;
    let mut battalions = 0;
    let mut squadrons = 0;
    for u in c.oob.units_under(force_id) {
        let out = |x: &Unit| x.has_status(StatusKind::Unavailable, turn);
        if out(u) || c.oob.ancestors(&u.id).into_iter().any(out) {
            continue;
        }
        match u.arm_class() {
            Some(ArmClass::Infantry) if u.level == Level::Battalion => battalions += 1,
            Some(ArmClass::Cavalry) => squadrons += u.squadrons,
            _ => {}
        }
    }
    (battalions, squadrons)
}

/// True when a side holds a hex with forces of at least brigade strength (2.1.1).
pub fn of_brigade_strength((battalions, squadrons): (u32, u32)) -> bool {
    battalions >= BRIGADE_BATTALIONS || squadrons >= BRIGADE_SQUADRONS
}

/// Why a battle would take the attacker across the Puente de Alcántara against enemy forces
/// of at least brigade strength in the other hex, or `None` when it would not (2.5.3).
pub fn crossing_refusal(c: &Campaign, participants: &[Participant], attacker: Side) -> Option<String> {
    let (north, south) = bridge_hexes();
    let principals = |s: Side| participants.iter().filter(move |p| p.side == s && p.role == Role::Principal);
    for a in principals(attacker) {
        let other = if a.hex == north {
            south
        } else if a.hex == south {
            north
        } else {
            continue;
        };
        let Some(d) = principals(attacker.enemy()).find(|d| d.hex == other) else { continue };
        let held = strength_in(c, attacker.enemy(), other);
        if !of_brigade_strength(held) {
            continue;
        }
        return Some(format!(
            "rule {RULE} (Puente de Alcántara): no crossing between {north} and {south} while enemy forces \
             of at least brigade strength (3 battalions or 4 squadrons, 2.1.1) hold the other hex: {} at {} \
             would attack across the bridge against {} at {other} ({} battalions, {} squadrons); the \
             open-country crossings join 27.24 to {north}",
            a.force, a.hex, d.force, held.0, held.1
        ));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn brigade_strength_is_three_battalions_or_four_squadrons() {
        // 2.1.1: "a minimum of 3 infantry battalions or 2 dragoon cavalry regiments (4 squadrons)".
        assert!(of_brigade_strength((3, 0)));
        assert!(of_brigade_strength((0, 4)));
        assert!(!of_brigade_strength((2, 3)));
        assert_eq!(bridge_hexes(), (HexId::new(28, 23), HexId::new(28, 24)));
    }
}
