//! The route of an order that names a destination (`force,to`): the cheapest legal one in
//! allowance, by the map alone (rules 6.3, 6.5.1, 2.5.3).

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

use super::{Ground, Rates, step_kind};
use crate::model::oob::IdMap;
use crate::model::{Campaign, Direction, HexGrid, HexId, Side2};

/// Every step of the map a route may take, worked out once for all the route searches of a
/// command (a search tries hundreds of thousands of steps, each asking the map for terrain,
/// road and river): for each hex and direction, how the step is taken and whether it crosses
/// a major river, or `None` when [`step_kind`] refuses it.
#[derive(Debug, Clone)]
pub struct Steps {
    grid: HexGrid,
    /// By hex ([`HexGrid::cell`]), the six directions in [`Direction::ALL`] order.
    cells: Vec<[Option<(Ground, bool)>; 6]>,
}

impl Steps {
    /// The steps of the campaign's map.
    pub fn of(c: &Campaign) -> Steps {
        let grid = c.map.grid;
        let mut cells = Vec::with_capacity(grid.cells());
        for col in 0..grid.columns {
            for row in 0..grid.rows {
                let h = HexId::new(col, row);
                cells.push(Direction::ALL.map(|d| {
                    let n = grid.step(h, d)?;
                    step_kind(c, h, n).ok().map(|(g, river)| (g, river.is_some()))
                }));
            }
        }
        Steps { grid, cells }
    }

    /// The steps out of `h` the map allows: each neighbour, how, and whether across a river,
    /// in [`HexGrid::neighbours`] order.
    pub(super) fn out_of(&self, h: HexId) -> impl Iterator<Item = (HexId, Ground, bool)> + '_ {
        let cell = self.grid.cell(h).and_then(|i| self.cells.get(i));
        Direction::ALL.into_iter().zip(cell.into_iter().flatten()).filter_map(move |(d, step)| {
            let (g, river) = (*step)?;
            Some((self.grid.step(h, d)?, g, river))
        })
    }
}

/// Most rivers a route search tells apart (a route over more is costed as over this many
/// while searching, then judged exactly).
const SEARCH_RIVERS: u32 = 3;

/// The cheapest legal route from `from` to `to` within `budget` units, as the hexes after
/// `from`; `None` when none is.
///
/// A search over (hex, rivers crossed, secondary road used), each costed exactly by its own
/// counts of road, low and high steps at the rates its penalties leave; ties go to the fewer
/// hexes, then the lower hex id, so the route is always the same.
///
/// `known` holds the secondary roads the force's side knows (`None`: every road); a step along
/// a secondary road it does not know is not taken (13 July 2014).
pub fn find_route(
    legal: &Steps,
    rates: Rates,
    from: HexId,
    to: HexId,
    budget: u64,
    known: Option<&BTreeSet<Side2>>,
) -> Option<Vec<HexId>> {
    type Key = (HexId, u32, bool);
    #[derive(Clone, Copy)]
    struct Label {
        cost: u64,
        steps: u32,
        counts: [u32; 4],
        prev: Option<Key>,
    }
    let cost_of = |counts: &[u32; 4], rivers: u32, secondary: bool| -> Option<u64> {
        let p = rates.penalty(rivers, secondary);
        let mut total = 0;
        for (i, g) in [Ground::Road, Ground::SecondaryRoad, Ground::Low, Ground::High].into_iter().enumerate()
        {
            if counts[i] > 0 {
                total += u64::from(counts[i]) * rates.cost(g, p)?;
            }
        }
        Some(total)
    };
    // Only ever looked up, never walked: its order reaches no route.
    let mut best: IdMap<Key, Label> = IdMap::default();
    let mut heap = BinaryHeap::new();
    let start: Key = (from, 0, false);
    best.insert(start, Label { cost: 0, steps: 0, counts: [0; 4], prev: None });
    heap.push(Reverse((0u64, 0u32, from, 0u32, false)));
    let mut found: Option<Key> = None;
    while let Some(Reverse((cost, steps, h, r, s))) = heap.pop() {
        let key = (h, r, s);
        let Some(label) = best.get(&key).copied() else { continue };
        if label.cost != cost || label.steps != steps {
            continue;
        }
        if h == to {
            found = Some(key);
            break;
        }
        for (n, g, river) in legal.out_of(h) {
            if g == Ground::SecondaryRoad && known.is_some_and(|k| !k.contains(&Side2::new(h, n))) {
                continue;
            }
            if rates.rate(g, 0).is_none() {
                continue;
            }
            let nr = (r + u32::from(river)).min(SEARCH_RIVERS);
            let ns = s || g == Ground::SecondaryRoad;
            let mut counts = label.counts;
            counts[g as usize] += 1;
            let Some(ncost) = cost_of(&counts, nr, ns) else { continue };
            if ncost > budget {
                continue;
            }
            let nkey = (n, nr, ns);
            let better = best.get(&nkey).is_none_or(|b| (ncost, steps + 1) < (b.cost, b.steps));
            if better {
                best.insert(nkey, Label { cost: ncost, steps: steps + 1, counts, prev: Some(key) });
                heap.push(Reverse((ncost, steps + 1, n, nr, ns)));
            }
        }
    }
    let mut key = found?;
    let mut out = Vec::new();
    while let Some(prev) = best.get(&key).and_then(|l| l.prev) {
        out.push(key.0);
        key = prev;
    }
    out.reverse();
    Some(out)
}
