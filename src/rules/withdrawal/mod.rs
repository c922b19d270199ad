//! The loser's withdrawal after a battle (rule 8.4): "A loser must withdraw at least half and
//! up to his full road move distance away from the victorious enemy unless a city or fortress
//! is to his rear when he may fall back into it and stop." This module lists every legal
//! destination with its road, picks the one toward the force's own supply source, explains
//! why any other hex the umpire names is refused, and finds the loser trapped when no road
//! leads away (6.5.1: "it is now possible to trap an enemy against a river").

use std::cmp::Reverse;
use std::collections::{BTreeMap, VecDeque};

use super::movement::{Allowance, road_allowance};
use super::zoc::zone_of_control;
use crate::model::{Campaign, HexGrid, HexId, RoadClass, SettlementKind, Side, Turn, Unit};

/// A hex the loser may withdraw to, and the road it takes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Destination {
    /// Where the withdrawal ends.
    pub hex: HexId,
    /// The road taken, from the loser's hex to `hex` inclusive.
    pub path: Vec<HexId>,
    /// Hexes marched (`path.len() - 1`).
    pub road_hexes: u32,
    /// Major rivers crossed by road bridge on the way, in order (these trigger 6.5.2).
    pub crosses_rivers: Vec<String>,
    /// The friendly city or fortress the loser falls back into and stops in, short of the
    /// minimum withdrawal (8.4).
    pub stop_in: Option<String>,
    /// Road hexes from `hex` to the force's supply source, if a road joins them.
    pub distance_to_supply: Option<u32>,
}

/// Where a beaten force may withdraw to, and where sowbridge proposes it goes.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct WithdrawalPlan {
    /// The withdrawing force.
    pub force: String,
    /// Its hex at the end of the battle.
    pub from: HexId,
    /// Its full road move this turn, before the per-path penalties (6.2, 6.3).
    pub allowance: u32,
    /// The least it must withdraw: half the allowance rounded up (8.4).
    pub minimum: u32,
    /// Every legal destination, by hex.
    pub destinations: Vec<Destination>,
    /// The destination sowbridge proposes: the one nearest its supply source by road.
    pub chosen: Option<Destination>,
    /// No road leads away: the force is trapped (6.5.1).
    pub trapped: bool,
    /// The force's supply source: its depot, else the nearest friendly city by road.
    pub supply_source: Option<(String, HexId)>,
    /// Why the plan is empty without the force being trapped (force or victors not on the map).
    pub note: Option<String>,
    /// Why each hex near the loser is refused.
    #[serde(skip)]
    refusals: BTreeMap<HexId, String>,
    #[serde(skip)]
    grid: HexGrid,
}

