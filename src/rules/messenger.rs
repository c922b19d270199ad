//! Messengers (rule 6.3.1, and the umpire's clock of the turn): a message or an order sent
//! during the fortnight rides by road, the shortest way, to the force it is for; it takes
//! `[messenger] days` (one way) and, on a late roll, a day or two more; and where its road
//! crosses an enemy supply line, "on a 1 in 3 chance, the message will be intercepted".
//!
//! An order that arrives on day `d` of the 14 leaves the force `(14 − d + 1)/14` of its turn's
//! allowance ([`start_at`]): one sent on day 10 that arrives on day 11 marches 4/14 of a turn.
//! Pure: the road comes from [`crate::rules::battle::road_path`], the enemy's lines from
//! [`crate::rules::supply`]'s report, every die from the [`Dice`] handed in.

use std::collections::BTreeMap;

use serde::Serialize;

use super::dice::Dice;
use super::march::{Plan, TURN_UNITS};
use super::supply::SupplyReport;
use crate::model::config::MessengerRules;
use crate::model::{Campaign, HexId, Side, Supply};

pub use crate::model::orders::TURN_DAYS;

/// What became of a messenger.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Fate {
    /// It arrived.
    Delivered,
    /// The enemy caught it: it never arrives.
    Intercepted,
}

/// Where a messenger's road crosses an enemy supply line.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Crossing {
    /// The first hex of the road on the line.
    pub hex: HexId,
    /// The side whose line it is.
    pub side: Side,
    /// The force whose line it is (the lowest id, when several lines pass the hex).
    pub line_of: String,
}

/// One messenger's ride.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Trip {
    /// Its road: the sender's hex first, the recipient's last.
    pub route: Vec<HexId>,
    /// By road all the way; `false` when no road joins the two (a straight line across country).
    pub by_road: bool,
    /// The enemy supply line it crosses, if any.
    pub crosses: Option<Crossing>,
    /// The day of the turn it set out.
    pub day: u32,
    /// The day it arrives (after [`TURN_DAYS`]: not this turn).
    pub arrives: u32,
    /// Delivered or intercepted.
    pub fate: Fate,
}

/// The messenger's road from `from` to `to` (6.3.1: "by road, taking the shortest distance"):
/// the shortest road of [`crate::rules::battle::road_path`] among the roads `side` knows of
/// (the French only the secondary roads they have seen, 13 July 2014, as their marches), or,
/// where no road joins them, the straight hex line.
pub fn road(c: &Campaign, side: Side, from: HexId, to: HexId) -> (Vec<HexId>, bool) {
    if from == to {
        return (vec![from], true);
    }
    let map = super::roads::map_known_to(c, side);
    match super::battle::road_path_on(&map, from, to, u32::MAX) {
        Some(path) => (path, true),
        None => (super::battle::hex_line(c, from, to), false),
    }
}

/// The first hex after the sender's own where `route` meets a supply line of `enemy` (a line
/// that carries supply: the force's path to its source, as `rules::supply` computes it).
pub fn crossing(report: &SupplyReport, enemy: Side, route: &[HexId]) -> Option<Crossing> {
    let mut on_line: BTreeMap<HexId, &str> = BTreeMap::new();
    for f in report.forces.iter().filter(|f| f.side == enemy && f.state == Supply::In) {
        for &h in &f.path {
            on_line.entry(h).and_modify(|id| *id = (*id).min(f.force.as_str())).or_insert(&f.force);
        }
    }
    route
        .iter()
        .skip(1)
        .find_map(|h| on_line.get(h).map(|id| Crossing { hex: *h, side: enemy, line_of: (*id).to_string() }))
}

/// Sends a messenger along `route` on `day`: the late die, then, when it crosses an enemy
/// line, the interception die (a 1 catches it). `what` names it in the dice log.
pub fn ride(
    rules: &MessengerRules,
    route: (Vec<HexId>, bool),
    crosses: Option<Crossing>,
    day: u32,
    dice: &mut dyn Dice,
    what: &str,
) -> Trip {
    let late =
        dice.roll(rules.late_die, &format!("6.3.1 {what}: is the messenger late (d{})", rules.late_die));
    let late_days = (late + 1).saturating_sub(rules.late_from.max(1));
    let arrives = day + rules.days + late_days;
    let fate = match &crosses {
        Some(x) => {
            let purpose = format!(
                "6.3.1 {what}: crossing the {} supply line of {} at {}, caught on a 1 (d{})",
                x.side, x.line_of, x.hex, rules.intercept_die
            );
            if dice.roll(rules.intercept_die, &purpose) == 1 { Fate::Intercepted } else { Fate::Delivered }
        }
        None => Fate::Delivered,
    };
    Trip { route: route.0, by_road: route.1, crosses, day, arrives, fate }
}

/// Units of the turn gone when an order arrives on day `arrives`: `(d − 1)/14` of the turn
/// (all of it after the last day).
pub fn start_at(arrives: u32) -> u64 {
    TURN_UNITS * u64::from(arrives.clamp(1, TURN_DAYS + 1) - 1) / u64::from(TURN_DAYS)
}

