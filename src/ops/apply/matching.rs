//! Joining a result file to its battle: the dump's chains and names against the battle's
//! chain map (or the hand-settled CSV's unit ids against its exported units), refusing
//! anything that does not belong, and summing each campaign unit's losses.

use std::collections::BTreeMap;

use crate::error::{Problem, Problems};
use crate::formats::results::{DumpUnit, GameDump, ManualResult, StartLocs};
use crate::formats::text::sow_field;
use crate::model::Chain;
use crate::model::battle::{BattleRecord, ChainEntry, RowKind};

pub use crate::model::result::{CommanderHit, Losses, Matched};

/// True when a dump row names the exported row: by its display name or its SoW id, as
/// written or with a player's name in parentheses after it. Real names end in parentheses of
/// their own (`1st/52nd (Oxfordshire) Regiment of Foot (Light Infantry)`, `95th (Rifles)`),
/// so a trailing `(…)` is a player's only when what is left is the exported name.
fn same_unit(u: &DumpUnit, e: &ChainEntry) -> bool {
    let exported = sow_field(&e.name);
    [sow_field(&u.written), sow_field(&u.name)]
        .iter()
        .any(|n| n.eq_ignore_ascii_case(&exported) || n.eq_ignore_ascii_case(&e.id))
}

/// How many of a dump's units a battle exported under the same chain and name (or id).
pub fn units_recognised(b: &BattleRecord, d: &GameDump) -> usize {
    recognised_in(&b.chains, d)
}

/// How many of a dump's units a chain map holds under the same chain and name (or id).
pub fn recognised_in(chains: &[ChainEntry], d: &GameDump) -> usize {
    let by_chain: BTreeMap<Chain, &ChainEntry> = chains.iter().map(|e| (e.chain, e)).collect();
    d.units.iter().filter(|(c, u)| by_chain.get(c).is_some_and(|e| same_unit(u, e))).count()
}

/// How a dump's unit column names the exported rows: (by SoW id, by display name, by display
/// name with a player's name after it), counted over the rows a chain map holds.
pub fn naming(chains: &[ChainEntry], d: &GameDump) -> (usize, usize, usize) {
    let by_chain: BTreeMap<Chain, &ChainEntry> = chains.iter().map(|e| (e.chain, e)).collect();
    let mut n = (0, 0, 0);
    for (c, u) in &d.units {
        let Some(e) = by_chain.get(c) else { continue };
        let written = sow_field(&u.written);
        if written.eq_ignore_ascii_case(&e.id) {
            n.0 += 1;
        } else if written.eq_ignore_ascii_case(&sow_field(&e.name)) {
            n.1 += 1;
        } else if same_unit(u, e) {
            n.2 += 1;
        }
    }
    n
}

/// True when most of a dump's units are a battle's own: the dump was written by that battle.
pub fn dump_belongs(b: &BattleRecord, d: &GameDump) -> bool {
    let n = units_recognised(b, d);
    n > 0 && n * 2 >= d.units.len()
}

/// The side of a `startlocs.csv` row, keyed by SoW id or by display name: by the exported row
/// of that id, else by the exported rows of that name when they are all of one side (names
/// repeat: couriers, wagons, sometimes battalions of two sides). `None` when no exported row
/// has that key, or its rows are of both sides.
pub fn side_of_row(b: &BattleRecord, key: &str) -> Option<crate::model::Side> {
    let side = |e: &ChainEntry| {
        if e.chain.side() == 1 { crate::model::Side::French } else { crate::model::Side::Allies }
    };
    if let Some(e) = b.chains.iter().find(|e| e.id.eq_ignore_ascii_case(key)) {
        return Some(side(e));
    }
    let mut sides = b.chains.iter().filter(|e| sow_field(&e.name).eq_ignore_ascii_case(key)).map(side);
    let first = sides.next()?;
    sides.all(|s| s == first).then_some(first)
}

/// How many of a battle's exported rows a `startlocs.csv` lists, by SoW id or by name.
pub fn rows_listed(b: &BattleRecord, sl: &StartLocs) -> usize {
    listed_in(&b.chains, sl)
}

/// How many rows of a chain map a `startlocs.csv` lists, by SoW id or by name.
pub fn listed_in(chains: &[ChainEntry], sl: &StartLocs) -> usize {
    chains
        .iter()
        .filter(|e| {
            sl.units.contains_key(&e.id.to_uppercase())
                || sl.units.contains_key(&sow_field(&e.name).to_uppercase())
        })
        .count()
}

