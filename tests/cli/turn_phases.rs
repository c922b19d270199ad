//! The turn's phases through the binary: Toledo's investment (7.1.1, 7.2), the reports, the
//! same seed giving the same turn byte for byte, and `undo turn`.

use serde_json::Value;

use crate::common::{Camp, assert_code, stdout};

fn sieges(c: &Camp) -> Value {
    let o = c.run(&["sieges", "--json"]);
    assert_code(&o, 0);
    serde_json::from_str(&stdout(&o)).unwrap()
}

fn toledo_men(c: &Camp) -> u32 {
    c.read("forces.csv")
        .lines()
        .filter(|l| l.starts_with("FR-TOL-"))
        .map(|l| l.split(',').nth(7).unwrap().parse::<u32>().unwrap())
        .sum()
}

#[test]
fn toledo_is_invested_loses_by_7_2_and_capitulates_when_its_turns_run_out() {
    let c = Camp::new("peninsula");
    let s = sieges(&c);
    assert_eq!(s[0]["place"], "Toledo");
    assert_eq!(s[0]["state"], "starts at the next turn advance");
    assert_eq!(toledo_men(&c), 1570);
    assert_code(&c.run(&["turn", "advance"]), 0);
    let s = sieges(&c);
    let t = s.as_array().unwrap().iter().find(|x| x["place"] == "Toledo").unwrap().clone();
    assert_eq!(
        (t["kind"].as_str(), t["began"].as_u64(), t["garrison_original"].as_u64()),
        (Some("investment"), Some(20), Some(1570))
    );
    assert_eq!(t["garrison"], serde_json::json!(["FR-TOL"]));
    // 7.1.1: 1dA − 1 for the Alcázar (2.5.3): 1 to 4 turns, the first round this advance.
    let until = t["holds_until"].as_u64().unwrap() as u32;
    assert!((20..=23).contains(&until), "{until}");
    // 7.2: 1d6 × 2 % of the original 1,570: 31 to 188 men.
    let lost = 1570 - toledo_men(&c);
    assert!((31..=188).contains(&lost), "{lost}");
    let report = c.read("turns/T21/report.md");
    assert!(report.contains("Toledo (28.23) invested by"), "{report}");
    assert!(report.contains("(average die) |"), "every die is listed: {report}");
    let allies = c.read("turns/T21/allies.md");
    assert!(allies.contains("Toledo is invested by"), "{allies}");
    assert!(!allies.contains("holds out 1dA"), "the Allies do not read the garrison's die");
    // Advance until the turns run out: it capitulates as turn `until` ends.
    let mut turn = 21;
    while turn <= until {
        assert_code(&c.run(&["turn", "advance"]), 0);
        turn += 1;
    }
    let s = sieges(&c);
    let t = s.as_array().unwrap().iter().find(|x| x["place"] == "Toledo").unwrap();
    assert!(t["state"].as_str().unwrap().starts_with("taken"), "{t}");
    assert!(!c.read("forces.csv").contains("FR-TOL"), "the garrison is prisoner");
    // The place changes hands (7.1): the investing nation's, no longer invested.
    let toledo = c.read("settlements.csv").lines().find(|l| l.starts_with("Toledo,")).unwrap().to_string();
    let head = c.read("settlements.csv").lines().next().unwrap().to_string();
    let col = |name: &str| {
        let i = head.split(',').position(|h| h == name).unwrap();
        toledo.split(',').nth(i).unwrap().to_string()
    };
    assert_eq!((col("control"), col("invested_by")), ("Sp".to_string(), String::new()), "{toledo}");
    let last = c.read(&format!("turns/T{}/report.md", until + 1));
    assert!(last.contains("Toledo (28.23) changes hands: settlements.csv gives its control to Sp"), "{last}");
    let score = c.read("score.csv");
    assert!(score.lines().any(|l| l.starts_with("2,Allies,") && l.split(',').nth(5) != Some("0")), "{score}");
    let o = c.run(&["audit"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("every man is accounted for"));
}

#[test]
fn the_same_campaign_and_seed_give_the_same_turn_and_undo_restores_it() {
    let a = Camp::new("peninsula");
    let b = Camp::new("peninsula");
    let before = a.snapshot();
    assert_code(&a.run(&["turn", "advance"]), 0);
    assert_code(&b.run(&["turn", "advance"]), 0);
    let (sa, sb) = (a.snapshot(), b.snapshot());
    assert_eq!(sa, sb, "byte for byte");
    assert!(sa.contains_key("turns/T21/french.md") && sa.contains_key("turns/T21/allies.md"));
    // undo turn: every state file as before, the reports gone.
    let o = a.run(&["undo", "turn"]);
    assert_code(&o, 0);
    let undone = a.snapshot();
    for (f, bytes) in &before {
        assert_eq!(undone.get(f), Some(bytes), "{f} restored");
    }
    assert!(!undone.keys().any(|k| k.starts_with("turns/T21/")), "its reports are removed");
    assert!(!a.path("turns/T21").exists(), "and their folder with them");
    assert!(!undone.contains_key("sieges.csv"));
    let o = a.run(&["audit"]);
    assert_code(&o, 0);
    // And the same turn again.
    assert_code(&a.run(&["turn", "advance"]), 0);
    let again = a.snapshot();
    for f in ["forces.csv", "sieges.csv", "turns/T21/report.md", "turns/T21/french.md", "intelligence.csv"] {
        assert_eq!(again.get(f), sb.get(f), "{f}");
    }
    // Nothing to undo but the newest turn.
    assert_code(&a.run(&["undo", "turn"]), 0);
    assert_code(&a.run(&["undo", "turn"]), 1);
}

/// Men of every row whose id starts with `prefix`, by id.
fn men_of(c: &Camp, prefix: &str) -> std::collections::BTreeMap<String, u32> {
    c.read("forces.csv")
        .lines()
        .filter(|l| l.starts_with(prefix))
        .filter_map(|l| {
            let f: Vec<&str> = l.split(',').collect();
            Some((f[0].to_string(), f[7].parse::<u32>().ok()?))
        })
        .collect()
}

#[test]
fn a_winter_march_found_in_the_journal_costs_attrition_even_into_a_town() {
    let c = Camp::new("peninsula");
    c.write("campaign.toml", &c.read("campaign.toml").replace("\nturn = 20\n", "\nturn = 13\n"));
    // Turn 13 (early December 1808) ends: the journal's first entry, nobody moved yet. Forces
    // halted in a town are spared; those halted in open country roll (6.2 as amended).
    assert_code(&c.run(&["turn", "advance"]), 0);
    let r14 = c.read("turns/T14/report.md");
    assert!(r14.contains("(FR-I) remained halted in Medellin: no attrition (6.2)"), "{r14}");
    assert!(r14.contains("(FR-LM) halted at 20.29 in winter, not in a town"), "{r14}");
    // The umpire moves Lapisse by hand into open country, Latour-Maubourg into Medellin.
    edit_forces(
        &c,
        |l| {
            if l.starts_with("FR-LAP,") {
                l.replace(",20.17,", ",21.17,")
            } else if l.starts_with("FR-LM,") {
                l.replace(",20.29,", ",18.28,")
            } else {
                l.to_string()
            }
        },
        "",
    );
    let lap = men_of(&c, "FR-LAP-");
    let lm = men_of(&c, "FR-LM-");
    assert_code(&c.run(&["turn", "advance"]), 0);
    let report = c.read("turns/T15/report.md");
    assert!(report.contains("(FR-LAP) moved 20.17 → 21.17 in winter, not in a town"), "{report}");
    // "A military force that moves however will have an average dice rolled for each
    // brigade": into a town or not.
    assert!(
        report.contains("(FR-LM) moved 20.29 → 18.28 in winter (a force that moves rolls, town or not)"),
        "{report}"
    );
    assert!(report.contains("(FR-I) remained halted in Medellin: no attrition (6.2)"), "{report}");
    for (before, after) in [(lap, men_of(&c, "FR-LAP-")), (lm, men_of(&c, "FR-LM-"))] {
        for (id, m) in &before {
            let lost = m - after[id];
            assert!(lost * 100 <= m * 3, "{id}: {lost} of {m} is more than 3 %");
        }
    }
    // The French players read their own loss; the Allies learn of the march by 9.0's die.
    assert!(c.read("turns/T15/french.md").contains("marched in winter and lost"));
    assert!(!c.read("turns/T15/allies.md").contains("marched in winter"));
    assert!(report.contains("9.0 news of FR-LAP reaching the Allies"), "{report}");
    let o = c.run(&["audit"]);
    assert_code(&o, 0);
}

#[test]
fn a_bad_junta_or_siege_train_row_is_refused_naming_its_line_and_nothing_changes() {
    let c = Camp::new("peninsula");
    c.write("juntas.csv", &c.read("juntas.csv").replace("clubs,king,", "clubs,kings,"));
    c.write("siege-trains.csv", "nation,hex,arrived\nFr,27.23,20\nFr,30.09,20\nSp,28.24,13\n");
    let before = c.snapshot();
    let o = c.run(&["turn", "advance"]);
    assert_code(&o, 1);
    let err = crate::common::stderr(&o);
    assert!(err.contains("juntas.csv:12: rank:"), "{err}");
    assert!(err.contains("siege-trains.csv:3: nation: a second siege train for Fr"), "{err}");
    assert!(err.contains("siege-trains.csv:4: arrived: turn 13 is in November–February"), "{err}");
    assert_eq!(c.snapshot(), before, "the campaign is unchanged");
}

/// `forces.csv` with `edit` applied to each line, and `extra` lines added at its end.
fn edit_forces(c: &Camp, edit: impl Fn(&str) -> String, extra: &str) {
    let forces = c.read("forces.csv");
    let edited: String = forces.lines().map(|l| edit(l) + "\n").collect();
    c.write("forces.csv", &(edited + extra));
}

#[test]
fn a_force_moved_by_hand_is_found_whether_rows_were_only_changed_or_also_added() {
    let c = Camp::new("peninsula");
    c.write("campaign.toml", &c.read("campaign.toml").replace("\nturn = 20\n", "\nturn = 13\n"));
    assert_code(&c.run(&["turn", "advance"]), 0);
    // Rows changed in place: Lapisse moved, Latour-Maubourg's row changed but not its hex.
    edit_forces(
        &c,
        |l| {
            if l.starts_with("FR-LAP,") {
                l.replace(",20.17,", ",21.17,")
            } else if l.starts_with("FR-LM,") {
                l.replace(",veteran,", ",trained,")
            } else {
                l.to_string()
            }
        },
        "",
    );
    assert_code(&c.run(&["turn", "advance"]), 0);
    let report = c.read("turns/T15/report.md");
    assert!(report.contains("(FR-LAP) moved 20.17 → 21.17 in winter"), "{report}");
    assert!(report.contains("(FR-LM) halted at 20.29 in winter"), "{report}");
    // A row added as well: Lapisse moves on, a battalion joins him; Latour-Maubourg stays.
    edit_forces(
        &c,
        |l| if l.starts_with("FR-LAP,") { l.replace(",21.17,", ",22.17,") } else { l.to_string() },
        "FR-LAP-1-NEW,FR-LAP-1,battalion,Conscripts,,Fr,line,300,,,,,,,,,\n",
    );
    assert_code(&c.run(&["turn", "advance"]), 0);
    let report = c.read("turns/T16/report.md");
    assert!(report.contains("(FR-LAP) moved 21.17 → 22.17 in winter"), "{report}");
    assert!(report.contains("(FR-LM) halted at 20.29 in winter"), "{report}");
    assert_code(&c.run(&["audit"]), 0);
}
