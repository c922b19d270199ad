//! Standing orders (6.1, 6.3): a destination beyond this turn's allowance is marched towards
//! as far as the turn allows, by the same cheapest route; the rest of the route is kept, and
//! each later turn's `move` marches on along it, every rule of a march judged again.

use std::collections::{BTreeMap, BTreeSet};

use super::{Ground, Marched, Order, Plan, Rates, Refusal, Route, TURN_UNITS, check_path, step_kind};
use crate::model::standing::StandingOrder;
use crate::model::{Campaign, HexId};

/// Turns of march within which a destination is looked for: an order to a place farther off
/// by every legal route is refused.
pub const STANDING_TURNS: u32 = 12;

/// The longest start of `hexes` that fits in what is left of the turn, judged as a march
/// (`check_path`), with the hexes beyond it as the plan's `rest`. A step the force may not
/// take at all (not one beyond the allowance) refuses the order as `check_path` does.
pub(super) fn fit(
    c: &Campaign,
    o: &Order,
    rates: Rates,
    from: HexId,
    hexes: &[HexId],
    used_before: u64,
) -> Result<Plan, Box<Refusal>> {
    let mut counts = [0u64; 4];
    let (mut rivers, mut secondary) = (0u32, false);
    let mut a = from;
    let mut k = 0;
    for (i, &h) in hexes.iter().enumerate() {
        let step = step_kind(c, a, h).ok().filter(|(g, _)| rates.rate(*g, 0).is_some());
        let Some((g, river)) = step else {
            // Not a step the force may take: `check_path` says why.
            return check_path(c, o, rates, from, &hexes[..=i], used_before);
        };
        counts[g as usize] += 1;
        rivers += u32::from(river.is_some());
        secondary |= g == Ground::SecondaryRoad;
        let penalty = rates.penalty(rivers, secondary);
        let cost: Option<u64> = [Ground::Road, Ground::SecondaryRoad, Ground::Low, Ground::High]
            .into_iter()
            .map(|g| match counts[g as usize] {
                0 => Some(0),
                n => rates.cost(g, penalty).map(|u| n * u),
            })
            .sum();
        if cost.is_none_or(|u| used_before + u > TURN_UNITS) {
            break;
        }
        k = i + 1;
        a = h;
    }
    let mut plan = check_path(c, o, rates, from, &hexes[..k], used_before)?;
    plan.rest = hexes[k..].to_vec();
    Ok(plan)
}

/// The hexes a plan leaves to march after a force marched `done` steps of it: its standing
/// order. Empty for an order that was to end this turn (a halt ends it) and for a route done.
pub fn remaining(p: &Plan, done: usize) -> Vec<HexId> {
    if p.rest.is_empty() && !p.standing {
        return Vec::new();
    }
    let mut v: Vec<HexId> = p.path.get(done + 1..).unwrap_or(&[]).to_vec();
    v.extend(p.rest.iter().copied());
    v
}

/// The standing orders this `move` continues, as orders (`standing` set; file
/// `standing-orders.csv`, its line): those of forces given no order in the files and that have
/// not marched this turn (`used`). With a note for each that cannot be continued at all.
pub fn continuing(
    c: &Campaign,
    orders: &[Order],
    used: &BTreeMap<String, u64>,
    file: &str,
) -> (Vec<Order>, Vec<String>) {
    let ordered: BTreeSet<&str> = orders.iter().map(|o| o.force.as_str()).collect();
    let mut out = Vec::new();
    let mut notes = Vec::new();
    for (i, s) in c.standing.iter().enumerate() {
        if ordered.contains(s.force.as_str()) || used.contains_key(&s.force) {
            continue;
        }
        if c.oob.get(&s.force).is_none_or(|f| f.parent.is_some() || f.hex.is_none()) {
            notes.push(format!("{}: standing order dropped: no longer a force on the map", s.force));
            continue;
        }
        out.push(Order {
            force: s.force.clone(),
            route: Route::Path(s.route.clone()),
            retreat: false,
            attach: None,
            standing: true,
            on_contact: s.on_contact,
            day: None,
            from: None,
            file: file.to_string(),
            line: i as u64 + 2,
        });
    }
    (out, notes)
}

/// The standing orders after a move: each force's order replaced by its new one (kept when
/// that reaches beyond this turn), cancelled by `cancel`, or marched on (kept until done),
/// sorted by force; with a note of what became of each.
pub fn after_move(
    old: &[StandingOrder],
    orders: &[Order],
    marched: &[Marched],
    turn: u32,
) -> (Vec<StandingOrder>, Vec<String>) {
    let mut by_force: BTreeMap<String, StandingOrder> =
        old.iter().map(|s| (s.force.clone(), s.clone())).collect();
    let mut notes = Vec::new();
    for o in orders.iter().filter(|o| !o.standing) {
        if let Some(prev) = by_force.remove(&o.force) {
            let what = if matches!(o.route, Route::Cancel) { "cancelled" } else { "replaced" };
            notes.push(format!(
                "{}: standing order ({}) {what} by {}:{}",
                o.force, prev.order, o.file, o.line
            ));
        } else if matches!(o.route, Route::Cancel) {
            notes.push(format!("{}: had no standing order to cancel ({}:{})", o.force, o.file, o.line));
        }
    }
    for m in marched {
        let prev = by_force.remove(&m.force);
        if m.standing.is_empty() {
            if m.continued {
                notes.push(format!("{}: standing order done: arrived at {}", m.force, m.end()));
            }
            continue;
        }
        let (order, given, on_contact) = match prev.filter(|_| m.continued) {
            Some(p) => (p.order, p.turn, p.on_contact),
            None => {
                let said =
                    orders.iter().find(|o| !o.standing && o.force == m.force).and_then(|o| o.on_contact);
                (format!("{}:{}", file_name(&m.file), m.line), turn, said)
            }
        };
        by_force.insert(
            m.force.clone(),
            StandingOrder {
                force: m.force.clone(),
                route: m.standing.clone(),
                order,
                turn: given,
                on_contact,
            },
        );
    }
    (by_force.into_values().collect(), notes)
}

/// The last part of an orders file's path, as kept in `standing-orders.csv`.
fn file_name(path: &str) -> &str {
    path.rsplit(['/', '\\']).next().unwrap_or(path)
}
