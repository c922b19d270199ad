//! `watch`: the inbox engine of [`crate::inbox`] with the real judge — `apply`'s own code
//! path, so a result is parsed, matched and applied exactly as by hand. A dump is final only
//! with the `startlocs.csv` of the battle's final `dumplocs` beside it; anything else waits.

use std::collections::BTreeMap;
use std::io::IsTerminal;
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::Result;

use crate::cli::WatchArgs;
use crate::commands::apply::matching::rows_listed;
use crate::commands::apply::{ApplyRequest, INCOMPLETE, apply_result, still_being_written};
use crate::error::Error;
use crate::formats::results::{STARTLOCS, parse_startlocs};
use crate::inbox::{self, Judge, Judgement, SystemClock, WatchOptions};
use crate::model::battle::BattleRecord;
use crate::store::{CampaignDir, CampaignLock};

/// The judge that applies results to a campaign.
#[derive(Debug)]
pub struct ApplyJudge {
    dir: CampaignDir,
    patterns: Vec<String>,
    hashes: Option<BTreeMap<String, (String, String)>>,
}

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

impl ApplyJudge {
    /// A judge for a campaign, taking dumps named by the profiles' patterns and
    /// `*.result.csv` files.
    pub fn new(dir: CampaignDir) -> Self {
        let mut patterns: Vec<String> = crate::formats::profile::BUILTIN
            .iter()
            .filter_map(|b| {
                crate::formats::profile::parse_profile(b.name, b.profile).ok().map(|p| p.gamedb_pattern)
            })
            .collect();
        patterns.push("*.result.csv".to_string());
        // The campaign's own profile may name its dumps otherwise (`inspect --write` sets it).
        if let Ok(c) = dir.load()
            && let Ok((profile, _)) = crate::store::profile::load_profile(&dir, &c.config.profile)
        {
            patterns.push(profile.gamedb_pattern);
        }
        patterns.sort();
        patterns.dedup();
        ApplyJudge { dir, patterns, hashes: None }
    }

    fn load_hashes(&mut self) -> &BTreeMap<String, (String, String)> {
        if self.hashes.is_none() {
            // Finish a change left half-done by a killed watcher before trusting the records.
            if let Ok(l) = CampaignLock::acquire(&self.dir, Duration::from_secs(5)) {
                let _ = self.dir.recover(&l);
            }
            let mut m = BTreeMap::new();
            if let Ok(battles) = self.dir.battles() {
                for b in battles {
                    if let Some(r) = &b.result {
                        m.insert(r.hash.clone(), (b.id.clone(), r.file.clone()));
                    }
                }
            }
            self.hashes = Some(m);
        }
        self.hashes.get_or_insert_with(BTreeMap::new)
    }
}

impl ApplyJudge {
    /// Judges a `startlocs.csv`: the final one of a pending battle waits for its dump; one
    /// already applied finishes its move to `processed/`; any other is set aside, so that it
    /// cannot be taken for the final record of a later battle.
    fn judge_startlocs(&mut self, path: &Path) -> Judgement {
        let bytes = match crate::store::read_optional(path) {
            Ok(Some(b)) => b,
            Ok(None) => return Judgement::Ignore,
            Err(e) => return Judgement::Wait { reason: format!("cannot read it yet: {e}") },
        };
        if still_being_written(&bytes) {
            return Judgement::Incomplete {
                reason: format!("{INCOMPLETE}: its last line has no line ending yet"),
            };
        }
        let battles = match self.dir.battles() {
            Ok(b) => b,
            Err(e) => return Judgement::Wait { reason: format!("will try again: {e}") },
        };
        let hash = crate::store::journal::sha256_hex(&bytes);
        for b in battles.iter().filter(|b| b.result.is_some()) {
            let kept = self.dir.read(&format!("battles/{}/results/{STARTLOCS}", b.id));
            if kept.ok().flatten().is_some_and(|k| crate::store::journal::sha256_hex(&k) == hash) {
                return Judgement::AlreadyApplied { battle: b.id.clone(), applied_as: STARTLOCS.to_string() };
            }
        }
        let locs = match parse_startlocs(STARTLOCS, &bytes) {
            Ok(l) => l,
            Err(p) => {
                return Judgement::Stray { reason: format!("not a startlocs.csv sowbridge can read: {p}") };
            }
        };
        let listing = |b: &BattleRecord| {
            let listed = rows_listed(b, &locs);
            (listed * 2 >= b.chains.len() && listed > 0).then_some(listed)
        };
        if let Some(b) = battles.iter().filter(|b| b.state.is_pending()).find(|b| listing(b).is_some()) {
            return Judgement::Wait {
                reason: format!(
                    "startlocs.csv of battle {} ({}): waiting for its final dump, which the game writes {} s later",
                    b.id,
                    b.place,
                    b.final_dumps.gap()
                ),
            };
        }
        let whose = battles
            .iter()
            .find(|b| listing(b).is_some())
            .map_or("no battle sowbridge exported".to_string(), |b| {
                format!("battle {} ({}), which is not pending", b.id, b.place)
            });
        Judgement::Stray {
            reason: format!("startlocs.csv lists the units of {whose}: it belongs to no pending battle"),
        }
    }
}