/// A plan judged on what was left of the turn before its order arrived, marched from `start`
/// units of the turn: each step later by the same amount, and the steps beyond the turn's end
/// not taken (the force halts where its allowance runs out).
pub fn start_late(mut plan: Plan, start: u64) -> Plan {
    let shift = start.saturating_sub(plan.used_before);
    if shift == 0 {
        return plan;
    }
    plan.used_before += shift;
    let keep = plan.at.iter().take_while(|&&a| a + shift <= TURN_UNITS).count();
    plan.at.truncate(keep);
    for a in &mut plan.at {
        *a += shift;
    }
    plan.grounds.truncate(keep);
    plan.path.truncate(keep + 1);
    plan
}

/// Where a force (or any unit of it) stands: its top-level force's hex.
pub fn force_hex(c: &Campaign, id: &str) -> Option<HexId> {
    c.oob.force_of(id).and_then(|f| f.hex)
}

/// Where a headquarters stands: a force's hex, or a hex of the map.
pub fn headquarters(c: &Campaign, from: &str) -> Option<HexId> {
    force_hex(c, from).or_else(|| from.parse::<HexId>().ok().filter(|h| c.map.grid.contains(*h)))
}

/// An order sent by messenger (an order with a `day`), and what became of it.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Dispatch {
    /// The force ordered.
    pub force: String,
    /// Where the messenger set out: the `from` of the order (a force or a hex), or the
    /// force's own id.
    pub from: String,
    /// The order's file and line.
    pub file: String,
    /// See `file`.
    pub line: u64,
    /// What the order says, in words (what the enemy reads if it catches it).
    pub text: String,
    /// The messenger's ride.
    pub trip: Trip,
    /// A later arrival replaced this order (the force marches on the last to arrive).
    pub superseded: bool,
    /// Where the force's share of the turn ran out short of its route's end, if it did.
    pub halts_at: Option<HexId>,
}

impl Dispatch {
    /// The order arrives this turn, is not caught and is not replaced: the force marches on it.
    pub fn stands(&self) -> bool {
        self.trip.fate == Fate::Delivered && !self.superseded && self.trip.arrives <= TURN_DAYS
    }
}

/// The orders of the turn after their messengers: the orders without a `day` as they are;
/// for each force ordered by messenger, the one that arrives last this turn (ties: the later
/// line), with the units of the turn gone when it arrives ([`start_at`]). `dispatches` lists
/// every messenger. A `from` that names no force and no hex is refused, with its line.
#[derive(Debug)]
pub struct Clocked {
    /// The orders to march on.
    pub orders: Vec<crate::model::orders::Order>,
    /// Units of the turn gone before each force's order arrived, by force.
    pub start: BTreeMap<String, u64>,
    /// Every order sent by messenger.
    pub dispatches: Vec<Dispatch>,
    /// `(file, line, message)` of each `from` that is neither a force nor a hex.
    pub bad_from: Vec<(String, u64, String)>,
}

/// An order in words: "FR-RES to march to 28.28", "SP-EXT to retreat by 18.30 18.31".
pub fn order_text(o: &crate::model::orders::Order) -> String {
    use crate::model::orders::Route;
    let verb = if o.retreat { "retreat" } else { "march" };
    match &o.route {
        Route::To(h) => format!("{} to {verb} to {h}", o.force),
        Route::Path(p) => {
            let hexes: Vec<String> = p.iter().map(ToString::to_string).collect();
            format!("{} to {verb} by {}", o.force, hexes.join(" "))
        }
        Route::Cancel => format!("{} to cancel its standing order", o.force),
    }
}

impl Clocked {
    /// A force's plan marched from when its order arrived ([`start_late`]), noting where its
    /// share of the turn runs out short of the route's end; any other plan as it is.
    pub fn start_late(&mut self, plan: Plan) -> Plan {
        let Some(&s) = self.start.get(&plan.force) else { return plan };
        let hexes = plan.path.len();
        let plan = start_late(plan, s);
        if plan.path.len() < hexes
            && let Some(d) = self.dispatches.iter_mut().find(|d| d.force == plan.force && d.stands())
        {
            d.halts_at = plan.path.last().copied();
        }
        plan
    }
}

