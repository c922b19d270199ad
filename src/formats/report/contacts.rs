//! The contacts in words: each group of enemy forces in contact, its forces with their
//! strength, and the rule that put each pair there; as `contacts`, `status` and `march` print
//! them.

use std::fmt::Write as _;

use crate::model::{Campaign, Side};
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
