//! The battle picture (`battles/<id>/battle.svg`, written by `export`): on the left the
//! campaign map around the battle hex — its ground, roads, rivers and places, the battle hex
//! marked, every principal and joiner at its hex with the line of its march to the battle
//! (8.6); on the right the SoW battle map as the scenario sets it — its orientation against
//! campaign north, the objectives, and each force's arrow to the edge it deploys toward or
//! enters by, with its delay; below, every force with its role, strength and entry, the
//! reserve held back (8.7) and how the map was chosen (8.4).
//!
//! Everything comes from the battle record and the campaign map: the picture shows what the
//! export decided, never something worked out anew.

use std::collections::BTreeMap;

use super::geometry::hexagon;
use super::palette;
use super::symbols::{self, SETTLEMENT};
use super::{Canvas, Frame, num, thousands};
use crate::model::battle::{BattleRecord, Participant, Role};
use crate::model::{CampaignMap, HexGrid, HexId, Side, Turn};

mod sow_map;
use sow_map::sow_map;

/// Centre to corner of a hex in the neighbourhood, pixels.
pub const HEX_RADIUS: f64 = 44.0;
/// The battle hex's marker: a gold burst at its centre.
pub const BATTLE_MARK: &str = "#f5b800";
/// Side of the SoW map's square, pixels.
const SQUARE: f64 = 360.0;
/// Length of an entry arrow outside the square.
const ARROW: f64 = 64.0;
/// Margin around everything.
const MARGIN: f64 = 16.0;
/// Height of the title band.
const TOP: f64 = 72.0;
/// A force counter.
const COUNTER: (f64, f64) = (30.0, 15.0);
/// Lines of the list below the pictures.
const LINE: f64 = 17.0;
/// The colour of the list's closing note.
const NOTE: &str = "#555555";

/// What the battle picture is drawn from.
#[derive(Debug, Clone, Copy)]
pub struct BattleScene<'a> {
    /// The battle as export decided it.
    pub record: &'a BattleRecord,
    /// The campaign map.
    pub map: &'a CampaignMap,
    /// Width of the SoW map in its own units (the objectives' positions are in them).
    pub world: f64,
}

/// How many hexes around the battle hex the neighbourhood shows: one beyond the farthest
/// force, at least two.
pub fn reach(record: &BattleRecord) -> u32 {
    record.participants.iter().map(|p| p.distance).max().unwrap_or(0).max(1) + 1
}

/// Where the neighbourhood's hexes are drawn: the battle hex at the middle of a panel
/// `reach` hexes wide on each side, the panel's top-left at (`MARGIN`, `TOP`).
pub fn neighbourhood_frame(grid: HexGrid, battle: HexId, reach: u32) -> Frame {
    let (w, h) = neighbourhood_size(reach);
    let at = Frame { grid, radius: HEX_RADIUS, origin: (0.0, 0.0) }.centre(battle);
    Frame { grid, radius: HEX_RADIUS, origin: (MARGIN + w / 2.0 - at.0, TOP + h / 2.0 - at.1) }
}

fn neighbourhood_size(reach: u32) -> (f64, f64) {
    let r = f64::from(reach);
    (HEX_RADIUS * (2.0 + 3.0 * r), HEX_RADIUS * 3f64.sqrt() * (2.0 * r + 1.0))
}

/// Men and guns exported for each force.
fn strengths(record: &BattleRecord) -> BTreeMap<&str, (u32, u32)> {
    let mut m: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
    for u in &record.units {
        let e = m.entry(u.force.as_str()).or_default();
        e.0 += u.men;
        e.1 += u.guns;
    }
    m
}

