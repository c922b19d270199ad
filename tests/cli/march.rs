//! `move`: the players' orders marched on the example campaign by the rules (6.2, 6.3, 6.5.1,
//! 2.5.3, 8.1–8.3), then `contacts`, `export`, `audit` and `undo move` on what it wrote.

use crate::common::*;

/// An orders file shipped in `fixtures/orders/`.
fn orders(name: &str) -> String {
    fixture("orders").join(name).display().to_string()
}

/// Writes an orders file beside the campaign and gives its path.
fn write_orders(c: &Camp, name: &str, text: &str) -> String {
    let p = c.tmp.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// A force's `hex` and `moving_to` in `forces.csv`.
fn place(c: &Camp, id: &str) -> (String, String) {
    let text = c.read("forces.csv");
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let h = rdr.headers().unwrap().clone();
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let (i, hex, to) = (col("id"), col("hex"), col("moving_to"));
    let r = rdr.records().map(Result::unwrap).find(|r| &r[i] == id).unwrap();
    (r[hex].to_string(), r[to].to_string())
}

#[track_caller]
fn refused(c: &Camp, args: &[&str]) -> String {
    let before = c.snapshot();
    let o = c.run(args);
    assert_code(&o, 1);
    assert_eq!(before, c.snapshot(), "a refused move changes nothing");
    stderr(&o)
}

#[test]
fn a_british_brigade_marches_eight_road_hexes_from_lisbon_toward_elvas() {
    let c = Camp::new("peninsula");
    let o = c.run(&["move", &orders("lisbon-elvas.csv")]);
    assert_code(&o, 0);
    let out = stdout(&o);
    // A brigade with guns: 10 road hexes a turn (6.3); 8 of them used.
    assert!(out.contains("02.29 03.29 04.29 05.29 06.29 07.30 08.30 09.30 10.29 (8 hexes)"), "{out}");
    assert!(out.contains("80% of the turn (8.0 of 10 road hexes)"), "{out}");
    assert_eq!(place(&c, "BR-LIS"), ("10.29".into(), String::new()), "arrived, not marching on");
    let audit = c.run(&["audit"]);
    assert_code(&audit, 0);
    let journal = c.read("journal.jsonl");
    assert!(journal.contains("\"kind\":\"move\""), "{journal}");
}

#[test]
fn lisbon_to_merida_marches_a_turn_and_keeps_the_rest_but_a_path_beyond_is_refused() {
    let c = Camp::new("peninsula");
    // A destination beyond the turn: a standing order (see standing_orders.rs).
    let o = c.run(&["move", &orders("lisbon-merida.csv")]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("standing order: 5 hexes on to 16.29"), "{}", stdout(&o));
    assert_code(&c.run(&["undo", "move"]), 0);
    // Hexes written out are this turn's march: beyond the allowance they are refused.
    let path = write_orders(
        &c,
        "merida-path.csv",
        "force,path\nBR-LIS,03.29 04.29 05.29 06.29 07.30 08.30 09.30 10.29 11.29 12.28 13.29 14.29 15.30 16.30 16.29\n",
    );
    let err = refused(&c, &["move", &path]);
    assert!(err.contains("merida-path.csv:2: path: BR-LIS"), "{err}");
    assert!(err.contains("beyond the allowance") && err.contains("15 road (of 10 a turn)"), "{err}");
    assert!(err.contains("(rule 6.3)"), "{err}");
}

#[test]
fn dessolles_with_his_guns_is_refused_off_road_onto_high_ground() {
    let c = Camp::new("peninsula");
    let err = refused(&c, &["move", &orders("dessolles-hills.csv")]);
    assert!(err.contains("FR-RES, step 1: 29.21→28.20 is off road on high ground"), "{err}");
    assert!(err.contains("artillery may not move across higher ground (rule 6.3)"), "{err}");
}

#[test]
fn dessolles_marching_for_ciudad_real_halts_at_toledo_in_girons_zone() {
    let c = Camp::new("peninsula");
    let o = c.run(&["move", &orders("dessolles-ciudad-real.csv")]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(
        out.contains("halted at 28.23: entered the zone of control of SP-MAN at 28.24 (8.1 adjacent)"),
        "{out}"
    );
    // It was marching into 28.24: the French moved into contact and attack at export.
    assert_eq!(place(&c, "FR-RES"), ("28.23".into(), "28.24".into()));
    assert!(out.contains("New contacts:") && out.contains("FR-RES - SP-MAN: 8.1 adjacent"), "{out}");
    let k = c.run(&["contacts"]);
    assert!(stdout(&k).contains("FR-RES - SP-MAN: 8.1 adjacent"), "{}", stdout(&k));
}

#[test]
fn a_winter_march_is_halved() {
    let c = Camp::new("peninsula");
    // Early December 1808 (6.2): Mackenzie's 10 road hexes become 5.
    c.write("campaign.toml", &c.read("campaign.toml").replace("turn = 20", "turn = 13"));
    let eight =
        write_orders(&c, "eight.csv", "force,path\nBR-LIS,03.29 04.29 05.29 06.29 07.30 08.30 09.30 10.29\n");
    let err = refused(&c, &["move", &eight]);
    assert!(err.contains("8 road (of 5 a turn), 160% of a turn; halved in winter (6.2)"), "{err}");
    let five = write_orders(&c, "five.csv", "force,path\nBR-LIS,03.29 04.29 05.29 06.29 07.30\n");
    let o = c.run(&["move", &five]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("100% of the turn (5.0 of 5 road hexes)"), "{}", stdout(&o));
    assert_eq!(place(&c, "BR-LIS").0, "07.30");
}

#[test]
fn a_spanish_division_loses_two_hexes_at_a_river() {
    let c = Camp::new("peninsula");
    // Alburquerque's division (Spanish, with guns: 10 − 1 = 9 road hexes) over the Guadiana
    // by the Roman bridge of Mérida: 9 − 2 = 7 (6.5.1).
    let seven =
        "17.30,16.30,16.29,16.28,17.28,18.27,19.27,19.26".split(',').skip(1).collect::<Vec<_>>().join(" ");
    let ok = write_orders(&c, "seven.csv", &format!("force,path\nSP-ALB,{seven}\n"));
    let o = c.run(&["move", &ok, "--dry-run"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("of 7 road hexes"), "{}", stdout(&o));
    let eight = write_orders(&c, "eight.csv", &format!("force,path\nSP-ALB,{seven} 19.25\n"));
    let err = refused(&c, &["move", &eight]);
    assert!(err.contains("SP-ALB, step 8") && err.contains("8 road (of 7 a turn)"), "{err}");
    assert!(err.contains("2 hexes less for 1 river crossings (6.5.1)"), "{err}");
    // The same division on its own side of the river keeps its 9.
    let dry = write_orders(&c, "dry.csv", "force,path\nSP-ALB,16.30 15.31 15.32\n");
    assert!(stdout(&c.run(&["move", &dry, "--dry-run"])).contains("of 9 road hexes"));
}

#[test]
fn the_toledo_bridge_is_closed_while_giron_holds_the_south_bank() {
    let c = Camp::new("peninsula");
    let across = write_orders(&c, "across.csv", "force,path\nFR-TOL,28.24 28.25\n");
    let o = c.run(&["move", &across]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("halted at 28.23: the Puente de Alcántara is closed"), "{out}");
    assert!(out.contains("rule 2.5.3"), "{out}");
    assert_eq!(place(&c, "FR-TOL").0, "28.23");
    // West of the city the open-country crossing to 27.24 is off road, and allowed (2.5.3);
    // any other river side without a road is not (6.5.1).
    let ford = write_orders(&c, "ford.csv", "force,path,retreat\nFR-TOL,27.24,yes\n");
    let o = c.run(&["move", &ford, "--dry-run"]);
    assert_code(&o, 0);
    let bank = write_orders(&c, "bank.csv", "force,path\nFR-TOL,29.23\n");
    let err = refused(&c, &["move", &bank]);
    assert!(err.contains("off a road across the Rio Tajo between 28.23 and 29.23"), "{err}");
    assert!(err.contains("(rule 6.5.1)"), "{err}");
}

#[test]
fn undo_move_puts_every_force_back() {
    let c = Camp::new("peninsula");
    let forces = c.read("forces.csv");
    assert_code(&c.run(&["move", &orders("lisbon-elvas.csv"), &orders("dessolles-ciudad-real.csv")]), 0);
    assert_ne!(c.read("forces.csv"), forces);
    let o = c.run(&["undo", "move"]);
    assert_code(&o, 0);
    assert_eq!(c.read("forces.csv"), forces, "byte for byte");
    assert_code(&c.run(&["audit"]), 0);
    let again = c.run(&["undo", "move"]);
    assert_code(&again, 1);
    assert!(stderr(&again).contains("no move to undo"), "{}", stderr(&again));
}

#[test]
fn the_order_of_the_files_does_not_decide_the_march() {
    let a = Camp::new("peninsula");
    let b = Camp::new("peninsula");
    let (x, y) = (orders("medellin-pursuit.csv"), orders("dessolles-ciudad-real.csv"));
    assert_code(&a.run(&["move", &x, &y]), 0);
    assert_code(&b.run(&["move", &y, &x]), 0);
    assert_eq!(a.read("forces.csv"), b.read("forces.csv"));
}

#[test]
fn a_caught_retreat_before_battle_is_exported_with_the_avoiding_side() {
    let c = Camp::new("peninsula");
    // Cuesta declines Victor's battle and falls back one hex south, out of his zone; Victor
    // follows into Mengabril with the allowance he has left and catches him (8.2).
    let o = c.run(&["move", &orders("medellin-retreat.csv"), &orders("medellin-pursuit.csv")]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("caught by FR-I"), "{}", stdout(&o));
    assert!(c.read("avoidance.csv").contains("20,SP-EXT,FR-I,18.30"), "{}", c.read("avoidance.csv"));
    let k = stdout(&c.run(&["contacts"]));
    assert!(k.contains("8.2: SP-EXT retreated before battle and was caught: export sets the battle up with --avoiding allies"), "{k}");
    let e = c.run(&["export", "hex", "18.29", "--dry-run"]);
    assert_code(&e, 0);
    let plan = stdout(&e);
    assert!(plan.contains("avoiding battle (8.2): Allies"), "{plan}");
    assert!(plan.contains("attacker: French"), "{plan}");
    // A retreat from no contact is no retreat before battle.
    let lone = write_orders(&c, "lone.csv", "force,path,retreat\nBR-LIS,03.29,yes\n");
    let err = refused(&c, &["move", &lone]);
    assert!(err.contains("in contact with no enemy force") && err.contains("rule 8.2"), "{err}");
}

#[test]
fn bad_orders_are_all_refused_at_once_and_nothing_moves() {
    let c = Camp::new("peninsula");
    let french = write_orders(
        &c,
        "french.csv",
        "force,path\nFR-RES,29.22 28.22\nNOBODY,10.10\nFR-RES,29.22\nFR-LM,20.29 99.99\nFR-LAP,20.18 99.99\n",
    );
    let allies = write_orders(&c, "allies.csv", "force,to\nBR-LIS,10.29\nPO-ELV,\n");
    let err = refused(&c, &["move", &french, &allies, "--json"]);
    assert!(err.contains("5 problems"), "{err}");
    assert!(err.contains("french.csv:6: path: FR-LAP, step 2: 99.99 is off the map"), "{err}");
    assert!(err.contains("french.csv:3: force: NOBODY: unknown force"), "{err}");
    assert!(err.contains("french.csv:4: force: FR-RES: ordered twice"), "{err}");
    assert!(err.contains("french.csv:5: path: FR-LM, step 1: 20.29 is where the force already is"), "{err}");
    assert!(err.contains("allies.csv:3: to"), "{err}");
    let missing = refused(&c, &["move", "no-such-orders.csv"]);
    assert!(missing.contains("no-such-orders.csv: no such orders file"), "{missing}");
}

#[test]
fn a_dry_run_shows_the_march_as_json_and_writes_nothing() {
    let c = Camp::new("peninsula");
    let before = c.snapshot();
    let o = c.run(&["move", &orders("dessolles-ciudad-real.csv"), "--dry-run", "--json"]);
    assert_code(&o, 0);
    assert_eq!(before, c.snapshot());
    let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    assert_eq!(v["forces"][0]["force"], "FR-RES");
    assert_eq!(v["forces"][0]["moving_to"], "28.24");
    assert_eq!(v["forces"][0]["halt"]["why"], "contact");
    assert_eq!(v["dry_run"], true);
}

#[test]
fn a_later_move_in_the_same_turn_has_only_what_is_left_of_the_allowance() {
    let c = Camp::new("peninsula");
    // Dessolles marches 3 road hexes of his 9 (two rivers on his route) and halts at Toledo.
    assert_code(&c.run(&["move", &orders("dessolles-ciudad-real.csv")]), 0);
    // Back and round by Aranjuez: 7 road hexes over one river, 7/10 of a turn, but a third of
    // his turn is gone.
    let round =
        write_orders(&c, "round.csv", "force,path\nFR-RES,28.22 29.22 29.21 30.21 30.22 30.23 29.24\n");
    let err = refused(&c, &["move", &round]);
    assert!(err.contains("33% was marched earlier this turn"), "{err}");
    // Undo the first move and the whole turn is his again.
    assert_code(&c.run(&["undo", "move"]), 0);
    let from_madrid = write_orders(&c, "madrid.csv", "force,path\nFR-RES,30.21 30.22 30.23 29.24\n");
    let o = c.run(&["move", &from_madrid]);
    assert_code(&o, 0);
    // 29.24 is next to Girón at 28.24: he halts there, having marched into contact.
    assert_eq!(place(&c, "FR-RES"), ("29.24".into(), "28.24".into()), "{}", stdout(&o));
}

#[test]
fn a_retreat_that_gets_clear_is_no_battle() {
    let c = Camp::new("peninsula");
    // Girón declines the garrison of Toledo's battle and falls back south; nobody follows.
    let away = write_orders(&c, "away.csv", "force,path,retreat\nSP-MAN,28.25 28.26,yes\n");
    let o = c.run(&["move", &away]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("escaped: out of every enemy zone of control"), "{}", stdout(&o));
    assert!(!c.path("avoidance.csv").exists(), "nothing to record");
    assert_eq!(place(&c, "SP-MAN"), ("28.26".into(), String::new()));
    assert!(!stdout(&c.run(&["contacts"])).contains("28.24"));
}

#[test]
fn a_force_in_a_battle_waiting_for_its_result_does_not_march() {
    let c = Camp::new("peninsula");
    assert_code(
        &c.run(&["export", "hex", "18.28", "--out", &c.tmp.path().join("out").display().to_string()]),
        0,
    );
    let err = refused(&c, &["move", &orders("medellin-pursuit.csv")]);
    assert!(err.contains("FR-I: in battle T20-18.28, exported and waiting for its result"), "{err}");
}

#[test]
fn a_journal_begun_before_avoidance_csv_was_followed_records_no_manual_edit() {
    let c = Camp::new("peninsula");
    assert_code(&c.run(&["turn", "advance"]), 0);
    // A journal written by an earlier sowbridge knows nothing of avoidance.csv.
    let journal = c.read("journal.jsonl");
    assert!(journal.contains("\"avoidance.csv\":\"\","), "{journal}");
    c.write("journal.jsonl", &journal.replace("\"avoidance.csv\":\"\",", ""));
    assert_code(&c.run(&["move", &orders("lisbon-elvas.csv")]), 0);
    let kinds: Vec<String> = c
        .read("journal.jsonl")
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap()["kind"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(kinds, ["turn-advance", "move"]);
    assert_code(&c.run(&["audit"]), 0);
}
