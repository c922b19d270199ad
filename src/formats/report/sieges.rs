//! The sieges listing: one line per investment or siege of `sieges.csv` (rules 7.1–7.2) and
//! per place whose `invested_by` waits for its investment to start, as a table for people
//! and as `sieges --json` prints it.

use std::fmt::Write as _;

use serde::Serialize;

use crate::model::Settlement;
use crate::model::books::{SiegeRecord, SiegeState};

/// One line of the listing.
#[derive(Debug, Serialize)]
pub struct SiegeLine {
    place: String,
    hex: String,
    kind: String,
    garrison: Vec<String>,
    investors: Vec<String>,
    began: Option<u32>,
    garrison_original: Option<u32>,
    holds_until: Option<u32>,
    state: String,
}

impl SiegeLine {
    /// An investment or siege of `sieges.csv`.
    pub fn of_record(s: &SiegeRecord) -> Self {
        SiegeLine {
            place: s.place.clone(),
            hex: s.hex.to_string(),
            kind: s.kind.word().to_string(),
            garrison: s.garrison.clone(),
            investors: s.investors.clone(),
            began: Some(s.began),
            garrison_original: Some(s.garrison_original),
            holds_until: Some(s.holds_until),
            state: match s.ended {
                Some(t) if s.state != SiegeState::Active => format!("{} (turn {t})", s.state.word()),
                _ => s.state.word().to_string(),
            },
        }
    }

    /// A place whose `invested_by` is set with no record yet: its investment starts at the
    /// next turn advance, or waits for a garrison of the other side or an investing force.
    pub fn waiting(s: &Settlement, garrison: Vec<String>, investors: Vec<String>) -> Self {
        let state = match (garrison.is_empty(), investors.is_empty()) {
            (false, false) => "starts at the next turn advance",
            (true, _) => "waits: no garrison of the other side in it",
            (false, true) => "waits: no investing force in or next to it",
        };
        SiegeLine {
            place: s.name.clone(),
            hex: s.hex.to_string(),
            kind: "investment".into(),
            garrison,
            investors,
            began: None,
            garrison_original: None,
            holds_until: None,
            state: state.into(),
        }
    }
}

/// The listing as a table for people.
pub fn render(lines: &[SiegeLine]) -> String {
    if lines.is_empty() {
        return "no investment or siege\n".to_string();
    }
    let n = |v: Option<u32>| v.map_or_else(|| "-".to_string(), |x| x.to_string());
    let mut s = String::new();
    let _ = writeln!(
        s,
        "{:<16} {:<6} {:<10} {:<24} {:<24} {:>5} {:>8} {:>11}  state",
        "place", "hex", "kind", "garrison", "investors", "began", "original", "holds until"
    );
    for l in lines {
        let _ = writeln!(
            s,
            "{:<16} {:<6} {:<10} {:<24} {:<24} {:>5} {:>8} {:>11}  {}",
            l.place,
            l.hex,
            l.kind,
            l.garrison.join(";"),
            l.investors.join(";"),
            n(l.began),
            n(l.garrison_original),
            n(l.holds_until),
            l.state
        );
    }
    s
}
