//! The symbols of the map legend (rule 1.2) and the force markers, drawn the same way on the
//! map and in its legend: a village is a black-outlined white diamond, a town a black dot, a
//! fortress town a black star, a city a red dot, a fortress city a red star, a port an
//! anchor and a depot a wheel. A capital is a red dot in a black ring. A coloured ring
//! around the symbol tells who holds the place.

use super::palette;
use super::{Canvas, Frame, num, points_attr};
use crate::model::SettlementKind;

/// Size of a settlement symbol, pixels (half its height).
pub const SETTLEMENT: f64 = 5.0;

/// A five-pointed star's ten points around `c`.
fn star(c: (f64, f64), r: f64) -> Vec<(f64, f64)> {
    (0..10).map(|i| Frame::toward(c, 36.0 * f64::from(i), if i % 2 == 0 { r } else { r * 0.45 })).collect()
}

/// The symbol of a kind of settlement at `c` (without ring, anchor or wheel).
pub fn settlement(cv: &mut Canvas, c: (f64, f64), kind: SettlementKind) {
    let s = SETTLEMENT;
    let dark = ("stroke", palette::TOWN);
    match kind {
        SettlementKind::Village => {
            let pts = [(c.0, c.1 - s), (c.0 + 0.8 * s, c.1), (c.0, c.1 + s), (c.0 - 0.8 * s, c.1)];
            cv.polygon(&pts, &[("fill", "#ffffff"), dark, ("stroke-width", "1.2")]);
        }
        SettlementKind::Town => cv.circle(c, 0.75 * s, &[("fill", palette::TOWN)]),
        SettlementKind::FortressTown => {
            cv.polygon(&star(c, 1.2 * s), &[("fill", palette::TOWN)]);
        }
        SettlementKind::City => {
            cv.circle(c, 0.85 * s, &[("fill", palette::CITY), dark, ("stroke-width", "0.6")]);
        }
        SettlementKind::FortressCity => {
            cv.polygon(&star(c, 1.3 * s), &[("fill", palette::CITY), dark, ("stroke-width", "0.6")]);
        }
        SettlementKind::Capital => {
            cv.circle(c, 1.1 * s, &[("fill", "#ffffff"), dark, ("stroke-width", "1.4")]);
            cv.circle(c, 0.65 * s, &[("fill", palette::CITY)]);
        }
    }
}

/// The ring around a settlement symbol in the colour of who holds it.
pub fn control_ring(cv: &mut Canvas, c: (f64, f64), colour: &str) {
    cv.circle(c, 1.75 * SETTLEMENT, &[("fill", "none"), ("stroke", colour), ("stroke-width", "2.4")]);
}

/// The anchor of a port, centred at `c`.
pub fn anchor(cv: &mut Canvas, c: (f64, f64)) {
    let s = SETTLEMENT;
    let (x, y) = c;
    let d = format!(
        "M{} {} L{} {} M{} {} L{} {} M{} {} Q{} {} {} {} Q{} {} {} {}",
        num(x),
        num(y - 0.6 * s),
        num(x),
        num(y + s),
        num(x - 0.6 * s),
        num(y - 0.2 * s),
        num(x + 0.6 * s),
        num(y - 0.2 * s),
        num(x - s),
        num(y + 0.3 * s),
        num(x - s),
        num(y + s),
        num(x),
        num(y + s),
        num(x + s),
        num(y + s),
        num(x + s),
        num(y + 0.3 * s),
    );
    cv.circle(
        (x, y - 0.85 * s),
        0.28 * s,
        &[("fill", "none"), ("stroke", palette::INK), ("stroke-width", "1")],
    );
    cv.empty(
        "path",
        &[
            ("d", &d),
            ("fill", "none"),
            ("stroke", palette::INK),
            ("stroke-width", "1.2"),
            ("stroke-linecap", "round"),
        ],
    );
}

/// The wheel of a depot, centred at `c`.
pub fn wheel(cv: &mut Canvas, c: (f64, f64)) {
    let r = 0.85 * SETTLEMENT;
    cv.circle(c, r, &[("fill", "#ffffff"), ("stroke", palette::INK), ("stroke-width", "1.2")]);
    let spokes: Vec<String> = (0..3)
        .map(|i| {
            let a = Frame::toward(c, 60.0 * f64::from(i), r);
            let b = Frame::toward(c, 60.0 * f64::from(i) + 180.0, r);
            format!("M{} {} L{} {}", num(a.0), num(a.1), num(b.0), num(b.1))
        })
        .collect();
    let d = spokes.join(" ");
    cv.empty("path", &[("d", &d), ("stroke", palette::INK), ("stroke-width", "0.8")]);
}

/// The smallest font a counter's id is written in, pixels: a longer id widens the counter.
const ID_FONT_MIN: f64 = 6.5;

/// The size of a counter for `text`: `size`, widened so that the id fits at a readable size.
pub fn counter_size(size: (f64, f64), text: &str) -> (f64, f64) {
    let (w, h) = size;
    let need = 0.62 * ID_FONT_MIN * super::char_len(text) as f64 + 4.0;
    (w.max(need), h)
}

/// A force marker: a counter in its side's colour centred at `c`, the force's id inside
/// (the counter widened for a long id).
pub fn counter(cv: &mut Canvas, c: (f64, f64), size: (f64, f64), fill: &str, text: &str) {
    let size = counter_size(size, text);
    let (w, h) = size;
    cv.rect(
        (c.0 - w / 2.0, c.1 - h / 2.0),
        (w, h),
        &[("rx", "2"), ("fill", fill), ("stroke", "#101010"), ("stroke-width", "1")],
    );
    let (at, size) = counter_id(c, size, text);
    cv.plain(at, size, "middle", true, "#ffffff", text);
}

/// Where a counter centred at `c` writes its force's id, and in what font size: in its
/// lower half, so that its centre stays the side's colour, small enough to fit.
pub fn counter_id(c: (f64, f64), size: (f64, f64), text: &str) -> ((f64, f64), f64) {
    let (w, h) = counter_size(size, text);
    let font = (h * 0.5).min((w - 4.0) / (0.62 * super::char_len(text).max(1) as f64));
    ((c.0, c.1 + h / 2.0 - 0.22 * h), font)
}
/// An arrow from `a` to `b` with a head at `b`.
pub fn arrow(cv: &mut Canvas, a: (f64, f64), b: (f64, f64), colour: &str, width: f64, dashed: bool) {
    let bearing = (b.0 - a.0).atan2(a.1 - b.1).to_degrees();
    let head = 3.5 * width + 4.0;
    // The shaft stops where the head begins.
    let neck = Frame::toward(b, bearing + 180.0, head * 0.8);
    let w = num(width);
    let mut style: Vec<(&str, &str)> =
        vec![("stroke", colour), ("stroke-width", &w), ("stroke-linecap", "round")];
    if dashed {
        style.push(("stroke-dasharray", "6 4"));
    }
    cv.line(a, neck, &style);
    let p =
        [b, Frame::toward(b, bearing + 180.0 - 22.0, head), Frame::toward(b, bearing + 180.0 + 22.0, head)];
    let pts = points_attr(&p);
    cv.empty("polygon", &[("points", &pts), ("fill", colour)]);
}
