//! The players' marches (rules 6.2, 6.3, 6.5.1, 2.5.3, 8.1–8.3): each order judged against the
//! map and the force's allowance, then every ordered force marched at once, hex by hex, halting
//! where it enters an enemy zone of control.
//!
//! A force's turn of marching is [`TURN_UNITS`] units. A step costs `TURN_UNITS / rate`, where
//! the rate is the force's allowance for that kind of ground (6.3: by road, off road on low
//! ground, off road on high ground), after the nation modifier and the penalties of the whole
//! path (6.5.1 rivers, the secondary-road rule), halved in winter (6.2 as amended): a march of
//! 4 road and 2 off-road hexes by infantry uses 4/12 + 2/8 of the turn. [`TURN_UNITS`] is a
//! multiple of every rate, so the arithmetic is exact. See `step.rs` for the simultaneous march.

use std::collections::{BTreeMap, BTreeSet};

use super::movement::road_allowance;
use crate::model::{ArmClass, Campaign, HexId, RoadClass, Side, Side2, Terrain, Turn};

pub mod detach;
mod hold;
mod junta;
mod route;
mod standing;
mod step;
mod warn;

pub use hold::supply_refusals;

pub use route::{Steps, find_route};
pub use standing::{STANDING_TURNS, after_move, continuing, remaining};
pub use step::{Halt, Marched, march};
pub use warn::warnings;

/// Units of one turn's allowance: a multiple of every rate a force can have (1 to 16), so
/// that every step costs a whole number of units.
pub const TURN_UNITS: u64 = 720_720;

pub use crate::model::orders::{Order, Route};

/// Why an order is refused: the force, the step and the rule.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Refusal {
    /// The orders file.
    pub file: String,
    /// Its line.
    pub line: u64,
    /// The field at fault (`force`, `to` or `path`).
    pub field: &'static str,
    /// The force.
    pub force: String,
    /// The step at fault (1 = the first hex after the force's own), if one is.
    pub step: Option<usize>,
    /// The rule ("" for an order that names no force to march, or one twice).
    pub rule: &'static str,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for Refusal {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}", self.force)?;
        if let Some(s) = self.step {
            write!(f, ", step {s}")?;
        }
        write!(f, ": {}", self.message)?;
        if !self.rule.is_empty() {
            write!(f, " (rule {})", self.rule)?;
        }
        Ok(())
    }
}

/// How a step is taken.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ground {
    /// Along a major road.
    Road,
    /// Along a secondary road (road speed, the secondary-road penalty once per move).
    SecondaryRoad,
    /// Off road into a low-lying hex.
    Low,
    /// Off road into a hex of higher ground.
    High,
}

impl Ground {
    fn word(self) -> &'static str {
        match self {
            Ground::Road => "road",
            Ground::SecondaryRoad => "secondary road",
            Ground::Low => "off road on low ground",
            Ground::High => "off road on high ground",
        }
    }
}

/// A force's rates for one turn (6.3), before the penalties of its path.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
pub struct Rates {
    /// Hexes by road, with the nation modifier.
    pub road: i32,
    /// Hexes off road on low ground.
    pub low: i32,
    /// Hexes off road on high ground; `None` for a force with artillery (6.3, 1.2).
    pub high: Option<i32>,
    /// Winter (6.2): every rate halved after the modifiers, no artillery off road.
    pub winter: bool,
    /// The force has artillery.
    pub artillery: bool,
    /// Hexes lost per major river crossed (6.5.1).
    pub river_penalty: u32,
    /// Hexes lost by a move that uses a secondary road.
    pub secondary_penalty: u32,
}

impl Rates {
    /// The rates of a force this turn (6.3): by what it contains, Spanish −1, French +1. A
    /// force with artillery cannot go onto high ground; one with any cavalry goes 4 hexes on
    /// high ground, as the rules' "forces containing any cavalry" says, and infantry 6.
    pub fn of(c: &Campaign, force_id: &str, turn: Turn) -> Rates {
        let a = road_allowance(c, force_id, turn);
        let classes: Vec<ArmClass> =
            c.oob.units_under(force_id).iter().filter_map(|u| u.arm_class()).collect();
        let artillery = classes.contains(&ArmClass::Artillery);
        let cavalry = classes.contains(&ArmClass::Cavalry);
        let infantry = classes.contains(&ArmClass::Infantry) || classes.is_empty();
        let n = a.nation_modifier;
        let (low, high) = if artillery {
            (6, None)
        } else if infantry {
            (8, Some(if cavalry { 4 } else { 6 }))
        } else {
            (10, Some(4))
        };
        Rates {
            road: a.base as i32 + n,
            low: low + n,
            high: high.map(|h| h + n),
            winter: a.winter,
            artillery,
            river_penalty: a.river_penalty,
            secondary_penalty: a.secondary_penalty,
        }
    }

