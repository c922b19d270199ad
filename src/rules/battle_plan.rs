//! Planning a battle at a hex, before any file is written: who fights (8.1, 8.3, 8.6), the
//! rules that refuse it unless the umpire overrules them (2.5.3's bridge, 7.1.4's
//! capitulation), the light-cavalry reserves (8.7), what stays out (6.5.2.4's unavailable
//! brigades, 2.5's men beyond a fortress's maximum garrison), one contact one battle against
//! the battles already pending, the battle's id and SoW army indices, and its map (8.4). Pure:
//! the export command reads the campaign and the battles, and writes what is decided here.

use std::collections::{BTreeMap, BTreeSet};

use crate::error::{Error, Result};
use crate::model::battle::{BattleRecord, MapRecord, Overruling, Reserve, Role};
use crate::model::{BattleMapChoice, Campaign, HexId, Side, StatusKind};
use crate::rules::battle::{Combatants, WhoFightsOptions, who_fights};
use crate::rules::dice::Dice;
use crate::rules::garrison::outside_the_walls;
use crate::rules::map_choice::{CatalogueMap, choose_map, hex_features, under_garrisoned_assault};
use crate::rules::reserve::validate_reserve;
use crate::rules::zoc::Contact;
use crate::rules::{alcantara, capitulation};

/// Rules an umpire may overrule at export (`--overrule RULE`).
pub const OVERRULABLE: [&str; 2] = ["2.5.3", "7.1.4"];

/// What the umpire asked of the battle (`export hex`'s options, parsed).
#[derive(Debug, Clone, Default)]
pub struct PlanOptions {
    /// `--attacker`, `--delay`, `--exclude`.
    pub who: WhoFightsOptions,
    /// `--reserve`: light-cavalry brigades kept out (8.7).
    pub reserves: Vec<String>,
    /// `--avoiding`: the side that tried to refuse battle (8.2).
    pub avoiding: Option<Side>,
    /// `--overrule`: rules whose refusal the umpire's ruling overrides.
    pub overrule: BTreeSet<String>,
    /// `--replace`: the pending battle of these forces is replaced.
    pub replace: bool,
}

/// What was decided of a battle before its map.
#[derive(Debug, Clone)]
pub struct Decision {
    /// Who fights, the attacker and why.
    pub who: Combatants,
    /// Rules the umpire overruled, with the refusal each would have given.
    pub overruled: Vec<Overruling>,
    /// Light-cavalry reserves kept out (8.7).
    pub reserves: Vec<Reserve>,
    /// Units and formations left out with their subtrees.
    pub skip: BTreeSet<String>,
    /// Brigades left out as unavailable (6.5.2.4).
    pub unavailable: Vec<String>,
    /// Units (and formations left empty by them) with no men present, left out of the SoW
    /// order of battle: SoW cannot field a unit of 0 men.
    pub no_men: Vec<String>,
    /// Units beyond a fortress's maximum garrison, outside its walls (2.5).
    pub outside_walls: Vec<String>,
    /// The battle id (`T20-18.28`).
    pub id: String,
    /// The pending battle it replaces (`--replace`).
    pub replaces: Option<BattleRecord>,
    /// SoW army index of each side.
    pub army_index: BTreeMap<Side, u8>,
}

/// The light-cavalry reserves asked for (8.7), each once.
fn reserves_of(c: &Campaign, opts: &PlanOptions, all_forces: &[String]) -> Result<Vec<Reserve>> {
    let mut reserves = Vec::new();
    for r in &opts.reserves {
        let res = validate_reserve(c, r, all_forces)?;
        if reserves.iter().any(|x: &Reserve| x.unit == res.unit) {
            continue;
        }
        reserves.push(res);
    }
    Ok(reserves)
}

/// Rows that stay out, with their subtrees, and why.
struct Skipped {
    skip: BTreeSet<String>,
    /// Unavailable (6.5.2.4).
    unavailable: Vec<String>,
    /// No men present ([`crate::model::Unit::has_men`]).
    no_men: Vec<String>,
}

