//! What `export` prints: the plan, as text for the umpire or JSON for scripts, and its line
//! on what was (or would be) written.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};

use serde_json::{Value, json};

use crate::model::battle::{BattleRecord, Role, RowKind};

/// What the export text shows of a plan: its battle record, where its files go, and the
/// summary's folder names.
#[derive(Debug)]
pub struct PlanView<'a> {
    /// The battle record.
    pub record: &'a BattleRecord,
    /// The scenario folder, as written.
    pub scenario_dir: &'a str,
    /// The OOB file, as written.
    pub oob: &'a str,
    /// The output folder.
    pub out: &'a Path,
    /// Where each SoW file goes, in the order of the record's files.
    pub paths: Vec<PathBuf>,
}

/// The plan of a dry run, for scripts.
pub fn plan_json(plan: &PlanView<'_>) -> Value {
    let r = &plan.record;
    json!({
        "dry_run": true,
        "battle": r.id,
        "scenario_dir": plan.scenario_dir,
        "oob": plan.oob,
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

/// The plan for the umpire: the battle, who fights and how, the order of battle, the files;
/// as `written`, or as a dry run would write it.
pub fn plan_text(plan: &PlanView<'_>, written: bool) -> String {
    let r = &plan.record;
    let mut s = String::new();
    let _ = writeln!(s, "battle {} at {}, turn {}", r.id, r.site(), r.turn);
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
        match (r.map.reused, written) {
            (true, _) => "",
            (false, true) => "; stored for later battles in this hex",
            (false, false) => "; to be stored for later battles in this hex",
        }
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
    for u in &r.no_men {
        let _ = writeln!(s, "  no men present, left out of the SoW order of battle: {u}");
    }
    let men: u32 =
        r.chains.iter().filter(|e| matches!(e.kind, RowKind::Unit | RowKind::Gun)).map(|e| e.men).sum();
    let guns = r.chains.iter().filter(|e| e.kind == RowKind::Gun).count();
    let _ = writeln!(s, "OOB: {} rows, {men} men, {guns} guns", r.chains.len());
    for path in &plan.paths {
        let _ = writeln!(s, "  {}", path.display());
    }
    s
}

/// The line of a dry run: nothing written, and where it would go.
pub fn dry_run_line(plan: &PlanView<'_>) -> String {
    format!(
        "dry run: nothing written; without --dry-run, battle {} and its SoW files would go to {}",
        plan.record.id,
        plan.out.display()
    )
}

/// The line of an export done.
pub fn exported_line(plan: &PlanView<'_>) -> String {
    format!("exported battle {} into {}", plan.record.id, plan.out.display())
}
