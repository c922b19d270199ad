//! Movement orders files (`move ORDERS.csv`) and `avoidance.csv`, the retreats before battle
//! that the enemy caught (rule 8.2).
//!
//! An orders file has a `force` column and a `to` or a `path` column (or both), and may have
//! a `retreat` column: one order a line, `force,to` (a destination) or `force,path` (the hexes
//! to march through, space-separated, from the first after the force's own), `retreat` yes
//! for a force declining battle (8.2), an `on_contact` column (`attack`, `hold`, `avoid`): the
//! side's decision on a contact the march makes (8.1, 8.2), and `day` and `from` for an order
//! sent by messenger during the turn (6.3.1): the day it is sent and the headquarters it sets
//! out from.
//!
//! A `to` beyond this turn's allowance is a standing order: the force marches as far as the
//! turn allows and `move` keeps the rest (`standing-orders.csv`); `to` = `cancel` cancels the
//! force's standing order. A `force` that is a part of a force (a brigade, battalion,
//! squadron or battery) is detached as a force of its own; an `attach` column names the
//! formation a force joins where its march ends (with neither `to` nor `path`, where it
//! stands).

use crate::error::Problems;
use crate::model::HexId;
use crate::model::dialect::Dialect;
use crate::model::orders::{OnContact, Order, Route};

use super::table::{Fields, Table, write_csv};

/// Parses one orders file: every problem with its line and field.
pub fn parse_orders(file: &str, bytes: &[u8], p: &mut Problems) -> Vec<Order> {
    let t = Table::parse(file, bytes, p);
    let mut out = Vec::new();
    if !t.require(&["force"], p) {
        return out;
    }
    if t.col("to").is_none() && t.col("path").is_none() {
        p.push(crate::error::Problem::at(file, 1, "to", "the header has neither a `to` nor a `path` column"));
        return out;
    }
    for row in &t.rows {
        let mut f = Fields::new(&t, row, p);
        let force = f.id("force").to_string();
        if force.is_empty() {
            f.problem("force", "is empty");
        }
        let retreat = f.flag("retreat");
        let on_contact = f.opt::<OnContact>("on_contact");
        let (day, from) = messenger_columns(&mut f);
        let attach = Some(f.id("attach").to_string()).filter(|a| !a.is_empty());
        let (to, path) = (f.text("to"), f.text("path"));
        let route = match (to.is_empty(), path.is_empty()) {
            (false, true) if to.trim().eq_ignore_ascii_case("cancel") => Some(Route::Cancel),
            (true, true) if attach.is_some() => Some(Route::Path(Vec::new())),
            (false, false) => {
                f.problem("path", "give either `to` or `path`, not both");
                None
            }
            (true, true) => {
                f.problem("to", "no destination: give `to` (a hex, or `cancel`) or `path` (hexes)");
                None
            }
            (false, true) => f.req::<HexId>("to").map(Route::To),
            (true, false) => {
                let mut hexes = Vec::new();
                let mut ok = true;
                for w in path.split_whitespace() {
                    match w.parse::<HexId>() {
                        Ok(h) => hexes.push(h),
                        Err(e) => {
                            f.problem("path", format!("'{w}': {e}"));
                            ok = false;
                        }
                    }
                }
                ok.then_some(Route::Path(hexes))
            }
        };
        if let Some(route) = route
            && !force.is_empty()
        {
            out.push(Order {
                force,
                route,
                retreat,
                on_contact,
                day,
                from,
                attach,
                standing: false,
                file: file.to_string(),
                line: row.line,
            });
        }
    }
    out
}

/// The optional `day` (1–14, the day of the turn the order is sent by messenger, 6.3.1) and
/// `from` (where the messenger sets out: a force id or a hex) of an order.
fn messenger_columns(f: &mut Fields<'_>) -> (Option<u32>, Option<String>) {
    let day = f.count("day").filter(|&d| {
        let ok = (1..=crate::model::orders::TURN_DAYS).contains(&d);
        if !ok {
            f.problem(
                "day",
                format!("{d} is not a day of the turn (1 to {})", crate::model::orders::TURN_DAYS),
            );
        }
        ok
    });
    let from = f.id("from").trim().to_string();
    (day, (!from.is_empty()).then_some(from))
}

/// File name.
pub const AVOIDANCE: &str = "avoidance.csv";
/// Columns of `avoidance.csv`.
pub const AVOIDANCE_COLUMNS: [&str; 4] = ["turn", "force", "caught_by", "hex"];