/// Draws the battle picture.
pub fn battle_picture(scene: &BattleScene<'_>) -> Vec<u8> {
    let r = scene.record;
    let d = reach(r);
    let frame = neighbourhood_frame(scene.map.grid, r.hex, d);
    let (nw, nh) = neighbourhood_size(d);
    let square_at = (MARGIN + nw + 40.0 + ARROW + 60.0, TOP + 40.0 + ARROW);
    let width = square_at.0 + SQUARE + ARROW + 60.0 + MARGIN;
    let list_top = TOP + nh.max(SQUARE + 2.0 * ARROW + 40.0) + 30.0;
    let list = list_lines(r);
    let height = list_top + LINE * list.len() as f64 + MARGIN;
    let date = Turn(r.turn).date();
    let title = format!("Battle {} at {}, turn {}, {date}", r.id, r.site(), r.turn);
    let mut cv = Canvas::new(width, height, &title);
    let sub = format!(
        "Battle {}, turn {}, {date} · the {} attack: {}",
        r.id, r.turn, r.attacker, r.attacker_reason
    );
    title_band(&mut cv, (width, height), &format!("The action at {}", r.site()), &sub);
    neighbourhood(&mut cv, scene, &frame, d);
    sow_map(&mut cv, scene, square_at);
    cv.open("g", &[("id", "forces-list")]);
    for (i, (text, colour, indent)) in list.iter().enumerate() {
        let x = if *indent && *colour != NOTE { MARGIN + 18.0 } else { MARGIN };
        cv.plain((x, list_top + LINE * i as f64), 12.0, "start", !indent, colour, text);
    }
    cv.close();
    cv.finish()
}

/// A white picture of `size` with the dark title band across its top: the heading, and a
/// line below it.
pub(super) fn title_band(cv: &mut Canvas, size: (f64, f64), heading: &str, sub: &str) {
    cv.rect((0.0, 0.0), size, &[("fill", "#ffffff")]);
    cv.rect((0.0, 0.0), (size.0, TOP - 12.0), &[("fill", "#2b2b2b")]);
    cv.plain((MARGIN, 30.0), 21.0, "start", true, "#ffffff", heading);
    cv.plain((MARGIN, 50.0), 12.5, "start", false, "#e8e8e8", sub);
}

/// The campaign map around the battle hex.
fn neighbourhood(cv: &mut Canvas, scene: &BattleScene<'_>, frame: &Frame, d: u32) {
    let r = scene.record;
    let caption = format!("Campaign map around {} ({} hexes round)", r.hex, d);
    ground(cv, scene.map, frame, r.hex, d, &caption);
    battle_hex_outline(cv, frame, r.hex);
    // Every force at its hex; the march of each force outside the battle hex to it.
    let at = counter_positions(frame, r);
    cv.open("g", &[("id", "marches")]);
    let centre = frame.centre(r.hex);
    for p in r.participants.iter().filter(|p| p.hex != r.hex) {
        let Some(&from) = at.get(p.force.as_str()) else { continue };
        let bearing = (centre.0 - from.0).atan2(from.1 - centre.1).to_degrees();
        let to = Frame::toward(centre, bearing + 180.0, 0.55 * HEX_RADIUS);
        let start = Frame::toward(from, bearing, COUNTER.0 / 2.0 + 2.0);
        symbols::arrow(cv, start, to, palette::side(p.side), 2.5, p.role == Role::Joiner);
    }
    cv.close();
    // The avoiding side's line of retreat (8.2): from the battle hex toward its depot.
    if let Some(l) = &r.line_of_retreat {
        let colour = palette::side(l.side);
        let tip = line_of_retreat_tip(frame, r, d);
        cv.open("g", &[("id", "line-of-retreat"), ("data-side", l.side.slug()), ("data-toward", &l.toward)]);
        cv.text(
            "title",
            &[],
            &format!("the {}' line of retreat toward {} ({}), 8.2", l.side, l.toward, l.hex),
        );
        symbols::arrow(cv, Frame::toward(centre, l.bearing, 0.6 * HEX_RADIUS), tip, colour, 3.0, true);
        // Below the arrow's tip, kept inside the panel.
        let text = format!("retreat toward {} (8.2)", l.toward);
        let half = 3.1 * super::char_len(&text) as f64;
        let (w, _) = neighbourhood_size(d);
        let x = tip.0.clamp(MARGIN + half, (MARGIN + w - half).max(MARGIN + half));
        cv.label((x, tip.1 + 16.0), 10.5, "middle", true, colour, &text);
        cv.close();
    }
    cv.open("g", &[("id", "forces")]);
    for p in &r.participants {
        let Some(&c) = at.get(p.force.as_str()) else { continue };
        cv.open("g", &[("data-force", &p.force), ("data-hex", &p.hex.to_string())]);
        cv.text("title", &[], &format!("{} {}: {}", p.force, p.name, role_text(p)));
        symbols::counter(cv, c, COUNTER, palette::side(p.side), &p.force);
        cv.close();
    }
    cv.close();
    // The marker last: nothing hides the battle hex's centre.
    battle_hex_marker(cv, frame, r.hex);
}

