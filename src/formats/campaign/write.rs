//! Writing the campaign's `forces.csv` and `map/battle-maps.csv` in the dialect they were read in.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::formats::table::write_csv;
use crate::model::dialect::Dialect;
use crate::model::{Arm, BattleMapChoice, HexId, OrderOfBattle, Quality};

use super::{BATTLE_MAP_COLUMNS, FORCE_COLUMNS};

/// Writes `forces.csv` (known columns, then the umpire's own). Each field is formatted
/// into a buffer kept from row to row: a large order of battle has hundreds of thousands of
/// rows, and a string per field would be millions of allocations. Written in the dialect
/// given (the one the file was read in).
pub fn write_forces(oob: &OrderOfBattle, dialect: Dialect) -> Vec<u8> {
    /// A whole number, without the formatting machinery (millions of them).
    fn push_u32(buf: &mut String, mut n: u32) {
        let mut digits = [0u8; 10];
        let mut at = digits.len();
        loop {
            at -= 1;
            digits[at] = b'0' + (n % 10) as u8;
            n /= 10;
            if n == 0 {
                break;
            }
        }
        for &d in &digits[at..] {
            buf.push(char::from(d));
        }
    }
    fn push_hex(buf: &mut String, h: Option<HexId>) {
        if let Some(h) = h {
            // Writing into a String cannot fail.
            let _ = write!(buf, "{h}");
        }
    }
    // About 80 bytes a row: sized once, not doubled past the file (a large order of battle is
    // many megabytes, held while the change is committed).
    let mut w = dialect.writer().from_writer(Vec::with_capacity(oob.units().len() * 84 + 256));
    let head: Vec<&str> =
        FORCE_COLUMNS.iter().copied().chain(oob.extra_columns.iter().map(String::as_str)).collect();
    // Writing into a Vec<u8> cannot fail.
    let _ = w.write_record(&head);
    let mut f: [String; FORCE_COLUMNS.len()] = Default::default();
    for u in oob.units() {
        for b in &mut f {
            b.clear();
        }
        f[0].push_str(&u.id);
        f[1].push_str(u.parent.as_deref().unwrap_or(""));
        f[2].push_str(u.level.word());
        f[3].push_str(&u.name);
        f[4].push_str(u.commander().unwrap_or(""));
        f[5].push_str(u.nation.word());
        f[6].push_str(u.arm.map_or("", Arm::word));
        if u.is_unit() {
            push_u32(&mut f[7], u.men);
        }
        if u.squadrons != 0 {
            push_u32(&mut f[8], u.squadrons);
        }
        if u.guns != 0 {
            push_u32(&mut f[9], u.guns);
        }
        push_hex(&mut f[10], u.hex);
        push_hex(&mut f[11], u.moving_to);
        f[12].push_str(u.depot().unwrap_or(""));
        if u.parent.is_none() {
            f[13].push_str(u.supply_column.word());
        }
        f[14].push_str(u.quality.map_or("", Quality::word));
        if let Some(a) = u.ammo {
            push_u32(&mut f[15], u32::from(a));
        }
        for (k, st) in u.status().iter().enumerate() {
            if k > 0 {
                f[16].push(';');
            }
            let _ = write!(f[16], "{st}");
        }
        let _ = w.write_record(f.iter().map(String::as_bytes).chain(u.extra().iter().map(String::as_bytes)));
    }
    let mut bytes = dialect.encode(w.into_inner().unwrap_or_default());
    bytes.shrink_to_fit();
    bytes
}
/// Writes `map/battle-maps.csv` in the dialect given.
pub fn write_battle_maps(maps: &BTreeMap<HexId, BattleMapChoice>, dialect: Dialect) -> Vec<u8> {
    write_csv(
        dialect,
        &BATTLE_MAP_COLUMNS,
        &[],
        maps.iter()
            .map(|(h, c)| vec![h.to_string(), c.map.clone(), c.orientation.to_string(), c.battle.clone()]),
    )
}