    /// The penalty of a path: its river crossings and whether it uses a secondary road.
    pub fn penalty(&self, rivers: u32, secondary: bool) -> u32 {
        rivers * self.river_penalty + if secondary { self.secondary_penalty } else { 0 }
    }

    /// Hexes a turn on this ground after `penalty` hexes, halved last in winter (6.2 as
    /// amended 25 January 2015); `None` when the force may not go so at all.
    pub fn rate(&self, g: Ground, penalty: u32) -> Option<u32> {
        let base = match g {
            Ground::Road | Ground::SecondaryRoad => self.road,
            Ground::Low if self.winter && self.artillery => return None,
            Ground::Low => self.low,
            Ground::High => self.high?,
        };
        let r = base - penalty as i32;
        let r = if self.winter { r.div_euclid(2) } else { r };
        u32::try_from(r).ok().filter(|&r| r > 0)
    }

    /// Units a step on this ground costs after `penalty`, `None` when impossible.
    pub fn cost(&self, g: Ground, penalty: u32) -> Option<u64> {
        self.rate(g, penalty).map(|r| TURN_UNITS / u64::from(r))
    }
}

/// Why a step cannot be taken ([`step_kind`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NoStep<'m> {
    /// The hex stepped into is off the map.
    OffMap,
    /// The two hexes are not next to each other.
    NotNext,
    /// The hex stepped into is sea (1.2).
    Sea,
    /// A major river crossed off a road (6.5.1), by its name.
    River(&'m str),
}

/// How a step from `a` to `b` is taken, and the major river it crosses, or why it cannot be:
/// what [`step_ground`] says, without its words (a route search tries hundreds of thousands
/// of steps).
pub fn step_kind(c: &Campaign, a: HexId, b: HexId) -> Result<(Ground, Option<&str>), NoStep<'_>> {
    if !c.map.grid.contains(b) {
        return Err(NoStep::OffMap);
    }
    if !c.map.grid.adjacent(a, b) {
        return Err(NoStep::NotNext);
    }
    let terrain = c.map.terrain(b);
    if terrain == Terrain::Sea {
        return Err(NoStep::Sea);
    }
    let river = c.map.river(a, b);
    match c.map.road(a, b) {
        Some(RoadClass::Major) => return Ok((Ground::Road, river)),
        Some(RoadClass::Secondary) => return Ok((Ground::SecondaryRoad, river)),
        None => {}
    }
    if let Some(r) = river
        && !toledo_ford(a, b)
    {
        return Err(NoStep::River(r));
    }
    let g = if terrain == Terrain::High { Ground::High } else { Ground::Low };
    Ok((g, river))
}

/// How a step from `a` to `b` is taken, and the major river it crosses, or why it cannot be
/// (the rule and the words).
pub fn step_ground(
    c: &Campaign,
    a: HexId,
    b: HexId,
) -> Result<(Ground, Option<&str>), (&'static str, String)> {
    step_kind(c, a, b).map_err(|why| match why {
        NoStep::OffMap => ("", format!("{b} is off the map")),
        NoStep::NotNext => ("", format!("{b} is not next to {a}")),
        NoStep::Sea => (
            "1.2",
            format!("{b} is sea: a land force marches on land only (map/hexes.csv gives {b} the terrain sea)"),
        ),
        NoStep::River(r) => (
            "6.5.1",
            format!("off a road across the {r} between {a} and {b}: major rivers are crossed only where a road does"),
        ),
    })
}

/// The open-country crossings west of Toledo that join 27.24 to 28.23 directly, off road
/// (rule 2.5.3).
pub fn toledo_ford(a: HexId, b: HexId) -> bool {
    let (x, y) = (HexId::new(27, 24), HexId::new(28, 23));
    (a, b) == (x, y) || (a, b) == (y, x)
}

