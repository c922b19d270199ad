//! `supply.csv`, written by `turn advance`: what the supply rules remember of each force from
//! one turn to the next (turns out of supply in a row, 3.3; its depot and how far it is
//! established, 3.2.1). And the one edit sowbridge makes to `settlements.csv`: the computed
//! control written into its `control` column, every other field as it was.

use crate::error::{Problems, Result};
use crate::model::dialect::Dialect;
use crate::model::supply::{DepotState, SupplyRecord, Trail};
use crate::model::{Control, HexId, Nation, Settlement};

use super::table::{Fields, Table, write_csv};

/// The file's name.
pub const SUPPLY: &str = "supply.csv";

/// Columns of `supply.csv`.
pub const SUPPLY_COLUMNS: [&str; 5] = ["force", "turns_out", "depot", "depot_state", "depot_ready"];

/// Parses `supply.csv` into `p`'s problems, with the dialect it was saved in.
pub fn parse_records_into(bytes: &[u8], p: &mut Problems) -> (Vec<SupplyRecord>, Dialect) {
    let t = Table::parse(SUPPLY, bytes, p);
    let mut out = Vec::new();
    if t.require(&SUPPLY_COLUMNS[..2], p) {
        for row in &t.rows {
            let mut f = Fields::new(&t, row, p);
            let force = f.id("force").to_string();
            if force.is_empty() {
                f.problem("force", "is empty");
            }
            let turns_out = f.req_count("turns_out");
            let depot = Some(f.text("depot").to_string()).filter(|d| !d.is_empty());
            let depot_state = match f.text("depot_state") {
                "" => Some(DepotState::Established),
                _ => f.req::<DepotState>("depot_state"),
            };
            let depot_ready = f.count("depot_ready");
            if let (Some(turns_out), Some(depot_state)) = (turns_out, depot_state) {
                out.push(SupplyRecord { force, turns_out, depot, depot_state, depot_ready });
            }
        }
    }
    (out, t.dialect)
}

/// The trails' file, written by `move`.
pub const TRAILS: &str = "trails.csv";

/// Columns of `trails.csv`.
pub const TRAIL_COLUMNS: [&str; 2] = ["force", "trail"];

/// Parses `trails.csv` (`force,trail`, the trail's hexes separated by spaces, the force's own
/// first) into `p`'s problems, with the dialect it was saved in.
pub fn parse_trails_into(bytes: &[u8], p: &mut Problems) -> (Vec<Trail>, Dialect) {
    let t = Table::parse(TRAILS, bytes, p);
    let mut out: Vec<Trail> = Vec::new();
    if t.require(&TRAIL_COLUMNS, p) {
        for row in &t.rows {
            let mut f = Fields::new(&t, row, p);
            let force = f.id("force").to_string();
            if force.is_empty() {
                f.problem("force", "is empty");
            }
            let text = f.text("trail").to_string();
            let hexes: Result<Vec<HexId>, _> = text.split_whitespace().map(str::parse::<HexId>).collect();
            match hexes {
                Ok(h) if !h.is_empty() => out.push(Trail { force, hexes: h }),
                Ok(_) => f.problem("trail", "is empty: give the hexes from the force back to its source"),
                Err(e) => f.problem("trail", format!("'{text}': {e}")),
            }
        }
    }
    (out, t.dialect)
}

/// Writes `trails.csv`, one row per trail, in the order given.
pub fn write_trails(trails: &[Trail], dialect: Dialect) -> Vec<u8> {
    write_csv(
        dialect,
        &TRAIL_COLUMNS,
        &[],
        trails.iter().map(|t| {
            let hexes: Vec<String> = t.hexes.iter().map(ToString::to_string).collect();
            vec![t.force.clone(), hexes.join(" ")]
        }),
    )
}

/// Writes `supply.csv`, one row per force, in the order given.
pub fn write_records(records: &[SupplyRecord], dialect: Dialect) -> Vec<u8> {
    write_csv(
        dialect,
        &SUPPLY_COLUMNS,
        &[],
        records.iter().map(|r| {
            vec![
                r.force.clone(),
                r.turns_out.to_string(),
                r.depot.clone().unwrap_or_default(),
                if r.depot.is_some() { r.depot_state.word().to_string() } else { String::new() },
                r.depot_ready.map(|t| t.to_string()).unwrap_or_default(),
            ]
        }),
    )
}

/// The columns of `settlements.csv` that the turn changes (who holds a place, who invests it,
/// the umpire's overrule): the campaign's state, not its map.
pub const STATE_COLUMNS: [&str; 3] = ["control", "invested_by", "overrule"];

