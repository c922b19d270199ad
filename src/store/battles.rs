//! Battle records under `battles/<id>/`: reading them, finding pending ones, and the paths
//! of what each battle folder holds.

use crate::error::{Error, Result};
use crate::model::battle::BattleRecord;

use super::CampaignDir;

/// Relative path of a battle's record.
pub fn record_path(id: &str) -> String {
    format!("battles/{id}/battle.json")
}

/// Relative path of a side's briefing.
pub fn briefing_path(id: &str, side_slug: &str) -> String {
    format!("battles/{id}/briefings/{side_slug}.md")
}

/// Relative path of a side's view of the battle's neighbourhood, beside its briefing.
pub fn side_view_path(id: &str, side_slug: &str) -> String {
    format!("battles/{id}/briefings/{side_slug}.svg")
}

/// Relative path of the aftermath picture (`apply` draws it).
pub fn aftermath_path(id: &str) -> String {
    format!("battles/{id}/aftermath.svg")
}

/// Relative path of a battle's picture (`export` draws it).
pub fn picture_path(id: &str) -> String {
    format!("battles/{id}/battle.svg")
}

/// Relative path of a battle's report.
pub fn report_path(id: &str) -> String {
    format!("battles/{id}/report.md")
}

/// Serialises a record (pretty JSON, trailing newline).
pub fn record_bytes(r: &BattleRecord) -> Result<Vec<u8>> {
    let mut v = serde_json::to_vec_pretty(r).map_err(|e| Error::Other(e.to_string()))?;
    v.push(b'\n');
    Ok(v)
}

impl CampaignDir {
    /// Ids of every battle folder, sorted.
    pub fn battle_ids(&self) -> Result<Vec<String>> {
        let dir = self.path("battles");
        let mut ids = Vec::new();
        match std::fs::read_dir(&dir) {
            Ok(rd) => {
                for e in rd {
                    let e = e.map_err(|e| Error::io(&dir, e))?;
                    if e.path().join("battle.json").is_file() {
                        ids.push(e.file_name().to_string_lossy().into_owned());
                    }
                }
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => return Err(Error::io(&dir, e)),
        }
        ids.sort();
        Ok(ids)
    }

    /// One battle's record.
    pub fn read_battle(&self, id: &str) -> Result<BattleRecord> {
        let rel = record_path(id);
        let bytes = self.read(&rel)?.ok_or_else(|| Error::refused(format!("no battle '{id}' (no {rel})")))?;
        serde_json::from_slice(&bytes)
            .map_err(|e| Error::Other(format!("{}: {e}", self.path(&rel).display())))
    }

    /// Every battle record, by id.
    pub fn battles(&self) -> Result<Vec<BattleRecord>> {
        self.battle_ids()?.iter().map(|id| self.read_battle(id)).collect()
    }
}
