//! Supply as the rules write it (issue 25), each reading through the real binary on the
//! whole-peninsula fixture: villages (2.1.3), revolts (4.0), captured depots (3.2.1), the
//! junction of a secondary road (4 September 2014), the temporary capital (2.1.2), taxes in
//! Spain and the occupation's area (4.0), the Spanish provincial armies (2.2), one depot per
//! corps or army (3.2.1), capacity per line (3.4) and `move` under 3.3 and 3.4.

use serde_json::Value;

use crate::common::*;

fn path(f: &Value) -> Vec<&str> {
    f["path"].as_array().unwrap().iter().map(|h| h.as_str().unwrap()).collect()
}

/// Appends rows to a campaign file.
fn append(c: &Camp, rel: &str, rows: &str) {
    let text = c.read(rel);
    c.write(rel, &(text + rows));
}

/// Sets one field of the row of `rel` whose first field is `key`.
fn set_field(c: &Camp, rel: &str, key: &str, column: &str, value: &str) {
    let text = c.read(rel);
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let head: Vec<&str> = lines[0].split(',').collect();
    let col = head.iter().position(|h| *h == column).unwrap_or_else(|| panic!("no column {column}"));
    let i =
        lines.iter().position(|l| l.starts_with(&format!("{key},"))).unwrap_or_else(|| panic!("no {key}"));
    let mut fields: Vec<String> = lines[i].split(',').map(str::to_string).collect();
    fields[col] = value.to_string();
    lines[i] = fields.join(",");
    c.write(rel, &(lines.join("\n") + "\n"));
}

#[test]
fn an_ungarrisoned_village_on_a_french_road_cuts_nothing() {
    let c = Camp::new("peninsula");
    // A village at 19.25, between Trujillo and Almaraz on I Corps's road to Madrid, with no
    // garrison: 2.1.3, "they do not need garrisons", and no functionality is changed.
    append(&c, "settlements.csv", "Jaraicejo,19.25,village,,,Extremadura,Sp,,,south,\n");
    let j = supply_json(&c);
    let fr_i = force(&j, "FR-I");
    assert_eq!((fr_i["state"].as_str(), fr_i["source"].as_str()), (Some("in"), Some("Madrid")), "{fr_i}");
    assert!(path(fr_i).contains(&"19.25"), "through the village: {fr_i}");
    // Villages do not count towards the line's settlements (3.4).
    let before = supply_json(&Camp::new("peninsula"));
    assert_eq!(fr_i["capacity"]["settlements"], force(&before, "FR-I")["capacity"]["settlements"]);
}

#[test]
fn any_unit_at_the_junction_town_of_a_secondary_road_opens_it() {
    let c = Camp::new("peninsula");
    // The road from Albuera (14.30) to 14.31 made secondary: Albuera is the junction with the
    // major road to Badajoz. A regiment of hussars holds Albuera, a battalion stands at 14.31.
    let roads = c.read("map/roads.csv").replace("14.30,14.31,major", "14.30,14.31,secondary");
    assert!(roads.contains("14.30,14.31,secondary"), "the fixture's road 14.30-14.31");
    c.write("map/roads.csv", &roads);
    append(
        &c,
        "forces.csv",
        "SP-HUS,,brigade,Húsares de Albuera,,Sp,,,,,14.30,,Badajoz,in,,,\n\
         SP-HUS-1,SP-HUS,regiment,Húsares de María Luisa,,Sp,light-cavalry,300,2,,,,,,,,\n\
         SP-ZAF,,brigade,Brigada de Zafra,,Sp,,,,,14.31,,Badajoz,in,,,\n\
         SP-ZAF-1,SP-ZAF,battalion,Provincial de Llerena,,Sp,line,600,,,,,,,,,\n",
    );
    let j = supply_json(&c);
    let zaf = force(&j, "SP-ZAF");
    // 4 September 2014: "Any unit of any type and size is sufficient when placed at the
    // junction of a secondary road", a town included.
    assert_eq!((zaf["state"].as_str(), zaf["source"].as_str()), (Some("in"), Some("Badajoz")), "{zaf}");
    assert_eq!(path(zaf), ["14.31", "14.30", "14.29", "13.29"]);
    // Without the hussars the junction is unmanned: the line goes the long way, by Zafra.
    let c2 = Camp::new("peninsula");
    c2.write("map/roads.csv", &roads);
    append(
        &c2,
        "forces.csv",
        "SP-ZAF,,brigade,Brigada de Zafra,,Sp,,,,,14.31,,Badajoz,in,,,\n\
         SP-ZAF-1,SP-ZAF,battalion,Provincial de Llerena,,Sp,line,600,,,,,,,,,\n",
    );
    let j2 = supply_json(&c2);
    let zaf = force(&j2, "SP-ZAF");
    assert_eq!(path(zaf), ["14.31", "15.32", "15.31", "16.30", "15.30", "14.29", "13.29"]);
}

