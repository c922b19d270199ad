//! Zones of control and contacts (rules 8.1 and 8.3). Each force controls the six hexes
//! around it; a wholly cavalry force marching along a road also controls the second hex
//! ahead on that road. Enemy forces are in contact when one stands in the other's zone or
//! both stand in the same hex.

use std::collections::BTreeMap;

use crate::model::{Campaign, HexId, Side, Unit};

/// Why two forces are in contact.
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub enum ContactRule {
    /// Both in the same hex.
    #[serde(rename = "same hex")]
    SameHex,
    /// One stands in the six hexes around the other (8.1).
    #[serde(rename = "8.1")]
    Adjacent,
    /// One stands in the extra road hex of a wholly cavalry force on the march (8.1, 8.3).
    #[serde(rename = "8.3")]
    CavalryRoad,
}

impl std::fmt::Display for ContactRule {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            ContactRule::SameHex => "same hex",
            ContactRule::Adjacent => "8.1 adjacent",
            ContactRule::CavalryRoad => "8.3 cavalry road ZoC",
        })
    }
}

/// The hexes a force controls, with the rule for each (its own hex excluded). A force
/// without men present (every unit of it reduced to 0) controls none.
pub fn zone_of_control(c: &Campaign, force: &Unit) -> BTreeMap<HexId, ContactRule> {
    let mut zone = BTreeMap::new();
    let Some(h) = force.hex.filter(|_| c.oob.has_men(force)) else { return zone };
    for n in c.map.grid.neighbours(h) {
        zone.insert(n, ContactRule::Adjacent);
    }
    if let Some(extra) = cavalry_road_hex(c, force) {
        zone.entry(extra).or_insert(ContactRule::CavalryRoad);
    }
    zone
}

/// The extra hex of a wholly cavalry force moving along a road (8.1): the hex after its
/// `moving_to` hex on that road, continuing as straight as the road allows.
pub fn cavalry_road_hex(c: &Campaign, force: &Unit) -> Option<HexId> {
    let (h, m) = (force.hex?, force.moving_to?);
    if !c.oob.wholly_cavalry(force) {
        return None;
    }
    road_hex_ahead(c, h, m)
}

/// The second hex ahead of a force at `h` marching along the road into `m` (8.1): the road
/// hex after `m`, continuing as straight as the road allows; `None` off a road.
pub fn road_hex_ahead(c: &Campaign, h: HexId, m: HexId) -> Option<HexId> {
    c.map.road(h, m)?;
    let grid = &c.map.grid;
    let heading = grid.bearing(h, m);
    c.map.road_neighbours(m).into_iter().map(|(n, _)| n).filter(|&n| n != h && !grid.adjacent(n, h)).min_by(
        |&a, &b| {
            let da = angle_between(heading, grid.bearing(m, a));
            let db = angle_between(heading, grid.bearing(m, b));
            da.total_cmp(&db).then(a.cmp(&b))
        },
    )
}

/// Smallest angle between two bearings, degrees.
pub fn angle_between(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(360.0);
    d.min(360.0 - d)
}

/// Two enemy forces in contact.
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct ContactPair {
    /// The French force.
    pub french: String,
    /// The Allied force.
    pub allies: String,
    /// Why.
    pub rule: ContactRule,
}

/// A group of forces in contact with one another: one battle waiting to be fought.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct Contact {
    /// Every hex with a force of the contact, sorted.
    pub hexes: Vec<HexId>,
    /// French forces in contact.
    pub french: Vec<String>,
    /// Allied forces in contact.
    pub allies: Vec<String>,
    /// Each pair in contact and why.
    pub pairs: Vec<ContactPair>,
}

impl Contact {
    /// Forces of a side.
    pub fn side(&self, s: Side) -> &[String] {
        match s {
            Side::French => &self.french,
            Side::Allies => &self.allies,
        }
    }
}