/// Units and formations that stay out: reserves, anything unavailable (6.5.2.4), and units
/// with no men present (with the formations they leave without any).
fn skipped(c: &Campaign, forces: &[String], reserves: &[Reserve]) -> Skipped {
    let mut out = Skipped {
        skip: reserves.iter().map(|r| r.unit.clone()).collect(),
        unavailable: Vec::new(),
        no_men: Vec::new(),
    };
    for f in forces {
        for u in c.oob.subtree(f) {
            if u.has_status(StatusKind::Unavailable, c.config.turn) {
                out.skip.insert(u.id.to_string());
                out.unavailable.push(u.id.to_string());
            }
            let empty = if u.is_unit() { !u.has_men() } else { u.id != f.as_str() && !c.oob.has_men(u) };
            if empty && !c.oob.ancestors(&u.id).iter().any(|a| out.skip.contains(a.id.as_str())) {
                out.skip.insert(u.id.to_string());
                out.no_men.push(u.id.to_string());
            }
        }
    }
    out
}

fn choose_id(existing: &[BattleRecord], base: &str, replace: bool) -> Result<String> {
    let mut n = 1;
    loop {
        let id = if n == 1 { base.to_string() } else { format!("{base}-{n}") };
        match existing.iter().find(|b| b.id == id) {
            None => return Ok(id),
            Some(b) if b.state.is_pending() && replace => return Ok(id),
            Some(_) => n += 1,
        }
    }
}

/// The rules that refuse the battle of `who` at `hex` unless the umpire overrules them, each
/// with what it says, in the order `export` asks them: 2.5.3's bridge, 7.1.4's capitulation.
/// What `export` refuses and what `contacts decide` advises both come from here.
pub fn refusals(c: &Campaign, who: &Combatants, hex: HexId) -> Vec<Overruling> {
    [
        (alcantara::RULE, alcantara::crossing_refusal(c, &who.participants, who.attacker)),
        (capitulation::RULE, capitulation::capitulation_refusal(c, hex, &who.participants, who.attacker)),
    ]
    .into_iter()
    .filter_map(|(rule, why)| why.map(|refusal| Overruling { rule: rule.to_string(), refusal }))
    .collect()
}

