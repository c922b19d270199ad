//! The inbox folder itself: which names the watcher looks at, the content hash, and the two
//! moves that finish a file (to `processed/`, or to `rejected/` with its `.err`). Each move is
//! a rename inside one folder tree, so a crash leaves the file either in the inbox or moved.

use std::io;
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::settle::Signature;
use crate::error::{Error, Result};

/// The folder of files that were applied (or found already applied).
pub const PROCESSED: &str = "processed";
/// The folder of files set aside, each with a `<name>.err` saying why.
pub const REJECTED: &str = "rejected";
/// The folder of interim dumps (written during a battle), each with a `<name>.err` saying so.
pub const INTERIM: &str = "interim";

/// True for names the watcher never looks at: hidden files, and the temporary files of
/// editors, downloads and sowbridge's own atomic writes.
pub fn is_hidden_or_temp(name: &str) -> bool {
    let lower = name.to_ascii_lowercase();
    name.starts_with('.')
        || name.starts_with("~$")
        || name.ends_with('~')
        || [".tmp", ".temp", ".part", ".partial", ".crdownload", ".swp", ".err"]
            .iter()
            .any(|ext| lower.ends_with(ext))
}

/// What a look at one name of the inbox found.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Look {
    /// A regular file.
    File(Signature),
    /// Nothing there (or a folder).
    Gone,
}

/// Looks at `path` without reading it.
pub fn look(path: &Path) -> io::Result<Look> {
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => Ok(Look::File(Signature::of(&m))),
        Ok(_) => Ok(Look::Gone),
        Err(e) if e.kind() == io::ErrorKind::NotFound => Ok(Look::Gone),
        Err(e) => Err(e),
    }
}

/// The regular files directly in `dir` with a readable (UTF-8) name that is neither hidden nor
/// temporary, with their signatures, oldest modification first (ties by name).
pub fn list(dir: &Path) -> Result<Vec<(String, Signature)>> {
    let mut files = Vec::new();
    for entry in std::fs::read_dir(dir).map_err(|e| Error::io(dir, e))? {
        let entry = entry.map_err(|e| Error::io(dir, e))?;
        let Some(name) = entry.file_name().to_str().map(str::to_string) else { continue };
        if is_hidden_or_temp(&name) {
            continue;
        }
        // A file that vanishes between the listing and the look is simply not there.
        if let Ok(Look::File(sig)) = look(&entry.path()) {
            files.push((name, sig));
        }
    }
    files.sort_by(|a, b| (a.1.modified, &a.0).cmp(&(b.1.modified, &b.0)));
    Ok(files)
}

/// The lowercase hex SHA-256 of a file's bytes: the identity of a result's content.
pub fn sha256_hex(bytes: &[u8]) -> String {
    let digest = Sha256::digest(bytes);
    digest.iter().map(|b| format!("{b:02x}")).collect()
}

/// `name`, or `name` with a numeric suffix before its extension (`x-2.csv`, `x-3.csv`, …).
fn numbered(name: &str, n: u32) -> String {
    if n < 2 {
        return name.to_string();
    }
    match name.rfind('.') {
        Some(dot) if dot > 0 => format!("{}-{n}{}", &name[..dot], &name[dot..]),
        _ => format!("{name}-{n}"),
    }
}

/// The first of `name`, `x-2.csv`, `x-3.csv`, … that does not exist in `dir`.
fn free_name(dir: &Path, name: &str) -> String {
    (1..)
        .map(|n| numbered(name, n))
        .find(|candidate| !dir.join(candidate).exists())
        .unwrap_or_else(|| name.to_string())
}

/// True when `dir` holds `name` (or a numbered variant of it) with this content hash.
pub fn holds_content(dir: &Path, name: &str, sha256_hex_of: &str) -> bool {
    (1..)
        .map(|n| dir.join(numbered(name, n)))
        .take_while(|p| p.exists())
        .any(|p| std::fs::read(&p).is_ok_and(|b| sha256_hex(&b) == sha256_hex_of))
}

/// The folders of one inbox.
#[derive(Debug, Clone)]
pub struct Inbox {
    /// The watched folder.
    pub dir: PathBuf,
    /// `processed/` inside it.
    pub processed: PathBuf,
    /// `rejected/` inside it.
    pub rejected: PathBuf,
    /// `interim/` inside it.
    pub interim: PathBuf,
}

/// Where a file went, inside the inbox, as the platform writes it (`processed\x.csv` on
/// Windows).
pub fn moved_to(folder: &str, name: &str) -> String {
    Path::new(folder).join(name).display().to_string()
}

impl Inbox {
    /// Checks that the inbox exists and creates `processed/` and `rejected/` in it.
    pub fn open(dir: &Path) -> Result<Inbox> {
        if !dir.is_dir() {
            return Err(Error::refused(format!(
                "{}: no inbox folder here; create it, or point sowbridge at the folder where the \
                 results appear ([paths] inbox in campaign.toml, or --inbox DIR)",
                dir.display()
            )));
        }
        let inbox = Inbox {
            dir: dir.to_path_buf(),
            processed: dir.join(PROCESSED),
            rejected: dir.join(REJECTED),
            interim: dir.join(INTERIM),
        };
        for sub in [&inbox.processed, &inbox.rejected, &inbox.interim] {
            std::fs::create_dir_all(sub).map_err(|e| Error::io(sub, e))?;
        }
        Ok(inbox)
    }

