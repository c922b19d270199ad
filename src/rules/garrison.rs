//! The maximum garrison of a fortress-town (rule 2.5.1: "The maximum garrison a fortress-town
//! may hold is 10,000 men"), which Toledo's Alcázar shares (2.5.3: "minimum and maximum troop
//! capacities equivalent to a fortress-town"). A fortress-city has no maximum (2.5.2).

use std::collections::BTreeSet;

use crate::model::{Campaign, Control, HexId, SettlementKind, Side, StatusKind, Unit};

/// The most men a fortress may hold (2.5.1, 2.5.3), `None` when it has no maximum.
pub fn maximum_garrison(kind: SettlementKind, citadel: bool) -> Option<u32> {
    match kind {
        SettlementKind::FortressTown => Some(10_000),
        SettlementKind::FortressCity => None,
        _ if citadel => Some(10_000),
        _ => None,
    }
}

/// A fortress held by more men than it may hold.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OverMaximum {
    /// The settlement.
    pub settlement: String,
    /// Its hex.
    pub hex: HexId,
    /// The side that controls it.
    pub side: Side,
    /// Men of that side standing in the hex.
    pub men: u32,
    /// Its maximum.
    pub maximum: u32,
    /// The forces standing there.
    pub forces: Vec<String>,
}

fn available(c: &Campaign, u: &Unit) -> bool {
    let turn = c.config.turn;
    let out = |x: &Unit| x.has_status(StatusKind::Unavailable, turn);
    !out(u) && !c.oob.ancestors(&u.id).into_iter().any(out)
}

/// Every fortress whose controlling side stands in its hex with more men than its maximum:
/// the forces of that side in the hex are its garrison.
pub fn over_maximum(c: &Campaign) -> Vec<OverMaximum> {
    let typed: Vec<Control> = c.map.settlements.iter().map(|s| s.control).collect();
    over_maximum_with(c, &typed)
}

/// [`over_maximum`] with each settlement's control given (in `settlements.csv` order): the
/// control computed from the garrisons (2.1), for `check`.
pub fn over_maximum_with(c: &Campaign, control: &[Control]) -> Vec<OverMaximum> {
    let mut out = Vec::new();
    for (s, k) in c.map.settlements.iter().zip(control) {
        let (Some(maximum), Some(side)) = (maximum_garrison(s.kind, s.citadel), k.side()) else {
            continue;
        };
        let forces: Vec<&Unit> =
            c.oob.forces().filter(|f| f.hex == Some(s.hex) && f.side() == side).collect();
        let men: u32 = forces.iter().map(|f| c.oob.strength(f).men()).sum();
        if men > maximum {
            out.push(OverMaximum {
                settlement: s.name.clone(),
                hex: s.hex,
                side,
                men,
                maximum,
                forces: forces.iter().map(|f| f.id.to_string()).collect(),
            });
        }
    }
    out
}

/// The defender's units that a battle in a fortress cannot field inside its walls (2.5.1,
/// 2.5.3): the defender's forces standing in the hex, unit by unit in `forces.csv` order,
/// fill the garrison up to its maximum; every unit that would take it past the maximum stands
/// outside and stays out of the battle. Units already left out (`skip`, unavailable) do not
/// count. Empty when the hex holds no fortress with a maximum controlled by the defender.
pub fn outside_the_walls(
    c: &Campaign,
    hex: HexId,
    defender: Side,
    forces: &[String],
    skip: &BTreeSet<String>,
) -> Vec<String> {
    let Some(maximum) = c
        .map
        .settlements_in(hex)
        .into_iter()
        .filter(|s| s.control.side() == Some(defender))
        .filter_map(|s| maximum_garrison(s.kind, s.citadel))
        .min()
    else {
        return Vec::new();
    };
    let mut inside = 0u32;
    let mut out = Vec::new();
    for f in forces.iter().filter_map(|f| c.oob.get(f)) {
        if f.hex != Some(hex) || f.side() != defender {
            continue;
        }
        for u in c.oob.units_under(f) {
            let skipped = skip.contains(u.id.as_str())
                || c.oob.ancestors(&u.id).iter().any(|a| skip.contains(a.id.as_str()));
            if skipped || !available(c, u) {
                continue;
            }
            if inside + u.men <= maximum {
                inside += u.men;
            } else {
                out.push(u.id.to_string());
            }
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_fortress_town_and_the_alcazar_hold_at_most_ten_thousand_men() {
        assert_eq!(maximum_garrison(SettlementKind::FortressTown, false), Some(10_000), "2.5.1");
        assert_eq!(maximum_garrison(SettlementKind::City, true), Some(10_000), "2.5.3, the Alcázar");
        assert_eq!(maximum_garrison(SettlementKind::FortressCity, false), None, "2.5.2: no maximum");
        assert_eq!(maximum_garrison(SettlementKind::City, false), None);
    }
}
