//! `undo BATTLE`: reverts the newest applied battle exactly, from its journal entry. Manual
//! edits made since are kept; an edit that touched the same lines is a conflict, refused.
//! `undo move` and `undo turn` revert the newest move or turn advance the same way
//! (`ops::undo`).

use anyhow::Result;

use crate::formats::report::undo as report;
use crate::ops::undo::{UndoRequest, UndoTarget, undo};
use crate::store::CampaignDir;

/// Runs `undo`.
pub fn run(dir: &CampaignDir, id: &str, dry_run: bool) -> Result<()> {
    let target = if id == "move" {
        UndoTarget::Move
    } else if id.eq_ignore_ascii_case("turn") {
        UndoTarget::Turn
    } else if id.eq_ignore_ascii_case("messages") {
        UndoTarget::Messages
    } else if id.eq_ignore_ascii_case("map") {
        UndoTarget::Map
    } else if id.eq_ignore_ascii_case("contacts") {
        UndoTarget::Contacts
    } else {
        UndoTarget::Battle(id.to_string())
    };
    let u = undo(dir, &UndoRequest { target, dry_run })?;
    if dry_run {
        crate::out!("{}", report::dry_run_text(&u));
    } else {
        crate::errln!("{}", report::done_line(&u));
    }
    Ok(())
}
