//! The campaign's map in the Tiled map editor: `map export` writes it as a Tiled map (with the
//! tileset's picture beside it and, optionally, the umpire's own map image beneath), `map
//! import` reads an edited one back, checks the campaign would load with it as `check` does,
//! and commits what changed through the journal (`undo map` takes it back).

use std::path::{Path, PathBuf};

use crate::error::{Error, Problem, Problems, Result};
use crate::formats::campaign::names;
use crate::formats::campaign::parse_campaign;
use crate::formats::table::Sheet;
use crate::formats::tiled::{
    CurrentFiles, HexSize, MapChanges, Pixels, TiledExport, map_files, read_tmj, tileset_png, write_tmj,
};
use crate::store::journal::{Entry, StateFiles};
use crate::store::replace::check_paths_replaceable;
use crate::store::{CampaignDir, Commit, atomic_write, read_optional};

/// `map export FILE.tmj`.
#[derive(Debug, Clone)]
pub struct TiledExportRequest {
    /// The map file to write (`.tmj`).
    pub out: PathBuf,
    /// The umpire's own map image, put beneath the grid.
    pub image: Option<PathBuf>,
    /// A hex's width in pixels (else 32).
    pub hex_width: Option<u32>,
    /// Write over a map file that is there (its edits not yet imported are lost).
    pub replace: bool,
}

/// What `map export` wrote.
#[derive(Debug, Clone)]
pub struct TiledExported {
    /// The map file.
    pub map: PathBuf,
    /// The tileset's picture beside it.
    pub tileset: PathBuf,
    /// The hex size written.
    pub size: HexSize,
    /// Hexes, road sides, river sides and settlements written.
    pub counts: [usize; 4],
}

/// Writes the campaign's map as a Tiled map.
pub fn export_tiled(dir: &CampaignDir, req: &TiledExportRequest) -> Result<TiledExported> {
    if !req.out.extension().is_some_and(|e| e.eq_ignore_ascii_case("tmj") || e.eq_ignore_ascii_case("json")) {
        return Err(Error::refused(format!(
            "{}: a Tiled map is written as FILE.tmj (Tiled's JSON map format); nothing written",
            req.out.display()
        )));
    }
    let c = dir.load()?;
    let settlements = Sheet::read(names::SETTLEMENTS, &dir.read(names::SETTLEMENTS)?.unwrap_or_default());
    let folder = req.out.parent().unwrap_or_else(|| Path::new(""));
    let stem = req.out.file_stem().map(|s| s.to_string_lossy().into_owned()).unwrap_or_default();
    let tileset_name = format!("{stem}-terrain.png");
    let tileset = folder.join(&tileset_name);
    let image = match &req.image {
        Some(p) if read_optional(p)?.is_none() => {
            return Err(Error::refused(format!("--image {}: no such file; nothing written", p.display())));
        }
        Some(p) => Some(relative_to(p, folder)),
        None => None,
    };
    let size = req.hex_width.map_or(HexSize::DEFAULT, HexSize::of_width);
    let pixels = Pixels { grid: c.map.grid, size };
    let x = TiledExport {
        map: &c.map,
        pixels,
        settlements: &settlements,
        name: &c.config.name,
        turn: c.config.turn,
        tileset_image: &tileset_name,
        image: image.as_deref(),
    };
    let bytes = write_tmj(&x);
    if !req.replace && read_optional(&req.out)?.is_some() {
        return Err(Error::refused(format!(
            "{} is there already: its edits not yet imported, and your image's alignment, would be lost; \
             import it first, or export with --replace; nothing written",
            req.out.display()
        )));
    }
    check_paths_replaceable(&[req.out.clone(), tileset.clone()])?;
    atomic_write(&tileset, &tileset_png(size))?;
    atomic_write(&req.out, &bytes)?;
    let grid = c.map.grid;
    let counts = [grid.cells(), c.map.roads.len(), c.map.rivers.len(), c.map.settlements.len()];
    Ok(TiledExported { map: req.out.clone(), tileset, size, counts })
}

/// The image's path as the map file names it: relative to the map's folder (with `/`, as
/// Tiled writes it, `..` to climb) when both are on one drive, else whole.
fn relative_to(image: &Path, folder: &Path) -> String {
    use std::path::Component;
    let abs = |p: &Path| std::path::absolute(p).unwrap_or_else(|_| p.to_path_buf());
    let (image, folder) = (abs(image), abs(folder));
    let (i, f): (Vec<Component>, Vec<Component>) =
        (image.components().collect(), folder.components().collect());
    let common = i.iter().zip(&f).take_while(|(a, b)| a == b).count();
    // Nothing in common: another drive.
    if common == 0 {
        return image.to_string_lossy().replace('\\', "/");
    }
    let up = std::iter::repeat_n("..".to_string(), f.len() - common);
    let down = i[common..].iter().map(|c| c.as_os_str().to_string_lossy().into_owned());
    up.chain(down).collect::<Vec<_>>().join("/")
}

