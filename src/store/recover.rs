//! Recovery: what the next command does with a change an interrupted command left. A
//! committed change is finished only onto the files as they were when it was committed (its
//! pre-image); a manifest that names a path outside the campaign folder, or that is damaged,
//! is refused with advice; an uncommitted change's staging folder is thrown away.

use serde::Deserialize;

use crate::error::{Error, Result};

use super::commit::{MANIFEST, Manifest, STAGING_PREFIX, WORK_DIR, file_hash, new_staging, shown};
use super::{CampaignDir, CampaignLock, read_optional};

/// True for a relative `/` path that stays inside the folder it is relative to: no root, no
/// drive, no `..`, no backslash.
fn is_inside(rel: &str) -> bool {
    !rel.is_empty()
        && !rel.starts_with('/')
        && !rel.contains(['\\', ':'])
        && rel.split('/').all(|part| !part.is_empty() && part != ".." && part != ".")
}

/// The journal entries of a manifest: sequence number and summary.
fn entries_of(m: &Manifest) -> Vec<(u64, String)> {
    #[derive(Deserialize)]
    struct Summary {
        seq: u64,
        summary: String,
    }
    m.journal
        .iter()
        .filter_map(|(_, line)| serde_json::from_str::<Summary>(line).ok())
        .map(|s| (s.seq, s.summary))
        .collect()
}

/// A committed change that an interrupted command left and the recovery finished.
#[derive(Debug, Clone)]
pub struct Finished {
    /// The operation of the interrupted command (see [`super::Commit::operation`]).
    pub operation: Option<String>,
    /// The journal entries of the change: sequence number and summary.
    pub entries: Vec<(u64, String)>,
}

impl Finished {
    /// The change in words: "journal entry 7 (turn 21)".
    pub fn describe(&self) -> String {
        let parts: Vec<String> =
            self.entries.iter().map(|(seq, s)| format!("journal entry {seq} ({s})")).collect();
        if parts.is_empty() { "a change with no journal entry".to_string() } else { parts.join(", ") }
    }
}

impl CampaignDir {
    /// True when an interrupted command left a committed change to finish: until it is
    /// finished, the campaign's files are half old and half new.
    pub fn has_unfinished_change(&self) -> bool {
        self.path(MANIFEST).is_file()
    }

    /// Finishes a committed change left by a crash, and clears an uncommitted one. Returns
    /// true when a change was finished.
    pub fn recover(&self, lock: &CampaignLock) -> Result<bool> {
        Ok(self.recover_change(lock)?.is_some())
    }

    /// [`Self::recover`], saying which change was finished.
    pub fn recover_change(&self, _lock: &CampaignLock) -> Result<Option<Finished>> {
        match read_optional(&self.path(MANIFEST))? {
            Some(bytes) => {
                let m: Manifest = serde_json::from_slice(&bytes).map_err(|e| {
                    Error::Other(format!(
                        "{}: the commit manifest of an interrupted sowbridge command is damaged ({}), so its \
                         change cannot be finished. Nothing was changed. Move the .sowbridge folder out of \
                         the campaign folder and run `sowbridge audit`: if it passes, the files are whole \
                         (the change never reached them, or reached them all); if it fails, restore the \
                         campaign folder from a backup (see docs/journal.md, \"After a crash\")",
                        self.path(MANIFEST).display(),
                        if bytes.is_empty() { "it is empty".to_string() } else { e.to_string() }
                    ))
                })?;
                self.check_manifest_paths(&m)?;
                if let Some(edited) = self.edited_targets(&m)? {
                    return Err(self.take_back_over_edits(&m, &edited)?);
                }
                self.finish(&m, false).map_err(|e| match e {
                    Error::HeldOpen(why) => Error::HeldOpen(format!(
                        "an interrupted sowbridge command left a change to finish, and {why}"
                    )),
                    e => e,
                })?;
                crate::errln!("finished a change that an interrupted sowbridge command had committed");
                let entries = entries_of(&m);
                Ok(Some(Finished { operation: m.operation, entries }))
            }
            None => {
                self.remove_uncommitted()?;
                Ok(None)
            }
        }
    }

