//! The campaign order of battle: a tree of formations and units read from `forces.csv`.
//! A *force* is a top-level node standing on a hex; its subtree goes down to battalions,
//! cavalry regiments or squadrons, and batteries with their guns.

use std::collections::hash_map::Entry;
use std::collections::{BTreeMap, HashMap};
use std::hash::{BuildHasherDefault, Hasher};

use super::hex::HexId;
use super::kinds::{Arm, ArmClass, Level, Nation, Quality, Side, Status, StatusKind, Supply};

/// One row of `forces.csv`.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Unit {
    /// Unique id.
    pub id: String,
    /// The formation it belongs to; `None` for a top-level force.
    pub parent: Option<String>,
    /// Level in the order of battle.
    pub level: Level,
    /// Display name.
    pub name: String,
    /// Commanding general of a formation (a `commanders.csv` name), if named.
    pub commander: Option<String>,
    /// Nation.
    pub nation: Nation,
    /// Arm (units only).
    pub arm: Option<Arm>,
    /// Men present (units only; 0 for formations).
    pub men: u32,
    /// Squadrons (cavalry units).
    pub squadrons: u32,
    /// Guns (artillery units).
    pub guns: u32,
    /// Hex (top-level forces only).
    pub hex: Option<HexId>,
    /// Adjacent hex the force is marching to along a road (top-level forces only).
    pub moving_to: Option<HexId>,
    /// Depot settlement (top-level forces only).
    pub depot: Option<String>,
    /// Supply state (top-level forces; blank is in supply).
    pub supply: Supply,
    /// Quality; `None` inherits the parent's, and `trained` at the top.
    pub quality: Option<Quality>,
    /// Ammunition in per cent of a full load; `None` is full.
    pub ammo: Option<u8>,
    /// Penalties with the turn they end.
    pub status: Vec<Status>,
    /// Values of columns sowbridge does not know, kept as the umpire wrote them.
    pub extra: Vec<String>,
}

impl Unit {
    /// The side of the unit.
    pub fn side(&self) -> Side {
        self.nation.side()
    }
    /// True for infantry battalions, cavalry and batteries.
    pub fn is_unit(&self) -> bool {
        !self.level.is_formation()
    }
    /// The broad class of the unit's arm.
    pub fn arm_class(&self) -> Option<ArmClass> {
        self.arm.map(Arm::class)
    }
    /// True while a penalty of this kind runs at `turn`.
    pub fn has_status(&self, kind: StatusKind, turn: u32) -> bool {
        self.status.iter().any(|s| s.kind == kind && s.until > turn)
    }
}

/// A hash map keyed by unit ids. Only ever looked up, never walked, so its order reaches no
/// output.
pub type IdMap<K, V> = HashMap<K, V, BuildHasherDefault<IdHasher>>;

/// A small, fast hasher for the unit ids of one campaign (the Fx multiply-rotate hash of
/// rustc). The ids are the umpire's own, so no defence against chosen collisions is needed.
#[derive(Debug, Default, Clone, Copy)]
pub struct IdHasher(u64);

impl Hasher for IdHasher {
    fn write(&mut self, bytes: &[u8]) {
        const K: u64 = 0x51_7c_c1_b7_27_22_0a_95;
        let mut chunks = bytes.chunks_exact(8);
        for c in &mut chunks {
            let mut w = [0u8; 8];
            w.copy_from_slice(c);
            self.0 = (self.0.rotate_left(5) ^ u64::from_le_bytes(w)).wrapping_mul(K);
        }
        for &b in chunks.remainder() {
            self.0 = (self.0.rotate_left(5) ^ u64::from(b)).wrapping_mul(K);
        }
    }
    fn finish(&self) -> u64 {
        self.0
    }
}

/// The hash of a unit id for [`IdMap`].
fn hash_id(id: &str) -> u64 {
    let mut h = IdHasher::default();
    h.write(id.as_bytes());
    h.finish()
}

/// The whole order of battle, in file order, with indexes by id and parent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OrderOfBattle {
    units: Vec<Unit>,
    // The indexes hold row numbers, never copies of the ids: a large order of battle has
    // hundreds of thousands of rows.
    /// The first row of each id, by the id's hash.
    index: IdMap<u64, usize>,
    /// Rows whose id's hash another id already holds (first row of each such id).
    clashes: Vec<usize>,
    /// Children of row `i`, in file order: `kids[kid_start[i]..kid_start[i + 1]]`.
    kid_start: Vec<usize>,
    kids: Vec<usize>,
    /// Rows whose parent names no row, by that name.
    orphans: BTreeMap<String, Vec<usize>>,
    /// Names of the columns after the known ones, kept for writing back.
    pub extra_columns: Vec<String>,
}

