//! Who fights (design.md, Export 1): the principals in the battle hex and the enemy forces
//! in contact with them, the attacker, and the joiners of rule 8.6 with their entry delays.

use std::collections::{BTreeMap, BTreeSet, VecDeque};

use crate::error::{Error, Result};
use crate::model::battle::{Participant, Role};
use crate::model::{ArmClass, Campaign, HexId, Side, StatusKind, Unit};

use super::zoc::{Contact, in_contact, zone_of_control};

/// Choices the umpire makes on the command line.
#[derive(Debug, Clone, Default)]
pub struct WhoFightsOptions {
    /// `--attacker`.
    pub attacker: Option<Side>,
    /// `--delay FORCE=MINUTES`.
    pub delays: BTreeMap<String, u32>,
    /// `--exclude FORCE`.
    pub exclude: BTreeSet<String>,
}

/// The forces of one battle.
#[derive(Debug, Clone)]
pub struct Combatants {
    /// Battle hex.
    pub hex: HexId,
    /// Attacking side.
    pub attacker: Side,
    /// Why.
    pub attacker_reason: String,
    /// Principals then joiners, each in file order.
    pub participants: Vec<Participant>,
    /// Forces left out by `--exclude`.
    pub excluded: Vec<String>,
}

impl Combatants {
    /// Forces of a side.
    pub fn side(&self, s: Side) -> impl Iterator<Item = &Participant> {
        self.participants.iter().filter(move |p| p.side == s)
    }
    /// Ids of a side's forces.
    pub fn ids(&self, s: Side) -> Vec<String> {
        self.side(s).map(|p| p.force.clone()).collect()
    }
}

fn usable(c: &Campaign, f: &Unit) -> bool {
    f.hex.is_some() && !f.has_status(StatusKind::Unavailable, c.config.turn) && c.oob.has_men(f)
}

/// The river crossed on a force's way from its hex to the battle hex: along the shortest
/// road if one exists within two hexes of the direct distance, else the straight hex line.
pub fn river_on_the_way(c: &Campaign, from: HexId, to: HexId) -> Option<String> {
    let path =
        road_path(c, from, to, c.map.grid.distance(from, to) + 2).unwrap_or_else(|| hex_line(c, from, to));
    path.windows(2).find_map(|w| c.map.river(w[0], w[1]).map(str::to_string))
}

/// Shortest road path (fewest hexes, then lowest ids) no longer than `max` steps.
pub fn road_path(c: &Campaign, from: HexId, to: HexId, max: u32) -> Option<Vec<HexId>> {
    road_path_on(&c.map, from, to, max)
}

/// [`road_path`] on `map` (the whole map, or the roads a side knows of: `rules::roads::map_known_to`).
pub fn road_path_on(map: &crate::model::CampaignMap, from: HexId, to: HexId, max: u32) -> Option<Vec<HexId>> {
    let mut prev: BTreeMap<HexId, HexId> = BTreeMap::new();
    let mut depth: BTreeMap<HexId, u32> = BTreeMap::from([(from, 0)]);
    let mut q = VecDeque::from([from]);
    while let Some(h) = q.pop_front() {
        if h == to {
            let mut path = vec![to];
            let mut cur = to;
            while let Some(&p) = prev.get(&cur) {
                path.push(p);
                cur = p;
            }
            path.reverse();
            return Some(path);
        }
        let d = depth[&h];
        if d >= max {
            continue;
        }
        for (n, _) in map.road_neighbours(h) {
            if let std::collections::btree_map::Entry::Vacant(e) = depth.entry(n) {
                e.insert(d + 1);
                prev.insert(n, h);
                q.push_back(n);
            }
        }
    }
    None
}

/// A straight hex line: each step to the neighbour nearest the target, keeping the heading.
pub fn hex_line(c: &Campaign, from: HexId, to: HexId) -> Vec<HexId> {
    let g = &c.map.grid;
    let mut path = vec![from];
    let mut cur = from;
    while cur != to && path.len() <= 200 {
        let heading = g.bearing(cur, to);
        let Some(next) = g.neighbours(cur).min_by(|&a, &b| {
            g.distance(a, to)
                .cmp(&g.distance(b, to))
                .then(
                    super::zoc::angle_between(heading, g.bearing(cur, a))
                        .total_cmp(&super::zoc::angle_between(heading, g.bearing(cur, b))),
                )
                .then(a.cmp(&b))
        }) else {
            break;
        };
        path.push(next);
        cur = next;
    }
    path
}

/// Entry delay of a joiner (8.6): minutes per hex of distance by composition (infantry or
/// artillery present, or wholly cavalry), plus the river-crossing minutes.
pub fn entry_delay(c: &Campaign, force: &Unit, distance: u32, river: bool) -> u32 {
    let e = &c.rules.entry;
    let foot = c
        .oob
        .units_under(&force.id)
        .iter()
        .any(|u| matches!(u.arm_class(), Some(ArmClass::Infantry | ArmClass::Artillery)));
    let per_hex = if foot { e.minutes_per_hex_foot } else { e.minutes_per_hex_cavalry };
    per_hex * distance + if river { e.river_crossing_minutes } else { 0 }
}

