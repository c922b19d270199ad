//! `supply.csv`, written by `turn advance`: what the supply rules remember of each force from
//! one turn to the next (turns out of supply in a row, 3.3; its depot and how far it is
//! established, 3.2.1). And the one edit sowbridge makes to `settlements.csv`: the computed
//! control written into its `control` column, every other field as it was.

use crate::error::{Problems, Result};
use crate::model::dialect::Dialect;
use crate::model::{HexId, Nation};
use crate::rules::control::SettlementControl;
use crate::rules::supply::{DepotState, SupplyRecord};

use super::table::{Fields, Table, write_csv};

/// The file's name.
pub const SUPPLY: &str = "supply.csv";

/// Columns of `supply.csv`.
pub const SUPPLY_COLUMNS: [&str; 5] = ["force", "turns_out", "depot", "depot_state", "depot_ready"];

/// Parses `supply.csv` (absent: no records). Every bad row is reported with its line.
pub fn parse_records(bytes: Option<&[u8]>) -> Result<Vec<SupplyRecord>> {
    let Some(bytes) = bytes else { return Ok(Vec::new()) };
    let mut p = Problems::default();
    let t = Table::parse(SUPPLY, bytes, &mut p);
    let mut out = Vec::new();
    if t.require(&SUPPLY_COLUMNS[..2], &mut p) {
        for row in &t.rows {
            let mut f = Fields::new(&t, row, &mut p);
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
    p.into_result()?;
    Ok(out)
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

/// `settlements.csv` with each row's `control` set to the computed one (rows matched by name
/// and hex, in file order); every other field and column as read, in the file's own dialect.
pub fn with_control(bytes: &[u8], control: &[SettlementControl]) -> Result<Vec<u8>> {
    let mut p = Problems::default();
    let t = Table::parse("settlements.csv", bytes, &mut p);
    p.into_result()?;
    let Some(ci) = t.col("control") else { return Ok(bytes.to_vec()) };
    let (ni, hi) = (t.col("name"), t.col("hex"));
    let headers: Vec<&str> = t.headers.iter().map(String::as_str).collect();
    let mut used = vec![false; control.len()];
    let rows = t.rows.iter().map(|row| {
        let name = ni.map_or("", |i| t.field(row, i));
        let hex = hi.map_or("", |i| t.field(row, i));
        let found = control
            .iter()
            .enumerate()
            .find(|(i, k)| {
                !used[*i] && k.name == name && hex.parse::<crate::model::HexId>().ok() == Some(k.hex)
            })
            .map(|(i, k)| (i, k.control.to_string()));
        if let Some((i, _)) = found {
            used[i] = true;
        }
        (0..headers.len())
            .map(|i| match (&found, i == ci) {
                (Some((_, c)), true) => c.clone(),
                _ => t.field(row, i).to_string(),
            })
            .collect::<Vec<String>>()
    });
    let rows: Vec<Vec<String>> = rows.collect();
    Ok(write_csv(t.dialect, &headers, &[], rows))
}

/// `settlements.csv` with each place taken (7.1) given to its taker: its `control` the
/// taker's nation, `invested_by` and `overrule` emptied; every other field and row as it was,
/// in the file's own dialect.
pub fn with_taken(bytes: &[u8], taken: &[(String, HexId, Nation)]) -> Result<Vec<u8>> {
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
            let by = taken.iter().find(|(n, h, _)| n == name && Some(*h) == hex).map(|(_, _, by)| *by);
            (0..headers.len())
                .map(|i| match by {
                    Some(n) if Some(i) == ci => n.to_string(),
                    Some(_) if Some(i) == ii || Some(i) == oi => String::new(),
                    _ => t.field(row, i).to_string(),
                })
                .collect()
        })
        .collect();
    Ok(write_csv(t.dialect, &headers, &[], rows))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Control, HexId, Nation};
    use crate::rules::control::Production;

    fn k(name: &str, hex: &str, control: Control) -> SettlementControl {
        SettlementControl {
            name: name.into(),
            hex: hex.parse::<HexId>().unwrap(),
            control,
            computed: control,
            typed: Control::Unrest,
            overruled: false,
            production: Production::Adequate,
            why: String::new(),
        }
    }

    #[test]
    fn a_place_taken_is_its_takers_and_no_longer_invested_or_overruled() {
        let text = "name;hex;kind;control;invested_by;overrule\r\nToledo;28.23;town;Sp;Fr;Sp\r\nMadrid;29.21;capital;Fr;;\r\n";
        let out =
            with_taken(text.as_bytes(), &[("Toledo".into(), "28.23".parse().unwrap(), Nation::Fr)]).unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "name;hex;kind;control;invested_by;overrule\r\nToledo;28.23;town;Fr;;\r\nMadrid;29.21;capital;Fr;;\r\n"
        );
    }

    #[test]
    fn only_the_control_column_changes_and_the_file_keeps_its_dialect() {
        let text = "name,hex,kind,control,notes\r\nMadrid,29.21,capital,Sp,\"held, for now\"\r\nMérida,16.29,city,Sp,\r\n";
        let out = with_control(
            text.as_bytes(),
            &[k("Madrid", "29.21", Control::Nation(Nation::Fr)), k("Mérida", "16.29", Control::Unrest)],
        )
        .unwrap();
        assert_eq!(
            String::from_utf8(out).unwrap(),
            "name,hex,kind,control,notes\r\nMadrid,29.21,capital,Fr,\"held, for now\"\r\nMérida,16.29,city,-,\r\n"
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
        assert_eq!(parse_records(Some(&bytes)).unwrap(), r);
        let err = parse_records(Some(b"force,turns_out\nFR-I,x\n")).unwrap_err().to_string();
        assert!(err.contains("supply.csv:2: turns_out"), "{err}");
    }
}
