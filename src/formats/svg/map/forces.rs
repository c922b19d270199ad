//! The forces on the map: counters stacked by hex and side with their names and strength,
//! zones of control, supply lines and contacts.

use std::collections::{BTreeMap, BTreeSet};

use crate::formats::svg::labels::{Label, Line, Placer, Rect, compass};
use crate::formats::svg::palette;
use crate::formats::svg::symbols;
use crate::formats::svg::{Canvas, Frame, char_len, num, points_attr, thousands};
use crate::model::{CampaignMap, Direction, HexId, Side};
use crate::rules::intel::known::{ForcesView, KnownForce};

use super::{COUNTER, COUNTER_DROP, HEX_RADIUS, LISTED, Window};

pub(super) fn zones(cv: &mut Canvas, frame: &Frame, view: &ForcesView, win: &Window) {
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

/// Where each force's counter stands: its hex's centre (a little below), the French to the
/// left and the Allies to the right where both stand in one hex, a stack of several forces
/// of one side offset down and to the right. Keys are force ids.
pub fn counter_positions<'v>(frame: &Frame, view: &'v ForcesView) -> BTreeMap<&'v str, (f64, f64)> {
    let mut out = BTreeMap::new();
    for (hex, stacks) in stacks_by_hex(view) {
        for (side, stack) in &stacks {
            let (x, y) = stack_origin(frame, hex, *side, stacks.len() > 1);
            for (i, f) in stack.iter().enumerate() {
                let k = stack_offset(i);
                out.insert(f.id.as_str(), (x + k, y + k));
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

/// Each standing order the view holds (`standing-orders.csv`): a thin dashed line from the
/// force's hex along the rest of its route, in its side's colour, its hexes in the window.
pub(super) fn standing_orders(cv: &mut Canvas, frame: &Frame, view: &ForcesView, win: &Window) {
    if view.forces.iter().all(|f| f.standing.is_empty()) {
        return;
    }
    cv.open("g", &[("id", "standing-orders"), ("fill", "none"), ("stroke-linejoin", "round")]);
    for f in view.forces.iter().filter(|f| !f.standing.is_empty()) {
        let points: Vec<(f64, f64)> = std::iter::once(f.hex)
            .chain(f.standing.iter().copied())
            .filter(|&h| win.contains(h))
            .map(|h| frame.centre(h))
            .collect();
        if points.len() < 2 {
            continue;
        }
        let pts = points_attr(&points);
        let colour = palette::side(f.side());
        cv.open("g", &[("data-standing", f.id.as_str())]);
        let to = f.standing[f.standing.len() - 1];
        cv.text("title", &[], &format!("{}: standing order, {} hexes on to {to}", f.id, f.standing.len()));
        cv.empty(
            "polyline",
            &[
                ("points", pts.as_str()),
                ("stroke", colour),
                ("stroke-width", "2"),
                ("stroke-dasharray", "3 4"),
            ],
        );
        cv.close();
    }
    cv.close();
}

/// Each line of supply the view holds: a green line from the force's hex along its road to
/// the source, marked there; a line that is cut, broken red to where it is cut, crossed out
/// there. Only the hexes in the window are drawn.
pub(super) fn supply_lines(cv: &mut Canvas, frame: &Frame, view: &ForcesView, win: &Window) {
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

pub(super) fn contacts(cv: &mut Canvas, view: &ForcesView, at: &BTreeMap<&str, (f64, f64)>) {
    cv.open("g", &[("id", "contacts"), ("stroke", palette::CONTACT)]);
    for k in &view.contacts {
        let (Some(&a), Some(&b)) = (at.get(k.french.as_str()), at.get(k.allies.as_str())) else { continue };
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

/// Counters drawn one under another in a stack: the rest sit under the last, and the
/// stack's count says how many there are.
const STACK_SHOWN: usize = 3;

/// How far down and right the `i`th counter of a stack sits from the top one.
fn stack_offset(i: usize) -> f64 {
    3.0 * i.min(STACK_SHOWN - 1) as f64
}

/// Draws every force's counter, stacked by hex and side with a count on a stack of several,
/// takes their boxes in `placer`, and returns each stack's label (its forces' names and
/// strength) to place. On a side's map the labels are larger: they are read on paper.
pub(super) fn forces(
    cv: &mut Canvas,
    map: &CampaignMap,
    frame: &Frame,
    view: &ForcesView,
    placer: &mut Placer,
) -> Vec<Label> {
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
    let mut stack_boxes = Vec::new();
    for (&hex, sides) in &stacks {
        for (&side, stack) in sides {
            let (x, y) = stack_origin(frame, hex, side, sides.len() > 1);
            // The first force of the stack on top.
            for (i, f) in stack.iter().enumerate().rev() {
                let k = stack_offset(i);
                counter(cv, (x + k, y + k), f, hex, side);
            }
            let half =
                stack.iter().map(|f| symbols::counter_size(COUNTER, &f.id).0).fold(COUNTER.0, f64::max) / 2.0;
            let k = stack_offset(stack.len() - 1);
            let mut r = Rect { x0: x - half, y0: y - h / 2.0, x1: x + half + k, y1: y + h / 2.0 + k };
            if stack.len() > 1 {
                // The count on the stack's top right corner.
                let c = (x + half, y - h / 2.0);
                let n = stack.len().to_string();
                let rad = 4.0 + 2.2 * n.len() as f64;
                cv.circle(
                    c,
                    rad,
                    &[("fill", "#ffffff"), ("stroke", palette::side(side)), ("stroke-width", "1.5")],
                );
                let (tx, ty) = (num(c.0), num(c.1 + 3.0));
                let style = [
                    ("x", tx.as_str()),
                    ("y", &ty),
                    ("font-size", "8.5"),
                    ("fill", palette::side(side)),
                    ("stroke", "none"),
                ];
                cv.text("text", &style, &n);
                r = Rect { x0: r.x0, y0: c.1 - rad, x1: r.x1.max(c.0 + rad), y1: r.y1 };
            }
            placer.block(r);
            stack_boxes.push((hex, side, sides.len() > 1, stack, r));
        }
    }
    cv.close();
    let mut occupied: BTreeMap<HexId, usize> = stacks.keys().map(|&h| (h, 1)).collect();
    for s in &map.settlements {
        *occupied.entry(s.hex).or_default() += 1;
    }
    let side_map = view.viewer.is_some();
    stack_boxes
        .into_iter()
        .map(|(hex, side, shared, stack, r)| {
            let left = if shared { side == Side::French } else { label_on_left(map, &occupied, hex) };
            stack_label(stack, side, &r, left, side_map, frame.radius)
        })
        .collect()
}

/// One force's counter at `c`, in its side's colour, its id on it, its whole name on hover.
fn counter(cv: &mut Canvas, c: (f64, f64), f: &KnownForce, hex: HexId, side: Side) {
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
        cv.empty("use", &[("href", "#counter"), ("x", &cx), ("y", &cy), ("fill", palette::side(side))]);
    }
    let (at, size) = symbols::counter_id(c, COUNTER, &f.id);
    let (tx, ty, ts) = (num(at.0), num(at.1), num(size));
    let style = [("x", tx.as_str()), ("y", &ty), ("font-size", &ts), ("fill", "#ffffff"), ("stroke", "none")];
    cv.text("text", &style, &f.id);
    cv.close();
}

/// A stack's label: a lone force's name (wrapped) and strength, or each force's name and
/// strength and how many more; beside the stack (`left` first), or a little away with a
/// leader line.
fn stack_label(stack: &[&KnownForce], side: Side, r: &Rect, left: bool, side_map: bool, hex: f64) -> Label {
    // A side's map is read on paper: no label under 10 pixels.
    let (big, small) = if side_map { (10.5, 10.0) } else { (8.5, 7.5) };
    let mut lines: Vec<Line> = Vec::new();
    let mut add = |text: String, bold: bool| {
        let size = if bold { big } else { small };
        lines.push(Line { text, size, bold });
    };
    if let [f] = stack {
        for l in wrap(&f.name, 22) {
            add(l, true);
        }
        // A report's words on two lines: when and where, then what was seen.
        let strength = strength_text(f);
        match strength.split_once(": ") {
            Some((when, what)) if f.reported.is_some() => {
                add(format!("{when}:"), false);
                add(what.to_string(), false);
            }
            _ => add(strength, false),
        }
    } else {
        for f in stack.iter().take(LISTED) {
            add(format!("{}: {}", f.name, strength_text(f)), false);
        }
        if stack.len() > LISTED {
            add(format!("+{} more", stack.len() - LISTED), false);
        }
    }
    let mut label = Label {
        lines,
        fill: palette::side(side).to_string(),
        names: ((r.x0 + r.x1) / 2.0, (r.y0 + r.y1) / 2.0),
        near: Vec::new(),
        far: Vec::new(),
    };
    let block = label.size();
    let order: [usize; 8] = if left { [1, 0, 2, 3, 6, 7, 4, 5] } else { [0, 1, 2, 3, 4, 5, 6, 7] };
    let near = compass(r, block, 3.0, 0.0);
    label.near = order.iter().map(|&i| near[i]).collect();
    // Farther out in two rings, with a leader line.
    for reach in [0.6, 1.2] {
        let far = compass(r, block, 3.0, reach * hex);
        label.far.extend(order.iter().map(|&i| far[i]));
    }
    label
}

/// Words of `text` in lines of at most `width` characters (a longer word on its own line).
pub fn wrap(text: &str, width: usize) -> Vec<String> {
    let mut lines: Vec<String> = Vec::new();
    for word in text.split_whitespace() {
        match lines.last_mut() {
            Some(l) if char_len(l) + 1 + char_len(word) <= width => {
                l.push(' ');
                l.push_str(word);
            }
            _ => lines.push(word.to_string()),
        }
    }
    lines
}
