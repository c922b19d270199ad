//! The standing orders (`standing-orders.csv`) as `status`, `supply` and each side's turn
//! report show them: per force, the hexes still to march, where to, and the order they came
//! from.

use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::model::{Campaign, Side};

/// The standing orders of a side (`None`: both), in force order.
fn of_side(c: &Campaign, side: Option<Side>) -> impl Iterator<Item = &crate::model::standing::StandingOrder> {
    c.standing
        .iter()
        .filter(move |s| side.is_none_or(|side| c.oob.get(&s.force).is_some_and(|f| f.side() == side)))
}

/// The section of the standing orders, or nothing when there are none.
pub fn section(c: &Campaign, side: Option<Side>) -> String {
    let lines = lines(c, side);
    if lines.is_empty() {
        return String::new();
    }
    let mut s = String::from("\nStanding orders (marched on by each move until arrived or cancelled):\n");
    for l in lines {
        let _ = writeln!(s, "- {l}");
    }
    s
}

/// Each standing order of a side (`None`: both) in words: the force, the hexes still to
/// march, where to, and the order it came from.
pub fn lines(c: &Campaign, side: Option<Side>) -> Vec<String> {
    of_side(c, side)
        .map(|o| {
            let to = o.destination().map(|h| h.to_string()).unwrap_or_default();
            format!("{}: {} hexes on to {to} ({}, turn {})", o.force, o.route.len(), o.order, o.turn)
        })
        .collect()
}

/// The standing orders as `--json` prints them: `force`, `route`, `to`, `order`, `turn`.
pub fn json(c: &Campaign, side: Option<Side>) -> Value {
    Value::Array(
        of_side(c, side)
            .map(|o| {
                json!({
                    "force": o.force,
                    "route": o.route,
                    "to": o.destination(),
                    "order": o.order,
                    "turn": o.turn,
                })
            })
            .collect(),
    )
}
