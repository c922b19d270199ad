//! The campaign order of battle: a tree of formations and units read from `forces.csv`.
//! A *force* is a top-level node standing on a hex; its subtree goes down to battalions,
//! cavalry regiments or squadrons, and batteries with their guns.

use std::collections::HashMap;
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

/// The whole order of battle, in file order, with indexes by id and parent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OrderOfBattle {
    units: Vec<Unit>,
    // Hash maps: they are only looked up, never walked, so their order reaches no output;
    // a large order of battle has hundreds of thousands of ids.
    index: IdMap<String, usize>,
    children: IdMap<String, Vec<usize>>,
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
        let mut index = IdMap::with_capacity_and_hasher(units.len(), Default::default());
        let mut children: IdMap<String, Vec<usize>> = IdMap::default();
        for (i, u) in units.iter().enumerate() {
            index.entry(u.id.clone()).or_insert(i);
            if let Some(p) = &u.parent {
                children.entry(p.clone()).or_default().push(i);
            }
        }
        OrderOfBattle { units, index, children, extra_columns }
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
        self.index.get(id).map(|&i| &self.units[i])
    }

    /// Mutable row with an id.
    pub fn get_mut(&mut self, id: &str) -> Option<&mut Unit> {
        self.index.get(id).map(|&i| &mut self.units[i])
    }

    /// Direct children, in file order.
    pub fn children(&self, id: &str) -> impl Iterator<Item = &Unit> {
        self.children.get(id).into_iter().flatten().map(|&i| &self.units[i])
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
