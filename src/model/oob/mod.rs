//! The campaign order of battle: a tree of formations and units read from `forces.csv`.
//! A *force* is a top-level node standing on a hex; its subtree goes down to battalions,
//! cavalry regiments or squadrons, and batteries with their guns.

use std::collections::BTreeMap;
use std::sync::OnceLock;

use super::hex::HexId;
use super::kinds::{ArmClass, Nation, Quality, Side, Supply};

mod build;
mod ids;
#[cfg(test)]
mod tests;
mod unit;

use ids::hash_id;
pub use ids::{IdHasher, IdMap, IdSet};
pub use unit::{Rare, Unit};

/// How a row of the order of battle is named to its queries: by its id (looked up in the
/// index), or by the row itself, as the order of battle handed it out (found without a
/// lookup: a rule walking the forces asks about each one it holds).
pub trait UnitKey: Copy {
    /// The id named.
    fn id(&self) -> &str;
    /// The row in `oob`, if it has one.
    fn row_in(self, oob: &OrderOfBattle) -> Option<usize>;
}

/// An id as text names its row through the index.
macro_rules! id_key {
    ($($t:ty),*) => {$(
        impl UnitKey for &$t {
            fn id(&self) -> &str {
                self
            }
            fn row_in(self, oob: &OrderOfBattle) -> Option<usize> {
                oob.position(self)
            }
        }
    )*};
}

id_key!(str, String, compact_str::CompactString);

impl UnitKey for &Unit {
    fn id(&self) -> &str {
        &self.id
    }
    fn row_in(self, oob: &OrderOfBattle) -> Option<usize> {
        // A row of this order of battle is known by its address; any other by its id.
        let size = std::mem::size_of::<Unit>();
        let off = (self as *const Unit as usize).wrapping_sub(oob.units.as_ptr() as usize);
        match oob.units.get(off / size) {
            Some(u) if std::ptr::eq(u, self) => Some(off / size),
            _ => oob.position(&self.id),
        }
    }
}

impl UnitKey for &&Unit {
    fn id(&self) -> &str {
        &self.id
    }
    fn row_in(self, oob: &OrderOfBattle) -> Option<usize> {
        (*self).row_in(oob)
    }
}

/// What an order of battle keeps beside its rows that does not make two of them differ: they
/// are equal when their rows are, wherever the rows were read and whatever was worked out of
/// them.
#[derive(Debug, Clone, Default)]
struct Aside<T>(T);

impl<T> PartialEq for Aside<T> {
    fn eq(&self, _: &Aside<T>) -> bool {
        true
    }
}

impl<T> Eq for Aside<T> {}

/// The force each row belongs to, and each force's men present, strength, garrison units and
/// place: what every rule that asks about the forces on the map (zones, contacts, garrisons,
/// supply, who fights) asks of each, answered without walking its tree again.
#[derive(Debug, Clone)]
struct Totals {
    /// By row, as [`OrderOfBattle::force_numbers`] gives it.
    force_of_row: Vec<Option<u32>>,
    /// By force (its place among [`OrderOfBattle::forces`]): some unit with men present.
    men: Vec<bool>,
    /// By force: its men, guns and squadrons.
    strength: Vec<Strength>,
    /// By force: what its units count towards a garrison.
    garrison: Vec<GarrisonUnits>,
    /// By force: its side, hex and march, kept together.
    places: Vec<ForcePlace>,
    /// The rows with penalties (most orders of battle have none), in file order.
    with_status: Vec<u32>,
    /// The men of every row, under a force or not.
    all_men: u64,
}

impl Totals {
    /// Nothing counted yet, for `forces` forces and room for `rows` rows.
    fn for_forces(forces: usize, rows: usize) -> Totals {
        Totals {
            force_of_row: Vec::with_capacity(rows),
            men: vec![false; forces],
            strength: vec![Strength::default(); forces],
            garrison: vec![GarrisonUnits::default(); forces],
            places: vec![ForcePlace::default(); forces],
            with_status: Vec::new(),
            all_men: 0,
        }
    }

