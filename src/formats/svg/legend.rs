//! The campaign map's legend: rule 1.2's symbols for the ground, roads, rivers and
//! settlements, who holds a place, and the force markers, drawn by the same functions as the
//! map itself so that the legend cannot show a symbol the map draws otherwise.

use super::Canvas;
use super::geometry::hexagon;
use super::map::{COUNTER, LEGEND_WIDTH, MapOptions, side_word};
use super::palette;
use super::symbols;
use crate::model::{Control, Nation, SettlementKind, Side};

/// Height the legend needs at most, pixels.
pub(super) const LEGEND_HEIGHT: f64 = 880.0;

/// Draws the campaign map's legend with its top-left corner at `at`.
pub(super) fn map_legend(
    cv: &mut Canvas,
    at: (f64, f64),
    viewer: Option<Side>,
    opts: MapOptions,
    marches: bool,
) {
    let (x0, y0) = at;
    cv.open("g", &[("id", "legend")]);
    let mut y = y0 + 24.0;
    let sx = x0 + 30.0;
    let tx = x0 + 56.0;
    let heading = |cv: &mut Canvas, y: &mut f64, text: &str| {
        *y += 8.0;
        cv.plain((x0 + 12.0, *y), 12.5, "start", true, palette::INK, text);
        *y += 20.0;
    };
    let row = |cv: &mut Canvas, y: &mut f64, text: &str| {
        cv.plain((tx, *y + 4.0), 11.0, "start", false, palette::INK, text);
        *y += 20.0;
    };
    cv.plain((x0 + 12.0, y), 15.0, "start", true, palette::INK, "Legend (rule 1.2)");
    y += 10.0;

    heading(cv, &mut y, "Ground");
    for (fill, text) in [
        (palette::LOW, "low-lying land, farmland"),
        (palette::HIGH, "high ground, mountain (no artillery)"),
        (palette::FOREST_LOW, "forest"),
        (palette::FOREST_HIGH, "forest on high ground"),
    ] {
        cv.polygon(&hexagon((sx, y), 9.0), &[("fill", fill), ("stroke", palette::HEX_LINE)]);
        row(cv, &mut y, text);
    }
    heading(cv, &mut y, "Roads and rivers");
    cv.line((sx - 14.0, y), (sx + 14.0, y), &[("stroke", palette::ROAD), ("stroke-width", "3")]);
    row(cv, &mut y, "militarily useful road");
    cv.line(
        (sx - 14.0, y),
        (sx + 14.0, y),
        &[("stroke", palette::ROAD), ("stroke-width", "2"), ("stroke-dasharray", "5 3")],
    );
    row(cv, &mut y, "secondary road");
    cv.line((sx - 14.0, y), (sx + 14.0, y), &[("stroke", palette::RIVER), ("stroke-width", "4")]);
    row(cv, &mut y, "major river: crossed only by road");

    heading(cv, &mut y, "Settlements");
    for (kind, text) in [
        (SettlementKind::Village, "village or minor town"),
        (SettlementKind::Town, "town"),
        (SettlementKind::FortressTown, "fortress town"),
        (SettlementKind::City, "city"),
        (SettlementKind::FortressCity, "fortress city"),
        (SettlementKind::Capital, "capital"),
    ] {
        symbols::settlement(cv, (sx, y), kind);
        row(cv, &mut y, text);
    }
    symbols::anchor(cv, (sx, y));
    row(cv, &mut y, "port");
    symbols::wheel(cv, (sx, y));
    row(cv, &mut y, "depot");

    heading(cv, &mut y, "Held by (ring around the place)");
    for (c, text) in [
        (Control::Nation(Nation::Fr), "France"),
        (Control::Nation(Nation::Sp), "Spain"),
        (Control::Nation(Nation::Po), "Portugal"),
        (Control::Nation(Nation::Br), "Britain"),
        (Control::Unrest, "civil unrest: friendly to no one"),
    ] {
        symbols::control_ring(cv, (sx, y), palette::control(c));
        row(cv, &mut y, text);
    }

    heading(cv, &mut y, "Forces");
    symbols::counter(cv, (sx, y), COUNTER, palette::side(Side::French), "FR");
    let french = match viewer {
        Some(Side::Allies) => "French force in contact: strength not known",
        _ => "French force: name, men, guns",
    };
    row(cv, &mut y, french);
    symbols::counter(cv, (sx, y), COUNTER, palette::side(Side::Allies), "AL");
    let allied = match viewer {
        Some(Side::French) => "Allied force in contact: strength not known",
        _ => "Allied force: name, men, guns",
    };
    row(cv, &mut y, allied);
    cv.line(
        (sx - 14.0, y),
        (sx + 14.0, y),
        &[("stroke", palette::CONTACT), ("stroke-width", "3"), ("stroke-dasharray", "7 3")],
    );
    cv.circle((sx, y), 4.0, &[("fill", "#ffffff"), ("stroke", palette::CONTACT), ("stroke-width", "2")]);
    row(cv, &mut y, "forces in contact (rules 8.1, 8.3)");
    if opts.zoc {
        for side in [Side::French, Side::Allies] {
            cv.rect(
                (sx - 12.0, y - 7.0),
                (24.0, 14.0),
                &[("fill", palette::side(side)), ("fill-opacity", "0.2")],
            );
            row(cv, &mut y, &format!("{} zone of control (8.1)", side_word(side)));
        }
    }
    supply_rows(cv, &mut y, sx, &row, opts);
    if marches {
        march_rows(cv, &mut y, sx, &row);
    }
    cv.plain((x0 + 12.0, y), 10.0, "start", false, "#555555", "Hex ids CC.RR at the foot of each hex.");
    let box_style = [("fill", "none"), ("stroke", "#555555"), ("stroke-width", "1")];
    cv.rect((x0, y0), (LEGEND_WIDTH, y + 14.0 - y0), &box_style);
    cv.close();
}

