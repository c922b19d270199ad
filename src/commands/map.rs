//! `map --out FILE`: the campaign map as a picture, the umpire's (every force) or one side's
//! (what it knows, rule 8.1), as SVG or as a self-contained HTML page.

use std::path::Path;

use std::collections::HashMap;

use anyhow::Result;

use crate::cli::MapArgs;
use crate::error::Error;
use crate::formats::html;
use crate::formats::svg::map::{MapHeading, MapOptions, campaign_map};
use crate::rules::intel::known::{side_view, umpire_view};
use crate::rules::supply::ForceSupply;
use crate::rules::zoc::contacts;
use crate::store::replace::check_paths_replaceable;
use crate::store::{CampaignDir, atomic_write};

/// What the picture is written as, by the file's extension.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum Format {
    Svg,
    Html,
}

fn format_of(path: &Path) -> Result<Format, Error> {
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

/// Runs `map`.
pub fn run(dir: &CampaignDir, a: &MapArgs) -> Result<()> {
    let format = format_of(&a.out)?;
    // Control as the rules compute it: the map draws who holds each place as `supply` does.
    let (c, report) = crate::ops::campaign_now(dir)?;
    let k = contacts(&c);
    let mut view = match a.side {
        None => umpire_view(&c, &k, a.zoc),
        Some(s) => side_view(&c, &k, s, a.zoc),
    };
    if a.supply {
        let lines: HashMap<&str, &ForceSupply> =
            report.forces.iter().map(|f| (f.force.as_str(), f)).collect();
        view = view.with_supply(|id| lines.get(id).map(|f| f.known()));
    }
    let heading = MapHeading { title: c.config.name.clone(), turn: c.config.turn, date: c.turn().date() };
    let svg =
        campaign_map(&c.map, &view, &heading, MapOptions { zoc: a.zoc, supply: a.supply, window: None });
    let bytes = match format {
        Format::Svg => svg,
        Format::Html => {
            let who = a.side.map_or("umpire's map".to_string(), |s| format!("{s} view"));
            let title = format!("{}: turn {}, {} ({who})", heading.title, heading.turn, heading.date);
            html::page(&title, &svg)
        }
    };
    check_paths_replaceable(std::slice::from_ref(&a.out))?;
    atomic_write(&a.out, &bytes)?;
    let enemy = view.viewer.map(|s| view.forces.iter().filter(|f| f.side() != s).count());
    let shown = match enemy {
        None => format!("{} forces", view.forces.len()),
        Some(e) => {
            let reported =
                view.forces.iter().filter(|f| Some(f.side()) != view.viewer && f.reported.is_some()).count();
            format!(
                "{} own forces and {e} enemy forces, in contact or reported by intelligence ({reported} reported)",
                view.forces.len() - e
            )
        }
    };
    let pairs = match view.contacts.len() {
        1 => "1 pair of forces in contact".to_string(),
        n => format!("{n} pairs of forces in contact"),
    };
    crate::errln!("wrote {} ({shown}, {pairs})", a.out.display());
    super::done_with(c);
    Ok(())
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
