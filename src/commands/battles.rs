//! `battles` and `battle show ID`: the battles of the campaign with their state, and one
//! battle's record, report, dice or a side's briefing.

use std::path::Path;

use anyhow::Result;

use crate::formats::report::battles::{describe, list_json, page_written, template_written};
use crate::model::Side;
use crate::ops::battles::Shown;
use crate::store::CampaignDir;

/// Runs `battles`.
pub fn list(dir: &CampaignDir, json: bool) -> Result<()> {
    let battles = crate::ops::battles::battles(dir)?;
    if json {
        return super::print_json(&list_json(&battles));
    }
    crate::out!("{}", crate::formats::report::battles::list(&battles));
    Ok(())
}

/// Runs `battle show`.
pub fn show(dir: &CampaignDir, id: &str, briefing: Option<(Side, bool)>, json: bool) -> Result<()> {
    match crate::ops::battles::show(dir, id, briefing, !json)? {
        Shown::Briefing(text) => crate::out!("{}", String::from_utf8_lossy(&text)),
        Shown::Record { record, .. } if json => return super::print_json(&record),
        Shown::Record { record, report } => {
            crate::out!("{}", describe(&record));
            if let Some(report) = report? {
                crate::outln!();
                crate::out!("{}", String::from_utf8_lossy(&report));
            }
        }
    }
    Ok(())
}

/// Runs `battle show ID --html FILE [--side SIDE]`: the battle as one self-contained page
/// (`ops::battles::page`).
pub fn page(dir: &CampaignDir, id: &str, out: &Path, side: Option<Side>) -> Result<()> {
    crate::ops::battles::page(dir, id, out, side)?;
    crate::errln!("{}", page_written(out, side, id));
    Ok(())
}

/// Runs `battle template`: the hand-result CSV of a pending battle, every exported unit with
/// no losses, to stdout or a new file.
pub fn template(dir: &CampaignDir, id: &str, out: Option<&Path>) -> Result<()> {
    let t = crate::ops::battles::template(dir, id, out)?;
    match out {
        None => {
            use std::io::Write as _;
            // The file's own bytes (its encoding may be Windows-1252); a reader that has gone
            // (`| head`) ends the output, not the command, as for everything printed.
            let mut so = std::io::stdout().lock();
            if let Err(e) = so.write_all(&t.bytes).and_then(|()| so.flush())
                && e.kind() != std::io::ErrorKind::BrokenPipe
            {
                return Err(e.into());
            }
        }
        Some(path) => crate::errln!("{}", template_written(path, t.units, id, dir.root())),
    }
    Ok(())
}

/// Runs `battle cancel`.
pub fn cancel(dir: &CampaignDir, id: &str, dry_run: bool) -> Result<()> {
    let c = crate::ops::battles::cancel(dir, id, dry_run)?;
    crate::out!("{}", crate::formats::report::battles::cancelled(&c.id, &c.forces, c.seq, dry_run));
    if dry_run {
        crate::errln!("dry run: nothing written");
    }
    Ok(())
}
