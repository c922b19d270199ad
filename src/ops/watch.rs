//! What the watcher asks of the campaign: the names of the files it takes, the inbox it
//! watches, and the results already applied, so that none is applied twice.

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::time::Duration;

use crate::error::{Error, Result};
use crate::formats::results::STARTLOCS;
use crate::model::battle::BattleRecord;
use crate::store::CampaignDir;

/// How long the watcher waits for the campaign lock between files.
pub const LOCK_WAIT: Duration = Duration::from_secs(5);

/// True when a file name matches a `*`-pattern (case-insensitive).
pub fn glob_match(pattern: &str, name: &str) -> bool {
    let (p, n) = (pattern.to_ascii_lowercase(), name.to_ascii_lowercase());
    let parts: Vec<&str> = p.split('*').collect();
    if parts.len() == 1 {
        return p == n;
    }
    let mut rest = n.as_str();
    for (i, part) in parts.iter().enumerate() {
        if i == 0 {
            let Some(r) = rest.strip_prefix(part) else { return false };
            rest = r;
        } else if i == parts.len() - 1 {
            return rest.ends_with(part);
        } else {
            match rest.find(part) {
                Some(k) => rest = &rest[k + part.len()..],
                None => return false,
            }
        }
    }
    true
}

/// The names of the dumps the watcher takes: the profiles' patterns, the campaign's own
/// profile's, and `*.result.csv` files; sorted, each once.
pub fn dump_patterns(dir: &CampaignDir) -> Vec<String> {
    let mut patterns: Vec<String> = crate::formats::profile::BUILTIN
        .iter()
        .filter_map(|b| {
            crate::formats::profile::parse_profile(b.name, b.profile).ok().map(|p| p.gamedb_pattern)
        })
        .collect();
    patterns.push("*.result.csv".to_string());
    // The campaign's own profile may name its dumps otherwise (`inspect --write` sets it).
    if let Ok(c) = dir.load()
        && let Ok((profile, _)) = crate::store::profile::load_profile(dir, &c.config.profile)
    {
        patterns.push(profile.gamedb_pattern);
    }
    patterns.sort();
    patterns.dedup();
    patterns
}

/// The results applied, by the sha256 of the file applied: its battle and the file's name.
/// A change left half-done by a killed watcher is finished first, before the records are
/// trusted, when the lock comes within [`LOCK_WAIT`].
pub fn applied_results(dir: &CampaignDir) -> BTreeMap<String, (String, String)> {
    let _ = dir.lock_for_change_within(LOCK_WAIT);
    let mut m = BTreeMap::new();
    if let Ok(battles) = dir.battles() {
        for b in battles {
            if let Some(r) = &b.result {
                m.insert(r.hash.clone(), (b.id.clone(), r.file.clone()));
            }
        }
    }
    m
}

/// The battle of `battles` with a result applied whose kept `startlocs.csv` has the sha256
/// `hash`.
pub fn startlocs_applied<'b>(dir: &CampaignDir, battles: &'b [BattleRecord], hash: &str) -> Option<&'b str> {
    battles.iter().filter(|b| b.result.is_some()).find_map(|b| {
        let kept = dir.read(&format!("battles/{}/results/{STARTLOCS}", b.id));
        kept.ok()
            .flatten()
            .is_some_and(|k| crate::store::journal::sha256_hex(&k) == hash)
            .then_some(b.id.as_str())
    })
}

/// The inbox: `arg` (`--inbox`), else `[paths] inbox`, else `[paths] sow_work` (relative
/// paths are taken from the campaign folder).
pub fn inbox_folder(dir: &CampaignDir, arg: Option<&PathBuf>) -> Result<PathBuf> {
    if let Some(p) = arg {
        return Ok(p.clone());
    }
    let c = dir.load()?;
    let configured = [&c.config.paths.inbox, &c.config.paths.sow_work].into_iter().find(|p| !p.is_empty());
    match configured {
        Some(p) => {
            let p = PathBuf::from(p);
            Ok(if p.is_absolute() { p } else { dir.root().join(p) })
        }
        None => Err(Error::refused(
            "no inbox: give --inbox DIR, or set [paths] inbox (or sow_work, the SoW Work folder) in campaign.toml",
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::glob_match;

    #[test]
    fn dump_names_match_the_profile_patterns() {
        assert!(glob_match("sowgb_gamedb_*.csv", "sowgb_gamedb_03-28-09_15-00-00.csv"));
        assert!(glob_match("sowgb_gamedb_*.csv", "SOWGB_GAMEDB_x.CSV"));
        assert!(!glob_match("sowgb_gamedb_*.csv", "startlocs.csv"));
        assert!(glob_match("*_gamedb_*.csv", "SowWL_gamedb_07-10-15_08-37-30.csv"));
        assert!(glob_match("*.result.csv", "t20.result.csv"));
        assert!(!glob_match("*.result.csv", "deadbods.csv"));
    }
}
