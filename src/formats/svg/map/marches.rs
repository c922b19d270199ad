//! The turn's marches on the umpire's map: each force's march as an arrow along the hexes it
//! marched through, from a ring where it began to a head where it stopped, the hexes ordered
//! beyond as a faint broken line, a bar where it halted short, a purple arrow toward the hex
//! it was marching into when it halted in contact (8.1); the contacts the marches made ringed;
//! the battles (a gold burst) and sieges (a broken ring) of the turn named.

use std::collections::BTreeMap;

use crate::formats::svg::labels::{Label, Line, Placer, Rect, compass};
use crate::formats::svg::{Canvas, Frame, num, palette, points_attr, symbols};
use crate::model::{HexId, Side};

use super::{HEX_RADIUS, Window};

/// One force's march.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MarchLine {
    /// The force.
    pub force: String,
    /// Its side.
    pub side: Side,
    /// The hexes it marched through: where it began, then every hex entered.
    pub marched: Vec<HexId>,
    /// The hexes ordered beyond where it stopped.
    pub rest: Vec<HexId>,
    /// Why it stopped short, in words.
    pub halt: Option<String>,
    /// The hex it was marching into when it halted in contact.
    pub toward: Option<HexId>,
}

/// A battle or a siege of the turn, at its hex.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Where.
    pub hex: HexId,
    /// What, in words (`battle of Medellín (T20-18.28)`).
    pub text: String,
}

/// What the turn's map draws over the umpire's map.
#[derive(Debug, Clone, Default)]
pub struct TurnMarches {
    /// What the title band says under the campaign's name.
    pub caption: String,
    /// Every march.
    pub marches: Vec<MarchLine>,
    /// The contacts the marches made: (French force, Allied force).
    pub new_contacts: Vec<(String, String)>,
    /// The turn's battles.
    pub battles: Vec<Event>,
    /// The sieges and investments.
    pub sieges: Vec<Event>,
}

/// Draws the marches (under the counters) and returns the battles' and sieges' names to
/// place.
pub(super) fn marches(
    cv: &mut Canvas,
    frame: &Frame,
    win: &Window,
    t: &TurnMarches,
    placer: &mut Placer,
) -> Vec<Label> {
    cv.open("g", &[("id", "marches"), ("fill", "none"), ("stroke-linejoin", "round")]);
    for m in &t.marches {
        march(cv, frame, win, m);
    }
    cv.close();
    let mut labels = Vec::new();
    cv.open("g", &[("id", "turn-events")]);
    for (e, battle) in t.battles.iter().map(|e| (e, true)).chain(t.sieges.iter().map(|e| (e, false))) {
        if !win.contains(e.hex) {
            continue;
        }
        let c = frame.centre(e.hex);
        let kind = if battle { "battle" } else { "siege" };
        cv.open("g", &[("data-event", kind), ("data-hex", &e.hex.to_string())]);
        cv.text("title", &[], &e.text);
        let r = if battle {
            let burst: Vec<(f64, f64)> = (0..16)
                .map(|i| Frame::toward(c, 22.5 * f64::from(i), if i % 2 == 0 { 16.0 } else { 7.0 }))
                .collect();
            cv.polygon(&burst, &[("fill", "#f2b705"), ("fill-opacity", "0.85"), ("stroke", "#7a5a00")]);
            placer.block(Rect::around(c, 20.0, 20.0));
            Rect::around(c, 32.0, 32.0)
        } else {
            let style = [("stroke", palette::CUT), ("stroke-width", "3"), ("stroke-dasharray", "4 3")];
            cv.circle(c, 0.62 * HEX_RADIUS, &[("fill", "none"), style[0], style[1], style[2]]);
            Rect::around(c, 1.24 * HEX_RADIUS, 1.24 * HEX_RADIUS)
        };
        cv.close();
        let fill = if battle { "#7a5a00" } else { palette::CUT };
        let mut l = Label {
            lines: vec![Line { text: e.text.clone(), size: 10.0, bold: true }],
            fill: fill.to_string(),
            names: c,
            near: Vec::new(),
            far: Vec::new(),
        };
        let block = l.size();
        l.near = compass(&r, block, 2.0, 0.0).to_vec();
        l.far = compass(&r, block, 2.0, 0.6 * HEX_RADIUS).to_vec();
        labels.push(l);
    }
    cv.close();
    labels
}