    /// The path of a file of the inbox.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// Moves `name` into `processed/`, numbering it if that name is taken there. Returns the
    /// name it has there.
    pub fn move_to_processed(&self, name: &str) -> Result<String> {
        self.move_to_processed_as(name, name)
    }

    /// Moves `name` into `processed/` under the name `as_name` (numbered if taken).
    pub fn move_to_processed_as(&self, name: &str, as_name: &str) -> Result<String> {
        let target = free_name(&self.processed, as_name);
        let to = self.processed.join(&target);
        std::fs::rename(self.path(name), &to).map_err(|e| Error::io(self.path(name), e))?;
        Ok(target)
    }

    /// Sets `name` aside in `rejected/` with `<name>.err` holding `reason` and how to go on
    /// from a refusal. Returns the name it has there.
    pub fn move_to_rejected(&self, name: &str, reason: &str) -> Result<String> {
        let note = format!(
            "{reason}\n\nsowbridge watch set {name} aside. Fix it or export the battle again, then \
             run `sowbridge apply` on it by hand.\n"
        );
        self.set_aside(&self.rejected, name, &note)
    }

    /// Sets `name` aside in `sub` (`rejected/` or `interim/`) with `<name>.err` holding `note`.
    /// The `.err` is written first (atomically), then the file is renamed: a crash between the
    /// two leaves the file in the inbox, to be judged again, and its `.err` is written anew.
    /// Returns the name it has there.
    pub fn set_aside(&self, sub: &Path, name: &str, note: &str) -> Result<String> {
        let target = free_name(sub, name);
        let err = sub.join(format!("{target}.err"));
        crate::store::atomic_write(&err, note.as_bytes())?;
        let to = sub.join(&target);
        std::fs::rename(self.path(name), &to).map_err(|e| Error::io(self.path(name), e))?;
        Ok(target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hidden_and_temporary_names_are_skipped() {
        for name in [".sowgb_gamedb_a.csv", "~$book.csv", "a.csv~", "a.csv.tmp", "a.csv.part", "a.csv.err"] {
            assert!(is_hidden_or_temp(name), "{name}");
        }
        for name in ["sowgb_gamedb_07-10-15_08-37-30.csv", "T20-18.28.result.csv", "startlocs.csv"] {
            assert!(!is_hidden_or_temp(name), "{name}");
        }
    }

    #[test]
    fn the_hash_is_sha256_in_lowercase_hex() {
        assert_eq!(sha256_hex(b"abc"), "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
    }

    #[test]
    fn a_taken_name_gets_a_number_before_its_extension() {
        let dir = tempfile::tempdir().unwrap();
        assert_eq!(free_name(dir.path(), "a.result.csv"), "a.result.csv");
        std::fs::write(dir.path().join("a.result.csv"), "1").unwrap();
        assert_eq!(free_name(dir.path(), "a.result.csv"), "a.result-2.csv");
        std::fs::write(dir.path().join("a.result-2.csv"), "2").unwrap();
        assert_eq!(free_name(dir.path(), "a.result.csv"), "a.result-3.csv");
        assert_eq!(numbered("noext", 2), "noext-2");
        assert!(holds_content(dir.path(), "a.result.csv", &sha256_hex(b"2")));
        assert!(!holds_content(dir.path(), "a.result.csv", &sha256_hex(b"3")));
    }

    #[test]
    fn a_missing_inbox_is_refused_with_advice() {
        let dir = tempfile::tempdir().unwrap();
        let err = Inbox::open(&dir.path().join("nowhere")).unwrap_err().to_string();
        assert!(err.contains("[paths] inbox") && err.contains("--inbox"), "{err}");
        let inbox = Inbox::open(dir.path()).unwrap();
        assert!(inbox.processed.is_dir() && inbox.rejected.is_dir());
    }

    #[test]
    fn listing_is_oldest_first_and_skips_folders_and_temp_files() {
        let dir = tempfile::tempdir().unwrap();
        let inbox = Inbox::open(dir.path()).unwrap();
        let old = std::time::SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(1_600_000_000);
        for (name, age) in [("b.csv", 0u64), ("a.csv", 0), ("c.csv", 100), (".hidden.csv", 0), ("x.tmp", 0)] {
            let f = std::fs::File::create(inbox.path(name)).unwrap();
            f.set_modified(old - std::time::Duration::from_secs(age)).unwrap();
        }
        let names: Vec<String> = list(&inbox.dir).unwrap().into_iter().map(|(n, _)| n).collect();
        assert_eq!(names, ["c.csv", "a.csv", "b.csv"]);
    }
}