/// `settlements.csv` with each row's `control`, `invested_by` and `overrule` as the campaign
/// value holds them (rows matched by name and hex): the one way sowbridge writes the file.
/// Every other field and column as read, in the file's own dialect; a field whose value is
/// unchanged keeps its bytes (`FR` stays `FR`, not `Fr`).
pub fn with_state(bytes: &[u8], settlements: &[Settlement]) -> Result<Vec<u8>> {
    let mut p = Problems::default();
    let t = Table::parse("settlements.csv", bytes, &mut p);
    p.into_result()?;
    let (ni, hi) = (t.col("name"), t.col("hex"));
    let (ci, ii, oi) = (t.col("control"), t.col("invested_by"), t.col("overrule"));
    let headers: Vec<&str> = t.headers.iter().map(String::as_str).collect();
    let rows: Vec<Vec<String>> = t
        .rows
        .iter()
        .map(|row| {
            let name = ni.map_or("", |i| t.field(row, i));
            let hex = hi.and_then(|i| t.field(row, i).parse::<HexId>().ok());
            let s = settlements.iter().find(|s| s.name == name && Some(s.hex) == hex);
            (0..headers.len())
                .map(|i| {
                    let old = t.field(row, i);
                    let new = match s {
                        Some(s) if Some(i) == ci => {
                            field_if_changed(old, s.typed.to_string(), |v| control_of(v) == Some(s.typed))
                        }
                        Some(s) if Some(i) == ii => field_if_changed(
                            old,
                            s.invested_by.map(|n| n.to_string()).unwrap_or_default(),
                            |v| v.parse::<Nation>().ok() == s.invested_by,
                        ),
                        Some(s) if Some(i) == oi => field_if_changed(
                            old,
                            s.overrule.map(|c| c.to_string()).unwrap_or_default(),
                            |v| control_of(v) == s.overrule,
                        ),
                        _ => None,
                    };
                    new.unwrap_or_else(|| old.to_string())
                })
                .collect()
        })
        .collect();
    Ok(write_csv(t.dialect, &headers, &[], rows))
}

/// A `control` or `overrule` field's value as `settlements.csv` spells it.
fn control_of(v: &str) -> Option<Control> {
    match v {
        "-" => Some(Control::Unrest),
        _ => v.parse::<Nation>().ok().map(Control::Nation),
    }
}

/// The new text of a field, or `None` when the old one already reads as the same value.
fn field_if_changed(old: &str, new: String, same: impl Fn(&str) -> bool) -> Option<String> {
    let old = old.trim();
    if same(old) || old.is_empty() && new.is_empty() { None } else { Some(new) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Control, HexId, Nation};

    fn place(name: &str, hex: &str, typed: Control, invested_by: Option<Nation>) -> Settlement {
        Settlement {
            name: name.into(),
            hex: hex.parse::<HexId>().unwrap(),
            kind: crate::model::SettlementKind::Town,
            port: false,
            depot: false,
            province: String::new(),
            control: typed,
            typed,
            invested_by,
            citadel: false,
            region: crate::model::Region::South,
            overrule: None,
        }
    }

    #[test]
    fn a_place_taken_is_its_takers_and_no_longer_invested_or_overruled() {
        let text = "name;hex;kind;control;invested_by;overrule\r\nToledo;28.23;town;Sp;Fr;Sp\r\nMadrid;29.21;capital;Fr;;\r\n";
        let places = [
            place("Toledo", "28.23", Control::Nation(Nation::Fr), None),
            place("Madrid", "29.21", Control::Nation(Nation::Fr), None),
        ];
        let out = with_state(text.as_bytes(), &places).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "name;hex;kind;control;invested_by;overrule\r\nToledo;28.23;town;Fr;;\r\nMadrid;29.21;capital;Fr;;\r\n"
        );
    }

    #[test]
    fn only_the_state_columns_change_and_the_file_keeps_its_dialect_and_spelling() {
        let text = "name,hex,kind,control,invested_by,notes\r\nMadrid,29.21,capital,SP,fr,\"held, for now\"\r\nMérida,16.29,city,Sp,,\r\n";
        let places = [
            place("Madrid", "29.21", Control::Nation(Nation::Sp), Some(Nation::Fr)),
            place("Mérida", "16.29", Control::Unrest, None),
        ];
        let out = with_state(text.as_bytes(), &places).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "name,hex,kind,control,invested_by,notes\r\nMadrid,29.21,capital,SP,fr,\"held, for now\"\r\nMérida,16.29,city,-,,\r\n"
        );
    }

    #[test]
    fn records_read_back_what_was_written() {
        let r = vec![
            SupplyRecord {
                force: "FR-I".into(),
                turns_out: 2,
                depot: Some("Talavera".into()),
                depot_state: DepotState::Establishing,
                depot_ready: Some(23),
            },
            SupplyRecord {
                force: "SP-A".into(),
                turns_out: 0,
                depot: None,
                depot_state: DepotState::Established,
                depot_ready: None,
            },
        ];
        let bytes = write_records(&r, Dialect::default());
        let mut p = Problems::default();
        assert_eq!(parse_records_into(&bytes, &mut p).0, r);
        assert!(p.is_empty());
        parse_records_into(b"force,turns_out\nFR-I,x\n", &mut p);
        let err = p.into_result().unwrap_err().to_string();
        assert!(err.contains("supply.csv:2: turns_out"), "{err}");
    }
}
