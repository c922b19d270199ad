//! `check`: load and validate the campaign, listing every problem (exit 1 if any).

use anyhow::Result;

use crate::error::{Error, Problem, Problems};
use crate::rules::control::compute;
use crate::rules::garrison::over_maximum_with;
use crate::store::CampaignDir;
use crate::store::battles::record_path;
use crate::store::state::JOURNAL;

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

/// Runs `check`.
pub fn run(dir: &CampaignDir, json: bool) -> Result<()> {
    match dir.load() {
        Ok(c) => {
            // The journal and the battle records must read too: a damaged one would stop the
            // next command that needs it.
            let written = written_records(dir)?;
            if !written.is_empty() {
                if json {
                    super::print_json(&serde_json::json!({ "ok": false, "problems": written.0 }))?;
                }
                return Err(Error::Rejected(written).into());
            }
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