/// `map import FILE.tmj`.
#[derive(Debug, Clone)]
pub struct TiledImportRequest {
    /// The map file.
    pub path: PathBuf,
    /// Show what would change, change nothing.
    pub dry_run: bool,
}

/// What `map import` changed (or would).
#[derive(Debug, Clone)]
pub struct TiledImported {
    /// The changes.
    pub changes: MapChanges,
    /// The turn the file was written at, and the campaign's.
    pub turns: (Option<u32>, u32),
    /// Objects of the file that are no part of the map, left alone.
    pub ignored: Vec<String>,
    /// The journal entry (`None`: nothing committed, a dry run or no change).
    pub seq: Option<u64>,
}

/// Reads an edited Tiled map and commits the map's files that change.
pub fn import_tiled(dir: &CampaignDir, req: &TiledImportRequest) -> Result<TiledImported> {
    let lock = dir.lock_unless_dry_run(req.dry_run)?;
    let c = dir.load()?;
    let shown = req.path.display().to_string();
    let Some(bytes) = read_optional(&req.path)? else {
        return Err(Error::refused(format!("{shown}: no such file; nothing changed")));
    };
    let mut files = dir.read_files()?;
    let current = |name: &str| files.files.get(name).cloned();
    let (hexes, roads, rivers, settlements) =
        (current(names::HEXES), current(names::ROADS), current(names::RIVERS), current(names::SETTLEMENTS));
    let columns = Sheet::read(names::SETTLEMENTS, settlements.as_deref().unwrap_or_default()).columns;
    let t = read_tmj(&shown, &bytes, c.map.grid, &c.config.name, &columns).map_err(Error::Rejected)?;
    // A file that does not say its turn is not trusted with the campaign's state either.
    let state_current = t.turn == Some(c.config.turn);
    let now = CurrentFiles {
        hexes: hexes.as_deref(),
        roads: roads.as_deref(),
        rivers: rivers.as_deref(),
        settlements: settlements.as_deref(),
    };
    let (new, changes) = map_files(&shown, &t, &c.map, now, c.dialect(names::SETTLEMENTS), state_current)
        .map_err(Error::Rejected)?;
    let mut out = TiledImported { changes, turns: (t.turn, c.config.turn), ignored: t.ignored, seq: None };
    let objects = new.settlement_objects;
    let changed: Vec<(&str, Vec<u8>)> = [
        (names::HEXES, new.hexes),
        (names::ROADS, new.roads),
        (names::RIVERS, new.rivers),
        (names::SETTLEMENTS, new.settlements),
    ]
    .into_iter()
    .filter_map(|(f, b)| b.map(|b| (f, b)))
    .collect();
    if changed.is_empty() {
        return Ok(out);
    }
    // The campaign must load with the new map as `check` loads it: a settlement of an unknown
    // kind or control, a force's depot no longer a settlement, each refused with the file's
    // own words.
    for (f, b) in &changed {
        files.files.insert(f, b.clone());
    }
    if let Err(p) = parse_campaign(&files) {
        let told = p.0.into_iter().map(|q| from_the_map(&shown, &objects, q)).collect();
        return Err(Error::Rejected(Problems(told)));
    }
    let Some(lock) = lock else { return Ok(out) };
    let txn = dir.begin(&lock)?;
    let state: StateFiles = changed.into_iter().map(|(f, b)| (f.to_string(), Some(b))).collect();
    let summary = format!(
        "map import of {}: {}",
        file_name(&req.path),
        crate::formats::report::tiled::summary(&out.changes)
    );
    let entry = Entry::map_import(c.config.turn, summary);
    let commit = Commit { operation: Some("map import".into()), ..Commit::default() };
    out.seq = Some(txn.finish(state, Some(entry), commit)?);
    Ok(out)
}

/// A problem of the campaign loaded with the new map, told of the map file's object where it
/// is a row of `settlements.csv` the map wrote (that file is not written yet).
fn from_the_map(shown: &str, objects: &[String], q: Problem) -> Problem {
    let field = q.field.as_deref().map(|f| format!("property '{f}': ")).unwrap_or_default();
    let object = match q.line {
        Some(line) if q.file == names::SETTLEMENTS => objects.get((line as usize).wrapping_sub(2)),
        _ => None,
    };
    match object {
        Some(o) => Problem::in_file(shown, format!("{o}: {field}{}", q.message)),
        None => {
            let at = q.line.map(|l| format!(":{l}")).unwrap_or_default();
            Problem::in_file(shown, format!("with this map, {}{at}: {field}{}", q.file, q.message))
        }
    }
}

fn file_name(p: &Path) -> String {
    p.file_name().map_or_else(|| p.display().to_string(), |n| n.to_string_lossy().into_owned())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_image_is_named_relative_to_the_map_file() {
        let base = std::path::absolute(Path::new("maps")).unwrap();
        assert_eq!(relative_to(&base.join("img").join("spain.jpg"), &base), "img/spain.jpg");
        assert_eq!(relative_to(&base.join("spain.jpg"), &base.join("tiled")), "../spain.jpg");
    }
}
