//! The battle picture's SoW map: the square of the battle map, its edges, campaign north on
//! it (the map is turned by its orientation, 8.4), the objectives at their places and each
//! force's arrow to the edge it deploys toward or enters by, kept apart along an edge.

use std::collections::BTreeMap;

use super::{ARROW, BATTLE_MARK, BattleScene, COUNTER, SQUARE, TOP};
use crate::formats::svg::{Canvas, Frame, num, palette, symbols};
use crate::model::Side;
use crate::model::battle::Role;

/// Where a ray from the square's centre at a map bearing leaves the square.
fn on_square(centre: (f64, f64), bearing: f64) -> (f64, f64) {
    let b = bearing.to_radians();
    let (s, c) = (b.sin(), -b.cos());
    let t = (SQUARE / 2.0) / s.abs().max(c.abs());
    (centre.0 + s * t, centre.1 + c * t)
}

/// Least distance between two arrows' tips on one edge, so that their labels stay apart.
const TIP_SPACING: f64 = 64.0;

/// The tip of each force's arrow on the square: where its map bearing (`(key, bearing)`)
/// leaves the square, moved along the edge where two would come closer than
/// [`TIP_SPACING`]. The values are the tip and the bearing.
fn arrow_tips(bearings: &[(usize, f64)], centre: (f64, f64)) -> BTreeMap<usize, (f64, f64, f64)> {
    let half = SQUARE / 2.0;
    // (edge, position along it, participant, bearing): the edge by where the ray leaves.
    let mut on_edge: BTreeMap<u8, Vec<(f64, usize, f64)>> = BTreeMap::new();
    for &(i, mb) in bearings {
        let (x, y) = on_square(centre, mb);
        let (edge, along) = if (y - (centre.1 - half)).abs() < 1e-6 {
            (0, x)
        } else if (x - (centre.0 + half)).abs() < 1e-6 {
            (1, y)
        } else if (y - (centre.1 + half)).abs() < 1e-6 {
            (2, x)
        } else {
            (3, y)
        };
        on_edge.entry(edge).or_default().push((along, i, mb));
    }
    let mut out = BTreeMap::new();
    for (edge, mut tips) in on_edge {
        tips.sort_by(|a, b| a.0.total_cmp(&b.0).then(a.1.cmp(&b.1)));
        let (lo, hi) = if edge % 2 == 0 {
            (centre.0 - half, centre.0 + half)
        } else {
            (centre.1 - half, centre.1 + half)
        };
        let (lo, hi) = (lo + 12.0, hi - 12.0);
        let mut pos: Vec<f64> = Vec::with_capacity(tips.len());
        for t in &tips {
            let p = match pos.last() {
                Some(&prev) => t.0.max(prev + TIP_SPACING),
                None => t.0.max(lo),
            };
            pos.push(p);
        }
        // Pushed past the far end: the whole row moves back.
        if let Some(&last) = pos.last()
            && last > hi
        {
            let back = last - hi;
            for p in &mut pos {
                *p = (*p - back).max(lo);
            }
        }
        for (t, p) in tips.iter().zip(pos) {
            let at = match edge {
                0 => (p, centre.1 - half),
                1 => (centre.0 + half, p),
                2 => (p, centre.1 + half),
                _ => (centre.0 - half, p),
            };
            out.insert(t.1, (at.0, at.1, t.2));
        }
    }
    out
}

