//! The aftermath picture (`battles/<id>/aftermath.svg`, written by `apply` beside the battle
//! picture): the campaign map around the battle hex with the winner standing on the field,
//! each beaten force's withdrawal (8.4) drawn along its road to its destination, named, the
//! major rivers it crossed marked where it crossed them (6.5.2); below, the verdict, the
//! casualties of each side and the penalties the river brought.
//!
//! Everything comes from what `apply` decided ([`AftermathScene`]): the picture shows the
//! result, never something worked out anew.

use std::collections::BTreeMap;

use super::battle::{
    HEX_RADIUS, battle_hex_marker, battle_hex_outline, ground, neighbourhood_frame, title_band,
};
use super::palette;
use super::symbols;
use super::{Canvas, Frame, points_attr, thousands};
use crate::model::battle::BattleRecord;
use crate::model::{CampaignMap, HexId, Side, Turn};

/// Margin around everything.
const MARGIN: f64 = 16.0;
/// Height of the title band.
const TOP: f64 = 72.0;
/// A force counter.
const COUNTER: (f64, f64) = (30.0, 15.0);
/// Lines of the list below the picture.
const LINE: f64 = 17.0;
/// The colour of the list's closing note.
const NOTE: &str = "#555555";
/// Width the list below needs, pixels (the picture is at least this wide).
const LIST_WIDTH: f64 = 760.0;

/// One beaten force's withdrawal, as `apply` decided it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Retreat {
    /// The force's id.
    pub force: String,
    /// Its name.
    pub name: String,
    /// Its side.
    pub side: Side,
    /// Its hex at the end of the battle.
    pub from: HexId,
    /// Where it went; `None`: trapped, it stayed (6.5.1).
    pub to: Option<HexId>,
    /// The road it took, from `from` to `to` inclusive (empty when it stayed).
    pub path: Vec<HexId>,
    /// The river crossed on the way back, or at its back when trapped (6.5.2).
    pub river: Option<String>,
    /// Chosen by the umpire (`--withdraw-to`) rather than proposed.
    pub chosen_by_umpire: bool,
}

/// A side's losses in the battle.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub struct SideLosses {
    /// Men before the battle.
    pub before: u64,
    /// Men after it, in the ranks.
    pub after: u64,
    /// Killed.
    pub killed: u64,
    /// Wounded (those captured too).
    pub wounded: u64,
    /// Taken prisoner.
    pub captured: u64,
    /// Guns lost (those tipped into the river too).
    pub guns_lost: u64,
}

/// What the aftermath picture is drawn from.
#[derive(Debug, Clone)]
pub struct AftermathScene<'a> {
    /// The battle as export decided it.
    pub record: &'a BattleRecord,
    /// The campaign map.
    pub map: &'a CampaignMap,
    /// The winner; `None`: a draw.
    pub winner: Option<Side>,
    /// How the verdict was reached, in words.
    pub verdict: String,
    /// Each beaten force's withdrawal.
    pub retreats: Vec<Retreat>,
    /// Each side's losses, French first.
    pub losses: Vec<(Side, SideLosses)>,
    /// The penalties of 6.5.2, a line each.
    pub penalties: Vec<String>,
}

/// How many hexes around the battle hex the picture shows: one beyond the farthest force or
/// withdrawal, at least two.
pub fn aftermath_reach(scene: &AftermathScene<'_>) -> u32 {
    let grid = scene.map.grid;
    let hex = scene.record.hex;
    let forces = scene.record.participants.iter().map(|p| p.distance);
    let roads = scene.retreats.iter().flat_map(|r| r.path.iter().map(move |&h| grid.distance(hex, h)));
    forces.chain(roads).max().unwrap_or(0).max(1) + 1
}

/// A hex as the umpire names it: `Badajoz (13.29)`, or the hex alone where no place stands.
fn place(map: &CampaignMap, hex: HexId) -> String {
    match map.settlements_in(hex).first() {
        Some(s) => format!("{} ({hex})", s.name),
        None => hex.to_string(),
    }
}

/// Where each force stands after the battle: a beaten force at its destination (or its hex,
/// trapped), every other participant at its hex; several of one side in a hex side by side,
/// the French left of the Allies where both stand.
pub fn after_positions(frame: &Frame, scene: &AftermathScene<'_>) -> Vec<(String, Side, (f64, f64))> {
    let r = scene.record;
    let mut stands: Vec<(String, Side, HexId)> = Vec::new();
    for p in &r.participants {
        let hex = match scene.retreats.iter().find(|w| w.force == p.force) {
            Some(w) => w.to.unwrap_or(w.from),
            None => p.hex,
        };
        stands.push((p.force.clone(), p.side, hex));
    }
    let mut out = Vec::new();
    for (i, (force, side, hex)) in stands.iter().enumerate() {
        let both = stands.iter().any(|(_, s, h)| h == hex && s != side);
        let before = stands[..i].iter().filter(|(_, s, h)| h == hex && s == side).count();
        let (x, y) = frame.centre(*hex);
        let dx = match (both, side) {
            (false, _) => 0.0,
            (true, Side::French) => -0.4 * HEX_RADIUS,
            (true, Side::Allies) => 0.4 * HEX_RADIUS,
        };
        // Several of a side in a hex one below the other, each id readable.
        let lift = if *hex == r.hex { 0.42 * HEX_RADIUS } else { 0.0 };
        let k = (COUNTER.1 + 2.0) * before as f64;
        out.push((force.clone(), *side, (x + dx, y + lift + k)));
    }
    out
}