/// Decides who fights at a hex. Refuses a hex with no contact, and unknown forces in options.
/// `contacts` are the campaign's contacts ([`crate::rules::zoc::contacts`]), found once by the
/// caller for everything it decides about them.
pub fn who_fights(
    c: &Campaign,
    contacts: &[Contact],
    hex: HexId,
    opts: &WhoFightsOptions,
) -> Result<Combatants> {
    check_named_forces(c, opts)?;
    let grid = c.map.grid;
    if !grid.contains(hex) {
        return Err(Error::refused(format!(
            "{hex} is outside the {} × {} map (columns 00-{:02}, rows 00-{:02})",
            grid.columns,
            grid.rows,
            grid.columns.saturating_sub(1),
            grid.rows.saturating_sub(1)
        )));
    }
    // The forces that can fight, each with its hex, in file order: taken from their rows in
    // one pass, and asked by their place in this list after it (a large order of battle's
    // forces lie far apart in memory; the searches below ask every one of them).
    let forces: Vec<(HexId, &Unit)> =
        c.oob.forces().filter(|f| usable(c, f)).filter_map(|f| Some((f.hex?, f))).collect();
    let in_hex: Vec<usize> = (0..forces.len()).filter(|&i| forces[i].0 == hex).collect();
    if in_hex.is_empty() {
        return Err(Error::refused(format!("no force stands in {hex}: nothing to export")));
    }
    let principals = principals_at(c, hex, &forces, &in_hex);
    if principals.is_empty() {
        return Err(Error::refused(format!(
            "no enemy forces are in contact at {hex} (rules 8.1, 8.3); see `sowbridge contacts`"
        )));
    }
    let principal_units: Vec<&Unit> = principals.iter().map(|&i| forces[i].1).collect();
    let joiners = joiners_of(c, &principal_units, &forces, &principals);
    let in_hex: Vec<&Unit> = in_hex.iter().map(|&i| forces[i].1).collect();
    let (attacker, attacker_reason) = attacker_at(c, contacts, hex, opts, &principal_units, &in_hex)?;
    let (mut participants, excluded) = participants_at(c, hex, opts, &forces, &principals, &joiners);
    for s in [Side::French, Side::Allies] {
        if !participants.iter().any(|p| p.side == s && p.role == Role::Principal) {
            return Err(Error::refused(format!(
                "every principal of the {s} is excluded: no battle at {hex}"
            )));
        }
    }
    participants.sort_by_key(|p| (p.role == Role::Joiner, p.side != attacker));
    Ok(Combatants { hex, attacker, attacker_reason, participants, excluded })
}

/// Refuses a force named in `--exclude` or `--delay` that is unknown or not top-level.
fn check_named_forces(c: &Campaign, opts: &WhoFightsOptions) -> Result<()> {
    for id in opts.exclude.iter().chain(opts.delays.keys()) {
        match c.oob.get(id) {
            None => return Err(Error::refused(format!("unknown force '{id}' (not in forces.csv)"))),
            Some(u) if u.parent.is_some() => {
                return Err(Error::refused(format!(
                    "'{id}' is not a top-level force; --exclude and --delay take forces on the map"
                )));
            }
            Some(_) => {}
        }
    }
    Ok(())
}

/// The principals (8.1, 8.3): the forces in `hex` (`in_hex`) and every force in contact with
/// one, by their places in `forces` (file order).
fn principals_at(c: &Campaign, hex: HexId, forces: &[(HexId, &Unit)], in_hex: &[usize]) -> BTreeSet<usize> {
    let mut principals = BTreeSet::new();
    // Only the forces within contact's reach are asked.
    let grid = &c.map.grid;
    let near: Vec<usize> = (0..forces.len())
        .filter(|&j| grid.distance(hex, forces[j].0) <= crate::rules::zoc::CONTACT_REACH)
        .collect();
    for &i in in_hex {
        for &j in &near {
            if in_contact(c, forces[i].1, forces[j].1).is_some() {
                principals.insert(i);
                principals.insert(j);
            }
        }
    }
    principals
}

/// The joiners: forces not principals standing in a principal's zone of control, by their
/// places in `forces`.
fn joiners_of(
    c: &Campaign,
    principal_units: &[&Unit],
    forces: &[(HexId, &Unit)],
    principals: &BTreeSet<usize>,
) -> BTreeSet<usize> {
    let mut joiners = BTreeSet::new();
    for p in principal_units {
        let zone = zone_of_control(c, p);
        for (i, (h, _)) in forces.iter().enumerate() {
            if zone.contains_key(h) && !principals.contains(&i) {
                joiners.insert(i);
            }
        }
    }
    joiners
}

