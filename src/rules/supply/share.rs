//! Capacity per line (3.4): "a series of settlements ... can provide a supply line
//! sufficient to support a force of 25,000 men and 75 guns" (50,000 and 150 when good). The
//! capacity is the line's, not each force's: forces that share a line share it, and only up to
//! the capacity are they "considered in supply"; the rest "must halt or withdraw".
//!
//! Forces share a line when they draw on the same source and their lines leave it by the same
//! road (the same hex next to the source); forces standing in the source share its stores. The
//! line feeds them nearest the source first (fewest hexes of road, then `forces.csv` order):
//! each is in supply when the men and guns already fed plus its own fit its line's capacity;
//! one that does not fit is out of supply (3.1), named with the men and guns ahead of it, and
//! the next is tried against what is left.

use std::collections::BTreeMap;

use compact_str::CompactString;

use super::{ForceSupply, HexId, Side, Supply};

/// The orders of a force beyond its line's capacity (3.4).
pub const HALT: &str = "must halt or withdraw, no offensive (3.4)";

/// Shares each line's capacity among the forces on it (3.4): the forces beyond it are put out
/// of supply, with their turns out counted from `prev_out`. `forces` are in `forces.csv` order
/// (one side's, or both sides'), which breaks ties of distance from the source.
pub(super) fn share_lines(forces: &mut [ForceSupply], prev_out: &BTreeMap<&str, u32>) {
    let mut lines: BTreeMap<(Side, CompactString, Option<HexId>), Vec<usize>> = BTreeMap::new();
    for (i, f) in forces.iter().enumerate() {
        let (Supply::In, Some(source), Some(_)) = (f.state, &f.source, &f.capacity) else { continue };
        let out_of_source = f.path.len().checked_sub(2).map(|j| f.path[j]);
        lines.entry((f.side, source.clone(), out_of_source)).or_default().push(i);
    }
    for (_, mut members) in lines {
        members.sort_by_key(|&i| (forces[i].path.len(), i));
        let (mut men, mut guns) = (0u32, 0u32);
        let mut fed: Vec<CompactString> = Vec::new();
        // What the forces beyond the capacity are told draws on the line first: the same
        // words for every one of them until another force is fed (a busy line has hundreds).
        let mut ahead: Option<String> = None;
        for i in members {
            let f = &mut forces[i];
            let Some(cap) = f.capacity.as_mut() else { continue };
            cap.load_men = men + cap.men;
            cap.load_guns = guns + cap.guns;
            if !cap.exceeded() {
                (men, guns) = (cap.load_men, cap.load_guns);
                fed.push(f.force.clone());
                ahead = None;
                continue;
            }
            let ahead = ahead.get_or_insert_with(|| {
                if fed.is_empty() {
                    "no other force draws on it".to_string()
                } else {
                    format!(
                        "{men} men and {guns} guns of {} draw on it first, nearer the source",
                        fed.join(", ")
                    )
                }
            });
            f.reason = Some(format!(
                "over the capacity of its {} line to {} ({} men, {} guns): {ahead}; with its own {} men and {} guns it would carry {} men and {} guns: out of supply (3.4)",
                cap.line.word(),
                f.source.as_deref().unwrap_or("?"),
                cap.max_men,
                cap.max_guns,
                cap.men,
                cap.guns,
                cap.load_men,
                cap.load_guns
            ));
            f.state = Supply::Out;
            f.turns_out = prev_out.get(f.force.as_str()).copied().unwrap_or(0) + 1;
            f.orders.insert(0, HALT.to_string());
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::{ADEQUATE_CAPACITY, Capacity, Production};
    use super::*;

    fn force(id: &str, men: u32, hexes: u16) -> ForceSupply {
        let (max_men, max_guns) = ADEQUATE_CAPACITY;
        ForceSupply {
            force: id.into(),
            side: Side::French,
            hex: HexId::new(10, 10 + hexes),
            state: Supply::In,
            source: Some("Madrid".into()),
            path: (0..=hexes).rev().map(|k| HexId::new(10, 10 + k)).collect(),
            break_hex: None,
            reason: None,
            capacity: Some(Capacity {
                line: Production::Adequate,
                settlements: 1,
                good: 0,
                men,
                guns: 0,
                max_men,
                max_guns,
                load_men: men,
                load_guns: 0,
            }),
            turns_out: 0,
            orders: Vec::new(),
        }
    }

    #[test]
    fn each_force_beyond_the_capacity_is_told_who_draws_on_the_line_before_it() {
        let mut forces = vec![
            force("A", 20_000, 1),
            force("B", 9_000, 2),
            force("C", 8_000, 3),
            force("D", 4_000, 4),
            force("E", 6_000, 5),
        ];
        share_lines(&mut forces, &BTreeMap::from([("C", 2)]));
        let state: Vec<Supply> = forces.iter().map(|f| f.state).collect();
        assert_eq!(state, [Supply::In, Supply::Out, Supply::Out, Supply::In, Supply::Out]);
        let why = |i: usize| forces[i].reason.clone().unwrap_or_default();
        assert!(why(1).contains(": 20000 men and 0 guns of A draw on it first"), "{}", why(1));
        assert!(why(2).contains(": 20000 men and 0 guns of A draw on it first"), "{}", why(2));
        assert!(why(2).contains("with its own 8000 men"), "{}", why(2));
        assert!(why(4).contains(": 24000 men and 0 guns of A, D draw on it first"), "{}", why(4));
        assert_eq!((forces[1].turns_out, forces[2].turns_out), (1, 3));
        assert_eq!(forces[4].orders, [HALT]);
    }
}