pub use crate::model::supply::Avoidance;

/// Parses `avoidance.csv`.
pub fn parse_avoidance(bytes: &[u8], p: &mut Problems) -> Vec<Avoidance> {
    parse_avoidance_into(bytes, p).0
}

/// Parses `avoidance.csv`, with the dialect it was saved in.
pub fn parse_avoidance_into(bytes: &[u8], p: &mut Problems) -> (Vec<Avoidance>, Dialect) {
    let t = Table::parse(AVOIDANCE, bytes, p);
    let mut out = Vec::new();
    if !t.require(&AVOIDANCE_COLUMNS, p) {
        return (out, t.dialect);
    }
    for row in &t.rows {
        let mut f = Fields::new(&t, row, p);
        let turn = f.req_count("turn");
        let force = f.id("force").to_string();
        let caught_by = f.text("caught_by").to_string();
        if let (Some(turn), Some(hex)) = (turn, f.req::<HexId>("hex")) {
            out.push(Avoidance { turn, force, caught_by, hex });
        }
    }
    (out, t.dialect)
}

/// File name.
pub const ROADS_SEEN: &str = "roads-seen.csv";
/// Columns of `roads-seen.csv`.
pub const ROADS_SEEN_COLUMNS: [&str; 3] = ["hex", "turn", "force"];

pub use crate::model::supply::RoadSeen;

/// Parses `roads-seen.csv`, with the dialect it was saved in.
pub fn parse_roads_seen_into(bytes: &[u8], p: &mut Problems) -> (Vec<RoadSeen>, Dialect) {
    let t = Table::parse(ROADS_SEEN, bytes, p);
    let mut out = Vec::new();
    if !t.require(&ROADS_SEEN_COLUMNS, p) {
        return (out, t.dialect);
    }
    for row in &t.rows {
        let mut f = Fields::new(&t, row, p);
        let turn = f.req_count("turn");
        let force = f.id("force").to_string();
        if let (Some(turn), Some(hex)) = (turn, f.req::<HexId>("hex")) {
            out.push(RoadSeen { hex, turn, force });
        }
    }
    (out, t.dialect)
}

/// Writes `roads-seen.csv`.
pub fn write_roads_seen(rows: &[RoadSeen], dialect: Dialect) -> Vec<u8> {
    write_csv(
        dialect,
        &ROADS_SEEN_COLUMNS,
        &[],
        rows.iter().map(|r| vec![r.hex.to_string(), r.turn.to_string(), r.force.clone()]),
    )
}

/// Writes `avoidance.csv`.
pub fn write_avoidance(rows: &[Avoidance], dialect: Dialect) -> Vec<u8> {
    write_csv(
        dialect,
        &AVOIDANCE_COLUMNS,
        &[],
        rows.iter()
            .map(|a| vec![a.turn.to_string(), a.force.clone(), a.caught_by.clone(), a.hex.to_string()]),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn orders_read_a_destination_or_a_path_and_name_every_bad_line() {
        let text = "force,to,path,retreat\nA,10.05,,\nB,,10.06 10.07,yes\nC,,,\nD,10.5,,\nE,10.05,10.06,\n";
        let mut p = Problems::default();
        let orders = parse_orders("orders.csv", text.as_bytes(), &mut p);
        assert_eq!(orders.len(), 2);
        assert_eq!(orders[0].route, Route::To(HexId::new(10, 5)));
        assert_eq!(orders[1].route, Route::Path(vec![HexId::new(10, 6), HexId::new(10, 7)]));
        assert!(orders[1].retreat && !orders[0].retreat);
        let lines: Vec<String> = p.0.iter().map(ToString::to_string).collect();
        assert_eq!(p.len(), 3, "{lines:?}");
        assert!(lines[0].contains("orders.csv") && lines[0].contains('4'), "{lines:?}");
    }

    #[test]
    fn avoidance_reads_back_what_it_writes() {
        let rows = vec![Avoidance {
            turn: 20,
            force: "SP-MAN".into(),
            caught_by: "FR-RES".into(),
            hex: HexId::new(28, 25),
        }];
        let bytes = write_avoidance(&rows, Dialect::default());
        let mut p = Problems::default();
        assert_eq!(parse_avoidance(&bytes, &mut p), rows);
        assert!(p.is_empty());
    }
}
