//! Where each force of an exported battle stands on the SoW map (design.md, Export 3): the
//! defender around the objective, the attacker toward the edge it approaches from, joiners
//! at the edge of their line of march, and for rule 8.2 the attacker across the avoiding
//! side's line of retreat; and the intro text both sides read.

use std::collections::BTreeMap;

use crate::formats::sow::deploy::{Anchor, bearing_between, heading, point_at};
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

/// How close the attacker stands to the avoiding side (8.2: "in extremely close proximity"),
/// as a fraction of the map's half-width.
const AVOIDING_PROXIMITY: f64 = 0.15;

/// Where each force of the battle deploys. With `avoiding` (8.2), the attacker's principal
/// forces stand close to the avoiding side, every other brigade across its line of retreat
/// (`retreat`, a campaign bearing; away from the attacker when the depot is unknown),
/// whichever hex the attacker stands in.
pub(super) fn anchors(
    participants: &[Participant],
    attacker: Side,
    avoiding: Option<Side>,
    retreat: Option<f64>,
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
    let retreat = avoiding.map(|_| {
        retreat.map(rot).or_else(|| mean_of(attacker).map(|m| (m + 180.0) % 360.0)).unwrap_or(180.0)
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
                let frac = if p.side == attacker { 0.7 } else { 0.35 };
                Anchor { at: point_at(world, mb, frac), facing: (mb + 180.0) % 360.0, second: None }
            }
        };
        out.insert(p.force.clone(), anchor);
    }
    // 8.2: the attacker's principals close on the avoiding side, half across its retreat.
    if let (Some(av), Some(r)) = (avoiding, retreat) {
        let held: Vec<(f64, f64)> = participants
            .iter()
            .filter(|p| p.side == av && p.role == Role::Principal)
            .filter_map(|p| out.get(&p.force).map(|a| a.at))
            .collect();
        let n = held.len().max(1) as f64;
        let centre = if held.is_empty() {
            (world / 2.0, world / 2.0)
        } else {
            held.iter().fold((0.0, 0.0), |acc, q| (acc.0 + q.0 / n, acc.1 + q.1 / n))
        };
        let step = |bearing: f64| {
            let (hx, hz) = heading(bearing);
            let d = world / 2.0 * AVOIDING_PROXIMITY;
            let clamp = |v: f64| v.clamp(0.05 * world, 0.95 * world);
            (clamp(centre.0 + hx * d), clamp(centre.1 + hz * d))
        };
        for p in participants.iter().filter(|p| p.side == attacker && p.role == Role::Principal) {
            let approach = p.bearing.map(rot).unwrap_or((r + 180.0) % 360.0);
            let at = step(approach);
            let anchor = Anchor { at, facing: bearing_between(at, centre), second: Some(step(r)) };
            out.insert(p.force.clone(), anchor);
        }
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
