//! `export hex CC.RR`: the forces in contact at a hex become a complete SoW NapMod
//! multiplayer battle and a battle record in the campaign (`ops::export`).

use anyhow::Result;

use crate::cli::ExportHexArgs;
use crate::error::Error;
use crate::formats::report::export as report;
use crate::model::HexId;
use crate::ops::export::{ExportOptions, ExportRequest};
use crate::store::CampaignDir;

/// The battle hex as typed.
fn hex(text: &str) -> Result<HexId> {
    Ok(text.parse().map_err(|e: crate::model::HexIdError| {
        // Typed, not saved by a spreadsheet: the row lost a digit, not necessarily a zero.
        match (e.fault, text.split_once('.')) {
            (crate::model::HexIdFault::ShortRow, Some((col, row))) => Error::refused(format!(
                "export hex: '{text}' — did you mean {col:0>2}.{row}0? A hex's row has two digits: {col:0>2}.0{row}, \
                 or one of {col:0>2}.{row}0 to {col:0>2}.{row}9"
            )),
            _ => Error::refused(format!("export hex: {e}")),
        }
    })?)
}

/// The export the arguments ask for.
fn options(a: &ExportHexArgs) -> ExportOptions {
    ExportOptions {
        out: a.out.clone(),
        attacker: a.attacker,
        delay: a.delay.clone(),
        exclude: a.exclude.clone(),
        reserve: a.reserve.clone(),
        map: a.map.clone(),
        orientation: a.orientation,
        avoiding: a.avoiding,
        overrule: a.overrule.clone(),
        profile: a.profile.clone(),
        master: a.master,
        replace: a.replace,
        dry_run: a.dry_run,
        check_vocab: a.check_vocab.clone(),
    }
}

/// Runs `export hex`.
pub fn run(dir: &CampaignDir, a: &ExportHexArgs) -> Result<()> {
    let req = ExportRequest { hex: hex(&a.hex)?, options: options(a) };
    let done = crate::ops::export::export_hex(dir, &req)?;
    let plan = &done.plan;
    if !done.written {
        if a.json {
            super::print_json(&report::plan_json(&plan.view()))?;
        } else {
            crate::out!("{}", report::plan_text(&plan.view(), false));
        }
        crate::errln!("{}", report::dry_run_line(&plan.view()));
        return Ok(());
    }
    if a.json {
        super::print_json(&plan.summary)?;
    } else {
        crate::out!("{}", report::plan_text(&plan.view(), true));
        crate::errln!("{}", report::exported_line(&plan.view()));
    }
    super::done_with(done.campaign);
    Ok(())
}
