//! Light-cavalry reserves (rule 8.7): a commander may keep back a force of light cavalry of
//! at least 4 squadrons with a brigade commander; it is removed from the OOB and recorded
//! for the pursuit after the battle.

use crate::error::{Error, Result};
use crate::model::battle::Reserve;
use crate::model::{Arm, Campaign, Level, StatusKind};

/// Smallest reserve (8.7).
pub const MIN_SQUADRONS: u32 = 4;

/// Validates `--reserve ID` against the forces taking part, saying why a refusal.
pub fn validate_reserve(c: &Campaign, id: &str, participating: &[String]) -> Result<Reserve> {
    let u = c
        .oob
        .get(id)
        .ok_or_else(|| Error::refused(format!("--reserve {id}: unknown unit (not in forces.csv)")))?;
    let force = c.oob.force_of(id).map(|f| f.id.to_string()).unwrap_or_default();
    if !participating.contains(&force) {
        return Err(Error::refused(format!("--reserve {id}: {} is not in this battle", u.name)));
    }
    if u.level != Level::Brigade {
        return Err(Error::refused(format!(
            "--reserve {id}: {} is a {}; rule 8.7 takes a brigade with its brigade commander",
            u.name, u.level
        )));
    }
    // 8.7's pursuit is by a "fresh" brigade: one unavailable for combat (6.5.2.4), itself,
    // through a formation above it or in any of its units, is not.
    let turn = c.config.turn;
    let mut rows = c.oob.ancestors(id);
    rows.extend(c.oob.subtree(id));
    if let Some(x) = rows.iter().find(|x| x.has_status(StatusKind::Unavailable, turn)) {
        let until = x
            .status()
            .iter()
            .filter(|s| s.kind == StatusKind::Unavailable)
            .map(|s| s.until)
            .max()
            .unwrap_or(turn);
        let whose = if x.id == u.id { String::new() } else { format!(" ({} is)", x.name) };
        return Err(Error::refused(format!(
            "--reserve {id}: {} is unavailable for combat until turn {until}{whose} (rule 6.5.2.4); \
             rule 8.7 takes a fresh light cavalry brigade",
            u.name
        )));
    }
    let units = c.oob.units_under(id);
    if let Some(other) = units.iter().find(|x| x.arm != Some(Arm::LightCavalry)) {
        return Err(Error::refused(format!(
            "--reserve {id}: {} holds {} ({}), not only light cavalry (rule 8.7)",
            u.name,
            other.name,
            other.arm.map(|a| a.to_string()).unwrap_or_default()
        )));
    }
    let squadrons: u32 = units.iter().map(|x| x.squadrons).sum();
    if squadrons < MIN_SQUADRONS {
        return Err(Error::refused(format!(
            "--reserve {id}: {} has {squadrons} squadron{}; rule 8.7 needs at least {MIN_SQUADRONS}",
            u.name,
            if squadrons == 1 { "" } else { "s" }
        )));
    }
    let Some(commander) = u.commander().map(str::to_string) else {
        return Err(Error::refused(format!(
            "--reserve {id}: {} has no brigade commander in forces.csv (rule 8.7)",
            u.name
        )));
    };
    Ok(Reserve {
        unit: id.to_string(),
        name: u.name.to_string(),
        side: u.side(),
        squadrons,
        men: units.iter().map(|x| x.men).sum(),
        commander,
    })
}
