//! Zones of control and contacts (rules 8.1 and 8.3). Each force controls the six hexes
//! around it; a wholly cavalry force marching along a road also controls the second hex
//! ahead on that road. Enemy forces are in contact when one stands in the other's zone or
//! both stand in the same hex.

use std::collections::{BTreeMap, BTreeSet};

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

/// The hexes a force controls, with the rule for each (its own hex excluded).
pub fn zone_of_control(c: &Campaign, force: &Unit) -> BTreeMap<HexId, ContactRule> {
    let mut zone = BTreeMap::new();
    let Some(h) = force.hex else { return zone };
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
    if !c.oob.wholly_cavalry(&force.id) || c.map.road(h, m).is_none() {
        return None;
    }
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

/// Why two forces are in contact, if they are enemies in contact.
pub fn in_contact(c: &Campaign, a: &Unit, b: &Unit) -> Option<ContactRule> {
    if a.side() == b.side() {
        return None;
    }
    let (ha, hb) = (a.hex?, b.hex?);
    if ha == hb {
        return Some(ContactRule::SameHex);
    }
    let za = zone_of_control(c, a);
    let zb = zone_of_control(c, b);
    match (za.get(&hb), zb.get(&ha)) {
        (Some(ContactRule::Adjacent), _) | (_, Some(ContactRule::Adjacent)) => Some(ContactRule::Adjacent),
        (Some(r), _) | (_, Some(r)) => Some(*r),
        _ => None,
    }
}

/// Every contact on the map, grouped into connected groups, sorted by first hex.
pub fn contacts(c: &Campaign) -> Vec<Contact> {
    let forces: Vec<&Unit> = c.oob.forces().filter(|f| f.hex.is_some()).collect();
    // Index forces by hex so the search looks only near each force.
    let mut by_hex: BTreeMap<HexId, Vec<usize>> = BTreeMap::new();
    for (i, f) in forces.iter().enumerate() {
        if let Some(h) = f.hex {
            by_hex.entry(h).or_default().push(i);
        }
    }
    let mut pairs: Vec<(usize, usize, ContactRule)> = Vec::new();
    for (i, f) in forces.iter().enumerate() {
        let mut near: BTreeSet<HexId> = zone_of_control(c, f).into_keys().collect();
        if let Some(h) = f.hex {
            near.insert(h);
        }
        for h in near {
            for &j in by_hex.get(&h).into_iter().flatten() {
                if j <= i {
                    continue;
                }
                if let Some(rule) = in_contact(c, f, forces[j]) {
                    pairs.push((i, j, rule));
                }
            }
        }
    }
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
        entry.pairs.push(ContactPair { french: forces[fr].id.clone(), allies: forces[al].id.clone(), rule });
        for k in [i, j] {
            let f = forces[k];
            let list = if f.side() == Side::French { &mut entry.french } else { &mut entry.allies };
            if !list.contains(&f.id) {
                list.push(f.id.clone());
            }
            if let Some(h) = f.hex
                && !entry.hexes.contains(&h)
            {
                entry.hexes.push(h);
            }
        }
    }
    let mut out: Vec<Contact> = groups.into_values().collect();
    for g in &mut out {
        g.hexes.sort();
        g.french.sort();
        g.allies.sort();
        g.pairs.sort();
    }
    out.sort_by(|a, b| a.hexes.cmp(&b.hexes));
    out
}
