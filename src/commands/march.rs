//! `move ORDERS.csv [ORDERS2.csv …]`: the turn's marching, judged whole and committed as one
//! `move` journal entry, which `undo move` reverts (`ops::march`).

use anyhow::Result;

use crate::formats::report::march::{done_line, render};
use crate::ops::march::{MoveRequest, march_forces};
use crate::store::CampaignDir;

/// Runs `move`.
pub fn run(dir: &CampaignDir, a: &crate::cli::MoveArgs) -> Result<()> {
    let m =
        march_forces(dir, &MoveRequest { orders: a.orders.clone(), dry_run: a.dry_run, map: a.map.clone() })?;
    if a.json {
        super::print_json(&m.report)?;
    } else {
        crate::out!("{}", render(&m.campaign, &m.report));
    }
    crate::errln!("{}", done_line(&m.report));
    super::done_with(m.campaign);
    Ok(())
}
