//! The ground under the forces: hexes, the coast, borders and provinces, rivers, roads, hex
//! ids and settlements.

use std::collections::{BTreeMap, BTreeSet};

use crate::formats::svg::geometry::hexagon;
use crate::formats::svg::palette;
use crate::formats::svg::symbols::{self, SETTLEMENT};
use crate::formats::svg::{Canvas, Frame, num, points_attr};
use crate::model::{CampaignMap, HexId, RoadClass, Settlement, SettlementKind, country_of};
use crate::rules::intel::known::ForcesView;

use super::{HEX_RADIUS, Window};

/// Every hex of the map: one hexagon defined once and placed at each hex's centre (`<use>`),
/// in the colour of its ground. A map has thousands of hexes: the picture stays small.
pub(super) fn hexes(cv: &mut Canvas, map: &CampaignMap, frame: &Frame, win: &Window) {
    cv.open("defs", &[]);
    let shape = points_attr(&hexagon((0.0, 0.0), HEX_RADIUS));
    cv.empty("polygon", &[("id", "hex"), ("points", &shape)]);
    cv.close();
    cv.open("g", &[("id", "hexes"), ("stroke", palette::HEX_LINE), ("stroke-width", "0.8")]);
    for h in win.hexes() {
        let fill = map.hexes.get(&h).map_or(palette::LOW, |i| palette::ground(i.terrain, i.forest));
        let (x, y) = frame.centre(h);
        let (x, y) = (num(x), num(y));
        cv.empty("use", &[("href", "#hex"), ("x", &x), ("y", &y), ("fill", fill)]);
    }
    cv.close();
}

pub(super) fn rivers(cv: &mut Canvas, map: &CampaignMap, frame: &Frame, win: &Window, view: &ForcesView) {
    let inside = |(a, b): (HexId, HexId)| win.contains(a) && win.contains(b);
    cv.open(
        "g",
        &[("id", "rivers"), ("stroke", palette::RIVER), ("stroke-width", "4"), ("stroke-linecap", "round")],
    );
    for side in map.rivers.keys().filter(|s| inside(s.hexes())) {
        let (a, b) = side.hexes();
        if let Some((p, q)) = frame.shared_side(a, b) {
            cv.line(p, q, &[]);
        }
    }
    cv.close();
    // Each river named once, at the side nearest the middle of its list whose hexes hold no
    // settlement and no force (whose names the river's would cover).
    let settled: BTreeSet<HexId> =
        map.settlements.iter().map(|s| s.hex).chain(view.forces.iter().map(|f| f.hex)).collect();
    let mut by_name: BTreeMap<&str, Vec<(HexId, HexId)>> = BTreeMap::new();
    for (side, name) in map.rivers.iter().filter(|(s, _)| inside(s.hexes())) {
        by_name.entry(name.as_str()).or_default().push(side.hexes());
    }
    for (name, sides) in by_name {
        let mid = sides.len() / 2;
        let free = |&(a, b): &(HexId, HexId)| !settled.contains(&a) && !settled.contains(&b);
        let mut order: Vec<usize> = (0..sides.len()).collect();
        order.sort_by_key(|&i| i.abs_diff(mid));
        let pick = order.into_iter().find(|&i| free(&sides[i])).unwrap_or(mid);
        let (a, b) = sides[pick];
        if let Some((p, q)) = frame.shared_side(a, b) {
            let at = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0 + 12.0);
            cv.label(at, 10.0, "middle", false, palette::RIVER, name);
        }
    }
}

/// The roads between hexes both of which `shown` holds: a solid line for a major road, a
/// broken one for a secondary road, from hex centre to hex centre.
pub(in crate::formats::svg) fn roads(
    cv: &mut Canvas,
    map: &CampaignMap,
    frame: &Frame,
    shown: impl Fn(HexId) -> bool,
) {
    cv.open("g", &[("id", "roads"), ("stroke", palette::ROAD), ("stroke-linecap", "round")]);
    for (side, class) in &map.roads {
        let (a, b) = side.hexes();
        if !(shown(a) && shown(b)) {
            continue;
        }
        let style: &[(&str, &str)] = match class {
            RoadClass::Major => &[("stroke-width", "3")],
            RoadClass::Secondary => &[("stroke-width", "2"), ("stroke-dasharray", "5 3")],
        };
        cv.line(frame.centre(a), frame.centre(b), style);
    }
    cv.close();
}

pub(super) fn hex_ids(cv: &mut Canvas, frame: &Frame, win: &Window) {
    cv.open(
        "g",
        &[("id", "hex-ids"), ("font-size", "7.5"), ("fill", palette::HEX_ID), ("text-anchor", "middle")],
    );
    for h in win.hexes() {
        let (x, y) = frame.centre(h);
        let (x, y) = (num(x), num(y + 0.78 * HEX_RADIUS));
        cv.text("text", &[("x", &x), ("y", &y)], &h.to_string());
    }
    cv.close();
}

/// Draws one settlement's symbol, with its control ring, anchor and wheel, at `c`.
fn settlement_symbol(cv: &mut Canvas, c: (f64, f64), s: &Settlement) {
    symbols::control_ring(cv, c, palette::control(s.control));
    symbols::settlement(cv, c, s.kind);
    if s.port {
        symbols::anchor(cv, (c.0 + 2.6 * SETTLEMENT, c.1));
    }
    if s.depot {
        symbols::wheel(cv, (c.0 - 2.6 * SETTLEMENT, c.1));
    }
}

