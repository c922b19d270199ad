//! `demo`: the example campaign copied into a new folder and the battle of Medellín exported
//! there (`ops::demo`), leaving the shipped campaign as it is.

use std::path::Path;

use anyhow::Result;

use crate::formats::report;
use crate::ops::demo::DemoRequest;

/// Runs `demo DIR`.
pub fn run(folder: &Path) -> Result<()> {
    let d = crate::ops::demo::demo(&DemoRequest { folder: folder.to_path_buf() })?;
    crate::out!("{}", report::export::plan_text(&d.export.plan.view(), true));
    crate::errln!("{}", report::export::exported_line(&d.export.plan.view()));
    crate::errln!("{}", report::demo::next_steps(&d.campaign, &d.export.plan.out, &d.result));
    super::done_with(d.export.campaign);
    Ok(())
}
