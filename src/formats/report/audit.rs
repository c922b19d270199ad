//! What `audit` says: the entries replayed, the battles and men accounted for, the applies
//! undone, the files edited by hand since the last entry.

use std::fmt::Write as _;

use serde::Serialize;

use crate::error::Problem;

/// What the audit found (`audit --json` prints it as it is).
#[derive(Debug, Default, Serialize)]
pub struct AuditReport {
    /// Journal entries replayed.
    pub entries: usize,
    /// Battles applied, by their records and the journal.
    pub battles_applied: usize,
    /// Unit results checked.
    pub units_checked: usize,
    /// Men accounted for.
    pub men_accounted: u64,
    /// Applies later undone: replayed and checked, but not counted above.
    pub undone: Vec<String>,
    /// State files edited by hand since the last journal entry.
    pub unrecorded_edits: Vec<String>,
    /// The problems found.
    pub problems: Vec<Problem>,
}

/// The audit in words (nothing when a campaign with no journal yet has problems: they are
/// the error).
pub fn audit_text(r: &AuditReport) -> String {
    let mut s = String::new();
    if r.entries == 0 {
        if r.problems.is_empty() {
            s.push_str("no journal yet: nothing has been applied; the files are the baseline\n");
        }
        return s;
    }
    let _ = writeln!(
        s,
        "audit: {} journal entr{} replayed from the baseline; {} battle{} applied; {} unit results checked, {} men accounted for",
        r.entries,
        if r.entries == 1 { "y" } else { "ies" },
        r.battles_applied,
        if r.battles_applied == 1 { "" } else { "s" },
        r.units_checked,
        r.men_accounted
    );
    if !r.undone.is_empty() {
        let _ = writeln!(
            s,
            "applied and undone (replayed and checked, not counted above): {}",
            r.undone.join("; ")
        );
    }
    if !r.unrecorded_edits.is_empty() {
        let _ = writeln!(
            s,
            "edited by hand since the last entry (journalled by the next writing command): {}",
            r.unrecorded_edits.join(", ")
        );
    }
    if r.problems.is_empty() {
        s.push_str("every man is accounted for\n");
    }
    s
}
