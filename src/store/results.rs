//! A battle's result file read from the disk, with the `startlocs.csv` beside it and the
//! times the file system gives both; parsing them is `formats::results`'s.

use crate::formats::results::{ResultInput, STARTLOCS};

/// Reads a result file and the `startlocs.csv` beside it. A file that is not there is a
/// refusal in one line (exit 1), not an error of the system.
pub fn read_result_input(path: &std::path::Path) -> Result<ResultInput, crate::error::Error> {
    use crate::error::Error;
    let bytes = std::fs::read(path).map_err(|e| match e.kind() {
        std::io::ErrorKind::NotFound => Error::refused(format!("{}: no such file", path.display())),
        _ if path.is_dir() => Error::refused(format!("{}: is a folder, not a result file", path.display())),
        _ => Error::io(path, e),
    })?;
    let modified = std::fs::metadata(path).and_then(|m| m.modified()).ok();
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let beside = path.parent().map(|d| d.join(STARTLOCS)).filter(|p| p != path);
    let startlocs = beside.as_ref().and_then(|p| std::fs::read(p).ok());
    let startlocs_modified = beside
        .filter(|_| startlocs.is_some())
        .and_then(|p| std::fs::metadata(p).and_then(|m| m.modified()).ok());
    Ok(ResultInput { name, bytes, modified, startlocs, startlocs_modified })
}
