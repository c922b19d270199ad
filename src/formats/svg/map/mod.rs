//! The campaign map as an SVG picture: every hex of the map laid out by the campaign's own
//! layout setting with its ground, the roads, the major rivers on hex sides, every
//! settlement with its kind (rule 1.2's legend) and who holds it, every force the viewer
//! knows of as a counter with its name and strength, the contacts between them, and
//! optionally the zones of control; a legend with the turn and the date beside it.
//!
//! The picture is drawn from a [`ForcesView`], never from the order of battle: a side's
//! view holds only what that side knows, so its picture cannot show more.

use std::collections::{BTreeMap, BTreeSet};

use super::geometry::hexagon;
use super::legend::{LEGEND_HEIGHT, map_legend};
use super::palette;
use super::symbols::{self, SETTLEMENT};
use super::{Canvas, Frame, num, points_attr, thousands};
use crate::model::{CampaignMap, Direction, HexGrid, HexId, RoadClass, Settlement, SettlementKind, Side};
use crate::rules::intel::known::{ForcesView, KnownForce};

/// Centre to corner of a hex on the map, pixels: room in each hex for its id, a settlement
/// with its name, and a force counter.
pub const HEX_RADIUS: f64 = 40.0;
/// Height of the title band above the map.
const TOP: f64 = 64.0;
/// Space around the map.
const MARGIN: f64 = 12.0;
/// Width of the legend beside the map.
pub(super) const LEGEND_WIDTH: f64 = 330.0;
/// A force counter, pixels.
pub(super) const COUNTER: (f64, f64) = (30.0, 15.0);
/// How far below the hex centre a counter's centre sits (its top half covers the centre).
const COUNTER_DROP: f64 = 4.0;
/// Forces listed beside a counter stack before "+N more".
const LISTED: usize = 4;

/// What the title band says.
#[derive(Debug, Clone)]
pub struct MapHeading {
    /// The campaign's name.
    pub title: String,
    /// The turn.
    pub turn: u32,
    /// The turn's date, e.g. "late March 1809".
    pub date: String,
}

/// What to draw besides the map and the forces.
#[derive(Debug, Clone, Copy, Default)]
pub struct MapOptions {
    /// Shade every force's zone of control (rule 8.1) in its side's colour.
    pub zoc: bool,
    /// Draw the lines of supply the view holds (3.1–3.3): each to its source, or to where it
    /// is cut.
    pub supply: bool,
    /// Draw only this part of the map (a battle's neighbourhood); `None`: the whole map.
    pub window: Option<Window>,
}

/// A rectangle of the map's hexes, columns and rows inclusive.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Window {
    /// First and last column.
    pub columns: (u16, u16),
    /// First and last row.
    pub rows: (u16, u16),
}

impl Window {
    /// Every hex of the map within `reach` hexes of `centre`, as the rectangle holding them.
    pub fn around(grid: HexGrid, centre: HexId, reach: u32) -> Window {
        let r = u16::try_from(reach).unwrap_or(u16::MAX);
        let last = |n: u16| n.saturating_sub(1);
        Window {
            columns: (centre.col.saturating_sub(r), centre.col.saturating_add(r).min(last(grid.columns))),
            rows: (centre.row.saturating_sub(r), centre.row.saturating_add(r).min(last(grid.rows))),
        }
    }

    /// The whole map.
    pub fn whole(grid: HexGrid) -> Window {
        Window { columns: (0, grid.columns.saturating_sub(1)), rows: (0, grid.rows.saturating_sub(1)) }
    }

    /// True when the hex lies in the window.
    pub fn contains(&self, h: HexId) -> bool {
        (self.columns.0..=self.columns.1).contains(&h.col) && (self.rows.0..=self.rows.1).contains(&h.row)
    }

    /// Every hex of the window, column by column.
    pub fn hexes(&self) -> impl Iterator<Item = HexId> + '_ {
        (self.columns.0..=self.columns.1)
            .flat_map(move |col| (self.rows.0..=self.rows.1).map(move |row| HexId::new(col, row)))
    }

    fn size(&self) -> (u16, u16) {
        (self.columns.1 - self.columns.0 + 1, self.rows.1 - self.rows.0 + 1)
    }
}

/// Where the map of a grid is drawn on the picture.
pub fn map_frame(map: &CampaignMap) -> Frame {
    window_frame(map, &Window::whole(map.grid))
}