/// The turn map's rows: a march, its route not marched, a halt, a move into contact, a
/// battle and a siege, drawn as the map draws them.
fn march_rows(cv: &mut Canvas, y: &mut f64, sx: f64, row: &dyn Fn(&mut Canvas, &mut f64, &str)) {
    let blue = palette::side(Side::French);
    cv.circle((sx - 14.0, *y), 4.0, &[("fill", "#ffffff"), ("stroke", blue), ("stroke-width", "2")]);
    symbols::arrow(cv, (sx - 10.0, *y), (sx + 16.0, *y), blue, 4.0, false);
    row(cv, y, "march: from the ring to the head");
    cv.line(
        (sx - 14.0, *y),
        (sx + 14.0, *y),
        &[("stroke", blue), ("stroke-width", "2"), ("stroke-dasharray", "3 4"), ("stroke-opacity", "0.6")],
    );
    row(cv, y, "ordered on, not marched");
    cv.line((sx, *y - 9.0), (sx, *y + 9.0), &[("stroke", "#101010"), ("stroke-width", "3")]);
    row(cv, y, "halted short (hover for why)");
    symbols::arrow(cv, (sx - 14.0, *y), (sx + 14.0, *y), palette::CONTACT, 2.5, true);
    row(cv, y, "marching into contact (8.1)");
    let c = (sx, *y);
    let burst: Vec<(f64, f64)> = (0..16)
        .map(|i| super::Frame::toward(c, 22.5 * f64::from(i), if i % 2 == 0 { 9.0 } else { 4.0 }))
        .collect();
    cv.polygon(&burst, &[("fill", "#f2b705"), ("stroke", "#7a5a00")]);
    row(cv, y, "battle of the turn");
    cv.circle(
        c,
        8.0,
        &[("fill", "none"), ("stroke", palette::CUT), ("stroke-width", "2.5"), ("stroke-dasharray", "4 3")],
    );
    row(cv, y, "siege or investment");
}

/// The lines of supply's rows, when the map draws them.
fn supply_rows(
    cv: &mut Canvas,
    y: &mut f64,
    sx: f64,
    row: &dyn Fn(&mut Canvas, &mut f64, &str),
    opts: MapOptions,
) {
    if opts.supply {
        cv.line((sx - 14.0, *y), (sx + 14.0, *y), &[("stroke", palette::SUPPLY), ("stroke-width", "3")]);
        cv.rect((sx + 9.0, *y - 5.0), (10.0, 10.0), &[("fill", palette::SUPPLY), ("stroke", "#ffffff")]);
        row(cv, y, "line of supply to its source (3.1)");
        cv.line(
            (sx - 14.0, *y),
            (sx + 6.0, *y),
            &[("stroke", palette::CUT), ("stroke-width", "3"), ("stroke-dasharray", "6 4")],
        );
        let cross = [("stroke", palette::CUT), ("stroke-width", "3"), ("stroke-linecap", "round")];
        cv.line((sx + 8.0, *y - 6.0), (sx + 20.0, *y + 6.0), &cross);
        cv.line((sx + 8.0, *y + 6.0), (sx + 20.0, *y - 6.0), &cross);
        row(cv, y, "out of supply: cut there (3.3)");
    }
}
