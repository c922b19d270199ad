//! The map use case: the campaign map as a picture, the umpire's (every force) or one side's
//! (what it knows, rule 8.1), as SVG or as a self-contained HTML page, written to a file.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::formats::html;
use crate::formats::report::march::{MoveReport, halt_text};
use crate::formats::svg::map::{
    Event, MapHeading, MapOptions, MarchLine, TurnMarches, campaign_map, turn_map,
};
use crate::model::{Campaign, HexId, Side};
use crate::rules::intel::known::{ForcesView, side_view, umpire_view};
use crate::rules::supply::ForceSupply;
use crate::rules::zoc::contacts;
use crate::store::journal::MarchRoute;
use crate::store::replace::check_paths_replaceable;
use crate::store::{CampaignDir, atomic_write};

/// What to draw and where.
#[derive(Debug, Clone)]
pub struct MapRequest {
    /// The picture to write: FILE.svg, or FILE.html for a page holding it.
    pub out: PathBuf,
    /// Only what one side knows (8.1); `None` for the umpire's map.
    pub side: Option<Side>,
    /// Shade every force's zone of control (8.1, 8.3).
    pub zoc: bool,
    /// Draw the lines of supply (3.1-3.3) the viewer may see.
    pub supply: bool,
}

/// What was drawn.
#[derive(Debug)]
pub struct MapOutcome {
    /// The campaign now.
    pub campaign: Campaign,
    /// The forces and contacts drawn.
    pub view: ForcesView,
}

/// What the picture is written as, by the file's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Svg,
    Html,
}

fn format_of(path: &Path) -> Result<Format> {
    let ext = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase);
    match ext.as_deref() {
        Some("svg") => Ok(Format::Svg),
        Some("html" | "htm") => Ok(Format::Html),
        _ => Err(Error::refused(format!(
            "--out {}: the picture is written as FILE.svg or FILE.html; nothing written",
            path.display()
        ))),
    }
}

/// Draws the map and writes it to `req.out`.
pub fn map(dir: &CampaignDir, req: &MapRequest) -> Result<MapOutcome> {
    let format = format_of(&req.out)?;
    // Control as the rules compute it: the map draws who holds each place as `supply` does.
    let (c, report) = super::campaign_now(dir)?;
    let k = contacts(&c);
    let mut view = match req.side {
        None => umpire_view(&c, &k, req.zoc),
        Some(s) => side_view(&c, &k, s, req.zoc),
    };
    if req.supply {
        let lines: HashMap<&str, &ForceSupply> =
            report.forces.iter().map(|f| (f.force.as_str(), f)).collect();
        view = view.with_supply(|id| lines.get(id).map(|f| f.known()));
    }
    let heading = MapHeading { title: c.config.name.clone(), turn: c.config.turn, date: c.turn().date() };
    // A side's map draws only the roads it knows (13 July 2014); the umpire's, all.
    let shown = match req.side {
        Some(s) => crate::rules::roads::map_known_to(&c, s),
        None => std::borrow::Cow::Borrowed(&c.map),
    };
    let svg =
        campaign_map(&shown, &view, &heading, MapOptions { zoc: req.zoc, supply: req.supply, window: None });
    let who = req.side.map_or("umpire's map".to_string(), |s| format!("{s} view"));
    let title = format!("{}: turn {}, {} ({who})", heading.title, heading.turn, heading.date);
    write_picture(&req.out, format, svg, &title)?;
    Ok(MapOutcome { campaign: c, view })
}

/// Writes a picture to the user's file `out`, as SVG or as a page titled `title`.
fn write_picture(out: &Path, format: Format, svg: Vec<u8>, title: &str) -> Result<()> {
    let bytes = match format {
        Format::Svg => svg,
        Format::Html => html::page(title, &svg),
    };
    check_paths_replaceable(&[out.to_path_buf()])?;
    atomic_write(out, &bytes)
}

/// Refuses, before anything is done, a `--map` file that is neither FILE.svg nor FILE.html, or
/// that cannot be replaced (held open by another program): the move it draws is committed
/// before the picture is written.
pub fn check_picture_name(out: &Path) -> Result<()> {
    format_of(out)?;
    check_paths_replaceable(&[out.to_path_buf()])
}

fn heading(c: &Campaign) -> MapHeading {
    MapHeading { title: c.config.name.clone(), turn: c.config.turn, date: c.turn().date() }
}

/// The umpire's map of marches on `c` (the forces where the marches leave them).
fn marches_picture(c: &Campaign, k: &[crate::rules::zoc::Contact], t: &TurnMarches) -> Vec<u8> {
    turn_map(&c.map, &umpire_view(c, k, false), &heading(c), t)
}