/// Plans the withdrawal of a beaten force away from the victor's principal forces (rule 8.4).
///
/// A legal path follows roads only (so a major river is crossed only by a road bridge,
/// 6.5.1), each step farther from the nearest victor (at most [`SIDEWAYS_STEPS`] keeping the
/// same distance) and ending farther than it started, never into a hex held by an
/// enemy force nor into an enemy zone of control (8.1), except that a victor sharing the
/// loser's hex does not hold the loser's first step. It is at least [`WithdrawalPlan::minimum`]
/// hexes long, or ends early in a friendly city or fortress, and no longer than the force's
/// allowance for that path (river crossings and secondary roads deducted, halved in winter).
/// Every path is enumerated depth first. Each step moves away from the victor, so no path
/// loops; the search stops at the allowance (at most 15 hexes) and a hex has at most three
/// neighbours farther from the victor, so over the sparse road net this is a few hundred
/// paths. For each end hex the path with the fewest river crossings, then the fewest hexes,
/// then the lowest hexes is kept. The proposal is the destination nearest by road to the
/// supply source, then with the fewest river crossings, then farthest from the victor, then
/// the lowest hex id.
pub fn plan_withdrawal(c: &Campaign, force_id: &str, victors: &[String], turn: Turn) -> WithdrawalPlan {
    let allowance = road_allowance(c, force_id, turn);
    let mut plan = WithdrawalPlan {
        force: force_id.to_string(),
        from: HexId::new(0, 0),
        allowance: allowance.hexes(),
        minimum: allowance.hexes().div_ceil(2),
        destinations: Vec::new(),
        chosen: None,
        trapped: false,
        supply_source: None,
        note: None,
        refusals: BTreeMap::new(),
        grid: c.map.grid,
    };
    let Some((force, from)) = c.oob.get(force_id).and_then(|f| Some((f, f.hex?))) else {
        plan.note = Some(format!("'{force_id}' is not a force standing on the map"));
        return plan;
    };
    plan.from = from;
    let mut victor_hexes: Vec<HexId> = victors.iter().filter_map(|v| c.oob.get(v)?.hex).collect();
    victor_hexes.sort();
    victor_hexes.dedup();
    if victor_hexes.is_empty() {
        plan.note = Some(format!("none of the victors ({}) stands on the map", victors.join(", ")));
        return plan;
    }
    let ground = Ground::new(c, force, from, victor_hexes);
    let mut search = Search {
        ground: &ground,
        allowance,
        minimum: plan.minimum,
        best: BTreeMap::new(),
        short: BTreeMap::new(),
        over: BTreeMap::new(),
        seen: BTreeMap::new(),
    };
    search.walk(&mut vec![from], &mut Vec::new(), false, 0);

    plan.supply_source = supply_source(c, force, from);
    let to_supply = plan.supply_source.as_ref().map(|(_, h)| road_distances(c, *h)).unwrap_or_default();
    let mut destinations: Vec<Destination> = std::mem::take(&mut search.best).into_values().collect();
    // 8.4: a loser with "a city or fortress ... to his rear ... may fall back into it and
    // stop"; one already inside a friendly city or fortress (a beaten garrison) may stay.
    let stay = staying_inside(&ground, from);
    if let Some(d) = &stay {
        destinations.push(d.clone());
        destinations.sort_by_key(|d| d.hex);
    }
    for d in &mut destinations {
        d.distance_to_supply = to_supply.get(&d.hex).copied();
    }
    plan.chosen = match &stay {
        Some(d) => destinations.iter().find(|x| x.hex == d.hex).cloned(),
        None => destinations
            .iter()
            .min_by_key(|d| {
                let supply = (d.distance_to_supply.is_none(), d.distance_to_supply);
                (supply, d.crosses_rivers.len(), Reverse(ground.away(d.hex)), d.hex)
            })
            .cloned(),
    };
    plan.trapped = destinations.is_empty();
    plan.destinations = destinations;
    plan.refusals = refusals(&ground, &search, &plan);
    plan
}

/// The loser's own hex as a destination when it stands inside a friendly city or fortress
/// that no enemy force holds (8.4: it may stay there), else `None`.
fn staying_inside(g: &Ground<'_>, from: HexId) -> Option<Destination> {
    if g.enemy_at.contains_key(&from) {
        return None;
    }
    let city = g.friendly_city(from)?;
    Some(Destination {
        hex: from,
        path: vec![from],
        road_hexes: 0,
        crosses_rivers: Vec::new(),
        stop_in: Some(city.to_string()),
        distance_to_supply: None,
    })
}

/// Checks a destination the umpire names (`--withdraw-to`): the legal destination at that
/// hex, or why the loser may not withdraw there.
pub fn check_destination(plan: &WithdrawalPlan, hex: HexId) -> Result<&Destination, String> {
    if let Some(d) = plan.destinations.iter().find(|d| d.hex == hex) {
        return Ok(d);
    }
    if let Some(note) = &plan.note {
        return Err(note.clone());
    }
    if let Some(why) = plan.refusals.get(&hex) {
        return Err(why.clone());
    }
    if !plan.grid.contains(hex) {
        return Err(format!("{hex} is not on the map"));
    }
    Err(format!(
        "{hex} is {} hexes from {}, beyond the allowance of {} (6.3)",
        plan.grid.distance(plan.from, hex),
        plan.from,
        plan.allowance
    ))
}

