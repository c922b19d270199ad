//! `standing-orders.csv`: the standing orders `move` keeps (`force,route,order,turn`; the route's
//! hexes separated by spaces, from the first after the force's own).

use crate::error::Problems;
use crate::model::HexId;
use crate::model::dialect::Dialect;
pub use crate::model::standing::StandingOrder;

use super::table::{Fields, Table, write_csv};

/// File name.
pub const STANDING: &str = "standing-orders.csv";
/// Columns of `standing-orders.csv`.
pub const STANDING_COLUMNS: [&str; 4] = ["force", "route", "order", "turn"];

/// Parses `standing-orders.csv`, with the dialect it was saved in: every problem with its line
/// and field.
pub fn parse_standing_into(bytes: &[u8], p: &mut Problems) -> (Vec<StandingOrder>, Dialect) {
    let t = Table::parse(STANDING, bytes, p);
    let mut out = Vec::new();
    // The forces with an order so far (a standing order on every force is thousands of rows).
    let mut seen = std::collections::HashSet::new();
    if !t.require(&["force", "route"], p) {
        return (out, t.dialect);
    }
    for row in &t.rows {
        let mut f = Fields::new(&t, row, p);
        let force = f.id("force").to_string();
        if force.is_empty() {
            f.problem("force", "is empty");
        }
        let text = f.text("route").to_string();
        let route: Result<Vec<HexId>, _> = text.split_whitespace().map(str::parse::<HexId>).collect();
        let route = match route {
            Ok(r) if !r.is_empty() => Some(r),
            Ok(_) => {
                f.problem("route", "is empty: give the hexes still to march, or delete the line");
                None
            }
            Err(e) => {
                f.problem("route", format!("'{text}': {e}"));
                None
            }
        };
        let order = f.text("order").to_string();
        let on_contact = f.opt::<crate::model::orders::OnContact>("on_contact");
        let turn = if f.text("turn").is_empty() { Some(0) } else { f.req_count("turn") };
        if let (Some(route), Some(turn), false) = (route, turn, force.is_empty()) {
            if !seen.insert(force.clone()) {
                f.problem("force", format!("'{force}' has a standing order on an earlier line"));
                continue;
            }
            out.push(StandingOrder { force, route, order, turn, on_contact });
        }
    }
    (out, t.dialect)
}

/// Writes `standing-orders.csv`, one row per standing order, in the order given; an
/// `on_contact` column when any order has its instruction for contact.
pub fn write_standing(rows: &[StandingOrder], dialect: Dialect) -> Vec<u8> {
    let with_contact = rows.iter().any(|s| s.on_contact.is_some());
    let extra = if with_contact { vec!["on_contact".to_string()] } else { Vec::new() };
    write_csv(
        dialect,
        &STANDING_COLUMNS,
        &extra,
        rows.iter().map(|s| {
            let hexes: Vec<String> = s.route.iter().map(ToString::to_string).collect();
            let mut row = vec![s.force.clone(), hexes.join(" "), s.order.clone(), s.turn.to_string()];
            if with_contact {
                row.push(s.on_contact.map(|x| x.word().to_string()).unwrap_or_default());
            }
            row
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standing_orders_read_back_what_they_write_and_name_bad_lines() {
        let rows = vec![StandingOrder {
            force: "BR-LIS".into(),
            route: vec![HexId::new(11, 29), HexId::new(12, 29)],
            order: "orders.csv:2".into(),
            turn: 20,
            on_contact: Some(crate::model::orders::OnContact::Avoid),
        }];
        let bytes = write_standing(&rows, Dialect::default());
        let mut p = Problems::default();
        assert_eq!(parse_standing_into(&bytes, &mut p).0, rows);
        assert!(p.is_empty());
        let bad = "force,route,order,turn\nA,,x,20\nB,10.5,x,20\n";
        parse_standing_into(bad.as_bytes(), &mut p);
        assert_eq!(p.len(), 2, "{p:?}");
    }

    #[test]
    fn a_second_standing_order_for_a_force_is_refused_on_its_line() {
        let text = "force,route,order,turn\nA,10.10,x,20\nB,10.11,x,20\nA,10.12,y,20\n";
        let mut p = Problems::default();
        let (rows, _) = parse_standing_into(text.as_bytes(), &mut p);
        assert_eq!(rows.iter().map(|s| s.force.as_str()).collect::<Vec<_>>(), ["A", "B"]);
        assert_eq!(p.len(), 1, "{p:?}");
        let problem = p.0[0].to_string();
        assert!(
            problem.contains(":4") && problem.contains("'A' has a standing order on an earlier line"),
            "{problem}"
        );
    }
}
