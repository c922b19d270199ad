//! The battles' use cases: their records, one battle's record with its report or a side's
//! briefing, the battle as one self-contained page, the hand-result CSV of a pending one, and
//! the cancel of one that will not be fought.

use std::path::Path;

use crate::error::{Error, Result};
use crate::formats::html::Page;
use crate::formats::report::battles::describe;
use crate::formats::results::{TemplateRow, write_template};
use crate::model::Side;
use crate::model::battle::{BattleRecord, BattleState};
use crate::store::battles::{
    aftermath_path, briefing_path, picture_path, record_bytes, record_path, report_path, side_view_path,
};
use crate::store::journal::{Entry, StateFiles};
use crate::store::replace::check_paths_replaceable;
use crate::store::{CampaignDir, Commit, atomic_write};

/// Every battle of the campaign, in the order of their ids.
pub fn battles(dir: &CampaignDir) -> Result<Vec<BattleRecord>> {
    dir.battles()
}

/// What `battle show` reads.
#[derive(Debug)]
pub enum Shown {
    /// A side's briefing (8.5) as written at export, or the umpire's copy of it.
    Briefing(Vec<u8>),
    /// The battle's record.
    Record {
        /// The record.
        record: Box<BattleRecord>,
        /// Its report once a result is applied, when asked for; read after the record, so
        /// that the record is shown before a report that cannot be read is reported.
        report: Result<Option<Vec<u8>>>,
    },
}

/// One battle's record, with its report when `with_report`; or, with `briefing`, the side's
/// briefing (the umpire's copy when its flag is set).
pub fn show(dir: &CampaignDir, id: &str, briefing: Option<(Side, bool)>, with_report: bool) -> Result<Shown> {
    let record = dir.read_battle(id)?;
    if let Some((side, umpire)) = briefing {
        let slug = if umpire { format!("{}-umpire", side.slug()) } else { side.slug().to_string() };
        let path = briefing_path(id, &slug);
        let text = dir.read(&path)?.ok_or_else(|| Error::refused(format!("battle {id} has no {path}")))?;
        return Ok(Shown::Briefing(text));
    }
    let report = if with_report { dir.read(&report_path(id)) } else { Ok(None) };
    Ok(Shown::Record { record: Box::new(record), report })
}

/// Writes the battle as one self-contained page to `out`. The umpire's page holds the
/// record, the battle picture, and once a result is applied the report and the aftermath
/// picture. A side's page holds only what that side was handed: its briefing (8.5) and its
/// view of the battle's neighbourhood (8.1), both written at export from what the side knows.
pub fn page(dir: &CampaignDir, id: &str, out: &Path, side: Option<Side>) -> Result<()> {
    let b = dir.read_battle(id)?;
    let bytes = match side {
        Some(s) => player_page(dir, &b, s)?,
        None => umpire_page(dir, &b)?,
    };
    check_paths_replaceable(&[out.to_path_buf()])?;
    atomic_write(out, &bytes)
}

fn umpire_page(dir: &CampaignDir, b: &BattleRecord) -> Result<Vec<u8>> {
    let mut p = Page::new(&format!("Battle {} at {}, turn {}: umpire's page", b.id, b.site(), b.turn));
    match dir.read(&report_path(&b.id))? {
        Some(report) if b.state == BattleState::Applied => p.markdown(&String::from_utf8_lossy(&report)),
        _ => p.note(&format!("Battle {} is {}: no result applied yet.", b.id, b.state.word())),
    }
    match dir.read(&aftermath_path(&b.id))? {
        Some(svg) if b.state == BattleState::Applied => {
            p.picture("The aftermath: the withdrawal and the losses", &svg)
        }
        _ => {}
    }
    match dir.read(&picture_path(&b.id))? {
        Some(svg) => p.picture("The battle as exported: the forces, their entries and the SoW map", &svg),
        None => p.note(&format!("{} is missing: export the battle again to draw it.", picture_path(&b.id))),
    }
    p.preformatted("The battle record", &describe(b));
    Ok(p.finish())
}