/// Draws the aftermath picture.
pub fn aftermath_picture(scene: &AftermathScene<'_>) -> Vec<u8> {
    let r = scene.record;
    let d = aftermath_reach(scene);
    let frame = neighbourhood_frame(scene.map.grid, r.hex, d);
    let nw = HEX_RADIUS * (2.0 + 3.0 * f64::from(d));
    let nh = HEX_RADIUS * 3f64.sqrt() * (2.0 * f64::from(d) + 1.0);
    let list = list_lines(scene);
    let width = (MARGIN + nw + MARGIN).max(MARGIN + LIST_WIDTH + MARGIN);
    let list_top = TOP + nh + 30.0;
    let height = list_top + LINE * list.len() as f64 + MARGIN;
    let date = Turn(r.turn).date();
    let verdict = scene.winner.map_or("a draw".to_string(), |w| format!("{w} victory"));
    let title = format!("After the battle {} at {}, turn {}, {date}: {verdict}", r.id, r.site(), r.turn);
    let mut cv = Canvas::new(width, height, &title);
    let heading = format!("After the action at {}: {verdict}", r.site());
    let sub = format!("Battle {}, turn {}, {date} · the withdrawal (8.4) and the losses", r.id, r.turn);
    title_band(&mut cv, (width, height), &heading, &sub);
    let caption = format!("Campaign map around {} ({} hexes round)", r.hex, d);
    // The neighbourhood's reach, for whoever reads the picture back (where each hex is drawn
    // follows from it: `neighbourhood_frame`).
    let reach = d.to_string();
    cv.open("g", &[("id", "neighbourhood"), ("data-reach", &reach), ("data-centre", &r.hex.to_string())]);
    ground(&mut cv, scene.map, &frame, r.hex, d, &caption);
    battle_hex_outline(&mut cv, &frame, r.hex);
    withdrawals(&mut cv, scene, &frame);
    cv.open("g", &[("id", "forces")]);
    for (force, side, at) in after_positions(&frame, scene) {
        let beaten = scene.retreats.iter().any(|w| w.force == force);
        let state = if beaten { "withdrawn" } else { "on the field" };
        cv.open("g", &[("data-force", &force), ("data-state", state)]);
        cv.text("title", &[], &format!("{force}: {state}"));
        symbols::counter(&mut cv, at, COUNTER, palette::side(side), &force);
        cv.close();
    }
    cv.close();
    battle_hex_marker(&mut cv, &frame, r.hex);
    cv.close();
    cv.open("g", &[("id", "aftermath-list")]);
    for (i, (text, colour, plain)) in list.iter().enumerate() {
        let x = if *plain && *colour != NOTE { MARGIN + 18.0 } else { MARGIN };
        cv.plain((x, list_top + LINE * i as f64), 12.0, "start", !plain, colour, text);
    }
    cv.close();
    cv.finish()
}