/// Decides who fights at `hex` and what the battle is, against the battles already recorded
/// (`existing`): refused with the rule when a rule forbids it (unless overruled), when a
/// force is already in a pending battle (one contact, one battle; `--replace` replaces that
/// one), or when a reserve is no fresh light-cavalry brigade.
pub fn decide(
    c: &Campaign,
    contacts: &[Contact],
    hex: HexId,
    opts: &PlanOptions,
    existing: &[BattleRecord],
) -> Result<Decision> {
    let who: Combatants = who_fights(c, contacts, hex, &opts.who)?;
    if let Some(av) = opts.avoiding
        && av == who.attacker
    {
        return Err(Error::refused(format!(
            "--avoiding {av}: the {av} attack here ({}); the side avoiding battle (8.2) is the other one",
            who.attacker_reason
        )));
    }
    // Rules that refuse the battle unless the umpire overrules them.
    let overrule: BTreeSet<&str> = opts.overrule.iter().map(String::as_str).collect();
    if let Some(r) = overrule.iter().find(|r| !OVERRULABLE.contains(*r)) {
        return Err(Error::refused(format!(
            "--overrule {r}: only rules {} can be overruled at export",
            OVERRULABLE.join(" and ")
        )));
    }
    let mut overruled = Vec::new();
    for r in refusals(c, &who, hex) {
        if !overrule.contains(r.rule.as_str()) {
            return Err(Error::refused(format!(
                "{}; --overrule {} lets an umpire's ruling stand; nothing written",
                r.refusal, r.rule
            )));
        }
        overruled.push(r);
    }
    let all_forces: Vec<String> = who.participants.iter().map(|p| p.force.clone()).collect();
    let reserves = reserves_of(c, opts, &all_forces)?;
    let Skipped { mut skip, unavailable, no_men } = skipped(c, &all_forces, &reserves);
    // A fortress-town or the Alcázar holds at most 10,000 men (2.5.1, 2.5.3).
    let outside_walls = outside_the_walls(c, hex, who.attacker.enemy(), &all_forces, &skip);
    skip.extend(outside_walls.iter().cloned());

    // Battle id and pending battles: one contact, one battle. A force already in a pending
    // battle cannot be exported into another; `--replace` replaces that battle only.
    let overlapping: Vec<&BattleRecord> = existing
        .iter()
        .filter(|b| b.state.is_pending())
        .filter(|b| b.hex == hex || b.participants.iter().any(|p| all_forces.contains(&p.force)))
        .collect();
    if !opts.replace
        && let Some(p) = overlapping.first()
    {
        let shared: Vec<&str> = p
            .participants
            .iter()
            .filter(|x| all_forces.contains(&x.force))
            .map(|x| x.force.as_str())
            .collect();
        let why = if p.hex == hex && shared.is_empty() {
            format!("battle {} at {hex} is still pending (exported, no result applied)", p.id)
        } else {
            format!(
                "{} already fight{} in battle {} at {} ({}), still pending (exported, no result applied): \
                 one contact is one battle",
                shared.join(", "),
                if shared.len() == 1 { "s" } else { "" },
                p.id,
                p.hex,
                p.place
            )
        };
        return Err(Error::refused(format!(
            "{why}; apply its result first, or use --replace to export this battle in its place; nothing written"
        )));
    }
    if overlapping.len() > 1 {
        let ids: Vec<&str> = overlapping.iter().map(|b| b.id.as_str()).collect();
        return Err(Error::refused(format!(
            "--replace: this battle's forces are in {} pending battles ({}); --replace replaces one: \
             apply or replace them one at a time; nothing written",
            ids.len(),
            ids.join(", ")
        )));
    }
    let base = format!("T{}-{hex}", c.config.turn);
    let id = choose_id(existing, &base, opts.replace)?;
    let replaces = overlapping.first().map(|b| (*b).clone());
    let army_index = army_indices(existing, &id, replaces.as_ref())?;

    Ok(Decision {
        who,
        overruled,
        reserves,
        skip,
        unavailable,
        no_men,
        outside_walls,
        id,
        replaces,
        army_index,
    })
}

/// The battle's army index on each side: never one of a pending battle (so a dump can only
/// match its own battle), and while any is left, one no battle has used (so a late dump of an
/// old battle cannot match a new one either). `replaces` is the battle this one replaces.
fn army_indices(
    existing: &[BattleRecord],
    id: &str,
    replaces: Option<&BattleRecord>,
) -> Result<BTreeMap<Side, u8>> {
    let mut army_index: BTreeMap<Side, u8> = BTreeMap::new();
    for side in [Side::French, Side::Allies] {
        let others = || existing.iter().filter(|b| b.id != id && Some(&b.id) != replaces.map(|r| &r.id));
        let pending: BTreeSet<u8> = others()
            .filter(|b| b.state.is_pending())
            .filter_map(|b| b.army_index.get(&side).copied())
            .collect();
        let ever: BTreeSet<u8> = others().filter_map(|b| b.army_index.get(&side).copied()).collect();
        let free = (1..=99u8)
            .find(|i| !ever.contains(i))
            .or_else(|| (1..=99u8).find(|i| !pending.contains(i)))
            .ok_or_else(|| Error::refused("99 battles are pending: apply some results first".to_string()))?;
        army_index.insert(side, free);
    }
    Ok(army_index)
}

