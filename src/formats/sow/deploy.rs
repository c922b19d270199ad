//! Positions on the battle map. Each force has an anchor (a point and the bearing it faces);
//! its brigades stand in lines across that bearing, their battalions and guns side by side,
//! commanders behind. Coordinates follow the profile's axis convention: `loc x` grows to the
//! map's south, `loc z` to its east, from the corner; the world is multiplier × 8 units.

use std::collections::BTreeMap;

use crate::model::battle::RowKind;
use crate::model::vocabulary::SowLevel;

use super::oob::SowRow;

/// Where a force deploys.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Anchor {
    /// Point (loc x, loc z).
    pub at: (f64, f64),
    /// Bearing the force faces, degrees clockwise from the map's north.
    pub facing: f64,
    /// A second point for every other brigade (rule 8.2: across the line of retreat).
    pub second: Option<(f64, f64)>,
}

/// Unit vector of a bearing in (x = south, z = east).
pub fn heading(bearing: f64) -> (f64, f64) {
    let r = bearing.to_radians();
    (-r.cos(), r.sin())
}

/// The point at a fraction of the half-width from the map's centre along a bearing.
pub fn point_at(world: f64, bearing: f64, frac: f64) -> (f64, f64) {
    let (hx, hz) = heading(bearing);
    let half = world / 2.0;
    (half + hx * half * frac, half + hz * half * frac)
}

/// Bearing from one map point to another.
pub fn bearing_between(from: (f64, f64), to: (f64, f64)) -> f64 {
    let (dx, dz) = (to.0 - from.0, to.1 - from.1);
    if dx.abs() < 1e-9 && dz.abs() < 1e-9 {
        return 0.0;
    }
    (dz.atan2(-dx).to_degrees() + 360.0) % 360.0
}

/// Places every row: each force on its anchor; side and army rows and couriers behind the
/// side's first force.
pub fn deploy(rows: &mut [SowRow], anchors: &BTreeMap<String, Anchor>, world: f64, units_per_yard: f64) {
    let yd = units_per_yard;
    let frontage = 0.6 * world;
    let spacing = 400.0 * yd;
    // Groups (level-5 rows) per force, to lay out the lines.
    let mut groups: BTreeMap<String, usize> = BTreeMap::new();
    for r in rows.iter() {
        if r.level == SowLevel::Brigade {
            *groups.entry(r.force.clone()).or_default() += 1;
        }
    }
    let mut side_anchor: BTreeMap<u8, Anchor> = BTreeMap::new();
    for r in rows.iter() {
        if let Some(a) = anchors.get(&r.force) {
            side_anchor.entry(r.chain.side()).or_insert(*a);
        }
    }
    let mut group_no: BTreeMap<String, usize> = BTreeMap::new();
    let mut current: Option<((f64, f64), f64, usize, usize)> = None; // group centre, facing, index in group, size
    let mut group_sizes: Vec<usize> = Vec::new();
    // Size of each group: the level-6 rows after each level-5 row.
    let mut count = 0usize;
    for r in rows.iter().rev() {
        match r.level {
            SowLevel::Unit | SowLevel::Gun => count += 1,
            SowLevel::Brigade => {
                group_sizes.push(count);
                count = 0;
            }
            _ => count = 0,
        }
    }
    group_sizes.reverse();
    let mut gi = 0usize;
    for r in rows.iter_mut() {
        let anchor = anchors.get(&r.force).copied().or_else(|| side_anchor.get(&r.chain.side()).copied());
        let Some(a) = anchor else { continue };
        let (fx, fz) = heading(a.facing);
        let (lx, lz) = heading(a.facing + 90.0);
        let place = |base: (f64, f64), lateral: f64, back: f64| {
            let x = base.0 + lx * lateral - fx * back;
            let z = base.1 + lz * lateral - fz * back;
            (x.clamp(0.02 * world, 0.98 * world), z.clamp(0.02 * world, 0.98 * world))
        };
        r.dir = (fx, fz);
        match r.level {
            SowLevel::Brigade => {
                let n = groups.get(&r.force).copied().unwrap_or(1).max(1);
                let k = {
                    let e = group_no.entry(r.force.clone()).or_default();
                    *e += 1;
                    *e - 1
                };
                let base = match a.second {
                    Some(p) if k % 2 == 1 => p,
                    _ => a.at,
                };
                let (k, n) = if a.second.is_some() { (k / 2, n.div_ceil(2)) } else { (k, n) };
                let per_line = ((frontage / spacing).floor() as usize).max(1);
                let line = k / per_line;
                let in_line = (n - line * per_line).min(per_line);
                let pos = k % per_line;
                let lateral = (pos as f64 - (in_line as f64 - 1.0) / 2.0) * spacing;
                let back = line as f64 * 350.0 * yd;
                let centre = place(base, lateral, back);
                r.loc = place(centre, 0.0, 80.0 * yd);
                let size = group_sizes.get(gi).copied().unwrap_or(0);
                gi += 1;
                current = Some((centre, a.facing, 0, size));
            }
            SowLevel::Unit | SowLevel::Gun => {
                if let Some((centre, _, idx, size)) = current.as_mut() {
                    let step = spacing / (*size as f64).max(1.0);
                    let lateral = (*idx as f64 - (*size as f64 - 1.0) / 2.0) * step;
                    *idx += 1;
                    r.loc = place(*centre, lateral, 0.0);
                } else {
                    r.loc = place(a.at, 0.0, 0.0);
                }
            }
            SowLevel::Division => {
                r.loc = place(a.at, 0.0, if r.kind == RowKind::Wagon { 900.0 } else { 400.0 } * yd)
            }
            SowLevel::Corps | SowLevel::Courier => r.loc = place(a.at, 0.0, 600.0 * yd),
            SowLevel::Army | SowLevel::Side => r.loc = place(a.at, 0.0, 750.0 * yd),
            SowLevel::Wagon => r.loc = place(a.at, 0.0, 900.0 * yd),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bearings_and_points_agree() {
        let w = 131072.0;
        let north = point_at(w, 0.0, 1.0);
        assert!((north.0 - 0.0).abs() < 1e-6 && (north.1 - w / 2.0).abs() < 1e-6);
        let east = point_at(w, 90.0, 1.0);
        assert!((east.1 - w).abs() < 1e-6);
        assert!((bearing_between((w / 2.0, w / 2.0), east) - 90.0).abs() < 1e-9);
        assert!((bearing_between((w / 2.0, w / 2.0), point_at(w, 225.0, 0.5)) - 225.0).abs() < 1e-9);
    }
}