pub(super) fn settlements(cv: &mut Canvas, map: &CampaignMap, frame: &Frame, win: &Window) {
    let mut by_hex: BTreeMap<HexId, Vec<&Settlement>> = BTreeMap::new();
    for s in map.settlements.iter().filter(|s| win.contains(s.hex)) {
        by_hex.entry(s.hex).or_default().push(s);
    }
    cv.open("g", &[("id", "settlements")]);
    for (hex, mut here) in by_hex {
        here.sort_by_key(|s| std::cmp::Reverse(s.kind.importance()));
        let (x, y) = frame.centre(hex);
        let y = y - 0.3 * HEX_RADIUS;
        let n = here.len() as f64;
        for (i, s) in here.iter().enumerate() {
            let dx = (i as f64 - (n - 1.0) / 2.0) * 5.5 * SETTLEMENT;
            let kind = s.kind.word();
            cv.open("g", &[("data-settlement", &s.name), ("data-kind", kind)]);
            cv.text("title", &[], &format!("{} ({kind}, held by {}) {hex}", s.name, s.control));
            settlement_symbol(cv, (x + dx, y), s);
            cv.close();
        }
        let names: Vec<&str> = here.iter().map(|s| s.name.as_str()).collect();
        let big = here.iter().any(|s| s.kind == SettlementKind::Capital);
        let size = if big { 11.5 } else { 9.5 };
        cv.label((x, y - 1.9 * SETTLEMENT - 1.0), size, "middle", true, palette::INK, &names.join(" · "));
    }
    cv.close();
}

/// What kind of line a hex side is on the map's geography: the coast (sea on one side only),
/// a national border, or a province's border.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Boundary {
    Coast,
    Nation,
    Province,
}

fn boundary(map: &CampaignMap, a: HexId, b: HexId) -> Option<Boundary> {
    if map.is_sea(a) != map.is_sea(b) {
        return Some(Boundary::Coast);
    }
    let (pa, pb) = (map.province(a), map.province(b));
    if map.is_sea(a) || pa.is_none() || pb.is_none() || pa == pb {
        return None;
    }
    if country_of(pa.unwrap_or_default()) != country_of(pb.unwrap_or_default()) {
        Some(Boundary::Nation)
    } else {
        Some(Boundary::Province)
    }
}

/// The map's geography over the ground: the coastline, the national borders (heavier) and
/// the provinces' borders (lighter) along hex sides, from `map/hexes.csv`'s terrain `sea`
/// and `province`; and each province's name where it fits, in a hex of it away from its
/// borders and from every settlement and road. A map without sea or provinces draws nothing.
pub(super) fn geography(cv: &mut Canvas, map: &CampaignMap, frame: &Frame, win: &Window) {
    let mut paths: [String; 3] = Default::default();
    for a in win.hexes() {
        for b in map.grid.neighbours(a).filter(|&b| a < b && win.contains(b)) {
            let Some(kind) = boundary(map, a, b) else { continue };
            if let Some((p, q)) = frame.shared_side(a, b) {
                let d = &mut paths[kind as usize];
                d.push_str(&format!("M{} {}L{} {}", num(p.0), num(p.1), num(q.0), num(q.1)));
            }
        }
    }
    let styles: [(&str, &str, &str, &str); 3] = [
        ("coast", palette::COAST, "2.2", ""),
        ("borders", palette::BORDER, "4.5", "12 4 2 4"),
        ("provinces", palette::PROVINCE, "1.8", "6 4"),
    ];
    for (d, (id, colour, width, dash)) in paths.iter().zip(styles) {
        if d.is_empty() {
            continue;
        }
        let mut attrs = vec![
            ("id", id),
            ("d", d.as_str()),
            ("fill", "none"),
            ("stroke", colour),
            ("stroke-width", width),
            ("stroke-linecap", "round"),
        ];
        if !dash.is_empty() {
            attrs.push(("stroke-dasharray", dash));
        }
        cv.empty("path", &attrs);
    }
    province_names(cv, map, frame, win);
}

/// Each province's name once, in the hex of it nearest its middle whose neighbours all lie in
/// it and that holds no settlement and no road: where it fits, else not at all.
fn province_names(cv: &mut Canvas, map: &CampaignMap, frame: &Frame, win: &Window) {
    let busy: BTreeSet<HexId> = map
        .settlements
        .iter()
        .map(|s| s.hex)
        .chain(map.roads.keys().flat_map(|s| [s.hexes().0, s.hexes().1]))
        .collect();
    let mut by_province: BTreeMap<&str, Vec<HexId>> = BTreeMap::new();
    for h in win.hexes() {
        if let Some(p) = map.province(h).filter(|_| !map.is_sea(h)) {
            by_province.entry(p).or_default().push(h);
        }
    }
    if by_province.is_empty() {
        return;
    }
    cv.open(
        "g",
        &[
            ("id", "province-names"),
            ("font-size", "15"),
            ("font-style", "italic"),
            ("fill", palette::PROVINCE),
            ("text-anchor", "middle"),
            ("opacity", "0.85"),
        ],
    );
    for (name, hexes) in by_province {
        let n = hexes.len() as f64;
        let (sx, sy) = hexes.iter().map(|&h| frame.centre(h)).fold((0.0, 0.0), |a, c| (a.0 + c.0, a.1 + c.1));
        let middle = (sx / n, sy / n);
        let inner = |h: &&HexId| {
            !busy.contains(h)
                && map.grid.neighbours(**h).all(|b| map.province(b) == Some(name) && win.contains(b))
        };
        let dist = |h: &HexId| {
            let c = frame.centre(*h);
            (c.0 - middle.0).powi(2) + (c.1 - middle.1).powi(2)
        };
        let Some(at) = hexes.iter().filter(inner).min_by(|a, b| dist(a).total_cmp(&dist(b))) else {
            continue;
        };
        let (x, y) = frame.centre(*at);
        let (x, y) = (num(x), num(y + 5.0));
        cv.text("text", &[("x", &x), ("y", &y), ("data-province", name)], name);
    }
    cv.close();
}
