//! What a phase of the turn changes, as values ([`Effect`]), and the one place that carries
//! them out on a campaign ([`apply_effects`]). Losses are spread over a force's units in
//! proportion to their men, the remainder to the largest units first, so that no man is made
//! or lost in rounding and the same campaign always loses the same men.

use std::collections::BTreeSet;

use crate::model::books::{CampaignYear, JuntaCard, OccupationTurn, Revolt, SiegeRecord, Sighting};
use crate::model::{ArmClass, Campaign, Control, HexId, Nation, OrderOfBattle, Side, Unit};

/// One change a phase decides.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "effect", rename_all = "kebab-case")]
pub enum Effect {
    /// Men lost from a unit (`men` at most its men).
    Loss {
        /// The `forces.csv` row.
        unit: String,
        /// Men.
        men: u32,
        /// Rule and cause.
        why: String,
    },
    /// A force taken prisoner: its rows leave `forces.csv`, its men and guns go to the
    /// captor's score (7.1).
    Captured {
        /// The force.
        force: String,
        /// The side taking it.
        by: Side,
        /// Men taken.
        men: u32,
        /// Guns taken.
        guns: u32,
    },
    /// A force placed on another hex (a garrison marching out with the honours of war).
    Moved {
        /// The force.
        force: String,
        /// Its new hex.
        hex: HexId,
    },
    /// A place taken by siege or capitulation (7.1): it is the taker's, no longer invested,
    /// and an umpire's overrule of its control no longer stands.
    PlaceTaken {
        /// The settlement.
        place: String,
        /// Its hex.
        hex: HexId,
        /// The nation that took it.
        by: Nation,
    },
    /// An investment ended without the place changing hands (7.2: the besiegers "lift the
    /// siege and withdraw"): `invested_by` is cleared, and a new investment needs the umpire.
    InvestmentEnded {
        /// The settlement.
        place: String,
        /// Its hex.
        hex: HexId,
    },
    /// A siege record added or replaced (by place and the turn it began).
    Siege(SiegeRecord),
    /// A revolt begun.
    Revolt(Revolt),
    /// An occupation turn recorded.
    Occupation(OccupationTurn),
    /// A campaign year's result recorded.
    Year(CampaignYear),
    /// A movement a side learns of (now or later).
    Sighting(Sighting),
    /// A Junta's order drawn for a general (5.1).
    JuntaCard(JuntaCard),
}

/// Carries effects out, in order, on the campaign (`year`: the campaign year whose score
/// prisoners count in).
pub fn apply_effects(c: &mut Campaign, effects: &[Effect], year: u32) {
    for e in effects {
        match e {
            Effect::Loss { unit, men, .. } => {
                if let Some(u) = c.oob.get_mut(unit) {
                    u.men = u.men.saturating_sub(*men);
                }
            }
            Effect::Captured { force, by, men, guns } => {
                let gone: BTreeSet<String> = c.oob.subtree(force).iter().map(|u| u.id.to_string()).collect();
                let kept: Vec<Unit> =
                    c.oob.units().iter().filter(|u| !gone.contains(u.id.as_str())).cloned().collect();
                let extra = std::mem::take(&mut c.oob.extra_columns);
                c.oob = OrderOfBattle::new(kept, extra);
                // The men due back to its units are taken with the force: they have no unit to
                // return to (docs/rule-interpretations.md).
                c.returns.retain(|r| !gone.contains(&r.unit));
                let row = c.score_row(year, *by);
                row.prisoners_taken += men;
                row.guns_captured += guns;
            }
            Effect::Moved { force, hex } => {
                if let Some(u) = c.oob.get_mut(force) {
                    u.hex = Some(*hex);
                    u.moving_to = None;
                }
            }
            Effect::PlaceTaken { place, hex, by } => {
                if let Some(s) = c.map.settlements.iter_mut().find(|s| s.name == *place && s.hex == *hex) {
                    s.control = Control::Nation(*by);
                    s.typed = Control::Nation(*by);
                    s.invested_by = None;
                    s.overrule = None;
                }
            }
            Effect::InvestmentEnded { place, hex } => {
                if let Some(s) = c.map.settlements.iter_mut().find(|s| s.name == *place && s.hex == *hex) {
                    s.invested_by = None;
                }
            }
            Effect::Siege(s) => {
                match c.books.sieges.iter().position(|x| x.place == s.place && x.began == s.began) {
                    Some(i) => c.books.sieges[i] = s.clone(),
                    None => c.books.sieges.push(s.clone()),
                }
            }
            Effect::Revolt(r) => c.books.revolts.push(r.clone()),
            Effect::Occupation(o) => {
                c.books.occupation.retain(|x| x.turn != o.turn);
                c.books.occupation.push(o.clone());
            }
            Effect::Year(y) => {
                c.books.years.retain(|x| x.year != y.year);
                c.books.years.push(y.clone());
            }
            Effect::Sighting(s) => c.books.intelligence.push(s.clone()),
            Effect::JuntaCard(j) => c.books.junta_cards.push(j.clone()),
        }
    }
}

