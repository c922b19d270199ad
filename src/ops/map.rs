//! The map use case: the campaign map as a picture, the umpire's (every force) or one side's
//! (what it knows, rule 8.1), as SVG or as a self-contained HTML page, written to a file.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::error::{Error, Result};
use crate::formats::html;
use crate::formats::svg::map::{MapHeading, MapOptions, campaign_map};
use crate::model::{Campaign, Side};
use crate::rules::intel::known::{ForcesView, side_view, umpire_view};
use crate::rules::supply::ForceSupply;
use crate::rules::zoc::contacts;
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
    let bytes = match format {
        Format::Svg => svg,
        Format::Html => {
            let who = req.side.map_or("umpire's map".to_string(), |s| format!("{s} view"));
            let title = format!("{}: turn {}, {} ({who})", heading.title, heading.turn, heading.date);
            html::page(&title, &svg)
        }
    };
    check_paths_replaceable(std::slice::from_ref(&req.out))?;
    atomic_write(&req.out, &bytes)?;
    Ok(MapOutcome { campaign: c, view })
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
