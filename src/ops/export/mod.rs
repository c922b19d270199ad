//! `export hex CC.RR`: the forces in contact at a hex become a complete SoW NapMod
//! multiplayer battle — OOB, scenario folder, briefings, the battle picture — and a battle
//! record in the campaign, deterministically.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use serde::Serialize;

use crate::error::Error;
use crate::formats::campaign::{names, write_battle_maps};
use crate::formats::maps::{BUILTIN_CATALOGUE, parse_catalogue};
use crate::formats::sow::scenario::OutputFile;
use crate::model::battle::{BattleRecord, BattleState};
use crate::model::{BattleMapChoice, Campaign, HexId, Side};
use crate::rules::map_choice::CatalogueMap;
use crate::store::battles::{briefing_path, picture_path, record_bytes, record_path, side_view_path};
use crate::store::replace::check_paths_replaceable;
use crate::store::{CampaignDir, Commit, atomic_write_all, join_rel};

mod layout;
mod plan;

/// What `--json` prints.
#[derive(Debug, Serialize)]
pub struct ExportSummary {
    /// Battle id.
    pub battle: String,
    /// Scenario folder written.
    pub scenario_dir: String,
    /// OOB file written.
    pub oob: String,
    /// Map id.
    pub map: String,
    /// Orientation.
    pub orientation: u16,
    /// Joiners with their delays.
    pub joiners: Vec<JoinerSummary>,
}

/// One joiner in the summary.
#[derive(Debug, Serialize)]
pub struct JoinerSummary {
    /// Force id.
    pub force: String,
    /// Side.
    pub side: Side,
    /// Entry delay, minutes.
    pub delay_minutes: u32,
    /// Map edge.
    pub edge: String,
}

/// How the umpire wants the battle at a hex exported.
#[derive(Debug, Clone, Default)]
pub struct ExportOptions {
    /// Output folder (default: `[paths] sow_work` of campaign.toml, else ./out).
    pub out: Option<PathBuf>,
    /// The attacking side (default: the side that moved into contact).
    pub attacker: Option<Side>,
    /// Entry delays of joining forces overriding the computed ones, as the umpire gave them:
    /// `FORCE=MINUTES`.
    pub delay: Vec<String>,
    /// Forces left out of the battle.
    pub exclude: Vec<String>,
    /// Light-cavalry brigades kept in reserve (rule 8.7).
    pub reserve: Vec<String>,
    /// SoW map id for the hex's first battle.
    pub map: Option<String>,
    /// Map orientation for the hex's first battle: 0, 90, 180 or 270.
    pub orientation: Option<u16>,
    /// The side that tried to refuse battle (rule 8.2).
    pub avoiding: Option<Side>,
    /// Rules whose refusal the umpire's ruling overrules (2.5.3, 7.1.4).
    pub overrule: Vec<String>,
    /// SoW profile for this export (default: the campaign's).
    pub profile: Option<String>,
    /// Write scenario.csv in the MASTER form referencing the OOB.
    pub master: bool,
    /// Export again over a battle still pending at this hex.
    pub replace: bool,
    /// Plan only: take no lock, write nothing.
    pub dry_run: bool,
    /// Refuse the export unless every SoW id it writes exists in these installed Logistics
    /// folders (layers, base game first, then the mod).
    pub check_vocab: Vec<PathBuf>,
}

/// `export hex`: the battle hex and how to export it.
#[derive(Debug, Clone)]
pub struct ExportRequest {
    /// The battle hex (any hex of a contact).
    pub hex: HexId,
    /// How to export it.
    pub options: ExportOptions,
}

/// Everything export decided, ready to write.
#[derive(Debug)]
pub struct ExportPlan {
    /// The battle record.
    pub record: BattleRecord,
    /// SoW files, relative to `out`.
    pub files: Vec<OutputFile>,
    /// Briefings by side: the player's copy and the umpire's (with the dice faces).
    pub briefings: Vec<(Side, String, String)>,
    /// Output folder.
    pub out: PathBuf,
    /// A new map choice to store.
    pub new_map: Option<BattleMapChoice>,
    /// A pending battle this one replaces.
    pub replaces: Option<BattleRecord>,
    /// Each side's view of the battle's neighbourhood (`battles/<id>/briefings/<side>.svg`).
    pub side_views: Vec<(Side, Vec<u8>)>,
    /// The battle picture (`battles/<id>/battle.svg`).
    pub picture: Vec<u8>,
    /// Summary for `--json`.
    pub summary: ExportSummary,
}

impl ExportPlan {
    /// Where each SoW file goes, in the order of the record's files (by path).
    pub fn file_paths(&self) -> Vec<PathBuf> {
        self.record.files.keys().map(|f| join_rel(&self.out, f)).collect()
    }

    /// What the export text shows of the plan.
    pub fn view(&self) -> crate::formats::report::export::PlanView<'_> {
        crate::formats::report::export::PlanView {
            record: &self.record,
            scenario_dir: &self.summary.scenario_dir,
            oob: &self.summary.oob,
            out: &self.out,
            paths: self.file_paths(),
        }
    }
}

