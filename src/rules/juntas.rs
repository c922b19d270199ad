//! The Provincial Juntas (rule 5.1): from turn 3 (July 1808), each turn a card is drawn from a
//! 52-card deck "for each Spanish general player/army commander". A 2 to 10 gives no
//! instruction; a knave, queen, king or ace is an order he must comply with — the suit grades
//! it from good (hearts) to bad (spades), the rank from moderate (knave) to extreme (ace).
//! The rules do not write the orders: the umpire keeps them in `juntas.csv`, one for each of
//! the 16 face cards and aces.
//!
//! Who draws is written in `commanders.csv`'s `player` column, never guessed from a name:
//! `yes` (a player), `exempt` (a player no Junta commands, as 5.1's Palafox and Llamas), `no`,
//! or blank — a player when he commands a top-level Spanish army. A card is drawn for each
//! Spanish player-commander who commands a formation, in `forces.csv` order, the deck shuffled
//! every turn and dealt without replacement.

use crate::model::books::{FACES, JuntaCard, JuntaEffect, SUITS};
use crate::model::{Campaign, Level, Nation, Player, Unit};
use crate::rules::dice::Dice;
use crate::rules::turn::{PhaseOutcome, Section, TurnContext};

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

/// Every Spanish player-commander (5.1) with the formation he commands (the first in
/// `forces.csv` order) and whether a Junta commands him.
pub fn players(c: &Campaign) -> Vec<(String, String, bool)> {
    let mut out: Vec<(String, String, bool)> = Vec::new();
    // A large order of battle names thousands of commanders: each looked up once.
    let players: std::collections::HashMap<&str, Player> =
        c.commanders.iter().rev().map(|k| (k.name.as_str(), k.player)).collect();
    let mut seen = std::collections::HashSet::new();
    for f in c.oob.units().iter().filter(|u| u.nation == Nation::Sp && u.level.is_formation()) {
        let Some(name) = f.commander() else { continue };
        if !seen.insert(name) {
            continue;
        }
        let player = players.get(name).copied().unwrap_or(Player::Default);
        let army = |u: &Unit| u.parent.is_none() && u.level == Level::Army;
        let plays = match player {
            Player::Yes | Player::Exempt => true,
            Player::No => false,
            Player::Default => army(f),
        };
        if plays {
            out.push((name.to_string(), f.id.to_string(), player != Player::Exempt));
        }
    }
    out
}

/// The Spanish player-commanders the Juntas command (5.1), with their formations.
pub fn commanded(c: &Campaign) -> Vec<(String, String)> {
    players(c).into_iter().filter(|(_, _, junta)| *junta).map(|(n, f, _)| (n, f)).collect()
}

/// The Juntas' phase of the turn (5.1): the cards for the turn that begins.
pub fn phase(c: &Campaign, ctx: &TurnContext, dice: &mut dyn Dice) -> PhaseOutcome {
    let mut sec = Section::new("The Juntas (5.1)");
    if ctx.to.0 < FIRST_TURN {
        sec.umpire(format!("Turn {}: the Juntas are not yet organised (they are from turn 3).", ctx.to.0));
        return PhaseOutcome { phase: "juntas", section: sec, effects: Vec::new() };
    }
    for (n, _, _) in players(c).iter().filter(|(_, _, junta)| !junta) {
        sec.umpire(format!("{n}: no card is drawn, no Junta commands him (5.1; exempt in commanders.csv)."));
    }
    let mut deck: Vec<u32> = (0..52).collect();
    let list = commanded(c);
    if list.is_empty() {
        sec.umpire("No Spanish player-commander under a Junta.");
    }
    let mut effects = Vec::new();
    for (name, force) in list {
        let i = deck.remove(dice.pick(deck.len(), &format!("5.1 Junta card for {name}")));
        let (rank, suit, face) = card_name(i);
        let line = match face {
            None => {
                format!("{name} ({force}): the {rank} of {suit} — no instructions from the Junta this turn.")
            }
            Some(f) => match c.books.juntas.iter().find(|j| j.suit == suit && j.rank == f) {
                Some(j) => {
                    let top = c.oob.force_of(&force).map_or(force.clone(), |u| u.id.to_string());
                    let card = JuntaCard {
                        turn: ctx.to.0,
                        commander: name.clone(),
                        force: top,
                        card: format!("the {rank} of {suit}"),
                        effect: j.effect,
                        until: ctx.to.0 + j.turns,
                        order: j.order.clone(),
                    };
                    let binds = match j.effect {
                        JuntaEffect::None => String::new(),
                        e => format!(
                            " ({}: `move` holds {} to it until turn {})",
                            e.word(),
                            card.force,
                            card.until
                        ),
                    };
                    effects.push(crate::rules::effects::Effect::JuntaCard(card));
                    format!("{name} ({force}): the {rank} of {suit} — the Junta orders: {}{binds}", j.order)
                }
                None => format!(
                    "{name} ({force}): the {rank} of {suit} — an order, but juntas.csv has none for it: the umpire writes it"
                ),
            },
        };
        sec.both(crate::model::Side::Allies, line);
    }
    PhaseOutcome { phase: "juntas", section: sec, effects }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;
    use crate::rules::effects::testing::{camp, ctx};

    const FORCES: &str = "SP-EXT,,army,Extremadura,Cuesta,Sp,,,,,18.29\nSP-EXT-1,SP-EXT,battalion,a,,Sp,line,600,,,\n\
        SP-ARA,,army,Aragon,José de Palafox,Sp,,,,,43.14\nSP-ARA-1,SP-ARA,battalion,b,,Sp,line,600,,,\n\
        SP-MAN,,division,La Mancha,Girón,Sp,,,,,28.24\nSP-MAN-1,SP-MAN,battalion,c,,Sp,line,600,,,\n";
    const COMMANDERS: &str =
        "name,side,player\nCuesta,Allies,\nJosé de Palafox,Allies,exempt\nGirón,Allies,yes\nRey,French,\n";
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
        let c = camp(20, "", FORCES, &[("juntas.csv", &table), ("commanders.csv", COMMANDERS)]);
        // Card 52 of the fresh deck: the ace of spades; Girón, a player commanding a division,
        // draws the 8 of hearts from the 51 left. José de Palafox is exempt by his row of
        // commanders.csv, not by a name.
        let out = phase(&c, &ctx(20, &[]), &mut ScriptedDice::new([52, 7]));
        assert_eq!(
            out.section.allies,
            [
                "Cuesta (SP-EXT): the ace of spades — the Junta orders: Halt for a turn",
                "Girón (SP-MAN): the 8 of hearts — no instructions from the Junta this turn."
            ]
        );
        assert!(out.section.umpire.iter().any(|l| l.starts_with("José de Palafox: no card")));
        assert!(out.section.french.is_empty(), "the French hear nothing of it");
        let out = phase(&c, &ctx(20, &[]), &mut ScriptedDice::new([7, 1]));
        assert_eq!(
            out.section.allies[0],
            "Cuesta (SP-EXT): the 8 of hearts — no instructions from the Junta this turn."
        );
        assert_eq!(card_name(9).2, Some("knave"));
        // Turns 1 and 2 (June): no Juntas yet.
        let out = phase(&c, &ctx(1, &[]), &mut ScriptedDice::new([52]));
        assert!(out.section.allies.is_empty());
    }
}
