//! The ground a withdrawal crosses and the road search over it (8.4): every hex the loser can
//! reach by road, how far from the victor it ends and what it crosses on the way.

use std::collections::{BTreeMap, VecDeque};

use crate::model::{Campaign, HexId, RoadClass, Side, Unit};
use crate::rules::movement::Allowance;
use crate::rules::zoc::zone_of_control;

use super::Destination;

/// The loser's situation: where the victors and other enemies stand and what they control.
pub(super) struct Ground<'a> {
    pub(super) c: &'a Campaign,
    pub(super) side: Side,
    pub(super) from: HexId,
    pub(super) victors: Vec<HexId>,
    /// Hexes holding an enemy force, with the first such force in file order.
    pub(super) enemy_at: BTreeMap<HexId, String>,
    /// Zones of control of enemy forces standing elsewhere than the loser's hex.
    pub(super) zoc: BTreeMap<HexId, String>,
    /// Zones of control of enemy forces standing in the loser's hex (the battlefield itself).
    pub(super) zoc_here: BTreeMap<HexId, String>,
}

impl<'a> Ground<'a> {
    pub(super) fn new(c: &'a Campaign, force: &Unit, from: HexId, victors: Vec<HexId>) -> Self {
        let side = force.side();
        let mut g = Ground {
            c,
            side,
            from,
            victors,
            enemy_at: BTreeMap::new(),
            zoc: BTreeMap::new(),
            zoc_here: BTreeMap::new(),
        };
        for enemy in c.oob.forces().filter(|f| f.side() != side) {
            let Some(at) = enemy.hex else { continue };
            g.enemy_at.entry(at).or_insert_with(|| enemy.id.to_string());
            let zone = if at == from { &mut g.zoc_here } else { &mut g.zoc };
            for h in zone_of_control(c, enemy).into_keys() {
                zone.entry(h).or_insert_with(|| enemy.id.to_string());
            }
        }
        g
    }

    /// Hexes from `h` to the nearest victor.
    pub(super) fn away(&self, h: HexId) -> u32 {
        self.victors.iter().map(|&v| self.c.map.grid.distance(h, v)).min().unwrap_or(0)
    }

    /// Roads out of `h` that lead no nearer to the victor.
    pub(super) fn roads_away(&self, h: HexId) -> impl Iterator<Item = (HexId, RoadClass)> + '_ {
        let here = self.away(h);
        self.c.map.road_neighbours(h).into_iter().filter(move |&(n, _)| self.away(n) >= here)
    }

    /// The enemy force whose zone of control closes `h` to the loser, if any.
    pub(super) fn zone_closing(&self, h: HexId, first_step: bool) -> Option<&str> {
        let here = if first_step { None } else { self.zoc_here.get(&h) };
        self.zoc.get(&h).or(here).map(String::as_str)
    }

    /// True when the loser may not enter `h` (enemy force or zone of control).
    pub(super) fn closed(&self, h: HexId, first_step: bool) -> bool {
        self.enemy_at.contains_key(&h) || self.zone_closing(h, first_step).is_some()
    }

    /// A city or fortress in `h` friendly to the loser's side (8.4).
    pub(super) fn friendly_city(&self, h: HexId) -> Option<&'a str> {
        self.c
            .map
            .settlements_in(h)
            .into_iter()
            .find(|s| s.kind.is_city_or_fortress() && s.control.side() == Some(self.side))
            .map(|s| s.name.as_str())
    }

    /// The shortest road away from the victor to every hex it reaches, avoiding enemy hexes
    /// and zones of control, with the rivers it crosses and whether it uses a secondary road:
    /// of the shortest, the one with the fewest rivers, then without a secondary road. One
    /// search serves every hex (the refusals ask of each hex around the loser).
    pub(super) fn shortest_roads(&self) -> BTreeMap<HexId, (u32, Vec<String>, bool)> {
        let mut best: BTreeMap<HexId, (u32, Vec<String>, bool)> =
            BTreeMap::from([(self.from, (0, Vec::new(), false))]);
        let mut queue = VecDeque::from([self.from]);
        while let Some(h) = queue.pop_front() {
            let (k, rivers, secondary) = best[&h].clone();
            for (n, class) in self.roads_away(h) {
                if self.closed(n, h == self.from) {
                    continue;
                }
                let mut r = rivers.clone();
                r.extend(self.c.map.river(h, n).map(str::to_string));
                let cand = (k + 1, r, secondary || class == RoadClass::Secondary);
                match best.get(&n) {
                    None => {
                        best.insert(n, cand);
                        queue.push_back(n);
                    }
                    Some(old) if old.0 == cand.0 && (cand.1.len(), cand.2) < (old.1.len(), old.2) => {
                        best.insert(n, cand);
                    }
                    Some(_) => {}
                }
            }
        }
        best
    }

    /// Fewest road steps from the loser's hex to every hex reachable moving away from the
    /// victor, through closed hexes or not.
    pub(super) fn reach(&self, respect_closed: bool) -> BTreeMap<HexId, u32> {
        let mut steps = BTreeMap::from([(self.from, 0)]);
        let mut queue = VecDeque::from([self.from]);
        while let Some(h) = queue.pop_front() {
            let k = steps[&h];
            for (n, _) in self.roads_away(h) {
                if steps.contains_key(&n) || (respect_closed && self.closed(n, h == self.from)) {
                    continue;
                }
                steps.insert(n, k + 1);
                queue.push_back(n);
            }
        }
        steps
    }
}

