//! What `export` prints: the plan, as text for the umpire or JSON for scripts, and its line
//! on what was (or would be) written.

use std::fmt::Write as _;

use serde_json::{Value, json};

use crate::model::battle::{Role, RowKind};
use crate::ops::export::ExportPlan;

/// The plan of a dry run, for scripts.
pub fn plan_json(plan: &ExportPlan) -> Value {
    let r = &plan.record;
    json!({
        "dry_run": true,
        "battle": r.id,
        "scenario_dir": plan.summary.scenario_dir,
        "oob": plan.summary.oob,
        "map": r.map.id,
        "orientation": r.map.orientation,
        "map_reason": r.map.reason,
        "attacker": r.attacker,
        "participants": r.participants,
        "reserves": r.reserves,
        "overruled": r.overruled,
        "files": r.files.keys().collect::<Vec<_>>(),
    })
}

/// The plan for the umpire: the battle, who fights and how, the order of battle, the files.
pub fn plan_text(plan: &ExportPlan) -> String {
    let r = &plan.record;
    let mut s = String::new();
    let _ = writeln!(s, "battle {} at {} ({}), turn {}", r.id, r.hex, r.place, r.turn);
    let _ = writeln!(s, "attacker: {} ({})", r.attacker, r.attacker_reason);
    if let Some(av) = r.avoiding {
        let _ = writeln!(s, "avoiding battle (8.2): {av}");
    }
    let _ = writeln!(
        s,
        "map: {} at {}° ({}{})",
        r.map.id,
        r.map.orientation,
        r.map.reason,
        if r.map.reused { "" } else { "; stored for later battles in this hex" }
    );
    for p in &r.participants {
        let role = match p.role {
            Role::Principal => "principal".to_string(),
            Role::Joiner => format!(
                "joiner, enters {} edge after {} min{}{}",
                p.edge,
                p.delay_minutes,
                if p.delay_overridden { " (--delay)" } else { "" },
                p.crosses_river.as_ref().map(|r| format!(", crossing the {r}")).unwrap_or_default()
            ),
        };
        let _ = writeln!(s, "  {:<7} {:<12} {} at {}: {role}", p.side.to_string(), p.force, p.name, p.hex);
    }
    for x in &r.excluded {
        let _ = writeln!(s, "  excluded: {x}");
    }
    for o in &r.overruled {
        let _ = writeln!(s, "  overruled by the umpire ({}): {}", o.rule, o.refusal);
    }
    for res in &r.reserves {
        let _ = writeln!(
            s,
            "  reserve (8.7): {} {} ({} squadrons, {} men)",
            res.unit, res.name, res.squadrons, res.men
        );
    }
    for u in &r.unavailable {
        let _ = writeln!(s, "  unavailable (6.5.2.4): {u}");
    }
    let men: u32 =
        r.chains.iter().filter(|e| matches!(e.kind, RowKind::Unit | RowKind::Gun)).map(|e| e.men).sum();
    let guns = r.chains.iter().filter(|e| e.kind == RowKind::Gun).count();
    let _ = writeln!(s, "OOB: {} rows, {men} men, {guns} guns", r.chains.len());
    for path in plan.file_paths() {
        let _ = writeln!(s, "  {}", path.display());
    }
    s
}

/// The line of a dry run: nothing written, and where it would go.
pub fn dry_run_line(plan: &ExportPlan) -> String {
    format!(
        "dry run: nothing written; without --dry-run, battle {} and its SoW files would go to {}",
        plan.record.id,
        plan.out.display()
    )
}

/// The line of an export done.
pub fn exported_line(plan: &ExportPlan) -> String {
    format!("exported battle {} into {}", plan.record.id, plan.out.display())
}