    /// The next row, in file order, counted for the force it belongs to (`None`: none).
    fn add_row(&mut self, u: &Unit, force: Option<u32>) {
        self.all_men += u64::from(u.men);
        if !u.status().is_empty() {
            self.with_status.push(self.force_of_row.len() as u32);
        }
        if let Some(k) = force
            && u.parent.is_none()
        {
            self.places[k as usize] = ForcePlace { side: u.side(), hex: u.hex, moving_to: u.moving_to };
        }
        if let Some(k) = force
            && u.is_unit()
        {
            self.men[k as usize] |= u.has_men();
            self.strength[k as usize].add(&Strength::of_row(u));
            self.garrison[k as usize].add(u);
        }
        self.force_of_row.push(force);
    }

    /// A new force's place, counted from nothing.
    fn push_force(&mut self) {
        self.men.push(false);
        self.strength.push(Strength::default());
        self.garrison.push(GarrisonUnits::default());
        self.places.push(ForcePlace::default());
    }
}

/// A force's side, the hex it stands in and the hex it marches to: what the rules ask of every
/// force on the map (zones, contacts, garrisons, the roads a side knows), kept together by
/// force, where the forces' own rows lie far apart among their units'.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ForcePlace {
    /// Its side.
    pub side: Side,
    /// [`Unit::hex`].
    pub hex: Option<HexId>,
    /// [`Unit::moving_to`].
    pub moving_to: Option<HexId>,
}

impl Default for ForcePlace {
    fn default() -> Self {
        ForcePlace { side: Side::French, hex: None, moving_to: None }
    }
}

/// What a force's units count towards a garrison ([`Unit::garrison_units`], 2.1.1), by
/// nation: every unit with men present, whether out of action or not (the rows with
/// penalties are [`OrderOfBattle::rows_with_status`]).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct GarrisonUnits {
    /// Battalions and dragoon squadrons, by nation in [`Nation::ALL`] order.
    pub by_nation: [(u32, u32); Nation::ALL.len()],
}

impl GarrisonUnits {
    /// Counts one row's.
    fn add(&mut self, u: &Unit) {
        let (b, s) = u.garrison_units();
        let k = &mut self.by_nation[u.nation as usize];
        k.0 = k.0.saturating_add(b);
        k.1 = k.1.saturating_add(s);
    }
    /// Infantry battalions, of every nation.
    pub fn battalions(&self) -> u32 {
        self.by_nation.iter().fold(0, |a, k| a.saturating_add(k.0))
    }
    /// Dragoon squadrons, of every nation.
    pub fn squadrons(&self) -> u32 {
        self.by_nation.iter().fold(0, |a, k| a.saturating_add(k.1))
    }
    /// Units (battalions and squadrons) by nation, in [`Nation::ALL`] order.
    pub fn units_by_nation(&self) -> [u32; Nation::ALL.len()] {
        self.by_nation.map(|(b, s)| b.saturating_add(s))
    }
}

/// The whole order of battle, in file order, with indexes by id and parent.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct OrderOfBattle {
    units: Vec<Unit>,
    // The indexes hold row numbers, never copies of the ids: a large order of battle has
    // hundreds of thousands of rows.
    /// The first row of each id, by the id's hash.
    index: IdMap<u32, u32>,
    /// Rows whose id's hash another id already holds (first row of each such id).
    clashes: Vec<u32>,
    /// Rows whose id an earlier row already has, with that earlier row (an error that
    /// validation reports).
    duplicates: Vec<(usize, usize)>,
    /// The row of each row's parent (`NO_ROW` for a top-level force or an unknown parent).
    parent_rows: Vec<u32>,
    /// Rows without a parent (the top-level forces), in file order.
    tops: Vec<u32>,
    /// Children of row `i`, in file order: `kids[kid_start[i]..kid_start[i + 1]]`.
    kid_start: Vec<u32>,
    kids: Vec<u32>,
    /// Rows whose parent names no row, by that name.
    orphans: BTreeMap<String, Vec<u32>>,
    /// The line of `forces.csv` each row was read from, while the rows are those read.
    lines: Aside<Vec<u32>>,
    /// Names of the columns after the known ones, kept for writing back.
    pub extra_columns: Vec<String>,
    /// Each force's men present, strength, garrison units and place, and the rows with
    /// penalties ([`Totals`]): summed while the index is built or worked out on first asking,
    /// and forgotten whenever a row may change ([`Self::units_mut`], [`Self::get_mut`]).
    derived: Aside<OnceLock<Totals>>,
}

