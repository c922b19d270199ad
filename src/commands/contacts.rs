//! `contacts`: every group of enemy forces in contact, with the rule that put them there.

use anyhow::Result;

use crate::model::Campaign;
use crate::rules::zoc::{Contact, contacts};
use crate::store::CampaignDir;

/// Runs `contacts`.
pub fn run(dir: &CampaignDir, json: bool) -> Result<()> {
    let c = dir.load()?;
    let list = contacts(&c);
    if json {
        super::print_json(&list)?;
    } else {
        if list.is_empty() {
            crate::outln!("no forces in contact");
        }
        for k in &list {
            crate::out!("{}", describe(&c, k));
            if let Some((side, force)) = crate::rules::avoidance::avoiding_side(&c, k) {
                crate::outln!(
                    "  8.2: {force} retreated before battle and was caught: export sets the battle up with --avoiding {}",
                    side.slug()
                );
            }
        }
    }
    super::done_with(c);
    Ok(())
}

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
