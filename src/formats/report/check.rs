//! The check text: the warnings of a valid campaign whose rules are strained, the notes on
//! typed control the next turn will rewrite, and the line saying the campaign is valid.

use std::path::Path;

use serde_json::{Value, json};

use crate::model::Campaign;
use crate::rules::control::SettlementControl;
use crate::rules::garrison::OverMaximum;
use crate::rules::supply::DepotProblem;

/// One line per place typed otherwise than the garrisons (or the umpire's overrule) make it
/// (2.1).
pub fn control_notes(differences: &[SettlementControl]) -> Vec<String> {
    differences
        .iter()
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
        .collect()
}

/// One line per depot 3.2.1 does not allow, with the line of `forces.csv` naming it.
pub fn depot_warnings(depots: &[(u64, DepotProblem)]) -> Vec<String> {
    depots.iter().map(|(line, d)| format!("forces.csv:{line}: depot: {}", d.message)).collect()
}

/// One line per place holding more men than its walls take (2.5.1, 2.5.3).
pub fn warnings(c: &Campaign, over: &[OverMaximum]) -> Vec<String> {
    over.iter()
        .map(|o| {
            let citadel = c.map.settlements_in(o.hex).iter().any(|s| s.citadel);
            format!(
                "forces.csv: {} ({}) holds {} men of the {} ({}); a {} holds at most {} (rule {}): \
                 in a battle there the men beyond stay outside its walls",
                o.settlement,
                o.hex,
                o.men,
                o.side,
                o.forces.join(", "),
                if citadel { "citadel like Toledo's Alcázar" } else { "fortress-town" },
                o.maximum,
                if citadel { "2.5.3" } else { "2.5.1" }
            )
        })
        .collect()
}

/// A valid campaign as `check --json` prints it.
pub fn report_json(warnings: &[String], control_notes: &[String]) -> Value {
    json!({
        "ok": true,
        "problems": [],
        "warnings": warnings,
        "control_differences": control_notes,
    })
}

/// The line saying the campaign in `root` is valid, with its size.
pub fn valid(root: &Path, c: &Campaign) -> String {
    format!(
        "{}: campaign '{}' is valid: {} forces, {} rows of order of battle, {} settlements",
        root.display(),
        c.config.name,
        c.oob.forces().count(),
        c.oob.units().len(),
        c.map.settlements.len()
    )
}