#[test]
fn a_captured_depot_feeds_no_one_until_its_owner_retakes_it() {
    let c = Camp::new("peninsula");
    // A Spanish battalion takes Talavera, I Corps's depot (3.2.1), which no French post holds.
    set_field(&c, "settlements.csv", "Talavera", "overrule", "");
    append(
        &c,
        "forces.csv",
        "SP-TAL,,brigade,Partida de Talavera,,Sp,,,,,24.23,,,in,,,\n\
         SP-TAL-1,SP-TAL,battalion,Voluntarios de Talavera,,Sp,line,600,,,,,,,,,\n",
    );
    let j = supply_json(&c);
    assert_eq!(place(&j, "Talavera")["control"], "Sp");
    // A depot is its owner's: the Spanish garrison does not make it an Allied source...
    let tal = force(&j, "SP-TAL");
    assert_ne!(tal["source"].as_str(), Some("Talavera"), "{tal}");
    // ...and the French have lost it until they retake it.
    let depot = j["depots"].as_array().unwrap().iter().find(|d| d["force"] == "FR-I").unwrap();
    assert_eq!((depot["depot"].as_str(), depot["state"].as_str()), (Some("Talavera"), Some("captured")));
}

#[test]
fn a_place_in_revolt_is_hostile_for_its_month_in_control_supply_and_communications() {
    let c = Camp::new("peninsula");
    // Madrid revolted at the end of turn 19: hostile for turns 20 and 21 (4.0).
    c.write("revolts.csv", "place,began,until,men_lost,units\nMadrid,20,22,300,8\n");
    let j = supply_json(&c);
    let madrid = place(&j, "Madrid");
    assert_eq!((madrid["control"].as_str(), madrid["production"].as_str()), (Some("-"), Some("hostile")));
    assert!(madrid["why"].as_str().unwrap().contains("in revolt until turn 22"), "{madrid}");
    // No longer a French source: Dessolles in Madrid is out of supply, I Corps's line is cut
    // at Madrid's gates.
    let res = force(&j, "FR-RES");
    assert_eq!(res["state"], "out", "{res}");
    assert_ne!(force(&j, "FR-I")["source"].as_str(), Some("Madrid"));
    // turn advance writes the revolt's control; the month after, the garrison holds it again.
    assert_code(&c.run(&["turn", "advance"]), 0);
    assert!(c.read("settlements.csv").contains("Madrid,29.21,capital,,yes,Castile-La Mancha,-,"));
    assert_code(&c.run(&["turn", "advance"]), 0);
    assert_code(&c.run(&["turn", "advance"]), 0);
    assert!(c.read("settlements.csv").contains("Madrid,29.21,capital,,yes,Castile-La Mancha,Fr,"));
}

#[test]
fn seville_then_cadiz_is_the_temporary_capital_with_a_capital_s_garrison() {
    let c = Camp::new("peninsula");
    let j = supply_json(&c);
    // Madrid is French: Seville is the Spanish capital (2.1.2) and needs a brigade, not a
    // unit. Zayas's 3 available battalions (Virués's brigade is out of action) hold it, but
    // only adequately: a good capital needs two brigades.
    let sev = place(&j, "Seville");
    assert_eq!(
        (sev["control"].as_str(), sev["production"].as_str()),
        (Some("Sp"), Some("adequate")),
        "{sev}"
    );
    assert!(sev["why"].as_str().unwrap().contains("needs 1 brigade"), "{sev}");
    assert!(sev["why"].as_str().unwrap().contains("temporary Spanish capital"), "{sev}");
    assert!(!place(&j, "Cádiz")["why"].as_str().unwrap().contains("temporary"));
    // Dessolles takes Seville with his 8 battalions (a capital needs a French division) and
    // Zayas falls back on Cádiz: Seville, taken with a capital's garrison, is captured and
    // Cádiz is now the temporary capital.
    set_field(&c, "forces.csv", "FR-RES", "hex", "17.37");
    set_field(&c, "forces.csv", "SP-SEV", "hex", "16.42");
    let j = supply_json(&c);
    let sev = place(&j, "Seville");
    assert_eq!(sev["control"], "Fr", "{sev}");
    assert!(sev["why"].as_str().unwrap().contains("needs 2 brigades"), "{sev}");
    let cad = place(&j, "Cádiz");
    assert!(cad["why"].as_str().unwrap().contains("temporary Spanish capital"), "{cad}");
}

