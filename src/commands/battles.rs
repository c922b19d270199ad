//! `battles` and `battle show ID`: the battles of the campaign with their state, and one
//! battle's record, report, dice or a side's briefing.

use anyhow::Result;

use crate::error::Error;
use crate::formats::results::{TemplateRow, write_template};
use crate::model::Side;
use std::path::Path;

use crate::formats::html::Page;
use crate::model::battle::{BattleRecord, BattleState, Role};
use crate::store::CampaignDir;
use crate::store::battles::{aftermath_path, briefing_path, picture_path, report_path, side_view_path};
use crate::store::replace::check_paths_replaceable;

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

/// Runs `battle show ID --html FILE [--side SIDE]`: the battle as one self-contained page.
/// The umpire's page holds the record, the battle picture, and once a result is applied the
/// report and the aftermath picture. A side's page holds only what that side was handed:
/// its briefing (8.5) and its view of the battle's neighbourhood (8.1), both written at
/// export from what the side knows.
pub fn page(dir: &CampaignDir, id: &str, out: &Path, side: Option<Side>) -> Result<()> {
    let b = dir.read_battle(id)?;
    let bytes = match side {
        Some(s) => player_page(dir, &b, s)?,
        None => umpire_page(dir, &b)?,
    };
    check_paths_replaceable(&[out.to_path_buf()])?;
    crate::store::atomic_write(out, &bytes)?;
    let whose = side.map_or("the umpire's page".to_string(), |s| format!("the {s} player's page"));
    crate::errln!("wrote {} ({whose} of battle {id})", out.display());
    Ok(())
}

fn umpire_page(dir: &CampaignDir, b: &BattleRecord) -> Result<Vec<u8>> {
    let mut p =
        Page::new(&format!("Battle {} at {} ({}), turn {}: umpire's page", b.id, b.place, b.hex, b.turn));
    match dir.read(&report_path(&b.id))? {
        Some(report) if b.state == BattleState::Applied => p.markdown(&String::from_utf8_lossy(&report)),
        _ => p.note(&format!("Battle {} is {}: no result applied yet.", b.id, b.state.word())),
    }
    match dir.read(&aftermath_path(&b.id))? {
        Some(svg) if b.state == BattleState::Applied => {
            p.picture("The aftermath: the withdrawal and the losses", &svg)
        }
        _ => {}
    }
    match dir.read(&picture_path(&b.id))? {
        Some(svg) => p.picture("The battle as exported: the forces, their entries and the SoW map", &svg),
        None => p.note(&format!("{} is missing: export the battle again to draw it.", picture_path(&b.id))),
    }
    p.preformatted("The battle record", &describe(b));
    Ok(p.finish())
}

fn player_page(dir: &CampaignDir, b: &BattleRecord, side: Side) -> Result<Vec<u8>> {
    let mut p = Page::new(&format!("Battle at {} ({}), turn {}: {side} briefing", b.place, b.hex, b.turn));
    let path = briefing_path(&b.id, side.slug());
    let text = dir.read(&path)?.ok_or_else(|| Error::refused(format!("battle {} has no {path}", b.id)))?;
    p.markdown(&String::from_utf8_lossy(&text));
    match dir.read(&side_view_path(&b.id, side.slug()))? {
        Some(svg) => p.picture(&format!("What the {side} know of the forces around {}", b.place), &svg),
        None => p.note(&format!(
            "{} is missing: battles exported before sowbridge drew side views have none; export it again to draw one.",
            side_view_path(&b.id, side.slug())
        )),
    }
    Ok(p.finish())
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