/// The side of a force of `c` (French when it is not in the order of battle).
fn side_of(c: &Campaign, force: &str) -> Side {
    c.oob.get(force).map_or(Side::French, |u| u.nation.side())
}

/// `move --map FILE`: the marches of a move (judged, perhaps not committed) drawn on the
/// campaign as they leave it, written to the user's file `out`.
pub fn write_move_map(after: &Campaign, r: &MoveReport, out: &Path) -> Result<()> {
    let format = format_of(out)?;
    let t = TurnMarches {
        caption: if r.dry_run {
            "the marches these orders would make (move --dry-run): nothing committed".to_string()
        } else {
            "the marches of this move".to_string()
        },
        marches: r
            .forces
            .iter()
            .map(|m| MarchLine {
                force: m.force.clone(),
                side: side_of(after, &m.force),
                marched: m.marched.clone(),
                rest: m.route.iter().skip(m.marched.len()).copied().collect(),
                halt: m.halt.as_ref().map(halt_text),
                toward: m.moving_to,
            })
            .collect(),
        new_contacts: r
            .new_contacts
            .iter()
            .flat_map(|k| k.pairs.iter().map(|p| (p.french.clone(), p.allies.clone())))
            .collect(),
        battles: Vec::new(),
        sieges: sieges(after),
    };
    let svg = marches_picture(after, &contacts(after), &t);
    let title = format!("{}: turn {} marches", after.config.name, after.config.turn);
    write_picture(out, format, svg, &title)
}

fn sieges(c: &Campaign) -> Vec<Event> {
    c.books
        .sieges
        .iter()
        .map(|s| Event { hex: s.hex, text: format!("{} of {}", s.kind.word(), s.place) })
        .collect()
}

/// Each force's march as a move entry records it.
pub fn march_routes(r: &MoveReport) -> Vec<MarchRoute> {
    let hexes = |h: &[HexId]| h.iter().map(ToString::to_string).collect::<Vec<_>>().join(" ");
    r.forces
        .iter()
        .map(|m| MarchRoute {
            force: m.force.clone(),
            marched: hexes(&m.marched),
            rest: hexes(m.route.get(m.marched.len()..).unwrap_or_default()),
            halt: m.halt.as_ref().map(halt_text),
            toward: m.moving_to.map(|h| h.to_string()),
        })
        .collect()
}

/// The umpire's map of turn `c.config.turn`'s marches (those of its moves that stand, as
/// the journal recorded them), its contacts made by a march, its battles and sieges, drawn
/// on `c` as the turn's marching left it: the turn advance writes it beside its reports.
pub fn turn_marches_picture(dir: &CampaignDir, c: &Campaign) -> Result<Vec<u8>> {
    let turn = c.config.turn;
    let routes = dir.read_journal()?.marches_this_turn(turn);
    let hexes = |s: &str| -> Vec<HexId> { s.split(' ').filter_map(|h| h.parse().ok()).collect() };
    let marches: Vec<MarchLine> = routes
        .values()
        .map(|r| MarchLine {
            force: r.force.clone(),
            side: side_of(c, &r.force),
            marched: hexes(&r.marched),
            rest: hexes(&r.rest),
            halt: r.halt.clone(),
            toward: r.toward.as_deref().and_then(|h| h.parse().ok()),
        })
        .filter(|m| !m.marched.is_empty())
        .collect();
    let k = contacts(c);
    let new_contacts = k
        .iter()
        .flat_map(|k| k.pairs.iter())
        .filter(|p| routes.contains_key(&p.french) || routes.contains_key(&p.allies))
        .map(|p| (p.french.clone(), p.allies.clone()))
        .collect();
    let battles = dir
        .battles()?
        .into_iter()
        .filter(|b| b.turn == turn)
        .map(|b| Event { hex: b.hex, text: format!("battle of {} ({})", b.place, b.id) })
        .collect();
    let t = TurnMarches {
        caption: format!("the marches of turn {turn}, its contacts, battles and sieges"),
        marches,
        new_contacts,
        battles,
        sieges: sieges(c),
    };
    Ok(marches_picture(c, &k, &t))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_picture_format_follows_the_extension() {
        assert_eq!(format_of(Path::new("map.svg")).unwrap(), Format::Svg);
        assert_eq!(format_of(Path::new("Map.HTML")).unwrap(), Format::Html);
        let e = format_of(Path::new("map.png")).unwrap_err().to_string();
        assert!(e.contains("FILE.svg or FILE.html"), "{e}");
    }
}
