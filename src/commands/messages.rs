//! `messages FILE`: messages between commanders (rule 6.3.1), each sent by road with its
//! messenger's dice, the ones the enemy caught kept for its turn report, as one `messages`
//! journal entry (`ops::messages`).

use anyhow::Result;

use crate::formats::report::messages::{done_line, render};
use crate::ops::messages::{MessagesRequest, send_messages};
use crate::store::CampaignDir;

/// Runs `messages`.
pub fn run(dir: &CampaignDir, a: &crate::cli::MessagesArgs) -> Result<()> {
    let r = send_messages(dir, &MessagesRequest { file: a.file.clone(), dry_run: a.dry_run })?;
    if a.json {
        super::print_json(&r.messages)?;
    } else {
        crate::out!("{}", render(&r));
    }
    crate::errln!("{}", done_line(&r));
    Ok(())
}
