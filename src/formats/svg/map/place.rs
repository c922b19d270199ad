//! The map's labels placed without overlaps ([`Placer`]): the places' names first, then the
//! forces', then the rest — the rivers' names — which give way to both.

use crate::formats::svg::Deferred;
use crate::formats::svg::labels::{Anchor, Label, Line, Placer, Rect, Spot, compass};
use crate::formats::svg::symbols::SETTLEMENT;

use super::HEX_RADIUS;

/// The box of the symbols of the places a settlement label names (their names joined by
/// " · "), from where the label was asked for: above the symbols, centred on them.
fn symbols_box(d: &Deferred) -> Rect {
    let n = d.text.matches(" · ").count() as f64 + 1.0;
    let centre = (d.at.0, d.at.1 + 1.9 * SETTLEMENT + 1.0);
    // The symbols 5.5 apart, an anchor or a wheel beside the outer ones.
    let w = 2.0 * ((n - 1.0) / 2.0 * 5.5 * SETTLEMENT + 3.6 * SETTLEMENT);
    Rect::around(centre, w, 2.0 * (1.75 * SETTLEMENT + 1.2))
}

fn one_line(d: &Deferred) -> Label {
    Label {
        lines: vec![Line { text: d.text.clone(), size: d.size, bold: d.bold }],
        fill: d.fill.clone(),
        names: d.at,
        near: Vec::new(),
        far: Vec::new(),
    }
}

/// Takes the boxes of the places' symbols the ground asked to name, and returns their names
/// (bold) and the other labels (a river's name) to place.
pub(super) fn ground_labels(deferred: Vec<Deferred>, placer: &mut Placer) -> (Vec<Label>, Vec<Label>) {
    let (places, rest): (Vec<Deferred>, Vec<Deferred>) = deferred.into_iter().partition(|d| d.bold);
    for d in &places {
        placer.block(symbols_box(d));
    }
    let places = places
        .iter()
        .map(|d| {
            let r = symbols_box(d);
            let mut l = one_line(d);
            l.names = ((r.x0 + r.x1) / 2.0, (r.y0 + r.y1) / 2.0);
            let block = l.size();
            // Above the symbol as the map always had it, else below, beside, at a corner.
            let order = [3, 2, 0, 1, 5, 7, 4, 6];
            let near = compass(&r, block, 1.0, 0.0);
            let far = compass(&r, block, 1.0, 0.5 * HEX_RADIUS);
            l.near = order.iter().map(|&i| near[i]).collect();
            l.far = order.iter().map(|&i| far[i]).collect();
            l
        })
        .collect();
    let rest = rest
        .iter()
        .map(|d| {
            let mut l = one_line(d);
            // The block's top from the baseline asked for.
            let top = d.at.1 - 0.95 * d.size;
            let x = d.at.0;
            l.near = [
                (0.0, 0.0),
                (0.0, -26.0),
                (-30.0, 0.0),
                (30.0, 0.0),
                (0.0, 14.0),
                (-30.0, -26.0),
                (30.0, -26.0),
            ]
            .iter()
            .map(|&(dx, dy)| Spot::new((x + dx, top + dy), Anchor::Middle))
            .collect();
            l
        })
        .collect();
    (places, rest)
}
