//! The status text: turn and date, the battles, rule 4.0's French battle test, the forces of
//! each side with men and guns, and the contacts; and the same as `status --json` prints it.

use std::fmt::Write as _;

use serde::Serialize;
use serde_json::{Value, json};

use crate::model::battle::BattleRecord;
use crate::model::{Campaign, Side, Strength};
use crate::rules::score::FrenchBattleTest;
use crate::rules::supply::SupplyReport;
use crate::rules::zoc::Contact;

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
    /// Some unit of it has men present ([`crate::model::OrderOfBattle::has_men`]).
    #[serde(skip)]
    has_men: bool,
}

fn force_lines(c: &Campaign, computed: &SupplyReport) -> Vec<ForceLine> {
    c.oob
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
                .map(super::supply::describe)
                .unwrap_or_default(),
            strength: c.oob.strength(f),
            has_men: c.oob.has_men(f),
        })
        .collect()
}

/// The status as `status --json` prints it.
pub fn report_json(
    c: &Campaign,
    computed: &SupplyReport,
    contacts: &[Contact],
    tests: &[FrenchBattleTest],
    battles: &[BattleRecord],
) -> Value {
    let turn = c.turn();
    json!({
        "campaign": c.config.name,
        "turn": turn.0,
        "date": turn.date(),
        "season": turn.season(),
        "campaign_year": turn.campaign_year(),
        "forces": force_lines(c, computed),
        "contacts": contacts,
        "french_battle_tests": tests,
        "battles": battles.iter().map(|b| json!({"battle": b.id, "state": b.state})).collect::<Vec<_>>(),
        "standing": super::standing::json(c, None),
    })
}

/// The status's first lines: the campaign's name, and the turn with its date and season.
pub fn heading(c: &Campaign) -> String {
    let turn = c.turn();
    let season = match turn.season() {
        crate::model::Season::Summer => "campaigning season",
        crate::model::Season::Winter => "winter (rule 6.2: movement halved)",
    };
    format!(
        "{}\nturn {} ({}), {season}, campaign year {}\n",
        c.config.name,
        turn.0,
        turn.date(),
        turn.campaign_year()
    )
}

/// The status after its [`heading`]: the battles, rule 4.0's test, each side's forces and
/// the contacts.
pub fn render(
    c: &Campaign,
    computed: &SupplyReport,
    contacts: &[Contact],
    tests: &[FrenchBattleTest],
    battles: &[BattleRecord],
) -> String {
    let mut s = String::new();
    let pending: Vec<&str> = battles.iter().filter(|b| b.state.is_pending()).map(|b| b.id.as_str()).collect();
    let applied = battles.iter().filter(|b| b.result.is_some()).count();
    let _ = writeln!(
        s,
        "battles: {} pending{}, {applied} applied",
        pending.len(),
        if pending.is_empty() { String::new() } else { format!(" ({})", pending.join(", ")) }
    );
    for t in tests {
        let _ = writeln!(
            s,
            "campaign year {}: the French won {}, lost {}, drew {} battles; rule 4.0's test (won more \
             than lost or drawn): {}",
            t.year,
            t.won,
            t.lost,
            t.drawn,
            if t.met { "met" } else { "not met" }
        );
    }
    let forces = force_lines(c, computed);
    for side in [Side::French, Side::Allies] {
        let mut total = Strength::default();
        let mine: Vec<&ForceLine> = forces.iter().filter(|f| f.side == side).collect();
        for f in &mine {
            total.add(&f.strength);
        }
        let _ = writeln!(s, "\n{side}: {} forces, {} men, {} guns", mine.len(), total.men(), total.guns);
        for f in mine {
            let out = if f.supply == "out" { "  OUT OF SUPPLY" } else { "" };
            let strength = if f.has_men {
                format!("{:>6} men {:>3} guns", f.strength.men(), f.strength.guns)
            } else {
                // Every unit of it lost every man: it waits for its returns (no ZoC, 8.1).
                format!("{:>19}", "no men present")
            };
            let _ = writeln!(s, "  {:<12} {:<40} {}  {strength}{out}", f.id, f.name, f.hex);
        }
    }
    s.push_str(&super::standing::section(c, None));
    s.push('\n');
    if contacts.is_empty() {
        s.push_str("no forces in contact\n");
    }
    for k in contacts {
        s.push_str(&super::contacts::describe(c, k));
    }
    s
}