/// Where the map is drawn when only `window` of it is: the window's first column and row at
/// the picture's top-left, every hex where the layout puts it relative to them.
pub fn window_frame(map: &CampaignMap, window: &Window) -> Frame {
    let (c0, r0) = (f64::from(window.columns.0), f64::from(window.rows.0));
    Frame {
        grid: map.grid,
        radius: HEX_RADIUS,
        origin: (
            MARGIN + HEX_RADIUS - 1.5 * HEX_RADIUS * c0,
            TOP + HEX_RADIUS * 3f64.sqrt() / 2.0 - HEX_RADIUS * 3f64.sqrt() * r0,
        ),
    }
}

/// Where each force's counter stands: its hex's centre (a little below), the French to the
/// left and the Allies to the right where both stand in one hex, a stack of several forces
/// of one side offset down and to the right. Keys are force ids.
pub fn counter_positions(frame: &Frame, view: &ForcesView) -> BTreeMap<String, (f64, f64)> {
    let mut out = BTreeMap::new();
    for (hex, stacks) in stacks_by_hex(view) {
        for (side, stack) in &stacks {
            let (x, y) = stack_origin(frame, hex, *side, stacks.len() > 1);
            for (i, f) in stack.iter().enumerate() {
                let k = 3.0 * i as f64;
                out.insert(f.id.clone(), (x + k, y + k));
            }
        }
    }
    out
}

/// The forces of the view by hex, then by side (French first), in the view's order.
fn stacks_by_hex(view: &ForcesView) -> BTreeMap<HexId, BTreeMap<Side, Vec<&KnownForce>>> {
    let mut m: BTreeMap<HexId, BTreeMap<Side, Vec<&KnownForce>>> = BTreeMap::new();
    for f in &view.forces {
        m.entry(f.hex).or_default().entry(f.side()).or_default().push(f);
    }
    m
}

/// The centre of the top counter of a side's stack in a hex.
fn stack_origin(frame: &Frame, hex: HexId, side: Side, both_sides: bool) -> (f64, f64) {
    let (x, y) = frame.centre(hex);
    let dx = match (both_sides, side) {
        (false, _) => 0.0,
        (true, Side::French) => -0.42 * HEX_RADIUS,
        (true, Side::Allies) => 0.42 * HEX_RADIUS,
    };
    (x + dx, y + COUNTER_DROP)
}

/// Draws the campaign map.
pub fn campaign_map(map: &CampaignMap, view: &ForcesView, heading: &MapHeading, opts: MapOptions) -> Vec<u8> {
    let win = opts.window.unwrap_or_else(|| Window::whole(map.grid));
    let frame = window_frame(map, &win);
    let (cols, rows) = win.size();
    let (mw, mh) = Frame { grid: HexGrid { columns: cols, rows, ..map.grid }, ..frame }.extent();
    // Only what the window shows is drawn (a view is filtered, never widened).
    let shown;
    let view = if opts.window.is_some() {
        shown = view.within(|h| win.contains(h));
        &shown
    } else {
        view
    };
    let legend_x = MARGIN + mw + 2.0 * MARGIN;
    let width = legend_x + LEGEND_WIDTH + MARGIN;
    let height = (TOP + mh + MARGIN).max(TOP + LEGEND_HEIGHT + MARGIN);
    let who = match view.viewer {
        None => "umpire's map".to_string(),
        Some(s) => format!("{} view", side_word(s)),
    };
    let title = format!("{}: turn {}, {} ({who})", heading.title, heading.turn, heading.date);
    // Room for the whole picture at once: a hex takes about 150 bytes, a force 500.
    let room = 150 * usize::from(cols) * usize::from(rows) + 500 * view.forces.len();
    let mut cv = Canvas::with_capacity(width, height, &title, room);
    cv.rect((0.0, 0.0), (width, height), &[("fill", "#ffffff")]);
    title_band(&mut cv, heading, view.viewer, width);
    hexes(&mut cv, map, &frame, &win);
    if opts.zoc {
        zones(&mut cv, &frame, view, &win);
    }
    rivers(&mut cv, map, &frame, &win, view);
    roads(&mut cv, map, &frame, |h| win.contains(h));
    hex_ids(&mut cv, &frame, &win);
    settlements(&mut cv, map, &frame, &win);
    if opts.supply {
        supply_lines(&mut cv, &frame, view, &win);
    }
    let at = counter_positions(&frame, view);
    contacts(&mut cv, view, &at);
    forces(&mut cv, map, &frame, view);
    map_legend(&mut cv, (legend_x, TOP), view.viewer, opts);
    cv.finish()
}

