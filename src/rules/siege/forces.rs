//! Who stands in a siege (7.1): the garrison, the investing forces, the siege train, and what
//! losses leave of each.

use crate::model::{ArmClass, Campaign, HexId, Level, Nation, Settlement, SettlementKind, Side, Unit};
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

/// Where a garrison marching out with the honours of war goes (7.1.2), and why.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Honours<'c> {
    /// The place it marches to.
    pub to: &'c Settlement,
    /// Why that place: the rule's own destination, or why not and the place taken instead.
    pub why: String,
}

/// Where a garrison of `nation` marching out of `place` with the honours of war goes (7.1.2):
/// Toulouse (French), Lisbon (British, Portuguese) or "their provincial capital" (Spanish):
/// the capital (2.2) of the province of the garrison's own army, the province of its depot
/// (2.2: Spanish armies draw on their own province), else of the place. When that place is not
/// friendly to the garrison's side or is invested, the nearest friendly city, capital or
/// fortress that is not invested (by hex distance, then name) instead.
pub fn honours_destination<'c>(
    c: &'c Campaign,
    place: &Settlement,
    nation: Nation,
    garrison: &[String],
) -> Option<Honours<'c>> {
    let side = nation.side();
    let find = |name: &str| c.map.settlements.iter().find(|s| fold(&s.name) == fold(name));
    let (rule_place, whose) = match nation {
        Nation::Fr => (find("Toulouse"), "Toulouse, for the French".to_string()),
        Nation::Br | Nation::Po => (find("Lisbon"), "Lisbon, for the Anglo-Portuguese".to_string()),
        Nation::Sp => {
            let depot = garrison
                .iter()
                .filter_map(|f| c.oob.get(f)?.depot())
                .find_map(|d| c.map.settlements.iter().find(|s| s.name == d));
            let (province, from) = match depot {
                Some(d) => (
                    d.province.as_str(),
                    format!("its army's province ({}, of its depot {})", d.province, d.name),
                ),
                None => (
                    place.province.as_str(),
                    format!("the place's province ({}; the garrison names no depot)", place.province),
                ),
            };
            let capital =
                PROVINCIAL_CAPITALS.iter().find(|(p, _)| fold(p) == fold(province)).map(|(_, n)| *n);
            (capital.and_then(find), format!("the provincial capital of {from}"))
        }
    };
    let friendly =
        |s: &Settlement| s.control.side() == Some(side) && s.invested_by.is_none() && s.name != place.name;
    match rule_place {
        Some(d) if friendly(d) => Some(Honours { to: d, why: format!("{} (7.1.2)", whose) }),
        other => {
            let not = match other {
                Some(d) => format!("{} ({whose}) is not friendly to the {side}", d.name),
                None => format!("{whose} is not in settlements.csv"),
            };
            let near = c
                .map
                .settlements
                .iter()
                .filter(|s| {
                    friendly(s)
                        && (s.kind.is_fortress()
                            || matches!(s.kind, SettlementKind::City | SettlementKind::Capital))
                })
                .min_by_key(|s| (c.map.grid.distance(place.hex, s.hex), s.name.clone()))?;
            Some(Honours {
                to: near,
                why: format!(
                    "{not}: the nearest friendly city, capital or fortress instead, {} hexes away (7.1.2)",
                    c.map.grid.distance(place.hex, near.hex)
                ),
            })
        }
    }
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

/// The contact between a place's defenders and its investors still unresolved as the turn
/// ends, if any, in words: a defender halted in contact marching on an investor's hex (a
/// relief or a sally that marched into contact), or a defender and an investor in one battle
/// still pending. Until it is resolved (a battle, a sally or a retreat) the siege clock does
/// not run.
pub(super) fn unresolved_contact(
    c: &Campaign,
    in_contact: &std::collections::BTreeMap<String, HexId>,
    garrison: &[String],
    investors: &[String],
) -> Option<String> {
    let name = |f: &str| c.oob.get(f).map_or(f.to_string(), |u| format!("{} ({f})", u.name));
    garrison.iter().find_map(|d| {
        let h = *in_contact.get(d)?;
        let by = investors.iter().find(|i| {
            c.oob.get(i).is_some_and(|u| u.hex == Some(h)) || in_contact.get(i.as_str()) == Some(&h)
        })?;
        Some(format!("{} stands in contact with {}, unresolved at {h}", name(d), name(by)))
    })
}
