//! Supply lines (rules 3.1–3.5): from each force back along roads, through friendly
//! settlements, to a supply source of its side; the line's capacity (3.4), the turns a force
//! has spent with its line cut (3.3), the depots (3.2.1), and the French line of
//! communications back to Bayonne or Perpignan (3.5).
//!
//! One breadth-first search per side, from every source at once, serves every force of that
//! side (and one more, from Bayonne and Perpignan, every French force's communications); a
//! force whose line is cut is explained from one more search per side that ignores what cuts
//! lines. The result ([`SupplyReport`]) is a plain value: the force's state, source, path as a
//! list of hexes, and the break and its reason, for `supply`, `turn advance` and the map.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use compact_str::CompactString;
use serde::Serialize;

mod depot;
mod phase;
mod share;
mod side;
pub mod trail;

pub use depot::{Depot, DepotProblem, DepotState, depot_problems, depots};
pub use phase::{ControlChange, SupplyChange, SupplyPhase, apply_phase, now, now_beside, phase};
pub use share::HALT;

use super::control::{Garrisons, Production, SettlementControl, compute_at};
use crate::model::{Campaign, HexGrid, HexId, RoadClass, SettlementKind, Side, Supply};
use side::SideSearch;

/// A line of adequate settlements supports this many men and guns (3.4).
pub const ADEQUATE_CAPACITY: (u32, u32) = (25_000, 75);
/// A line of which at least two thirds of the settlements are good supports this many (3.4).
pub const GOOD_CAPACITY: (u32, u32) = (50_000, 150);
/// Turns a force may stay at the head of a cut line before it must retreat to the break (3.3).
pub const TURNS_AT_A_CUT_LINE: u32 = 4;
/// Turns a French corps takes to establish a new depot (3.2.1: "6 weeks (3 turns)").
pub const FRENCH_DEPOT_TURNS: u32 = 3;
/// Turns an Allied army takes to re-establish its recaptured depot (3.2.1: "2 months (4 turns)").
pub const ALLIED_DEPOT_TURNS: u32 = 4;
/// The ends of the French line of communications (3.5).
pub const FRANCE: [&str; 2] = ["Bayonne", "Perpignan"];

pub use crate::model::supply::SupplyRecord;

/// Capacity of a force's line and what the force asks of it (3.4).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Capacity {
    /// `adequate` or `good`.
    pub line: Production,
    /// Settlements on the line (villages do not count, 2.1.3), and how many are good.
    pub settlements: u32,
    /// Of them, good.
    pub good: u32,
    /// Men of the force.
    pub men: u32,
    /// Guns of the force.
    pub guns: u32,
    /// Men the line supports.
    pub max_men: u32,
    /// Guns the line supports.
    pub max_guns: u32,
    /// Men the line carries: this force's and those of the forces sharing the line that draw
    /// on it first (3.4; see [`share`]).
    pub load_men: u32,
    /// Guns the line carries, likewise.
    pub load_guns: u32,
}

impl Capacity {
    /// True when the line carries more than it supports.
    pub fn exceeded(&self) -> bool {
        self.load_men > self.max_men || self.load_guns > self.max_guns
    }
}

/// One force's supply.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ForceSupply {
    /// Top-level force id.
    pub force: CompactString,
    /// Its side.
    pub side: Side,
    /// Its hex.
    pub hex: HexId,
    /// In or out of supply.
    pub state: Supply,
    /// The source its line runs to.
    pub source: Option<CompactString>,
    /// The line from the force to the source, hex by hex (the force's hex first).
    pub path: Vec<HexId>,
    /// Where a cut line is cut.
    pub break_hex: Option<HexId>,
    /// Why it is out of supply, or held back by capacity; in supply, for a Spanish force
    /// that names no depot, the province whose sources it draws on (2.2).
    pub reason: Option<String>,
    /// The line's capacity, when in supply.
    pub capacity: Option<Capacity>,
    /// Turns out of supply in a row, counting this one when out.
    pub turns_out: u32,
    /// What the rules now require of the force (3.3, 3.4, 3.5).
    pub orders: Vec<String>,
}

