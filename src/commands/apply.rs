//! `apply FILE`: a battle's result into the campaign (`ops::apply`), its report on stdout.

use crate::cli::{ApplyArgs, WinnerArg, YesNo};
use crate::formats::report::battle as report;
use crate::model::Side;
use crate::ops::apply::{ApplyRequest, apply_result};
use crate::store::CampaignDir;

// The words a change's manifest records for an apply (`commands::operation`).

/// Runs `apply`.
pub fn run(dir: &CampaignDir, a: &ApplyArgs) -> anyhow::Result<()> {
    let req = ApplyRequest {
        path: a.file.clone(),
        battle: a.battle.clone(),
        winner: a.winner.map(|w| match w {
            WinnerArg::French => Some(Side::French),
            WinnerArg::Allies => Some(Side::Allies),
            WinnerArg::Draw => None,
        }),
        river_retreat: a.river_retreat.map(|r| r == YesNo::Yes),
        withdraw_to: a.withdraw_to.clone(),
        allow_missing: a.allow_missing,
        dry_run: a.dry_run,
        require_final: false,
        interim: a.interim,
        verbose: a.verbose,
    };
    let r = apply_result(dir, &req)?;
    if a.json {
        return super::print_json(&r);
    }
    let file = a.file.display().to_string();
    crate::out!("{}", r.report);
    if let Some(note) = report::evidence_note(&file, &r) {
        crate::errln!("{note}");
    }
    if a.dry_run {
        crate::out!("{}", report::dry_run_changes(&r));
    }
    crate::errln!("{}", report::applied_line(&file, &r, a.dry_run));
    Ok(())
}
