//! `supply`, and supply and control through `turn advance`, on the whole-peninsula fixture:
//! control from garrisons (2.1), lines cut by hostile settlements (2.3, 3.3), the French line
//! of communications (3.5), what `turn advance` writes and journals, `check`'s differences.

use serde_json::Value;

use crate::common::*;

/// A settlements.csv field set by name and column.
fn set_settlement(c: &Camp, name: &str, column: &str, value: &str) {
    let text = c.read("settlements.csv");
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let head: Vec<&str> = lines[0].split(',').collect();
    let col = head.iter().position(|h| *h == column).unwrap();
    let i = lines.iter().position(|l| l.starts_with(&format!("{name},"))).unwrap();
    let mut fields: Vec<String> = lines[i].split(',').map(str::to_string).collect();
    fields[col] = value.to_string();
    lines[i] = fields.join(",");
    c.write("settlements.csv", &(lines.join("\n") + "\n"));
}

#[test]
fn supply_json_has_the_shape_the_umpire_scripts_against() {
    let c = Camp::new("peninsula");
    let j = supply_json(&c);
    for f in j["forces"].as_array().unwrap() {
        for k in ["force", "side", "state", "source", "path", "reason", "capacity", "turns_out"] {
            assert!(f.get(k).is_some(), "forces[].{k} missing: {f}");
        }
    }
    for s in j["settlements"].as_array().unwrap() {
        for k in ["name", "hex", "control", "production"] {
            assert!(s.get(k).is_some(), "settlements[].{k} missing: {s}");
        }
    }
    assert_eq!(j["settlements"].as_array().unwrap().len(), 141);
    for k in j["communications"].as_array().unwrap() {
        for key in ["force", "state", "to"] {
            assert!(k.get(key).is_some(), "communications[].{key} missing: {k}");
        }
    }
    assert_eq!(j["communications"].as_array().unwrap().len(), 5, "one per French force");
    // Same campaign, same bytes.
    assert_eq!(c.run(&["supply", "--json"]).stdout, c.run(&["supply", "--json"]).stdout);
}

#[test]
fn the_fixture_s_lines_follow_the_roads_and_are_cut_by_hostile_places() {
    let c = Camp::new("peninsula");
    let j = supply_json(&c);
    // I Corps at Medellín draws on Madrid along the Tagus road (Trujillo, Almaraz and
    // Talavera overruled French).
    let fr_i = force(&j, "FR-I");
    assert_eq!((fr_i["state"].as_str(), fr_i["source"].as_str()), (Some("in"), Some("Madrid")));
    let path: Vec<&str> = fr_i["path"].as_array().unwrap().iter().map(|h| h.as_str().unwrap()).collect();
    assert_eq!((path[0], *path.last().unwrap()), ("18.28", "29.21"));
    assert!(path.contains(&"24.23"), "through Talavera: {path:?}");
    assert_eq!(fr_i["capacity"]["max_men"], 25_000);
    // Lapisse at Salamanca: the road to Madrid runs through Segovia, in civil unrest (2.3).
    let lap = force(&j, "FR-LAP");
    assert_eq!(lap["state"], "out");
    assert_eq!(lap["break"], "27.18");
    assert!(lap["reason"].as_str().unwrap().contains("Segovia (27.18) is hostile"), "{lap}");
    assert_eq!(lap["turns_out"], 1);
    // The Spanish vanguard behind Medellín: its only road runs through the French-held town.
    let van = force(&j, "SP-EXT-VAN");
    assert_eq!((van["state"].as_str(), van["break"].as_str()), (Some("out"), Some("18.28")));
    // Girón before Toledo, of the Army of La Mancha, draws only on his own province (2.2):
    // Madrid and Toledo are French and his depot at Ciudad Real holds no garrison.
    let man = force(&j, "SP-MAN");
    assert_eq!((man["state"].as_str(), man["source"].as_str()), (Some("out"), None));
    // The French lines of communications: none reaches France here.
    assert!(j["communications"].as_array().unwrap().iter().all(|k| k["state"] == "cut"));
    let text = stdout(&c.run(&["supply"]));
    assert!(
        text.contains("FR-LAP") && text.contains("OUT OF SUPPLY (1 turn in a row): cut at 27.18"),
        "{text}"
    );
    assert!(text.contains("no replacements"), "{text}");
}

