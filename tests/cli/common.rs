#![allow(dead_code)]
//! Shared helpers: copy a fixture campaign into a temporary folder, run the binary, compare
//! folders byte for byte.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::process::{Command, Output};

/// The repository's root.
pub fn repo() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
}

/// Path of a fixture under `fixtures/`.
pub fn fixture(name: &str) -> PathBuf {
    repo().join("fixtures").join(name)
}

/// Copies a folder recursively.
pub fn copy_dir(from: &Path, to: &Path) {
    std::fs::create_dir_all(to).unwrap();
    for entry in walkdir::WalkDir::new(from) {
        let entry = entry.unwrap();
        let rel = entry.path().strip_prefix(from).unwrap();
        let dest = to.join(rel);
        if entry.file_type().is_dir() {
            std::fs::create_dir_all(&dest).unwrap();
        } else {
            std::fs::copy(entry.path(), &dest).unwrap();
        }
    }
}

/// A temporary copy of a fixture campaign.
pub struct Camp {
    pub tmp: tempfile::TempDir,
    pub dir: PathBuf,
}

impl Camp {
    /// Copies `fixtures/<name>` into a fresh temporary folder.
    pub fn new(name: &str) -> Camp {
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("campaign");
        copy_dir(&fixture(name), &dir);
        Camp { tmp, dir }
    }

    /// Runs `sowbridge --campaign <dir> args…`.
    #[track_caller]
    pub fn run(&self, args: &[&str]) -> Output {
        sowbridge(&self.dir, args)
    }

    /// Path of a file in the campaign.
    pub fn path(&self, rel: &str) -> PathBuf {
        self.dir.join(rel)
    }

    /// Reads a campaign file as text.
    pub fn read(&self, rel: &str) -> String {
        std::fs::read_to_string(self.path(rel)).unwrap()
    }

    /// Writes a campaign file.
    pub fn write(&self, rel: &str, text: &str) {
        std::fs::write(self.path(rel), text).unwrap();
    }

    /// Every file of the campaign with its bytes (the lock file left out).
    pub fn snapshot(&self) -> BTreeMap<String, Vec<u8>> {
        snapshot(&self.dir)
    }
}

/// Every file below a folder with its bytes (`campaign.lock` left out).
pub fn snapshot(dir: &Path) -> BTreeMap<String, Vec<u8>> {
    let mut m = BTreeMap::new();
    for entry in walkdir::WalkDir::new(dir).sort_by_file_name() {
        let entry = entry.unwrap();
        if entry.file_type().is_file() {
            let rel = entry.path().strip_prefix(dir).unwrap().to_string_lossy().replace('\\', "/");
            if rel == "campaign.lock" {
                continue;
            }
            m.insert(rel, std::fs::read(entry.path()).unwrap());
        }
    }
    m
}

/// Runs the binary on a campaign folder.
pub fn sowbridge(campaign: &Path, args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_sowbridge"))
        .arg("--campaign")
        .arg(campaign)
        .args(args)
        .env_remove("SOWBRIDGE_CAMPAIGN")
        .output()
        .unwrap()
}

/// Stdout as text.
pub fn stdout(o: &Output) -> String {
    String::from_utf8_lossy(&o.stdout).into_owned()
}

/// Stderr as text.
pub fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Asserts an exit code, showing both streams when it differs.
#[track_caller]
pub fn assert_code(o: &Output, code: i32) {
    assert_eq!(
        o.status.code(),
        Some(code),
        "exit code\n--- stdout\n{}\n--- stderr\n{}",
        stdout(o),
        stderr(o)
    );
}