/// Men, guns and squadrons of a subtree.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, serde::Serialize)]
pub struct Strength {
    /// Infantry men.
    pub infantry: u32,
    /// Cavalry men.
    pub cavalry: u32,
    /// Artillery men.
    pub artillery: u32,
    /// Guns.
    pub guns: u32,
    /// Cavalry squadrons.
    pub squadrons: u32,
}

impl Strength {
    /// All men.
    pub fn men(&self) -> u32 {
        self.infantry + self.cavalry + self.artillery
    }
    /// Adds another strength.
    pub fn add(&mut self, o: &Strength) {
        self.infantry += o.infantry;
        self.cavalry += o.cavalry;
        self.artillery += o.artillery;
        self.guns += o.guns;
        self.squadrons += o.squadrons;
    }
}

impl OrderOfBattle {
    /// Builds the indexes over units already checked for unique ids.
    pub fn new(units: Vec<Unit>, extra_columns: Vec<String>) -> Self {
        let mut oob = OrderOfBattle { extra_columns, ..OrderOfBattle::default() };
        oob.index.reserve(units.len());
        for (i, u) in units.iter().enumerate() {
            match oob.index.entry(hash_id(&u.id)) {
                Entry::Vacant(e) => {
                    e.insert(i);
                }
                Entry::Occupied(e) => {
                    let first = *e.get();
                    if units[first].id != u.id && !oob.clashes.iter().any(|&k| units[k].id == u.id) {
                        oob.clashes.push(i);
                    }
                }
            }
        }
        oob.units = units;
        // Children grouped by parent row, in file order (counting sort).
        let parents: Vec<Option<usize>> =
            oob.units.iter().map(|u| u.parent.as_deref().and_then(|p| oob.position(p))).collect();
        let mut start = vec![0usize; oob.units.len() + 1];
        for p in parents.iter().flatten() {
            start[p + 1] += 1;
        }
        for i in 1..start.len() {
            start[i] += start[i - 1];
        }
        let mut next = start.clone();
        let mut kids = vec![0usize; start[oob.units.len()]];
        for (i, p) in parents.iter().enumerate() {
            match p {
                Some(p) => {
                    kids[next[*p]] = i;
                    next[*p] += 1;
                }
                None => {
                    if let Some(name) = &oob.units[i].parent {
                        oob.orphans.entry(name.clone()).or_default().push(i);
                    }
                }
            }
        }
        oob.kid_start = start;
        oob.kids = kids;
        oob
    }

    /// The row number of an id.
    fn position(&self, id: &str) -> Option<usize> {
        match self.index.get(&hash_id(id)) {
            Some(&i) if self.units[i].id == id => Some(i),
            Some(_) => self.clashes.iter().copied().find(|&i| self.units[i].id == id),
            None => None,
        }
    }

    /// Every row, in file order.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// Mutable access to every row; ids and parents must not change through it.
    pub fn units_mut(&mut self) -> &mut [Unit] {
        &mut self.units
    }

    /// The row with an id.
    pub fn get(&self, id: &str) -> Option<&Unit> {
        self.position(id).map(|i| &self.units[i])
    }

    /// Mutable row with an id.
    pub fn get_mut(&mut self, id: &str) -> Option<&mut Unit> {
        self.position(id).map(|i| &mut self.units[i])
    }

    /// Direct children, in file order.
    pub fn children(&self, id: &str) -> impl Iterator<Item = &Unit> {
        let rows: &[usize] = match self.position(id) {
            Some(i) => &self.kids[self.kid_start[i]..self.kid_start[i + 1]],
            None => self.orphans.get(id).map_or(&[], Vec::as_slice),
        };
        rows.iter().map(|&i| &self.units[i])
    }

    /// Top-level forces (rows without a parent), in file order.
    pub fn forces(&self) -> impl Iterator<Item = &Unit> {
        self.units.iter().filter(|u| u.parent.is_none())
    }

    /// The top-level force a row belongs to.
    pub fn force_of(&self, id: &str) -> Option<&Unit> {
        let mut cur = self.get(id)?;
        let mut steps = 0;
        while let Some(p) = &cur.parent {
            cur = self.get(p)?;
            steps += 1;
            if steps > self.units.len() {
                return None;
            }
        }
        Some(cur)
    }

