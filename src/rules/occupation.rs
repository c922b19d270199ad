//! Money, taxes and the occupation (rules 4.0–4.1, with the garrisons of 2.1.1).
//!
//! Each settlement of the area the French control in Spain and Portugal ([`taxable`]: the
//! places they hold and every place of a province where they hold a city; villages, 2.1.3,
//! have no taxable value) gives taxes by its French garrison: a town or fortress-town needs 1 unit, a city or
//! fortress-city a brigade (3 units), a capital a division (6 units), a port 1 unit more, for
//! adequate taxes; twice that for good ones (a unit is an infantry battalion or a dragoon
//! squadron, 2.1.1). Every month (at the turn advance out of each late-month turn) each
//! settlement giving good taxes rolls 1d6: on a 1 it revolts for a month (hostile, no taxes),
//! losing 1d6 × 5 % of its garrison, and gives at most adequate taxes afterwards until a fresh
//! unit joins the garrison. Each turn is failing, moderately or highly successful by 4.0's
//! thirds and halves (a complete failure under 10 taxed settlements); at the end of each
//! campaign year the score is counted and the French success test made (4.0), and 4.1's
//! ±10 % to the next year's reinforcements recorded.

use crate::model::books::{CampaignYear, OccupationOutcome, OccupationTurn, Revolt};
use crate::model::{Campaign, Control, Nation, Settlement, SettlementKind, Side};
use crate::rules::control::{Garrisons, Production, SettlementControl, compute_at};
use crate::rules::dice::Dice;
use crate::rules::effects::{Effect, losses_over, men_of, per_cent};
use crate::rules::turn::{PhaseOutcome, Section, TurnContext};

/// The settlements of the campaign north of the Pyrenees (France), where the French collect
/// no taxes (4.0), by name, beside any whose province is "France".
pub const IN_FRANCE: [&str; 14] = [
    "Toulouse",
    "Bayonne",
    "Perpignan",
    "Narbonne",
    "Aire",
    "Auch",
    "Carcassone",
    "Daix",
    "Lessar",
    "Lombez",
    "Orthez",
    "Pamiers",
    "Rieux",
    "Tarbes",
];

/// Fewer taxed settlements than this is a complete failure (4.0).
pub const MINIMUM_TAXED: u32 = 10;

/// The tax a settlement gives the French.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Tax {
    /// None: under-garrisoned or in revolt.
    None,
    /// Adequate.
    Adequate,
    /// Good.
    Good,
}

/// True for a settlement north of the Pyrenees.
pub fn in_france(s: &Settlement) -> bool {
    crate::rules::siege::fold(&s.province) == "france"
        || IN_FRANCE.iter().any(|n| crate::rules::siege::fold(n) == crate::rules::siege::fold(&s.name))
}

/// Garrison units for adequate taxes (2.1.1), as control counts them (a brigade three units,
/// a capital's division two brigades, a port one unit more): for the report.
pub fn units_needed(s: &Settlement) -> u32 {
    let n = crate::rules::control::need(Side::French, s.region, s.kind, s.port);
    3 * n.brigades + n.units
}

/// "The area of the map controlled by the French" (4.0), whose settlements the two-thirds
/// and half tests count: every settlement of Spain and Portugal (villages, 2.1.3, have no
/// taxable value; Irun, in Vascongadas, is in Spain) that the French control, and every one
/// of a province in which they hold a capital, a city or a fortress-city (a brigade or more
/// of garrison, 2.1.1): the province is theirs to police, and its places that do not pay
/// count against them. `control` is each settlement's control on the turn, in
/// `settlements.csv` order.
pub fn taxable<'c>(
    c: &'c Campaign,
    control: &[SettlementControl],
) -> Vec<(&'c Settlement, SettlementControl)> {
    let french = |k: &SettlementControl| k.control == Control::Nation(Nation::Fr);
    let held: std::collections::BTreeSet<&str> = c
        .map
        .settlements
        .iter()
        .zip(control)
        .filter(|(s, k)| {
            french(k)
                && matches!(
                    s.kind,
                    SettlementKind::Capital | SettlementKind::City | SettlementKind::FortressCity
                )
        })
        .map(|(s, _)| s.province.as_str())
        .collect();
    c.map
        .settlements
        .iter()
        .zip(control)
        .filter(|(s, _)| s.kind != SettlementKind::Village && !in_france(s))
        .filter(|(s, k)| french(k) || held.contains(s.province.as_str()))
        .map(|(s, k)| (s, k.clone()))
        .collect()
}

