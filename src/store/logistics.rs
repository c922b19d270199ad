//! Where the install's files are: the folder the umpire named (or its `Logistics`
//! subfolder), layered over `--base` folders as the engine layers base game and mods, each
//! file taken whole from the last layer holding it. Parsing the files is
//! `formats::logistics`'s; finding and reading them on the disk is the store's.

use std::path::{Path, PathBuf};

use crate::error::{Error, Result};

use crate::formats::logistics::{FILES, Logistics, LogisticsFile, LogisticsFiles, parse_logistics};

/// The `Logistics` folder to read for a folder the umpire named: the folder itself when it
/// holds one of the files, else its `Logistics` subfolder (a mod's or the game's root).
pub fn logistics_folder(dir: &Path) -> PathBuf {
    let holds = |d: &Path| FILES.iter().any(|f| find_file(d, f).is_some());
    if !holds(dir) {
        for sub in ["Logistics", "logistics", "LOGISTICS"] {
            let s = dir.join(sub);
            if s.is_dir() {
                return s;
            }
        }
    }
    dir.to_path_buf()
}

/// A file in a folder by name, any case (Windows installs copied elsewhere keep their
/// mixed-case names).
fn find_file(dir: &Path, name: &str) -> Option<PathBuf> {
    let exact = dir.join(name);
    if exact.is_file() {
        return Some(exact);
    }
    let entries = std::fs::read_dir(dir).ok()?;
    let mut found: Vec<PathBuf> = entries
        .filter_map(|e| e.ok())
        .filter(|e| e.file_name().to_string_lossy().eq_ignore_ascii_case(name))
        .map(|e| e.path())
        .filter(|p| p.is_file())
        .collect();
    found.sort();
    found.into_iter().next()
}

/// Reads the five files from layered folders, bottom first (the base game, then the mod):
/// each file comes from the last layer holding it, as the engine layers content.
pub fn read_layers(layers: &[PathBuf]) -> Result<LogisticsFiles> {
    let mut out = LogisticsFiles::default();
    let mut folders = Vec::new();
    for layer in layers {
        if !layer.is_dir() {
            return Err(Error::refused(format!("{}: no such folder", layer.display())));
        }
        let dir = logistics_folder(layer);
        out.searched.push(dir.display().to_string());
        folders.push(dir);
    }
    for name in FILES {
        for dir in folders.iter().rev() {
            if let Some(path) = find_file(dir, name) {
                let bytes = std::fs::read(&path).map_err(|e| Error::io(&path, e))?;
                out.files
                    .insert(name.to_string(), LogisticsFile { label: path.display().to_string(), bytes });
                break;
            }
        }
    }
    Ok(out)
}

/// Reads and parses the layers (bottom first): what the install defines, and every problem
/// found in its files (a missing file among them). What `vocab check` and export's
/// `--check-vocab` read before [`check_vocabulary`](crate::ops::vocab::check_vocabulary).
pub fn read_logistics(layers: &[PathBuf]) -> Result<(Logistics, crate::error::Problems)> {
    Ok(parse_logistics(&read_layers(layers)?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_later_layer_replaces_a_file_whole() {
        let tmp = tempfile::tempdir().expect("tempdir");
        let base = tmp.path().join("SOWGB").join("Logistics");
        let modl = tmp.path().join("NapMod").join("Logistics");
        std::fs::create_dir_all(&base).expect("mkdir");
        std::fs::create_dir_all(&modl).expect("mkdir");
        std::fs::write(base.join("unitglobal.csv"), "Class,Type\nU_Courier,5\n").expect("write");
        std::fs::write(base.join("drills.csv"), "Name,ID,Rows\nW,DRIL_SupplyWagon,0\n").expect("write");
        std::fs::write(modl.join("UnitGlobal.csv"), "Class,Type\nNAP_FR_Line_Inf,1\n").expect("write");
        let layers = vec![tmp.path().join("SOWGB"), modl.clone()];
        let (l, _) = parse_logistics(&read_layers(&layers).expect("read"));
        assert!(l.class("NAP_FR_Line_Inf").is_some());
        assert!(l.class("U_Courier").is_none(), "the mod's unitglobal.csv replaces the base one");
        assert!(l.drill("dril_supplywagon").is_some(), "drills.csv comes from the base");
    }
}