#[test]
fn irun_pays_taxes_and_the_occupied_provinces_count_against_the_french() {
    let c = Camp::new("peninsula");
    // A French battalion polices Irun, a town of Vascongadas, in Spain (4.0).
    append(
        &c,
        "forces.csv",
        "FR-IRU,,brigade,Poste d'Irun,,Fr,,,,,39.04,,,in,,,\n\
         FR-IRU-1,FR-IRU,battalion,Bataillon de marche,,Fr,line,500,,,,,,,,,\n",
    );
    assert_code(&c.run(&["turn", "advance"]), 0);
    let report = c.read("turns/T21/report.md");
    assert!(report.contains("- Irun: 1 garrison units, 1 needed → adequate"), "{report}");
    // The area the French control (4.0): every place of a province where they hold a city
    // (Madrid and Toledo in Castile-La Mancha), paying or not, and every place they hold
    // (Medellín, Salamanca, Irun). 5 of these 20 pay: under 10, a complete failure.
    assert!(report.contains("- Ocaña: 0 garrison units, 1 needed → no taxes"), "{report}");
    assert!(report.contains("Turn 20: 5 of 20 settlements taxed, 2 giving good taxes"), "{report}");
    assert_eq!(
        c.read("occupation.csv"),
        "turn,year,controlled,taxed,good,outcome,score\n20,2,20,5,2,complete-failure,-1\n"
    );
}

#[test]
fn a_spanish_provincial_army_draws_only_on_its_own_province() {
    let c = Camp::new("peninsula");
    let j = supply_json(&c);
    // Girón's division of the Army of La Mancha (depot Ciudad Real, New Castile-La Mancha)
    // may not draw on Seville, 25 hexes away in Andalucía (2.2): Madrid and Toledo are
    // French and its depot holds no garrison, so it has no source at all.
    let man = force(&j, "SP-MAN");
    assert_eq!((man["state"].as_str(), man["source"].as_str()), (Some("out"), None), "{man}");
    assert!(man["reason"].as_str().unwrap().contains("no supply source in Castile-La Mancha"), "{man}");
    // Zayas in Seville, of Andalucía, still draws on Seville; the Portuguese and British on
    // any Allied source.
    assert_eq!(force(&j, "SP-SEV")["source"], "Seville");
    assert_eq!(force(&j, "BR-LIS")["source"], "Elvas");
    // Badajoz invested (7.1.1): the Army of Extremadura is not fed by the Portuguese depot
    // of Elvas, one hex beyond it.
    let text = c.read("settlements.csv").replace(
        "Badajoz,13.29,fortress-city,,yes,Extremadura,Sp,,",
        "Badajoz,13.29,fortress-city,,yes,Extremadura,Sp,Fr,",
    );
    c.write("settlements.csv", &text);
    let j = supply_json(&c);
    let ext = force(&j, "SP-EXT");
    assert_eq!((ext["state"].as_str(), ext["source"].as_str()), (Some("out"), None), "{ext}");
    assert!(ext["reason"].as_str().unwrap().contains("Extremadura"), "{ext}");
    assert_eq!(force(&j, "PO-ELV")["source"], "Elvas");
}