#[test]
fn control_follows_the_garrisons() {
    let c = Camp::new("peninsula");
    let j = supply_json(&c);
    // Madrid: Dessolles's division of 8 battalions (2.1.1: a capital needs a division).
    assert_eq!(
        (place(&j, "Madrid")["control"].as_str(), place(&j, "Madrid")["production"].as_str()),
        (Some("Fr"), Some("adequate"))
    );
    // Salamanca, a town, held by Lapisse's division: French, and good (twice 1 unit).
    assert_eq!(place(&j, "Salamanca")["production"], "good");
    assert_eq!(place(&j, "Salamanca")["control"], "Fr");
    // Mérida, a city with no garrison: not friendly to the Allies (2.4.8), hostile to all.
    assert_eq!(
        (place(&j, "Mérida")["control"].as_str(), place(&j, "Mérida")["production"].as_str()),
        (Some("-"), Some("hostile"))
    );
    // A town needing no Allied garrison stays Spanish; one in civil unrest stays so (2.1.2).
    assert_eq!(place(&j, "Zafra")["control"], "Sp");
    assert_eq!(place(&j, "Ronda")["control"], "-");
    // One French battalion is enough for a town, not for a city.
    let mut forces = c.read("forces.csv");
    forces.push_str(
        "FR-X,,brigade,Detachment,,Fr,,,,,15.32,,,in,,,\nFR-X-1,FR-X,battalion,1/4e,,Fr,line,500,,,,,,,,,\n",
    );
    forces.push_str(
        "FR-Y,,brigade,Detachment,,Fr,,,,,16.29,,,in,,,\nFR-Y-1,FR-Y,battalion,2/4e,,Fr,line,500,,,,,,,,,\n",
    );
    c.write("forces.csv", &forces);
    let j = supply_json(&c);
    assert_eq!(place(&j, "Zafra")["control"], "Fr", "a town held by one French battalion is French");
    assert_eq!(place(&j, "Mérida")["control"], "-", "a city with one battalion is not");
}

#[test]
fn bayonne_is_reached_when_the_madrid_road_is_french() {
    let c = Camp::new("peninsula");
    // The umpire overrules the places on the road to France: the French hold them.
    for p in
        ["Somosierra", "Aranda", "Burgos", "Miranda del Ebro", "Vitoria", "San Sebastian", "Irun", "Bayonne"]
    {
        set_settlement(&c, p, "overrule", "Fr");
    }
    let j = supply_json(&c);
    let k = j["communications"].as_array().unwrap().iter().find(|k| k["force"] == "FR-RES").unwrap();
    assert_eq!((k["state"].as_str(), k["to"].as_str()), (Some("open"), Some("Bayonne")), "{k}");
    assert!(
        !force(&j, "FR-RES")["orders"]
            .as_array()
            .unwrap()
            .iter()
            .any(|o| o.as_str().unwrap().contains("no replacements"))
    );
    // Lapisse is still cut (Segovia), and so is his line to France.
    let k = j["communications"].as_array().unwrap().iter().find(|k| k["force"] == "FR-LAP").unwrap();
    assert_eq!(k["state"], "cut");
}

#[test]
fn check_shows_where_typed_and_computed_control_differ() {
    let c = Camp::new("peninsula");
    let o = c.run(&["check"]);
    assert_code(&o, 0);
    let err = stderr(&o);
    assert!(err.contains("Madrid (29.21) is typed Sp but the garrisons make it Fr"), "{err}");
    assert!(err.contains("Talavera (24.23) is typed Sp but the umpire's overrule makes it Fr"), "{err}");
    assert!(!err.contains("Zafra"), "typed and computed agree there: {err}");
    let j: Value = serde_json::from_slice(&c.run(&["check", "--json"]).stdout).unwrap();
    assert!(
        j["control_differences"].as_array().unwrap().iter().any(|d| d.as_str().unwrap().contains("Madrid"))
    );
}