/// Why two forces are in contact, if they are enemies in contact (a force without men
/// present makes no contact).
pub fn in_contact(c: &Campaign, a: &Unit, b: &Unit) -> Option<ContactRule> {
    let (ha, hb) = (a.hex?, b.hex?);
    if !c.oob.has_men(a) || !c.oob.has_men(b) {
        return None;
    }
    let grid = &c.map.grid;
    contact_between(grid, (a.side(), ha, cavalry_road_hex(c, a)), (b.side(), hb, cavalry_road_hex(c, b)))
}

/// The farthest apart two forces in contact stand, in hexes (8.1): a wholly cavalry force's
/// road hex is the second along its road (roads join neighbouring hexes only); every other
/// contact is the same hex or the next.
pub const CONTACT_REACH: u32 = 2;

/// What contact needs of a force: its side, its hex and its cavalry road hex (8.1). Its zone
/// of control is the six hexes around it and that hex.
pub(crate) type Reach = (Side, HexId, Option<HexId>);

/// Why two forces are in contact, if they are enemies in contact.
pub(crate) fn contact_between(grid: &crate::model::HexGrid, a: Reach, b: Reach) -> Option<ContactRule> {
    let ((sa, ha, cav_a), (sb, hb, cav_b)) = (a, b);
    if sa == sb {
        None
    } else if ha == hb {
        Some(ContactRule::SameHex)
    } else if grid.adjacent(ha, hb) {
        Some(ContactRule::Adjacent)
    } else if cav_a == Some(hb) || cav_b == Some(ha) {
        Some(ContactRule::CavalryRoad)
    } else {
        None
    }
}