/// The battle's SoW map (8.4): the one stored for the hex, reused for every later battle
/// there; otherwise the catalogue's best fit for the hex's features (a town map for an
/// assault on an under-garrisoned fortress, 7.1.4), or the umpire's, and the choice to store.
#[allow(clippy::too_many_arguments)]
pub fn battle_map(
    c: &Campaign,
    hex: HexId,
    who: &Combatants,
    cat: &[CatalogueMap],
    forced_map: Option<&str>,
    forced_orientation: Option<u16>,
    id: &str,
    dice: &mut dyn Dice,
) -> Result<(MapRecord, Option<BattleMapChoice>)> {
    let defender = who.attacker.enemy();
    let defender_men_here: u32 = who
        .side(defender)
        .filter(|p| p.hex == hex && p.role == Role::Principal)
        .map(|p| c.oob.strength(&p.force).men())
        .sum();
    let mut new_map = None;
    let map: MapRecord = match c.battle_maps.get(&hex) {
        Some(stored) => {
            if forced_map.is_some_and(|m| !m.eq_ignore_ascii_case(&stored.map))
                || forced_orientation.is_some_and(|o| o != stored.orientation)
            {
                return Err(Error::refused(format!(
                    "{hex} already has map {} at {}° from battle {} (rule 8.4: later battles in a hex use the same map); edit map/battle-maps.csv to change it",
                    stored.map, stored.orientation, stored.battle
                )));
            }
            // 8.4's "will use the same map" wins over 7.1.4's town map, which the investing
            // player "may" use.
            let town_asked = under_garrisoned_assault(c, hex, defender, defender_men_here);
            MapRecord {
                id: stored.map.clone(),
                orientation: stored.orientation,
                reused: true,
                reason: format!(
                    "stored for {hex} by battle {} (rule 8.4){}",
                    stored.battle,
                    if town_asked {
                        "; an assault on an under-garrisoned fortress (7.1.4) would take a town map, but \
                         8.4's stored map wins"
                    } else {
                        ""
                    }
                ),
                features: hex_features(c, hex).into_iter().collect(),
            }
        }
        None => {
            let mut features = hex_features(c, hex);
            let assault = under_garrisoned_assault(c, hex, defender, defender_men_here);
            if assault {
                features = BTreeSet::from(["town".to_string()]);
            }
            let mut m = choose_map(cat, &features, forced_map, forced_orientation, dice, hex)?;
            if assault {
                m.reason =
                    format!("assault on an under-garrisoned fortress (7.1.4): a town map; {}", m.reason);
            }
            new_map = Some(BattleMapChoice {
                map: m.id.clone(),
                orientation: m.orientation,
                battle: id.to_string(),
            });
            m
        }
    };
    Ok((map, new_map))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::formats::campaign::{CampaignFiles, parse_campaign};
    use crate::rules::ScriptedDice;

    /// The example campaign (the fixture, as `demo` ships it).
    fn peninsula() -> Campaign {
        let mut files = CampaignFiles::default();
        for (rel, bytes) in crate::ops::demo::EXAMPLE_CAMPAIGN {
            if let Some(name) = crate::formats::campaign::names::ALL.iter().find(|n| **n == rel) {
                files.files.insert(name, bytes.to_vec());
            }
        }
        parse_campaign(&files).unwrap()
    }

    /// A pending battle of these forces at `hex`, as a record on disk would say.
    fn pending(id: &str, hex: &str, forces: &[(&str, &str)]) -> BattleRecord {
        let parts: Vec<serde_json::Value> = forces
            .iter()
            .map(|(f, side)| {
                serde_json::json!({"force": f, "name": f, "side": side, "hex": hex, "role": "principal",
                    "distance": 0, "bearing": null, "edge": "centre", "crosses_river": null,
                    "delay_minutes": 0, "delay_overridden": false, "out_of_supply": false})
            })
            .collect();
        serde_json::from_value(serde_json::json!({
            "id": id, "state": "exported", "turn": 20, "hex": hex, "place": "x", "attacker": "French",
            "attacker_reason": "", "avoiding": null, "participants": parts, "excluded": [], "unavailable": [],
            "reserves": [], "map": {"id": "M", "orientation": 0, "reused": false, "reason": "", "features": []},
            "profile": "napmod-g1", "seed": 1808, "dice": [], "army_index": {"French": 1, "Allies": 1},
            "start_time": "10:00:00", "end_time": "15:00:00", "chains": [], "units": [],
            "scenario_dir": "", "oob": "", "files": {}, "result": null
        }))
        .unwrap()
    }

    #[test]
    fn medellin_is_decided_with_its_principals_and_fresh_army_indices() {
        let c = peninsula();
        let d = decide(
            &c,
            &crate::rules::zoc::contacts(&c),
            "18.28".parse().unwrap(),
            &PlanOptions::default(),
            &[],
        )
        .unwrap();
        assert_eq!(d.id, "T20-18.28");
        let forces: Vec<&str> = d.who.participants.iter().map(|p| p.force.as_str()).collect();
        assert!(forces.contains(&"FR-I") && forces.contains(&"SP-EXT"), "{forces:?}");
        assert_eq!(d.army_index, BTreeMap::from([(Side::French, 1), (Side::Allies, 1)]));
        // An index an earlier battle used is not used again while one is left.
        let old = pending("T19-18.28", "18.28", &[]);
        let mut applied = old.clone();
        applied.state = crate::model::battle::BattleState::Applied;
        let d = decide(
            &c,
            &crate::rules::zoc::contacts(&c),
            "18.28".parse().unwrap(),
            &PlanOptions::default(),
            &[applied],
        )
        .unwrap();
        assert_eq!(d.army_index[&Side::French], 2);
    }

    #[test]
    fn one_contact_is_one_battle_and_replace_replaces_that_battle_only() {
        let c = peninsula();
        let existing = [pending("T20-18.28", "18.28", &[("FR-I", "French"), ("SP-EXT", "Allies")])];
        let e = decide(
            &c,
            &crate::rules::zoc::contacts(&c),
            "18.29".parse().unwrap(),
            &PlanOptions::default(),
            &existing,
        )
        .unwrap_err();
        assert!(e.to_string().contains("already fight in battle T20-18.28"), "{e}");
        let replace = PlanOptions { replace: true, ..PlanOptions::default() };
        let d = decide(&c, &crate::rules::zoc::contacts(&c), "18.29".parse().unwrap(), &replace, &existing)
            .unwrap();
        assert_eq!(d.replaces.map(|r| r.id), Some("T20-18.28".to_string()));
        assert_eq!(d.id, "T20-18.29");
    }

    #[test]
    fn the_bridge_of_alcantara_refuses_the_battle_unless_overruled_rule_2_5_3() {
        let c = peninsula();
        let toledo: HexId = "28.23".parse().unwrap();
        let e =
            decide(&c, &crate::rules::zoc::contacts(&c), toledo, &PlanOptions::default(), &[]).unwrap_err();
        assert!(e.to_string().contains("2.5.3"), "{e}");
        let overrule =
            PlanOptions { overrule: BTreeSet::from(["2.5.3".to_string()]), ..PlanOptions::default() };
        let d = decide(&c, &crate::rules::zoc::contacts(&c), toledo, &overrule, &[]).unwrap();
        assert_eq!(d.overruled.iter().map(|o| o.rule.as_str()).collect::<Vec<_>>(), ["2.5.3"]);
    }

    #[test]
    fn a_stored_map_is_reused_rule_8_4() {
        let mut c = peninsula();
        let hex: HexId = "18.28".parse().unwrap();
        let d = decide(&c, &crate::rules::zoc::contacts(&c), hex, &PlanOptions::default(), &[]).unwrap();
        let cat =
            crate::formats::maps::parse_catalogue("c", crate::formats::maps::BUILTIN_CATALOGUE.as_bytes())
                .unwrap();
        let (first, stored) =
            battle_map(&c, hex, &d.who, &cat, None, None, &d.id, &mut ScriptedDice::new([1, 1, 1])).unwrap();
        let stored = stored.expect("a first battle's map is stored");
        c.battle_maps.insert(hex, stored);
        let (again, none) =
            battle_map(&c, hex, &d.who, &cat, None, None, "T21-18.28", &mut ScriptedDice::new([])).unwrap();
        assert!(none.is_none() && again.reused);
        assert_eq!((again.id, again.orientation), (first.id, first.orientation));
        let other = if first.orientation == 0 { 90 } else { 0 };
        assert!(
            battle_map(&c, hex, &d.who, &cat, None, Some(other), "T21-18.28", &mut ScriptedDice::new([]))
                .is_err()
        );
    }
}
