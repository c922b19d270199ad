//! `map --out FILE`: the campaign map as a picture, the umpire's (every force) or one side's
//! (what it knows, rule 8.1), as SVG or as a self-contained HTML page. `map export FILE.tmj`
//! and `map import FILE.tmj`: the map in the Tiled map editor.

use std::path::Path;

use anyhow::Result;

use crate::cli::{MapArgs, MapCommand};
use crate::formats::report::tiled as report;
use crate::ops::map::MapRequest;
use crate::ops::tiled::{TiledExportRequest, TiledImportRequest, export_tiled, import_tiled};
use crate::store::CampaignDir;

/// Runs `map`.
pub fn run(dir: &CampaignDir, a: &MapArgs) -> Result<()> {
    match (&a.tiled, &a.out) {
        (Some(MapCommand::Export { file, image, hex_width, replace }), _) => {
            let req = TiledExportRequest {
                out: file.clone(),
                image: image.clone(),
                hex_width: *hex_width,
                replace: *replace,
            };
            export(dir, &req)
        }
        (Some(MapCommand::Import { file, dry_run }), _) => import(dir, file, *dry_run),
        (None, Some(out)) => {
            let req = MapRequest { out: out.clone(), side: a.side, zoc: a.zoc, supply: a.supply };
            let o = crate::ops::map::map(dir, &req)?;
            crate::errln!("{}", crate::formats::report::map::wrote(out, &o.view));
            super::done_with(o.campaign);
            Ok(())
        }
        // clap asks for --out when there is no subcommand.
        (None, None) => Ok(()),
    }
}

fn export(dir: &CampaignDir, req: &TiledExportRequest) -> Result<()> {
    let o = export_tiled(dir, req)?;
    let (map, tileset) = (o.map.display().to_string(), o.tileset.display().to_string());
    crate::out!("{}", report::exported_text(&map, &tileset, o.counts, (o.size.width, o.size.height)));
    Ok(())
}

fn import(dir: &CampaignDir, file: &Path, dry_run: bool) -> Result<()> {
    let o = import_tiled(dir, &TiledImportRequest { path: file.to_path_buf(), dry_run })?;
    let shown = file.display().to_string();
    crate::out!("{}", report::import_text(&shown, &o.changes, o.turns, &o.ignored, o.seq, dry_run));
    Ok(())
}