/// Every contact on the map, grouped into connected groups, sorted by first hex. A force
/// without men present is in none.
pub fn contacts(c: &Campaign) -> Vec<Contact> {
    let grid = &c.map.grid;
    // The forces on the map with men present, found from what the order of battle keeps of
    // each force together (a force's own row is read only when it marches, or is in contact).
    let (places, men) = (c.oob.force_places(), c.oob.forces_with_men());
    let on_map: Vec<usize> = (0..places.len()).filter(|&k| places[k].hex.is_some() && men[k]).collect();
    let forces: Vec<&Unit> = on_map.iter().map(|&k| c.oob.force(k)).collect();
    // What contact needs of each force, worked out once and kept close together.
    let reach: Vec<Reach> = on_map
        .iter()
        .zip(&forces)
        .filter_map(|(&k, f)| {
            let p = places[k];
            Some((p.side, p.hex?, p.moving_to.and_then(|_| cavalry_road_hex(c, f))))
        })
        .collect();
    // Forces by hex (a counting sort over the map's hexes), so that the search looks only
    // near each force.
    let cell = |h: HexId| grid.cell_on_map(h);
    let cells = grid.cells();
    let mut start = vec![0usize; cells + 1];
    for &(_, h, _) in &reach {
        start[cell(h) + 1] += 1;
    }
    for k in 1..start.len() {
        start[k] += start[k - 1];
    }
    let mut next = start.clone();
    let mut at_hex = vec![0usize; reach.len()];
    for (i, &(_, h, _)) in reach.iter().enumerate() {
        at_hex[next[cell(h)]] = i;
        next[cell(h)] += 1;
    }
    let forces_at = |h: HexId| -> &[usize] {
        let k = cell(h);
        start.get(k..=k + 1).map_or(&[], |s| &at_hex[s[0]..s[1]])
    };
    let mut pairs: Vec<(usize, usize, ContactRule)> = Vec::new();
    for (i, &(_, hex, cav)) in reach.iter().enumerate() {
        // Its own hex and those around it (each pair from its first force), and its cavalry
        // road hex, which reaches one way only (each pair from the cavalry's side).
        let around = std::iter::once(hex).chain(grid.neighbours(hex)).map(|h| (h, true));
        for (h, symmetric) in around.chain(cav.map(|h| (h, false))) {
            for &j in forces_at(h) {
                if j == i || (symmetric && j < i) {
                    continue;
                }
                let (x, y) = (i.min(j), i.max(j));
                if let Some(rule) = contact_between(grid, reach[x], reach[y]) {
                    pairs.push((x, y, rule));
                }
            }
        }
    }
    pairs.sort_unstable_by_key(|&(x, y, _)| (x, y));
    pairs.dedup_by_key(|&mut (x, y, _)| (x, y));
    // Connected groups (union-find over force indexes).
    let mut parent: Vec<usize> = (0..forces.len()).collect();
    fn root(p: &mut [usize], mut x: usize) -> usize {
        while p[x] != x {
            p[x] = p[p[x]];
            x = p[x];
        }
        x
    }
    for &(i, j, _) in &pairs {
        let (ri, rj) = (root(&mut parent, i), root(&mut parent, j));
        if ri != rj {
            parent[ri.max(rj)] = ri.min(rj);
        }
    }
    let mut groups: BTreeMap<usize, Contact> = BTreeMap::new();
    for &(i, j, rule) in &pairs {
        let g = root(&mut parent, i);
        let entry = groups.entry(g).or_insert_with(|| Contact {
            hexes: Vec::new(),
            french: Vec::new(),
            allies: Vec::new(),
            pairs: Vec::new(),
        });
        let (fr, al) = if forces[i].side() == Side::French { (i, j) } else { (j, i) };
        entry.pairs.push(ContactPair {
            french: forces[fr].id.to_string(),
            allies: forces[al].id.to_string(),
            rule,
        });
        for k in [i, j] {
            let f = forces[k];
            let list = if f.side() == Side::French { &mut entry.french } else { &mut entry.allies };
            list.push(f.id.to_string());
            entry.hexes.extend(f.hex);
        }
    }
    // Each force and hex once (a large group has thousands).
    let mut out: Vec<Contact> = groups.into_values().collect();
    for g in &mut out {
        g.hexes.sort();
        g.hexes.dedup();
        g.french.sort();
        g.french.dedup();
        g.allies.sort();
        g.allies.dedup();
        g.pairs.sort();
    }
    out.sort_by(|a, b| a.hexes.cmp(&b.hexes));
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::movement::testing::{Builder, h};

    fn campaign() -> Campaign {
        // A north-south road down column 10; a French cavalry force at 10.05 marching south.
        Builder::default()
            .column_road(10, 2, 12, "major")
            .force("fr-cav", "brigade", "Fr", "10.05", &["light-cavalry", "dragoon"])
            .force("fr-inf", "division", "Fr", "04.04", &["line"])
            .force("sp-a", "division", "Sp", "10.07", &["line"])
            .force("sp-b", "division", "Sp", "05.04", &["line"])
            .force("sp-c", "division", "Sp", "04.04", &["line"])
            .force("sp-far", "division", "Sp", "20.20", &["line"])
            .build()
    }

    fn with_moving(mut c: Campaign, id: &str, to: &str) -> Campaign {
        if let Some(f) = c.oob.get_mut(id) {
            f.moving_to = Some(h(to));
        }
        c
    }

    /// Every unit of a force reduced to 0 men, as `apply` leaves a force wiped out.
    fn wiped_out(mut c: Campaign, id: &str) -> Campaign {
        let units: Vec<String> = c.oob.units_under(id).iter().map(|u| u.id.to_string()).collect();
        for u in units {
            c.oob.get_mut(&u).unwrap().men = 0;
        }
        c
    }

    #[test]
    fn a_force_without_men_controls_nothing_and_makes_no_contact() {
        let c = wiped_out(campaign(), "sp-c");
        assert!(!c.oob.has_men("sp-c") && c.oob.get("sp-c").is_some(), "still in the order of battle");
        assert!(zone_of_control(&c, c.oob.get("sp-c").unwrap()).is_empty());
        let (fr, sp) = (c.oob.get("fr-inf").unwrap(), c.oob.get("sp-c").unwrap());
        assert_eq!(in_contact(&c, fr, sp), None, "the same hex, but no men");
        // fr-inf is still in contact with sp-b next door, with sp-c in no group.
        let list = contacts(&c);
        assert!(list.iter().all(|k| !k.allies.contains(&"sp-c".to_string())), "{list:?}");
        assert!(list.iter().any(|k| k.allies == ["sp-b"] && k.french == ["fr-inf"]), "{list:?}");
    }

    #[test]
    fn a_force_controls_the_six_hexes_around_it() {
        let c = campaign();
        let f = c.oob.get("sp-a").unwrap();
        let zone = zone_of_control(&c, f);
        assert_eq!(zone.len(), 6);
        assert!(zone.values().all(|r| *r == ContactRule::Adjacent));
        assert!(!zone.contains_key(&h("10.07")), "not its own hex");
    }

    #[test]
    fn a_cavalry_force_on_the_march_controls_the_second_hex_ahead_on_its_road() {
        let c = with_moving(campaign(), "fr-cav", "10.06");
        let f = c.oob.get("fr-cav").unwrap();
        assert_eq!(cavalry_road_hex(&c, f), Some(h("10.07")));
        assert_eq!(c.map.grid.distance(h("10.05"), h("10.07")), CONTACT_REACH, "contact's farthest reach");
        let a = c.oob.get("sp-a").unwrap();
        assert_eq!(in_contact(&c, f, a), Some(ContactRule::CavalryRoad), "8.1/8.3: two hexes down the road");
        // Not marching: no extra hex, no contact.
        let c = campaign();
        let f = c.oob.get("fr-cav").unwrap();
        assert_eq!(cavalry_road_hex(&c, f), None);
        assert_eq!(in_contact(&c, f, c.oob.get("sp-a").unwrap()), None);
        // A force with infantry never has the extra hex.
        let c = with_moving(campaign(), "fr-inf", "04.05");
        assert_eq!(cavalry_road_hex(&c, c.oob.get("fr-inf").unwrap()), None);
    }

    #[test]
    fn contacts_group_enemies_adjacent_or_in_the_same_hex() {
        let c = with_moving(campaign(), "fr-cav", "10.06");
        let list = contacts(&c);
        assert_eq!(list.len(), 2);
        let west = list.iter().find(|k| k.french.contains(&"fr-inf".to_string())).unwrap();
        assert_eq!(west.allies, ["sp-b", "sp-c"]);
        assert!(west.pairs.iter().any(|p| p.allies == "sp-c" && p.rule == ContactRule::SameHex));
        assert!(west.pairs.iter().any(|p| p.allies == "sp-b" && p.rule == ContactRule::Adjacent));
        assert_eq!(west.hexes, [h("04.04"), h("05.04")]);
        assert!(!list.iter().any(|k| k.allies.contains(&"sp-far".to_string())), "a force out of contact");
        // Friends are never in contact.
        assert_eq!(in_contact(&c, c.oob.get("sp-b").unwrap(), c.oob.get("sp-c").unwrap()), None);
    }

    #[test]
    fn a_cavalry_road_contact_is_found_whichever_force_comes_first() {
        // The force the cavalry reaches stands before it in forces.csv: the contact is seen
        // from the cavalry's side only, as its zone reaches one way.
        let c = Builder::default()
            .column_road(10, 2, 12, "major")
            .force("sp-a", "division", "Sp", "10.07", &["line"])
            .force("fr-cav", "brigade", "Fr", "10.05", &["light-cavalry", "dragoon"])
            .build();
        let c = with_moving(c, "fr-cav", "10.06");
        let list = contacts(&c);
        assert_eq!(list.len(), 1);
        assert_eq!(list[0].french, ["fr-cav"]);
        assert_eq!(list[0].allies, ["sp-a"]);
        assert_eq!(list[0].pairs[0].rule, ContactRule::CavalryRoad);
    }
}
