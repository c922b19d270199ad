//! Retreat before battle (rule 8.2): "an MP scenario is set up that makes it difficult for
//! the avoiding side to fully escape battle by placing the attacker partly across his line of
//! retreat and in extremely close proximity." This module finds that line of retreat.

use crate::model::battle::{LineOfRetreat, Participant, Role};
use crate::model::{Campaign, HexId, Side};
use crate::rules::zoc::Contact;

/// The avoiding side's line of retreat (8.2): from the battle hex toward the depot of its
/// principal forces (the first, in battle order, whose depot is a known settlement in another
/// hex), else toward the depot of any of its forces in the battle; `None` when none is known.
pub fn line_of_retreat(
    c: &Campaign,
    hex: HexId,
    participants: &[Participant],
    avoiding: Side,
) -> Option<LineOfRetreat> {
    let mine = || participants.iter().filter(|p| p.side == avoiding);
    let principals = mine().filter(|p| p.role == Role::Principal);
    principals.chain(mine().filter(|p| p.role != Role::Principal)).find_map(|p| {
        let depot = c.oob.get(&p.force)?.depot()?;
        let s = c.map.settlements.iter().find(|s| s.name == depot && s.hex != hex)?;
        Some(LineOfRetreat {
            side: avoiding,
            toward: s.name.clone(),
            hex: s.hex,
            bearing: c.map.grid.bearing(hex, s.hex),
        })
    })
}

/// The side of a contact that tried to refuse its battle (8.2), and the force whose retreat
/// before battle the enemy caught this turn, as `move` recorded it in `avoidance.csv`.
pub fn avoiding_side(c: &Campaign, k: &crate::rules::zoc::Contact) -> Option<(Side, String)> {
    c.avoidance.iter().filter(|a| a.turn == c.config.turn).find_map(|a| {
        if k.french.contains(&a.force) {
            Some((Side::French, a.force.clone()))
        } else if k.allies.contains(&a.force) {
            Some((Side::Allies, a.force.clone()))
        } else {
            None
        }
    })
}

/// The side whose retreat before battle the enemy caught this turn in the contact at `hex`
/// (8.2), with its force: the enemy pursued, and attacks.
pub fn caught_at(c: &Campaign, contacts: &[Contact], hex: HexId) -> Option<(Side, String)> {
    contacts.iter().find(|k| k.hexes.contains(&hex)).and_then(|k| avoiding_side(c, k))
}

/// The side a battle at `hex` is set up as avoiding (8.2): the one the umpire names, else the
/// one whose retreat before battle the enemy caught this turn. The one answer `export`'s plan,
/// deployment, line of retreat and battle record all use.
pub fn avoiding_at(c: &Campaign, contacts: &[Contact], hex: HexId, told: Option<Side>) -> Option<Side> {
    told.or_else(|| caught_at(c, contacts, hex).map(|(s, _)| s))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::battle::{WhoFightsOptions, who_fights};
    use crate::rules::movement::testing::{Builder, h};

    #[test]
    fn the_line_of_retreat_runs_from_the_battle_hex_toward_the_depot() {
        let c = Builder::default()
            .column_road(10, 0, 29, "major")
            .settlement("Base", "10.20", "city", "Sp")
            .force("fr", "division", "Fr", "10.05", &["line"])
            .force("sp", "division", "Sp", "10.06", &["line"])
            .depot("sp", "Base")
            .build();
        let opts = WhoFightsOptions { attacker: Some(Side::French), ..Default::default() };
        let who = who_fights(&c, &crate::rules::zoc::contacts(&c), h("10.05"), &opts).unwrap();
        let line = line_of_retreat(&c, h("10.05"), &who.participants, Side::Allies).unwrap();
        assert_eq!((line.toward.as_str(), line.hex), ("Base", h("10.20")));
        assert!((line.bearing - 180.0).abs() < 1e-6, "due south: {}", line.bearing);
        assert!(line_of_retreat(&c, h("10.05"), &who.participants, Side::French).is_none(), "no depot");
    }
}