/// The campaign map within `d` hexes of `centre`, with a caption above it: the ground,
/// rivers, roads, hex ids and settlements as on the campaign map.
pub(super) fn ground(
    cv: &mut Canvas,
    map: &CampaignMap,
    frame: &Frame,
    centre: HexId,
    d: u32,
    caption: &str,
) {
    let grid = map.grid;
    let near = |h: HexId| grid.distance(h, centre) <= d;
    let hexes: Vec<HexId> = (0..grid.columns)
        .flat_map(|c| (0..grid.rows).map(move |w| HexId::new(c, w)))
        .filter(|&h| near(h))
        .collect();
    cv.plain((MARGIN, TOP), 12.0, "start", true, palette::INK, caption);
    cv.open("g", &[("id", "hexes"), ("stroke", palette::HEX_LINE), ("stroke-width", "0.8")]);
    for &h in &hexes {
        let fill = map.hexes.get(&h).map_or(palette::LOW, |i| palette::ground(i.terrain, i.forest));
        cv.polygon(&frame.corners(h), &[("fill", fill)]);
    }
    cv.close();
    cv.open(
        "g",
        &[("id", "rivers"), ("stroke", palette::RIVER), ("stroke-width", "4"), ("stroke-linecap", "round")],
    );
    for side in map.rivers.keys() {
        let (a, b) = side.hexes();
        if near(a)
            && near(b)
            && let Some((p, q)) = frame.shared_side(a, b)
        {
            cv.line(p, q, &[]);
        }
    }
    cv.close();
    super::map::roads(cv, map, frame, near);
    cv.open(
        "g",
        &[("id", "hex-ids"), ("font-size", "8"), ("fill", palette::HEX_ID), ("text-anchor", "middle")],
    );
    for &h in &hexes {
        let (x, y) = frame.centre(h);
        let (x, y) = (num(x), num(y + 0.78 * HEX_RADIUS));
        cv.text("text", &[("x", &x), ("y", &y)], &h.to_string());
    }
    cv.close();
    cv.open("g", &[("id", "settlements")]);
    for &h in &hexes {
        let here = map.settlements_in(h);
        let Some(first) = here.first() else { continue };
        let (x, y) = frame.centre(h);
        let at = (x, y - 0.3 * HEX_RADIUS);
        symbols::control_ring(cv, at, palette::control(first.control));
        symbols::settlement(cv, at, first.kind);
        if first.port {
            symbols::anchor(cv, (at.0 + 2.6 * SETTLEMENT, at.1));
        }
        if first.depot {
            symbols::wheel(cv, (at.0 - 2.6 * SETTLEMENT, at.1));
        }
        let names: Vec<&str> = here.iter().map(|s| s.name.as_str()).collect();
        cv.label((x, at.1 - 1.9 * SETTLEMENT - 1.0), 10.0, "middle", true, palette::INK, &names.join(" · "));
    }
    cv.close();
}

/// The battle hex's gold outline.
pub(super) fn battle_hex_outline(cv: &mut Canvas, frame: &Frame, hex: HexId) {
    let outline = [("fill", "none"), ("stroke", BATTLE_MARK), ("stroke-width", "4")];
    cv.polygon(&hexagon(frame.centre(hex), HEX_RADIUS - 2.0), &outline);
}

/// The gold burst at the battle hex's centre.
pub(super) fn battle_hex_marker(cv: &mut Canvas, frame: &Frame, hex: HexId) {
    let centre = frame.centre(hex);
    cv.open("g", &[("id", "battle-hex"), ("data-hex", &hex.to_string())]);
    let burst: Vec<(f64, f64)> = (0..16)
        .map(|i| Frame::toward(centre, 22.5 * f64::from(i), if i % 2 == 0 { 13.0 } else { 6.5 }))
        .collect();
    cv.polygon(&burst, &[("fill", BATTLE_MARK), ("stroke", "#6b4e00"), ("stroke-width", "1")]);
    cv.close();
}

