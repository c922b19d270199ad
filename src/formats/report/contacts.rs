//! The contacts in words: each group of enemy forces in contact, its forces with their
//! strength, and the rule that put each pair there; as `contacts`, `status` and `march` print
//! them.

use std::fmt::Write as _;

use crate::model::decisions::Decision;
use crate::model::{Campaign, Side};
use crate::rules::intel::Briefing;
use crate::rules::zoc::Contact;

/// Text description of one contact, used by `contacts` and `status`.
pub fn describe(c: &Campaign, k: &Contact) -> String {
    let hexes: Vec<String> = k.hexes.iter().map(ToString::to_string).collect();
    let mut s = format!("contact at {}\n", hexes.join(" "));
    for (label, ids) in [("French", &k.french), ("Allies", &k.allies)] {
        for id in ids {
            let f = c.oob.get(id);
            let name = f.map_or("?", |f| f.name.as_str());
            let hex = f.and_then(|f| f.hex).map(|h| h.to_string()).unwrap_or_default();
            let st = c.oob.strength(id);
            s.push_str(&format!("  {label:<7} {id} {name} at {hex}: {} men, {} guns\n", st.men(), st.guns));
        }
    }
    for p in &k.pairs {
        s.push_str(&format!("  {} - {}: {}\n", p.french, p.allies, p.rule));
    }
    s
}

/// `contacts` for people: each contact described, and where a side retreated before battle
/// and was caught (8.2, `avoiding`, one per contact), the `export` option that sets the
/// battle up so.
pub fn render(c: &Campaign, contacts: &[Contact], avoiding: &[Option<(Side, String)>]) -> String {
    let mut s = String::new();
    if contacts.is_empty() {
        s.push_str("no forces in contact\n");
    }
    for (k, avoided) in contacts.iter().zip(avoiding) {
        s.push_str(&describe(c, k));
        if let Some((side, force)) = avoided {
            let _ = writeln!(
                s,
                "  8.2: {force} retreated before battle and was caught: export sets the battle up with --avoiding {}",
                side.slug()
            );
        }
    }
    s
}

/// One side's advice of the turn's contacts (8.1, 8.5), as `contacts --advise` writes it
/// beside the turn's reports: for each contact its own briefing (the player's text: no dice
/// faces, nothing the side could not know) and its decision so far. `advised` holds, per
/// contact, the hex and this side's briefing and decision.
pub fn advice(
    c: &Campaign,
    side: Side,
    advised: &[(crate::model::HexId, &Briefing, Option<Decision>)],
) -> String {
    let mut s =
        format!("# Turn {}: the {side} advised of the enemy on contact (rules 8.1, 8.5)\n\n", c.config.turn);
    if advised.is_empty() {
        s.push_str("No enemy forces are in contact.\n");
    }
    for (hex, b, decision) in advised {
        let _ = writeln!(s, "## Contact at {hex}\n");
        // The briefing's own title names a battle not yet set up: left out; its sections
        // sit under the contact.
        for line in b.to_markdown().lines().skip_while(|l| l.starts_with("# ") || l.is_empty()) {
            let _ = writeln!(s, "{}{line}", if line.starts_with('#') { "#" } else { "" });
        }
        let said = match decision {
            Some(Decision::Fight) => format!("the {side} fight (8.1)"),
            Some(Decision::Withdraw) => {
                format!("the {side} withdraw out of the enemy's zone of control (8.2); the enemy may pursue")
            }
            None => "not yet decided: fight, or withdraw (8.1, 8.2)".to_string(),
        };
        let _ = writeln!(s, "\nDecision: {said}.\n");
    }
    s
}

/// `contacts --advise`: each contact advised (stdout).
pub fn advised(advised: &[(crate::model::HexId, bool)]) -> String {
    let mut s = String::new();
    if advised.is_empty() {
        s.push_str("no forces in contact: nothing to advise\n");
    }
    for (hex, new) in advised {
        let how = if *new {
            "advised (8.5 dice rolled, decisions.csv)"
        } else {
            "advised earlier this turn (its dice kept)"
        };
        let _ = writeln!(s, "contact at {hex}: {how}");
    }
    s
}

/// `contacts --advise`: the files written, the journal entry and what comes next (stderr).
pub fn advised_done(files: &[&str], seq: u64) -> String {
    let mut s = String::new();
    for f in files {
        let _ = writeln!(s, "wrote {f}");
    }
    if seq > 0 {
        let _ = writeln!(s, "journal entry {seq}");
    }
    s.push_str("next: sowbridge contacts decide HEX --french fight|withdraw --allies fight|withdraw");
    s
}

/// `contacts decide`: what the decisions on the contact at `hex` lead to (8.1, 8.2).
pub fn decided(hex: crate::model::HexId, outcome: &crate::model::decisions::Outcome, seq: u64) -> String {
    use crate::model::decisions::Outcome;
    let mut s = format!("contact at {hex}: decisions recorded (journal entry {seq})\n");
    match outcome {
        Outcome::Battle { hex: h, refused } if refused.is_empty() => {
            let _ = writeln!(s, "both sides fight (8.1): set the battle up with `sowbridge export hex {h}`");
        }
        Outcome::Battle { hex: h, refused } => {
            let _ = writeln!(
                s,
                "both sides fight (8.1), but the rules refuse the battle as the campaign stands:"
            );
            for r in refused {
                let _ = writeln!(s, "  {}", r.refusal);
            }
            let rules: String = refused.iter().map(|r| format!(" --overrule {}", r.rule)).collect();
            let _ = writeln!(
                s,
                "only the umpire's ruling sets it up: `sowbridge export hex {h}{rules}` (the battle record keeps the ruling)"
            );
        }
        Outcome::Withdrawal(side, forces) => {
            let _ = writeln!(
                s,
                "the {side} withdraw (8.2): order the retreat before battle of {} (`retreat` yes) out of the enemy's zone of control and `move`; the enemy may pursue with what is left of its allowance, and a caught retreat is exported",
                forces.join(", ")
            );
        }
        Outcome::Waiting(sides) => {
            let names: Vec<String> = sides.iter().map(ToString::to_string).collect();
            let _ = writeln!(s, "waiting for the decision of the {}", names.join(" and the "));
        }
    }
    s
}