/// A march judged legal: its hexes, what each step costs and how much of the turn is left.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Plan {
    /// The force.
    pub force: String,
    /// Its hex, then every hex of the route.
    pub path: Vec<HexId>,
    /// How each step is taken.
    pub grounds: Vec<Ground>,
    /// Units of the turn used when each step is done (cumulative, from the units used by
    /// earlier marches this turn).
    pub at: Vec<u64>,
    /// Units used by earlier marches this turn.
    pub used_before: u64,
    /// Major rivers crossed, in order.
    pub rivers: Vec<String>,
    /// The route uses a secondary road.
    pub secondary: bool,
    /// The force's rates.
    pub rates: Rates,
    /// A retreat before battle (8.2).
    pub retreat: bool,
    /// The order's file and line.
    pub file: String,
    /// See `file`.
    pub line: u64,
    /// The hexes of the route beyond this turn's allowance: the standing order's (empty when
    /// the route ends this turn).
    pub rest: Vec<HexId>,
    /// The plan continues a standing order.
    pub standing: bool,
}

impl Plan {
    /// The road hexes the whole turn's allowance is worth on this route (after its penalties).
    pub fn road_rate(&self) -> u32 {
        let p = self.rates.penalty(self.rivers.len() as u32, self.secondary);
        self.rates.rate(Ground::Road, p).unwrap_or(0)
    }
}

fn refusal(
    o: &Order,
    field: &'static str,
    step: Option<usize>,
    rule: &'static str,
    message: String,
) -> Box<Refusal> {
    Box::new(Refusal {
        file: o.file.clone(),
        line: o.line,
        field,
        force: o.force.clone(),
        step,
        rule,
        message,
    })
}

/// Judges a route against the map and the force's allowance: every step legal (on the map,
/// next to the last, no major river off road, no artillery onto high ground or, in winter,
/// off road at all), and the whole within what is left of the turn.
pub fn check_path(
    c: &Campaign,
    o: &Order,
    rates: Rates,
    from: HexId,
    hexes: &[HexId],
    used_before: u64,
) -> Result<Plan, Box<Refusal>> {
    let field = if matches!(o.route, Route::To(_)) { "to" } else { "path" };
    let mut path = vec![from];
    let mut grounds = Vec::new();
    let mut rivers = Vec::new();
    for (i, &h) in hexes.iter().enumerate() {
        let a = path[path.len() - 1];
        if h == a {
            let why = format!("{h} is where the force already is: a path runs from the first hex after it");
            return Err(refusal(o, field, Some(i + 1), "", why));
        }
        let (g, river) = step_ground(c, a, h).map_err(|(rule, m)| refusal(o, field, Some(i + 1), rule, m))?;
        if rates.rate(g, 0).is_none() {
            let (rule, why) = match g {
                Ground::High => ("6.3", "a force with artillery may not move across higher ground"),
                _ => ("6.2", "in winter no artillery moves off road"),
            };
            return Err(refusal(o, field, Some(i + 1), rule, format!("{a}→{h} is {}: {why}", g.word())));
        }
        rivers.extend(river.map(str::to_string));
        grounds.push(g);
        path.push(h);
    }
    let secondary = grounds.contains(&Ground::SecondaryRoad);
    let penalty = rates.penalty(rivers.len() as u32, secondary);
    let mut at = Vec::with_capacity(grounds.len());
    let mut used = used_before;
    for (i, &g) in grounds.iter().enumerate() {
        let Some(cost) = rates.cost(g, penalty) else {
            return Err(refusal(
                o,
                field,
                Some(i + 1),
                "6.3",
                format!(
                    "{}→{} is {}: nothing is left of the allowance after {penalty} hexes of river and secondary-road penalties (6.5.1)",
                    path[i],
                    path[i + 1],
                    g.word()
                ),
            ));
        };
        used += cost;
        if used > TURN_UNITS {
            return Err(refusal(
                o,
                field,
                Some(i + 1),
                "6.3",
                beyond(&rates, &grounds, penalty, &rivers, used_before),
            ));
        }
        at.push(used);
    }
    Ok(Plan {
        force: o.force.clone(),
        path,
        grounds,
        at,
        used_before,
        rivers,
        secondary,
        rates,
        retreat: o.retreat,
        file: o.file.clone(),
        line: o.line,
        rest: Vec::new(),
        standing: o.standing,
    })
}