/// The loser's situation: where the victors and other enemies stand and what they control.
struct Ground<'a> {
    c: &'a Campaign,
    side: Side,
    from: HexId,
    victors: Vec<HexId>,
    /// Hexes holding an enemy force, with the first such force in file order.
    enemy_at: BTreeMap<HexId, String>,
    /// Zones of control of enemy forces standing elsewhere than the loser's hex.
    zoc: BTreeMap<HexId, String>,
    /// Zones of control of enemy forces standing in the loser's hex (the battlefield itself).
    zoc_here: BTreeMap<HexId, String>,
}

impl<'a> Ground<'a> {
    fn new(c: &'a Campaign, force: &Unit, from: HexId, victors: Vec<HexId>) -> Self {
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
    fn away(&self, h: HexId) -> u32 {
        self.victors.iter().map(|&v| self.c.map.grid.distance(h, v)).min().unwrap_or(0)
    }

    /// Roads out of `h` that lead no nearer to the victor.
    fn roads_away(&self, h: HexId) -> impl Iterator<Item = (HexId, RoadClass)> + '_ {
        let here = self.away(h);
        self.c.map.road_neighbours(h).into_iter().filter(move |&(n, _)| self.away(n) >= here)
    }

    /// The enemy force whose zone of control closes `h` to the loser, if any.
    fn zone_closing(&self, h: HexId, first_step: bool) -> Option<&str> {
        let here = if first_step { None } else { self.zoc_here.get(&h) };
        self.zoc.get(&h).or(here).map(String::as_str)
    }

    /// True when the loser may not enter `h` (enemy force or zone of control).
    fn closed(&self, h: HexId, first_step: bool) -> bool {
        self.enemy_at.contains_key(&h) || self.zone_closing(h, first_step).is_some()
    }

