//! Where each force of an exported battle stands on the SoW map (design.md, Export 3): the
//! defender around the objective, the attacker toward the edge it approaches from, joiners
//! at the edge of their line of march, and for rule 8.2 the attacker across the avoiding
//! side's line of retreat; and the intro text both sides read.

use std::collections::BTreeMap;

use crate::formats::sow::deploy::{Anchor, point_at};
use crate::model::battle::{Participant, Role};
use crate::model::{Campaign, HexId, Side};

pub(super) fn circular_mean(bearings: &[f64]) -> Option<f64> {
    if bearings.is_empty() {
        return None;
    }
    let (s, c) =
        bearings.iter().fold((0.0, 0.0), |(s, c), b| (s + b.to_radians().sin(), c + b.to_radians().cos()));
    if s.abs() < 1e-9 && c.abs() < 1e-9 {
        return bearings.first().copied();
    }
    Some((s.atan2(c).to_degrees() + 360.0) % 360.0)
}

pub(super) fn edge_of(map_bearing: f64) -> String {
    ["N", "E", "S", "W"][((map_bearing / 90.0).round() as usize) % 4].to_string()
}

pub(super) fn anchors(
    c: &Campaign,
    participants: &[Participant],
    attacker: Side,
    avoiding: Option<Side>,
    orientation: u16,
    world: f64,
) -> BTreeMap<String, Anchor> {
    let rot = |b: f64| (b + f64::from(orientation)) % 360.0;
    let mean_of = |s: Side| {
        let bs: Vec<f64> = participants
            .iter()
            .filter(|p| p.side == s && p.role == Role::Principal)
            .filter_map(|p| p.bearing.map(rot))
            .collect();
        circular_mean(&bs)
    };
    let mut out = BTreeMap::new();
    let retreat = avoiding.map(|av| {
        // The avoiding side's line of retreat: toward its depot, else away from the attacker.
        let depot_bearing = participants
            .iter()
            .filter(|p| p.side == av)
            .filter_map(|p| c.oob.get(&p.force).and_then(|f| f.depot().map(str::to_string)))
            .find_map(|d| c.map.settlements.iter().find(|s| *s.name == *d).map(|s| s.hex))
            .and_then(|h| participants.first().map(|p0| (p0, h)))
            .map(|(_, h)| rot(c.map.grid.bearing(participants.iter().map(|p| p.hex).min().unwrap_or(h), h)));
        depot_bearing.or_else(|| mean_of(attacker).map(|m| (m + 180.0) % 360.0)).unwrap_or(180.0)
    });
    for p in participants {
        let enemy_mean = mean_of(p.side.enemy());
        let anchor = match (p.role, p.bearing) {
            (Role::Joiner, Some(b)) => {
                let mb = rot(b);
                Anchor { at: point_at(world, mb, 0.92), facing: (mb + 180.0) % 360.0, second: None }
            }
            (_, None) => {
                let facing = enemy_mean.unwrap_or(if p.side == attacker { 180.0 } else { 0.0 });
                let at = match (avoiding, retreat) {
                    (Some(av), Some(r)) if av == p.side => point_at(world, r, 0.05),
                    _ => point_at(world, (facing + 180.0) % 360.0, 0.12),
                };
                Anchor { at, facing, second: None }
            }
            (Role::Principal, Some(b)) => {
                let mb = rot(b);
                match (avoiding, retreat) {
                    (Some(_), Some(r)) if p.side == attacker => Anchor {
                        at: point_at(world, mb, 0.3),
                        facing: (mb + 180.0) % 360.0,
                        second: Some(point_at(world, r, 0.35)),
                    },
                    _ => {
                        let frac = if p.side == attacker { 0.7 } else { 0.35 };
                        Anchor { at: point_at(world, mb, frac), facing: (mb + 180.0) % 360.0, second: None }
                    }
                }
            }
        };
        out.insert(p.force.clone(), anchor);
    }
    out
}

pub(super) fn intro_text(
    c: &Campaign,
    id: &str,
    place: &str,
    hex: HexId,
    ps: &[Participant],
    end: &str,
) -> String {
    let mut s = format!(
        "The action at {place}, {} (campaign turn {}).\nBattle {id} in hex {hex}.\n\n",
        c.turn().date(),
        c.config.turn
    );
    for side in [Side::French, Side::Allies] {
        let names: Vec<String> = ps
            .iter()
            .filter(|p| p.side == side && p.role == Role::Principal)
            .map(|p| {
                c.oob.get(&p.force).map_or(p.name.clone(), |f| match f.commander() {
                    Some(cmd) => format!("{} ({cmd})", f.name),
                    None => f.name.to_string(),
                })
            })
            .collect();
        s.push_str(&format!("{side}: {}.\n", names.join("; ")));
    }
    s.push_str(&format!(
        "\nOther forces may arrive during the battle. The battle ends at {end}.\nEach commander has his own briefing from the umpire.\n"
    ));
    s
}
