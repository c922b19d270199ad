//! One campaign truth: every command and phase sees the same campaign. Each fact here was once
//! decided twice, by two routes that disagreed; each test pins that the routes are one.

use serde_json::Value;

use crate::common::*;

fn orders(name: &str) -> String {
    fixture("orders").join(name).display().to_string()
}

/// Sets one field of a `forces.csv` row by id, the rest of the file as it was.
fn set_force_field(c: &Camp, id: &str, col: &str, value: &str) {
    let text = c.read("forces.csv");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let i = lines[0].split(',').position(|h| h == col).unwrap();
    for l in lines.iter_mut().skip(1) {
        let mut f: Vec<String> = l.split(',').map(str::to_string).collect();
        if f[0] == id {
            f[i] = value.to_string();
            *l = f.join(",");
        }
    }
    c.write("forces.csv", &(lines.join("\n") + "\n"));
}

fn json(c: &Camp, args: &[&str]) -> Value {
    let o = c.run(args);
    assert_code(&o, 0);
    serde_json::from_str(&stdout(&o)).unwrap()
}

/// Cuesta declines Victor's battle and is caught (8.2): `export` without `--avoiding` sets up
/// the very battle `--avoiding allies` does — the same deployment, line of retreat and record.
#[test]
fn the_caught_retreat_exports_the_same_battle_as_avoiding_allies() {
    let (auto, told) = (Camp::new("peninsula"), Camp::new("peninsula"));
    for c in [&auto, &told] {
        let o = c.run(&["move", &orders("medellin-retreat.csv"), &orders("medellin-pursuit.csv")]);
        assert_code(&o, 0);
    }
    let export = |c: &Camp, extra: &[&str]| {
        let out = c.tmp.path().join("out");
        let mut args = vec!["export", "hex", "18.29", "--out", out.to_str().unwrap()];
        args.extend_from_slice(extra);
        assert_code(&c.run(&args), 0);
        snapshot(&out)
    };
    let (a, b) = (export(&auto, &[]), export(&told, &["--avoiding", "allies"]));
    let scenario = "Scenarios/T20-18.29/scenario.csv";
    assert!(a.contains_key(scenario), "{:?}", a.keys().collect::<Vec<_>>());
    assert_eq!(String::from_utf8_lossy(&a[scenario]), String::from_utf8_lossy(&b[scenario]));
    assert_eq!(a, b, "every SoW file the same");
    let record = "battles/T20-18.29/battle.json";
    assert_eq!(auto.read(record), told.read(record));
    let r: Value = serde_json::from_str(&auto.read(record)).unwrap();
    assert_eq!(r["avoiding"], "Allies");
    assert!(r["line_of_retreat"].is_object(), "the retreat the Allies tried: {}", r["line_of_retreat"]);
}

/// The carry-over asks the supply state the briefing showed (3.1), not a `supply` column
/// left stale: a column typed `out` for the Ier Corps, whose line is open, changes nothing.
#[test]
fn carry_over_uses_the_supply_the_briefing_showed_not_a_stale_column() {
    let (open, stale) = (Camp::new("peninsula"), Camp::new("peninsula"));
    set_force_field(&stale, "FR-I", "supply", "out");
    let result = fixture("results").join("T20-18.28-example.result.csv").display().to_string();
    for c in [&open, &stale] {
        export_medellin(c, &[]);
        let briefing = c.read("battles/T20-18.28/briefings/french.md");
        assert!(briefing.contains("- FR-I: in supply from"), "{briefing}");
        assert_code(&c.run(&["apply", &result]), 0);
    }
    assert_eq!(open.read("returns.csv"), stale.read("returns.csv"), "the line decides, not the column");
    assert_eq!(men(&open), men(&stale));
    // `status` tells the same state as the briefing.
    let s = json(&stale, &["status", "--json"]);
    let fr_i = s["forces"].as_array().unwrap().iter().find(|f| f["id"] == "FR-I").unwrap();
    assert_eq!(fr_i["supply"], "in", "{fr_i}");
}