/// The attacking side, and why: chosen by the umpire, the pursuer of a retreat before battle
/// caught this turn (8.2, `avoidance.csv`), the one side that moved into contact, or the enemy
/// of the side holding the hex's settlement.
fn attacker_at(
    c: &Campaign,
    contacts: &[Contact],
    hex: HexId,
    opts: &WhoFightsOptions,
    principal_units: &[&Unit],
    in_hex: &[&Unit],
) -> Result<(Side, String)> {
    let caught =
        opts.attacker.is_none().then(|| crate::rules::avoidance::caught_at(c, contacts, hex)).flatten();
    if let Some((side, force)) = caught {
        let why = format!(
            "the {side} retreated before battle and were caught ({force}, 8.2); the other side pursued"
        );
        return Ok((side.enemy(), why));
    }
    let attacker_reason;
    let attacker = match opts.attacker {
        Some(s) => {
            attacker_reason = "chosen with --attacker".to_string();
            s
        }
        None => {
            let movers: BTreeSet<Side> =
                principal_units.iter().filter(|f| f.moving_to.is_some()).map(|f| f.side()).collect();
            if movers.len() == 1 {
                let s = *movers.iter().next().unwrap_or(&Side::French);
                let who: Vec<&str> = principal_units
                    .iter()
                    .filter(|f| f.side() == s && f.moving_to.is_some())
                    .map(|f| f.id.as_str())
                    .collect();
                attacker_reason = format!("moved into contact ({} has a moving_to hex)", who.join(", "));
                s
            } else {
                let holder = c.map.settlements_in(hex).first().and_then(|s| s.control.side());
                let sides_here: BTreeSet<Side> = in_hex.iter().map(|f| f.side()).collect();
                match holder {
                    Some(h) if sides_here.contains(&h) => {
                        attacker_reason =
                            format!("{} holds the settlement in {hex}; the other side attacks", h);
                        h.enemy()
                    }
                    _ => {
                        return Err(Error::refused(format!(
                            "cannot tell which side attacked at {hex}: {}; say --attacker french|allies",
                            if movers.is_empty() {
                                "no principal has a moving_to hex"
                            } else {
                                "principals of both sides have a moving_to hex"
                            }
                        )));
                    }
                }
            }
        }
    };
    Ok((attacker, attacker_reason))
}

/// The principals and joiners that take part, with their distance, river and entry delay;
/// with them, the forces left out by `--exclude`.
fn participants_at(
    c: &Campaign,
    hex: HexId,
    opts: &WhoFightsOptions,
    forces: &[(HexId, &Unit)],
    principals: &BTreeSet<usize>,
    joiners: &BTreeSet<usize>,
) -> (Vec<Participant>, Vec<String>) {
    let grid = &c.map.grid;
    let mut participants = Vec::new();
    let mut excluded = Vec::new();
    // Principals and joiners together, in file order.
    for &i in principals.union(joiners) {
        let role = if principals.contains(&i) { Role::Principal } else { Role::Joiner };
        let (h, f) = forces[i];
        if opts.exclude.contains(f.id.as_str()) {
            excluded.push(f.id.to_string());
            continue;
        }
        let distance = grid.distance(hex, h);
        let river = if h == hex { None } else { river_on_the_way(c, h, hex) };
        let (delay, overridden) = match (role, opts.delays.get(f.id.as_str())) {
            (_, Some(&d)) => (d, true),
            (Role::Joiner, None) => (entry_delay(c, f, distance, river.is_some()), false),
            (Role::Principal, None) => (0, false),
        };
        participants.push(Participant {
            force: f.id.to_string(),
            name: f.name.to_string(),
            side: f.side(),
            hex: h,
            role,
            distance,
            bearing: (h != hex).then(|| grid.bearing(hex, h)),
            edge: String::new(),
            crosses_river: river,
            delay_minutes: delay,
            delay_overridden: overridden,
            out_of_supply: f.supply == crate::model::Supply::Out,
        });
    }
    (participants, excluded)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movement::testing::{Builder, h};

    /// A French cavalry brigade at 10.05 marching south down the road into 10.06, a Spanish
    /// division two hexes down that road at 10.07, another Spanish division far off.
    fn campaign() -> Campaign {
        let mut c = Builder::default()
            .column_road(10, 2, 12, "major")
            .force("fr-cav", "brigade", "Fr", "10.05", &["light-cavalry", "dragoon"])
            .force("sp-a", "division", "Sp", "10.07", &["line"])
            .force("sp-far", "division", "Sp", "20.20", &["line"])
            .build();
        if let Some(f) = c.oob.get_mut("fr-cav") {
            f.moving_to = Some(h("10.06"));
        }
        c
    }

    #[test]
    fn a_principal_two_hexes_down_a_cavalry_road_is_found_from_either_hex() {
        let c = campaign();
        let contacts = crate::rules::zoc::contacts(&c);
        for hex in ["10.05", "10.07"] {
            let who = who_fights(&c, &contacts, h(hex), &WhoFightsOptions::default()).unwrap();
            let forces: Vec<&str> = who.participants.iter().map(|p| p.force.as_str()).collect();
            assert_eq!(forces, ["fr-cav", "sp-a"], "at {hex} (8.1: the cavalry's road hex)");
            assert!(who.participants.iter().all(|p| p.role == Role::Principal), "at {hex}");
            assert_eq!(who.attacker, Side::French, "the one side that moved into contact");
        }
    }
}