/// A French force's line of communications (3.5).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Communication {
    /// Top-level force id.
    pub force: CompactString,
    /// `open` or `cut`.
    pub state: &'static str,
    /// Bayonne or Perpignan, when open.
    pub to: Option<String>,
    /// The line, hex by hex, when open.
    pub path: Vec<HexId>,
    /// Where it is cut, and why.
    pub break_hex: Option<HexId>,
    /// Why it is cut.
    pub reason: Option<String>,
}

/// Everything of supply and control on one turn.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct SupplyReport {
    /// The turn it was computed for.
    pub turn: u32,
    /// Every top-level force with a hex, in `forces.csv` order.
    pub forces: Vec<ForceSupply>,
    /// Every settlement, in `settlements.csv` order.
    pub settlements: Vec<SettlementControl>,
    /// Every French force's line of communications.
    pub communications: Vec<Communication>,
    /// Every force's depot.
    pub depots: Vec<Depot>,
}

impl ForceSupply {
    /// The line as its own side knows it, for the pictures (`ForcesView::with_supply`).
    pub fn known(&self) -> crate::rules::intel::known::KnownSupply {
        crate::rules::intel::known::KnownSupply {
            in_supply: self.state == Supply::In,
            source: self.source.as_deref().map(String::from),
            path: self.path.clone(),
            break_hex: self.break_hex,
            // Why it is out; the note of a force in supply (2.2) stays in the umpire's report.
            reason: self.reason.clone().filter(|_| self.state == Supply::Out),
        }
    }
}

impl SupplyReport {
    /// One force's line as its side knows it, by force id: what `ForcesView::with_supply`
    /// asks for (`view.with_supply(|id| report.line(id))`).
    pub fn line(&self, force: &str) -> Option<crate::rules::intel::known::KnownSupply> {
        self.forces.iter().find(|f| f.force == force).map(ForceSupply::known)
    }

    /// The records `supply.csv` keeps for the next turn.
    pub fn records(&self) -> Vec<SupplyRecord> {
        let depots: BTreeMap<&str, &Depot> = self.depots.iter().map(|d| (d.force.as_str(), d)).collect();
        self.forces
            .iter()
            .map(|f| {
                let d = depots.get(f.force.as_str());
                SupplyRecord {
                    force: f.force.to_string(),
                    turns_out: f.turns_out,
                    depot: d.map(|d| d.depot.to_string()),
                    depot_state: d.map_or(DepotState::Established, |d| d.state),
                    depot_ready: d.and_then(|d| d.ready),
                }
            })
            .collect()
    }
}

/// The road net a side's lines run on, with what blocks them.
struct Net<'a> {
    grid: HexGrid,
    c: &'a Campaign,
    side: Side,
    garrisons: &'a Garrisons,
    /// Hexes a line of this side cannot pass, with the reason (2.3).
    blocked: BTreeMap<HexId, String>,
    /// Per hex of the grid ([`cell`]): its roads, what the searches walk, looked up once
    /// here rather than at every step of every search.
    roads: PerHex<(HexId, RoadClass)>,
    /// Per hex of the grid: its town-sized settlements, towns and larger, not villages
    /// (their places in `settlements.csv`): what a line's capacity counts (3.4), and where a
    /// secondary road needs its garrison.
    towns_at: PerHex<usize>,
    /// Per hex of the grid: whether it is in `blocked`.
    blocked_at: Vec<bool>,
    /// Per hex of the grid: whether a line may not use a secondary road there
    /// ([`Net::secondary_refused`]).
    secondary_closed: Vec<bool>,
}

/// Values by hex of the grid, each hex's in the order given: those of hex `i` are
/// `list[start[i]..start[i + 1]]`.
struct PerHex<T> {
    start: Vec<u32>,
    list: Vec<T>,
}

