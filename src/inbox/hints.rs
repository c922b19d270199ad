//! File events, taken as hints only: an event says "look at this name soon", never "this file
//! is ready". Native events come through notify-debouncer-full (which keeps the event kinds);
//! `--poll` uses notify's `PollWatcher` for folders where native events do not arrive (network
//! shares, Wine). The watcher re-scans the folder anyway, so a lost event delays a file but
//! never loses it.

use std::path::Path;
use std::sync::mpsc::{Receiver, TryRecvError, channel};
use std::time::Duration;

use notify::{EventKind, PollWatcher, RecursiveMode, Watcher};
use notify_debouncer_full::{DebounceEventResult, Debouncer, RecommendedCache, new_debouncer};

use crate::error::{Error, Result};

/// One message from the watcher thread.
#[derive(Debug)]
enum Hint {
    /// These names of the inbox may have changed.
    Names(Vec<String>),
    /// The watcher reported a problem (it keeps running; the re-scan covers the gap).
    Trouble(String),
}

/// The running watcher (kept alive while the inbox is watched) and its hints.
#[derive(Debug)]
pub struct Hints {
    _watcher: Option<Running>,
    rx: Receiver<Hint>,
    #[cfg(test)]
    _silent: Option<std::sync::mpsc::Sender<Hint>>,
}

/// Either kind of watcher; dropping it stops it.
#[expect(dead_code, reason = "held only to keep the watcher alive; dropping it stops it")]
enum Running {
    Events(Debouncer<notify::RecommendedWatcher, RecommendedCache>),
    Poll(PollWatcher),
}

impl std::fmt::Debug for Running {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Running::Events(_) => "Running::Events",
            Running::Poll(_) => "Running::Poll",
        })
    }
}

/// True for the kinds of event that can mean a new or changed file.
fn is_interesting(kind: &EventKind) -> bool {
    matches!(kind, EventKind::Create(_) | EventKind::Modify(_) | EventKind::Any | EventKind::Other)
}

/// The file names an event touches.
fn names_of(event: &notify::Event) -> Vec<String> {
    event.paths.iter().filter_map(|p| p.file_name().and_then(|n| n.to_str()).map(str::to_string)).collect()
}

/// The advice given when the watcher cannot start.
fn cannot_watch(dir: &Path, e: &notify::Error) -> Error {
    Error::Other(format!(
        "{}: cannot watch the folder: {e}. Try `sowbridge watch --poll` (needed on network shares \
         and under Wine); on Linux the limit may be raised with \
         `sysctl fs.inotify.max_user_watches=524288` (and fs.inotify.max_user_instances)",
        dir.display()
    ))
}

impl Hints {
    /// Starts watching `dir` (not recursively): native events with a short debounce, or
    /// polling every `poll` when it is set.
    pub fn start(dir: &Path, poll: Option<Duration>, debounce: Duration) -> Result<Hints> {
        let (tx, rx) = channel::<Hint>();
        let running = match poll {
            Some(every) => {
                let tx = tx.clone();
                let handler = move |res: notify::Result<notify::Event>| {
                    let hint = match res {
                        Ok(ev) if is_interesting(&ev.kind) => Hint::Names(names_of(&ev)),
                        Ok(_) => return,
                        Err(e) => Hint::Trouble(e.to_string()),
                    };
                    let _ = tx.send(hint);
                };
                let config = notify::Config::default().with_poll_interval(every);
                let mut w = PollWatcher::new(handler, config).map_err(|e| cannot_watch(dir, &e))?;
                w.watch(dir, RecursiveMode::NonRecursive).map_err(|e| cannot_watch(dir, &e))?;
                Running::Poll(w)
            }
            None => {
                let tx = tx.clone();
                let handler = move |res: DebounceEventResult| {
                    let hint = match res {
                        Ok(events) => Hint::Names(
                            events
                                .iter()
                                .filter(|e| is_interesting(&e.kind))
                                .flat_map(|e| names_of(e))
                                .collect(),
                        ),
                        Err(errors) => Hint::Trouble(
                            errors.iter().map(ToString::to_string).collect::<Vec<_>>().join("; "),
                        ),
                    };
                    let _ = tx.send(hint);
                };
                let mut d = new_debouncer(debounce, None, handler).map_err(|e| cannot_watch(dir, &e))?;
                d.watch(dir, RecursiveMode::NonRecursive).map_err(|e| cannot_watch(dir, &e))?;
                Running::Events(d)
            }
        };
        Ok(Hints {
            _watcher: Some(running),
            rx,
            #[cfg(test)]
            _silent: None,
        })
    }

    /// Hints that never come: every event is missed, only the re-scans remain.
    #[cfg(test)]
    pub(crate) fn silent() -> Hints {
        let (tx, rx) = channel::<Hint>();
        Hints { _watcher: None, rx, _silent: Some(tx) }
    }

    /// Takes every hint that has arrived, without waiting: the names to look at, and the
    /// watcher's troubles.
    pub fn drain(&self) -> (Vec<String>, Vec<String>) {
        let mut names = Vec::new();
        let mut troubles = Vec::new();
        loop {
            match self.rx.try_recv() {
                Ok(Hint::Names(n)) => names.extend(n),
                Ok(Hint::Trouble(t)) => troubles.push(t),
                Err(TryRecvError::Empty) => break,
                Err(TryRecvError::Disconnected) => {
                    troubles.push("the file watcher stopped; relying on re-scans".to_string());
                    break;
                }
            }
        }
        names.sort();
        names.dedup();
        (names, troubles)
    }
}
