//! Winter attrition (rule 6.2 as amended on 31 December 2014): "Military forces that remain
//! halted in a settlement of town size or larger (villages do not count) do not suffer
//! attrition. A military force that moves however will have an average dice rolled for each
//! brigade with 2 deducted from the roll giving a possible result of 0 to 4. This is the
//! percentage losses that brigade suffers from attrition due to campaigning in winter, that
//! turn." The average die gives 2–5, so the loss is 0–3 % (docs/rule-interpretations.md):
//! every brigade of a force that moved during a winter turn and did not end it in a town,
//! city, fortress or capital loses that per cent of each of its units' men.

use std::collections::BTreeMap;

use crate::model::{Campaign, Level, Season, SettlementKind, Unit};
use crate::rules::dice::{Dice, average_die};
use crate::rules::effects::{Effect, per_cent};
use crate::rules::turn::{PhaseOutcome, Section, TurnContext};

/// The brigades of a force for 6.2: each brigade row with the units below it; units under no
/// brigade count together as one brigade under the force's own name.
pub fn brigades<'c>(c: &'c Campaign, force: &str) -> BTreeMap<String, Vec<&'c Unit>> {
    let mut out: BTreeMap<String, Vec<&Unit>> = BTreeMap::new();
    for u in c.oob.units_under(force) {
        let brigade = std::iter::once(u)
            .chain(c.oob.ancestors(&u.id))
            .find(|a| a.level == Level::Brigade)
            .map_or_else(|| force.to_string(), |b| b.id.to_string());
        out.entry(brigade).or_default().push(u);
    }
    out
}

/// True when the hex holds a settlement of town size or larger (villages do not count).
pub fn sheltered(c: &Campaign, hex: crate::model::HexId) -> bool {
    c.map.settlements_in(hex).iter().any(|s| s.kind != SettlementKind::Village)
}

/// The winter phase of the turn (6.2).
pub fn phase(c: &Campaign, ctx: &TurnContext, dice: &mut dyn Dice) -> PhaseOutcome {
    let mut sec = Section::new("Winter attrition (6.2)");
    let mut effects = Vec::new();
    if ctx.from.season() != Season::Winter {
        sec.umpire(format!("Turn {} ({}) is not a winter turn: no attrition.", ctx.from.0, ctx.from.date()));
        return PhaseOutcome { phase: "winter", section: sec, effects };
    }
    let mut any = false;
    for f in c.oob.forces() {
        let (Some(was), Some(now)) = (ctx.moved.get(f.id.as_str()), f.hex) else { continue };
        any = true;
        let side = f.side();
        if sheltered(c, now) {
            let place = c.map.settlements_in(now).first().map(|s| s.name.clone()).unwrap_or_default();
            sec.both(
                side,
                format!(
                    "{} ({}) moved {was} → {now} and halted in {place}: no attrition (6.2).",
                    f.name, f.id
                ),
            );
            continue;
        }
        let mut lines = Vec::new();
        let mut total = 0;
        for (brigade, units) in brigades(c, &f.id) {
            let da = average_die(dice, &format!("6.2 winter attrition of {brigade}"));
            let pct = da - 2;
            let mut lost = 0;
            for u in units {
                let m = per_cent(u.men, pct);
                if m > 0 {
                    lost += m;
                    effects.push(Effect::Loss {
                        unit: u.id.to_string(),
                        men: m,
                        why: "6.2 winter attrition".into(),
                    });
                }
            }
            total += lost;
            lines.push(format!("{brigade}: 1dA {da} − 2 = {pct} % → {lost} men"));
        }
        sec.umpire(format!(
            "{} ({}) moved {was} → {now} in winter, not in a town: {} (6.2)",
            f.name,
            f.id,
            lines.join("; ")
        ));
        sec.side(
            side,
            format!("{} ({}) marched in winter and lost {total} men to attrition (6.2).", f.name, f.id),
        );
    }
    if !any {
        sec.umpire("No force moved this winter turn: no attrition (6.2).");
    }
    PhaseOutcome { phase: "winter", section: sec, effects }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;
    use crate::rules::effects::testing::{camp, ctx};

    const PLACES: &str = "Medellin,18.28,town,,,,Sp,,\nVillar,19.30,village,,,,Sp,,\n";
    const FORCES: &str = "FR-LAP,,division,Lapisse,,Fr,,,,,19.30\n\
        FR-LAP-1,FR-LAP,brigade,1re,,Fr,,,,,\nFR-LAP-1-a,FR-LAP-1,battalion,a,,Fr,line,600,,,\nFR-LAP-1-b,FR-LAP-1,battalion,b,,Fr,line,500,,,\n\
        FR-LAP-2,FR-LAP,brigade,2e,,Fr,,,,,\nFR-LAP-2-a,FR-LAP-2,battalion,c,,Fr,line,800,,,\n\
        FR-LM,,division,Latour-Maubourg,,Fr,,,,,18.28\nFR-LM-1,FR-LM,regiment,d,,Fr,dragoon,400,2,,\n";

    #[test]
    fn a_winter_march_loses_the_average_die_less_two_per_cent_a_brigade() {
        // Turn 13, early December 1808: winter. Lapisse marched to a village, Latour-Maubourg
        // to the town of Medellin.
        let c = camp(13, PLACES, FORCES, &[]);
        // 1re brigade 1dA 5 (d6 6) → 3 %; 2e brigade 1dA 3 (d6 2) → 1 %.
        let out =
            phase(&c, &ctx(13, &[("FR-LAP", "20.30"), ("FR-LM", "18.27")]), &mut ScriptedDice::new([6, 2]));
        let lost: Vec<(&str, u32)> = out
            .effects
            .iter()
            .filter_map(|e| match e {
                Effect::Loss { unit, men, .. } => Some((unit.as_str(), *men)),
                _ => None,
            })
            .collect();
        assert_eq!(lost, [("FR-LAP-1-a", 18), ("FR-LAP-1-b", 15), ("FR-LAP-2-a", 8)]);
        let text = out.section.umpire.join("\n");
        assert!(text.contains("halted in Medellin: no attrition"), "{text}");
        assert!(text.contains("FR-LAP-1: 1dA 5 − 2 = 3 %"), "{text}");
    }

    #[test]
    fn no_attrition_out_of_winter_or_for_a_force_that_stood_still() {
        let c = camp(20, PLACES, FORCES, &[]);
        let out = phase(&c, &ctx(20, &[("FR-LAP", "20.30")]), &mut ScriptedDice::new([6, 6]));
        assert!(out.effects.is_empty());
        let c = camp(13, PLACES, FORCES, &[]);
        let out = phase(&c, &ctx(13, &[]), &mut ScriptedDice::new([6, 6]));
        assert!(out.effects.is_empty(), "nobody moved");
    }
}
