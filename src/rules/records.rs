//! Commanders' battle records (rule 8.5): "for each battle that commander has previously
//! fought" and "won". A general has fought a battle when a formation he commands had units in
//! it, or was the light-cavalry reserve (8.7) kept back for it.

use std::collections::{BTreeSet, HashSet};

use crate::model::battle::BattleRecord;
use crate::model::{OrderOfBattle, Side};

/// The named generals who fought battle `b` (8.5), with their side: the commander of every
/// formation above, or being, a unit that was exported into the battle or that belongs to a
/// reserve (8.7). A general whose formations all stayed out (unavailable under 6.5.2.4, or
/// excluded) has not fought it.
pub fn generals_who_fought(oob: &OrderOfBattle, b: &BattleRecord) -> BTreeSet<(String, Side)> {
    let mut took_part: HashSet<&str> = b.units.iter().map(|u| u.unit.as_str()).collect();
    for r in &b.reserves {
        took_part.extend(oob.subtree(&r.unit).into_iter().map(|u| u.id.as_str()));
    }
    let mut out = BTreeSet::new();
    for id in &took_part {
        let Some(u) = oob.get(id) else { continue };
        let mut chain = oob.ancestors(id);
        chain.push(u);
        for f in chain {
            if let Some(cmd) = f.commander() {
                out.insert((cmd.to_string(), f.side()));
            }
        }
    }
    out
}
