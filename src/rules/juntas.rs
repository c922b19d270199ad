//! The Provincial Juntas (rule 5.1): from turn 3 (July 1808), each turn a card is drawn from a
//! 52-card deck for each Spanish army commander but Palafox and Llamas. A 2 to 10 gives no
//! instruction; a knave, queen, king or ace is an order he must comply with — the suit grades
//! it from good (hearts) to bad (spades), the rank from moderate (knave) to extreme (ace).
//! The rules do not write the orders: the umpire keeps them in `juntas.csv`, one for each of
//! the 16 face cards and aces.
//!
//! The commanders are those of the top-level Spanish forces of army level that name one; the
//! deck is shuffled every turn and dealt without replacement.

use crate::model::books::{FACES, SUITS};
use crate::model::{Campaign, Level, Nation};
use crate::rules::dice::Dice;
use crate::rules::turn::{PhaseOutcome, Section, TurnContext};

/// The commanders whom no Junta commands (5.1).
pub const UNCOMMANDED: [&str; 2] = ["Palafox", "Llamas"];

/// The first turn with Junta cards (5.1: "At the beginning of turn 3 (July)").
pub const FIRST_TURN: u32 = 3;

/// A card of the deck, 0–51: suit `i / 13` (hearts, diamonds, clubs, spades), rank `i % 13`
/// (2 … 10, knave, queen, king, ace).
pub fn card_name(i: u32) -> (String, &'static str, Option<&'static str>) {
    let suit = SUITS[(i / 13) as usize % 4];
    let r = i % 13;
    let face = (r >= 9).then(|| FACES[(r - 9) as usize]);
    let rank = match face {
        Some(f) => f.to_string(),
        None => (r + 2).to_string(),
    };
    (rank, suit, face)
}

/// The Spanish army commanders the Juntas command (5.1), with their forces.
pub fn commanded(c: &Campaign) -> Vec<(String, String)> {
    c.oob
        .forces()
        .filter(|f| f.nation == Nation::Sp && f.level == Level::Army)
        .filter_map(|f| f.commander().map(|n| (n.to_string(), f.id.to_string())))
        .filter(|(n, _)| {
            !UNCOMMANDED.iter().any(|u| crate::rules::siege::fold(u) == crate::rules::siege::fold(n))
        })
        .collect()
}

/// The Juntas' phase of the turn (5.1): the cards for the turn that begins.
pub fn phase(c: &Campaign, ctx: &TurnContext, dice: &mut dyn Dice) -> PhaseOutcome {
    let mut sec = Section::new("The Juntas (5.1)");
    if ctx.to.0 < FIRST_TURN {
        sec.umpire(format!("Turn {}: the Juntas are not yet organised (they are from turn 3).", ctx.to.0));
        return PhaseOutcome { phase: "juntas", section: sec, effects: Vec::new() };
    }
    let uncommanded: Vec<String> = c
        .oob
        .forces()
        .filter(|f| f.nation == Nation::Sp && f.level == Level::Army)
        .filter_map(|f| f.commander().map(str::to_string))
        .filter(|n| UNCOMMANDED.iter().any(|u| crate::rules::siege::fold(u) == crate::rules::siege::fold(n)))
        .collect();
    for n in &uncommanded {
        sec.umpire(format!("{n}: no card is drawn, no Junta commands him (5.1)."));
    }
    let mut deck: Vec<u32> = (0..52).collect();
    let list = commanded(c);
    if list.is_empty() {
        sec.umpire("No Spanish army commander under a Junta.");
    }
    for (name, force) in list {
        let i = deck.remove(dice.pick(deck.len(), &format!("5.1 Junta card for {name}")));
        let (rank, suit, face) = card_name(i);
        let line = match face {
            None => {
                format!("{name} ({force}): the {rank} of {suit} — no instructions from the Junta this turn.")
            }
            Some(f) => match c.books.juntas.iter().find(|j| j.suit == suit && j.rank == f) {
                Some(j) => format!("{name} ({force}): the {rank} of {suit} — the Junta orders: {}", j.order),
                None => format!(
                    "{name} ({force}): the {rank} of {suit} — an order, but juntas.csv has none for it: the umpire writes it"
                ),
            },
        };
        sec.both(crate::model::Side::Allies, line);
    }
    PhaseOutcome { phase: "juntas", section: sec, effects: Vec::new() }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;
    use crate::rules::effects::testing::{camp, ctx};

    const FORCES: &str = "SP-EXT,,army,Extremadura,Cuesta,Sp,,,,,18.29\nSP-EXT-1,SP-EXT,battalion,a,,Sp,line,600,,,\n\
        SP-ARA,,army,Aragon,Palafox,Sp,,,,,43.14\nSP-ARA-1,SP-ARA,battalion,b,,Sp,line,600,,,\n";
    fn juntas() -> String {
        let mut t = String::from("suit,rank,order\n");
        for suit in SUITS {
            for rank in FACES {
                let order = if (suit, rank) == ("spades", "ace") {
                    "Halt for a turn".to_string()
                } else {
                    format!("{rank} of {suit}")
                };
                t.push_str(&format!("{suit},{rank},{order}\n"));
            }
        }
        t
    }

    #[test]
    fn cuesta_draws_a_card_and_palafox_none() {
        let table = juntas();
        let c = camp(20, "", FORCES, &[("juntas.csv", &table)]);
        // Card 52 of the fresh deck: the ace of spades.
        let out = phase(&c, &ctx(20, &[]), &mut ScriptedDice::new([52]));
        assert_eq!(
            out.section.allies,
            ["Cuesta (SP-EXT): the ace of spades — the Junta orders: Halt for a turn"]
        );
        assert!(out.section.umpire.iter().any(|l| l.starts_with("Palafox: no card")));
        assert!(out.section.french.is_empty(), "the French hear nothing of it");
        let out = phase(&c, &ctx(20, &[]), &mut ScriptedDice::new([7]));
        assert_eq!(
            out.section.allies,
            ["Cuesta (SP-EXT): the 8 of hearts — no instructions from the Junta this turn."]
        );
        assert_eq!(card_name(9).2, Some("knave"));
        // Turns 1 and 2 (June): no Juntas yet.
        let out = phase(&c, &ctx(1, &[]), &mut ScriptedDice::new([52]));
        assert!(out.section.allies.is_empty());
    }
}
