//! Standing orders, detachments and the warnings before a march (`move`, issue of the umpire's
//! fortnight): a destination beyond the turn is marched to over several turns, a part of a
//! force is detached to hold a town, and the dry run says what a march does to its side's
//! garrisons and supply.

use crate::common::*;

/// Writes an orders file beside the campaign and gives its path.
fn write_orders(c: &Camp, name: &str, text: &str) -> String {
    let p = c.tmp.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[track_caller]
fn ok(c: &Camp, args: &[&str]) -> String {
    let o = c.run(args);
    assert_code(&o, 0);
    stdout(&o)
}

/// The standing orders file, or nothing when there is none.
fn standing(c: &Camp) -> String {
    if c.path("standing-orders.csv").exists() { c.read("standing-orders.csv") } else { String::new() }
}

#[test]
fn an_order_three_turns_away_arrives_over_three_turns_of_move_and_turn_advance() {
    let c = Camp::new("peninsula");
    // Mackenzie from Lisbon to Vigo: 23 hexes of road by Oporto, 10 a turn with his guns.
    let orders = write_orders(&c, "vigo.csv", "force,to\nBR-LIS,06.09\n");
    let out = ok(&c, &["move", &orders]);
    assert!(out.contains("marched as far as the turn allows, to 06.21"), "{out}");
    assert!(out.contains("standing order: 13 hexes on to 06.09"), "{out}");
    assert_eq!(force_field(&c, "BR-LIS", "hex"), "06.21");
    assert_eq!(
        standing(&c),
        "force,route,order,turn\nBR-LIS,06.20 06.19 06.18 06.17 06.16 06.15 07.15 07.14 06.13 06.12 06.11 06.10 06.09,vigo.csv:2,20\n"
    );
    // Shown by status and supply, text and JSON.
    let status = ok(&c, &["status"]);
    assert!(status.contains("BR-LIS: 13 hexes on to 06.09 (vigo.csv:2, turn 20)"), "{status}");
    assert!(ok(&c, &["supply"]).contains("BR-LIS: 13 hexes on to 06.09"));
    let j = supply_json(&c);
    assert_eq!(j["standing"][0]["to"], "06.09", "{}", j["standing"]);
    // Drawn on the umpire's map: a dashed line along the rest of the route.
    let svg = c.tmp.path().join("map.svg");
    assert_code(&c.run(&["map", "--out", svg.to_str().unwrap()]), 0);
    let svg = std::fs::read_to_string(&svg).unwrap();
    assert!(svg.contains("data-standing=\"BR-LIS\""), "no standing order drawn");
    assert!(svg.contains("BR-LIS: standing order, 13 hexes on to 06.09"));
    // The same turn, a second move does not march it again: its turn is spent.
    ok(&c, &["move"]);
    assert_eq!(force_field(&c, "BR-LIS", "hex"), "06.21");
    assert_code(&c.run(&["turn", "advance"]), 0);
    // Each side's report shows its own standing orders, not the other side's.
    assert!(c.read("turns/T21/allies.md").contains("BR-LIS: 13 hexes on to 06.09"));
    // (The French may know of Mackenzie's brigade; never of its orders.)
    assert!(!c.read("turns/T21/french.md").contains("hexes on to 06.09"));
    assert!(!c.read("turns/T21/french.md").contains("vigo.csv"));
    // Turn 21: `move` with no orders file continues it.
    let out = ok(&c, &["move"]);
    assert!(out.contains("BR-LIS Brigade Mackenzie (standing-orders.csv:2)"), "{out}");
    assert_eq!(force_field(&c, "BR-LIS", "hex"), "06.12");
    assert_eq!(standing(&c), "force,route,order,turn\nBR-LIS,06.11 06.10 06.09,vigo.csv:2,20\n");
    assert_code(&c.run(&["turn", "advance"]), 0);
    // Turn 22: it arrives and the standing order is done.
    let out = ok(&c, &["move"]);
    assert!(out.contains("BR-LIS: standing order done: arrived at 06.09"), "{out}");
    assert_eq!(force_field(&c, "BR-LIS", "hex"), "06.09");
    assert_eq!(standing(&c), "force,route,order,turn\n");
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn undo_move_gives_back_the_standing_order_and_cancel_ends_it() {
    let c = Camp::new("peninsula");
    let orders = write_orders(&c, "rodrigo.csv", "force,to\nBR-LIS,16.19\n");
    let before = c.snapshot();
    ok(&c, &["move", &orders]);
    assert_code(&c.run(&["undo", "move"]), 0);
    assert_eq!(standing(&c).lines().count(), 0, "{}", standing(&c));
    assert_eq!(force_field(&c, "BR-LIS", "hex"), "02.29");
    assert_eq!(before.get("forces.csv"), c.snapshot().get("forces.csv"));
    ok(&c, &["move", &orders]);
    assert_code(&c.run(&["turn", "advance"]), 0);
    // Out of supply on turn 21, it cannot go on: the order stands, and a move that marches
    // nothing writes no journal entry (`undo move` would take back the march before it).
    let o = c.run(&["move"]);
    assert_code(&o, 0);
    assert!(
        stdout(&o).contains("BR-LIS: standing order not continued this move (it stands)"),
        "{}",
        stdout(&o)
    );
    assert!(stderr(&o).contains("no journal entry written"), "{}", stderr(&o));
    assert!(standing(&c).contains("BR-LIS,06.20 07.20"), "{}", standing(&c));
    assert_eq!(force_field(&c, "BR-LIS", "hex"), "06.21");
    // Cancelled: it holds, and a later move leaves it where it is.
    let cancel = write_orders(&c, "cancel.csv", "force,to\nBR-LIS,cancel\n");
    let out = ok(&c, &["move", &cancel]);
    assert!(out.contains("BR-LIS: standing order (rodrigo.csv:2) cancelled by"), "{out}");
    assert_eq!(standing(&c), "force,route,order,turn\n");
    assert_code(&c.run(&["turn", "advance"]), 0);
    ok(&c, &["move"]);
    assert_eq!(force_field(&c, "BR-LIS", "hex"), "06.21");
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn a_new_order_replaces_a_standing_order_and_one_that_cannot_go_on_is_reported_not_dropped() {
    let c = Camp::new("peninsula");
    ok(&c, &["move", &write_orders(&c, "rodrigo.csv", "force,to\nBR-LIS,16.19\n")]);
    assert_code(&c.run(&["turn", "advance"]), 0);
    let out = ok(&c, &["move", &write_orders(&c, "back.csv", "force,to\nBR-LIS,02.29\n")]);
    assert!(out.contains("BR-LIS: standing order (rodrigo.csv:2) replaced by"), "{out}");
    assert_eq!(standing(&c), "force,route,order,turn\n");
    // A standing order whose next hex is not next to the force (set by hand) stands, said.
    c.write("standing-orders.csv", "force,route,order,turn\nBR-LIS,20.20,by hand,21\n");
    assert_code(&c.run(&["turn", "advance"]), 0);
    let out = ok(&c, &["move", "--dry-run"]);
    assert!(out.contains("BR-LIS: standing order not continued this move (it stands)"), "{out}");
    assert!(out.contains("20.20 is not next to"), "{out}");
}

#[test]
fn a_detached_battalion_holds_medellin_after_its_corps_marches_on_and_attaches_again() {
    let c = Camp::new("peninsula");
    // Without it, I Corps marching off leaves Medellín to the Spaniards.
    let corps = "FR-I,,18.27 18.26\n";
    let alone = write_orders(&c, "corps.csv", &format!("force,to,path,attach\n{corps}"));
    let out = ok(&c, &["move", &alone, "--dry-run"]);
    assert!(
        out.contains("Medellin (18.28) falls below the garrison its control needs once FR-I marches out"),
        "{out}"
    );
    // With the 9e Léger's 1st battalion left behind as its garrison, it stays French.
    let orders =
        write_orders(&c, "hold.csv", &format!("force,to,path,attach\nFR-I-RUF-1-9L1,18.28,,\n{corps}"));
    let out = ok(&c, &["move", &orders]);
    assert!(out.contains("FR-I-RUF-1-9L1 detached from FR-I at 18.28"), "{out}");
    assert!(!out.contains("Medellin (18.28) falls"), "{out}");
    assert_eq!(force_field(&c, "FR-I-RUF-1-9L1", "parent"), "");
    assert_eq!(force_field(&c, "FR-I-RUF-1-9L1", "hex"), "18.28");
    assert_eq!(force_field(&c, "FR-I", "hex"), "18.26");
    let j = supply_json(&c);
    let medellin = place(&j, "Medellin");
    assert_eq!(medellin["control"], "Fr", "{medellin}");
    assert_eq!(force(&j, "FR-I-RUF-1-9L1")["hex"], "18.28");
    assert_code(&c.run(&["audit"]), 0);
    // It marches after its corps and joins its brigade again: the same id, no hex of its own.
    assert_code(&c.run(&["turn", "advance"]), 0);
    let join = write_orders(&c, "join.csv", "force,path,attach\nFR-I-RUF-1-9L1,18.27 18.26,FR-I-RUF-1\n");
    let out = ok(&c, &["move", &join]);
    assert!(out.contains("FR-I-RUF-1-9L1 attached to FR-I-RUF-1"), "{out}");
    assert_eq!(force_field(&c, "FR-I-RUF-1-9L1", "parent"), "FR-I-RUF-1");
    assert_eq!(force_field(&c, "FR-I-RUF-1-9L1", "hex"), "");
    assert_code(&c.run(&["undo", "move"]), 0);
    assert_eq!(force_field(&c, "FR-I-RUF-1-9L1", "hex"), "18.28");
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn an_attach_to_a_formation_of_the_other_side_is_refused_and_nothing_moves() {
    let c = Camp::new("peninsula");
    let bad = write_orders(&c, "bad.csv", "force,to,attach\nBR-LIS,,FR-I\n");
    let before = c.snapshot();
    let o = c.run(&["move", &bad]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("bad.csv:2: attach"), "{}", stderr(&o));
    assert_eq!(before, c.snapshot());
}

#[test]
fn the_dry_run_warns_that_dessolles_leaving_madrid_cuts_french_supply() {
    let c = Camp::new("peninsula");
    let orders = fixture("orders").join("dessolles-ciudad-real.csv").display().to_string();
    let before = c.snapshot();
    let out = ok(&c, &["move", &orders, "--dry-run"]);
    assert_eq!(before, c.snapshot(), "a dry run writes nothing");
    assert!(out.contains("Warnings:"), "{out}");
    assert!(
        out.contains("Madrid (29.21) falls below the garrison its control needs once FR-RES marches out"),
        "{out}"
    );
    assert!(out.contains("the march cuts the supply of 4 French forces: FR-I ("), "{out}");
    assert!(out.contains("FR-LM ("), "{out}");
    let o = c.run(&["move", &orders, "--dry-run", "--json"]);
    assert_code(&o, 0);
    let j: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    let w: Vec<&str> = j["warnings"].as_array().unwrap().iter().filter_map(|w| w.as_str()).collect();
    assert!(w.iter().any(|w| w.contains("cuts the supply") && w.contains("FR-TOL")), "{w:?}");
    // Leaving Dessolles in Madrid and sending a battalion instead warns of nothing.
    let brigade = write_orders(&c, "brigade.csv", "force,to\nFR-RES-1-12L1,29.22\n");
    let out = ok(&c, &["move", &brigade, "--dry-run"]);
    assert!(!out.contains("Warnings:"), "{out}");
}

#[test]
fn a_standing_order_of_a_force_in_an_exported_battle_waits_for_the_result_and_none_joins_it() {
    let c = Camp::new("peninsula");
    // Ier Corps has a standing order out of Medellín; its battle there is then exported.
    std::fs::write(c.path("standing-orders.csv"), "force,route,order,turn\nFR-I,18.27 18.26,hand.csv:2,20\n")
        .unwrap();
    export_medellin(&c, &[]);
    let out = ok(&c, &["move"]);
    assert!(
        out.contains("FR-I: standing order not continued this move (it stands): in battle T20-18.28"),
        "{out}"
    );
    assert_eq!(force_field(&c, "FR-I", "hex"), "18.28");
    assert!(standing(&c).contains("FR-I,18.27 18.26"), "{}", standing(&c));
    // Nor does a force join a formation waiting for its battle's result.
    let before = c.snapshot();
    let orders = write_orders(&c, "join.csv", "force,to,attach\nFR-LAP,,FR-I\n");
    let o = c.run(&["move", &orders]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("join.csv:2: attach: FR-I: in battle T20-18.28"), "{}", stderr(&o));
    assert_eq!(c.snapshot(), before);
}

#[test]
fn a_standing_order_keeps_its_instruction_for_contact_for_the_marches_after() {
    let c = Camp::new("peninsula");
    let orders = write_orders(&c, "vigo.csv", "force,to,on_contact\nBR-LIS,06.09,avoid\n");
    ok(&c, &["move", &orders]);
    assert!(standing(&c).starts_with("force,route,order,turn,on_contact\nBR-LIS,"), "{}", standing(&c));
    assert!(standing(&c).trim_end().ends_with(",vigo.csv:2,20,avoid"), "{}", standing(&c));
    assert_code(&c.run(&["turn", "advance"]), 0);
    let out = ok(&c, &["move"]);
    assert!(out.contains("BR-LIS Brigade Mackenzie (standing-orders.csv:2)"), "{out}");
    assert!(standing(&c).trim_end().ends_with(",vigo.csv:2,20,avoid"), "{}", standing(&c));
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn a_move_with_nothing_to_march_writes_no_journal_entry() {
    let c = Camp::new("peninsula");
    let before = c.snapshot();
    let o = c.run(&["move"]);
    assert_code(&o, 0);
    assert!(stderr(&o).contains("nothing to march: no journal entry written"), "{}", stderr(&o));
    let mut after = c.snapshot();
    after.remove("campaign.lock");
    let mut before = before;
    before.remove("campaign.lock");
    assert_eq!(after, before, "a move that marched nothing changed the campaign");
}