/// Where the arrow of the avoiding side's line of retreat ends: toward its depot, most of the
/// way to the neighbourhood's edge.
pub fn line_of_retreat_tip(frame: &Frame, r: &BattleRecord, reach: u32) -> (f64, f64) {
    let bearing = r.line_of_retreat.as_ref().map_or(0.0, |l| l.bearing);
    let length = (f64::from(reach) - 0.6) * 3f64.sqrt() * HEX_RADIUS;
    Frame::toward(frame.centre(r.hex), bearing, length)
}

/// Counters in the neighbourhood: at their hex's centre; in the battle hex below its marker,
/// the French to the left and the Allies to the right; several in a hex side by side.
pub fn counter_positions<'a>(frame: &Frame, r: &'a BattleRecord) -> BTreeMap<&'a str, (f64, f64)> {
    let mut by_hex: BTreeMap<(HexId, Side), Vec<&Participant>> = BTreeMap::new();
    for p in &r.participants {
        by_hex.entry((p.hex, p.side)).or_default().push(p);
    }
    let mut out = BTreeMap::new();
    for ((hex, side), ps) in by_hex {
        let (x, y) = frame.centre(hex);
        let (x, y) = if hex == r.hex {
            let dx = if side == Side::French { -0.4 } else { 0.4 };
            (x + dx * HEX_RADIUS, y + 0.42 * HEX_RADIUS)
        } else {
            (x, y + 4.0)
        };
        for (i, p) in ps.iter().enumerate() {
            out.insert(p.force.as_str(), (x + 4.0 * i as f64, y + 4.0 * i as f64));
        }
    }
    out
}

/// A participant's part in words.
fn role_text(p: &Participant) -> String {
    match p.role {
        Role::Principal if p.bearing.is_none() => "principal in the battle hex, at the start".to_string(),
        Role::Principal => {
            format!("principal from {}, deploys toward the {} edge, at the start", p.hex, p.edge)
        }
        Role::Joiner => {
            format!("joins from {} by the {} edge after {} minutes (8.6)", p.hex, p.edge, p.delay_minutes)
        }
    }
}

/// The list below the pictures: every force, the reserve, avoiding, the map's choice, each
/// line with its colour and whether it is plain (else a heading, in bold).
fn list_lines(r: &BattleRecord) -> Vec<(String, &'static str, bool)> {
    let st = strengths(r);
    let mut out = Vec::new();
    for side in [Side::French, Side::Allies] {
        let colour = palette::side(side);
        let attacking = if side == r.attacker { " (attacking)" } else { "" };
        out.push((format!("{side}{attacking}"), colour, false));
        for p in r.forces(side) {
            let (men, guns) = st.get(p.force.as_str()).copied().unwrap_or_default();
            let river = p.crosses_river.as_deref().map(|n| format!(", crosses the {n}")).unwrap_or_default();
            out.push((
                format!(
                    "{} {}: {} men, {guns} guns; {}{river}",
                    p.force,
                    p.name,
                    thousands(men),
                    role_text(p)
                ),
                colour,
                true,
            ));
        }
        for res in r.reserves.iter().filter(|x| x.side == side) {
            out.push((
                format!(
                    "held back in reserve (8.7): {} {}, {} squadrons, {} men",
                    res.unit,
                    res.name,
                    res.squadrons,
                    thousands(res.men)
                ),
                colour,
                true,
            ));
        }
    }
    if let Some(av) = r.avoiding {
        let line = r
            .line_of_retreat
            .as_ref()
            .map(|l| format!(" Its line of retreat runs toward {} ({}), the broken arrow.", l.toward, l.hex))
            .unwrap_or_default();
        out.push((format!("The {av} tried to refuse battle (8.2).{line}"), palette::INK, false));
    }
    if let Some(o) = r.objectives.iter().find(|o| o.major) {
        out.push((format!("Major objective: {} ({} points)", o.name, o.points), palette::INK, false));
    }
    let map = format!("SoW map {} at {}°: {}", r.map.id, r.map.orientation, r.map.reason);
    out.push((map, palette::INK, false));
    out.push((
        "A solid arrow is a principal, there at the start; a broken one a joiner, with its delay (8.6). \
         Gold marks the battle hex and the objectives."
            .to_string(),
        NOTE,
        true,
    ));
    out
}
