//! `check`, `status` and `contacts` on the Peninsular fixture and broken copies of it, and
//! the fixture's settlements against rule 2.4's own list.

use std::collections::BTreeMap;

use serde_json::Value;

use crate::common::*;

#[test]
fn the_fixture_is_valid() {
    let c = Camp::new("peninsula");
    let o = c.run(&["check"]);
    assert_code(&o, 0);
    let o = c.run(&["check", "--json"]);
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["ok"], true);
}

#[test]
fn contacts_list_medellin_and_toledo_with_their_rules() {
    let c = Camp::new("peninsula");
    let o = c.run(&["contacts", "--json"]);
    assert_code(&o, 0);
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    let hexes: Vec<Vec<String>> = j
        .as_array()
        .unwrap()
        .iter()
        .map(|k| k["hexes"].as_array().unwrap().iter().map(|h| h.as_str().unwrap().to_string()).collect())
        .collect();
    assert!(hexes.iter().any(|h| h.contains(&"18.28".to_string())), "{hexes:?}");
    assert!(
        hexes.iter().any(|h| h.contains(&"28.23".to_string()) && h.contains(&"28.24".to_string())),
        "{hexes:?}"
    );
    assert_eq!(hexes.len(), 2, "no other enemy forces are in contact");
    let medellin = j.as_array().unwrap().iter().find(|k| k["hexes"][0] == "18.28").unwrap();
    assert!(medellin["pairs"].as_array().unwrap().iter().all(|p| p["rule"] == "8.1"));
    let text = stdout(&c.run(&["contacts"]));
    assert!(text.contains("contact at 18.28") && text.contains("FR-I - SP-EXT: 8.1 adjacent"), "{text}");
}

#[test]
fn status_shows_the_date_season_and_forces() {
    let c = Camp::new("peninsula");
    let o = c.run(&["status", "--json"]);
    assert_code(&o, 0);
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["turn"], 20);
    assert_eq!(j["date"], "late March 1809");
    assert_eq!(j["season"], "summer");
    assert_eq!(j["campaign_year"], 2);
    let forces = j["forces"].as_array().unwrap();
    assert!(forces.iter().any(|f| f["id"] == "FR-LAP" && f["supply"] == "out"));
    let text = stdout(&c.run(&["status"]));
    assert!(text.contains("turn 20 (late March 1809)"), "{text}");
    assert!(text.contains("OUT OF SUPPLY"));
}

#[test]
fn a_broken_copy_names_file_line_and_field_of_every_problem() {
    let c = Camp::new("peninsula");
    let forces = c.read("forces.csv");
    let mut lines: Vec<String> = forces.lines().map(str::to_string).collect();
    // Line 5 gets a non-number in men, line 6 an unknown parent.
    lines[4] = lines[4].replace(",light,500,", ",light,five hundred,");
    lines[5] = lines[5].replacen("FR-I-RUF-1,", "FR-NOWHERE,", 1);
    // A top-level force on a hex off the map.
    let i = lines.iter().position(|l| l.starts_with("FR-RES,")).unwrap();
    lines[i] = lines[i].replace(",29.21,", ",99.99,");
    c.write("forces.csv", &(lines.join("\n") + "\n"));
    let roads = c.read("map/roads.csv") + "18.28,20.28,major\n";
    c.write("map/roads.csv", &roads);
    let road_line = roads.lines().count();
    let settlements = c.read("settlements.csv").replacen("Lisbon,02.29,", "Lisbon,2.x9,", 1);
    c.write("settlements.csv", &settlements);
    let before = c.snapshot();
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    for want in [
        "forces.csv:5: men: 'five hundred' is not a whole number".to_string(),
        "forces.csv:6: parent: unknown parent 'FR-NOWHERE'".to_string(),
        format!("forces.csv:{}: hex: hex 99.99 is outside the map", i + 1),
        format!("map/roads.csv:{road_line}: to: 18.28 and 20.28 are not adjacent hexes"),
        "settlements.csv:2: hex: '2.x9' is not a hex id".to_string(),
    ] {
        assert!(err.contains(&want), "missing «{want}» in\n{err}");
    }
    let o = c.run(&["check", "--json"]);
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(j["ok"], false);
    assert!(j["problems"].as_array().unwrap().len() >= 5);
    assert_eq!(c.snapshot(), before, "check never writes");
}

#[test]
fn windows_1252_and_bom_input_is_read() {
    let c = Camp::new("peninsula");
    let utf8 = c.read("settlements.csv");
    let cp1252: Vec<u8> = utf8.chars().map(|ch| u8::try_from(u32::from(ch)).unwrap_or(b'?')).collect();
    std::fs::write(c.path("settlements.csv"), cp1252).unwrap();
    let mut bom = b"\xEF\xBB\xBF".to_vec();
    bom.extend_from_slice(c.read("commanders.csv").as_bytes());
    std::fs::write(c.path("commanders.csv"), bom).unwrap();
    assert_code(&c.run(&["check"]), 0);
    let o = c.run(&["export", "hex", "18.28", "--dry-run"]);
    assert_code(&o, 0);
}