/// The message of a march beyond the allowance: what it asks, against what the force has.
fn beyond(rates: &Rates, grounds: &[Ground], penalty: u32, rivers: &[String], used_before: u64) -> String {
    let mut counts: BTreeMap<Ground, u32> = BTreeMap::new();
    let mut need = used_before;
    for &g in grounds {
        *counts.entry(g).or_default() += 1;
        need += rates.cost(g, penalty).unwrap_or(TURN_UNITS);
    }
    let asked: Vec<String> = counts
        .iter()
        .map(|(g, n)| format!("{n} {} (of {} a turn)", g.word(), rates.rate(*g, penalty).unwrap_or(0)))
        .collect();
    let mut s = format!(
        "beyond the allowance: the march asks {}, {}% of a turn",
        asked.join(", "),
        need * 100 / TURN_UNITS
    );
    if used_before > 0 {
        s.push_str(&format!(", and {}% was marched earlier this turn", used_before * 100 / TURN_UNITS));
    }
    if penalty > 0 {
        s.push_str(&format!(
            "; every rate is {penalty} hexes less for {} river crossings (6.5.1) and secondary roads",
            rivers.len()
        ));
    }
    if rates.winter {
        s.push_str("; halved in winter (6.2)");
    }
    s
}

/// Plans one order: its route (found for a destination, as written for a path) judged
/// legal and within what is left of the turn.
///
/// `known` holds the secondary roads the force's side knows (`None`: all), for a route found
/// for a destination (13 July 2014).
pub fn plan_order(
    c: &Campaign,
    legal: &Steps,
    o: &Order,
    turn: Turn,
    used_before: u64,
    known: Option<&BTreeSet<Side2>>,
) -> Result<Plan, Box<Refusal>> {
    let plan = plan_route(c, legal, o, turn, used_before, known)?;
    // Holding where it stands is never a march the Juntas forbid.
    if plan.path.len() > 1 {
        junta::junta_allows(c, o, &plan.path, turn)?;
    }
    Ok(plan)
}

/// Plans one order's route, judged legal and within what is left of the turn, before a
/// Junta's order (5.1) is asked.
fn plan_route(
    c: &Campaign,
    legal: &Steps,
    o: &Order,
    turn: Turn,
    used_before: u64,
    known: Option<&BTreeSet<Side2>>,
) -> Result<Plan, Box<Refusal>> {
    let Some(force) = c.oob.get(&o.force) else {
        return Err(refusal(o, "force", None, "", format!("unknown force '{}'", o.force)));
    };
    let Some(from) = force.hex.filter(|_| force.parent.is_none()) else {
        return Err(refusal(
            o,
            "force",
            None,
            "",
            format!("'{}' is not a force on the map (only top-level forces with a hex march)", o.force),
        ));
    };
    if o.retreat && !c.oob.forces().any(|e| crate::rules::zoc::in_contact(c, force, e).is_some()) {
        return Err(refusal(
            o,
            "retreat",
            None,
            "8.2",
            format!(
                "'{}' is in contact with no enemy force: a retreat before battle leaves an enemy's zone",
                o.force
            ),
        ));
    }
    let rates = Rates::of(c, &o.force, turn);
    match &o.route {
        Route::Cancel => check_path(c, o, rates, from, &[], used_before),
        Route::Path(hexes) if o.standing => standing::fit(c, o, rates, from, hexes, used_before),
        Route::Path(hexes) => check_path(c, o, rates, from, hexes, used_before),
        // Its own hex: the force holds (and any standing order of it ends).
        Route::To(to) if *to == from => check_path(c, o, rates, from, &[], used_before),
        Route::To(to) => {
            if !c.map.grid.contains(*to) {
                return Err(refusal(o, "to", None, "", format!("{to} is off the map")));
            }
            if c.map.is_sea(*to) {
                return Err(refusal(
                    o,
                    "to",
                    None,
                    "1.2",
                    format!(
                        "{to} is sea: a land force marches on land only (map/hexes.csv gives {to} the terrain sea)"
                    ),
                ));
            }
            if let Some(route) =
                find_route(legal, rates, from, *to, TURN_UNITS - used_before.min(TURN_UNITS), known)
            {
                return check_path(c, o, rates, from, &route, used_before);
            }
            // Beyond this turn: the cheapest legal route at any cost, marched as far as the
            // turn allows, the rest kept as a standing order.
            match find_route(legal, rates, from, *to, u64::from(STANDING_TURNS) * TURN_UNITS, known) {
                Some(route) => standing::fit(c, o, rates, from, &route, used_before),
                None => Err(refusal(
                    o,
                    "to",
                    None,
                    "6.5.1",
                    format!(
                        "no legal route from {from} to {to} within {STANDING_TURNS} turns' march (major rivers are crossed by road only{})",
                        if rates.artillery { "; artillery keeps off high ground" } else { "" }
                    ),
                )),
            }
        }
    }
}

