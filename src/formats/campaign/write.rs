//! Writing the campaign's `forces.csv` and `map/battle-maps.csv` in the dialect they were read in.

use std::collections::BTreeMap;
use std::fmt::Write as _;

use crate::formats::table::write_csv;
use crate::model::dialect::{Dialect, LineEnd};
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
    let mut out = Vec::with_capacity(oob.units().len() * 84 + 256);
    let mut rows = Rows::new(dialect);
    let head: Vec<&str> =
        FORCE_COLUMNS.iter().copied().chain(oob.extra_columns.iter().map(String::as_str)).collect();
    rows.write(&mut out, head.iter().map(|h| h.as_bytes()));
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
        rows.write(&mut out, f.iter().map(String::as_bytes).chain(u.extra().iter().map(String::as_bytes)));
    }
    let mut bytes = dialect.encode(out);
    bytes.shrink_to_fit();
    bytes
}
/// Records written as the csv crate writes them in a dialect, without its machinery for the
/// fields that need none: a record whose fields hold no separator, quote or line break is its
/// fields joined by the separator and ended by the line end; any other record goes through
/// the dialect's csv writer, which quotes what needs quoting.
struct Rows {
    dialect: Dialect,
    separator: u8,
    end: &'static [u8],
    fields: Vec<Vec<u8>>,
}

impl Rows {
    fn new(dialect: Dialect) -> Rows {
        let end: &'static [u8] = match dialect.line_end {
            LineEnd::Lf => b"\n",
            LineEnd::CrLf => b"\r\n",
            LineEnd::Cr => b"\r",
        };
        Rows { dialect, separator: dialect.separator, end, fields: Vec::new() }
    }

    /// True when the csv writer would write the field as it is.
    fn plain(&self, field: &[u8]) -> bool {
        !field.iter().any(|&b| b == self.separator || matches!(b, b'"' | b'\r' | b'\n'))
    }

    fn write<'f>(&mut self, out: &mut Vec<u8>, record: impl Iterator<Item = &'f [u8]> + Clone) {
        let (mut n, mut bytes) = (0, 0);
        let plain = record.clone().all(|f| {
            n += 1;
            bytes += f.len();
            self.plain(f)
        });
        // A record that would be no bytes at all (one empty field) is written `""`, as an
        // empty line would be no record.
        if plain && (n > 1 || bytes > 0) {
            for (i, f) in record.enumerate() {
                if i > 0 {
                    out.push(self.separator);
                }
                out.extend_from_slice(f);
            }
            out.extend_from_slice(self.end);
            return;
        }
        self.fields.clear();
        self.fields.extend(record.map(<[u8]>::to_vec));
        let mut w = self.dialect.writer().from_writer(Vec::new());
        // Writing into a Vec<u8> cannot fail.
        let _ = w.write_record(&self.fields);
        out.extend_from_slice(&w.into_inner().unwrap_or_default());
    }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::dialect::Encoding;

    /// Every record as the dialect's csv writer writes it, quoting and line ends alike.
    #[test]
    fn records_are_written_as_the_csv_writer_writes_them() {
        let records: [&[&str]; 9] = [
            &["id", "name", "men"],
            &["FR-I", "", ""],
            &[""],
            &["", ""],
            &[],
            &["a,b", "c;d", "say \"hi\""],
            &["line\nbreak", "cr\rhere", " spaced "],
            &["Álava", "Saint-Cyr", "1;2"],
            &["x"],
        ];
        for separator in [b',', b';'] {
            for line_end in [LineEnd::Lf, LineEnd::CrLf, LineEnd::Cr] {
                let dialect = Dialect { separator, line_end, encoding: Encoding::Utf8 };
                let mut ours = Vec::new();
                let mut rows = Rows::new(dialect);
                // Records of every length, each written as the csv writer writes it.
                let mut w = dialect.writer().flexible(true).from_writer(Vec::new());
                for r in records {
                    rows.write(&mut ours, r.iter().map(|f| f.as_bytes()));
                    w.write_record(r).unwrap();
                }
                let theirs = w.into_inner().unwrap();
                assert_eq!(String::from_utf8(ours).unwrap(), String::from_utf8(theirs).unwrap());
            }
        }
    }
}