#[test]
fn turn_advance_writes_control_and_supply_through_the_journal() {
    let c = Camp::new("peninsula");
    let o = c.run(&["turn", "advance"]);
    assert_code(&o, 0);
    let text = stdout(&o);
    assert!(text.contains("Settlements changing hands"), "{text}");
    assert!(text.contains("Madrid") && text.contains("Sp → Fr"), "{text}");
    assert!(text.contains("SP-EXT-VAN   in → out"), "{text}");
    // settlements.csv: the computed control written, everything else as it was.
    let s = c.read("settlements.csv");
    assert!(s.contains("\nMadrid,29.21,capital,,yes,Castile-La Mancha,Fr,,,south,\n"), "{s}");
    assert!(s.contains("\nTalavera,24.23,town,,yes,Castile-La Mancha,Fr,,,south,Fr\n"), "{s}");
    assert_eq!(force_field(&c, "SP-EXT-VAN", "supply"), "out");
    assert_eq!(force_field(&c, "FR-LAP", "supply"), "out");
    assert!(c.read("supply.csv").contains("\nFR-LAP,1,Talavera,established,\n"), "{}", c.read("supply.csv"));
    // Each side's turn report tells it its own supply, and the French their cut communications.
    let fr = c.read("turns/T21/french.md");
    assert!(fr.contains("## Your supply (rules 3.1-3.5)") && fr.contains("no replacements (3.5)"), "{fr}");
    let al = c.read("turns/T21/allies.md");
    assert!(al.contains("- SP-EXT-VAN: OUT OF SUPPLY") && !al.contains("- FR-LAP:"), "{al}");
    // The journal has it: audit replays it.
    let o = c.run(&["audit"]);
    assert_code(&o, 0);
    // A second turn out of supply is counted.
    assert_code(&c.run(&["turn", "advance"]), 0);
    assert!(c.read("supply.csv").contains("\nFR-LAP,2,Talavera,established,\n"));
    assert_eq!(force(&supply_json(&c), "FR-LAP")["turns_out"], 3, "the count the next turn would write");
    // The umpire's overrule, typed by hand, is journalled as a manual edit and then applied.
    set_settlement(&c, "Mérida", "overrule", "Sp");
    assert_code(&c.run(&["turn", "advance"]), 0);
    let journal = c.read("journal.jsonl");
    let manual: Vec<&str> = journal.lines().filter(|l| l.contains("\"manual-edit\"")).collect();
    assert!(manual.iter().any(|l| l.contains("settlements.csv")), "{journal}");
    assert!(c.read("settlements.csv").contains("\nMérida,16.29,city,,,Extremadura,Sp,,,south,Sp\n"));
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn a_bad_supply_csv_is_refused_with_its_line_and_field_and_nothing_changes() {
    let c = Camp::new("peninsula");
    c.write("supply.csv", "force,turns_out,depot,depot_state,depot_ready\nFR-LAP,two,,,\n");
    let before = c.snapshot();
    for args in [&["supply"][..], &["check"], &["turn", "advance"]] {
        let o = c.run(args);
        assert_code(&o, 1);
        assert!(stderr(&o).contains("supply.csv:2: turns_out"), "{args:?}: {}", stderr(&o));
    }
    assert_eq!(c.snapshot(), before);
}

#[test]
fn a_briefing_tells_each_side_its_own_supply_only() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let fr = c.read("battles/T20-18.28/briefings/french.md");
    assert!(
        fr.contains("## Your supply (rules 3.1-3.5)") && fr.contains("- FR-I: in supply from Madrid"),
        "{fr}"
    );
    assert!(fr.contains("no replacements (3.5)"), "{fr}");
    assert!(!fr.contains("SP-EXT"), "nothing of the enemy's supply: {fr}");
    let al = c.read("battles/T20-18.28/briefings/allies.md");
    assert!(al.contains("- SP-EXT-VAN: OUT OF SUPPLY"), "{al}");
}

/// Medellín exported and applied as a French victory, with every unit losing a tenth.
fn medellin_lost_by_the_allies(c: &Camp) -> String {
    export_medellin(c, &[]);
    let dump =
        dump_for(
            c,
            "T20-18.28",
            |kind, _, men| if kind == "unit" { (men / 10, men / 20, men / 10) } else { (0, 0, 0) },
        );
    let p = c.tmp.path().join("sowgb_gamedb_medellin.csv");
    std::fs::write(&p, dump).unwrap();
    assert_code(&c.run(&["apply", p.to_str().unwrap(), "--winner", "french"]), 0);
    c.read("battles/T20-18.28/report.md")
}

#[test]
fn the_loser_stops_only_in_a_city_the_garrisons_make_friendly() {
    // Badajoz overruled Spanish (its depot's garrison): Alburquerque falls back into it.
    let c = Camp::new("peninsula");
    let report = medellin_lost_by_the_allies(&c);
    assert!(report.contains("from 17.30 to Badajoz (13.29)"), "{report}");
    // Without the overrule Badajoz, a fortress-city with no garrison, is friendly to no one
    // (2.1.2): he goes on to Elvas, which the Portuguese hold.
    let c = Camp::new("peninsula");
    set_settlement(&c, "Badajoz", "overrule", "");
    let report = medellin_lost_by_the_allies(&c);
    assert!(report.contains("from 17.30 to Elvas (12.28)"), "{report}");
}