fn march(cv: &mut Canvas, frame: &Frame, win: &Window, m: &MarchLine) {
    let colour = palette::side(m.side);
    let mut attrs = vec![("data-march", m.force.as_str()), ("data-side", m.side.slug())];
    let hexes: String = m.marched.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
    attrs.push(("data-hexes", &hexes));
    cv.open("g", &attrs);
    let mut why = format!("{}: {}", m.force, hexes.replace(' ', " → "));
    if let Some(h) = &m.halt {
        why.push_str(&format!(" (halted: {h})"));
    }
    cv.text("title", &[], &why);
    let pts: Vec<(f64, f64)> =
        m.marched.iter().filter(|&&h| win.contains(h)).map(|&h| frame.centre(h)).collect();
    let end = pts.last().copied();
    if !m.rest.is_empty()
        && let Some(e) = end
    {
        let mut rest = vec![e];
        rest.extend(m.rest.iter().filter(|&&h| win.contains(h)).map(|&h| frame.centre(h)));
        let p = points_attr(&rest);
        let style = [
            ("points", p.as_str()),
            ("stroke", colour),
            ("stroke-width", "2"),
            ("stroke-dasharray", "3 4"),
            ("stroke-opacity", "0.6"),
        ];
        cv.empty("polyline", &style);
    }
    if let Some(&start) = pts.first() {
        cv.circle(start, 5.0, &[("fill", "#ffffff"), ("stroke", colour), ("stroke-width", "2")]);
    }
    if pts.len() > 1 {
        let n = pts.len();
        if n > 2 {
            let p = points_attr(&pts[..n - 1]);
            let style = [
                ("points", p.as_str()),
                ("stroke", colour),
                ("stroke-width", "4"),
                ("stroke-opacity", "0.85"),
            ];
            cv.empty("polyline", &style);
        }
        symbols::arrow(cv, pts[n - 2], pts[n - 1], colour, 4.0, false);
    }
    if let Some(e) = end {
        if m.halt.is_some() {
            // A bar across the way on: it stopped short.
            let from = if pts.len() > 1 { pts[pts.len() - 2] } else { (e.0 - 1.0, e.1) };
            let bearing = (e.0 - from.0).atan2(from.1 - e.1).to_degrees();
            let a = Frame::toward(e, bearing + 90.0, 9.0);
            let b = Frame::toward(e, bearing - 90.0, 9.0);
            cv.line(a, b, &[("stroke", "#101010"), ("stroke-width", "3"), ("stroke-linecap", "round")]);
        }
        if let Some(t) = m.toward.filter(|&h| win.contains(h)) {
            let c = frame.centre(t);
            let mid = ((e.0 + c.0) / 2.0, (e.1 + c.1) / 2.0);
            symbols::arrow(cv, e, mid, palette::CONTACT, 2.5, true);
        }
    }
    cv.close();
}

/// Rings the middle of each contact the marches made (the link the map draws between the
/// two counters).
pub(super) fn new_contacts(cv: &mut Canvas, t: &TurnMarches, at: &BTreeMap<&str, (f64, f64)>) {
    cv.open(
        "g",
        &[("id", "new-contacts"), ("fill", "none"), ("stroke", palette::CONTACT), ("stroke-width", "2.5")],
    );
    for (f, a) in &t.new_contacts {
        let (Some(&p), Some(&q)) = (at.get(f.as_str()), at.get(a.as_str())) else { continue };
        let mid = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0);
        let r = num(9.0);
        let (x, y) = (num(mid.0), num(mid.1));
        cv.empty("circle", &[("cx", &x), ("cy", &y), ("r", &r), ("data-contact", &format!("{f} {a}"))]);
    }
    cv.close();
}