/// Each withdrawal: a line in the force's colour along its road, an arrowhead at the
/// destination with the place named, and a marker where it crossed a major river.
fn withdrawals(cv: &mut Canvas, scene: &AftermathScene<'_>, frame: &Frame) {
    cv.open("g", &[("id", "withdrawals")]);
    for w in &scene.retreats {
        let colour = palette::side(w.side);
        cv.open("g", &[("data-withdrawal", &w.force)]);
        let Some(_) = w.to.filter(|&t| t != w.from && w.path.len() > 1) else {
            // It stayed: trapped, or fallen back into the place it fought in.
            let (x, y) = frame.centre(w.from);
            let why = if w.to.is_none() { "trapped (6.5.1)" } else { "stays (8.4)" };
            // Under its counter, short: the counter names the force.
            cv.label((x, y + 0.55 * HEX_RADIUS), 9.5, "middle", true, colour, why);
            cv.close();
            continue;
        };
        let points: Vec<(f64, f64)> = w.path.iter().map(|&h| frame.centre(h)).collect();
        let pts = points_attr(&points[..points.len() - 1]);
        let casing = [
            ("points", pts.as_str()),
            ("fill", "none"),
            ("stroke", "#ffffff"),
            ("stroke-width", "8"),
            ("stroke-linejoin", "round"),
            ("stroke-linecap", "round"),
        ];
        cv.empty("polyline", &casing);
        let line = [
            ("points", pts.as_str()),
            ("fill", "none"),
            ("stroke", colour),
            ("stroke-width", "4"),
            ("stroke-linejoin", "round"),
            ("stroke-linecap", "round"),
            ("stroke-dasharray", "10 4"),
        ];
        cv.empty("polyline", &line);
        // The last step ends in an arrowhead at the edge of the destination's counter.
        let (a, b) = (points[points.len() - 2], points[points.len() - 1]);
        let bearing = (b.0 - a.0).atan2(a.1 - b.1).to_degrees();
        let tip = Frame::toward(b, bearing + 180.0, COUNTER.0 / 2.0 + 2.0);
        symbols::arrow(cv, a, tip, colour, 4.0, false);
        for pair in w.path.windows(2) {
            if let (Some(name), Some((p, q))) =
                (scene.map.river(pair[0], pair[1]), frame.shared_side(pair[0], pair[1]))
            {
                let at = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0);
                cv.open("g", &[("data-river-crossed", name)]);
                cv.circle(at, 7.0, &[("fill", "#ffffff"), ("stroke", palette::RIVER), ("stroke-width", "3")]);
                cv.circle(at, 2.5, &[("fill", palette::RIVER)]);
                cv.label(
                    (at.0 + 10.0, at.1 - 8.0),
                    10.0,
                    "start",
                    true,
                    palette::RIVER,
                    &format!("crosses the {name}"),
                );
                cv.close();
            }
        }
        cv.close();
    }
    // Each destination named once, with every force that went there.
    let mut arrivals: BTreeMap<HexId, (Side, Vec<&str>)> = BTreeMap::new();
    for w in &scene.retreats {
        if let Some(to) = w.to.filter(|&t| t != w.from && w.path.len() > 1) {
            arrivals.entry(to).or_insert((w.side, Vec::new())).1.push(&w.force);
        }
    }
    for (to, (side, forces)) in arrivals {
        let (x, y) = frame.centre(to);
        let label = format!("{} to {}", forces.join(", "), place(scene.map, to));
        cv.label((x, y + 0.95 * HEX_RADIUS), 10.5, "middle", true, palette::side(side), &label);
    }
    cv.close();
}

/// The list below the picture: the verdict, each side's losses, the withdrawals and the
/// penalties, each line with its colour and whether it is plain (else a heading, in bold).
fn list_lines(scene: &AftermathScene<'_>) -> Vec<(String, &'static str, bool)> {
    let mut out = Vec::new();
    let verdict = scene.winner.map_or("Draw".to_string(), |w| format!("{w} victory"));
    out.push((verdict, scene.winner.map_or(palette::INK, palette::side), false));
    for line in super::map::wrap(&scene.verdict, 110) {
        out.push((line, palette::INK, true));
    }
    out.push(("Losses".to_string(), palette::INK, false));
    for (side, l) in &scene.losses {
        out.push((
            format!(
                "{side}: {} men before, {} after: {} killed, {} wounded, {} captured; {} guns lost",
                thousands_u64(l.before),
                thousands_u64(l.after),
                thousands_u64(l.killed),
                thousands_u64(l.wounded),
                thousands_u64(l.captured),
                l.guns_lost
            ),
            palette::side(*side),
            true,
        ));
    }
    out.push(("Withdrawal (8.4)".to_string(), palette::INK, false));
    if scene.retreats.is_empty() {
        out.push(("No withdrawal: the battle was drawn.".to_string(), palette::INK, true));
    }
    for w in &scene.retreats {
        let by = if w.chosen_by_umpire { " (the umpire's choice)" } else { "" };
        let text = match w.to {
            None => format!("{} {} is trapped at {} (6.5.1)", w.force, w.name, place(scene.map, w.from)),
            Some(to) if to == w.from => {
                format!("{} {} falls back into {} and stops (8.4){by}", w.force, w.name, place(scene.map, to))
            }
            Some(to) => format!(
                "{} {} withdraws from {} to {}{by}, {} hexes by road",
                w.force,
                w.name,
                place(scene.map, w.from),
                place(scene.map, to),
                w.path.len().saturating_sub(1)
            ),
        };
        let river = w.river.as_ref().map(|r| format!("; the {r} (6.5.2)")).unwrap_or_default();
        out.push((format!("{text}{river}"), palette::side(w.side), true));
    }
    if !scene.penalties.is_empty() {
        out.push(("Penalties (6.5.2)".to_string(), palette::INK, false));
        for p in &scene.penalties {
            out.push((p.clone(), palette::INK, true));
        }
    }
    let crossed = scene
        .retreats
        .iter()
        .any(|w| w.to.is_some() && w.path.windows(2).any(|p| scene.map.river(p[0], p[1]).is_some()));
    let ring = if crossed { "; a blue ring marks a major river crossed" } else { "" };
    out.push((
        format!("A broken line is a withdrawal along its road, ending at its destination{ring}. Gold marks the battle hex."),
        NOTE,
        true,
    ));
    out
}

fn thousands_u64(n: u64) -> String {
    u32::try_from(n).map_or_else(|_| n.to_string(), thousands)
}