impl<T> PerHex<T> {
    /// From values with their hex's place ([`cell`]), in the order of the places.
    fn collect(grid: HexGrid, placed: impl IntoIterator<Item = (usize, T)>) -> PerHex<T> {
        let n = grid.cells();
        let mut start = Vec::with_capacity(n + 1);
        let mut list = Vec::new();
        for (i, v) in placed {
            debug_assert!(i + 1 >= start.len(), "values out of the order of their places");
            while start.len() <= i {
                start.push(list.len() as u32);
            }
            list.push(v);
        }
        while start.len() <= n {
            start.push(list.len() as u32);
        }
        PerHex { start, list }
    }

    /// The values of `h` (none off the grid).
    fn at(&self, grid: HexGrid, h: HexId) -> &[T] {
        self.at_cell(grid.cell(h))
    }

    fn at_cell(&self, i: Option<usize>) -> &[T] {
        match i {
            Some(i) => &self.list[self.start[i] as usize..self.start[i + 1] as usize],
            None => &[],
        }
    }
}

/// The roads out of every hex, each with the neighbour it leads to, in
/// `CampaignMap::road_neighbours` order.
fn roads(c: &Campaign) -> PerHex<(HexId, RoadClass)> {
    let grid = c.map.grid;
    let mut has_road = vec![false; grid.cells()];
    for side in c.map.roads.keys() {
        let (a, b) = side.hexes();
        for i in [a, b].into_iter().filter_map(|h| grid.cell(h)) {
            has_road[i] = true;
        }
    }
    let placed = has_road
        .iter()
        .enumerate()
        .filter(|&(_, &road)| road)
        .flat_map(|(i, _)| c.map.road_neighbours(grid.hex_of_cell(i)).into_iter().map(move |r| (i, r)));
    PerHex::collect(grid, placed)
}

/// Where a search reached: per hex and the class of road it was reached by, the distance,
/// the hex it came from and the source it started at.
struct Tree {
    rows: usize,
    best: Vec<Option<(u32, usize, usize)>>,
}

/// A hex's place in a search's table: two a hex, reached by any road or by secondary roads.
fn slot(grid: HexGrid, h: HexId, secondary: bool) -> usize {
    grid.cell_on_map(h) * 2 + usize::from(secondary)
}

fn hex_of(grid: HexGrid, slot: usize) -> (HexId, bool) {
    (grid.hex_of_cell(slot / 2), slot % 2 == 1)
}

impl<'a> Net<'a> {
    fn new(c: &'a Campaign, side: Side, control: &[SettlementControl], garrisons: &'a Garrisons) -> Self {
        let grid = c.map.grid;
        let mut blocked = BTreeMap::new();
        for (s, k) in c.map.settlements.iter().zip(control) {
            // 2.1.3 and its changelog ("no functionality is changed"): a village is a label
            // on the map; it needs no garrison and never cuts a line.
            if s.kind == SettlementKind::Village {
                continue;
            }
            if k.control.side() == Some(side) {
                continue;
            }
            // 2.5.3: investing Toledo's Alcázar lets a supply line pass through the city.
            if s.citadel && s.invested_by.is_some_and(|n| n.side() == side) {
                continue;
            }
            blocked
                .entry(s.hex)
                .or_insert_with(|| format!("{} ({}) is hostile: {} (2.3)", s.name, s.hex, k.control_word()));
        }
        let n = grid.cells();
        let mut blocked_at = vec![false; n];
        for i in blocked.keys().filter_map(|&h| grid.cell(h)) {
            blocked_at[i] = true;
        }
        let roads = roads(c);
        let mut placed: Vec<(usize, usize)> = c
            .map
            .settlements
            .iter()
            .enumerate()
            .filter(|(_, s)| s.kind != SettlementKind::Village)
            .filter_map(|(i, s)| Some((grid.cell(s.hex)?, i)))
            .collect();
        placed.sort_unstable();
        let mut net = Net {
            grid,
            c,
            side,
            garrisons,
            blocked,
            roads,
            towns_at: PerHex::collect(grid, placed),
            blocked_at,
            secondary_closed: Vec::new(),
        };
        net.secondary_closed = (0..n)
            .map(|i| {
                !net.roads.at_cell(Some(i)).is_empty() && net.secondary_refused(grid.hex_of_cell(i)).is_some()
            })
            .collect();
        net
    }

