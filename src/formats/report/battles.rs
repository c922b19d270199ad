//! The battles in words: the list `battles` prints, one battle's record as `battle show` and
//! the umpire's page show it, and the lines saying what `battle show --html` and `battle
//! template` wrote.

use std::fmt::Write as _;
use std::path::Path;

use serde_json::{Value, json};

use crate::model::Side;
use crate::model::battle::{BattleRecord, Role};

/// The battles as `battles --json` prints them.
pub fn list_json(battles: &[BattleRecord]) -> Value {
    let rows: Vec<Value> = battles
        .iter()
        .map(|b| {
            json!({
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
    Value::Array(rows)
}

/// The battles, one line each: id, state, turn, hex, place and the result applied.
pub fn list(battles: &[BattleRecord]) -> String {
    let mut s = String::new();
    if battles.is_empty() {
        s.push_str("no battles exported yet\n");
    }
    for b in battles {
        let result = match &b.result {
            Some(r) => r.winner.map_or("draw".to_string(), |w| format!("{w} victory")),
            None => String::new(),
        };
        let _ = writeln!(
            s,
            "{:<14} {:<9} turn {:<3} {} {:<20} {}",
            b.id,
            b.state.word().to_string(),
            b.turn,
            b.hex,
            b.place,
            result
        );
    }
    s
}

/// "wrote FILE (whose page of battle ID)", for stderr.
pub fn page_written(out: &Path, side: Option<Side>, id: &str) -> String {
    let whose = side.map_or("the umpire's page".to_string(), |s| format!("the {s} player's page"));
    format!("wrote {} ({whose} of battle {id})", out.display())
}

/// What `battle template --out FILE` wrote and the command that applies it once filled in,
/// for stderr.
pub fn template_written(path: &Path, units: usize, id: &str, campaign: &Path) -> String {
    format!(
        "wrote {} ({units} units of battle {id}); fill in the losses, then: sowbridge --campaign {} apply {}",
        path.display(),
        campaign.display(),
        path.display()
    )
}

/// One battle's record: its place and turn, attacker, map, participants, reserves, dice at
/// export and the result applied.
pub fn describe(b: &BattleRecord) -> String {
    let mut s = format!(
        "battle {} at {}, turn {}: {}\nattacker: {} ({})\nmap: {} at {}° ({})\nprofile: {}, seed {}, SoW army index {}\n",
        b.id,
        b.site(),
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

/// `battle cancel`: the battle cancelled and the forces it frees.
pub fn cancelled(id: &str, forces: &[String], seq: u64, dry_run: bool) -> String {
    let verb = if dry_run { "would be cancelled" } else { "cancelled" };
    let mut s = format!("battle {id} {verb}: it will not be fought; a result for it is refused\n");
    s.push_str(&format!("  forces free to march: {}\n", forces.join(" ")));
    if !dry_run {
        s.push_str(&format!("  journal entry {seq}; `sowbridge undo {id}` takes it back\n"));
    }
    s
}