/// `map` draws each place held by whom `supply` (and every rule) says, not the typed column.
#[test]
fn map_and_supply_agree_on_every_settlements_control() {
    let c = Camp::new("peninsula");
    // Medellin is typed Spanish while the Ier Corps stands in it: the rules make it French.
    assert!(c.read("settlements.csv").contains("\nMedellin,18.28,town,,,Extremadura,Sp,"));
    let supply = json(&c, &["supply", "--json"]);
    let out = c.tmp.path().join("map.svg");
    assert_code(&c.run(&["map", "--out", out.to_str().unwrap()]), 0);
    let svg = std::fs::read_to_string(&out).unwrap();
    let mut checked = 0;
    for s in supply["settlements"].as_array().unwrap() {
        let (name, control, hex) =
            (s["name"].as_str().unwrap(), s["control"].as_str().unwrap(), s["hex"].as_str().unwrap());
        let title = svg
            .split("<title>")
            .filter_map(|t| t.split("</title>").next())
            .find(|t| t.starts_with(&format!("{name} (")) && t.ends_with(hex))
            .unwrap_or_else(|| panic!("{name} is not on the map"));
        assert!(title.contains(&format!("held by {control})")), "{name}: map says {title}, supply {control}");
        checked += 1;
    }
    assert!(checked > 100, "{checked}");
    let m = supply["settlements"].as_array().unwrap().iter().find(|s| s["name"] == "Medellin").unwrap();
    assert_eq!((m["typed"].as_str(), m["control"].as_str()), (Some("Sp"), Some("Fr")));
}

/// Each side's report is written from the campaign the whole turn leaves: the garrison that
/// capitulated in the siege phase is not "in supply" at the end of the same report.
#[test]
fn a_side_report_never_calls_a_capitulated_garrison_in_supply() {
    let c = Camp::new("peninsula");
    for turn in 21..=26 {
        assert_code(&c.run(&["turn", "advance"]), 0);
        if c.read("forces.csv").contains("FR-TOL") {
            let french = c.read(&format!("turns/T{turn}/french.md"));
            assert!(french.contains("- FR-TOL: "), "while it holds, its supply is reported: {french}");
            continue;
        }
        let report = c.read(&format!("turns/T{turn}/report.md"));
        assert!(report.contains("Toledo (28.23) changes hands"), "{report}");
        let french = c.read(&format!("turns/T{turn}/french.md"));
        assert!(!french.contains("- FR-TOL: "), "a prisoner is in no one's supply: {french}");
        let supply = json(&c, &["supply", "--json"]);
        let toledo =
            supply["settlements"].as_array().unwrap().iter().find(|s| s["name"] == "Toledo").unwrap();
        // Given to its taker by the one route that writes `settlements.csv` (7.1, 2.4.8).
        assert_eq!(toledo["typed"].as_str(), Some("Sp"), "{toledo}");
        assert_code(&c.run(&["audit"]), 0);
        return;
    }
    panic!("Toledo held out past turn 26");
}

/// The `supply` column is written by `turn advance` alone: an `apply` between turns leaves it
/// as it was, and the turn then reports the force going out of supply.
#[test]
fn only_the_turn_writes_the_supply_column_and_reports_the_change() {
    let c = Camp::new("peninsula");
    assert_eq!(force_field(&c, "SP-EXT-VAN", "supply"), "in");
    export_medellin(&c, &[]);
    let result = fixture("results").join("T20-18.28-example.result.csv").display().to_string();
    assert_code(&c.run(&["apply", &result]), 0);
    assert_eq!(force_field(&c, "SP-EXT-VAN", "supply"), "in", "apply changes no state column");
    let o = c.run(&["turn", "advance"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("SP-EXT-VAN   in → out"), "{}", stdout(&o));
    assert_eq!(force_field(&c, "SP-EXT-VAN", "supply"), "out");
}

/// Each side's report of the new turn says what `supply` says on that turn: the same line,
/// the same turns out of supply in a row (3.3).
#[test]
fn a_side_report_counts_the_turns_out_of_supply_as_supply_does_on_its_turn() {
    let c = Camp::new("peninsula");
    assert_code(&c.run(&["turn", "advance"]), 0);
    let supply = json(&c, &["supply", "--json"]);
    let allies = c.read("turns/T21/allies.md");
    let french = c.read("turns/T21/french.md");
    let mut seen = 0;
    for f in supply["forces"].as_array().unwrap().iter().filter(|f| f["state"] == "out") {
        let (id, turns) = (f["force"].as_str().unwrap(), f["turns_out"].as_u64().unwrap());
        let report = if f["side"] == "French" { &french } else { &allies };
        let plural = if turns == 1 { "" } else { "s" };
        let line = format!("- {id}: OUT OF SUPPLY ({turns} turn{plural} in a row)");
        assert!(report.contains(&line), "{line} is not in:\n{report}");
        seen += 1;
    }
    assert!(seen >= 2, "{seen}");
}