/// No row: a top-level force's parent.
const NO_ROW: u32 = u32::MAX;

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
        self.infantry.saturating_add(self.cavalry).saturating_add(self.artillery)
    }
    /// One row's own: a unit's men (and guns, squadrons) by its arm; none for a formation.
    pub fn of_row(u: &Unit) -> Strength {
        let mut s = Strength::default();
        if !u.is_unit() {
            return s;
        }
        match u.arm_class() {
            Some(ArmClass::Infantry) => s.infantry = u.men,
            Some(ArmClass::Cavalry) => {
                s.cavalry = u.men;
                s.squadrons = u.squadrons;
            }
            Some(ArmClass::Artillery) => {
                s.artillery = u.men;
                s.guns = u.guns;
            }
            None => {}
        }
        s
    }
    /// Adds another strength. The order of battle is summed as it is read, before it is
    /// refused for counting more men than any campaign can hold: a sum past 2^32 stays at the
    /// most, never wraps.
    pub fn add(&mut self, o: &Strength) {
        self.infantry = self.infantry.saturating_add(o.infantry);
        self.cavalry = self.cavalry.saturating_add(o.cavalry);
        self.artillery = self.artillery.saturating_add(o.artillery);
        self.guns = self.guns.saturating_add(o.guns);
        self.squadrons = self.squadrons.saturating_add(o.squadrons);
    }
}

impl OrderOfBattle {
    /// The row number of an id.
    fn position(&self, id: &str) -> Option<usize> {
        match self.index.get(&hash_id(id)) {
            Some(&i) if self.units[i as usize].id == id => Some(i as usize),
            Some(_) => self.clashes.iter().map(|&i| i as usize).find(|&i| self.units[i].id == id),
            None => None,
        }
    }

    /// The order of battle with the line of `forces.csv` each row was read from (`lines` in
    /// row order; ignored unless there is one per row).
    pub fn with_lines(mut self, lines: Vec<u32>) -> Self {
        if lines.len() == self.units.len() {
            self.lines = Aside(lines);
        }
        self
    }

    /// The line of `forces.csv` each row was read from, in row order (empty for an order of
    /// battle not read from a file, or rebuilt since).
    pub fn source_lines(&self) -> &[u32] {
        &self.lines.0
    }

    /// The line of `forces.csv` a row was read from, if known.
    pub fn line_of(&self, id: impl UnitKey) -> Option<u64> {
        id.row_in(self).and_then(|i| self.lines.0.get(i)).map(|&l| u64::from(l))
    }

    /// The row of row `i`'s parent: `None` for a top-level force or an unknown parent.
    pub fn parent_row(&self, i: usize) -> Option<usize> {
        self.parent_rows.get(i).copied().filter(|&p| p != NO_ROW).map(|p| p as usize)
    }

    /// The force each row belongs to, by row, as its place among [`Self::forces`]: the rows
    /// a walk from each force visits. `None` for a row under no force (its parent names no
    /// row, or its rows loop).
    pub fn force_numbers(&self) -> &[Option<u32>] {
        &self.totals().force_of_row
    }

    /// The totals, worked out on first asking (unless the building of the indexes summed them
    /// on its way): one pass over the rows in file order, each unit counted for the force it
    /// belongs to.
    fn totals(&self) -> &Totals {
        self.derived.0.get_or_init(|| {
            let force_of_row = self.rows_forces();
            let mut t = Totals::for_forces(self.tops.len(), force_of_row.len());
            for (u, k) in self.units.iter().zip(force_of_row) {
                t.add_row(u, k);
            }
            t
        })
    }