#[test]
fn forces_on_one_line_share_its_capacity_and_the_excess_is_out_of_supply() {
    let c = Camp::new("peninsula");
    // A second corps of 20 battalions of 600 men (12,000) at 19.27, on I Corps's road to
    // Madrid and nearer Madrid. The adequate line carries 25,000 men (3.4): the newcomer's
    // 12,000 first, then I Corps's 15,860 would make 27,860.
    let mut rows = String::from("FR-II,,corps,IIe Corps,,Fr,,,,,19.27,,Talavera,in,,,\n");
    for i in 0..20 {
        rows.push_str(&format!("FR-II-{i},FR-II,battalion,{i}e Ligne,,Fr,line,600,,,,,,,,,\n"));
    }
    append(&c, "forces.csv", &rows);
    let j = supply_json(&c);
    let ii = force(&j, "FR-II");
    assert_eq!(
        (ii["state"].as_str(), ii["capacity"]["load_men"].as_u64()),
        (Some("in"), Some(12_000)),
        "{ii}"
    );
    let fr_i = force(&j, "FR-I");
    assert_eq!(fr_i["state"], "out", "{fr_i}");
    let why = fr_i["reason"].as_str().unwrap();
    assert!(why.contains("12000 men and 0 guns of FR-II draw on it first"), "{why}");
    assert!(why.contains("it would carry 27860 men and 44 guns"), "{why}");
    assert_eq!(fr_i["orders"][0], "must halt or withdraw, no offensive (3.4)");
    // Latour-Maubourg, beyond Medellín, still fits in what is left: 12,000 + 2,730.
    let lm = force(&j, "FR-LM");
    assert_eq!(
        (lm["state"].as_str(), lm["capacity"]["load_men"].as_u64()),
        (Some("in"), Some(14_730)),
        "{lm}"
    );
    let text = stdout(&c.run(&["supply"]));
    assert!(text.contains("2730 men, 6 guns; the line carries 14730 of 25000 men"), "{text}");
    // A force standing in a good source draws on it as a good line: the Portuguese brigade's
    // 3 battalions in Elvas, a fortress-town needing 1 unit (3.4).
    let elvas = force(&j, "PO-ELV");
    assert_eq!(
        (elvas["capacity"]["line"].as_str(), elvas["capacity"]["max_men"].as_u64()),
        (Some("good"), Some(50_000))
    );
}

