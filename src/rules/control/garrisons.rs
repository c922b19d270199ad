//! The garrisons standing in each hex, by side, counted in brigades and divisions.

use std::collections::BTreeMap;

use serde::Serialize;

use crate::model::{Campaign, HexGrid, HexId, Nation, Side, StatusKind, Unit};
use crate::rules::turn::TurnContext;

use super::requirement::Need;

/// The garrison a side keeps in one hex, in the units 2.1.1 counts: "A unit is 1 infantry
/// battalion or 1 dragoon cavalry squadron ... Other cavalry are not able to garrison".
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize)]
pub struct Garrison {
    /// Infantry battalions (one row of infantry is one battalion).
    pub battalions: u32,
    /// Dragoon squadrons.
    pub squadrons: u32,
    /// Forces of the side in the hex, of any arm (a unit "of any type" at the junction of a
    /// secondary road, 13 July 2014).
    pub forces: u32,
}

impl Garrison {
    /// Units: battalions and dragoon squadrons.
    pub fn units(&self) -> u32 {
        self.battalions + self.squadrons
    }

    /// True when the garrison holds `brigades` brigades (3 battalions, or 2 dragoon regiments
    /// of 4 squadrons, each) and `units` units besides.
    pub fn holds(&self, need: Need) -> bool {
        let Need { brigades, units } = need;
        (0..=units).any(|from_bns| {
            let from_sq = units - from_bns;
            from_bns <= self.battalions
                && from_sq <= self.squadrons
                && (self.battalions - from_bns) / 3 + (self.squadrons - from_sq) / 4 >= brigades
        })
    }
}

/// Who garrisons each hex: per hex, per side, the garrison, and the Allied nation with the
/// most units there.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Garrisons {
    by_hex: BTreeMap<HexId, [Garrison; 2]>,
    pub(super) allied_nation: BTreeMap<HexId, Nation>,
}

fn side_index(s: Side) -> usize {
    match s {
        Side::French => 0,
        Side::Allies => 1,
    }
}

impl Garrisons {
    /// The garrisons of every hex with a force in it; unavailable units do not garrison.
    pub fn of(c: &Campaign) -> Garrisons {
        let turn = c.config.turn;
        // Most campaigns have no unit out of action: then each force counts what the order of
        // battle counted of its rows as it indexed them, without walking its tree again.
        if c.oob.rows_with_status().any(|u| u.has_status(StatusKind::Unavailable, turn)) {
            return Garrisons::walked(c, turn);
        }
        let mut by_hex: HexSums<[Garrison; 2]> = HexSums::new(c.map.grid);
        let mut nations: HexSums<[u32; Nation::ALL.len()]> = HexSums::new(c.map.grid);
        let forces = c.oob.force_places().iter().zip(c.oob.forces_with_men());
        for ((f, &men), k) in forces.zip(c.oob.garrison_units()) {
            let Some(hex) = f.hex.filter(|_| men) else { continue };
            let side = f.side;
            let slot = &mut by_hex.at(hex)[side_index(side)];
            slot.forces += 1;
            slot.battalions += k.battalions();
            slot.squadrons += k.squadrons();
            let own = k.units_by_nation();
            if side == Side::Allies && own.iter().any(|&n| n > 0) {
                for (a, n) in nations.at(hex).iter_mut().zip(own) {
                    *a += n;
                }
            }
        }
        let allied_nation = nations
            .into_map()
            .into_iter()
            .filter_map(|(hex, n)| {
                let counted = Nation::ALL.iter().copied().zip(n).filter(|&(_, units)| units > 0);
                // Most units; ties to the nation named first (Sp, Po, Br).
                counted
                    .max_by_key(|&(nation, units)| (units, std::cmp::Reverse(nation)))
                    .map(|(k, _)| (hex, k))
            })
            .collect();
        Garrisons { by_hex: by_hex.into_map(), allied_nation }
    }