    /// What each force's units count towards a garrison, by force (its place among
    /// [`Self::forces`]).
    pub fn garrison_units(&self) -> &[GarrisonUnits] {
        &self.totals().garrison
    }

    /// Each force's side, hex and march, by force (its place among [`Self::forces`]).
    pub fn force_places(&self) -> &[ForcePlace] {
        &self.totals().places
    }

    /// Whether each force has a unit with men present, by force ([`Self::has_men`]).
    pub fn forces_with_men(&self) -> &[bool] {
        &self.totals().men
    }

    /// The force in place `k` among [`Self::forces`].
    pub fn force(&self, k: usize) -> &Unit {
        &self.units[self.tops[k] as usize]
    }

    /// The rows with penalties, in file order (most orders of battle have none).
    pub fn rows_with_status(&self) -> impl Iterator<Item = &Unit> {
        self.totals().with_status.iter().map(|&i| &self.units[i as usize])
    }

    /// The men of every row, under a force or not (what the order of battle counts in all).
    pub fn total_men(&self) -> u64 {
        self.totals().all_men
    }

    /// The place among [`Self::forces`] of row `i`, when it is a top-level force.
    fn force_number(&self, i: usize) -> Option<usize> {
        if self.units[i].parent.is_some() {
            return None;
        }
        self.totals().force_of_row[i].map(|k| k as usize)
    }

    /// [`Self::force_numbers`] worked out: each row's parent followed up to its force.
    fn rows_forces(&self) -> Vec<Option<u32>> {
        let n = self.units.len();
        let mut top: Vec<Option<u32>> = Vec::with_capacity(n);
        for i in 0..n {
            let (mut cur, mut steps) = (i, 0);
            let found = loop {
                let p = self.parent_rows[cur];
                if p == NO_ROW {
                    let top = self.units[cur].parent.is_none();
                    break top
                        .then(|| self.tops.binary_search(&(cur as u32)).ok())
                        .flatten()
                        .map(|k| k as u32);
                }
                // A row before this one is settled already (a parent mostly comes first).
                if (p as usize) < i {
                    break top[p as usize];
                }
                // A row after this one: followed up, never more steps than there are rows.
                cur = p as usize;
                steps += 1;
                if steps > n {
                    break None;
                }
            };
            top.push(found);
        }
        top
    }

    /// Rows whose id an earlier row already has, each with the first row of that id.
    pub fn duplicates(&self) -> &[(usize, usize)] {
        &self.duplicates
    }

    /// Every row, in file order.
    pub fn units(&self) -> &[Unit] {
        &self.units
    }

    /// Mutable access to every row; ids and parents must not change through it.
    pub fn units_mut(&mut self) -> &mut [Unit] {
        self.derived.0.take();
        &mut self.units
    }

    /// The row with an id.
    pub fn get(&self, id: &str) -> Option<&Unit> {
        self.position(id).map(|i| &self.units[i])
    }

    /// Mutable row with an id.
    pub fn get_mut(&mut self, id: &str) -> Option<&mut Unit> {
        self.derived.0.take();
        self.position(id).map(|i| &mut self.units[i])
    }

