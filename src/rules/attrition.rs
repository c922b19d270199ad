//! Winter attrition (rule 6.2 as amended on 31 December 2014): "Military forces that remain
//! halted in a settlement of town size or larger (villages do not count) do not suffer
//! attrition. A military force that moves however will have an average dice rolled for each
//! brigade with 2 deducted from the roll giving a possible result of 0 to 4. This is the
//! percentage losses that brigade suffers from attrition due to campaigning in winter, that
//! turn." The average die gives 2–5, so the loss is 0–3 % (docs/rule-interpretations.md).
//! Every force that moved during a winter turn rolls, wherever it ended; of those that did not
//! move, only the ones standing in a town or larger are spared (2.1.3: villages give no
//! shelter), the others roll too (the amendment spares no one else). Each brigade loses that
//! per cent of each of its units' men.

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
    for f in c.oob.forces() {
        let Some(now) = f.hex else { continue };
        let side = f.side();
        let was = ctx.moved.get(f.id.as_str());
        if was.is_none() && sheltered(c, now) {
            let place = c.map.settlements_in(now).first().map(|s| s.name.clone()).unwrap_or_default();
            sec.umpire(format!("{} ({}) remained halted in {place}: no attrition (6.2).", f.name, f.id));
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
        let how = match was {
            Some(was) if *was == now => {
                format!(
                    "marched in winter and ended where it began, at {now} (a force that moves rolls, town or not)"
                )
            }
            Some(was) if sheltered(c, now) => {
                format!("moved {was} → {now} in winter (a force that moves rolls, town or not)")
            }
            Some(was) => format!("moved {was} → {now} in winter, not in a town"),
            None => format!("halted at {now} in winter, not in a town"),
        };
        sec.umpire(format!("{} ({}) {how}: {} (6.2)", f.name, f.id, lines.join("; ")));
        let did = if was.is_some() { "marched" } else { "stood outside a town" };
        sec.side(
            side,
            format!("{} ({}) {did} in winter and lost {total} men to attrition (6.2).", f.name, f.id),
        );
    }
    PhaseOutcome { phase: "winter", section: sec, effects }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;
    use crate::rules::effects::testing::{camp, ctx, losses};

    const PLACES: &str = "Medellin,18.28,town,,,,Sp,,\nVillar,19.30,village,,,,Sp,,\n";
    const FORCES: &str = "FR-LAP,,division,Lapisse,,Fr,,,,,19.30\n\
        FR-LAP-1,FR-LAP,brigade,1re,,Fr,,,,,\nFR-LAP-1-a,FR-LAP-1,battalion,a,,Fr,line,600,,,\nFR-LAP-1-b,FR-LAP-1,battalion,b,,Fr,line,500,,,\n\
        FR-LAP-2,FR-LAP,brigade,2e,,Fr,,,,,\nFR-LAP-2-a,FR-LAP-2,battalion,c,,Fr,line,800,,,\n\
        FR-LM,,division,Latour-Maubourg,,Fr,,,,,18.28\nFR-LM-1,FR-LM,regiment,d,,Fr,dragoon,400,2,,\n";

    #[test]
    fn a_winter_march_loses_the_average_die_less_two_per_cent_a_brigade() {
        // Turn 13, early December 1808: winter. Lapisse marched to a village; Latour-Maubourg
        // remained halted in the town of Medellin.
        let c = camp(13, PLACES, FORCES, &[]);
        // 1re brigade 1dA 5 (d6 6) → 3 %; 2e brigade 1dA 3 (d6 2) → 1 %.
        let out = phase(&c, &ctx(13, &[("FR-LAP", "20.30")]), &mut ScriptedDice::new([6, 2]));
        let lost = losses(&out.effects);
        assert_eq!(lost, [("FR-LAP-1-a", 18), ("FR-LAP-1-b", 15), ("FR-LAP-2-a", 8)]);
        let text = out.section.umpire.join("\n");
        assert!(text.contains("remained halted in Medellin: no attrition"), "{text}");
        assert!(text.contains("FR-LAP-1: 1dA 5 − 2 = 3 %"), "{text}");
    }

    #[test]
    fn a_force_that_moved_into_a_town_in_winter_rolls_as_any_that_moves() {
        // 6.2 as amended: "A military force that moves however will have an average dice
        // rolled for each brigade". Latour-Maubourg marched into Medellin: its one brigade
        // (the division's own units) rolls 1dA 5 (d6 6) → 3 % of 400 = 12 men.
        let places = PLACES.replace("Villar,19.30,village", "Villar,19.31,town");
        let forces = FORCES.replace("Fr,,,,,19.30", "Fr,,,,,19.31");
        let c = camp(13, &places, &forces, &[]);
        let out = phase(&c, &ctx(13, &[("FR-LM", "18.27")]), &mut ScriptedDice::new([6]));
        assert_eq!(
            out.effects,
            [Effect::Loss { unit: "FR-LM-1".into(), men: 12, why: "6.2 winter attrition".into() }]
        );
        let text = out.section.umpire.join("\n");
        assert!(text.contains("(FR-LM) moved 18.27 → 18.28 in winter (a force that moves rolls"), "{text}");
        assert!(text.contains("(FR-LAP) remained halted in Villar: no attrition"), "{text}");
    }

    #[test]
    fn no_attrition_out_of_winter_or_for_a_force_halted_in_a_town() {
        let c = camp(20, PLACES, FORCES, &[]);
        let out = phase(&c, &ctx(20, &[("FR-LAP", "20.30")]), &mut ScriptedDice::new([6, 6]));
        assert!(out.effects.is_empty());
        // Nobody moved: Latour-Maubourg halted in Medellin is spared, Lapisse halted in a
        // village is not (2.1.3: villages give no shelter).
        let c = camp(13, PLACES, FORCES, &[]);
        let out = phase(&c, &ctx(13, &[]), &mut ScriptedDice::new([6, 6]));
        assert!(
            out.effects.iter().all(|e| matches!(e, Effect::Loss { unit, .. } if unit.starts_with("FR-LAP")))
        );
        assert_eq!(out.effects.len(), 3);
    }
}
