//! The campaign map as an SVG picture: every hex of the map laid out by the campaign's own
//! layout setting with its ground, the roads, the major rivers on hex sides, every
//! settlement with its kind (rule 1.2's legend) and who holds it, every force the viewer
//! knows of as a counter with its name and strength, the contacts between them, and
//! optionally the zones of control; a legend with the turn and the date beside it.
//!
//! The picture is drawn from a [`ForcesView`], never from the order of battle: a side's
//! view holds only what that side knows, so its picture cannot show more.

use super::legend::{LEGEND_HEIGHT, map_legend};
use super::{Canvas, Frame};
use crate::model::{CampaignMap, HexGrid, HexId, Side};
use crate::rules::intel::known::ForcesView;

mod forces;
mod ground;
mod marches;
mod place;
#[cfg(test)]
mod tests;

use super::labels::{Placer, Rect};
use forces::{contacts, forces, standing_orders, supply_lines, zones};
pub use forces::{counter_positions, strength_text, wrap};
pub(super) use ground::roads;
use ground::{geography, hex_ids, hexes, rivers, settlements};
pub use marches::{Event, MarchLine, TurnMarches};

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

/// Draws the campaign map.
pub fn campaign_map(map: &CampaignMap, view: &ForcesView, heading: &MapHeading, opts: MapOptions) -> Vec<u8> {
    draw(map, view, heading, opts, None)
}

/// Draws the umpire's map of a turn's marches: the campaign map with every force where the
/// marches left it, and over it each march, the contacts they made, the battles and sieges.
pub fn turn_map(map: &CampaignMap, view: &ForcesView, heading: &MapHeading, turn: &TurnMarches) -> Vec<u8> {
    draw(map, view, heading, MapOptions::default(), Some(turn))
}

fn draw(
    map: &CampaignMap,
    view: &ForcesView,
    heading: &MapHeading,
    opts: MapOptions,
    turn: Option<&TurnMarches>,
) -> Vec<u8> {
    let win = opts.window.unwrap_or_else(|| Window::whole(map.grid));
    let frame = window_frame(map, &win);
    let (cols, rows) = win.size();
    let (mw, mh) = Frame { grid: HexGrid { columns: cols, rows, ..map.grid }, ..frame }.extent();
    // Only what the window shows is drawn (a view is filtered, never widened).
    let shown;
    let view = if opts.window.is_some() {
        shown = view.within(|h| win.contains(h));
        shown.as_ref()
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
    let who = if turn.is_some() { "the turn's marches".to_string() } else { who };
    let title = format!("{}: turn {}, {} ({who})", heading.title, heading.turn, heading.date);
    // Room for the whole picture at once: a hex takes about 150 bytes, a force 350 and its
    // line of supply 250 more.
    let per_force = if opts.supply { 600 } else { 350 };
    let room = 150 * usize::from(cols) * usize::from(rows) + per_force * view.forces.len();
    let mut cv = Canvas::with_capacity(width, height, &title, room);
    cv.rect((0.0, 0.0), (width, height), &[("fill", "#ffffff")]);
    title_band(&mut cv, heading, view.viewer, width, turn.map(|t| t.caption.as_str()));
    // Every name is placed at the end, where it overlaps no other and no counter.
    cv.defer_labels();
    hexes(&mut cv, map, &frame, &win);
    geography(&mut cv, map, &frame, &win);
    if opts.zoc {
        zones(&mut cv, &frame, view, &win);
    }
    rivers(&mut cv, map, &frame, &win, view);
    roads(&mut cv, map, &frame, |h| win.contains(h));
    hex_ids(&mut cv, &frame, &win);
    settlements(&mut cv, map, &frame, &win);
    let deferred = cv.take_deferred();
    if opts.supply {
        supply_lines(&mut cv, &frame, view, &win);
    }
    standing_orders(&mut cv, &frame, view, &win);
    // Labels stay on the map's part of the picture: never off its edge or over the legend.
    let mut placer = Placer::within(Rect { x0: 0.0, y0: TOP, x1: legend_x, y1: height });
    let events = turn.map(|t| marches::marches(&mut cv, &frame, &win, t, &mut placer)).unwrap_or_default();
    let at = counter_positions(&frame, view);
    contacts(&mut cv, view, &at);
    if let Some(t) = turn {
        marches::new_contacts(&mut cv, t, &at);
    }
    let force_labels = forces(&mut cv, map, &frame, view, &mut placer);
    let (places, rest) = place::ground_labels(deferred, &mut placer);
    // The places' names first; the forces', the turn's events and the rivers' give way.
    for l in places.into_iter().chain(force_labels).chain(events).chain(rest) {
        placer.place(l);
    }
    placer.draw(&mut cv, "labels");
    map_legend(&mut cv, (legend_x, TOP), view.viewer, opts, turn.is_some());
    cv.finish()
}

pub(super) fn side_word(s: Side) -> &'static str {
    match s {
        Side::French => "French",
        Side::Allies => "Allied",
    }
}

fn title_band(
    cv: &mut Canvas,
    heading: &MapHeading,
    viewer: Option<Side>,
    width: f64,
    caption: Option<&str>,
) {
    cv.rect((0.0, 0.0), (width, TOP - 8.0), &[("fill", "#2b2b2b")]);
    cv.plain((MARGIN, 30.0), 22.0, "start", true, "#ffffff", &heading.title);
    let sub = match (viewer, caption) {
        (_, Some(c)) => format!("Turn {}, {} · {c}", heading.turn, heading.date),
        (None, None) => format!("Turn {}, {} · umpire's map: every force", heading.turn, heading.date),
        (Some(s), None) => format!(
            "Turn {}, {} · {} view: its own forces, and the enemy in contact with them (8.1) or reported (9.0)",
            heading.turn,
            heading.date,
            side_word(s)
        ),
    };
    cv.plain((MARGIN, 48.0), 13.0, "start", false, "#e8e8e8", &sub);
}