/// Men lost per unit by these effects (a captured force loses every man of every row).
pub fn men_lost(c: &Campaign, effects: &[Effect]) -> Vec<(String, u32)> {
    let mut m: std::collections::BTreeMap<String, u32> = std::collections::BTreeMap::new();
    for e in effects {
        match e {
            Effect::Loss { unit, men, .. } if *men > 0 => *m.entry(unit.clone()).or_default() += men,
            Effect::Captured { force, .. } => {
                for u in c.oob.units_under(force) {
                    if u.men > 0 {
                        *m.entry(u.id.to_string()).or_default() += u.men;
                    }
                }
            }
            _ => {}
        }
    }
    m.into_iter().collect()
}

/// `total` men spread over `units` in proportion to their men (never more than a unit has),
/// the remainder one man at a time to the largest units first, in file order among equals.
pub fn spread(units: &[&Unit], total: u32) -> Vec<(String, u32)> {
    let men: u64 = units.iter().map(|u| u64::from(u.men)).sum();
    if men == 0 || total == 0 {
        return Vec::new();
    }
    let total = u64::from(total).min(men);
    let mut shares: Vec<u64> = units.iter().map(|u| u64::from(u.men) * total / men).collect();
    let mut left = total - shares.iter().sum::<u64>();
    let mut order: Vec<usize> = (0..units.len()).collect();
    order.sort_by_key(|&i| std::cmp::Reverse(units[i].men));
    while left > 0 {
        let mut gave = false;
        for &i in &order {
            if left == 0 {
                break;
            }
            if shares[i] < u64::from(units[i].men) {
                shares[i] += 1;
                left -= 1;
                gave = true;
            }
        }
        if !gave {
            break;
        }
    }
    units
        .iter()
        .zip(shares)
        .filter(|(_, s)| *s > 0)
        .map(|(u, s)| (u.id.to_string(), u32::try_from(s).unwrap_or(u32::MAX)))
        .collect()
}

/// `per_cent` of `base` men, rounded down.
pub fn per_cent(base: u32, per_cent: u32) -> u32 {
    u32::try_from(u64::from(base) * u64::from(per_cent) / 100).unwrap_or(u32::MAX)
}

/// Loss effects spreading `total` over the men of some forces' units.
pub fn losses_over(
    c: &Campaign,
    forces: &[String],
    total: u32,
    why: &str,
    infantry_only: bool,
) -> Vec<Effect> {
    let units: Vec<&Unit> = forces
        .iter()
        .flat_map(|f| c.oob.units_under(f))
        .filter(|u| !infantry_only || u.arm_class() == Some(ArmClass::Infantry))
        .collect();
    spread(&units, total)
        .into_iter()
        .map(|(unit, men)| Effect::Loss { unit, men, why: why.to_string() })
        .collect()
}