fn player_page(dir: &CampaignDir, b: &BattleRecord, side: Side) -> Result<Vec<u8>> {
    let mut p = Page::new(&format!("Battle at {}, turn {}: {side} briefing", b.site(), b.turn));
    let path = briefing_path(&b.id, side.slug());
    let text = dir.read(&path)?.ok_or_else(|| Error::refused(format!("battle {} has no {path}", b.id)))?;
    p.markdown(&String::from_utf8_lossy(&text));
    match dir.read(&side_view_path(&b.id, side.slug()))? {
        Some(svg) => p.picture(&format!("What the {side} know of the forces around {}", b.place), &svg),
        None => p.note(&format!(
            "{} is missing: battles exported before sowbridge drew side views have none; export it again to draw one.",
            side_view_path(&b.id, side.slug())
        )),
    }
    Ok(p.finish())
}

/// The hand-result CSV of a pending battle.
#[derive(Debug)]
pub struct Template {
    /// The file's bytes, in the campaign's own dialect (its encoding may be Windows-1252).
    pub bytes: Vec<u8>,
    /// The units listed: every unit exported, with no losses.
    pub units: usize,
}

/// The hand-result CSV of pending battle `id`; with `out`, written to that new file (never
/// over one that exists).
pub fn template(dir: &CampaignDir, id: &str, out: Option<&Path>) -> Result<Template> {
    let b = dir.read_battle(id)?;
    if !b.state.is_pending() {
        return Err(Error::refused(format!(
            "battle {id} is {}, not waiting for a result: there is nothing to fill in",
            b.state.word()
        )));
    }
    let c = dir.load()?;
    let rows: Vec<TemplateRow> = b
        .units
        .iter()
        .map(|u| TemplateRow {
            unit: u.unit.clone(),
            name: c.oob.get(&u.unit).map_or_else(String::new, |x| x.name.to_string()),
            side: u.side.to_string(),
            force: u.force.clone(),
            men: u.men,
            guns: u.guns,
        })
        .collect();
    let bytes = write_template(c.dialect("forces.csv"), id, &rows);
    if let Some(path) = out {
        if path.exists() {
            return Err(Error::refused(format!(
                "{}: already exists; sowbridge does not replace it (delete it, or give another --out)",
                path.display()
            )));
        }
        atomic_write(path, &bytes)?;
    }
    Ok(Template { bytes, units: rows.len() })
}

/// A battle cancelled (`battle cancel`).
#[derive(Debug)]
pub struct Cancelled {
    /// The battle.
    pub id: String,
    /// Its forces, now free to march.
    pub forces: Vec<String>,
    /// The journal entry (0 on a dry run).
    pub seq: u64,
}

/// Cancels exported battle `id`, which will not be fought (8.1: a side declined, or the
/// umpire rules it so): its record says `cancelled`, its forces are free to march, a result
/// for it is refused. The SoW files the export wrote stay where they are. One `cancel` journal
/// entry; `undo ID` takes it back.
pub fn cancel(dir: &CampaignDir, id: &str, dry_run: bool) -> Result<Cancelled> {
    let lock = dir.lock_for_change()?;
    let c = dir.load()?;
    let txn = dir.begin(&lock)?;
    let mut record = dir.read_battle(id)?;
    if !record.state.is_pending() {
        return Err(Error::refused(format!(
            "battle {id} is {}, not waiting for a result: only an exported battle can be cancelled",
            record.state.word()
        )));
    }
    let mut forces: Vec<String> = record.participants.iter().map(|p| p.force.clone()).collect();
    forces.dedup();
    let mut out = Cancelled { id: id.to_string(), forces, seq: 0 };
    if dry_run {
        return Ok(out);
    }
    record.state = BattleState::Cancelled;
    let mut commit = Commit { operation: Some(format!("battle cancel {id}")), ..Commit::default() };
    commit.write(record_path(id), record_bytes(&record)?);
    let summary = format!("battle {id} at {} cancelled: it will not be fought", record.site());
    let entry = Entry::cancel_battle(id, c.config.turn, summary);
    out.seq = txn.finish(StateFiles::new(), Some(entry), commit)?;
    Ok(out)
}
