//! The Juntas' orders on the march (5.1): an order "with which he must comply", as
//! `junta-orders.csv` keeps it. While a halt or a dismissal stands the force may not advance:
//! it holds, or marches away from the enemy — a retreat before battle (8.2: a force that
//! declines battle must withdraw), or a withdrawal whose every step takes it no nearer the
//! nearest enemy force its side knows of and that ends farther from it. While a recall stands
//! it marches only nearer its provincial capital (of its depot's province, 2.2) by hex
//! distance, a retreat before battle included.

use super::{Order, Refusal, refusal};
use crate::model::books::{JuntaCard, JuntaEffect};
use crate::model::{Campaign, HexId, Settlement, Turn};

/// The Junta's order binding `o`'s force this turn, if any, judged on the march's hexes
/// (`path`: its hex, then every hex of the route).
pub(super) fn junta_allows(c: &Campaign, o: &Order, path: &[HexId], turn: Turn) -> Result<(), Box<Refusal>> {
    let Some(card) = c.books.junta_cards.iter().rev().find(|j| j.force == o.force && j.binds(turn.0)) else {
        return Ok(());
    };
    let said = format!(
        "the Junta's order to {} ({}, drawn for turn {}): \"{}\" stands until turn {}",
        card.commander, card.card, card.turn, card.order, card.until
    );
    let (Some(&from), Some(&to)) = (path.first(), path.last()) else { return Ok(()) };
    if card.effect != JuntaEffect::Recall {
        return match o.retreat || withdraws(c, card, path) {
            true => Ok(()),
            false => Err(refusal(
                o,
                "force",
                None,
                "5.1",
                format!(
                    "{said}: it may not march but to retreat before battle (8.2) or withdraw away from the enemy"
                ),
            )),
        };
    }
    match capital(c, &o.force) {
        Some(cap) if c.map.grid.distance(to, cap.hex) < c.map.grid.distance(from, cap.hex) => Ok(()),
        Some(cap) => Err(refusal(
            o,
            "to",
            None,
            "5.1",
            format!("{said}: recalled to {} ({}), it marches only nearer it", cap.name, cap.hex),
        )),
        None => Err(refusal(
            o,
            "force",
            None,
            "5.1",
            format!(
                "{said}: recalled, and its provincial capital is unknown (no depot in settlements.csv): it may not march"
            ),
        )),
    }
}

/// True when the march withdraws away from the enemy: its side knows of an enemy force (8.1's
/// contacts, 9.0's reports), no step brings it nearer the nearest of them, and it ends farther
/// from them than it began.
fn withdraws(c: &Campaign, card: &JuntaCard, path: &[HexId]) -> bool {
    let Some(side) = c.oob.get(&card.force).map(|f| f.side()) else { return false };
    let all = crate::rules::zoc::contacts(c);
    let enemies: Vec<HexId> = crate::rules::intel::known::side_view(c, &all, side, false)
        .forces
        .into_iter()
        .filter(|k| k.side() != side)
        .map(|k| k.hex)
        .collect();
    let nearest = |h: HexId| enemies.iter().map(|e| c.map.grid.distance(h, *e)).min();
    let (Some(first), Some(last)) =
        (path.first().and_then(|h| nearest(*h)), path.last().and_then(|h| nearest(*h)))
    else {
        return false;
    };
    last > first && path.windows(2).all(|w| nearest(w[1]) >= nearest(w[0]))
}

/// The provincial capital (2.2) of the force's depot's province.
fn capital<'c>(c: &'c Campaign, force: &str) -> Option<&'c Settlement> {
    let fold = crate::rules::siege::fold;
    let d = c.oob.get(force)?.depot()?;
    let depot = c.map.settlements.iter().find(|s| s.name == d)?;
    let (_, n) =
        crate::rules::siege::PROVINCIAL_CAPITALS.iter().find(|(p, _)| fold(p) == fold(&depot.province))?;
    c.map.settlements.iter().find(|s| fold(&s.name) == fold(n))
}
