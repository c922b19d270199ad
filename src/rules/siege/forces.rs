//! Who stands in a siege (7.1): the garrison, the investing forces, the siege train, and what
//! losses leave of each.

use crate::model::{ArmClass, Campaign, HexId, Level, Nation, Settlement, Side, Unit};
use crate::rules::effects::{Effect, men_of};

use super::places::{PROVINCIAL_CAPITALS, fold};

/// The defending side's forces in the place's hex.
pub fn garrison_of(c: &Campaign, hex: HexId, defender: Side) -> Vec<String> {
    c.oob.forces().filter(|f| f.hex == Some(hex) && f.side() == defender).map(|f| f.id.to_string()).collect()
}

/// The investing side's forces in the place's hex or next to it.
pub fn investors_of(c: &Campaign, hex: HexId, investor: Side) -> Vec<String> {
    c.oob
        .forces()
        .filter(|f| f.side() == investor)
        .filter(|f| f.hex.is_some_and(|h| h == hex || c.map.grid.adjacent(h, hex)))
        .map(|f| f.id.to_string())
        .collect()
}

/// The investing side's siege train at the place or next to it (6.4.1: "a very short
/// distance from a river to the nearest fortress").
pub(super) fn train_at(c: &Campaign, hex: HexId, investor: Side) -> Option<&crate::model::books::SiegeTrain> {
    c.books
        .trains
        .iter()
        .find(|t| t.nation.side() == investor && (t.hex == hex || c.map.grid.adjacent(t.hex, hex)))
}

/// Infantry battalions and batteries of some forces (7.1.2's storm).
pub(super) fn battalions_and_batteries(c: &Campaign, forces: &[String]) -> u32 {
    forces
        .iter()
        .flat_map(|f| c.oob.units_under(f))
        .filter(|u| {
            (u.level == Level::Battalion && u.arm_class() == Some(ArmClass::Infantry))
                || u.level == Level::Battery
        })
        .count() as u32
}

/// Where a garrison marching out with the honours of war goes (7.1.2).
pub fn honours_destination<'c>(
    c: &'c Campaign,
    place: &Settlement,
    nation: Nation,
) -> Option<&'c Settlement> {
    let name = match nation {
        Nation::Fr => "Toulouse",
        Nation::Br | Nation::Po => "Lisbon",
        Nation::Sp => {
            PROVINCIAL_CAPITALS.iter().find(|(p, _)| fold(p) == fold(&place.province)).map(|(_, n)| *n)?
        }
    };
    c.map.settlements.iter().find(|s| fold(&s.name) == fold(name))
}

pub(super) fn forces_text(c: &Campaign, ids: &[String]) -> String {
    ids.iter()
        .map(|id| match c.oob.get(id) {
            Some(u) => format!("{} ({id})", u.name),
            None => id.clone(),
        })
        .collect::<Vec<_>>()
        .join(", ")
}

pub(super) fn present(c: &Campaign, ids: &[String], ok: impl Fn(&Unit) -> bool) -> Vec<String> {
    ids.iter().filter(|id| c.oob.get(id).is_some_and(&ok)).cloned().collect()
}

pub(super) fn capture(c: &Campaign, garrison: &[String], by: Side) -> Vec<Effect> {
    garrison
        .iter()
        .map(|f| {
            let s = c.oob.strength(f);
            Effect::Captured { force: f.clone(), by, men: s.men(), guns: s.guns }
        })
        .collect()
}

/// Men still standing after some loss effects, per force list.
pub(super) fn after_losses(c: &Campaign, forces: &[String], effects: &[Effect]) -> u32 {
    let before = men_of(c, forces, false);
    let lost: u32 = effects
        .iter()
        .filter_map(|e| match e {
            Effect::Loss { unit, men, .. }
                if forces.iter().any(|f| c.oob.force_of(unit).is_some_and(|u| u.id == f.as_str())) =>
            {
                Some(*men)
            }
            _ => None,
        })
        .sum();
    before.saturating_sub(lost)
}
