//! What `export` prints: the plan, as text for the umpire or JSON for scripts.

use anyhow::Result;

use crate::model::battle::{Role, RowKind};

use super::ExportPlan;

pub(super) fn print_plan(plan: &ExportPlan, json: bool) -> Result<()> {
    let r = &plan.record;
    if json {
        return crate::commands::print_json(&serde_json::json!({
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
        }));
    }
    crate::outln!("battle {} at {} ({}), turn {}", r.id, r.hex, r.place, r.turn);
    crate::outln!("attacker: {} ({})", r.attacker, r.attacker_reason);
    if let Some(av) = r.avoiding {
        crate::outln!("avoiding battle (8.2): {av}");
    }
    crate::outln!(
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
        crate::outln!("  {:<7} {:<12} {} at {}: {role}", p.side.to_string(), p.force, p.name, p.hex);
    }
    for x in &r.excluded {
        crate::outln!("  excluded: {x}");
    }
    for o in &r.overruled {
        crate::outln!("  overruled by the umpire ({}): {}", o.rule, o.refusal);
    }
    for res in &r.reserves {
        crate::outln!(
            "  reserve (8.7): {} {} ({} squadrons, {} men)",
            res.unit,
            res.name,
            res.squadrons,
            res.men
        );
    }
    for u in &r.unavailable {
        crate::outln!("  unavailable (6.5.2.4): {u}");
    }
    let men: u32 =
        r.chains.iter().filter(|e| matches!(e.kind, RowKind::Unit | RowKind::Gun)).map(|e| e.men).sum();
    let guns = r.chains.iter().filter(|e| e.kind == RowKind::Gun).count();
    crate::outln!("OOB: {} rows, {men} men, {guns} guns", r.chains.len());
    for f in r.files.keys() {
        crate::outln!("  {}", crate::store::join_rel(&plan.out, f).display());
    }
    Ok(())
}
