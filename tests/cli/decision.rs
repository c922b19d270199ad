//! The decision to fight (8.1, 8.2): the retreat before battle's head start, the attacker of
//! a caught retreat, and a battle cancelled when it will not be fought.

use crate::common::*;

fn orders(name: &str) -> String {
    fixture("orders").join(name).display().to_string()
}

fn write_orders(c: &Camp, name: &str, text: &str) -> String {
    let p = c.tmp.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn a_retreat_marches_before_its_pursuer_and_gets_its_head_start() {
    let c = Camp::new("peninsula");
    // Cuesta declines Victor's battle and falls back three hexes south; Victor, ordered after
    // him in the same `move`, sets out only when Cuesta has gone (8.2) and is held at
    // Mengabril by Alburquerque: the retreat is not caught after 0 hexes.
    let away = write_orders(&c, "away.csv", "force,path,retreat\nSP-EXT,18.30 18.31 18.32,yes\n");
    let o = c.run(&["move", &away, &orders("medellin-pursuit.csv")]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("marched: 18.29 18.30 18.31 18.32 (3 hexes)"), "{out}");
    assert!(out.contains("escaped: out of every enemy zone of control"), "{out}");
    assert!(!c.path("avoidance.csv").exists(), "nothing caught: {out}");
    // The same orders in the other order of files: the same march.
    let d = Camp::new("peninsula");
    assert_code(&d.run(&["move", &orders("medellin-pursuit.csv"), &away]), 0);
    assert_eq!(c.read("forces.csv"), d.read("forces.csv"));
}

#[test]
fn a_caught_retreat_is_exported_with_the_pursuer_attacking_though_it_ended_in_the_hex() {
    let c = Camp::new("peninsula");
    let o = c.run(&["move", &orders("medellin-retreat.csv"), &orders("medellin-pursuit.csv")]);
    assert_code(&o, 0);
    assert!(c.read("avoidance.csv").contains("20,SP-EXT,FR-I,18.30"), "{}", c.read("avoidance.csv"));
    // The pursuer's `moving_to` taken away (its march ended where the enemy stood): the
    // attacker is still the side that pursued, from the same record `contacts` reads.
    let forces = c.read("forces.csv").replace(
        "FR-I,,corps,Ier Corps,Victor,Fr,,,,,18.29,18.30,",
        "FR-I,,corps,Ier Corps,Victor,Fr,,,,,18.29,,",
    );
    assert!(forces != c.read("forces.csv"), "FR-I's row as expected");
    c.write("forces.csv", &forces);
    let e = c.run(&["export", "hex", "18.29", "--dry-run"]);
    assert_code(&e, 0);
    let plan = stdout(&e);
    assert!(
        plan.contains("attacker: French (the Allies retreated before battle and were caught (SP-EXT, 8.2)"),
        "{plan}"
    );
    assert!(plan.contains("avoiding battle (8.2): Allies"), "{plan}");
}

#[test]
fn a_cancelled_export_frees_its_forces_and_the_journal_keeps_it() {
    let c = Camp::new("peninsula");
    let out = c.tmp.path().join("out").display().to_string();
    assert_code(&c.run(&["export", "hex", "18.28", "--out", &out]), 0);
    let err = stderr(&c.run(&["move", &orders("medellin-pursuit.csv"), "--dry-run"]));
    assert!(err.contains("in battle T20-18.28"), "{err}");
    // A dry run changes nothing.
    let before = c.snapshot();
    let d = c.run(&["battle", "cancel", "T20-18.28", "--dry-run"]);
    assert_code(&d, 0);
    assert!(stdout(&d).contains("FR-I"), "{}", stdout(&d));
    assert_eq!(before, c.snapshot());
    let k = c.run(&["battle", "cancel", "T20-18.28"]);
    assert_code(&k, 0);
    assert!(stdout(&k).contains("battle T20-18.28 cancelled"), "{}", stdout(&k));
    assert!(stdout(&c.run(&["battles"])).contains("cancelled"));
    // The SoW files stay; the forces march; the journal is sound.
    assert!(c.tmp.path().join("out/Scenarios/T20-18.28/scenario.csv").exists());
    assert_code(&c.run(&["audit"]), 0);
    assert_code(&c.run(&["move", &orders("medellin-pursuit.csv"), "--dry-run"]), 0);
    // A result for it is refused, saying why.
    let t = c.run(&["battle", "template", "T20-18.28"]);
    assert!(stderr(&t).contains("cancelled"), "{}", stderr(&t));
    // Cancelled twice: refused.
    let again = c.run(&["battle", "cancel", "T20-18.28"]);
    assert_code(&again, 1);
    assert!(stderr(&again).contains("is cancelled"), "{}", stderr(&again));
    // `undo` takes the cancel back: the battle waits again and its forces are held.
    assert_code(&c.run(&["undo", "T20-18.28"]), 0);
    let held = stderr(&c.run(&["move", &orders("medellin-pursuit.csv"), "--dry-run"]));
    assert!(held.contains("in battle T20-18.28"), "{held}");
    assert_code(&c.run(&["audit"]), 0);
    // Cancelled again, the apply of a result is refused with the reason.
    assert_code(&c.run(&["battle", "cancel", "T20-18.28"]), 0);
    let dump = dump_for(&c, "T20-18.28", |_, _, _| RowLosses::default());
    let p = c.tmp.path().join("dump.csv");
    std::fs::write(&p, dump).unwrap();
    let a = c.run(&["apply", p.to_str().unwrap(), "--winner", "french"]);
    assert!(stderr(&a).contains("cancelled with `battle cancel`"), "{}", stderr(&a));
    assert_code(&c.run(&["audit"]), 0);
}

/// The men and guns a side's text reports of the enemy ("about X men and Y guns").
fn strength_lines(text: &str) -> Vec<String> {
    text.lines().filter(|l| l.starts_with("- Strength: about")).map(str::to_string).collect()
}

#[test]
fn a_contact_is_advised_to_both_sides_without_an_export_and_the_battle_tells_the_same() {
    let c = Camp::new("peninsula");
    let o = c.run(&["contacts", "--advise"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("contact at 18.28: advised"), "{}", stdout(&o));
    // The advice is the listing (stdout); the files written and the journal entry are said
    // as every command says them (stderr).
    assert!(!stdout(&o).contains("wrote") && !stdout(&o).contains("journal entry"), "{}", stdout(&o));
    assert!(stderr(&o).contains("wrote turns/T20/advice-french.md\n"), "{}", stderr(&o));
    assert!(!c.path("battles").exists(), "nothing exported");
    let (fr, al) = (c.read("turns/T20/advice-french.md"), c.read("turns/T20/advice-allies.md"));
    assert!(fr.contains("## Contact at 18.28") && al.contains("## Contact at 18.28"), "{fr}\n{al}");
    // Each side's own text: the enemy's forces in contact, never the dice faces nor its own
    // forces as the enemy sees them.
    assert!(al.contains("Ier Corps at 18.28") && !al.contains("Ejército de Extremadura at"), "{al}");
    assert!(!fr.contains("(rolled"), "{fr}");
    // The umpire's sections (the enemy's points, the dice faces) are in neither side's text.
    for text in [&fr, &al] {
        assert!(!text.contains("## Umpire:") && !text.contains("- enemy men: d"), "{text}");
    }
    let decisions = c.read("decisions.csv");
    assert!(
        decisions.starts_with("turn,hex,side,die,men_roll,guns_roll,decision\n20,18.28,French,"),
        "{decisions}"
    );
    let journal = c.read("journal.jsonl");
    assert!(journal.contains("8.5 Allies intelligence: enemy men"), "the dice are journalled");
    // Advised again: the same dice, no new entry.
    assert_code(&c.run(&["contacts", "--advise"]), 0);
    assert_eq!(decisions, c.read("decisions.csv"));
    assert_eq!(journal, c.read("journal.jsonl"));
    // The Allies decline: no battle; the decision says what follows.
    let d = c.run(&["contacts", "decide", "18.29", "--french", "fight", "--allies", "withdraw"]);
    assert_code(&d, 0);
    assert!(
        stdout(&d).contains("the Allies withdraw (8.2): order the retreat before battle of SP-EXT"),
        "{}",
        stdout(&d)
    );
    let e = c.run(&["export", "hex", "18.28", "--dry-run"]);
    assert_code(&e, 1);
    assert!(
        stderr(&e).contains("the Allies decided to withdraw from the contact at 18.28"),
        "{}",
        stderr(&e)
    );
    // They think again: both fight, and the battle's briefings tell what the advice told.
    let d = c.run(&["contacts", "decide", "18.28", "--allies", "fight"]);
    assert!(
        stdout(&d).contains("both sides fight (8.1): set the battle up with `sowbridge export hex 18.28`"),
        "{}",
        stdout(&d)
    );
    export_medellin(&c, &[]);
    for side in ["french", "allies"] {
        let advice = strength_lines(&c.read(&format!("turns/T20/advice-{side}.md")));
        let briefing = strength_lines(&c.read(&format!("battles/T20-18.28/briefings/{side}.md")));
        assert_eq!(advice[0], briefing[0], "{side}");
    }
    assert!(c.read("battles/T20-18.28/battle.json").contains("(as advised on contact, turn 20)"));
    assert_code(&c.run(&["audit"]), 0);
    // A bad decision is refused by the command line, naming the word.
    let bad = c.run(&["contacts", "decide", "18.28", "--french", "maybe"]);
    assert_code(&bad, 2);
    assert!(stderr(&bad).contains("'maybe' is not a decision: fight or withdraw"), "{}", stderr(&bad));
}

#[test]
fn a_decision_to_withdraw_leads_to_the_retreat_and_a_caught_one_is_exported() {
    let c = Camp::new("peninsula");
    assert_code(&c.run(&["contacts", "decide", "18.28", "--french", "fight", "--allies", "withdraw"]), 0);
    assert_code(&c.run(&["move", &orders("medellin-retreat.csv"), &orders("medellin-pursuit.csv")]), 0);
    // Caught: the battle is forced on the Allies (8.2) and may be exported.
    let e = c.run(&["export", "hex", "18.29", "--dry-run"]);
    assert_code(&e, 0);
    assert!(stdout(&e).contains("avoiding battle (8.2): Allies"), "{}", stdout(&e));
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn an_orders_standing_instruction_for_contact_is_its_sides_decision() {
    let c = Camp::new("peninsula");
    // Dessolles marches on Ciudad Real with orders to avoid battle; he meets Girón at Toledo.
    let o = write_orders(&c, "dessolles.csv", "force,to,on_contact\nFR-RES,28.28,avoid\n");
    assert_code(&c.run(&["move", &o]), 0);
    let decisions = c.read("decisions.csv");
    assert!(decisions.contains(",French,,,,withdraw"), "{decisions}");
    let e = c.run(&["export", "hex", "28.24", "--dry-run"]);
    assert_code(&e, 1);
    assert!(stderr(&e).contains("the French decided to withdraw"), "{}", stderr(&e));
    // Advised afterwards: the decision stays, the dice join it.
    assert_code(&c.run(&["contacts", "--advise"]), 0);
    assert!(c.read("turns/T20/advice-french.md").contains("withdraw out of the enemy's zone of control"));
    assert_code(&c.run(&["audit"]), 0);
    // A bad instruction is refused with its file, line and field.
    let bad = write_orders(&c, "bad.csv", "force,to,on_contact\nFR-LAP,20.18,charge\n");
    let err = stderr(&c.run(&["move", &bad]));
    assert!(err.contains("bad.csv:2: on_contact") && err.contains("attack, hold or avoid"), "{err}");
}

#[test]
fn undo_contacts_takes_back_the_newest_advice_or_decision() {
    let c = Camp::new("peninsula");
    assert_code(&c.run(&["contacts", "--advise"]), 0);
    let advised = c.read("decisions.csv");
    assert_code(&c.run(&["contacts", "decide", "18.28", "--french", "fight"]), 0);
    assert!(c.read("decisions.csv").contains(",fight"));
    assert_code(&c.run(&["undo", "contacts"]), 0);
    assert_eq!(c.read("decisions.csv"), advised, "the decision taken back, the advice kept");
    assert_code(&c.run(&["undo", "contacts"]), 0);
    assert!(!c.path("turns/T20/advice-french.md").exists(), "the advice's files go with it");
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn audit_rolls_the_advice_dice_again_and_finds_one_changed() {
    let c = Camp::new("peninsula");
    assert_code(&c.run(&["contacts", "--advise"]), 0);
    assert_code(&c.run(&["audit"]), 0);
    let j = c.read("journal.jsonl");
    assert!(j.contains("\"purpose\":\"advice-T20-"), "each die names its stream: {j}");
    // A die of the advice written otherwise in the journal: the stream rolls it again.
    let i = j.find("\"purpose\":\"advice-T20-").unwrap();
    let v = j[i..].find("\"value\":").unwrap() + i + "\"value\":".len();
    let old = j[v..].chars().next().unwrap();
    let new = if old == '1' { '2' } else { '1' };
    c.write("journal.jsonl", &format!("{}{new}{}", &j[..v], &j[v + 1..]));
    let audit = c.run(&["audit"]);
    assert_code(&audit, 1);
    assert!(stderr(&audit).contains("the stream rolls"), "{}", stderr(&audit));
}
