//! Combats in fortresses held below their minimum garrison (rule 7.1.4, referring to 2.5):
//! "These will capitulate after 1 turn if the Investing force is at least four times greater
//! or has a Siege Train. If the Investing force is weaker the Investing player may fight the
//! battle as an MP game using one of the town maps from SoW".

use super::map_choice::minimum_garrison;
use crate::model::battle::{Participant, Role};
use crate::model::{Campaign, HexId, Side};

/// The rule.
pub const RULE: &str = "7.1.4";

/// How many times the garrison the investing force must be for the fortress to capitulate.
pub const CAPITULATION_RATIO: u32 = 4;

/// A fortress that capitulates under 7.1.4 rather than fight: held by fewer men than its
/// minimum garrison (2.5) against an investing force at least four times as strong (or with a
/// siege train).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Capitulation {
    /// The fortress.
    pub place: String,
    /// Its minimum garrison (2.5).
    pub minimum: u32,
    /// The garrison's men.
    pub garrison: u32,
    /// The investing force's men.
    pub investing: u32,
    /// True when a siege train, not the ratio, decides it.
    pub train: bool,
}

impl Capitulation {
    /// Why, in the rule's words, for the umpire.
    pub fn why(&self) -> String {
        let Capitulation { place, minimum, garrison, investing, train } = self;
        let against = if *train {
            "a siege train".to_string()
        } else {
            format!("{investing} men, at least four times as many")
        };
        format!("{place}: {garrison} men, under the minimum garrison of {minimum} (2.5), against {against}")
    }
}

/// The one judgement of 7.1.4, for `export` and for the siege phase when an investment
/// starts: the defender holds a fortress in `hex` with `garrison` men, fewer than its minimum
/// garrison (2.5), and the investing force has at least four times as many men, or a siege
/// train. `None`: the place is no fortress of the defender's, or holds.
pub fn judge(
    c: &Campaign,
    hex: HexId,
    defender: Side,
    garrison: u32,
    investing: u32,
    train: bool,
) -> Option<Capitulation> {
    let (place, minimum) = c.map.settlements_in(hex).into_iter().find_map(|s| {
        let min = minimum_garrison(s.kind, s.citadel)?;
        (s.control.side() == Some(defender) && garrison < min).then(|| (s.name.clone(), min))
    })?;
    let ratio = u64::from(investing) >= u64::from(CAPITULATION_RATIO) * u64::from(garrison);
    (ratio || train).then_some(Capitulation { place, minimum, garrison, investing, train: train && !ratio })
}

/// Why the battle is not fought because the fortress capitulates (7.1.4), or `None`: the
/// defender holds a fortress in the battle hex with fewer men there than its minimum garrison
/// (2.5), and the attacker's principal forces (the investing force) have at least four times
/// its men ([`judge`]). Siege trains are not in the battle's participants: an umpire whose
/// investing force has one settles the capitulation by the siege phase.
pub fn capitulation_refusal(
    c: &Campaign,
    hex: HexId,
    participants: &[Participant],
    attacker: Side,
) -> Option<String> {
    let defender = attacker.enemy();
    let men = |s: Side, here: bool| -> u32 {
        participants
            .iter()
            .filter(|p| p.side == s && p.role == Role::Principal && (!here || p.hex == hex))
            .map(|p| c.oob.strength(&p.force).men())
            .sum()
    };
    let k = judge(c, hex, defender, men(defender, true), men(attacker, false), false)?;
    Some(format!(
        "rule {RULE}: {} ({hex}) is held by {} men, fewer than its minimum garrison of {} \
         (2.5), and the investing {attacker} have {}, at least four times as many: it capitulates \
         after 1 turn rather than fighting (judged once, when the investment starts, by the turn's siege phase)",
        k.place, k.garrison, k.minimum, k.investing
    ))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::battle::{WhoFightsOptions, who_fights};
    use crate::rules::movement::testing::{Builder, h};

    fn refusal(investing_battalions: usize) -> Option<String> {
        let arms = vec!["line"; investing_battalions];
        let c = Builder::default()
            .column_road(10, 0, 29, "major")
            .settlement("Plaza", "10.06", "fortress-city", "Sp")
            .force("fr", "division", "Fr", "10.05", &arms)
            .force("sp", "brigade", "Sp", "10.06", &["line"])
            .build();
        let who = who_fights(&c, &crate::rules::zoc::contacts(&c), h("10.06"), &WhoFightsOptions::default())
            .unwrap();
        assert_eq!(who.attacker, Side::French);
        capitulation_refusal(&c, h("10.06"), &who.participants, who.attacker)
    }

    #[test]
    fn four_times_the_garrison_makes_an_under_garrisoned_fortress_capitulate() {
        // 500 men hold a fortress-city that needs 2,000 (2.5.2): 4 × 500 = 2,000 capitulate it.
        let why = refusal(4).unwrap();
        assert!(why.contains("held by 500 men, fewer than its minimum garrison of 2000"), "{why}");
        assert!(why.contains("the investing French have 2000"), "{why}");
        // 1,500 is weaker: the battle may be fought, on a town map.
        assert_eq!(refusal(3), None);
    }
}
