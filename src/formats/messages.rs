//! Messages between commanders (rule 6.3.1): the file `messages FILE` reads (`from,to,day,text`,
//! one message a line: the force sending it, the force it is for, the day of the turn it is
//! sent, what it says), and `messages.csv`, the messages and orders the enemy caught, kept for
//! the interceptor's turn report.

use crate::error::Problems;
use crate::model::HexId;
use crate::model::dialect::Dialect;
use crate::model::orders::TURN_DAYS;
use crate::model::orders::{Intercepted, Message};

use super::table::{Fields, Table, write_csv};

/// Parses a messages file: every problem with its line and field.
pub fn parse_messages(file: &str, bytes: &[u8], p: &mut Problems) -> Vec<Message> {
    let t = Table::parse(file, bytes, p);
    let mut out = Vec::new();
    if !t.require(&["from", "to", "day", "text"], p) {
        return out;
    }
    for row in &t.rows {
        let mut f = Fields::new(&t, row, p);
        let from = f.id("from").trim().to_string();
        let to = f.id("to").trim().to_string();
        for (field, v) in [("from", &from), ("to", &to)] {
            if v.is_empty() {
                f.problem(field, "is empty: name a force");
            }
        }
        let day = f.req_count("day").filter(|&d| {
            let ok = (1..=TURN_DAYS).contains(&d);
            if !ok {
                f.problem("day", format!("{d} is not a day of the turn (1 to {TURN_DAYS})"));
            }
            ok
        });
        let text = f.text("text").to_string();
        if let Some(day) = day
            && !from.is_empty()
            && !to.is_empty()
        {
            out.push(Message { from, to, day, text, file: file.to_string(), line: row.line });
        }
    }
    out
}

/// File name.
pub const MESSAGES: &str = "messages.csv";
/// Columns of `messages.csv`.
pub const MESSAGES_COLUMNS: [&str; 8] = ["turn", "day", "from", "to", "hex", "side", "line_of", "text"];

/// Parses `messages.csv`, with the dialect it was saved in.
pub fn parse_intercepted_into(bytes: &[u8], p: &mut Problems) -> (Vec<Intercepted>, Dialect) {
    let t = Table::parse(MESSAGES, bytes, p);
    let mut out = Vec::new();
    if !t.require(&MESSAGES_COLUMNS, p) {
        return (out, t.dialect);
    }
    for row in &t.rows {
        let mut f = Fields::new(&t, row, p);
        let (turn, day) = (f.req_count("turn"), f.req_count("day"));
        let from = f.id("from").to_string();
        let to = f.id("to").to_string();
        let line_of = f.id("line_of").to_string();
        let text = f.text("text").to_string();
        if let (Some(turn), Some(day), Some(hex), Some(side)) =
            (turn, day, f.req::<HexId>("hex"), f.req::<crate::model::Side>("side"))
        {
            out.push(Intercepted { turn, day, from, to, hex, side, line_of, text });
        }
    }
    (out, t.dialect)
}

/// Writes `messages.csv`.
pub fn write_intercepted(rows: &[Intercepted], dialect: Dialect) -> Vec<u8> {
    write_csv(
        dialect,
        &MESSAGES_COLUMNS,
        &[],
        rows.iter().map(|m| {
            vec![
                m.turn.to_string(),
                m.day.to_string(),
                m.from.clone(),
                m.to.clone(),
                m.hex.to_string(),
                m.side.to_string(),
                m.line_of.clone(),
                m.text.clone(),
            ]
        }),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_every_bad_line_and_field() {
        let text = "from,to,day,text\nFR-I,FR-II,3,Hold Madrid\nFR-I,,3,x\nFR-I,FR-II,15,y\n";
        let mut p = Problems::default();
        let m = parse_messages("m.csv", text.as_bytes(), &mut p);
        assert_eq!(m.len(), 1);
        assert_eq!((m[0].day, m[0].text.as_str()), (3, "Hold Madrid"));
        let lines: Vec<String> = p.0.iter().map(ToString::to_string).collect();
        assert_eq!(p.len(), 2, "{lines:?}");
        assert!(lines.iter().any(|l| l.contains("day") && l.contains("15")), "{lines:?}");
    }

    #[test]
    fn intercepted_messages_read_back_what_they_write() {
        let rows = vec![Intercepted {
            turn: 20,
            day: 4,
            from: "SP-EXT".into(),
            to: "SP-MAN".into(),
            hex: HexId::new(28, 25),
            side: crate::model::Side::French,
            line_of: "FR-I".into(),
            text: "March on Toledo, 3 June".into(),
        }];
        let bytes = write_intercepted(&rows, Dialect::default());
        let mut p = Problems::default();
        assert_eq!(parse_intercepted_into(&bytes, &mut p).0, rows);
        assert!(p.is_empty());
    }
}
