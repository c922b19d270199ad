//! The watcher's judge: what `watch` does with each file of the inbox, by `apply`'s own code
//! path, so a result is parsed, matched and applied exactly as by hand. A dump is final only
//! with the `startlocs.csv` of the battle's final `dumplocs` beside it; anything else waits.

use std::collections::BTreeMap;
use std::path::Path;

use crate::error::Error;
use crate::formats::results::{STARTLOCS, parse_startlocs};
use crate::inbox::{Judge, Judgement};
use crate::model::battle::BattleRecord;
use crate::ops::apply::matching::rows_listed;
use crate::ops::apply::{ApplyRequest, INCOMPLETE, apply_result, still_being_written};
use crate::ops::watch::{LOCK_WAIT, applied_results, dump_patterns, glob_match, startlocs_applied};
use crate::store::CampaignDir;

/// The judge that applies results to a campaign.
#[derive(Debug)]
pub struct ApplyJudge {
    dir: CampaignDir,
    patterns: Vec<String>,
    hashes: Option<BTreeMap<String, (String, String)>>,
}

impl ApplyJudge {
    /// A judge for a campaign, taking dumps named by the profiles' patterns and
    /// `*.result.csv` files.
    pub fn new(dir: CampaignDir) -> Self {
        let patterns = dump_patterns(&dir);
        ApplyJudge { dir, patterns, hashes: None }
    }

    fn load_hashes(&mut self) -> &BTreeMap<String, (String, String)> {
        if self.hashes.is_none() {
            self.hashes = Some(applied_results(&self.dir));
        }
        self.hashes.get_or_insert_with(BTreeMap::new)
    }

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
        if let Some(battle) = startlocs_applied(&self.dir, &battles, &hash) {
            return Judgement::AlreadyApplied {
                battle: battle.to_string(),
                applied_as: STARTLOCS.to_string(),
            };
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
        match self.dir.lock_for_change_within(LOCK_WAIT) {
            Ok((_lock, true)) => self.hashes = None,
            Ok((_lock, false)) => {}
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
