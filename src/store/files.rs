//! The one function that maps a new campaign value to the state files that change, and how
//! each is written: regenerated from its value in the dialect it was saved in (the order of
//! battle, commanders, returns, score, the books, `supply.csv`, `avoidance.csv`), or patched in
//! place where the umpire's own bytes must stay (`settlements.csv`'s state columns,
//! `campaign.toml`'s turn line). A file whose value did not change is not written.

use std::collections::BTreeMap;

use crate::error::Result;
use crate::formats::books;
use crate::formats::campaign::{set_turn, write_commanders, write_forces};
use crate::formats::decisions::{DECISIONS, write_decisions};
use crate::formats::ledger::{write_returns, write_score};
use crate::formats::messages::{MESSAGES, write_intercepted};
use crate::formats::orders::{AVOIDANCE, ROADS_SEEN, write_avoidance, write_roads_seen};
use crate::formats::standing::{STANDING, write_standing};
use crate::formats::supply::{SUPPLY, TRAILS, with_state, write_records, write_trails};
use crate::model::Campaign;

use super::journal::StateFiles;

/// The state files that change from `before` to `after`, with their new bytes; `current`
/// holds the files as they are (for the ones patched in place).
pub fn changed_files(before: &Campaign, after: &Campaign, current: &StateFiles) -> Result<StateFiles> {
    changed_files_at(before, after, after.config.turn, current)
}

/// [`changed_files`] with `after` taken to turn `turn`, whatever turn its value is on: the
/// turn advance finds its files with the campaign still on the turn that ended, which its
/// reports read.
pub fn changed_files_at(
    before: &Campaign,
    after: &Campaign,
    turn: u32,
    current: &StateFiles,
) -> Result<StateFiles> {
    let mut out: StateFiles = BTreeMap::new();
    let mut put = |name: &str, changed: bool, bytes: &dyn Fn() -> Vec<u8>| {
        if changed {
            out.insert(name.to_string(), Some(bytes()));
        }
    };
    let d = |name: &str| after.dialect(name);
    put("forces.csv", before.oob != after.oob, &|| write_forces(&after.oob, d("forces.csv")));
    put("commanders.csv", before.commanders != after.commanders, &|| {
        write_commanders(&after.commanders, &after.commander_columns, d("commanders.csv"))
    });
    put("returns.csv", before.returns != after.returns, &|| write_returns(&after.returns, d("returns.csv")));
    put("score.csv", before.score != after.score, &|| write_score(&after.score, d("score.csv")));
    put(SUPPLY, before.supply != after.supply, &|| write_records(&after.supply, d(SUPPLY)));
    put(AVOIDANCE, before.avoidance != after.avoidance, &|| write_avoidance(&after.avoidance, d(AVOIDANCE)));
    // A trail is a force's (3.2): one no longer in forces.csv (captured, disbanded) leaves none.
    let trails: Vec<_> = after.trails.iter().filter(|t| after.oob.get(&t.force).is_some()).cloned().collect();
    put(TRAILS, before.trails != trails, &|| write_trails(&trails, d(TRAILS)));
    put(DECISIONS, before.decisions != after.decisions, &|| write_decisions(&after.decisions, d(DECISIONS)));
    put(ROADS_SEEN, before.roads_seen != after.roads_seen, &|| {
        write_roads_seen(&after.roads_seen, d(ROADS_SEEN))
    });
    put(MESSAGES, before.messages != after.messages, &|| write_intercepted(&after.messages, d(MESSAGES)));
    // A standing order is a force's: one no longer a force (attached, captured) has none.
    let standing: Vec<_> = after
        .standing
        .iter()
        .filter(|s| after.oob.get(&s.force).is_some_and(|f| f.parent.is_none()))
        .cloned()
        .collect();
    put(STANDING, before.standing != standing, &|| write_standing(&standing, d(STANDING)));
    let (b, a) = (&before.books, &after.books);
    put(books::SIEGES, b.sieges != a.sieges, &|| books::write_sieges(&a.sieges, d(books::SIEGES)));
    put(books::REVOLTS, b.revolts != a.revolts, &|| books::write_revolts(&a.revolts, d(books::REVOLTS)));
    put(books::OCCUPATION, b.occupation != a.occupation, &|| {
        books::write_occupation(&a.occupation, d(books::OCCUPATION))
    });
    put(books::YEARS, b.years != a.years, &|| books::write_years(&a.years, d(books::YEARS)));
    put(books::INTELLIGENCE, b.intelligence != a.intelligence, &|| {
        books::write_intelligence(&a.intelligence, d(books::INTELLIGENCE))
    });
    put(books::JUNTA_CARDS, b.junta_cards != a.junta_cards, &|| {
        books::write_junta_cards(&a.junta_cards, d(books::JUNTA_CARDS))
    });
    patched(before, after, turn, current, &mut out)?;
    Ok(out)
}

