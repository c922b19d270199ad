//! Building the order of battle's indexes from its rows: the first row of each id, and the
//! parent and children of each row.

use std::collections::hash_map::Entry;
use std::sync::OnceLock;

use super::ids::hash_id;
use super::{Aside, NO_ROW, OrderOfBattle, Totals, Unit};

impl OrderOfBattle {
    /// Builds the indexes. The units need not be valid: a duplicated id finds its first
    /// row and is listed in [`OrderOfBattle::duplicates`]; a parent that names no row makes
    /// an orphan; a cycle is left for validation to find.
    pub fn new(units: Vec<Unit>, extra_columns: Vec<String>) -> Self {
        assert!(units.len() < NO_ROW as usize, "an order of battle of more than 4 billion rows");
        let n = units.len();
        let mut oob = OrderOfBattle { units, extra_columns, ..OrderOfBattle::default() };
        oob.index.reserve(n);
        // One pass over the rows: each id goes into the index, and each row's parent is
        // found among the rows before it. Rows come in tree order, so a parent is mostly
        // the row before or that row's parent, found without a lookup; one listed further
        // down is looked up once every id is in. (Building the index on one thread and
        // finding the parents on another was slower: both read every row.)
        let mut parent_rows = vec![NO_ROW; n];
        let mut later = Vec::new();
        let mut prev_is_first = false;
        // Each row is counted for its force while it is at hand (the forces' men and
        // strength, `Totals`), as long as every parent comes before its children: a top-level
        // force is the next of the forces, any other row belongs to its parent's force.
        // Otherwise the totals are worked out when first asked for.
        let mut totals = Some(Totals::for_forces(0, n));
        for i in 0..n {
            let is_first = oob.index_row(i);
            let Some(name) = &oob.units[i].parent else {
                if let Some(t) = &mut totals {
                    t.push_force();
                    t.add_row(&oob.units[i], Some(oob.tops.len() as u32));
                }
                oob.tops.push(i as u32);
                prev_is_first = is_first;
                continue;
            };
            let found = match i.checked_sub(1) {
                Some(k) if parent_rows[k] != NO_ROW && oob.units[k].parent.as_ref() == Some(name) => {
                    Some(parent_rows[k] as usize)
                }
                Some(k) if prev_is_first && oob.units[k].id == *name => Some(k),
                _ => oob.position(name),
            };
            match found {
                Some(p) => parent_rows[i] = p as u32,
                None => later.push(i),
            }
            totals = totals.filter(|_| found.is_some_and(|p| p < i));
            if let Some(t) = &mut totals {
                let force = t.force_of_row[parent_rows[i] as usize];
                t.add_row(&oob.units[i], force);
            }
            prev_is_first = is_first;
        }
        if let Some(t) = totals {
            oob.derived = Aside(OnceLock::from(t));
        }
        for i in later {
            let Some(name) = &oob.units[i].parent else { continue };
            match oob.position(name) {
                Some(p) => parent_rows[i] = p as u32,
                None => oob.orphans.entry(name.to_string()).or_default().push(i as u32),
            }
        }
        let (kid_start, kids) = children(&parent_rows);
        oob.parent_rows = parent_rows;
        oob.kid_start = kid_start;
        oob.kids = kids;
        oob
    }

    /// Puts row `i`'s id in the index; true when it is the first row of its id (a later one
    /// is listed as a duplicate of the first).
    fn index_row(&mut self, i: usize) -> bool {
        let id = &self.units[i].id;
        match self.index.entry(hash_id(id)) {
            Entry::Vacant(e) => {
                e.insert(i as u32);
                true
            }
            Entry::Occupied(e) => {
                let first = *e.get() as usize;
                if self.units[first].id == *id {
                    self.duplicates.push((i, first));
                    false
                } else if let Some(&k) = self.clashes.iter().find(|&&k| self.units[k as usize].id == *id) {
                    self.duplicates.push((i, k as usize));
                    false
                } else {
                    self.clashes.push(i as u32);
                    true
                }
            }
        }
    }
}

/// Children grouped by parent row, in file order (counting sort): the children of row `p`
/// are `kids[kid_start[p]..kid_start[p + 1]]`.
fn children(parent_rows: &[u32]) -> (Vec<u32>, Vec<u32>) {
    let n = parent_rows.len();
    let mut start = vec![0u32; n + 1];
    for &p in parent_rows.iter().filter(|&&p| p != NO_ROW) {
        start[p as usize + 1] += 1;
    }
    for i in 1..start.len() {
        start[i] += start[i - 1];
    }
    // `start[p + 1]` is where parent `p`'s children end; the rows, taken from the last, fill
    // each parent's children from its end back, leaving `start[p + 1]` where they begin.
    let mut kids = vec![0u32; start[n] as usize];
    for (i, &p) in parent_rows.iter().enumerate().rev() {
        if p != NO_ROW {
            let at = &mut start[p as usize + 1];
            *at -= 1;
            kids[*at as usize] = i as u32;
        }
    }
    // Each parent's beginning is now one place on: back in place, with the end of all.
    start.copy_within(1.., 0);
    start[n] = kids.len() as u32;
    (start, kids)
}
