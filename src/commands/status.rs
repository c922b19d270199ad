//! `status`: turn and date, forces per side with men and guns, and contacts.

use anyhow::Result;
use serde::Serialize;

use crate::model::{Side, Strength};
use crate::rules::score::french_battle_tests;
use crate::rules::zoc::contacts;
use crate::store::CampaignDir;

#[derive(Serialize)]
struct ForceLine {
    id: String,
    name: String,
    side: Side,
    hex: String,
    supply: String,
    /// The supply line as `supply` shows it (3.1-3.5), whose state `supply` is.
    supply_line: String,
    strength: Strength,
}

/// Runs `status`.
pub fn run(dir: &CampaignDir, json: bool) -> Result<()> {
    let (c, computed) = crate::ops::campaign_now(dir)?;
    let turn = c.turn();
    let forces: Vec<ForceLine> = c
        .oob
        .forces()
        .map(|f| ForceLine {
            id: f.id.to_string(),
            name: f.name.to_string(),
            side: f.side(),
            hex: f.hex.map(|h| h.to_string()).unwrap_or_default(),
            supply: f.supply.to_string(),
            supply_line: computed
                .forces
                .iter()
                .find(|x| x.force == f.id.as_str())
                .map(crate::formats::report::supply::describe)
                .unwrap_or_default(),
            strength: c.oob.strength(&f.id),
        })
        .collect();
    let list = contacts(&c);
    let tests = french_battle_tests(&c.score);
    if json {
        return super::print_json(&serde_json::json!({
            "campaign": c.config.name,
            "turn": turn.0,
            "date": turn.date(),
            "season": turn.season(),
            "campaign_year": turn.campaign_year(),
            "forces": forces,
            "contacts": list,
            "french_battle_tests": tests,
            "battles": dir.battles()?.iter().map(|b| serde_json::json!({"battle": b.id, "state": b.state})).collect::<Vec<_>>(),
        }));
    }
    crate::outln!("{}", c.config.name);
    let season = match turn.season() {
        crate::model::Season::Summer => "campaigning season",
        crate::model::Season::Winter => "winter (rule 6.2: movement halved)",
    };
    crate::outln!("turn {} ({}), {season}, campaign year {}", turn.0, turn.date(), turn.campaign_year());
    let battles = dir.battles()?;
    let pending: Vec<&str> = battles.iter().filter(|b| b.state.is_pending()).map(|b| b.id.as_str()).collect();
    let applied = battles.iter().filter(|b| b.result.is_some()).count();
    crate::outln!(
        "battles: {} pending{}, {applied} applied",
        pending.len(),
        if pending.is_empty() { String::new() } else { format!(" ({})", pending.join(", ")) }
    );
    for t in &tests {
        crate::outln!(
            "campaign year {}: the French won {}, lost {}, drew {} battles; rule 4.0's test (won more \
             than lost or drawn): {}",
            t.year,
            t.won,
            t.lost,
            t.drawn,
            if t.met { "met" } else { "not met" }
        );
    }
    for side in [Side::French, Side::Allies] {
        let mut total = Strength::default();
        let mine: Vec<&ForceLine> = forces.iter().filter(|f| f.side == side).collect();
        for f in &mine {
            total.add(&f.strength);
        }
        crate::outln!("\n{side}: {} forces, {} men, {} guns", mine.len(), total.men(), total.guns);
        for f in mine {
            let out = if f.supply == "out" { "  OUT OF SUPPLY" } else { "" };
            crate::outln!(
                "  {:<12} {:<40} {}  {:>6} men {:>3} guns{out}",
                f.id,
                f.name,
                f.hex,
                f.strength.men(),
                f.strength.guns
            );
        }
    }
    crate::outln!();
    if list.is_empty() {
        crate::outln!("no forces in contact");
    }
    for k in &list {
        crate::out!("{}", crate::formats::report::contacts::describe(&c, k));
    }
    Ok(())
}