/// Steps along a road that keeps the same distance from the victor, allowed in one
/// withdrawal (the rest of the way leads away from him, 8.4).
pub const SIDEWAYS_STEPS: u32 = 2;

/// The enumeration of withdrawal paths.
pub(super) struct Search<'a> {
    pub(super) ground: &'a Ground<'a>,
    pub(super) allowance: Allowance,
    pub(super) minimum: u32,
    /// The best legal path to each destination.
    pub(super) best: BTreeMap<HexId, Destination>,
    /// Hexes reached within the allowance but short of the minimum: fewest hexes.
    pub(super) short: BTreeMap<HexId, u32>,
    /// Hexes reached only beyond the path's allowance: (hexes, allowance for that path).
    pub(super) over: BTreeMap<HexId, (u32, i32)>,
    /// Fewest hexes to reach (hex, rivers crossed, secondary road used, sideways steps).
    pub(super) seen: BTreeMap<(HexId, usize, bool, u32), u32>,
}

impl Search<'_> {
    pub(super) fn walk(
        &mut self,
        path: &mut Vec<HexId>,
        rivers: &mut Vec<String>,
        secondary: bool,
        sideways: u32,
    ) {
        let Some(&here) = path.last() else { return };
        let next: Vec<(HexId, RoadClass)> = self.ground.roads_away(here).collect();
        for (n, class) in next {
            if path.contains(&n) || self.ground.closed(n, path.len() == 1) {
                continue;
            }
            // Steps that keep the distance to the victor (along a road that runs across the
            // line of retreat) are allowed, at most SIDEWAYS_STEPS of them in a withdrawal.
            let sideways = sideways + u32::from(self.ground.away(n) == self.ground.away(here));
            if sideways > SIDEWAYS_STEPS {
                continue;
            }
            // A hex already reached as cheaply (same rivers, road class and sideways steps,
            // no more hexes) has nothing new to offer: prune, so dense road nets stay small.
            let key = (
                n,
                rivers.len() + usize::from(self.ground.c.map.river(here, n).is_some()),
                secondary || class == RoadClass::Secondary,
                sideways,
            );
            let len = path.len() as u32;
            match self.seen.get(&key) {
                Some(&best) if best <= len => continue,
                _ => {
                    self.seen.insert(key, len);
                }
            }
            let river = self.ground.c.map.river(here, n).map(str::to_string);
            let crossed = river.is_some();
            rivers.extend(river);
            path.push(n);
            let secondary = secondary || class == RoadClass::Secondary;
            self.visit(path, rivers, secondary);
            if path.len() <= self.allowance.hexes() as usize {
                self.walk(path, rivers, secondary, sideways);
            }
            path.pop();
            if crossed {
                rivers.pop();
            }
        }
    }

    /// Records a path's end: as a destination, or as too short, or as beyond the allowance
    /// for that path (kept to explain refusals).
    pub(super) fn visit(&mut self, path: &[HexId], rivers: &[String], secondary: bool) {
        let (Some(&hex), hexes) = (path.last(), path.len() as u32 - 1) else { return };
        // The loser ends farther from the victor than it started (8.4).
        if self.ground.away(hex) <= self.ground.away(self.ground.from) {
            return;
        }
        let limit = self.allowance.for_path(rivers.len() as u32, secondary);
        if i64::from(hexes) > i64::from(limit) {
            let e = self.over.entry(hex).or_insert((hexes, limit));
            *e = (*e).min((hexes, limit));
            return;
        }
        let city = self.ground.friendly_city(hex);
        if hexes < self.minimum && city.is_none() {
            let e = self.short.entry(hex).or_insert(hexes);
            *e = (*e).min(hexes);
            return;
        }
        let better = self.best.get(&hex).is_none_or(|b| {
            (rivers.len(), hexes, path) < (b.crosses_rivers.len(), b.road_hexes, b.path.as_slice())
        });
        if better {
            self.best.insert(
                hex,
                Destination {
                    hex,
                    path: path.to_vec(),
                    road_hexes: hexes,
                    crosses_rivers: rivers.to_vec(),
                    stop_in: city.filter(|_| hexes < self.minimum).map(str::to_string),
                    distance_to_supply: None,
                },
            );
        }
    }
}