    /// [`Garrisons::of`] force by force, leaving out each unit out of action (or under a
    /// formation out of action).
    pub(super) fn walked(c: &Campaign, turn: u32) -> Garrisons {
        let mut g = Garrisons::default();
        let mut nations: BTreeMap<HexId, BTreeMap<Nation, u32>> = BTreeMap::new();
        for f in c.oob.forces() {
            // A force without men present holds nothing, not even a road junction.
            let Some(hex) = f.hex.filter(|_| c.oob.has_men(f)) else { continue };
            let side = f.side();
            let slot = &mut g.by_hex.entry(hex).or_default()[side_index(side)];
            slot.forces += 1;
            if f.has_status(StatusKind::Unavailable, turn) {
                continue;
            }
            // The force's units by nation, gathered before they are added to the hex's.
            let mut own: Vec<(Nation, u32)> = Vec::new();
            for u in c.oob.units_under(f) {
                let (b, s) = u.garrison_units();
                if b + s == 0 || unavailable(c, u, turn) {
                    continue;
                }
                slot.battalions += b;
                slot.squadrons += s;
                if side == Side::Allies {
                    match own.iter_mut().find(|(n, _)| *n == u.nation) {
                        Some((_, k)) => *k += b + s,
                        None => own.push((u.nation, b + s)),
                    }
                }
            }
            if !own.is_empty() {
                let at = nations.entry(hex).or_default();
                for (n, k) in own {
                    *at.entry(n).or_default() += k;
                }
            }
        }
        for (hex, n) in nations {
            // Most units; ties to the nation named first (Sp, Po, Br).
            if let Some((nation, _)) =
                n.into_iter().max_by_key(|&(nation, units)| (units, std::cmp::Reverse(nation)))
            {
                g.allied_nation.insert(hex, nation);
            }
        }
        g
    }

    /// The garrison `side` keeps in `hex`.
    pub fn at(&self, hex: HexId, side: Side) -> Garrison {
        self.by_hex.get(&hex).map(|g| g[side_index(side)]).unwrap_or_default()
    }
}

/// Sums by hex, for thousands of forces: a table of the map's hexes in the order of their
/// ids, each map built at once from it (looking each force's hex up in a map takes longer than
/// the sums). A hex off the map, in a campaign value not read from files, is summed in a map
/// of its own.
struct HexSums<T> {
    grid: HexGrid,
    on_map: Vec<Option<T>>,
    off_map: BTreeMap<HexId, T>,
}

impl<T: Default + Clone> HexSums<T> {
    fn new(grid: HexGrid) -> Self {
        HexSums { grid, on_map: vec![None; grid.cells()], off_map: BTreeMap::new() }
    }

    /// The sum of a hex, begun at its default.
    fn at(&mut self, hex: HexId) -> &mut T {
        match self.grid.cell(hex) {
            Some(i) => self.on_map[i].get_or_insert_default(),
            None => self.off_map.entry(hex).or_default(),
        }
    }

    /// Every hex summed, in the order of its id.
    fn into_map(self) -> BTreeMap<HexId, T> {
        let grid = self.grid;
        let mut map: BTreeMap<HexId, T> = self
            .on_map
            .into_iter()
            .enumerate()
            .filter_map(|(i, sum)| Some((grid.hex_of_cell(i), sum?)))
            .collect();
        map.extend(self.off_map);
        map
    }
}

fn unavailable(c: &Campaign, u: &Unit, turn: u32) -> bool {
    u.has_status(StatusKind::Unavailable, turn)
        || c.oob.ancestors(&u.id).iter().any(|a| a.has_status(StatusKind::Unavailable, turn))
}

/// The garrison that polices a place for a side (2.1, 4.0): the units that make the need
/// `need` (2.1's, doubled for "good"), not every force standing in the hex. They are taken,
/// unit by unit, from the side's forces in the hex: first the forces that did not march this
/// turn (`ctx.moved`), then those that did; within each, in `forces.csv` order; within a
/// force, its battalions and dragoon regiments in `forces.csv` order (unavailable units and
/// other cavalry police nothing, 2.1.1). The same units every time for the same campaign and
/// turn. Empty when the side's units there cannot make the need at all (then nobody polices it
/// as the rules count a garrison): the need is at least one unit.
pub fn policing<'c>(
    c: &'c Campaign,
    hex: HexId,
    side: Side,
    need: Need,
    ctx: Option<&TurnContext>,
) -> Vec<&'c Unit> {
    let need = if need.is_none() { Need { brigades: 0, units: 1 } } else { need };
    let turn = c.config.turn;
    let moved = |f: &Unit| ctx.is_some_and(|x| x.moved.contains_key(f.id.as_str()));
    let mut forces: Vec<&Unit> = c
        .oob
        .forces()
        .filter(|f| f.hex == Some(hex) && f.side() == side && !f.has_status(StatusKind::Unavailable, turn))
        .collect();
    // Stable: forces.csv order within each group.
    forces.sort_by_key(|f| moved(f));
    let mut held = Garrison::default();
    let mut out = Vec::new();
    for f in forces {
        for u in c.oob.units_under(f) {
            let (b, s) = u.garrison_units();
            if b + s == 0 || unavailable(c, u, turn) {
                continue;
            }
            held.battalions += b;
            held.squadrons += s;
            out.push(u);
            if held.holds(need) {
                return out;
            }
        }
    }
    Vec::new()
}
