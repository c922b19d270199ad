//! `check`: load and validate the campaign, listing every problem (exit 1 if any).

use anyhow::Result;

use crate::error::Error;
use crate::formats::report::check::{control_notes, depot_warnings, report_json, valid, warnings};
use crate::store::CampaignDir;

/// Runs `check`.
pub fn run(dir: &CampaignDir, json: bool) -> Result<()> {
    match crate::ops::check::check(dir) {
        Ok(o) => {
            let c = o.campaign;
            let differences = control_notes(&o.control_differences);
            let mut warnings = warnings(&c, &o.over_maximum);
            warnings.extend(depot_warnings(&o.depots));
            if json {
                super::print_json(&report_json(&warnings, &differences))?;
            } else {
                // Written at once: a large campaign can have thousands.
                let mut text = String::new();
                for (kind, line) in
                    warnings.iter().map(|w| ("warning", w)).chain(differences.iter().map(|d| ("note", d)))
                {
                    text.push_str(kind);
                    text.push_str(": ");
                    text.push_str(line);
                    text.push('\n');
                }
                crate::errout!("{text}");
                crate::outln!("{}", valid(dir.root(), &c));
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