/// The files patched in place: `settlements.csv`'s control, investment and overrule, and
/// `campaign.toml`'s turn.
fn patched(
    before: &Campaign,
    after: &Campaign,
    turn: u32,
    current: &StateFiles,
    out: &mut StateFiles,
) -> Result<()> {
    let held = |c: &Campaign| -> Vec<_> {
        c.map.settlements.iter().map(|s| (s.typed, s.invested_by, s.overrule)).collect()
    };
    if held(before) != held(after)
        && let Some(Some(bytes)) = current.get("settlements.csv")
    {
        let new = with_state(bytes, &after.map.settlements)?;
        if &new != bytes {
            out.insert("settlements.csv".to_string(), Some(new));
        }
    }
    if before.config.turn != turn {
        let toml = current.get("campaign.toml").cloned().flatten().unwrap_or_default();
        out.insert("campaign.toml".to_string(), Some(set_turn(&toml, turn)?));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::CampaignDir;

    fn example() -> (Campaign, StateFiles) {
        let dir = CampaignDir::new(concat!(env!("CARGO_MANIFEST_DIR"), "/fixtures/peninsula"));
        (dir.load().unwrap(), dir.read_state().unwrap())
    }

    #[test]
    fn an_unchanged_campaign_writes_nothing() {
        let (c, current) = example();
        assert!(changed_files(&c, &c.clone(), &current).unwrap().is_empty());
    }

    #[test]
    fn the_turn_given_is_the_turn_written_whatever_the_value_holds() {
        let (c, current) = example();
        let files = changed_files_at(&c, &c, c.config.turn + 1, &current).unwrap();
        assert_eq!(files.keys().collect::<Vec<_>>(), ["campaign.toml"]);
        let toml = String::from_utf8(files["campaign.toml"].clone().unwrap()).unwrap();
        assert!(toml.contains("turn = 21"), "{toml}");
        assert!(changed_files_at(&c, &c, c.config.turn, &current).unwrap().is_empty());
    }

    #[test]
    fn each_change_writes_its_own_file_and_no_other() {
        let (c, current) = example();
        let mut after = c.clone();
        after.config.turn += 1;
        let files = changed_files(&c, &after, &current).unwrap();
        assert_eq!(files.keys().collect::<Vec<_>>(), ["campaign.toml"]);
        let toml = String::from_utf8(files["campaign.toml"].clone().unwrap()).unwrap();
        assert!(toml.contains("turn = 21"), "{toml}");
        let mut after = c.clone();
        after.oob.get_mut("FR-I").unwrap().hex = "18.29".parse().ok();
        after.map.settlements[0].typed = crate::model::Control::Unrest;
        let files = changed_files(&c, &after, &current).unwrap();
        assert_eq!(files.keys().collect::<Vec<_>>(), ["forces.csv", "settlements.csv"]);
        let settlements = String::from_utf8(files["settlements.csv"].clone().unwrap()).unwrap();
        assert!(settlements.lines().nth(1).unwrap().starts_with("Lisbon,02.29,capital,yes,yes,Portugal,-,"));
    }
}