/// Matches a game dump to a battle.
pub fn match_dump(b: &BattleRecord, d: &GameDump, allow_missing: bool) -> Result<Matched, Problems> {
    let mut p = Problems::default();
    let by_chain: BTreeMap<Chain, &ChainEntry> = b.chains.iter().map(|e| (e.chain, e)).collect();
    let mut m = Matched::default();
    let mut gun_crews: BTreeMap<String, (u32, u32)> = BTreeMap::new(); // battery -> (ammo sum, ammo full sum)
    for (chain, u) in &d.units {
        let Some(e) = by_chain.get(chain) else {
            p.push(Problem::at(
                &d.file,
                u.line,
                "Side..Reg",
                format!("chain {chain} ({}) is not in battle {}", u.name, b.id),
            ));
            continue;
        };
        if !same_unit(u, e) {
            p.push(Problem::at(
                &d.file,
                u.line,
                "Our Name",
                format!("chain {chain} is '{}' in the dump but '{}' in battle {}", u.name, e.name, b.id),
            ));
            continue;
        }
        let lost = u64::from(u.killed) + u64::from(u.wounded) + u64::from(u.deserted);
        match e.kind {
            RowKind::Unit | RowKind::Gun => {
                if lost > u64::from(e.men) {
                    p.push(Problem::at(
                        &d.file,
                        u.line,
                        "Deserted+Killed+Wounded",
                        format!("{lost} lost but {} exported only {} men", e.name, e.men),
                    ));
                    continue;
                }
                let Some(unit) = &e.unit else { continue };
                let l = m.losses.entry(unit.clone()).or_default();
                l.killed += u.killed;
                l.wounded += u.wounded;
                l.deserted += u.deserted;
                if e.kind == RowKind::Gun {
                    if lost >= u64::from(e.men) {
                        l.guns_lost += 1;
                    }
                    let g = gun_crews.entry(unit.clone()).or_default();
                    g.0 += u.ammo.unwrap_or(e.ammo);
                    g.1 += e.ammo;
                } else if let (Some(a), true) = (u.ammo, e.ammo > 0) {
                    l.ammo_pct = Some((u64::from(a) * 100 / u64::from(e.ammo)).min(100) as u32);
                }
            }
            RowKind::Commander => {
                if let Some(f) = &e.unit
                    && (u.killed > 0 || u.wounded > 0)
                {
                    m.commanders.push(CommanderHit { formation: f.clone(), killed: u.killed > 0 });
                }
            }
            _ => {}
        }
    }
    for (unit, (ammo, full)) in gun_crews {
        if full > 0
            && let Some(l) = m.losses.get_mut(&unit)
        {
            l.ammo_pct = Some((u64::from(ammo) * 100 / u64::from(full)).min(100) as u32);
        }
    }
    for e in &b.chains {
        if matches!(e.kind, RowKind::Unit | RowKind::Gun) && !d.units.contains_key(&e.chain) {
            m.missing.push(format!("{} {}", e.chain, e.name));
        }
    }
    if !m.missing.is_empty() && !allow_missing {
        let shown: Vec<&str> = m.missing.iter().take(5).map(String::as_str).collect();
        p.push(Problem::in_file(
            &d.file,
            format!(
                "{} exported unit rows of battle {} are not in the dump (a truncated file?), e.g. {}; --allow-missing accepts it",
                m.missing.len(),
                b.id,
                shown.join("; ")
            ),
        ));
    }
    if p.is_empty() { Ok(m) } else { Err(p) }
}

/// Matches a hand-settled result to its battle.
pub fn match_manual(b: &BattleRecord, r: &ManualResult, allow_missing: bool) -> Result<Matched, Problems> {
    let mut p = Problems::default();
    let mut m = Matched::default();
    // Battle units a row names without the leading zeros Excel dropped: reported with that
    // row, not again as units without a row.
    let mut shortened: Vec<&str> = Vec::new();
    for row in &r.rows {
        let Some(e) = b.units.iter().find(|u| u.unit == row.unit) else {
            let digits = |id: &str| !id.is_empty() && id.bytes().all(|c| c.is_ascii_digit());
            let meant = b.units.iter().map(|u| u.unit.as_str()).find(|id| {
                digits(id)
                    && digits(&row.unit)
                    && id.trim_start_matches('0') == row.unit.trim_start_matches('0')
            });
            let hint = match meant {
                Some(id) => {
                    shortened.push(id);
                    format!(
                        " (unit '{id}' did: Excel drops the leading zeros of ids that look like numbers; \
                         format the unit column as Text)"
                    )
                }
                None => String::new(),
            };
            p.push(Problem::at(
                &r.file,
                row.line,
                "unit",
                format!("unit '{}' did not fight in battle {}{hint}", row.unit, b.id),
            ));
            continue;
        };
        let lost =
            u64::from(row.killed) + u64::from(row.wounded) + u64::from(row.missing) + u64::from(row.captured);
        if lost > u64::from(e.men) {
            // The columns counted, with what each holds: any of them may be the one mistyped.
            p.push(Problem::at(
                &r.file,
                row.line,
                "killed+wounded+missing+captured",
                format!(
                    "{lost} lost ({} killed, {} wounded, {} missing, {} captured) but {} exported only {} men",
                    row.killed, row.wounded, row.missing, row.captured, row.unit, e.men
                ),
            ));
            continue;
        }
        if row.guns_lost > e.guns {
            p.push(Problem::at(
                &r.file,
                row.line,
                "guns_lost",
                format!("{} guns lost but {} had {}", row.guns_lost, row.unit, e.guns),
            ));
            continue;
        }
        m.losses.insert(
            row.unit.clone(),
            Losses {
                killed: row.killed,
                wounded: row.wounded,
                deserted: row.missing,
                captured: row.captured,
                guns_lost: row.guns_lost,
                ammo_pct: row.ammo.map(u32::from),
            },
        );
    }
    // A unit whose row is there but refused above is not missing too.
    let listed: std::collections::BTreeSet<&str> = r.rows.iter().map(|row| row.unit.as_str()).collect();
    for u in &b.units {
        if !listed.contains(u.unit.as_str()) {
            m.missing.push(u.unit.clone());
        }
    }
    let unlisted: Vec<&str> =
        m.missing.iter().map(String::as_str).filter(|u| !shortened.contains(u)).collect();
    if !unlisted.is_empty() && !allow_missing {
        p.push(Problem::in_file(
            &r.file,
            format!(
                "{} unit{} of battle {} {} no row (e.g. {}); list them with zeros, or --allow-missing",
                unlisted.len(),
                if unlisted.len() == 1 { "" } else { "s" },
                b.id,
                if unlisted.len() == 1 { "has" } else { "have" },
                unlisted[..unlisted.len().min(5)].join(", ")
            ),
        ));
    }
    if p.is_empty() { Ok(m) } else { Err(p) }
}
