//! What `undo` says: on a dry run, the journal entry it would revert and the files it
//! changed; when done, what was undone.

use std::fmt::Write as _;

/// What an undo takes back.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Undid {
    /// An applied battle, by id.
    Battle(String),
    /// A move, with the number of forces that marched in it.
    Move {
        /// Forces that marched.
        forces: usize,
    },
    /// The advance to a turn.
    Turn(u32),
    /// A map import.
    Map,
    /// Contacts advised or decided (`decisions.csv`).
    Contacts,
    /// Messages sent (6.3.1).
    Messages,
}

/// What an undo did (or, on a dry run, would do).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Undone {
    /// What it takes back.
    pub undid: Undid,
    /// The journal entry reverted.
    pub reverted_seq: u64,
    /// That entry's summary.
    pub reverted_summary: String,
    /// The files that entry changed.
    pub files: Vec<String>,
    /// The journal entry of the undo (0 on a dry run).
    pub seq: u64,
}

/// `undo --dry-run`: the entry it would revert and the files it changed.
pub fn dry_run_text(u: &Undone) -> String {
    let what = match &u.undid {
        Undid::Battle(id) => format!("of battle {id}"),
        Undid::Move { .. } => "move".to_string(),
        Undid::Turn(_) => "turn".to_string(),
        Undid::Map => "map".to_string(),
        Undid::Contacts => "contacts".to_string(),
        Undid::Messages => "messages".to_string(),
    };
    let mut s =
        format!("undo {what} would revert journal entry {} ({})\n", u.reverted_seq, u.reverted_summary);
    for f in &u.files {
        let _ = writeln!(s, "  {f}");
    }
    s
}

/// The line `undo` ends with on stderr.
pub fn done_line(u: &Undone) -> String {
    match &u.undid {
        Undid::Battle(id) => format!(
            "battle {id} undone (journal entry {}); it is pending again (undone), waiting for a result",
            u.seq
        ),
        Undid::Move { forces } => format!(
            "move of journal entry {} undone ({forces} forces back where they stood; journal entry {})",
            u.reverted_seq, u.seq
        ),
        Undid::Messages => format!(
            "messages of journal entry {} undone: the messages caught are no longer kept (journal entry {})",
            u.reverted_seq, u.seq
        ),
        Undid::Map => format!(
            "map import of journal entry {} undone: the map's files are as they were (journal entry {})",
            u.reverted_seq, u.seq
        ),
        Undid::Contacts => format!(
            "the advice or decisions of journal entry {} undone: decisions.csv is as it was (journal entry {})",
            u.reverted_seq, u.seq
        ),
        Undid::Turn(turn) => {
            format!(
                "the turn advance to turn {turn} is undone (journal entry {}); its reports are removed",
                u.seq
            )
        }
    }
}