/// Plans every order, judging the whole set before anything moves: each order on its own,
/// and no force ordered twice. `used` is what each force has marched earlier this turn;
/// `legal` the map's steps (`Steps::of` the campaign, worked out once for every plan).
pub fn plan_orders(
    c: &Campaign,
    legal: &Steps,
    orders: &[Order],
    turn: Turn,
    used: &BTreeMap<String, u64>,
) -> Result<Vec<Plan>, Vec<Refusal>> {
    // A force ordered a second time is refused; every other order is judged on its own.
    let mut first: BTreeMap<&str, &Order> = BTreeMap::new();
    let twice: Vec<Option<&Order>> = orders
        .iter()
        .map(|o| match first.entry(o.force.as_str()) {
            std::collections::btree_map::Entry::Occupied(e) => Some(*e.get()),
            std::collections::btree_map::Entry::Vacant(e) => {
                e.insert(o);
                None
            }
        })
        .collect();
    let judged: Vec<&Order> =
        orders.iter().zip(&twice).filter(|(_, t)| t.is_none()).map(|(o, _)| o).collect();
    let mut planned = plan_each(c, legal, &judged, turn, used).into_iter();
    let (mut plans, mut refusals) = (Vec::new(), Vec::new());
    for (o, twice) in orders.iter().zip(twice) {
        match twice {
            Some(prev) => refusals.push(*refusal(
                o,
                "force",
                None,
                "",
                format!("ordered twice: also at {}:{} (one order a force a move)", prev.file, prev.line),
            )),
            // One outcome for each order judged, in the same order.
            None => match planned.next() {
                Some(Ok(p)) => plans.push(p),
                Some(Err(r)) => refusals.push(*r),
                None => {}
            },
        }
    }
    if refusals.is_empty() { Ok(plans) } else { Err(refusals) }
}

/// Plans each order on its own, nothing judged across them (a force's standing order beside
/// the turn's orders is weighed by the caller): the plan or the refusal of each, in the
/// orders' order. The orders are planned on two threads, half each.
pub fn plan_each(
    c: &Campaign,
    legal: &Steps,
    orders: &[&Order],
    turn: Turn,
    used: &BTreeMap<String, u64>,
) -> Vec<Result<Plan, Box<Refusal>>> {
    // The secondary roads the French know, for the routes found for them (13 July 2014).
    let french_to = orders.iter().any(|o| {
        matches!(o.route, Route::To(_)) && c.oob.get(&o.force).is_some_and(|f| f.side() == Side::French)
    });
    let french = if french_to { crate::rules::roads::known_secondary(c, Side::French) } else { None };
    in_two_halves(orders, |o| {
        let known = match c.oob.get(&o.force).map(|f| f.side()) {
            Some(Side::French) => french.as_ref(),
            _ => None,
        };
        plan_order(c, legal, o, turn, used.get(&o.force).copied().unwrap_or(0), known)
    })
}

/// `f` of each item, in the items' order, worked out on two threads (half the items each)
/// when there are two or more.
fn in_two_halves<T: Sync, R: Send>(items: &[T], f: impl Fn(&T) -> R + Sync) -> Vec<R> {
    if items.len() < 2 {
        return items.iter().map(f).collect();
    }
    let (first, second) = items.split_at(items.len() / 2);
    std::thread::scope(|s| {
        let first = s.spawn(|| first.iter().map(&f).collect::<Vec<R>>());
        let second: Vec<R> = second.iter().map(&f).collect();
        let mut all = first.join().unwrap_or_else(|panic| std::panic::resume_unwind(panic));
        all.extend(second);
        all
    })
}

#[cfg(test)]
mod tests;
