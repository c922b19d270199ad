//! The check use case: the campaign loaded and validated (every problem at once, as
//! [`crate::error::Error::Rejected`]), with what is valid but strained: places whose typed
//! control is not what the garrisons make it (2.1), and garrisons beyond a fortress-town's or
//! a citadel's maximum (2.5.1, 2.5.3).

use crate::error::{Error, Problem, Problems, Result};
use crate::model::{Campaign, Control};
use crate::rules::control::{SettlementControl, compute};
use crate::rules::garrison::{OverMaximum, over_maximum_with};
use crate::rules::supply::{DepotProblem, depot_problems, depots};
use crate::store::CampaignDir;
use crate::store::battles::record_path;
use crate::store::state::JOURNAL;

/// What `check` finds in a valid campaign.
#[derive(Debug)]
pub struct CheckOutcome {
    /// The campaign as loaded.
    pub campaign: Campaign,
    /// The places whose typed control is not the computed (or overruled) one: the next
    /// `turn advance` writes the computed one; an `overrule` keeps a place as it is.
    pub control_differences: Vec<SettlementControl>,
    /// The places holding more men than their walls take, under the computed control.
    pub over_maximum: Vec<OverMaximum>,
    /// The depots 3.2.1 does not allow, each with the `forces.csv` line of the force naming it.
    pub depots: Vec<(u64, DepotProblem)>,
}

/// Loads and checks the campaign.
pub fn check(dir: &CampaignDir) -> Result<CheckOutcome> {
    let campaign = dir.load()?;
    // The journal and the battle records must read too: a damaged one would stop the next
    // command that needs it.
    let written = written_records(dir)?;
    if !written.is_empty() {
        return Err(Error::Rejected(written));
    }
    let computed = compute(&campaign);
    let held: Vec<Control> = computed.iter().map(|k| k.control).collect();
    let over_maximum = over_maximum_with(&campaign, &held);
    let depots = depot_lines(&campaign, &computed);
    let control_differences = computed.into_iter().filter(|k| k.control != k.typed).collect();
    Ok(CheckOutcome { campaign, control_differences, over_maximum, depots })
}

/// The depots 3.2.1 does not allow (one per French corps and Allied army, inside its area),
/// with the line of `forces.csv` naming each.
fn depot_lines(c: &Campaign, control: &[SettlementControl]) -> Vec<(u64, DepotProblem)> {
    let states = depots(c, control, &c.supply, c.config.turn);
    let problems = depot_problems(c, control, &states);
    problems.into_iter().map(|p| (c.oob.line_of(p.force.as_str()).unwrap_or(0), p)).collect()
}

/// Every complete line of `journal.jsonl` and every battle record that does not read, each a
/// problem naming its file (and line).
fn written_records(dir: &CampaignDir) -> crate::error::Result<Problems> {
    let mut p = Problems::default();
    let journal = dir.read(JOURNAL)?.unwrap_or_default();
    // A torn last line (no line end) is a commit cut short, ignored as the journal is read.
    let complete = journal.iter().rposition(|&b| b == b'\n').map_or(&[][..], |i| &journal[..=i]);
    for (n, line) in complete.split(|&b| b == b'\n').enumerate() {
        if line.iter().all(u8::is_ascii_whitespace) {
            continue;
        }
        if let Err(e) = serde_json::from_slice::<crate::store::journal::Entry>(line) {
            p.push(Problem::at(
                JOURNAL,
                n as u64 + 1,
                "",
                format!("not a journal entry sowbridge can read: {e}"),
            ));
        }
    }
    for id in dir.battle_ids()? {
        let rel = record_path(&id);
        let Some(bytes) = dir.read(&rel)? else { continue };
        if let Err(e) = serde_json::from_slice::<crate::model::battle::BattleRecord>(&bytes) {
            p.push(Problem::at(
                &rel,
                e.line() as u64,
                "",
                format!("not a battle record sowbridge can read: {e}"),
            ));
        }
    }
    Ok(p)
}