    /// Refuses a manifest that names a path outside the campaign folder (`../`, an absolute
    /// path, a drive) or a staging folder outside `.sowbridge/`: it was not written by
    /// sowbridge for this folder (it came with a copied campaign, or it was edited), and
    /// finishing it would write and delete files elsewhere.
    fn check_manifest_paths(&self, m: &Manifest) -> Result<()> {
        let targets = m.moves.iter().map(|(_, rel)| rel).chain(&m.removes);
        let staged = m.moves.iter().map(|(name, _)| name);
        let bad =
            targets
                .filter(|rel| !is_inside(rel))
                .chain(staged.filter(|name| {
                    name.is_empty() || name.contains(['/', '\\', ':']) || name.starts_with('.')
                }))
                .chain(
                    std::iter::once(&m.staging)
                        .filter(|s| !is_inside(s) || !s.starts_with(&format!("{WORK_DIR}/"))),
                )
                .next();
        match bad {
            None => Ok(()),
            Some(path) => Err(Error::refused(format!(
                "{}: the commit manifest names '{path}', outside the campaign folder: it was not written \
                 by sowbridge for this folder (it came with a copied campaign, or was edited), and \
                 nothing of it is carried out. Nothing was changed. If no sowbridge command was cut \
                 short in this folder, delete the .sowbridge folder and run `sowbridge audit`",
                self.path(MANIFEST).display()
            ))),
        }
    }

    /// The targets of an interrupted change that were changed after it was committed: a
    /// file not yet replaced that holds neither what it held then nor what the change writes
    /// (the umpire edited it after the command was cut short). `None` when every target is as
    /// the change left it. A target already replaced that no longer holds what was staged is
    /// damage: refused, nothing changed. A manifest of an older sowbridge has no hashes to
    /// judge by.
    fn edited_targets(&self, m: &Manifest) -> Result<Option<Vec<String>>> {
        if m.after.len() != m.moves.len() || m.before.len() != m.moves.len() {
            return Ok(None);
        }
        let staging = self.path(&m.staging);
        let mut edited = Vec::new();
        for (i, (name, rel)) in m.moves.iter().enumerate() {
            let now = file_hash(&self.path(rel))?;
            if staging.join(name).exists() {
                if now != m.before[i] && now != m.after[i] {
                    edited.push(rel.clone());
                }
            } else if now != m.after[i] {
                return Err(Error::Other(format!(
                    "{}: an interrupted sowbridge command committed a change it did not finish, and {} \
                     is no longer what the change wrote there (changed since?): sowbridge neither finishes \
                     the change over it nor takes it back. Nothing was changed. Restore the campaign \
                     folder from a backup, or see docs/journal.md (\"After a crash\")",
                    self.path(MANIFEST).display(),
                    shown(rel)
                )));
            }
        }
        Ok((!edited.is_empty()).then_some(edited))
    }

    /// Takes back an interrupted change that cannot be finished without overwriting the
    /// umpire's edits of `edited`: the files it would have written are kept aside in
    /// `.sowbridge/interrupted-…/`, then the change is rolled back (its journal lines too).
    /// Returns the refusal that says so.
    fn take_back_over_edits(&self, m: &Manifest, edited: &[String]) -> Result<Error> {
        let kept_rel = new_staging().replacen(STAGING_PREFIX, "interrupted", 1);
        let kept = self.path(&kept_rel);
        let staging = self.path(&m.staging);
        for (name, rel) in &m.moves {
            let from = staging.join(name);
            if from.exists() {
                let to = super::join_rel(&kept, rel);
                if let Some(dir) = to.parent() {
                    std::fs::create_dir_all(dir).map_err(|e| Error::io(dir, e))?;
                }
                std::fs::copy(&from, &to).map_err(|e| Error::io(&to, e))?;
            }
        }
        self.roll_back(m, m.journal_len)?;
        let files: Vec<String> = edited.iter().map(|r| shown(r)).collect();
        let change = entries_of(m)
            .iter()
            .map(|(seq, s)| format!("journal entry {seq}: {s}"))
            .collect::<Vec<_>>()
            .join("; ");
        Ok(Error::Refused(format!(
            "an interrupted sowbridge command ({change}) had committed a change it did not finish, and \
             {} changed after it was cut short: sowbridge does not finish a change over your edit. \
             The interrupted change is taken back (it is not in the journal); your {} stands, and the \
             files the change would have written are kept in {}. Run that command again if you still \
             want it (the next writing command journals your edit)",
            files.join(", "),
            files.join(", "),
            shown(&kept_rel)
        )))
    }

    /// Removes the staging folders of changes never committed (a command killed before its
    /// commit point).
    fn remove_uncommitted(&self) -> Result<()> {
        let work = self.path(WORK_DIR);
        let Ok(entries) = std::fs::read_dir(&work) else { return Ok(()) };
        for e in entries.flatten() {
            if e.file_name().to_string_lossy().starts_with(STAGING_PREFIX) {
                let p = e.path();
                std::fs::remove_dir_all(&p).map_err(|e| Error::io(&p, e))?;
            }
        }
        let _ = std::fs::remove_dir(&work);
        Ok(())
    }
}