/// The SoW battle map: its square, campaign north, the objectives and each force's arrow.
pub(super) fn sow_map(cv: &mut Canvas, scene: &BattleScene<'_>, at: (f64, f64)) {
    let r = scene.record;
    let centre = (at.0 + SQUARE / 2.0, at.1 + SQUARE / 2.0);
    let head = format!("SoW map {} at {}°", r.map.id, r.map.orientation);
    cv.plain((at.0 - ARROW - 40.0, TOP), 12.0, "start", true, palette::INK, &head);
    let (x, y, s) = (num(at.0), num(at.1), num(SQUARE));
    cv.empty(
        "rect",
        &[
            ("id", "sow-map"),
            ("x", &x),
            ("y", &y),
            ("width", &s),
            ("height", &s),
            ("fill", "#eef2e0"),
            ("stroke", "#333333"),
            ("stroke-width", "2"),
        ],
    );
    // The edges' names inside the square, where no arrow reaches.
    for (edge, p, anchor) in [
        ("N edge", (centre.0, at.1 + 16.0), "middle"),
        ("E edge", (at.0 + SQUARE - 8.0, centre.1 - 6.0), "end"),
        ("S edge", (centre.0, at.1 + SQUARE - 8.0), "middle"),
        ("W edge", (at.0 + 8.0, centre.1 - 6.0), "start"),
    ] {
        cv.plain(p, 11.0, anchor, true, "#777777", edge);
    }
    // Campaign north on the SoW map: a campaign bearing b lies at b + orientation (8.4).
    let north = f64::from(r.map.orientation);
    let base = (at.0 + SQUARE - 40.0, at.1 + SQUARE - 52.0);
    cv.circle(base, 24.0, &[("fill", "#ffffff"), ("stroke", "#777777"), ("stroke-width", "1")]);
    symbols::arrow(
        cv,
        Frame::toward(base, north + 180.0, 18.0),
        Frame::toward(base, north, 20.0),
        "#333333",
        2.0,
        false,
    );
    cv.plain((base.0, base.1 + 38.0), 9.5, "middle", false, "#333333", "campaign north");
    // Objectives, at their places on the SoW map (x south, z east).
    cv.open("g", &[("id", "objectives")]);
    for o in &r.objectives {
        let p = (at.0 + o.at.1 / scene.world * SQUARE, at.1 + o.at.0 / scene.world * SQUARE);
        let size = if o.major { 11.0 } else { 7.0 };
        let star: Vec<(f64, f64)> = (0..10)
            .map(|i| Frame::toward(p, 36.0 * f64::from(i), if i % 2 == 0 { size } else { size * 0.45 }))
            .collect();
        cv.polygon(&star, &[("fill", BATTLE_MARK), ("stroke", "#6b4e00"), ("stroke-width", "1")]);
        let what = if o.major { "major objective" } else { "objective" };
        cv.label(
            (p.0, p.1 + size + 12.0),
            11.0,
            "middle",
            true,
            palette::INK,
            &format!("{} ({what})", o.name),
        );
    }
    cv.close();
    // Each force: an arrow to the edge it enters by or deploys toward; those of the battle
    // hex by the objective.
    cv.open("g", &[("id", "entries")]);
    let mut inside = 0.0;
    let bearings: Vec<(usize, f64)> = r
        .participants
        .iter()
        .enumerate()
        .filter_map(|(i, p)| p.bearing.map(|b| (i, (b + f64::from(r.map.orientation)) % 360.0)))
        .collect();
    let tips = arrow_tips(&bearings, centre);
    for (i, p) in r.participants.iter().enumerate() {
        let colour = palette::side(p.side);
        let Some(&(tx, ty, mb)) = tips.get(&i) else {
            let c = (centre.0 + if p.side == Side::French { -40.0 } else { 40.0 }, centre.1 + 34.0 + inside);
            inside += 6.0;
            cv.open("g", &[("data-entry", &p.force), ("data-edge", "centre")]);
            symbols::counter(cv, c, COUNTER, colour, &p.force);
            cv.close();
            continue;
        };
        let tip = (tx, ty);
        let tail = Frame::toward(tip, mb, ARROW);
        let tip_attr = format!("{},{}", num(tip.0), num(tip.1));
        cv.open("g", &[("data-entry", &p.force), ("data-edge", &p.edge), ("data-tip", &tip_attr)]);
        symbols::arrow(cv, tail, tip, colour, 3.0, p.role == Role::Joiner);
        let when = match p.role {
            Role::Joiner => format!("+{} min", p.delay_minutes),
            Role::Principal => "at start".to_string(),
        };
        let lab = Frame::toward(tip, mb, ARROW + 10.0);
        let (anchor, dy) = match p.edge.as_str() {
            "N" => ("middle", -12.0),
            "S" => ("middle", 8.0),
            "E" => ("start", 0.0),
            _ => ("end", 0.0),
        };
        cv.label((lab.0, lab.1 + dy), 10.5, anchor, true, colour, &p.force);
        cv.label((lab.0, lab.1 + dy + 12.0), 10.0, anchor, false, colour, &when);
        cv.close();
    }
    cv.close();
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_arrow_ends_where_its_bearing_leaves_the_square() {
        let c = (200.0, 200.0);
        let half = SQUARE / 2.0;
        let tips = arrow_tips(&[(0, 0.0), (1, 90.0), (2, 225.0)], c);
        assert_eq!(tips[&0], (200.0, 200.0 - half, 0.0), "north: the top edge's middle");
        assert!((tips[&1].0 - (200.0 + half)).abs() < 1e-9 && (tips[&1].1 - 200.0).abs() < 1e-9);
        let (x, y, _) = tips[&2];
        // South-west: at the corner, kept a little in from it on one of its two edges.
        let near_corner =
            (x - (200.0 - half)).abs() <= 12.0 + 1e-6 && (y - (200.0 + half)).abs() <= 12.0 + 1e-6;
        assert!(near_corner, "{x} {y}");
    }

    #[test]
    fn arrows_to_one_edge_are_kept_apart_and_on_it() {
        let c = (200.0, 200.0);
        // Three forces from nearly the same bearing, and one pushed to the edge's end.
        let tips = arrow_tips(&[(0, 178.0), (1, 180.0), (2, 182.0), (3, 215.0)], c);
        let mut xs: Vec<f64> = tips.values().map(|t| t.0).collect();
        xs.sort_by(f64::total_cmp);
        for w in xs.windows(2) {
            assert!(w[1] - w[0] >= TIP_SPACING - 1e-9, "{xs:?}");
        }
        for t in tips.values() {
            assert!((t.1 - (200.0 + SQUARE / 2.0)).abs() < 1e-9, "on the south edge: {t:?}");
            assert!(t.0 >= 200.0 - SQUARE / 2.0 && t.0 <= 200.0 + SQUARE / 2.0, "{t:?}");
        }
    }
}