/// Writes an orders file beside the campaign and gives its path.
fn write_orders(c: &Camp, name: &str, text: &str) -> String {
    let p = c.tmp.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn move_refuses_an_advance_out_of_supply_or_over_capacity_and_lets_a_force_withdraw() {
    let c = Camp::new("peninsula");
    // The Spanish vanguard at Don Benito is out of supply (cut at Medellín): it may not march
    // on Latour-Maubourg's dragoons at 20.29, whom it knows of (in contact, 8.1).
    let o = write_orders(&c, "vanguard.csv", "force,to\nSP-EXT-VAN,20.29\n");
    let before = c.snapshot();
    let out = c.run(&["move", &o]);
    assert_code(&out, 1);
    assert_eq!(before, c.snapshot(), "nothing moved");
    let err = stderr(&out);
    assert!(err.contains("vanguard.csv:2: force: SP-EXT-VAN, step 1: out of supply"), "{err}");
    assert!(err.contains("brings it nearer FR-LM at 20.29") && err.contains("(rule 3.3)"), "{err}");
    // Girón, out of supply before Toledo, may fall back from its walls to 29.25, away from
    // Toledo's garrison and from Latour-Maubourg; south to 28.25 would bring it nearer the
    // dragoons, within a turn's march of it (3.3).
    let o = write_orders(&c, "giron.csv", "force,path\nSP-MAN,28.25\n");
    let err = stderr(&c.run(&["move", &o]));
    assert!(err.contains("the step to 28.25 brings it nearer FR-LM at 20.29"), "{err}");
    let o = write_orders(&c, "giron.csv", "force,path\nSP-MAN,29.25\n");
    assert_code(&c.run(&["move", &o]), 0);
    assert!(c.read("forces.csv").contains(",29.25,,Ciudad Real,"));
    // I Corps beyond its line's capacity (a second corps ahead of it on the Madrid road)
    // may not march on Cuesta at 18.29 (3.4).
    let c = Camp::new("peninsula");
    let mut rows = String::from("FR-II,,corps,IIe Corps,,Fr,,,,,19.27,,Talavera,in,,,\n");
    for i in 0..20 {
        rows.push_str(&format!("FR-II-{i},FR-II,battalion,{i}e Ligne,,Fr,line,600,,,,,,,,,\n"));
    }
    append(&c, "forces.csv", &rows);
    let o = write_orders(&c, "victor.csv", "force,to\nFR-I,18.29\n");
    let out = c.run(&["move", &o]);
    assert_code(&out, 1);
    let err = stderr(&out);
    assert!(err.contains("victor.csv:2: force: FR-I, step 1") && err.contains("(rule 3.4)"), "{err}");
}

#[test]
fn check_names_each_depot_3_2_1_does_not_allow_with_its_file_and_line() {
    let c = Camp::new("peninsula");
    // The Army of Extremadura's depot moved to Elvas, in Portugal: outside a Spanish army's
    // area (3.2.1). Its line in forces.csv is 94.
    set_field(&c, "forces.csv", "SP-EXT", "depot", "Elvas");
    let o = c.run(&["check"]);
    assert_code(&o, 0);
    let err = stderr(&o);
    assert!(
        err.contains("warning: forces.csv:94: depot: SP-EXT's depot must lie within the area it controls: Elvas is in Portugal, not in a Spanish province (3.2.1)"),
        "{err}"
    );
    // The garrison of Toledo, a brigade, names a depot no French corps places.
    assert!(err.contains("warning: forces.csv:66: depot: FR-TOL (brigade) names the depot Toledo, which no French corps in forces.csv places"), "{err}");
    // The vanguard names Badajoz, no longer the Army of Extremadura's depot either.
    assert!(err.contains("forces.csv:95: depot: SP-EXT-VAN (division) names the depot Badajoz"), "{err}");
    // Latour-Maubourg's dragoons draw on I Corps's depot at Talavera: allowed.
    assert!(!err.contains("FR-LM"), "{err}");
}

#[test]
fn supply_follows_the_force_along_its_trail() {
    let c = Camp::new("peninsula");
    // A French brigade in Madrid marches out by Aranjuez and Ocaña, towns that hold no French
    // garrison, to 29.24 across the Tagus from Toledo.
    append(
        &c,
        "forces.csv",
        "FR-BRI,,brigade,Brigade de marche,,Fr,,,,,29.21,,Madrid,in,,,\n\
         FR-BRI-1,FR-BRI,battalion,1er Bataillon,,Fr,line,500,,,,,,,,,\n\
         FR-BRI-2,FR-BRI,battalion,2e Bataillon,,Fr,line,500,,,,,,,,,\n\
         FR-BRI-3,FR-BRI,battalion,3e Bataillon,,Fr,line,500,,,,,,,,,\n",
    );
    let before = c.snapshot();
    let o = write_orders(&c, "out.csv", "force,path\nFR-BRI,30.21 30.22 30.23 29.24\n");
    assert_code(&c.run(&["move", &o]), 0);
    assert_eq!(c.read("trails.csv"), "force,trail\nFR-BRI,29.24 30.23 30.22 30.21 29.21\n");
    // By the nearest road it would draw on Madrid by Toledo's bridge (28.24, 28.23); its supply
    // follows it, and Ocaña is hostile (3.2, 4 September 2014).
    let j = supply_json(&c);
    let bri = force(&j, "FR-BRI");
    assert_eq!((bri["state"].as_str(), bri["break"].as_str()), (Some("out"), Some("30.23")), "{bri}");
    assert!(
        bri["reason"]
            .as_str()
            .unwrap()
            .contains("cut at 30.23 on its trail to Madrid: Ocaña (30.23) is hostile"),
        "{bri}"
    );
    assert_eq!(path(bri), ["29.24", "30.23", "30.22", "30.21", "29.21"]);
    // Back along the trail to Aranjuez: the trail shortens, and the line is open again.
    let o = write_orders(&c, "back.csv", "force,path\nFR-BRI,30.23 30.22\n");
    assert_code(&c.run(&["move", &o]), 0);
    assert_eq!(c.read("trails.csv"), "force,trail\nFR-BRI,30.22 30.21 29.21\n");
    let j = supply_json(&c);
    let bri = force(&j, "FR-BRI");
    assert_eq!((bri["state"].as_str(), bri["source"].as_str()), (Some("in"), Some("Madrid")), "{bri}");
    assert_eq!(path(bri), ["30.22", "30.21", "29.21"]);
    // The trail is kept through the journal: audit replays it, undo takes both marches back.
    assert_code(&c.run(&["audit"]), 0);
    assert_code(&c.run(&["undo", "move"]), 0);
    assert_eq!(c.read("trails.csv"), "force,trail\nFR-BRI,29.24 30.23 30.22 30.21 29.21\n");
    assert_code(&c.run(&["undo", "move"]), 0);
    let after = c.snapshot();
    assert_eq!(before.get("forces.csv"), after.get("forces.csv"));
    assert!(after.get("trails.csv").is_none_or(|t| t == b"force,trail\n"), "{:?}", after.get("trails.csv"));
    // The umpire sets a trail by hand: the brigade at 29.24 drawing on Madrid by Toledo's
    // bridge. The line follows it; the edit is journalled and audited.
    assert_code(&c.run(&["move", &o_out(&c)]), 0);
    c.write("trails.csv", "force,trail\nFR-BRI,29.24 28.24 28.23 28.22 29.22 29.21\n");
    let j = supply_json(&c);
    let bri = force(&j, "FR-BRI");
    assert_eq!((bri["state"].as_str(), bri["source"].as_str()), (Some("in"), Some("Madrid")), "{bri}");
    assert_eq!(path(bri), ["29.24", "28.24", "28.23", "28.22", "29.22", "29.21"]);
    assert_code(&c.run(&["turn", "advance"]), 0);
    assert!(c.read("journal.jsonl").contains("manual edit of trails.csv"));
    assert_code(&c.run(&["audit"]), 0);
}

/// The brigade's march out of Madrid by Aranjuez and Ocaña.
fn o_out(c: &Camp) -> String {
    write_orders(c, "out.csv", "force,path\nFR-BRI,30.21 30.22 30.23 29.24\n")
}

/// Secondary road segments drawn in a map.
fn secondary_segments(svg: &str) -> usize {
    svg.matches("stroke-dasharray=\"5 3\"").count()
}

#[test]
fn the_french_know_only_the_secondary_roads_they_have_passed() {
    let c = Camp::new("peninsula");
    let umpire = c.path("umpire.svg").display().to_string();
    let french = c.path("french.svg").display().to_string();
    assert_code(&c.run(&["map", "--out", &umpire]), 0);
    assert_code(&c.run(&["map", "--side", "french", "--out", &french]), 0);
    // The umpire's map draws the 182 secondary road pairs (and the legend's one); the French
    // know only the road through Medellín and Don Benito to Villanueva, where their forces
    // stand (6 pairs).
    assert_eq!(secondary_segments(&std::fs::read_to_string(&umpire).unwrap()), 183);
    assert_eq!(secondary_segments(&std::fs::read_to_string(&french).unwrap()), 7);
    // Dessolles cannot be routed over the secondary road from Talavera across the Tagus to
    // 24.24: the French do not know it, and off the road the river is not crossed (6.5.1).
    let to = write_orders(&c, "to.csv", "force,to\nFR-RES,24.24\n");
    let out = c.run(&["move", &to]);
    assert_code(&out, 1);
    assert!(stderr(&out).contains("no legal route from 29.21 to 24.24"), "{}", stderr(&out));
    // Marched to Talavera by the camino real, he passes a hex with one: it is recorded.
    let go = write_orders(&c, "go.csv", "force,path\nFR-RES,28.21 27.22 26.22 25.23 24.23\n");
    assert_code(&c.run(&["move", &go]), 0);
    assert_eq!(c.read("roads-seen.csv"), "hex,turn,force\n24.23,20,FR-RES\n");
    // Now the route is found, and the French map shows the roads joined to Talavera's.
    let out = c.run(&["move", &to]);
    assert_code(&out, 0);
    assert!(stdout(&out).contains("route:   24.23 24.24"), "{}", stdout(&out));
    assert_code(&c.run(&["map", "--side", "french", "--out", &french]), 0);
    assert_eq!(secondary_segments(&std::fs::read_to_string(&french).unwrap()), 16);
    // Journalled: audit replays it; undo takes it back.
    assert_code(&c.run(&["audit"]), 0);
    assert_code(&c.run(&["undo", "move"]), 0);
    assert_code(&c.run(&["undo", "move"]), 0);
    assert!(
        c.path("roads-seen.csv")
            .exists()
            .then(|| c.read("roads-seen.csv"))
            .is_none_or(|t| t == "hex,turn,force\n")
    );
}

#[test]
fn out_of_supply_a_force_may_not_advance_on_any_known_enemy_within_reach() {
    let c = Camp::new("peninsula");
    // A French brigade at 28.30, south of Girón's division; after the turn the Allies know of
    // it. Girón, out of supply at 28.24, marching south to 28.27 leaves Toledo's garrison
    // (28.23, the nearest enemy) behind but comes from 6 hexes to 3 of the brigade (3.3).
    append(
        &c,
        "forces.csv",
        "FR-Z,,brigade,Brigade Z,,Fr,,,,,28.30,,Madrid,in,,,\n\
         FR-Z-1,FR-Z,battalion,1er Bataillon,,Fr,line,500,,,,,,,,,\n\
         FR-Z-2,FR-Z,battalion,2e Bataillon,,Fr,line,500,,,,,,,,,\n",
    );
    assert_code(&c.run(&["turn", "advance"]), 0);
    assert_eq!(force(&supply_json(&c), "SP-MAN")["state"], "out");
    let o = write_orders(&c, "giron.csv", "force,path\nSP-MAN,28.25 28.26 28.27\n");
    let before = c.snapshot();
    let out = c.run(&["move", &o]);
    assert_code(&out, 1);
    assert_eq!(before, c.snapshot(), "nothing moved");
    let err = stderr(&out);
    assert!(err.contains("giron.csv:2: force: SP-MAN, step 1: out of supply"), "{err}");
    assert!(
        err.contains("the step to 28.25 brings it nearer FR-Z at 28.30") && err.contains("(rule 3.3)"),
        "{err}"
    );
}

#[test]
fn withdrawing_along_a_cut_line_never_enters_the_hex_of_the_enemy_holding_its_break() {
    let c = Camp::new("peninsula");
    // The vanguard at 19.29 is cut at Medellín (18.28), the first hex of its line, where
    // I Corps stands: stepping into it is an advance on I Corps, not a withdrawal (3.3).
    let vanguard = force(&supply_json(&c), "SP-EXT-VAN").clone();
    assert_eq!((vanguard["break"].as_str(), path(&vanguard)[1]), (Some("18.28"), "18.28"), "{vanguard}");
    let o = write_orders(&c, "vanguard.csv", "force,path\nSP-EXT-VAN,18.28\n");
    let before = c.snapshot();
    let out = c.run(&["move", &o]);
    assert_code(&out, 1);
    assert_eq!(before, c.snapshot(), "nothing moved");
    let err = stderr(&out);
    assert!(err.contains("vanguard.csv:2: force: SP-EXT-VAN, step 1: out of supply"), "{err}");
    assert!(
        err.contains("the step to 18.28 brings it nearer FR-I at 18.28") && err.contains("(rule 3.3)"),
        "{err}"
    );
}

#[test]
fn a_force_added_after_the_first_turn_cannot_make_a_new_allied_depot_a_source() {
    let c = Camp::new("peninsula");
    assert_code(&c.run(&["turn", "advance"]), 0);
    // A Spanish partida added in Zafra, naming Zafra as its depot: no Allied army may
    // establish a new depot (3.2.1), so Zafra feeds neither it nor the Army of Extremadura.
    append(
        &c,
        "forces.csv",
        "SP-N,,brigade,Partida de Zafra,,Sp,,,,,15.32,,Zafra,in,,,\n\
         SP-N-1,SP-N,battalion,Voluntarios,,Sp,line,600,,,,,,,,,\n",
    );
    let depot = |j: &Value, id: &str| {
        let d = j["depots"].as_array().unwrap().iter().find(|d| d["force"] == id).unwrap().clone();
        (d["depot"].as_str().unwrap().to_string(), d["state"].as_str().unwrap().to_string())
    };
    let j = supply_json(&c);
    assert_eq!(depot(&j, "SP-N"), ("Zafra".to_string(), "not-allowed".to_string()));
    for id in ["SP-N", "SP-EXT", "SP-ALB"] {
        let f = force(&j, id);
        assert_ne!(f["source"].as_str(), Some("Zafra"), "{f}");
    }
    assert_eq!(force(&j, "SP-EXT")["source"], "Badajoz");
    let text = stdout(&c.run(&["supply"]));
    assert!(
        text.contains("SP-N         Zafra (not-allowed): an Allied army cannot establish a new depot"),
        "{text}"
    );
    // Cuesta naming Zafra himself is no better: his army has no depot in use.
    set_field(&c, "forces.csv", "SP-EXT", "depot", "Zafra");
    let j = supply_json(&c);
    assert_eq!(depot(&j, "SP-EXT"), ("Zafra".to_string(), "not-allowed".to_string()));
    let ext = force(&j, "SP-EXT");
    assert_ne!(ext["source"].as_str(), Some("Zafra"), "{ext}");
    // A force added later that names an existing depot draws on it as it stands.
    append(&c, "forces.csv", "SP-B,,brigade,Partida de Badajoz,,Sp,,,,,14.29,,Badajoz,in,,,\n");
    assert_eq!(depot(&supply_json(&c), "SP-B"), ("Badajoz".to_string(), "established".to_string()));
}

#[test]
fn a_spanish_force_naming_no_depot_draws_on_the_province_it_stands_in() {
    let c = Camp::new("peninsula");
    // A Spanish partida at 11.29, by Elvas, naming no depot: not fed by Elvas, a Portuguese
    // depot, but from Badajoz, of Extremadura, the Spanish province nearest (2.2).
    let line = c.read("forces.csv").lines().count() + 1;
    append(
        &c,
        "forces.csv",
        "SP-X,,brigade,Partida de la Raya,,Sp,,,,,11.29,,,in,,,\n\
         SP-X-1,SP-X,battalion,Voluntarios de la Raya,,Sp,line,600,,,,,,,,,\n",
    );
    let j = supply_json(&c);
    let x = force(&j, "SP-X");
    assert_eq!((x["state"].as_str(), x["source"].as_str()), (Some("in"), Some("Badajoz")), "{x}");
    let why = "names no depot: draws on the sources of Extremadura, the Spanish province it stands in (2.2)";
    assert_eq!(x["reason"], why);
    assert!(stdout(&c.run(&["supply"])).contains(why));
    // Badajoz invested (7.1.1): Extremadura has no source for it, and Elvas is still not its.
    let text = c.read("settlements.csv").replace(
        "Badajoz,13.29,fortress-city,,yes,Extremadura,Sp,,",
        "Badajoz,13.29,fortress-city,,yes,Extremadura,Sp,Fr,",
    );
    c.write("settlements.csv", &text);
    let x = force(&supply_json(&c), "SP-X").clone();
    assert_eq!((x["state"].as_str(), x["source"].as_str()), (Some("out"), None), "{x}");
    // check names it, with its file and line.
    let o = c.run(&["check"]);
    assert_code(&o, 0);
    let err = stderr(&o);
    assert!(
        err.contains(&format!("warning: forces.csv:{line}: depot: SP-X names no depot: a Spanish army draws on its own province's depots (2.2); it draws on the sources of Extremadura, the province it stands in")),
        "{err}"
    );
}

#[test]
fn a_force_gone_from_the_order_of_battle_leaves_no_trail() {
    let c = Camp::new("peninsula");
    let brigade = "FR-BRI,,brigade,Brigade de marche,,Fr,,,,,29.21,,Madrid,in,,,\n\
                   FR-BRI-1,FR-BRI,battalion,1er Bataillon,,Fr,line,500,,,,,,,,,\n";
    append(&c, "forces.csv", brigade);
    let o = write_orders(&c, "out.csv", "force,path\nFR-BRI,30.21 30.22\n");
    assert_code(&c.run(&["move", &o]), 0);
    assert_eq!(c.read("trails.csv"), "force,trail\nFR-BRI,30.22 30.21 29.21\n");
    // The brigade is captured and struck from forces.csv; the next change of the campaign
    // writes its trail away with it.
    let text: String =
        c.read("forces.csv").lines().filter(|l| !l.starts_with("FR-BRI")).map(|l| format!("{l}\n")).collect();
    c.write("forces.csv", &text);
    let o = write_orders(&c, "res.csv", "force,path\nFR-RES,30.21\n");
    assert_code(&c.run(&["move", &o]), 0);
    let trails = c.read("trails.csv");
    assert_eq!(trails, "force,trail\nFR-RES,30.21 29.21\n");
}