/// Sends the messengers of the orders with a `day` (see [`Clocked`]), in the orders' order.
pub fn clock_orders(
    c: &Campaign,
    report: &SupplyReport,
    orders: Vec<crate::model::orders::Order>,
    dice: &mut dyn Dice,
) -> Clocked {
    let mut out =
        Clocked { orders: Vec::new(), start: BTreeMap::new(), dispatches: Vec::new(), bad_from: Vec::new() };
    let mut sent = Vec::new();
    // A force also ordered without a day is ordered twice, whatever the dice: refused later.
    let at_start: std::collections::BTreeSet<String> =
        orders.iter().filter(|o| o.day.is_none()).map(|o| o.force.clone()).collect();
    for o in orders {
        let (Some(day), Some(to), false) = (o.day, force_hex(c, &o.force), at_start.contains(&o.force))
        else {
            out.orders.push(o);
            continue;
        };
        let from = o.from.clone().unwrap_or_else(|| o.force.clone());
        let Some(hq) = headquarters(c, &from) else {
            out.bad_from.push((
                o.file.clone(),
                o.line,
                format!("'{from}' is neither a force on the map nor a hex"),
            ));
            continue;
        };
        let side = c.oob.get(&o.force).map_or(Side::French, |f| f.side());
        let route = road(c, side, hq, to);
        let crosses = crossing(report, side.enemy(), &route.0);
        let trip = ride(&c.rules.messenger, route, crosses, day, dice, &format!("order to {}", o.force));
        let text = order_text(&o);
        let d = Dispatch {
            force: o.force.clone(),
            from,
            file: o.file.clone(),
            line: o.line,
            text,
            trip,
            superseded: false,
            halts_at: None,
        };
        out.dispatches.push(d);
        sent.push(o);
    }
    // The last to arrive this turn stands; the earlier ones are replaced.
    let mut last: BTreeMap<String, usize> = BTreeMap::new();
    for (i, d) in out.dispatches.iter().enumerate() {
        if d.trip.fate != Fate::Delivered || d.trip.arrives > TURN_DAYS {
            continue;
        }
        let later = last.get(&d.force).is_none_or(|&j| d.trip.arrives >= out.dispatches[j].trip.arrives);
        if later {
            last.insert(d.force.clone(), i);
        }
    }
    for (i, (d, o)) in out.dispatches.iter_mut().zip(sent).enumerate() {
        let delivered = d.trip.fate == Fate::Delivered && d.trip.arrives <= TURN_DAYS;
        d.superseded = delivered && last.get(&d.force) != Some(&i);
        if d.stands() {
            out.start.insert(d.force.clone(), start_at(d.trip.arrives));
            out.orders.push(o);
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::dice::ScriptedDice;

    fn x() -> Option<Crossing> {
        Some(Crossing { hex: HexId::new(3, 3), side: Side::French, line_of: "FR-I".into() })
    }

    #[test]
    fn a_french_messenger_rides_only_the_secondary_roads_the_french_know() {
        let mut files = crate::formats::campaign::CampaignFiles::default();
        for (rel, bytes) in crate::ops::demo::EXAMPLE_CAMPAIGN {
            if let Some(name) = crate::formats::campaign::names::ALL.iter().find(|n| **n == rel) {
                files.files.insert(name, bytes.to_vec());
            }
        }
        let c = crate::formats::campaign::parse_campaign(&files).unwrap();
        let known = crate::rules::roads::known_secondary(&c, Side::French).unwrap();
        let (a, b) = c
            .map
            .roads
            .iter()
            .find(|(k, class)| **class == crate::model::RoadClass::Secondary && !known.contains(*k))
            .map(|(k, _)| k.hexes())
            .expect("a secondary road the French have not seen");
        assert_eq!(road(&c, Side::Allies, a, b), (vec![a, b], true), "the Allies know every road");
        assert_ne!(road(&c, Side::French, a, b), (vec![a, b], true), "the French do not know {a}-{b}");
    }

    #[test]
    fn a_messenger_rides_a_day_and_is_late_on_a_5_or_6() {
        let r = MessengerRules::default();
        let route = || (vec![HexId::new(1, 1), HexId::new(1, 2)], true);
        for (roll, arrives) in [(1, 4), (4, 4), (5, 5), (6, 6)] {
            let t = ride(&r, route(), None, 3, &mut ScriptedDice::new([roll]), "m");
            assert_eq!((t.arrives, t.fate), (arrives, Fate::Delivered), "roll {roll}");
        }
    }

    #[test]
    fn a_messenger_crossing_an_enemy_line_is_caught_on_a_1_only() {
        let r = MessengerRules::default();
        let route = || (vec![HexId::new(1, 1)], true);
        let caught = ride(&r, route(), x(), 1, &mut ScriptedDice::new([1, 1]), "m");
        assert_eq!(caught.fate, Fate::Intercepted);
        let through = ride(&r, route(), x(), 1, &mut ScriptedDice::new([1, 2]), "m");
        assert_eq!(through.fate, Fate::Delivered);
        let mut d = ScriptedDice::new([1]);
        ride(&r, route(), None, 1, &mut d, "m");
        assert_eq!(d.log().len(), 1, "no interception die without a crossing");
    }

    #[test]
    fn an_order_arriving_on_day_11_leaves_4_fourteenths_of_the_turn() {
        assert_eq!(start_at(1), 0);
        assert_eq!(TURN_UNITS - start_at(11), TURN_UNITS * 4 / 14);
        assert_eq!(start_at(15), TURN_UNITS);
        assert_eq!(start_at(20), TURN_UNITS);
    }
}
