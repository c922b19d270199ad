//! `sowbridge watch`: battle results dropped into the inbox are applied automatically, each
//! exactly once. The engine here knows folders, time and file events; what a file *means* is
//! asked of a [`Judge`] (in production the `apply` command's parser and rules).
//!
//! Crash safety comes from holding no state that is not on disk. A result's content hash is
//! recorded by the judge when it is applied; a file leaves the inbox only by a rename, after
//! its judgement. So a watcher killed at any point is restarted from the inbox and the judge
//! alone: a file still in the inbox whose hash the judge knows was already applied (its move
//! was interrupted, or it is a second copy) and is set aside, never applied again.
//!
//! One pass of the engine: look at the names the file events hinted at (and at the whole
//! folder every settle window, since events are hints, not facts); a candidate whose content
//! hash is already applied is set aside at once; any other is judged once its size and time
//! have stayed the same for the settle window ([`settle`]); then it goes to `processed/`,
//! `rejected/` (with a `.err`), waits, or is ignored.

pub mod clock;
mod engine;
pub mod folder;
pub mod hints;
pub mod settle;
#[cfg(test)]
mod tests;

use std::io::Write;
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::Duration;

pub use clock::{Clock, SystemClock};

use crate::error::Error;

/// The default settle window: a file must keep its size and modification time this long
/// before it is judged. Long enough for SoW to finish writing a dump and for a copy over a
/// network share to arrive whole (and to span the 2-second time steps of FAT disks); short
/// enough that the umpire sees the result within seconds of the battle's end.
pub const DEFAULT_SETTLE: Duration = Duration::from_secs(2);

/// How often a waiting file is judged again when it does not change.
pub const WAIT_RETRY: Duration = Duration::from_secs(30);

/// How long a file whose last line has no line ending may stay so before it is set aside: the
/// game (or a copy) is still writing it until then. Long, since a large battle on a slow disk
/// may pause for a while.
pub const DEFAULT_INCOMPLETE_LIMIT: Duration = Duration::from_secs(15 * 60);

/// The folder of interim dumps set aside: written during a battle, not at its end.
pub use folder::INTERIM;

/// What the judge makes of one stable file of the inbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Judgement {
    /// Applied to the campaign: the file moves to `processed/`.
    Applied {
        /// The battle id (e.g. `T20-18.28`).
        battle: String,
        /// One line saying what changed, for the log.
        summary: String,
        /// Other files of the inbox the result was read with (the battle's final
        /// `startlocs.csv`), by name with the SHA-256 of the bytes used: they move to
        /// `processed/` with it, as `<result name>.<name>`, if they still hold those bytes.
        companions: Vec<(String, String)>,
    },
    /// This content was applied before, to `battle`, from a file named `applied_as`.
    AlreadyApplied {
        /// The battle it was applied to.
        battle: String,
        /// The file name it was applied under.
        applied_as: String,
    },
    /// Not acceptable: the file moves to `rejected/` with `<name>.err` holding the reason.
    Rejected {
        /// Why, in the umpire's words (may span lines; the log shows it on one).
        reason: String,
    },
    /// A dump written during the battle, not at its end: it moves to `interim/` with a note.
    Interim {
        /// Its battle.
        battle: String,
        /// How that is known.
        reason: String,
    },
    /// A file that belongs to nothing the watcher could apply (a `startlocs.csv` of no
    /// pending battle): it moves to `rejected/` with a note, so that it cannot mislead later.
    Stray {
        /// Why.
        reason: String,
    },
    /// Not yet (e.g. "not final: no final startlocs.csv"): the file stays, the reason is
    /// logged once, and the file is judged again when it changes or every [`WAIT_RETRY`].
    Wait {
        /// Why it waits.
        reason: String,
    },
    /// Still being written (its last line has no line ending): it waits like
    /// [`Judgement::Wait`], and is set aside in `rejected/` only when it has stayed so for the
    /// incomplete limit.
    Incomplete {
        /// What is missing.
        reason: String,
    },
    /// Not a result after all: left alone.
    Ignore,
}

