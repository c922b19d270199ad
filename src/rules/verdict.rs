//! Who won (rule 8.4 leaves it to the umpire): `--winner`, or the campaign's policy —
//! casualties inflicted plus the points of objectives held at the end; a side wins with at
//! least `win_ratio` times the other's score, otherwise the battle is a draw.

use std::collections::BTreeMap;

use rust_decimal::Decimal;

use crate::model::Side;
use crate::model::battle::ObjectiveRecord;

/// The verdict and how it was reached.
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct Verdict {
    /// The winner; None for a draw.
    pub winner: Option<Side>,
    /// Score per side under the policy (empty when `--winner` decided).
    pub scores: BTreeMap<Side, u64>,
    /// Objectives held at the end and by whom.
    pub held: Vec<(String, Option<Side>)>,
    /// How it was reached, in words.
    pub explanation: String,
}

/// Men of each side near a point (position, side, men).
pub type Presence = Vec<((f64, f64), Side, u32)>;

/// Which side holds each objective: the side with more men within `radius` world units.
pub fn objectives_held(
    objectives: &[ObjectiveRecord],
    presence: &Presence,
    radius: f64,
) -> Vec<(String, Option<Side>)> {
    objectives
        .iter()
        .map(|o| {
            let mut men: BTreeMap<Side, u64> = BTreeMap::new();
            for ((x, z), side, m) in presence {
                if ((x - o.at.0).powi(2) + (z - o.at.1).powi(2)).sqrt() <= radius {
                    *men.entry(*side).or_default() += u64::from(*m);
                }
            }
            let f = men.get(&Side::French).copied().unwrap_or(0);
            let a = men.get(&Side::Allies).copied().unwrap_or(0);
            let holder = match f.cmp(&a) {
                std::cmp::Ordering::Greater => Some(Side::French),
                std::cmp::Ordering::Less => Some(Side::Allies),
                std::cmp::Ordering::Equal => None,
            };
            (o.name.clone(), holder)
        })
        .collect()
}

/// The policy verdict from casualties inflicted on each side's enemy and objectives held.
pub fn policy_verdict(
    inflicted: &BTreeMap<Side, u64>,
    objectives: &[ObjectiveRecord],
    held: Vec<(String, Option<Side>)>,
    win_ratio: Decimal,
) -> Verdict {
    let mut scores: BTreeMap<Side, u64> = BTreeMap::new();
    for s in [Side::French, Side::Allies] {
        let pts: u64 = held
            .iter()
            .filter(|(_, h)| *h == Some(s))
            .filter_map(|(n, _)| objectives.iter().find(|o| &o.name == n))
            .map(|o| u64::from(o.points))
            .sum();
        scores.insert(s, inflicted.get(&s).copied().unwrap_or(0) + pts);
    }
    let (f, a) = (scores[&Side::French], scores[&Side::Allies]);
    let beats = |x: u64, y: u64| x > 0 && Decimal::from(x) >= Decimal::from(y) * win_ratio;
    let winner = if beats(f, a) {
        Some(Side::French)
    } else if beats(a, f) {
        Some(Side::Allies)
    } else {
        None
    };
    let held_txt: Vec<String> = held
        .iter()
        .map(|(n, h)| format!("{n}: {}", h.map_or("nobody".to_string(), |s| s.to_string())))
        .collect();
    let explanation = format!(
        "Casualties inflicted plus objective points: French {f} (inflicted {}), Allies {a} (inflicted {}); objectives at the end: {}; a side wins with at least {win_ratio} times the other's score.",
        inflicted.get(&Side::French).copied().unwrap_or(0),
        inflicted.get(&Side::Allies).copied().unwrap_or(0),
        if held_txt.is_empty() {
            "not judged (no startlocs.csv of this battle beside the dump)".to_string()
        } else {
            held_txt.join(", ")
        }
    );
    Verdict { winner, scores, held, explanation }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_decimal_macros::dec;

    fn obj(name: &str, points: u32) -> ObjectiveRecord {
        ObjectiveRecord { name: name.into(), major: points > 1000, at: (100.0, 100.0), points }
    }

    #[test]
    fn a_side_wins_at_one_and_a_quarter_times_the_other() {
        let objs = [obj("Medellin", 2000)];
        let inf = BTreeMap::from([(Side::French, 2500), (Side::Allies, 2000)]);
        let v = policy_verdict(&inf, &objs, vec![], dec!(1.25));
        assert_eq!(v.winner, Some(Side::French), "2500 >= 1.25 x 2000");
        let inf = BTreeMap::from([(Side::French, 2499), (Side::Allies, 2000)]);
        assert_eq!(policy_verdict(&inf, &objs, vec![], dec!(1.25)).winner, None);
        // Holding the major objective turns it.
        let held = vec![("Medellin".to_string(), Some(Side::Allies))];
        let v = policy_verdict(&inf, &objs, held, dec!(1.25));
        assert_eq!(v.scores[&Side::Allies], 4000);
        assert_eq!(v.winner, Some(Side::Allies));
        let zero = BTreeMap::new();
        assert_eq!(policy_verdict(&zero, &objs, vec![], dec!(1.25)).winner, None, "no casualties: a draw");
    }

    #[test]
    fn the_side_with_more_men_near_holds_an_objective() {
        let objs = [obj("Medellin", 2000)];
        let presence = vec![
            ((110.0, 100.0), Side::French, 500),
            ((90.0, 100.0), Side::Allies, 400),
            ((900.0, 900.0), Side::Allies, 9000),
        ];
        assert_eq!(
            objectives_held(&objs, &presence, 50.0),
            vec![("Medellin".to_string(), Some(Side::French))]
        );
        assert_eq!(objectives_held(&objs, &vec![], 50.0), vec![("Medellin".to_string(), None)]);
    }
}