    /// Ancestors from the parent up to the top, nearest first.
    pub fn ancestors(&self, id: &str) -> Vec<&Unit> {
        let mut out = Vec::new();
        let mut cur = self.get(id);
        while let Some(u) = cur {
            match &u.parent {
                Some(p) => {
                    cur = self.get(p);
                    if let Some(pu) = cur {
                        if out.len() > self.units.len() {
                            break;
                        }
                        out.push(pu);
                    }
                }
                None => break,
            }
        }
        out
    }

    /// The row and every row below it, depth first in file order.
    pub fn subtree(&self, id: &str) -> Vec<&Unit> {
        let mut out = Vec::new();
        let Some(root) = self.get(id) else { return out };
        let mut stack = vec![root];
        while let Some(u) = stack.pop() {
            out.push(u);
            if out.len() > self.units.len() {
                break;
            }
            let kids: Vec<&Unit> = self.children(&u.id).collect();
            stack.extend(kids.into_iter().rev());
        }
        out
    }

    /// Units (not formations) of a subtree.
    pub fn units_under(&self, id: &str) -> Vec<&Unit> {
        self.subtree(id).into_iter().filter(|u| u.is_unit()).collect()
    }

    /// Men, guns and squadrons of a subtree.
    pub fn strength(&self, id: &str) -> Strength {
        let mut s = Strength::default();
        for u in self.units_under(id) {
            match u.arm_class() {
                Some(ArmClass::Infantry) => s.infantry += u.men,
                Some(ArmClass::Cavalry) => {
                    s.cavalry += u.men;
                    s.squadrons += u.squadrons;
                }
                Some(ArmClass::Artillery) => {
                    s.artillery += u.men;
                    s.guns += u.guns;
                }
                None => {}
            }
        }
        s
    }

    /// The effective quality of a row: its own, else the nearest ancestor's, else trained.
    pub fn quality_of(&self, id: &str) -> Quality {
        if let Some(q) = self.get(id).and_then(|u| u.quality) {
            return q;
        }
        self.ancestors(id).into_iter().find_map(|a| a.quality).unwrap_or(Quality::Trained)
    }

    /// True when every unit of the subtree is cavalry (a "wholly cavalry force", rule 8.1).
    pub fn wholly_cavalry(&self, id: &str) -> bool {
        let units = self.units_under(id);
        !units.is_empty() && units.iter().all(|u| u.arm_class() == Some(ArmClass::Cavalry))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit(id: &str, parent: Option<&str>, men: u32) -> Unit {
        Unit {
            id: id.to_string(),
            parent: parent.map(str::to_string),
            level: if men == 0 { Level::Brigade } else { Level::Battalion },
            name: id.to_string(),
            commander: None,
            nation: Nation::Fr,
            arm: (men > 0).then_some(Arm::Line),
            men,
            squadrons: 0,
            guns: 0,
            hex: None,
            moving_to: None,
            depot: None,
            supply: Supply::In,
            quality: None,
            ammo: None,
            status: Vec::new(),
            extra: Vec::new(),
        }
    }

    #[test]
    fn the_indexes_find_rows_children_and_strength_in_file_order() {
        let oob = OrderOfBattle::new(
            vec![
                unit("B", None, 0),
                unit("B-2", Some("B"), 400),
                unit("B-1", Some("B"), 500),
                unit("B", None, 0),
                unit("X-1", Some("X"), 300),
            ],
            Vec::new(),
        );
        // A duplicated id is the first row of it; its children are every row naming it.
        assert_eq!(oob.get("B").map(|u| u.id.as_str()), Some("B"));
        let kids: Vec<&str> = oob.children("B").map(|u| u.id.as_str()).collect();
        assert_eq!(kids, ["B-2", "B-1"]);
        assert_eq!(oob.strength("B").infantry, 900);
        // A parent that names no row still lists its children.
        let orphans: Vec<&str> = oob.children("X").map(|u| u.id.as_str()).collect();
        assert_eq!(orphans, ["X-1"]);
        assert!(oob.get("X").is_none());
        assert_eq!(oob.force_of("B-1").map(|u| u.id.as_str()), Some("B"));
    }

    #[test]
    fn ids_whose_hashes_clash_are_still_told_apart() {
        let mut oob = OrderOfBattle::new(vec![unit("A", None, 0), unit("A-1", Some("A"), 100)], Vec::new());
        // Force a clash: both ids under one hash, the second kept in the clash list.
        oob.index.clear();
        oob.index.insert(hash_id("A"), 0);
        oob.index.insert(hash_id("A-1"), 0);
        oob.clashes.push(1);
        assert_eq!(oob.get("A-1").map(|u| u.men), Some(100));
        assert_eq!(oob.get("A").map(|u| u.men), Some(0));
    }
}
