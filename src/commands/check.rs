//! `check`: load and validate the campaign, listing every problem (exit 1 if any).

use anyhow::Result;

use crate::error::Error;
use crate::rules::control::compute;
use crate::rules::garrison::over_maximum_with;
use crate::store::CampaignDir;

/// Runs `check`.
pub fn run(dir: &CampaignDir, json: bool) -> Result<()> {
    match dir.load() {
        Ok(c) => {
            // Where the typed control is not what the garrisons make it (2.1): the next
            // `turn advance` writes the computed one; an `overrule` keeps a place as it is.
            let computed = compute(&c);
            let differences: Vec<String> = computed
                .iter()
                .filter(|k| k.control != k.typed)
                .map(|k| {
                    let why = if k.overruled {
                        format!("the umpire's overrule makes it {}", k.control)
                    } else {
                        format!("the garrisons make it {} ({})", k.control, k.why)
                    };
                    format!(
                        "settlements.csv: {} ({}) is typed {} but {why}; `turn advance` will write {}",
                        k.name, k.hex, k.typed, k.control
                    )
                })
                .collect();
            // Warnings: the campaign is valid, but a rule is strained.
            let held: Vec<crate::model::Control> = computed.iter().map(|k| k.control).collect();
            let warnings: Vec<String> = over_maximum_with(&c, &held)
                .iter()
                .map(|o| {
                    format!(
                        "forces.csv: {} ({}) holds {} men of the {} ({}); a {} holds at most {} (rule {}): \
                         in a battle there the men beyond stay outside its walls",
                        o.settlement,
                        o.hex,
                        o.men,
                        o.side,
                        o.forces.join(", "),
                        if c.map.settlements_in(o.hex).iter().any(|s| s.citadel) {
                            "citadel like Toledo's Alcázar"
                        } else {
                            "fortress-town"
                        },
                        o.maximum,
                        if c.map.settlements_in(o.hex).iter().any(|s| s.citadel) { "2.5.3" } else { "2.5.1" }
                    )
                })
                .collect();
            if json {
                super::print_json(&serde_json::json!({
                    "ok": true,
                    "problems": [],
                    "warnings": warnings,
                    "control_differences": differences,
                }))?;
            } else {
                for w in &warnings {
                    crate::errln!("warning: {w}");
                }
                for d in &differences {
                    crate::errln!("note: {d}");
                }
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