/// What `export hex` did: the plan, written unless it was a dry run, and the campaign it was
/// planned on (for the caller to let go of).
#[derive(Debug)]
pub struct ExportOutcome {
    /// The plan.
    pub plan: ExportPlan,
    /// Whether the SoW files and the battle record were written (false on a dry run).
    pub written: bool,
    /// The campaign as the rules saw it.
    pub campaign: Campaign,
}

/// The map catalogue: the campaign's own `sow-maps/catalogue.csv`, else the shipped one.
pub fn catalogue(dir: &CampaignDir) -> Result<Vec<CatalogueMap>> {
    let (label, bytes) = match dir.read("sow-maps/catalogue.csv")? {
        Some(b) => ("sow-maps/catalogue.csv (campaign)".to_string(), b),
        None => ("sow-maps/catalogue.csv".to_string(), BUILTIN_CATALOGUE.as_bytes().to_vec()),
    };
    Ok(parse_catalogue(&label, &bytes).map_err(Error::Rejected)?)
}

/// The names file already in the output folder, shown as its path, when the profile writes
/// one and it is there (its other battles' names are kept).
pub fn existing_names(out: &std::path::Path, names_file: &str) -> Result<Option<(String, Vec<u8>)>> {
    if names_file.is_empty() {
        return Ok(None);
    }
    let path = join_rel(out, names_file);
    Ok(crate::store::read_optional(&path)?.map(|b| (path.display().to_string(), b)))
}

/// `export hex`: plans the battle at the hex and, unless a dry run, writes its SoW files and
/// commits its record, briefings, pictures and map choice under the campaign lock.
pub fn export_hex(dir: &CampaignDir, req: &ExportRequest) -> Result<ExportOutcome> {
    let lock = dir.lock_unless_dry_run(req.options.dry_run)?;
    // The campaign as the rules see it now: who holds each place (the defender, 7.1.4, the
    // map) and each force's supply (its ammunition, its briefing) as `supply` shows them. The
    // contacts (8.1), which ask neither, are found beside them.
    let planned = || -> Result<(Campaign, ExportPlan)> {
        let (c, supply, contacts) = crate::ops::campaign_now_beside(dir, crate::rules::zoc::contacts)?;
        let plan = plan::plan(dir, &c, &supply, &contacts, req.hex, &req.options)?;
        crate::ops::let_go((supply, contacts));
        Ok((c, plan))
    };
    let Some(lock) = lock else {
        let (c, plan) = planned()?;
        return Ok(ExportOutcome { plan, written: false, campaign: c });
    };
    // The battle is planned while the change reads and compares the journal and state files.
    let (txn, planned) = dir.begin_beside(&lock, planned)?;
    let (c, plan) = planned?;
    write(dir, &c, &plan, txn)?;
    Ok(ExportOutcome { plan, written: true, campaign: c })
}

/// Writes the SoW files, then commits the battle record, briefings, picture and map choice (with any
/// manual edit found, journalled first).
fn write(
    dir: &CampaignDir,
    c: &Campaign,
    plan: &ExportPlan,
    txn: crate::store::state::StateTxn<'_>,
) -> Result<()> {
    let commit = campaign_commit(c, plan)?;
    // A file held open (Excel, the game) stops the export before anything is written.
    dir.check_can_commit(&commit)?;
    let paths: Vec<PathBuf> = plan.files.iter().map(|f| join_rel(&plan.out, &f.path)).collect();
    check_paths_replaceable(&paths)?;
    let files: Vec<(&Path, &[u8])> =
        plan.files.iter().zip(&paths).map(|(f, path)| (path.as_path(), f.bytes.as_slice())).collect();
    atomic_write_all(&files).context("writing the SoW files")?;
    // Export changes no state file; the commit carries only a manual edit it found.
    txn.finish(crate::store::journal::StateFiles::new(), None, commit)?;
    Ok(())
}

/// What an export commits to the campaign: the battle record, briefings, picture and map choice.
fn campaign_commit(c: &Campaign, plan: &ExportPlan) -> Result<Commit> {
    let mut commit = Commit::default();
    if let Some(old) = &plan.replaces
        && old.id != plan.record.id
    {
        let mut old = old.clone();
        old.state = BattleState::Replaced;
        commit.write(record_path(&old.id), record_bytes(&old)?);
    }
    commit.write(record_path(&plan.record.id), record_bytes(&plan.record)?);
    commit.write(picture_path(&plan.record.id), plan.picture.clone());
    for (side, svg) in &plan.side_views {
        commit.write(side_view_path(&plan.record.id, side.slug()), svg.clone());
    }
    for (side, player, umpire) in &plan.briefings {
        commit.write(briefing_path(&plan.record.id, side.slug()), player.clone().into_bytes());
        commit.write(
            briefing_path(&plan.record.id, &format!("{}-umpire", side.slug())),
            umpire.clone().into_bytes(),
        );
    }
    if let Some(m) = &plan.new_map {
        let mut maps = c.battle_maps.clone();
        maps.insert(plan.record.hex, m.clone());
        commit.write(names::BATTLE_MAPS, write_battle_maps(&maps, c.dialect(names::BATTLE_MAPS)));
    }
    Ok(commit)
}