pub(super) fn side_word(s: Side) -> &'static str {
    match s {
        Side::French => "French",
        Side::Allies => "Allied",
    }
}

fn title_band(cv: &mut Canvas, heading: &MapHeading, viewer: Option<Side>, width: f64) {
    cv.rect((0.0, 0.0), (width, TOP - 8.0), &[("fill", "#2b2b2b")]);
    cv.plain((MARGIN, 30.0), 22.0, "start", true, "#ffffff", &heading.title);
    let sub = match viewer {
        None => format!("Turn {}, {} · umpire's map: every force", heading.turn, heading.date),
        Some(s) => format!(
            "Turn {}, {} · {} view: its own forces, and the enemy in contact with them (8.1) or reported (9.0)",
            heading.turn,
            heading.date,
            side_word(s)
        ),
    };
    cv.plain((MARGIN, 48.0), 13.0, "start", false, "#e8e8e8", &sub);
}

/// Every hex of the map: one hexagon defined once and placed at each hex's centre (`<use>`),
/// in the colour of its ground. A map has thousands of hexes: the picture stays small.
fn hexes(cv: &mut Canvas, map: &CampaignMap, frame: &Frame, win: &Window) {
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

fn zones(cv: &mut Canvas, frame: &Frame, view: &ForcesView, win: &Window) {
    for side in [Side::French, Side::Allies] {
        let zone: BTreeSet<HexId> =
            view.forces.iter().filter(|f| f.side() == side).flat_map(|f| f.zone.iter().copied()).collect();
        let id = format!("zoc-{}", side.slug());
        cv.open("g", &[("id", &id), ("fill", palette::side(side)), ("fill-opacity", "0.2")]);
        for h in zone.into_iter().filter(|&h| win.contains(h)) {
            cv.polygon(&frame.corners_at(frame.centre(h), 0.94), &[]);
        }
        cv.close();
    }
}

fn rivers(cv: &mut Canvas, map: &CampaignMap, frame: &Frame, win: &Window, view: &ForcesView) {
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
pub(super) fn roads(cv: &mut Canvas, map: &CampaignMap, frame: &Frame, shown: impl Fn(HexId) -> bool) {
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

fn hex_ids(cv: &mut Canvas, frame: &Frame, win: &Window) {
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

fn settlements(cv: &mut Canvas, map: &CampaignMap, frame: &Frame, win: &Window) {
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

/// Each line of supply the view holds: a green line from the force's hex along its road to
/// the source, marked there; a line that is cut, broken red to where it is cut, crossed out
/// there. Only the hexes in the window are drawn.
fn supply_lines(cv: &mut Canvas, frame: &Frame, view: &ForcesView, win: &Window) {
    cv.open("g", &[("id", "supply"), ("fill", "none"), ("stroke-linejoin", "round")]);
    for f in &view.forces {
        let Some(s) = &f.supply else { continue };
        let state = if s.in_supply { "in" } else { "out" };
        let mut attrs = vec![("data-supply", f.id.as_str()), ("data-state", state)];
        if let Some(src) = &s.source {
            attrs.push(("data-source", src.as_str()));
        }
        cv.open("g", &attrs);
        let why = match (&s.source, &s.reason) {
            (_, Some(r)) => format!("{}: out of supply: {r}", f.id),
            (Some(src), None) => format!("{}: in supply from {src}", f.id),
            (None, None) => format!("{}: in supply", f.id),
        };
        cv.text("title", &[], &why);
        let points: Vec<(f64, f64)> =
            s.path.iter().filter(|&&h| win.contains(h)).map(|&h| frame.centre(h)).collect();
        if points.len() > 1 {
            let pts = points_attr(&points);
            let colour = if s.in_supply { palette::SUPPLY } else { palette::CUT };
            let mut style = vec![("points", pts.as_str()), ("stroke", colour), ("stroke-width", "3")];
            if !s.in_supply {
                style.push(("stroke-dasharray", "6 4"));
            }
            style.push(("stroke-opacity", "0.85"));
            cv.empty("polyline", &style);
        }
        if s.in_supply
            && let Some(&end) = s.path.last().filter(|&&h| win.contains(h))
        {
            let c = frame.centre(end);
            cv.rect(
                (c.0 - 5.0, c.1 - 5.0),
                (10.0, 10.0),
                &[("fill", palette::SUPPLY), ("stroke", "#ffffff")],
            );
        }
        // Out of supply with no line at all (no source the side could reach): crossed out
        // where the force stands.
        let at = if !s.in_supply && s.break_hex.is_none() && s.path.len() <= 1 {
            Some(f.hex)
        } else {
            s.break_hex
        };
        if let Some(b) = at.filter(|&h| win.contains(h)) {
            let (x, y) = frame.centre(b);
            let style = [("stroke", palette::CUT), ("stroke-width", "4"), ("stroke-linecap", "round")];
            cv.line((x - 9.0, y - 9.0), (x + 9.0, y + 9.0), &style);
            cv.line((x - 9.0, y + 9.0), (x + 9.0, y - 9.0), &style);
        }
        cv.close();
    }
    cv.close();
}

fn contacts(cv: &mut Canvas, view: &ForcesView, at: &BTreeMap<String, (f64, f64)>) {
    cv.open("g", &[("id", "contacts"), ("stroke", palette::CONTACT)]);
    for k in &view.contacts {
        let (Some(&a), Some(&b)) = (at.get(&k.french), at.get(&k.allies)) else { continue };
        cv.line(a, b, &[("stroke-width", "3"), ("stroke-dasharray", "7 3")]);
        let mid = ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0);
        cv.circle(mid, 4.0, &[("fill", "#ffffff"), ("stroke-width", "2")]);
    }
    cv.close();
}

/// What a force's label says of its strength: men and guns, or that the viewer does not know.
pub fn strength_text(f: &KnownForce) -> String {
    match (f.strength, &f.reported) {
        (Some(s), _) => format!("{} men, {} guns", thousands(s.men()), s.guns),
        (None, Some(r)) => {
            format!(
                "reported turn {} at {}: about {} men, {} guns (9.0)",
                r.turn,
                r.hex,
                thousands(r.men),
                r.guns
            )
        }
        (None, None) => "strength not known".to_string(),
    }
}

/// True when a lone stack's label reads better on the left of its counter: fewer
/// settlements and forces (`taken`, by hex) stand in the two hexes to the left than in the
/// two to the right.
fn label_on_left(map: &CampaignMap, taken: &BTreeMap<HexId, usize>, hex: HexId) -> bool {
    let crowd = |dirs: [Direction; 2]| {
        dirs.into_iter().filter_map(|d| map.grid.step(hex, d)).filter_map(|h| taken.get(&h)).sum::<usize>()
    };
    crowd([Direction::NW, Direction::SW]) < crowd([Direction::NE, Direction::SE])
}

fn forces(cv: &mut Canvas, map: &CampaignMap, frame: &Frame, view: &ForcesView) {
    let stacks = stacks_by_hex(view);
    // One counter shape placed for every force, its outline and its id's style set once: a
    // campaign may have thousands of forces.
    let (w, h) = COUNTER;
    cv.open("defs", &[]);
    let (x0, y0, ws, hs) = (num(-w / 2.0), num(-h / 2.0), num(w), num(h));
    cv.empty(
        "rect",
        &[("id", "counter"), ("x", &x0), ("y", &y0), ("width", &ws), ("height", &hs), ("rx", "2")],
    );
    cv.close();
    cv.open(
        "g",
        &[
            ("id", "forces"),
            ("stroke", "#101010"),
            ("stroke-width", "1"),
            ("text-anchor", "middle"),
            ("font-weight", "bold"),
        ],
    );
    for (&hex, sides) in &stacks {
        for (&side, stack) in sides {
            let (x, y) = stack_origin(frame, hex, side, sides.len() > 1);
            // The first force of the stack on top.
            for (i, f) in stack.iter().enumerate().rev() {
                let k = 3.0 * i as f64;
                let c = (x + k, y + k);
                cv.open("g", &[("data-force", &f.id), ("data-side", side.slug())]);
                // Its whole name on hover (the label beside it may wrap it).
                cv.text("title", &[], &format!("{} {}, {hex}", f.id, f.name));
                let wide = symbols::counter_size(COUNTER, &f.id);
                if wide.0 > COUNTER.0 {
                    // A long id: a counter of its own width.
                    let at = (c.0 - wide.0 / 2.0, c.1 - wide.1 / 2.0);
                    cv.rect(at, wide, &[("rx", "2"), ("fill", palette::side(side))]);
                } else {
                    let (cx, cy) = (num(c.0), num(c.1));
                    cv.empty(
                        "use",
                        &[("href", "#counter"), ("x", &cx), ("y", &cy), ("fill", palette::side(side))],
                    );
                }
                let (at, size) = symbols::counter_id(c, COUNTER, &f.id);
                let (tx, ty, ts) = (num(at.0), num(at.1), num(size));
                let style = [
                    ("x", tx.as_str()),
                    ("y", &ty),
                    ("font-size", &ts),
                    ("fill", "#ffffff"),
                    ("stroke", "none"),
                ];
                cv.text("text", &style, &f.id);
                cv.close();
            }
        }
    }
    cv.close();
    // Labels over every counter, so that no counter hides a neighbour's label.
    let mut occupied: BTreeMap<HexId, usize> = stacks.keys().map(|&h| (h, 1)).collect();
    for s in &map.settlements {
        *occupied.entry(s.hex).or_default() += 1;
    }
    cv.open(
        "g",
        &[
            ("id", "force-labels"),
            ("stroke", "#ffffff"),
            ("stroke-width", "2.5"),
            ("stroke-linejoin", "round"),
            ("paint-order", "stroke"),
        ],
    );
    for (&hex, sides) in &stacks {
        for (&side, stack) in sides {
            let (x, y) = stack_origin(frame, hex, side, sides.len() > 1);
            let left =
                if sides.len() > 1 { side == Side::French } else { label_on_left(map, &occupied, hex) };
            let half =
                stack.iter().map(|f| symbols::counter_size(COUNTER, &f.id).0).fold(COUNTER.0, f64::max) / 2.0;
            let reach = half + 3.0 + 3.0 * (stack.len() - 1) as f64;
            let (lx, anchor) = if left { (x - half - 3.0, "end") } else { (x + reach, "start") };
            let mut lines: Vec<(String, bool)> = Vec::new();
            if let [f] = stack.as_slice() {
                lines.extend(wrap(&f.name, 22).into_iter().map(|l| (l, true)));
                lines.push((strength_text(f), false));
            } else {
                for f in stack.iter().take(LISTED) {
                    lines.push((format!("{}: {}", f.name, strength_text(f)), false));
                }
                if stack.len() > LISTED {
                    lines.push((format!("+{} more", stack.len() - LISTED), false));
                }
            }
            let step = 9.0;
            let top = y + 3.0 - step * (lines.len() as f64 - 1.0) / 2.0;
            let colour = palette::side(side);
            for (i, (text, bold)) in lines.iter().enumerate() {
                let size = if *bold { 8.5 } else { 7.5 };
                cv.plain((lx, top + step * i as f64), size, anchor, *bold, colour, text);
            }
        }
    }
    cv.close();
}

/// Words of `text` in lines of at most `width` characters (a longer word on its own line).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(l) if l.chars().count() + 1 + word.chars().count() <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rules::intel::known::{side_view, umpire_view};
    use crate::rules::movement::testing::Builder;
    use crate::rules::zoc::contacts;

    fn draw(side: Option<Side>, zoc: bool) -> String {
        let c = Builder::default()
            .settlement("Medellin", "10.10", "town", "Sp")
            .force("fr-a", "division", "Fr", "10.10", &["line"])
            .force("sp-a", "division", "Sp", "10.11", &["line"])
            .force("sp-hidden", "division", "Sp", "02.02", &["line"])
            .build();
        let k = contacts(&c);
        let view = match side {
            None => umpire_view(&c, &k, zoc),
            Some(s) => side_view(&c, &k, s, zoc),
        };
        let h = MapHeading { title: "Test".into(), turn: 3, date: "early July 1808".into() };
        String::from_utf8(campaign_map(&c.map, &view, &h, MapOptions { zoc, supply: false, window: None }))
            .unwrap()
    }

    #[test]
    fn long_names_wrap_between_words() {
        assert_eq!(
            wrap("Division de dragons Latour-Maubourg", 22),
            ["Division de dragons", "Latour-Maubourg"]
        );
        assert_eq!(wrap("Ier Corps", 22), ["Ier Corps"]);
    }

    #[test]
    fn the_same_campaign_draws_the_same_bytes() {
        assert_eq!(draw(None, true), draw(None, true));
    }

    #[test]
    fn supply_lines_are_drawn_for_the_viewers_own_forces_only() {
        use crate::rules::intel::known::KnownSupply;
        let c = Builder::default()
            .settlement("Medellin", "10.10", "town", "Sp")
            .force("fr-a", "division", "Fr", "10.10", &["line"])
            .force("sp-a", "division", "Sp", "10.11", &["line"])
            .build();
        let k = contacts(&c);
        let hexes = |v: &[&str]| v.iter().map(|h| h.parse().unwrap()).collect::<Vec<HexId>>();
        let line = |id: &str| match id {
            "fr-a" => Some(KnownSupply {
                in_supply: false,
                source: None,
                path: hexes(&["10.10", "09.10"]),
                break_hex: Some("08.10".parse().unwrap()),
                reason: Some("Badajoz is hostile".into()),
            }),
            _ => Some(KnownSupply {
                in_supply: true,
                source: Some("Mérida".into()),
                path: hexes(&["10.11", "11.11", "12.11"]),
                break_hex: None,
                reason: None,
            }),
        };
        let h = MapHeading { title: "Test".into(), turn: 3, date: "early July 1808".into() };
        let opts = MapOptions { zoc: false, supply: true, window: None };
        let ump =
            String::from_utf8(campaign_map(&c.map, &umpire_view(&c, &k, false).with_supply(line), &h, opts))
                .unwrap();
        assert!(ump.contains("data-supply=\"fr-a\" data-state=\"out\""), "{ump}");
        assert!(ump.contains("fr-a: out of supply: Badajoz is hostile"));
        assert!(ump.contains("data-supply=\"sp-a\" data-state=\"in\" data-source=\"Mérida\""));
        assert!(ump.contains("line of supply to its source (3.1)"), "the legend says what the lines are");
        let fr = side_view(&c, &k, Side::French, false).with_supply(line);
        let fr = String::from_utf8(campaign_map(&c.map, &fr, &h, opts)).unwrap();
        assert!(fr.contains("data-supply=\"fr-a\""));
        assert!(
            !fr.contains("data-supply=\"sp-a\"") && !fr.contains("Mérida"),
            "the enemy's supply is not known"
        );
    }

    #[test]
    fn a_force_with_no_source_at_all_is_crossed_out_where_it_stands() {
        use crate::rules::intel::known::KnownSupply;
        let c = Builder::default().force("fr-a", "division", "Fr", "10.10", &["line"]).build();
        let none = |_: &str| {
            Some(KnownSupply {
                in_supply: false,
                source: None,
                path: Vec::new(),
                break_hex: None,
                reason: Some("the French have no supply source".into()),
            })
        };
        let v = umpire_view(&c, &contacts(&c), false).with_supply(none);
        let h = MapHeading { title: "Test".into(), turn: 3, date: "early July 1808".into() };
        let opts = MapOptions { zoc: false, supply: true, window: None };
        let svg = String::from_utf8(campaign_map(&c.map, &v, &h, opts)).unwrap();
        let g = svg.split("data-supply=\"fr-a\"").nth(1).unwrap().split("</g>").next().unwrap().to_string();
        let (x, y) = map_frame(&c.map).centre("10.10".parse().unwrap());
        let stroke = format!("x1=\"{}\" y1=\"{}\"", num(x - 9.0), num(y - 9.0));
        assert!(g.contains(&stroke), "a cross at the force's own hex: {g}");
    }

    #[test]
    fn an_enemy_reported_by_intelligence_is_labelled_with_the_report() {
        use crate::rules::intel::known::Reported;
        let c = Builder::default().force("sp-a", "division", "Sp", "10.11", &["line"]).build();
        let mut v = side_view(&c, &contacts(&c), Side::French, false);
        assert!(v.forces.is_empty(), "out of contact and never reported: not known");
        let mut f = umpire_view(&c, &contacts(&c), false).forces.remove(0);
        f.strength = None;
        f.reported = Some(Reported { hex: "10.11".parse().unwrap(), turn: 20, men: 2900, guns: 6 });
        assert_eq!(strength_text(&f), "reported turn 20 at 10.11: about 2,900 men, 6 guns (9.0)");
        v.forces.push(f);
        let h = MapHeading { title: "Test".into(), turn: 21, date: "early April 1809".into() };
        let svg = String::from_utf8(campaign_map(&c.map, &v, &h, MapOptions::default())).unwrap();
        assert!(svg.contains("reported turn 20 at 10.11: about 2,900 men, 6 guns (9.0)"));
    }

    #[test]
    fn a_side_view_names_no_enemy_out_of_contact() {
        let all = draw(None, false);
        assert!(all.contains("sp-hidden"));
        let fr = draw(Some(Side::French), true);
        assert!(fr.contains("data-force=\"sp-a\""));
        assert!(!fr.contains("sp-hidden"));
        assert!(fr.contains("strength not known"));
    }
}