/// What the watcher asks about the files of the inbox.
pub trait Judge {
    /// Is this file name possibly a result? (e.g. `sowgb_gamedb_*.csv` or the own result CSV
    /// `*.result.csv'), or a file read with one (`startlocs.csv`); others are not read.
    fn is_candidate(&self, name: &str) -> bool;
    /// Is this a file read beside the results (`startlocs.csv`)? When one has been judged,
    /// every waiting file is judged again at once.
    fn is_companion(&self, _name: &str) -> bool {
        false
    }
    /// The names taken, in words, for the line logged about a file whose name is not one.
    fn names_taken(&self) -> String {
        "result files".to_string()
    }
    /// The battle and file name under which this content hash was applied, if it was.
    fn applied_hash(&mut self, sha256_hex: &str) -> Option<(String, String)>;
    /// Judges a stable file (takes the campaign lock itself only while applying). On
    /// [`Judgement::Applied`] the judge has recorded, with the result, the SHA-256 of the bytes
    /// it read and the file name, so that [`Judge::applied_hash`] knows them from then on, in
    /// this process and after a restart; the watcher moves the file only after that.
    fn judge(&mut self, path: &Path) -> Judgement;
}

/// How to watch.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct WatchOptions {
    /// The folder to watch (not recursively).
    pub inbox: PathBuf,
    /// Poll the folder at this interval instead of using the system's file events.
    pub poll: Option<Duration>,
    /// How long a file must stay unchanged before it is judged ([`DEFAULT_SETTLE`]).
    pub settle: Duration,
    /// Stop after this many results were handled (applied, rejected or set aside).
    pub exit_after: Option<usize>,
    /// How long a file may stay without an ending to its last line ([`DEFAULT_INCOMPLETE_LIMIT`]).
    pub incomplete_limit: Duration,
    /// Show a progress bar while the files present at start are worked through (pass true
    /// only when stderr is a terminal).
    pub progress: bool,
}

impl WatchOptions {
    /// Watch `inbox` with native events, the default settle window, no limit, no bar.
    pub fn new(inbox: impl Into<PathBuf>) -> Self {
        WatchOptions {
            inbox: inbox.into(),
            poll: None,
            settle: DEFAULT_SETTLE,
            exit_after: None,
            incomplete_limit: DEFAULT_INCOMPLETE_LIMIT,
            progress: false,
        }
    }
}

/// What a run of the watcher did.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct WatchSummary {
    /// Files applied and moved to `processed/`.
    pub applied: usize,
    /// Files rejected by the judge and moved to `rejected/`.
    pub rejected: usize,
    /// Files whose content had already been applied: second copies moved to `rejected/`, and
    /// originals whose move to `processed/` had been interrupted, moved there now; interim
    /// dumps moved to `interim/`; files that belong to no battle.
    pub set_aside: usize,
    /// Files still waiting (e.g. not final) when the watcher stopped.
    pub waiting: usize,
}

impl WatchSummary {
    /// Results handled: applied, rejected and set aside (what `exit_after` counts).
    pub fn handled(&self) -> usize {
        self.applied + self.rejected + self.set_aside
    }
}

/// Watches the inbox until `stop` is set (checked between files, never mid-file) or
/// `opts.exit_after` results were handled. Files present at start are handled first, oldest
/// first. Writes one line per action to `log`: `HH:MM:SS <file> <battle or -> <outcome>`.
///
/// Errors only when the watcher cannot start (no inbox, `processed/`/`rejected/` cannot be
/// made, no file watcher); a problem with one file is logged and the watcher goes on.
pub fn run_watch(
    opts: &WatchOptions,
    judge: &mut dyn Judge,
    stop: &AtomicBool,
    log: &mut dyn Write,
    clock: &dyn Clock,
) -> Result<WatchSummary, Error> {
    engine::Engine::start(opts, judge, log, clock)?.run(stop)
}

/// Installs a Ctrl-C handler (Ctrl-C and Ctrl-Break on Windows) and returns the flag it sets,
/// to pass to [`run_watch`] as `stop`: the first Ctrl-C lets the file in hand finish, then the
/// watcher stops; a second one ends the process at once (safe too, since a killed watcher
/// loses nothing). Can be installed once per process.
pub fn stop_on_ctrl_c() -> Result<Arc<AtomicBool>, Error> {
    let stop = Arc::new(AtomicBool::new(false));
    let flag = Arc::clone(&stop);
    let presses = AtomicUsize::new(0);
    ctrlc::set_handler(move || {
        if presses.fetch_add(1, Ordering::SeqCst) > 0 {
            std::process::exit(130);
        }
        flag.store(true, Ordering::SeqCst);
    })
    .map_err(|e| Error::Other(format!("cannot catch Ctrl-C: {e}")))?;
    Ok(stop)
}
