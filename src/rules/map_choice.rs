//! The battle map (rule 8.4): the hex's features are scored against the catalogue of SoW
//! maps; ties go to the dice (seeded by the campaign seed and the hex). The choice and its
//! orientation are stored and reused for every later battle in that hex.

use std::collections::BTreeSet;

use crate::error::{Error, Result};
use crate::model::battle::MapRecord;
use crate::model::{Campaign, HexId, SettlementKind, Side, Terrain};

use super::dice::Dice;

pub use crate::model::catalogue::{CatalogueMap, TAGS};

/// Minimum garrison that holds a fortress against a siege (rules 2.5.1, 2.5.2, 2.5.3).
pub fn minimum_garrison(kind: SettlementKind, citadel: bool) -> Option<u32> {
    match kind {
        SettlementKind::FortressCity => Some(2000),
        SettlementKind::FortressTown => Some(500),
        _ if citadel => Some(500),
        _ => None,
    }
}

/// True when the battle is an assault on a fortress held by fewer men than its minimum
/// garrison (7.1.4): it is fought on a town map.
pub fn under_garrisoned_assault(c: &Campaign, hex: HexId, defender: Side, defender_men_in_hex: u32) -> bool {
    c.map.settlements_in(hex).iter().any(|s| {
        s.control.side() == Some(defender)
            && minimum_garrison(s.kind, s.citadel).is_some_and(|min| defender_men_in_hex < min)
    })
}

/// Features of a hex for map choice (design.md, Export 3).
pub fn hex_features(c: &Campaign, hex: HexId) -> BTreeSet<String> {
    let mut f = BTreeSet::new();
    for s in c.map.settlements_in(hex) {
        match s.kind {
            SettlementKind::Capital | SettlementKind::City | SettlementKind::Town => {
                f.insert("town".to_string());
            }
            SettlementKind::FortressCity | SettlementKind::FortressTown => {
                f.insert("fortification".to_string());
            }
            SettlementKind::Village => {}
        }
        if s.citadel {
            f.insert("fortification".to_string());
        }
    }
    if !c.map.rivers_around(hex).is_empty() {
        f.insert("river".to_string());
    }
    let info = c.map.hex(hex);
    if info.terrain == Terrain::High {
        f.insert("hills".to_string());
    }
    if info.forest {
        f.insert("forest".to_string());
    }
    if f.is_empty() {
        f.insert("open".to_string());
    }
    f
}

/// How well a map's tags fit the features: 3 per feature matched, −2 per feature missing,
/// −1 per tag the hex does not have.
pub fn score(features: &BTreeSet<String>, tags: &BTreeSet<String>) -> i32 {
    let hit = features.intersection(tags).count() as i32;
    let miss = features.difference(tags).count() as i32;
    let extra = tags.difference(features).count() as i32;
    3 * hit - 2 * miss - extra
}

/// Chooses a map and orientation for a hex's first battle.
pub fn choose_map(
    catalogue: &[CatalogueMap],
    features: &BTreeSet<String>,
    forced_map: Option<&str>,
    forced_orientation: Option<u16>,
    dice: &mut dyn Dice,
    hex: HexId,
) -> Result<MapRecord> {
    let feats: Vec<String> = features.iter().cloned().collect();
    let (map, reason) = match forced_map {
        Some(id) => {
            let m = catalogue.iter().find(|m| m.id.eq_ignore_ascii_case(id)).ok_or_else(|| {
                Error::refused(format!(
                    "--map {id}: not in the map catalogue (add a row to sow-maps/catalogue.csv)"
                ))
            })?;
            (m.id.clone(), "chosen with --map".to_string())
        }
        None => {
            let best = catalogue
                .iter()
                .map(|m| score(features, &m.tags))
                .max()
                .ok_or_else(|| Error::refused("the map catalogue is empty".to_string()))?;
            let tied: Vec<&CatalogueMap> =
                catalogue.iter().filter(|m| score(features, &m.tags) == best).collect();
            let pick = dice.pick(tied.len(), &format!("8.4 map for {hex} among {} equal maps", tied.len()));
            let m = tied[pick];
            let tags: Vec<&str> = m.tags.iter().map(String::as_str).collect();
            (
                m.id.clone(),
                format!(
                    "best fit for {} (score {best}; map tags {}){}",
                    feats.join(", "),
                    if tags.is_empty() { "none".to_string() } else { tags.join(", ") },
                    if tied.len() > 1 {
                        format!("; {} maps tied, drawn by die", tied.len())
                    } else {
                        String::new()
                    }
                ),
            )
        }
    };
    let orientation = match forced_orientation {
        Some(o) if [0, 90, 180, 270].contains(&o) => o,
        Some(o) => return Err(Error::refused(format!("--orientation {o}: must be 0, 90, 180 or 270"))),
        None => (dice.roll(4, &format!("8.4 orientation of the map for {hex}")) as u16 - 1) * 90,
    };
    Ok(MapRecord { id: map, orientation, reused: false, reason, features: feats })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::ScriptedDice;

    fn m(id: &str, tags: &[&str]) -> CatalogueMap {
        CatalogueMap {
            id: id.into(),
            name: id.into(),
            multiplier: 16384,
            tags: tags.iter().map(|t| t.to_string()).collect(),
            source: "stock".into(),
        }
    }
    fn feats(f: &[&str]) -> BTreeSet<String> {
        f.iter().map(|t| t.to_string()).collect()
    }

    #[test]
    fn the_map_that_fits_the_hex_wins() {
        let cat =
            [m("Open1", &["open"]), m("Town", &["town"]), m("FBSC", &["town", "river", "fortification"])];
        let mut d = ScriptedDice::new([2]);
        let r = choose_map(&cat, &feats(&["town", "river"]), None, None, &mut d, HexId::new(18, 28)).unwrap();
        assert_eq!(r.id, "FBSC");
        assert_eq!(r.orientation, 90);
        let r = choose_map(&cat, &feats(&["open"]), None, Some(270), &mut d, HexId::new(1, 1)).unwrap();
        assert_eq!(r.id, "Open1");
        assert_eq!(r.orientation, 270);
    }

    #[test]
    fn ties_are_drawn_by_the_dice_and_logged() {
        let cat = [m("A", &["open"]), m("B", &["open"]), m("C", &["open"])];
        let mut d = ScriptedDice::new([3, 1]);
        let r = choose_map(&cat, &feats(&["open"]), None, None, &mut d, HexId::new(2, 2)).unwrap();
        assert_eq!(r.id, "C");
        assert!(r.reason.contains("3 maps tied"));
        assert_eq!(crate::rules::Dice::log(&d).len(), 2);
    }

    #[test]
    fn overrides_are_checked() {
        let cat = [m("A", &["open"])];
        let mut d = ScriptedDice::new([]);
        assert!(choose_map(&cat, &feats(&["open"]), Some("Nope"), None, &mut d, HexId::new(2, 2)).is_err());
        assert!(choose_map(&cat, &feats(&["open"]), None, Some(45), &mut d, HexId::new(2, 2)).is_err());
    }

    #[test]
    fn fortress_minimum_garrisons_follow_rule_2_5() {
        assert_eq!(minimum_garrison(SettlementKind::FortressTown, false), Some(500));
        assert_eq!(minimum_garrison(SettlementKind::FortressCity, false), Some(2000));
        assert_eq!(minimum_garrison(SettlementKind::City, true), Some(500), "Toledo's Alcázar");
        assert_eq!(minimum_garrison(SettlementKind::City, false), None);
    }
}
