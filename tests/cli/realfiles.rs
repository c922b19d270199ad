//! What real public SoW files show (sow-formats.md §7), held against the real binary: dumps
//! naming units by ID, names that end in parentheses of their own, `startlocs.csv` keyed by
//! display names that repeat.

use crate::common::*;

const MEDELLIN: &str = "T20-18.28";

fn losses(kind: &str, _unit: Option<&str>, men: u32) -> RowLosses {
    if kind == "unit" { (men / 10, men / 20, men / 10) } else { (0, 0, 0) }
}

fn record(c: &Camp) -> serde_json::Value {
    serde_json::from_str(&c.read(&format!("battles/{MEDELLIN}/battle.json"))).unwrap()
}

/// The dump with every unit column rewritten by `f(chain entry, written name)`.
fn dump_with_names(c: &Camp, f: impl Fn(&serde_json::Value, &str) -> String) -> Vec<u8> {
    let rec = record(c);
    let by_chain: std::collections::BTreeMap<String, serde_json::Value> = rec["chains"]
        .as_array()
        .unwrap()
        .iter()
        .map(|e| (e["chain"].as_str().unwrap().replace('_', ","), e.clone()))
        .collect();
    let text: String = dump_for(c, MEDELLIN, losses).iter().map(|&b| char::from(b)).collect();
    let mut out = String::new();
    for line in text.split_inclusive("\r\n") {
        let body = line.trim_end_matches("\r\n");
        let mut fields: Vec<String> = body.split(',').map(str::to_string).collect();
        if fields.len() >= 12 {
            let chain = fields[..6].join(",");
            if let Some(e) = by_chain.get(&chain) {
                fields[6] = f(e, &fields[6]);
            }
        }
        out.push_str(&fields.join(","));
        out.push_str("\r\n");
    }
    out.chars().map(|ch| u8::try_from(u32::from(ch)).unwrap_or(b'?')).collect()
}

/// A final `startlocs.csv` keyed by display name (names repeat), the French on the objective.
fn startlocs_by_name(c: &Camp) -> Vec<u8> {
    let rec = record(c);
    let mut s =
        String::from("Name,Ammo,dir x,dir z,loc x,loc z,Formation,Head Count,Fatigue,Morale,14:59:57\r\n");
    let (ox, oz) =
        (rec["objectives"][0]["at"][0].as_f64().unwrap(), rec["objectives"][0]["at"][1].as_f64().unwrap());
    for e in rec["chains"].as_array().unwrap() {
        let french = e["chain"].as_str().unwrap().starts_with('1');
        let (x, z) = if french { (ox + 100.0, oz) } else { (ox + 90_000.0, oz) };
        s.push_str(&format!(
            "{},10,1,0,{x},{z},DRIL_Lvl6_Inf_Line,{},4,10\r\n",
            e["name"].as_str().unwrap(),
            e["men"]
        ));
    }
    s.chars().map(|ch| u8::try_from(u32::from(ch)).unwrap_or(b'?')).collect()
}

fn work(c: &Camp) -> std::path::PathBuf {
    let dir = c.tmp.path().join("Work");
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn a_dump_naming_units_by_id_is_applied() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let w = work(&c);
    std::fs::write(w.join("startlocs.csv"), final_startlocs(&c, MEDELLIN)).unwrap();
    let dump = w.join("SowWL_gamedb_07-10-15_08-37-30.csv");
    std::fs::write(&dump, dump_with_names(&c, |e, _| e["id"].as_str().unwrap().to_string())).unwrap();
    let o = c.run(&["apply", dump.to_str().unwrap()]);
    assert_code(&o, 0);
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn names_that_end_in_parentheses_match_with_or_without_a_player() {
    let c = Camp::new("peninsula");
    let forces = c
        .read("forces.csv")
        .replace(
            ",Regimiento de Irlanda 1st Bn,",
            ",Regimiento de Irlanda (Hibernia) 1st Bn (Light Infantry),",
        )
        .replace(",9e Léger 1st Bn,", ",9e Léger 1st Bn (Carabiniers),");
    c.write("forces.csv", &forces);
    export_medellin(&c, &[]);
    let w = work(&c);
    std::fs::write(w.join("startlocs.csv"), final_startlocs(&c, MEDELLIN)).unwrap();
    let dump = w.join("sowgb_gamedb_03-28-09_15-00-00.csv");
    // One played by a human: the game adds the player's name in parentheses.
    std::fs::write(
        &dump,
        dump_with_names(&c, |_, n| {
            if n.starts_with("9e L") && n.contains("Carabiniers") {
                format!("{n} (hawkeye)")
            } else {
                n.to_string()
            }
        }),
    )
    .unwrap();
    let text: String = std::fs::read(&dump).unwrap().iter().map(|&b| char::from(b)).collect();
    assert!(text.contains("Regimiento de Irlanda (Hibernia) 1st Bn (Light Infantry),"), "{text}");
    assert!(text.contains("(Carabiniers) (hawkeye),"), "{text}");
    let o = c.run(&["apply", dump.to_str().unwrap()]);
    assert_code(&o, 0);
    let irl = men(&c)["SP-EXT-IZQ-1-IRL"];
    assert!(irl < 650, "the Irish battalion's losses were applied: {irl}");
}

#[test]
fn a_startlocs_by_name_with_repeated_couriers_decides_the_objectives() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let w = work(&c);
    let locs = startlocs_by_name(&c);
    let text = String::from_utf8_lossy(&locs).into_owned();
    assert!(text.matches("\r\nCourier,").count() >= 2, "couriers repeat: {text}");
    std::fs::write(w.join("startlocs.csv"), &locs).unwrap();
    let dump = w.join("sowgb_gamedb_03-28-09_15-00-00.csv");
    std::fs::write(&dump, dump_for(&c, MEDELLIN, losses)).unwrap();
    let o = c.run(&["apply", dump.to_str().unwrap()]);
    assert_code(&o, 0);
    let report = c.read("battles/T20-18.28/report.md");
    assert!(report.contains("objectives at the end: Medellin: French"), "{report}");
    assert!(report.contains("Result: final:"), "{report}");
}

#[test]
fn a_startlocs_that_lists_few_of_the_battle_s_units_is_said_not_used() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let w = work(&c);
    let few = "Name,Ammo,dir x,dir z,loc x,loc z,Formation,Head Count,Fatigue,Morale,14:59:57\r\n\
               Courier,10,1,0,1000,1000,DRIL_SupplyWagon,10,4,10\r\n\
               Somebody Else,10,1,0,1000,1000,DRIL_Lvl6_Inf_Line,400,4,10\r\n";
    std::fs::write(w.join("startlocs.csv"), few).unwrap();
    let dump = w.join("sowgb_gamedb_03-28-09_15-00-00.csv");
    std::fs::write(&dump, dump_for(&c, MEDELLIN, losses)).unwrap();
    let o = c.run(&["apply", dump.to_str().unwrap()]);
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains("note:") && stderr(&o).contains("it was written by another battle"),
        "{}",
        stderr(&o)
    );
    let report = c.read("battles/T20-18.28/report.md");
    assert!(
        report.contains("objectives at the end: not judged (no startlocs.csv of this battle"),
        "{report}"
    );
    assert!(!report.contains("nobody"), "{report}");
}