    /// A city or fortress in `h` friendly to the loser's side (8.4).
    fn friendly_city(&self, h: HexId) -> Option<&'a str> {
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
    fn shortest_roads(&self) -> BTreeMap<HexId, (u32, Vec<String>, bool)> {
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
    fn reach(&self, respect_closed: bool) -> BTreeMap<HexId, u32> {
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
struct Search<'a> {
    ground: &'a Ground<'a>,
    allowance: Allowance,
    minimum: u32,
    /// The best legal path to each destination.
    best: BTreeMap<HexId, Destination>,
    /// Hexes reached within the allowance but short of the minimum: fewest hexes.
    short: BTreeMap<HexId, u32>,
    /// Hexes reached only beyond the path's allowance: (hexes, allowance for that path).
    over: BTreeMap<HexId, (u32, i32)>,
    /// Fewest hexes to reach (hex, rivers crossed, secondary road used, sideways steps).
    seen: BTreeMap<(HexId, usize, bool, u32), u32>,
}

impl Search<'_> {
    fn walk(&mut self, path: &mut Vec<HexId>, rivers: &mut Vec<String>, secondary: bool, sideways: u32) {
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
    fn visit(&mut self, path: &[HexId], rivers: &[String], secondary: bool) {
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

/// Why each hex within reach of the loser (one hex beyond its allowance) is refused.
fn refusals(g: &Ground<'_>, s: &Search<'_>, plan: &WithdrawalPlan) -> BTreeMap<HexId, String> {
    let grid = &g.c.map.grid;
    let from = g.from;
    let radius = i32::try_from(plan.allowance + 1).unwrap_or(i32::MAX);
    let (relaxed, clean) = (g.reach(false), g.reach(true));
    let roads = g.shortest_roads();
    let mut out = BTreeMap::new();
    for dc in -radius..=radius {
        for dr in -radius - 1..=radius + 1 {
            let (Ok(col), Ok(row)) =
                (u16::try_from(i32::from(from.col) + dc), u16::try_from(i32::from(from.row) + dr))
            else {
                continue;
            };
            let t = HexId::new(col, row);
            if !grid.contains(t) || grid.distance(from, t) as i32 > radius || s.best.contains_key(&t) {
                continue;
            }
            out.insert(t, refusal(g, s, plan, t, &relaxed, &clean, &roads));
        }
    }
    out
}

fn refusal(
    g: &Ground<'_>,
    s: &Search<'_>,
    plan: &WithdrawalPlan,
    t: HexId,
    relaxed: &BTreeMap<HexId, u32>,
    clean: &BTreeMap<HexId, u32>,
    roads: &BTreeMap<HexId, (u32, Vec<String>, bool)>,
) -> String {
    let (map, from) = (&g.c.map, g.from);
    if t == from {
        return format!("{t} is where {} stands: a loser must withdraw (8.4)", plan.force);
    }
    if let Some(e) = g.enemy_at.get(&t) {
        return format!("{t} holds the enemy force {e}");
    }
    let (there, here) = (g.away(t), g.away(from));
    if there <= here {
        return format!(
            "{t} is not farther from the victor than {from} ({there} hexes against {here}): \
             a loser withdraws away from the victorious enemy at each step (8.4)"
        );
    }
    if let Some(e) = g.zone_closing(t, map.grid.adjacent(from, t)) {
        return format!("{t} is in the zone of control of the enemy force {e} (8.1)");
    }
    if !relaxed.contains_key(&t) {
        let unbridged = map.grid.neighbours(t).find_map(|n| {
            let behind = relaxed.contains_key(&n) && g.away(n) < there && map.road(n, t).is_none();
            behind.then(|| map.river(n, t)).flatten()
        });
        return match unbridged {
            Some(r) => format!(
                "{t} lies across the {r} where no road bridge is: major rivers are crossed only \
                 where roads meet them (6.5.1)"
            ),
            None => format!("no road leads from {from} to {t} with every step farther from the victor (8.4)"),
        };
    }
    if !clean.contains_key(&t) {
        return format!(
            "every road from {from} to {t} that leads away from the victor passes through an enemy \
             zone of control or an enemy-held hex (8.1)"
        );
    }
    if let Some(n) = s.short.get(&t) {
        return format!(
            "{t} is only {n} road hexes from {from}: a loser withdraws at least {} unless it falls \
             back into a friendly city or fortress (8.4)",
            plan.minimum
        );
    }
    match s.over.get(&t) {
        Some((hexes, limit)) => format!(
            "{t} is beyond the allowance: the shortest road there is {hexes} hexes from {from}, and {} \
             may march {limit} on it after river and secondary-road penalties (6.2, 6.3, 6.5.1)",
            plan.force
        ),
        None => {
            let (hexes, rivers, secondary) = roads.get(&t).cloned().unwrap_or((clean[&t], Vec::new(), false));
            let limit = s.allowance.for_path(rivers.len() as u32, secondary);
            let crossing = if rivers.is_empty() {
                String::new()
            } else {
                format!(" and crosses the {}", river_list(&rivers))
            };
            if rivers.is_empty() && !secondary {
                format!(
                    "{t} is beyond the allowance: the shortest road there is {hexes} hexes from {from}, \
                     and {} may march at most {} (6.2, 6.3)",
                    plan.force, plan.allowance
                )
            } else {
                format!(
                    "{t} is beyond the allowance: the shortest road there is {hexes} hexes from {from}{crossing}, \
                     and {} may march {limit} on it after river and secondary-road penalties ({} before \
                     them; 6.2, 6.3, 6.5.1)",
                    plan.force, plan.allowance
                )
            }
        }
    }
}

/// The rivers a path crosses, for a sentence: "Rio Guadiana", "Rio Guadiana and the Rio Tajo",
/// "Rio A, the Rio B and the Rio C".
pub fn river_list(rivers: &[String]) -> String {
    match rivers {
        [] => String::new(),
        [one] => one.clone(),
        [init @ .., last] => format!("{} and the {last}", init.join(", the ")),
    }
}

/// Road hexes from `start` to every hex joined to it by road (rivers are crossed only by
/// the road bridges the road net already holds).
fn road_distances(c: &Campaign, start: HexId) -> BTreeMap<HexId, u32> {
    let mut dist = BTreeMap::from([(start, 0)]);
    let mut queue = VecDeque::from([start]);
    while let Some(h) = queue.pop_front() {
        let k = dist[&h];
        for (n, _) in c.map.road_neighbours(h) {
            if let std::collections::btree_map::Entry::Vacant(e) = dist.entry(n) {
                e.insert(k + 1);
                queue.push_back(n);
            }
        }
    }
    dist
}

/// The force's supply source: its depot settlement if it names one, else the friendly
/// capital, city or fortress city nearest by road (ties by name, then hex).
fn supply_source(c: &Campaign, force: &Unit, from: HexId) -> Option<(String, HexId)> {
    if let Some(depot) = force.depot() {
        return c.map.settlements.iter().find(|s| s.name == depot).map(|s| (s.name.clone(), s.hex));
    }
    let dist = road_distances(c, from);
    c.map
        .settlements
        .iter()
        .filter(|s| {
            matches!(s.kind, SettlementKind::Capital | SettlementKind::City | SettlementKind::FortressCity)
                && s.control.side() == Some(force.side())
        })
        .filter_map(|s| dist.get(&s.hex).map(|&d| (d, &s.name, s.hex)))
        .min()
        .map(|(_, name, hex)| (name.clone(), hex))
}

#[cfg(test)]
mod tests {
    use super::super::movement::testing::{Builder, h};
    use super::super::movement::{path_allowance, path_costs};
    use super::*;

    const SUMMER: Turn = Turn(3);

    /// A north–south road down column 10, rows 0 to 29.
    fn road() -> Builder {
        Builder::default().column_road(10, 0, 29, "major")
    }

    /// A second road leaving column 10 at 10.10 toward the south-east, one hex farther from
    /// 10.05 at each step.
    const BRANCH: [&str; 11] =
        ["10.10", "11.11", "12.11", "13.12", "14.12", "15.13", "16.13", "17.14", "18.14", "19.15", "20.15"];

    fn plan(c: &Campaign, force: &str, victor: &str) -> WithdrawalPlan {
        plan_withdrawal(c, force, &[victor.to_string()], SUMMER)
    }

    fn hexes(p: &WithdrawalPlan) -> Vec<String> {
        p.destinations.iter().map(|d| d.hex.to_string()).collect()
    }

    fn refused(p: &WithdrawalPlan, hex: &str) -> String {
        check_destination(p, h(hex)).expect_err(hex)
    }

    #[test]
    fn a_loser_withdraws_between_half_and_its_full_road_move() {
        let c = road()
            .force("fr", "division", "Fr", "10.05", &["line"])
            .force("sp", "division", "Sp", "10.06", &["line"])
            .build();
        let p = plan(&c, "sp", "fr");
        assert_eq!((p.allowance, p.minimum), (11, 6));
        assert_eq!(hexes(&p), ["10.12", "10.13", "10.14", "10.15", "10.16", "10.17"]);
        let d = check_destination(&p, h("10.14")).unwrap();
        assert_eq!((d.road_hexes, d.path.len(), d.path[0]), (8, 9, h("10.06")));
        assert!(d.crosses_rivers.is_empty() && d.stop_in.is_none());
        // No supply source: the farthest from the victor.
        assert_eq!(p.chosen.as_ref().map(|d| d.hex), Some(h("10.17")));
        assert!(!p.trapped && p.supply_source.is_none());
        assert!(refused(&p, "10.11").contains("only 5 road hexes"), "{}", refused(&p, "10.11"));
        assert!(refused(&p, "10.18").contains("beyond the allowance"), "{}", refused(&p, "10.18"));
        assert!(refused(&p, "10.29").contains("beyond the allowance"));
    }

    #[test]
    fn winter_halves_the_withdrawal() {
        let c = road()
            .force("sp", "division", "Sp", "10.05", &["line"])
            .force("fr", "division", "Fr", "10.06", &["line"])
            .build();
        let p = plan_withdrawal(&c, "fr", &["sp".to_string()], Turn(13));
        assert_eq!((p.allowance, p.minimum), (6, 3));
        assert_eq!(hexes(&p), ["10.09", "10.10", "10.11", "10.12"]);
    }

    #[test]
    fn the_choice_goes_toward_the_depot() {
        let base = || {
            road()
                .road(&BRANCH, "major")
                .settlement("Merida", "16.13", "town", "Sp")
                .settlement("Sevilla", "18.14", "city", "Sp")
                .settlement("Salamanca", "10.20", "city", "Fr")
                .force("fr", "division", "Fr", "10.05", &["line"])
                .force("sp", "division", "Sp", "10.06", &["line"])
        };
        // With no depot: the nearest friendly city by road, Sevilla (the French hold Salamanca).
        let c = base().build();
        let p = plan(&c, "sp", "fr");
        assert_eq!(p.supply_source, Some(("Sevilla".to_string(), h("18.14"))));
        let chosen = p.chosen.clone().unwrap();
        assert_eq!((chosen.hex, chosen.distance_to_supply, chosen.road_hexes), (h("17.14"), Some(1), 11));
        assert!(hexes(&p).contains(&"10.17".to_string()));
        // With a depot: toward it.
        let c = base().depot("sp", "Merida").build();
        let p = plan(&c, "sp", "fr");
        assert_eq!(p.chosen.as_ref().map(|d| (d.hex, d.distance_to_supply)), Some((h("16.13"), Some(0))));
        assert_eq!(plan(&c, "sp", "fr"), p, "the same campaign gives the same plan");
    }

    #[test]
    fn a_river_behind_the_loser_is_crossed_by_its_bridge() {
        let c = road()
            .river("10.09", "10.10", "Guadiana")
            .force("sp", "division", "Sp", "10.05", &["line"])
            .force("fr", "division", "Fr", "10.06", &["line"])
            .build();
        let p = plan(&c, "fr", "sp");
        assert_eq!((p.allowance, p.minimum), (13, 7));
        // Crossing costs the French division 1 hex: 12 hexes at most.
        assert_eq!(hexes(&p), ["10.13", "10.14", "10.15", "10.16", "10.17", "10.18"]);
        assert!(p.destinations.iter().all(|d| d.crosses_rivers == ["Guadiana"]));
        assert_eq!(
            refused(&p, "10.19"),
            "10.19 is beyond the allowance: the shortest road there is 13 hexes from 10.06, and fr may \
             march 12 on it after river and secondary-road penalties (6.2, 6.3, 6.5.1)"
        );
    }

    #[test]
    fn a_loser_with_an_unbridged_river_at_its_back_is_trapped() {
        let c = Builder::default()
            .column_road(10, 0, 6, "major")
            .column_road(10, 7, 29, "major")
            .river("10.06", "10.07", "Tagus")
            .force("fr", "corps", "Fr", "10.05", &["line"])
            .force("br", "division", "Br", "10.06", &["line"])
            .build();
        let p = plan(&c, "br", "fr");
        assert!(p.trapped && p.chosen.is_none() && p.destinations.is_empty());
        assert_eq!(
            refused(&p, "10.07"),
            "10.07 lies across the Tagus where no road bridge is: major rivers are crossed only where \
             roads meet them (6.5.1)"
        );
        assert!(refused(&p, "10.12").contains("no road leads"));
    }

    #[test]
    fn a_friendly_fortress_to_the_rear_lets_the_loser_stop_early() {
        let c = road()
            .settlement("Ciudad Rodrigo", "10.08", "fortress-town", "Sp")
            .settlement("Almeida", "10.09", "fortress-town", "Fr")
            .settlement("Tamames", "10.10", "town", "Sp")
            .force("fr", "division", "Fr", "10.05", &["line"])
            .force("sp", "division", "Sp", "10.06", &["line"])
            .build();
        let p = plan(&c, "sp", "fr");
        let d = check_destination(&p, h("10.08")).unwrap();
        assert_eq!((d.road_hexes, d.stop_in.as_deref()), (2, Some("Ciudad Rodrigo")));
        assert!(refused(&p, "10.09").contains("only 3 road hexes"));
        assert!(refused(&p, "10.10").contains("only 4 road hexes"));
        assert_eq!(hexes(&p)[0..2], ["10.08", "10.12"]);
        // A friendly fortress in the full-distance band is a plain destination.
        assert!(p.destinations.iter().skip(1).all(|d| d.stop_in.is_none()));
    }

    #[test]
    fn enemy_zones_of_control_close_the_road() {
        let c = road()
            .road(&BRANCH, "major")
            .force("fr", "division", "Fr", "10.05", &["line"])
            .force("fr2", "brigade", "Fr", "09.13", &["dragoon"])
            .force("sp", "division", "Sp", "10.06", &["line"])
            .build();
        let p = plan(&c, "sp", "fr");
        assert_eq!(hexes(&p), ["12.11", "13.12", "14.12", "15.13", "16.13", "17.14"]);
        assert_eq!(refused(&p, "10.12"), "10.12 is in the zone of control of the enemy force fr2 (8.1)");
        assert!(refused(&p, "10.14").contains("passes through an enemy zone of control"));
        assert!(refused(&p, "09.13").contains("holds the enemy force fr2"));
    }

    #[test]
    fn a_victor_in_the_loser_hex_does_not_pin_it() {
        let c = road()
            .force("fr", "division", "Fr", "10.06", &["line"])
            .force("sp", "brigade", "Sp", "10.06", &["line"])
            .build();
        let p = plan(&c, "sp", "fr");
        // The first step enters the victor's zone: the battlefield the loser leaves.
        assert_eq!(hexes(&p), ["10.00", "10.12", "10.13", "10.14", "10.15", "10.16", "10.17"]);
    }

    #[test]
    fn a_loser_inside_a_friendly_fortress_may_stay_there() {
        // 8.4: "unless a city or fortress is to his rear when he may fall back into it and stop".
        let c = road()
            .settlement("Plaza", "10.06", "fortress-town", "Sp")
            .force("fr", "division", "Fr", "10.05", &["line"])
            .force("sp", "brigade", "Sp", "10.06", &["line"])
            .build();
        let p = plan(&c, "sp", "fr");
        let stay = p.chosen.as_ref().unwrap();
        assert_eq!((stay.hex, stay.road_hexes, stay.stop_in.as_deref()), (h("10.06"), 0, Some("Plaza")));
        assert!(p.destinations.len() > 1, "the roads away stay legal");
        // An enemy-held or hostile place is no refuge.
        let c = road()
            .settlement("Plaza", "10.06", "fortress-town", "Fr")
            .force("fr", "division", "Fr", "10.05", &["line"])
            .force("sp", "brigade", "Sp", "10.06", &["line"])
            .build();
        assert_ne!(plan(&c, "sp", "fr").chosen.map(|d| d.hex), Some(h("10.06")));
    }

    #[test]
    fn no_withdrawal_crosses_the_puente_de_alcantara_into_an_enemy_brigade() {
        // 2.5.3: no crossing between 28.23 and 28.24 with enemy forces of at least brigade
        // strength in the other hex; a withdrawal never enters an enemy-held hex.
        let c = Builder::default()
            .column_road(28, 15, 29, "major")
            .force("fr", "division", "Fr", "28.26", &["line"])
            .force("tol", "brigade", "Fr", "28.23", &["line", "line", "line"])
            .force("sp", "division", "Sp", "28.24", &["line"])
            .build();
        let p = plan(&c, "sp", "fr");
        assert!(p.destinations.iter().all(|d| !d.path.contains(&h("28.23"))), "{:?}", p.destinations);
        assert!(refused(&p, "28.23").contains("holds the enemy force tol"));
    }

    #[test]
    fn rivers_are_listed_for_a_sentence() {
        let r = |v: &[&str]| river_list(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
        assert_eq!(r(&["Rio Guadiana"]), "Rio Guadiana");
        assert_eq!(r(&["Rio Guadiana", "Rio Tajo"]), "Rio Guadiana and the Rio Tajo");
        assert_eq!(r(&["A", "B", "C"]), "A, the B and the C");
    }

    #[test]
    fn check_destination_refuses_a_hex_nearer_the_victor() {
        let c = road()
            .force("fr", "division", "Fr", "10.05", &["line"])
            .force("sp", "division", "Sp", "10.08", &["line"])
            .build();
        let p = plan(&c, "sp", "fr");
        assert_eq!(
            refused(&p, "10.07"),
            "10.07 is not farther from the victor than 10.08 (2 hexes against 3): a loser withdraws \
             away from the victorious enemy at each step (8.4)"
        );
        assert!(refused(&p, "10.08").contains("where sp stands"));
        assert!(refused(&p, "10.05").contains("holds the enemy force fr"));
        assert!(refused(&p, "31.02").contains("not on the map"));
    }

    #[test]
    fn an_unknown_force_or_absent_victor_gives_an_empty_plan_with_a_note() {
        let c = road().force("sp", "division", "Sp", "10.08", &["line"]).build();
        let p = plan(&c, "nobody", "sp");
        assert!(p.note.as_deref().is_some_and(|n| n.contains("'nobody'")) && !p.trapped);
        let p = plan(&c, "sp", "gone");
        assert!(p.destinations.is_empty() && !p.trapped);
        assert!(refused(&p, "10.12").contains("none of the victors (gone)"));
    }

    /// Every path of every destination, over a dense road net with rivers, secondary roads,
    /// two victors and another enemy, obeys rule 8.4.
    #[test]
    fn every_path_leads_away_within_the_allowance_and_outside_enemy_zones() {
        let grid = HexGrid { columns: 30, rows: 30, layout: Default::default() };
        let mut b = Builder::default();
        for col in 2..19u16 {
            for row in 4..25u16 {
                let a = HexId::new(col, row);
                let inside = |n: &HexId| (2..19).contains(&n.col) && (4..25).contains(&n.row);
                for n in grid.neighbours(a).filter(|&n| n > a && inside(&n)) {
                    let class = if (col * 7 + row) % 5 == 0 { "secondary" } else { "major" };
                    let (sa, sn) = (a.to_string(), n.to_string());
                    b = b.road(&[&sa, &sn], class);
                    if row == 12 && n.row == 13 {
                        b = b.river(&sa, &sn, "Duero");
                    }
                }
            }
        }
        let c = b
            .force("br", "corps", "Br", "08.08", &["line"])
            .force("sp", "brigade", "Sp", "12.07", &["dragoon"])
            .force("po", "brigade", "Po", "14.16", &["line"])
            .force("fr", "corps", "Fr", "10.09", &["line", "foot-artillery"])
            .build();
        let victors = ["br".to_string(), "sp".to_string()];
        let p = plan_withdrawal(&c, "fr", &victors, SUMMER);
        assert_eq!((p.allowance, p.minimum), (11, 6));
        // Away from the nearer of two victors: the old strict cone is still there, and the
        // roads that run across the line of retreat open a fan to the south.
        let found = hexes(&p);
        for x in ["10.15", "10.16", "10.17", "11.15", "11.16", "11.17"] {
            assert!(found.contains(&x.to_string()), "{x} missing from {found:?}");
        }
        assert!(found.iter().all(|x| h(x).row >= 11), "a destination north of the line: {found:?}");
        let victor_hexes = [h("08.08"), h("12.07")];
        let away = |x: HexId| victor_hexes.iter().map(|&v| grid.distance(x, v)).min().unwrap();
        let po_zone: Vec<HexId> = grid.neighbours(h("14.16")).collect();
        assert!(p.destinations.iter().any(|d| !d.crosses_rivers.is_empty()));
        for d in &p.destinations {
            assert_eq!((d.path[0], *d.path.last().unwrap()), (h("10.09"), d.hex));
            assert!(d.stop_in.is_none());
            assert_eq!(d.road_hexes as usize, d.path.len() - 1);
            assert!(away(d.hex) > away(h("10.09")), "{d:?}");
            let sideways = d.path.windows(2).filter(|w| away(w[1]) == away(w[0])).count();
            assert!(sideways <= SIDEWAYS_STEPS as usize, "{d:?}");
            for w in d.path.windows(2) {
                assert!(c.map.road(w[0], w[1]).is_some(), "{d:?}");
                assert!(away(w[1]) >= away(w[0]), "{d:?}");
                assert!(!po_zone.contains(&w[1]) && w[1] != h("14.16"), "{d:?}");
            }
            assert!(d.road_hexes >= p.minimum);
            assert!(i64::from(d.road_hexes) <= i64::from(path_allowance(&c, "fr", SUMMER, &d.path)));
            assert_eq!(path_costs(&c, &d.path).0, d.crosses_rivers);
        }
        let chosen = p.chosen.unwrap();
        assert!(p.destinations.contains(&chosen));
    }
}