/// The revolt running at `turn` in a place, if any.
pub fn revolt_at<'c>(c: &'c Campaign, place: &str, turn: u32) -> Option<&'c Revolt> {
    c.books.revolts.iter().find(|r| r.place == place && r.began <= turn && turn < r.until)
}

/// The tax a settlement gives at `turn`, and its garrison units. The garrison gives the
/// French "adequate" or "good" taxes exactly as it gives supply production (2.1.1): the level
/// is control's ([`crate::rules::control::compute_at`], `k`, which knows the revolts and the
/// temporary capital), its garrison counted once for the turn in `g`.
pub fn tax_of(c: &Campaign, g: &Garrisons, s: &Settlement, k: &SettlementControl, turn: u32) -> (Tax, u32) {
    // The garrison as control counts it (2.1): the same units give supply and taxes.
    let units = g.at(s.hex, Side::French).units();
    if revolt_at(c, &s.name, turn).is_some() {
        return (Tax::None, units);
    }
    let mut tax = match (k.computed, k.production) {
        (Control::Nation(Nation::Fr), Production::Good) => Tax::Good,
        (Control::Nation(Nation::Fr), Production::Adequate) => Tax::Adequate,
        _ => Tax::None,
    };
    // After a revolt: adequate until a fresh unit is added.
    if tax == Tax::Good
        && let Some(r) =
            c.books.revolts.iter().filter(|r| r.place == s.name && r.until <= turn).max_by_key(|r| r.began)
        && units <= r.units
    {
        tax = Tax::Adequate;
    }
    (tax, units)
}

/// The units that police a place giving good taxes (2.1.1's need doubled), by id.
fn policing_units(c: &Campaign, s: &Settlement, ctx: &TurnContext) -> Vec<String> {
    let need = crate::rules::control::need(Side::French, s.region, s.kind, s.port).doubled();
    let units = crate::rules::control::policing(c, s.hex, Side::French, need, Some(ctx));
    units.iter().map(|u| u.id.to_string()).collect()
}

/// The losses of some effects, unit by unit: `FR-I-1 210, FR-I-2 210`.
fn named_losses(l: &[Effect]) -> String {
    let named: Vec<String> = l
        .iter()
        .filter_map(|e| match e {
            Effect::Loss { unit, men, .. } => Some(format!("{unit} {men}")),
            _ => None,
        })
        .collect();
    if named.is_empty() { "none".to_string() } else { named.join(", ") }
}

/// 4.0's verdict on a turn from the counts.
pub fn outcome(controlled: u32, taxed: u32, good: u32) -> OccupationOutcome {
    if taxed < MINIMUM_TAXED {
        OccupationOutcome::CompleteFailure
    } else if u64::from(good) * 2 >= u64::from(controlled) {
        OccupationOutcome::High
    } else if u64::from(taxed) * 3 >= u64::from(controlled) * 2 {
        OccupationOutcome::Moderate
    } else {
        OccupationOutcome::Failing
    }
}

/// A campaign year's result (4.0–4.1) from its occupation turns and the French battles.
pub fn year_result(year: u32, turns: &[OccupationTurn], won: u32, lost: u32, drawn: u32) -> CampaignYear {
    let occupation: i64 = turns.iter().filter(|t| t.year == year).map(|t| t.outcome.score()).sum();
    let score = occupation + crate::rules::score::battle_score(won, lost);
    let french = score > 0 && crate::rules::score::french_battles_succeed(won, lost, drawn);
    let winner = if french { Side::French } else { Side::Allies };
    let (fr, al) = if french { (10, -10) } else { (-10, 10) };
    CampaignYear {
        year,
        occupation,
        won,
        lost,
        drawn,
        score,
        winner,
        french_reinforcements: fr,
        allied_reinforcements: al,
    }
}

