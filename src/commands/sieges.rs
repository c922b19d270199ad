//! `sieges`: every investment and siege of `sieges.csv` (rules 7.1–7.2), and every place
//! whose `invested_by` is set with no record yet (its investment starts at the next turn
//! advance).

use anyhow::Result;
use serde::Serialize;

use crate::model::books::SiegeState;

/// One line of the listing.
#[derive(Debug, Serialize)]
struct SiegeLine {
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

/// Runs `sieges`.
pub fn run(dir: &crate::store::CampaignDir, json: bool) -> Result<()> {
    let c = dir.load()?;
    let mut lines: Vec<SiegeLine> = c
        .books
        .sieges
        .iter()
        .map(|s| SiegeLine {
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
        })
        .collect();
    for s in &c.map.settlements {
        let Some(n) = s.invested_by else { continue };
        if c.books.active_siege(&s.name).is_some() || !crate::rules::siege::investable(s) {
            continue;
        }
        let investor = n.side();
        let garrison = crate::rules::siege::garrison_of(&c, s.hex, investor.enemy());
        let investors = crate::rules::siege::investors_of(&c, s.hex, investor);
        let state = match (garrison.is_empty(), investors.is_empty()) {
            (false, false) => "starts at the next turn advance",
            (true, _) => "waits: no garrison of the other side in it",
            (false, true) => "waits: no investing force in or next to it",
        };
        lines.push(SiegeLine {
            place: s.name.clone(),
            hex: s.hex.to_string(),
            kind: "investment".into(),
            garrison,
            investors,
            began: None,
            garrison_original: None,
            holds_until: None,
            state: state.into(),
        });
    }
    super::done_with(c);
    if json {
        return super::print_json(&lines);
    }
    if lines.is_empty() {
        crate::outln!("no investment or siege");
        return Ok(());
    }
    let n = |v: Option<u32>| v.map_or_else(|| "-".to_string(), |x| x.to_string());
    crate::outln!(
        "{:<16} {:<6} {:<10} {:<24} {:<24} {:>5} {:>8} {:>11}  state",
        "place",
        "hex",
        "kind",
        "garrison",
        "investors",
        "began",
        "original",
        "holds until"
    );
    for l in &lines {
        crate::outln!(
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
    Ok(())
}