/// Men of some forces (infantry only, or all).
pub fn men_of(c: &Campaign, forces: &[String], infantry_only: bool) -> u32 {
    forces
        .iter()
        .map(|f| {
            let s = c.oob.strength(f);
            if infantry_only { s.infantry } else { s.men() }
        })
        .sum()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movement::testing::Builder;

    #[test]
    fn a_loss_is_spread_without_making_or_losing_a_man() {
        let c = Builder::default().force("fr", "brigade", "Fr", "10.10", &["line", "line", "light"]).build();
        let units: Vec<&Unit> = c.oob.units_under("fr");
        let men: Vec<u32> = units.iter().map(|u| u.men).collect();
        let total: u32 = men.iter().sum();
        let s = spread(&units, 100);
        assert_eq!(s.iter().map(|x| x.1).sum::<u32>(), 100);
        assert!(s.iter().zip(&units).all(|(x, u)| x.1 <= u.men));
        assert_eq!(
            spread(&units, total + 50).iter().map(|x| x.1).sum::<u32>(),
            total,
            "never more than there is"
        );
        assert!(spread(&units, 0).is_empty());
    }
}

/// A campaign from a few rows, for the turn's rule tests.
#[cfg(test)]
pub(crate) mod testing {
    use crate::formats::campaign::{CampaignFiles, names, parse_campaign};
    use crate::model::Campaign;

    /// The men each unit loses in a phase's effects, in order.
    pub(crate) fn losses(effects: &[super::Effect]) -> Vec<(&str, u32)> {
        effects
            .iter()
            .filter_map(|e| match e {
                super::Effect::Loss { unit, men, .. } => Some((unit.as_str(), *men)),
                _ => None,
            })
            .collect()
    }

    /// A 64 × 48 campaign at `turn` with these `settlements.csv` rows (after the header
    /// `name,hex,kind,port,depot,province,control,invested_by,citadel`), `forces.csv` rows
    /// (after `id,parent,level,name,commander,nation,arm,men,squadrons,guns,hex`) and extra
    /// files.
    pub(crate) fn camp(
        turn: u32,
        settlements: &str,
        forces: &str,
        extra: &[(&'static str, &str)],
    ) -> Campaign {
        let mut files = CampaignFiles::default();
        let mut put = |name: &'static str, text: String| {
            files.files.insert(name, text.into_bytes());
        };
        put(
            names::CAMPAIGN,
            format!("name = \"t\"\nseed = 1808\nturn = {turn}\n[map]\ncolumns = 64\nrows = 48\n"),
        );
        put(names::HEXES, "hex,terrain\n".into());
        put(names::ROADS, "from,to,class\n".into());
        put(names::RIVERS, "from,to,name\n".into());
        put(names::COMMANDERS, "name,side\nCuesta,Allies\nPalafox,Allies\nRey,French\n".into());
        put(
            names::SETTLEMENTS,
            format!("name,hex,kind,port,depot,province,control,invested_by,citadel\n{settlements}"),
        );
        put(
            names::FORCES,
            format!("id,parent,level,name,commander,nation,arm,men,squadrons,guns,hex\n{forces}"),
        );
        for (n, t) in extra {
            put(n, t.to_string());
        }
        match parse_campaign(&files) {
            Ok(c) => c,
            Err(p) => panic!("{:?}", p.0.iter().map(ToString::to_string).collect::<Vec<_>>()),
        }
    }

    /// The context of the advance out of `turn`, with the forces that moved.
    pub(crate) fn ctx(turn: u32, moved: &[(&str, &str)]) -> crate::rules::turn::TurnContext {
        crate::rules::turn::TurnContext {
            from: crate::model::Turn(turn),
            to: crate::model::Turn(turn + 1),
            moved: moved.iter().map(|(f, h)| (f.to_string(), h.parse().unwrap())).collect(),
            in_contact: std::collections::BTreeMap::new(),
        }
    }
}
