//! `check`: load and validate the campaign, listing every problem (exit 1 if any).

use anyhow::Result;

use crate::error::Error;
use crate::store::CampaignDir;

/// Runs `check`.
pub fn run(dir: &CampaignDir, json: bool) -> Result<()> {
    match dir.load() {
        Ok(c) => {
            if json {
                super::print_json(&serde_json::json!({ "ok": true, "problems": [] }))?;
            } else {
                crate::outln!(
                    "{}: campaign '{}' is valid: {} forces, {} rows of order of battle, {} settlements",
                    dir.root().display(),
                    c.config.name,
                    c.oob.forces().count(),
                    c.oob.units().len(),
                    c.map.settlements.len()
                );
            }
            super::done_with(c);
            Ok(())
        }
        Err(Error::Rejected(p)) if json => {
            super::print_json(&serde_json::json!({ "ok": false, "problems": p.0 }))?;
            Err(Error::Rejected(p).into())
        }
        Err(e) => Err(e.into()),
    }
}