#[test]
fn cycles_duplicates_and_guns_on_infantry_are_refused() {
    let c = Camp::new("peninsula");
    let mut forces = c.read("forces.csv");
    forces = forces.replacen("FR-I-RUF,FR-I,division", "FR-I-RUF,FR-I-RUF-1,division", 1);
    forces.push_str("FR-I-RUF-1-9L1,FR-I-RUF-1,battalion,dup,,Fr,light,500,,,,,,,,,\n");
    forces.push_str("FR-X,FR-I-RUF-1,battalion,gunners,,Fr,line,500,,4,,,,,,,\n");
    forces.push_str("FR-Y,,division,no hex,,Fr,,,,,,,,,,,\n");
    forces.push_str("FR-Z,FR-I-RUF-1,battalion,no men,,Xx,line,0,,,,,,,,,\n");
    c.write("forces.csv", &forces);
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    for want in [
        "a cycle",
        "duplicate id 'FR-I-RUF-1-9L1'",
        "only artillery has guns",
        "force 'FR-Y' has no hex",
        "unknown nation 'Xx'",
    ] {
        assert!(err.contains(want), "missing «{want}» in\n{err}");
    }
}

/// Rule 2.4's list, parsed from the rules' own text: name → (hex, kind, port, control).
fn rule_2_4() -> BTreeMap<(String, String), (String, bool, String)> {
    let text = std::fs::read_to_string(repo().join("tests/data/rule-2.4-settlement-list.txt")).unwrap();
    let mut out: BTreeMap<(String, String), (String, bool, String)> = BTreeMap::new();
    let mut kind = "";
    for line in text.lines().map(str::trim).filter(|l| !l.is_empty()) {
        kind = match line {
            l if l.starts_with("2.4.1") => "capital",
            l if l.starts_with("2.4.2") => "city",
            l if l.starts_with("2.4.3") => "fortress-city",
            l if l.starts_with("2.4.4") => "fortress-town",
            l if l.starts_with("2.4.5") => "port",
            l if l.starts_with("2.4.6") => "town",
            l if l.starts_with("2.4 ") => kind,
            _ => {
                let line = line.split(" but invested by ").next().unwrap();
                let (before, control) = line.rsplit_once(" (").unwrap();
                let control = control.split(')').next().unwrap().to_string();
                let (name_part, hex) = before.rsplit_once(' ').unwrap();
                let hex = hex.to_string();
                let name = name_part
                    .split(" (")
                    .next()
                    .unwrap()
                    .split(" - ")
                    .next()
                    .unwrap()
                    .trim_end_matches(',')
                    .trim()
                    .to_string();
                let port = kind == "port" || line.contains("port)");
                let strength = |k: &str| {
                    ["capital", "fortress-city", "city", "fortress-town", "town", "port"]
                        .iter()
                        .position(|x| *x == k)
                        .unwrap()
                };
                let e = out.entry((name, hex)).or_insert((kind.to_string(), port, control));
                if strength(kind) < strength(&e.0) {
                    e.0 = kind.to_string();
                }
                e.1 |= port;
                continue;
            }
        };
    }
    for v in out.values_mut() {
        if v.0 == "port" {
            v.0 = "town".to_string();
        }
    }
    out
}

#[test]
fn the_fixture_holds_every_settlement_of_rule_2_4() {
    let c = Camp::new("peninsula");
    let text = c.read("settlements.csv");
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let rows: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
    let list = rule_2_4();
    assert!(list.len() > 130, "{}", list.len());
    for ((name, hex), (kind, port, control)) in &list {
        let row = rows
            .iter()
            .find(|r| &r[0] == name && &r[1] == hex)
            .unwrap_or_else(|| panic!("{name} {hex} of rule 2.4 is not in settlements.csv"));
        assert_eq!(&row[2], kind, "{name}");
        assert_eq!(&row[6], control, "{name}");
        assert_eq!(&row[3] == "yes", *port, "{name} port");
    }
    // The special cases the rules call out.
    let find = |n: &str| rows.iter().find(|r| &r[0] == n).unwrap().clone();
    assert_eq!(&find("Toledo")[7], "Sp", "Toledo is invested by the Spanish");
    assert_eq!(&find("Toledo")[8], "yes", "the Alcázar (2.5.3)");
    assert_eq!(&find("Pamplona")[7], "Fr");
    assert_eq!(&find("Malaga")[2], "city", "19 February 2015");
    assert_eq!(&find("Barcelona")[2], "fortress-city");
    assert_eq!(&find("Barcelona")[3], "yes");
    assert_eq!(rows.iter().filter(|r| &r[1] == "20.44").count(), 2, "Gibraltar and Algeciras");
    assert!(rows.iter().any(|r| &r[0] == "Villa Viçiosa" && &r[1] == "10.29"));
    assert!(rows.iter().any(|r| &r[0] == "Villa Viciosa" && &r[1] == "33.18"));
    for accented in ["Cádiz", "Ocaña", "Bailén"] {
        assert!(rows.iter().any(|r| &r[0] == accented), "{accented}");
    }
}