    /// Why a line cannot use a secondary road at `h` (13 July 2014: "a unit (of any type) must
    /// be stationed at each end of the road where it joins a Major Road ... and occupy any
    /// town-sized settlement along the road with 1 infantry battalion or dragoon squadron").
    /// The clarification of 4 September 2014 ("any unit of any type and size is sufficient
    /// when placed at the junction of a secondary road") holds for a junction that is a town:
    /// there a force of any arm is enough.
    fn secondary_refused(&self, h: HexId) -> Option<String> {
        let g = self.garrisons.at(h, self.side);
        let joins_major = self.roads.at(self.grid, h).iter().any(|&(_, k)| k == RoadClass::Major);
        if joins_major {
            return (g.forces == 0).then(|| {
                format!("no unit of the {} at {h}, where the secondary road joins a major road", self.side)
            });
        }
        if !self.towns_at.at(self.grid, h).is_empty() && g.units() == 0 {
            return Some(format!(
                "no battalion or dragoon squadron of the {} in the town at {h} on the secondary road",
                self.side
            ));
        }
        None
    }

    /// Breadth-first from every source at once. `strict` false ignores what cuts lines (to
    /// explain a cut line). A hostile hex is reached but never passed.
    fn search(&self, sources: &[HexId], strict: bool) -> Tree {
        let n = self.grid.cells() * 2;
        let mut best: Vec<Option<(u32, usize, usize)>> = vec![None; n];
        let mut queue = VecDeque::new();
        for (i, &h) in sources.iter().enumerate() {
            let s = slot(self.grid, h, false);
            if best[s].is_none() {
                best[s] = Some((0, usize::MAX, i));
                queue.push_back(s);
            }
        }
        while let Some(s) = queue.pop_front() {
            let (h, via_secondary) = hex_of(self.grid, s);
            let Some((d, _, src)) = best[s] else { continue };
            // Slots are cells twice over: the hex's cell is half its slot.
            if strict && d > 0 && self.blocked_at[s / 2] {
                continue;
            }
            let closed = strict && self.secondary_closed[s / 2];
            for &(nb, class) in self.roads.at(self.grid, h) {
                let secondary = class == RoadClass::Secondary;
                if closed && (secondary || via_secondary) {
                    continue;
                }
                let t = slot(self.grid, nb, secondary);
                if best[t].is_none() {
                    best[t] = Some((d + 1, s, src));
                    queue.push_back(t);
                }
            }
        }
        Tree { rows: usize::from(self.grid.rows), best }
    }
}

impl Tree {
    /// The nearest way to `h`: the path from `h` back to its source, and the source index.
    fn path_to(&self, grid: HexGrid, h: HexId) -> Option<(Vec<HexId>, usize)> {
        debug_assert_eq!(self.rows, usize::from(grid.rows));
        let a = self.best[slot(grid, h, false)];
        let b = self.best[slot(grid, h, true)];
        let start = match (a, b) {
            (Some(x), Some(y)) if y.0 < x.0 => slot(grid, h, true),
            (Some(_), _) => slot(grid, h, false),
            (None, Some(_)) => slot(grid, h, true),
            (None, None) => return None,
        };
        let mut path = Vec::new();
        let mut s = start;
        let mut src = 0;
        while let Some((_, parent, source)) = self.best[s] {
            path.push(hex_of(grid, s).0);
            src = source;
            if parent == usize::MAX {
                break;
            }
            s = parent;
        }
        Some((path, src))
    }
}

