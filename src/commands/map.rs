//! `map --out FILE`: the campaign map as a picture, the umpire's (every force) or one side's
//! (what it knows, rule 8.1), as SVG or as a self-contained HTML page.

use anyhow::Result;

use crate::cli::MapArgs;
use crate::ops::map::MapRequest;
use crate::store::CampaignDir;

/// Runs `map`.
pub fn run(dir: &CampaignDir, a: &MapArgs) -> Result<()> {
    let req = MapRequest { out: a.out.clone(), side: a.side, zoc: a.zoc, supply: a.supply };
    let o = crate::ops::map::map(dir, &req)?;
    crate::errln!("{}", crate::formats::report::map::wrote(&a.out, &o.view));
    super::done_with(o.campaign);
    Ok(())
}