/// The occupation's phase of the turn (4.0–4.1).
pub fn phase(c: &Campaign, ctx: &TurnContext, dice: &mut dyn Dice) -> PhaseOutcome {
    let mut sec = Section::new("Taxes and the occupation (4.0–4.1)");
    let mut effects = Vec::new();
    let from = ctx.from.0;
    let garrisons = Garrisons::of(c);
    let control = compute_at(c, &garrisons, from);
    let places = taxable(c, &control);
    let (mut taxed, mut good) = (0u32, 0u32);
    let mut goods = Vec::new();
    for (s, k) in &places {
        let (tax, units) = tax_of(c, &garrisons, s, k, from);
        match tax {
            Tax::Good => {
                good += 1;
                taxed += 1;
                goods.push(*s);
            }
            Tax::Adequate => taxed += 1,
            Tax::None => {}
        }
        let why =
            if revolt_at(c, &s.name, from).is_some() { " (in revolt)".to_string() } else { String::new() };
        sec.umpire(format!(
            "{}: {units} garrison units, {} needed → {}{why}",
            s.name,
            units_needed(s),
            match tax {
                Tax::Good => "good",
                Tax::Adequate => "adequate",
                Tax::None => "no taxes",
            }
        ));
    }
    let controlled = places.len() as u32;
    let out = outcome(controlled, taxed, good);
    let row =
        OccupationTurn { turn: from, year: ctx.from.campaign_year(), controlled, taxed, good, outcome: out };
    sec.both(
        Side::French,
        format!(
            "Turn {from}: {taxed} of {controlled} settlements taxed, {good} giving good taxes → the occupation is {} ({:+}) (4.0).",
            match out {
                OccupationOutcome::CompleteFailure => "a complete failure (under 10 settlements taxed)",
                OccupationOutcome::Failing => "failing",
                OccupationOutcome::Moderate => "moderately successful",
                OccupationOutcome::High => "highly successful",
            },
            out.score()
        ),
    );
    effects.push(Effect::Occupation(row.clone()));
    // Monthly: the late turn of each month ends it.
    if !ctx.from.early() {
        for s in goods {
            let d = dice.roll(6, &format!("4.0 revolt in {}", s.name));
            if d != 1 {
                sec.umpire(format!("{}: revolt roll 1d6 {d}: quiet", s.name));
                continue;
            }
            // 4.0's "garrison": the units that police the place for its good taxes (2.1.1,
            // doubled), not every force standing in it.
            let g = policing_units(c, s, ctx);
            let pd = dice.roll(6, &format!("4.0 revolt losses in {}", s.name));
            let men = men_of(c, &g, false);
            let lost = per_cent(men, pd * 5);
            let l = losses_over(c, &g, lost, &format!("4.0 revolt in {}", s.name), false);
            // The campaign is not changed before the phase's effects are applied: its garrisons
            // are those found above.
            let units_after = garrisons.at(s.hex, Side::French).units();
            effects.extend(l.iter().cloned());
            effects.push(Effect::Revolt(Revolt {
                place: s.name.clone(),
                began: ctx.to.0,
                until: ctx.to.0 + 2,
                men_lost: lost,
                units: units_after,
            }));
            sec.umpire(format!(
                "{}: revolt roll 1d6 1: revolt for a month, hostile until turn {} (4.0); the garrison that polices it ({}) loses 1d6 {pd} × 5 % of {men} = {lost} men: {}",
                s.name,
                ctx.to.0 + 2,
                g.join(", "),
                named_losses(&l)
            ));
            sec.side(Side::French, format!("{} revolts: hostile for a month; the garrison loses {lost} men; good taxes again only with a fresh unit (4.0).", s.name));
        }
    } else {
        sec.umpire("No revolt rolls: they are monthly, at the end of each late-month turn (4.0).");
    }
    // The year's end.
    if ctx.from.campaign_year() != ctx.to.campaign_year() {
        let year = ctx.from.campaign_year();
        let mut turns: Vec<OccupationTurn> =
            c.books.occupation.iter().filter(|t| t.turn != from).cloned().collect();
        turns.push(row);
        let fr = c.score.iter().find(|r| r.year == year && r.side == Side::French);
        let (w, l, d) = fr.map_or((0, 0, 0), |r| (r.battles_won, r.battles_lost, r.battles_drawn));
        let y = year_result(year, &turns, w, l, d);
        let line = format!(
            "Campaign year {year} ends (4.0): occupation {:+}, battles won {w} lost {l} drawn {d} → score {:+}; {} — the {} win the year. 4.1: the French reinforcements for next year {:+} %, the Allies' {:+} %.",
            y.occupation,
            y.score,
            if y.winner == Side::French {
                "the French are successful"
            } else {
                "the French are not successful"
            },
            y.winner,
            y.french_reinforcements,
            y.allied_reinforcements
        );
        sec.umpire(line.clone());
        sec.side(Side::French, line.clone());
        sec.side(Side::Allies, line);
        effects.push(Effect::Year(y));
    }
    PhaseOutcome { phase: "occupation", section: sec, effects }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;
    use crate::rules::effects::testing::{camp, ctx, losses};

    /// The first settlement's tax at `turn`, with control computed as the phase does.
    fn tax(c: &Campaign, turn: u32) -> (Tax, u32) {
        let g = Garrisons::of(c);
        let k = compute_at(c, &g, turn);
        tax_of(c, &g, &c.map.settlements[0], &k[0], turn)
    }

    #[test]
    fn a_good_settlement_revolts_on_a_1_and_loses_part_of_its_garrison() {
        // Burgos, a fortress-city, held by 6 battalions: good taxes (twice a brigade).
        let places = "Burgos,30.09,fortress-city,,,,Fr,,\n";
        let mut forces = String::from("FR-BUR,,brigade,Burgos,,Fr,,,,,30.09\n");
        for i in 0..6 {
            forces.push_str(&format!("FR-BUR-{i},FR-BUR,battalion,{i},,Fr,line,500,,,\n"));
        }
        let c = camp(20, places, &forces, &[]);
        assert_eq!(tax(&c, 20), (Tax::Good, 6));
        // Turn 20 is late March: the month ends. 1d6 1 → revolt; 1d6 4 → 20 % of 3,000.
        let out = phase(&c, &ctx(20, &[]), &mut ScriptedDice::new([1, 4]));
        let lost: u32 = losses(&out.effects).iter().map(|(_, m)| m).sum();
        assert_eq!(lost, 600);
        let r = out
            .effects
            .iter()
            .find_map(|e| match e {
                Effect::Revolt(r) => Some(r.clone()),
                _ => None,
            })
            .unwrap();
        assert_eq!((r.began, r.until, r.units), (21, 23, 6));
        let mut c2 = c.clone();
        crate::rules::effects::apply_effects(&mut c2, &out.effects, 2);
        assert_eq!(tax(&c2, 21).0, Tax::None, "hostile for a month");
        assert_eq!(tax(&c2, 23).0, Tax::Adequate, "adequate until a fresh unit");
        // An unavailable battalion (6.5.2.4) polices nothing: not for control, not for taxes.
        let mut c3 = c.clone();
        *c3.oob.get_mut("FR-BUR-5").unwrap().status_mut() =
            vec![crate::model::Status { kind: crate::model::StatusKind::Unavailable, until: 22 }];
        let g3 = Garrisons::of(&c3);
        assert_eq!(g3.at(c3.map.settlements[0].hex, Side::French).units(), 5);
        assert_eq!(tax(&c3, 20), (Tax::Adequate, 5));
        // Early-month turns roll no revolt.
        let out = phase(&c, &ctx(21, &[]), &mut ScriptedDice::new([1, 4]));
        assert!(!out.effects.iter().any(|e| matches!(e, Effect::Revolt(_))));
    }

    #[test]
    fn a_revolt_strikes_the_garrison_that_polices_the_place_not_an_army_in_it() {
        // Talavera, a town (1 unit, 2 for good taxes), policed by two battalions; I Corps' 4
        // battalions marched in this turn beside them. 1d6 1 → revolt; 1d6 6 → 30 % of the
        // policing two only.
        let places = "Talavera,24.23,town,,yes,Castile-La Mancha,Fr,,\n";
        let forces = "FR-I,,corps,Ier Corps,,Fr,,,,,24.23\n\
            FR-I-1,FR-I,battalion,a,,Fr,line,700,,,\nFR-I-2,FR-I,battalion,b,,Fr,line,700,,,\n\
            FR-I-3,FR-I,battalion,c,,Fr,line,700,,,\nFR-I-4,FR-I,battalion,d,,Fr,line,700,,,\n\
            FR-TAL,,brigade,Garnison,,Fr,,,,,24.23\n\
            FR-TAL-1,FR-TAL,battalion,e,,Fr,line,600,,,\nFR-TAL-2,FR-TAL,battalion,f,,Fr,line,500,,,\n";
        let c = camp(20, places, forces, &[]);
        let out = phase(&c, &ctx(20, &[("FR-I", "18.28")]), &mut ScriptedDice::new([1, 6]));
        let lost = losses(&out.effects);
        assert_eq!(lost, [("FR-TAL-1", 180), ("FR-TAL-2", 150)], "30 % of the 1,100 that police it");
        let text = out.section.umpire.join("\n");
        assert!(text.contains("the garrison that polices it (FR-TAL-1, FR-TAL-2)"), "{text}");
        // I Corps alone, withdrawn into the town: two of its battalions police it.
        let forces = forces.split("FR-TAL,").next().unwrap();
        let c = camp(20, places, forces, &[]);
        let out = phase(&c, &ctx(20, &[("FR-I", "18.28")]), &mut ScriptedDice::new([1, 6]));
        let lost: u32 = losses(&out.effects).iter().map(|(_, m)| m).sum();
        assert_eq!(lost, 420, "30 % of 1,400, not of I Corps' 2,800");
    }

    #[test]
    fn the_occupation_by_thirds_and_halves_and_the_years_score() {
        assert_eq!(outcome(30, 9, 9), OccupationOutcome::CompleteFailure);
        assert_eq!(outcome(30, 20, 14), OccupationOutcome::Moderate);
        assert_eq!(outcome(30, 19, 14), OccupationOutcome::Failing);
        assert_eq!(outcome(30, 20, 15), OccupationOutcome::High);
        // Year 1: 10 high turns, 5 moderate, 3 failing = +7; won 4, lost 2, drawn 1 → +9,
        // and 4 > 2 + 1: the French succeed.
        let turns: Vec<OccupationTurn> = (1..=18)
            .map(|t| OccupationTurn {
                turn: t,
                year: 1,
                controlled: 30,
                taxed: 20,
                good: 15,
                outcome: match t {
                    1..=10 => OccupationOutcome::High,
                    11..=15 => OccupationOutcome::Moderate,
                    _ => OccupationOutcome::Failing,
                },
            })
            .collect();
        let y = year_result(1, &turns, 4, 2, 1);
        assert_eq!((y.occupation, y.score, y.winner), (7, 9, Side::French));
        assert_eq!((y.french_reinforcements, y.allied_reinforcements), (10, -10));
        let y = year_result(1, &turns, 4, 2, 2);
        assert_eq!(y.winner, Side::Allies, "4 wins are not more than 2 lost and 2 drawn");
    }
}