impl SettlementControl {
    fn control_word(&self) -> String {
        self.control.to_string()
    }
}

/// A supply source of a side (3.2): its settlement's name and hex.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Source {
    name: CompactString,
    hex: HexId,
    /// Its province (2.2).
    province: String,
}

/// The sources of a side (3.2): capitals, cities and fortress-cities friendly to it; its own
/// depots in use (3.2.1: the depot a force of the side names, established), garrisoned; and
/// for the Allies garrisoned marked ports. A depot is no source for the enemy who takes it,
/// nor for its owner until retaken and re-established (3.2.1: "all supplies from it ... are
/// lost until it is recaptured"); a `depot` marked in `settlements.csv` that no force names
/// is no one's. An invested fortress (or Toledo's invested Alcázar, 2.5.3) generates none
/// (7.1.1).
fn sources(
    c: &Campaign,
    side: Side,
    control: &[SettlementControl],
    g: &Garrisons,
    depots: &[Depot],
) -> Vec<Source> {
    let in_use: BTreeSet<&str> = depots
        .iter()
        .filter(|d| d.state == DepotState::Established)
        .filter(|d| d.side == side)
        .map(|d| d.depot.as_str())
        .collect();
    let mut out = Vec::new();
    for (s, k) in c.map.settlements.iter().zip(control) {
        if k.control.side() != Some(side) || s.invested_by.is_some() {
            continue;
        }
        let garrisoned = g.at(s.hex, side).units() > 0;
        let big =
            matches!(s.kind, SettlementKind::Capital | SettlementKind::City | SettlementKind::FortressCity);
        let depot = in_use.contains(s.name.as_str());
        let port = side == Side::Allies && s.port;
        if big || (garrisoned && (depot || port)) {
            out.push(Source { name: s.name.as_str().into(), hex: s.hex, province: s.province.clone() });
        }
    }
    out
}

/// Settlements on a path (the force's own hex excluded, unless it stands in its source;
/// villages do not count, 2.1.3) and the capacity they give (3.4).
fn capacity(net: &Net<'_>, control: &[SettlementControl], path: &[HexId], men: u32, guns: u32) -> Capacity {
    let skip = usize::from(path.len() > 1);
    // Each hex once, however often the path comes back to it.
    let mut on: Vec<usize> = path.iter().skip(skip).filter_map(|&h| net.grid.cell(h)).collect();
    on.sort_unstable();
    on.dedup();
    let (mut n, mut good) = (0u32, 0u32);
    for k in on.iter().flat_map(|&h| net.towns_at.at_cell(Some(h))).filter_map(|&i| control.get(i)) {
        n += 1;
        good += u32::from(k.production == Production::Good);
    }
    let good_line = n > 0 && 3 * good >= 2 * n;
    let (max_men, max_guns) = if good_line { GOOD_CAPACITY } else { ADEQUATE_CAPACITY };
    Capacity {
        line: if good_line { Production::Good } else { Production::Adequate },
        settlements: n,
        good,
        men,
        guns,
        max_men,
        max_guns,
        load_men: men,
        load_guns: guns,
    }
}

/// The first point on an unblocked path (from the force) where the side's line is cut, and why.
fn first_break(net: &Net<'_>, path: &[HexId]) -> Option<(HexId, String)> {
    for (i, &h) in path.iter().enumerate() {
        if i > 0
            && let Some(why) = net.blocked.get(&h)
        {
            return Some((h, why.clone()));
        }
        // The road used on either side of h.
        let class = |a: HexId, b: HexId| net.c.map.road(a, b);
        let before = (i > 0).then(|| class(path[i - 1], h)).flatten();
        let after = path.get(i + 1).and_then(|&n| class(h, n));
        let secondary = before == Some(RoadClass::Secondary) || after == Some(RoadClass::Secondary);
        if i > 0
            && secondary
            && let Some(why) = net.secondary_refused(h)
        {
            return Some((h, why));
        }
    }
    None
}