    /// Sets the supply state of the rows named, each found by its id. Men and strength,
    /// which supply does not change, stay worked out.
    pub fn set_supply<'s>(&mut self, states: impl IntoIterator<Item = (&'s str, Supply)>) {
        for (id, state) in states {
            if let Some(i) = self.position(id) {
                self.units[i].supply = state;
            }
        }
    }

    /// Direct children, in file order.
    pub fn children(&self, id: impl UnitKey) -> impl Iterator<Item = &Unit> {
        let rows: &[u32] = match id.row_in(self) {
            Some(i) => &self.kids[self.kid_start[i] as usize..self.kid_start[i + 1] as usize],
            None => self.orphans.get(id.id()).map_or(&[], Vec::as_slice),
        };
        rows.iter().map(|&i| &self.units[i as usize])
    }

    /// Top-level forces (rows without a parent), in file order.
    pub fn forces(&self) -> impl ExactSizeIterator<Item = &Unit> {
        self.tops.iter().map(|&i| &self.units[i as usize])
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
    pub fn subtree(&self, id: impl UnitKey) -> Vec<&Unit> {
        self.walk(id).collect()
    }

    /// The rows of a subtree in the order of [`OrderOfBattle::subtree`], one at a time: walked
    /// by row number, no lookup by id below the root and nothing gathered (for what asks one
    /// thing of each row and may stop at the first that answers).
    pub fn walk(&self, id: impl UnitKey) -> impl Iterator<Item = &Unit> {
        let mut stack = Vec::with_capacity(16);
        stack.extend(id.row_in(self));
        Walk { oob: self, stack, left: self.units.len() + 1 }
    }

    /// [`Self::walk`] from row `i`.
    fn walk_row(&self, i: usize) -> Walk<'_> {
        let mut stack = Vec::with_capacity(16);
        stack.push(i);
        Walk { oob: self, stack, left: self.units.len() + 1 }
    }

    /// Units (not formations) of a subtree.
    pub fn units_under(&self, id: impl UnitKey) -> Vec<&Unit> {
        self.walk(id).filter(|u| u.is_unit()).collect()
    }

    /// Men, guns and squadrons of a subtree.
    pub fn strength(&self, id: impl UnitKey) -> Strength {
        let Some(i) = id.row_in(self) else { return Strength::default() };
        if let Some(k) = self.force_number(i) {
            return self.totals().strength[k];
        }
        let mut s = Strength::default();
        for u in self.walk_row(i) {
            s.add(&Strength::of_row(u));
        }
        s
    }

    /// True when some unit of the subtree has men present ([`Unit::has_men`]). A force
    /// without (every unit of it reduced to 0 men, its returns still to come) stays in the
    /// order of battle but is not on the field: it exerts no zone of control, makes no
    /// contact and holds no settlement.
    pub fn has_men(&self, id: impl UnitKey) -> bool {
        let Some(i) = id.row_in(self) else { return false };
        match self.force_number(i) {
            Some(k) => self.totals().men[k],
            None => self.walk_row(i).any(Unit::has_men),
        }
    }

    /// The effective quality of a row: its own, else the nearest ancestor's, else trained.
    pub fn quality_of(&self, id: &str) -> Quality {
        if let Some(q) = self.get(id).and_then(|u| u.quality) {
            return q;
        }
        self.ancestors(id).into_iter().find_map(|a| a.quality).unwrap_or(Quality::Trained)
    }

    /// True when every unit of the subtree is cavalry (a "wholly cavalry force", rule 8.1).
    pub fn wholly_cavalry(&self, id: impl UnitKey) -> bool {
        let mut units = self.walk(id).filter(|u| u.is_unit()).peekable();
        units.peek().is_some() && units.all(|u| u.arm_class() == Some(ArmClass::Cavalry))
    }
}

/// A walk of a subtree, depth first in file order ([`OrderOfBattle::subtree`]); it stops after
/// one row more than the order of battle holds, should the rows ever loop.
struct Walk<'a> {
    oob: &'a OrderOfBattle,
    stack: Vec<usize>,
    left: usize,
}

impl<'a> Iterator for Walk<'a> {
    type Item = &'a Unit;

    fn next(&mut self) -> Option<&'a Unit> {
        if self.left == 0 {
            return None;
        }
        let i = self.stack.pop()?;
        self.left -= 1;
        let o = self.oob;
        let kids = &o.kids[o.kid_start[i] as usize..o.kid_start[i + 1] as usize];
        self.stack.extend(kids.iter().rev().map(|&k| k as usize));
        Some(&o.units[i])
    }
}
