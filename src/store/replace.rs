//! Can a file be replaced? On Windows a file that another program holds open cannot be
//! renamed over: Excel keeps the CSV it shows open with writing (and deleting) denied, and
//! the game holds a dump while it writes it. A commit asks before it changes anything, so
//! that a held file is a clear refusal instead of a change left half-done.
//!
//! The judging of the answers is platform-neutral; only [`probe`] asks the operating system.

use std::io;
use std::path::Path;

use crate::error::{Error, Result};

/// `ERROR_SHARING_VIOLATION`: another process opened the file with a share mode that denies us.
const ERROR_SHARING_VIOLATION: i32 = 32;
/// `ERROR_LOCK_VIOLATION`: another process locked a region of the file.
const ERROR_LOCK_VIOLATION: i32 = 33;

/// True when an I/O error says that another program holds the file open (a Windows
/// sharing or lock violation). Never true elsewhere: Unix lets a held file be replaced.
pub fn is_held_open(e: &io::Error) -> bool {
    cfg!(windows) && is_sharing_code(e.raw_os_error())
}

/// The Windows codes of a sharing or lock violation.
fn is_sharing_code(code: Option<i32>) -> bool {
    matches!(code, Some(ERROR_SHARING_VIOLATION | ERROR_LOCK_VIOLATION))
}

/// What the umpire reads when `shown` (a path as the umpire knows it) is held open.
pub fn held_open_message(shown: &str) -> String {
    format!("{shown} is open in another program, perhaps Excel: close it and run the command again")
}

/// Asks whether every file of `targets` can be replaced, before anything changes. Each
/// target is `(shown, path)`: the name the umpire knows and where it is. `probe` is
/// [`probe`] in production. Every file that cannot be replaced is named at once: a held
/// file gives [`Error::HeldOpen`], any other failure [`Error::Io`].
pub fn check_replaceable<'a>(
    targets: impl IntoIterator<Item = (String, &'a Path)>,
    probe: impl Fn(&Path) -> io::Result<()>,
) -> Result<()> {
    check_with(targets, probe, is_held_open)
}

/// [`check_replaceable`] for files outside the campaign (the SoW files export writes, the
/// vocabulary `vocab init` writes), each named by its path.
pub fn check_paths_replaceable(paths: &[std::path::PathBuf]) -> Result<()> {
    check_replaceable(paths.iter().map(|p| (p.display().to_string(), p.as_path())), probe)
}

/// [`check_replaceable`] with the judge of a held file given (the tests judge as Windows does).
fn check_with<'a>(
    targets: impl IntoIterator<Item = (String, &'a Path)>,
    probe: impl Fn(&Path) -> io::Result<()>,
    is_held: impl Fn(&io::Error) -> bool,
) -> Result<()> {
    let mut held = Vec::new();
    for (shown, path) in targets {
        match probe(path) {
            Ok(()) => {}
            Err(e) if e.kind() == io::ErrorKind::NotFound => {}
            Err(e) if is_held(&e) => held.push(held_open_message(&shown)),
            Err(e) => {
                return Err(Error::io(path, io::Error::new(e.kind(), format!("cannot be replaced: {e}"))));
            }
        }
    }
    if held.is_empty() { Ok(()) } else { Err(Error::HeldOpen(held.join("\n"))) }
}

/// Opens `path` the way a rename over it needs (delete and write access), sharing
/// everything ourselves, and closes it at once: Windows refuses with a sharing violation when
/// another program holds the file without sharing delete or write. A missing file is fine.
#[cfg(windows)]
pub fn probe(path: &Path) -> io::Result<()> {
    use std::os::windows::fs::OpenOptionsExt;
    const DELETE: u32 = 0x0001_0000;
    const FILE_WRITE_DATA: u32 = 0x0002;
    const FILE_SHARE_ALL: u32 = 0x1 | 0x2 | 0x4;
    std::fs::OpenOptions::new()
        .access_mode(DELETE | FILE_WRITE_DATA)
        .share_mode(FILE_SHARE_ALL)
        .open(path)
        .map(drop)
}

/// Elsewhere a rename replaces a file whoever holds it open; only what is there is looked at:
/// nothing, or anything but a folder (no file is renamed over a folder).
#[cfg(not(windows))]
pub fn probe(path: &Path) -> io::Result<()> {
    let meta = std::fs::symlink_metadata(path)?;
    if meta.is_dir() {
        return Err(io::Error::new(io::ErrorKind::IsADirectory, "it is a folder"));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sharing_violation() -> io::Error {
        io::Error::from_raw_os_error(ERROR_SHARING_VIOLATION)
    }

    #[test]
    fn sharing_and_lock_violations_are_held_files() {
        assert!(is_sharing_code(Some(32)));
        assert!(is_sharing_code(Some(33)));
        assert!(!is_sharing_code(Some(5)), "access denied is not a held file");
        assert!(!is_sharing_code(None));
    }

    #[test]
    fn every_file_that_can_be_replaced_passes() {
        let p = Path::new("x");
        let targets = vec![("forces.csv".to_string(), p), ("commanders.csv".to_string(), p)];
        assert!(check_replaceable(targets, |_| Ok(())).is_ok());
    }

    #[test]
    fn a_missing_file_is_no_obstacle() {
        let targets = vec![("returns.csv".to_string(), Path::new("returns.csv"))];
        assert!(check_replaceable(targets, |_| Err(io::ErrorKind::NotFound.into())).is_ok());
    }

    #[test]
    fn other_failures_name_the_file_and_are_not_rejections() {
        let targets = vec![("forces.csv".to_string(), Path::new("camp/forces.csv"))];
        let e = check_replaceable(targets, |_| Err(io::ErrorKind::PermissionDenied.into()))
            .expect_err("a failure");
        assert!(!e.is_rejection());
        assert!(e.to_string().starts_with("camp/forces.csv: cannot be replaced"), "{e}");
    }

    /// Judges errors as Windows does, whatever the platform the tests run on.
    fn as_windows(e: &io::Error) -> bool {
        is_sharing_code(e.raw_os_error())
    }

    #[test]
    fn held_files_are_all_named_with_the_cure() {
        let targets = vec![
            ("commanders.csv".to_string(), Path::new("commanders.csv")),
            ("forces.csv".to_string(), Path::new("forces.csv")),
            ("score.csv".to_string(), Path::new("score.csv")),
        ];
        let probe =
            |p: &Path| if p == Path::new("commanders.csv") { Ok(()) } else { Err(sharing_violation()) };
        let e = check_with(targets, probe, as_windows).expect_err("held");
        assert!(e.is_rejection());
        assert_eq!(
            e.to_string(),
            "forces.csv is open in another program, perhaps Excel: close it and run the command again\n\
             score.csv is open in another program, perhaps Excel: close it and run the command again"
        );
    }

    #[cfg(not(windows))]
    #[test]
    fn outside_windows_error_32_is_a_plain_failure() {
        let targets = vec![("forces.csv".to_string(), Path::new("forces.csv"))];
        let e = check_replaceable(targets, |_| Err(sharing_violation())).expect_err("a failure");
        assert!(matches!(e, Error::Io { .. }), "{e}");
    }

    #[test]
    fn the_message_names_the_file_and_the_cure() {
        assert_eq!(
            held_open_message("forces.csv"),
            "forces.csv is open in another program, perhaps Excel: close it and run the command again"
        );
    }
}