/// Supply and control for the campaign as it stands, on its current turn.
pub fn compute(c: &Campaign, records: &[SupplyRecord]) -> SupplyReport {
    compute_for_turn(c, records, c.config.turn)
}

/// Supply and control for the campaign as it stands, with depot timings counted at `turn`.
pub fn compute_for_turn(c: &Campaign, records: &[SupplyRecord], turn: u32) -> SupplyReport {
    let g = Garrisons::of(c);
    let control = compute_at(c, &g, turn);
    let depots = depots(c, &control, records, turn);
    let prev_out: BTreeMap<&str, u32> = records.iter().map(|r| (r.force.as_str(), r.turns_out)).collect();
    // The two sides' searches share nothing but the campaign read: the Allies' runs beside the
    // French, and the two are put together in the same order as one after the other would.
    let side = |side| side_lines(c, side, &control, &g, &depots, &prev_out);
    let (french, allies) = std::thread::scope(|s| {
        let allies = s.spawn(|| side(Side::Allies));
        let french = side(Side::French);
        match allies.join() {
            Ok(allies) => (french, allies),
            Err(panic) => std::panic::resume_unwind(panic),
        }
    });
    let (french_at, french_forces, mut communications) = french;
    let (allies_at, allies_forces, allies_communications) = allies;
    communications.extend(allies_communications);
    // Forces in forces.csv order, whichever side was searched first.
    let forces =
        in_file_order(french_at.into_iter().zip(french_forces), allies_at.into_iter().zip(allies_forces));
    SupplyReport { turn, forces, settlements: control, communications, depots }
}

/// Two lists, each in `forces.csv` order (by the place each item's force has in it), merged
/// into one in that order.
fn in_file_order<T>(
    a: impl IntoIterator<Item = (usize, T)>,
    b: impl IntoIterator<Item = (usize, T)>,
) -> Vec<T> {
    let (mut a, mut b) = (a.into_iter().peekable(), b.into_iter().peekable());
    let mut out = Vec::with_capacity(a.size_hint().0 + b.size_hint().0);
    loop {
        let next = match (a.peek(), b.peek()) {
            (Some((i, _)), Some((j, _))) if i < j => a.next(),
            (Some(_), Some(_)) | (None, Some(_)) => b.next(),
            (Some(_), None) => a.next(),
            (None, None) => break,
        };
        out.extend(next.map(|(_, item)| item));
    }
    out
}

/// One side's forces on the map, each with its place in `forces.csv`, its line (with the
/// capacity of the lines shared, 3.4) and its line of communications, in `forces.csv` order.
fn side_lines(
    c: &Campaign,
    side: Side,
    control: &[SettlementControl],
    g: &Garrisons,
    depots: &[Depot],
    prev_out: &BTreeMap<&str, u32>,
) -> (Vec<usize>, Vec<ForceSupply>, Vec<Communication>) {
    let mut search = SideSearch::new(c, side, control, g, depots);
    // Room for every force at once: a line is a large record, and the side's forces many.
    let n = c.oob.forces().len();
    let (mut at, mut forces, mut communications) = (Vec::with_capacity(n), Vec::with_capacity(n), Vec::new());
    for (i, f) in c.oob.forces().enumerate().filter(|(_, f)| f.side() == side) {
        let Some(hex) = f.hex else { continue };
        at.push(i);
        let mut fs = search.line(f, hex, prev_out.get(f.id.as_str()).copied().unwrap_or(0));
        if let Some(comm) = search.communication(f, hex) {
            if comm.state == "cut" {
                fs.orders.push("line of communications cut: no replacements (3.5)".to_string());
            }
            communications.push(comm);
        }
        forces.push(fs);
    }
    // A line is one side's: its capacity is shared among that side's forces alone (3.4).
    share::share_lines(&mut forces, prev_out);
    (at, forces, communications)
}

#[cfg(test)]
mod tests;
