//! `battles` and `battle show ID`: the battles of the campaign with their state, and one
//! battle's record, report, dice or a side's briefing.

use anyhow::Result;

use crate::error::Error;
use crate::formats::results::{TemplateRow, write_template};
use crate::model::Side;
use crate::model::battle::{BattleRecord, Role};
use crate::store::CampaignDir;
use crate::store::battles::{briefing_path, report_path};

/// Runs `battles`.
pub fn list(dir: &CampaignDir, json: bool) -> Result<()> {
    let battles = dir.battles()?;
    if json {
        let rows: Vec<serde_json::Value> = battles
            .iter()
            .map(|b| {
                serde_json::json!({
                    "battle": b.id,
                    "state": b.state,
                    "turn": b.turn,
                    "hex": b.hex,
                    "place": b.place,
                    "attacker": b.attacker,
                    "map": b.map.id,
                    "winner": b.result.as_ref().map(|r| r.winner.map_or("draw".to_string(), |w| w.slug().to_string())),
                })
            })
            .collect();
        return super::print_json(&rows);
    }
    if battles.is_empty() {
        crate::outln!("no battles exported yet");
    }
    for b in &battles {
        let result = match &b.result {
            Some(r) => r.winner.map_or("draw".to_string(), |w| format!("{w} victory")),
            None => String::new(),
        };
        crate::outln!(
            "{:<14} {:<9} turn {:<3} {} {:<20} {}",
            b.id,
            b.state.word().to_string(),
            b.turn,
            b.hex,
            b.place,
            result
        );
    }
    Ok(())
}

/// Runs `battle show`.
pub fn show(dir: &CampaignDir, id: &str, briefing: Option<(Side, bool)>, json: bool) -> Result<()> {
    let b = dir.read_battle(id)?;
    if let Some((side, umpire)) = briefing {
        let slug = if umpire { format!("{}-umpire", side.slug()) } else { side.slug().to_string() };
        let path = briefing_path(id, &slug);
        let text = dir.read(&path)?.ok_or_else(|| Error::refused(format!("battle {id} has no {path}")))?;
        crate::out!("{}", String::from_utf8_lossy(&text));
        return Ok(());
    }
    if json {
        return super::print_json(&b);
    }
    crate::out!("{}", describe(&b));
    if let Some(report) = dir.read(&report_path(id))? {
        crate::outln!();
        crate::out!("{}", String::from_utf8_lossy(&report));
    }
    Ok(())
}

/// Runs `battle template`: the hand-result CSV of a pending battle, every exported unit with
/// no losses, to stdout or a new file.
pub fn template(dir: &CampaignDir, id: &str, out: Option<&std::path::Path>) -> Result<()> {
    let b = dir.read_battle(id)?;
    if !b.state.is_pending() {
        return Err(Error::refused(format!(
            "battle {id} is {}, not waiting for a result: there is nothing to fill in",
            b.state.word()
        ))
        .into());
    }
    let c = dir.load()?;
    let rows: Vec<TemplateRow> = b
        .units
        .iter()
        .map(|u| TemplateRow {
            unit: u.unit.clone(),
            name: c.oob.get(&u.unit).map_or_else(String::new, |x| x.name.to_string()),
            side: u.side.to_string(),
            force: u.force.clone(),
            men: u.men,
            guns: u.guns,
        })
        .collect();
    let bytes = write_template(c.dialect("forces.csv"), id, &rows);
    match out {
        None => {
            use std::io::Write as _;
            // The file's own bytes (its encoding may be Windows-1252); a reader that has gone
            // (`| head`) ends the output, not the command, as for everything printed.
            let mut so = std::io::stdout().lock();
            if let Err(e) = so.write_all(&bytes).and_then(|()| so.flush())
                && e.kind() != std::io::ErrorKind::BrokenPipe
            {
                return Err(e.into());
            }
        }
        Some(path) => {
            if path.exists() {
                return Err(Error::refused(format!(
                    "{}: already exists; sowbridge does not replace it (delete it, or give another --out)",
                    path.display()
                ))
                .into());
            }
            crate::store::atomic_write(path, &bytes)?;
            crate::errln!(
                "wrote {} ({} units of battle {id}); fill in the losses, then: sowbridge --campaign {} apply {}",
                path.display(),
                rows.len(),
                dir.root().display(),
                path.display()
            );
        }
    }
    Ok(())
}

fn describe(b: &BattleRecord) -> String {
    let mut s = format!(
        "battle {} at {} ({}), turn {}: {}\nattacker: {} ({})\nmap: {} at {}° ({})\nprofile: {}, seed {}, SoW army index {}\n",
        b.id,
        b.hex,
        b.place,
        b.turn,
        b.state.word(),
        b.attacker,
        b.attacker_reason,
        b.map.id,
        b.map.orientation,
        b.map.reason,
        b.profile,
        b.seed,
        b.army_index.iter().map(|(side, i)| format!("{side} {i}")).collect::<Vec<_>>().join(", ")
    );
    for p in &b.participants {
        let role = match p.role {
            Role::Principal => "principal".to_string(),
            Role::Joiner => format!("joiner, {} min, {} edge", p.delay_minutes, p.edge),
        };
        s.push_str(&format!("  {:<7} {:<12} {} at {}: {role}\n", p.side.to_string(), p.force, p.name, p.hex));
    }
    for r in &b.reserves {
        s.push_str(&format!("  reserve (8.7): {} {} ({} squadrons)\n", r.unit, r.name, r.squadrons));
    }
    s.push_str(&format!(
        "OOB {} rows; scenario {}; start {}, end {}\n",
        b.chains.len(),
        b.scenario_dir,
        b.start_time,
        b.end_time
    ));
    s.push_str("dice at export:\n");
    for d in &b.dice {
        s.push_str(&format!("  {}: d{} = {}\n", d.purpose, d.sides, d.value));
    }
    if let Some(r) = &b.result {
        s.push_str(&format!("result: {} (sha256 {}), journal entry {}\n", r.file, r.hash, r.journal_seq));
    }
    s
}