impl Judge for ApplyJudge {
    fn is_candidate(&self, name: &str) -> bool {
        self.is_companion(name) || self.patterns.iter().any(|p| glob_match(p, name))
    }

    fn is_companion(&self, name: &str) -> bool {
        name.eq_ignore_ascii_case(STARTLOCS)
    }

    fn names_taken(&self) -> String {
        format!("{} and {STARTLOCS}", self.patterns.join(", "))
    }

    fn applied_hash(&mut self, sha256_hex: &str) -> Option<(String, String)> {
        self.load_hashes().get(sha256_hex).cloned()
    }

    fn judge(&mut self, path: &Path) -> Judgement {
        // A change committed by a watcher killed mid-commit is finished first, so that its
        // result is known as applied before this file is judged.
        match CampaignLock::acquire(&self.dir, Duration::from_secs(5)).and_then(|l| self.dir.recover(&l)) {
            Ok(true) => self.hashes = None,
            Ok(false) => {}
            Err(e) => return Judgement::Wait { reason: format!("will try again: {e}") },
        }
        if path.file_name().is_some_and(|n| self.is_companion(&n.to_string_lossy())) {
            return self.judge_startlocs(path);
        }
        if let Ok(input) = crate::formats::results::read_result_input(path)
            && let Some((battle, applied_as)) =
                self.applied_hash(&crate::store::journal::sha256_hex(&input.bytes))
        {
            return Judgement::AlreadyApplied { battle, applied_as };
        }
        let req = ApplyRequest { path: path.to_path_buf(), require_final: true, ..ApplyRequest::default() };
        let res = apply_result(&self.dir, &req);
        self.hashes = None;
        match res {
            Ok(a) => Judgement::Applied {
                battle: a.battle,
                summary: a.winner.map_or("draw".to_string(), |w| format!("{w} victory")),
                companions: a.startlocs_sha256.map(|h| (STARTLOCS.to_string(), h)).into_iter().collect(),
            },
            Err(Error::Pending(why)) if why.starts_with(INCOMPLETE) => Judgement::Incomplete { reason: why },
            Err(Error::Pending(why)) => Judgement::Wait { reason: why },
            Err(Error::Interim { battle, message }) => Judgement::Interim { battle, reason: message },
            Err(Error::Settled(why)) => Judgement::Stray { reason: why },
            Err(e @ (Error::Rejected(_) | Error::Refused(_))) => {
                Judgement::Rejected { reason: e.to_string() }
            }
            Err(e) => Judgement::Wait { reason: format!("will try again: {e}") },
        }
    }
}

/// The inbox: `--inbox`, else `[paths] inbox`, else `[paths] sow_work` (relative paths are
/// taken from the campaign folder).
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
        )
        .into()),
    }
}

/// Runs `watch`.
pub fn run(dir: &CampaignDir, a: &WatchArgs) -> Result<()> {
    let inbox_dir = inbox_folder(dir, a.inbox.as_ref())?;
    let stop = inbox::stop_on_ctrl_c()?;
    let opts = WatchOptions {
        poll: a.poll.map(Duration::from_millis),
        settle: Duration::from_millis(a.settle),
        exit_after: a.exit_after,
        incomplete_limit: Duration::from_secs(a.incomplete_limit),
        progress: std::io::stderr().is_terminal(),
        ..WatchOptions::new(inbox_dir)
    };
    let mut judge = ApplyJudge::new(dir.clone());
    let summary = inbox::run_watch(&opts, &mut judge, &stop, &mut std::io::stderr(), &SystemClock)?;
    crate::errln!(
        "watch stopped: {} applied, {} rejected, {} set aside, {} waiting",
        summary.applied,
        summary.rejected,
        summary.set_aside,
        summary.waiting
    );
    Ok(())
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
