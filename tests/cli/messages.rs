//! Messengers (rule 6.3.1) on the example campaign: `messages FILE`, and orders sent during
//! the turn (`day`, `from`): the share of the allowance left when an order arrives, the
//! interception of a messenger crossing an enemy supply line about one time in three, the
//! interceptor's turn report, bad rows refused, `undo messages` and `audit`.

use crate::common::*;

/// Writes a file beside the campaign and gives its path.
fn beside(c: &Camp, name: &str, text: &str) -> String {
    let p = c.tmp.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

/// A force's `hex` in `forces.csv`.
fn hex_of(c: &Camp, id: &str) -> String {
    let text = c.read("forces.csv");
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let h = rdr.headers().unwrap().clone();
    let (i, hex) = (h.iter().position(|x| x == "id").unwrap(), h.iter().position(|x| x == "hex").unwrap());
    rdr.records().map(Result::unwrap).find(|r| &r[i] == id).unwrap()[hex].to_string()
}

fn set_seed(c: &Camp, seed: u64) {
    let toml = c.read("campaign.toml");
    let new: Vec<String> = toml
        .lines()
        .map(|l| if l.starts_with("seed") { format!("seed = {seed}") } else { l.to_string() })
        .collect();
    c.write("campaign.toml", &(new.join("\n") + "\n"));
}

/// Cuesta (SP-EXT at 18.29) writes to the Army of La Mancha (SP-MAN at 28.24): the road runs
/// through the French at 18.28, on the line of FR-I. Seville to Elvas crosses no French line.
const MESSAGES: &str =
    "from,to,day,text\nSP-EXT,SP-MAN,3,Cuesta will march on Talavera\nSP-SEV,PO-ELV,4,All quiet at Seville\n";

/// An order to SP-EXT sent from Cuesta's headquarters with SP-MAN (28.24): its messenger
/// rides through FR-TOL at 28.23, on the French line.
const CROSSING_ORDER: &str = "force,path,day,from\nSP-EXT,17.30 16.30,1,SP-MAN\n";

#[test]
fn an_order_sent_on_day_10_marches_about_a_third_of_the_allowance() {
    let c = Camp::new("peninsula");
    // The whole turn: Dessolles marches the 8 hexes to 28.28.
    let whole = beside(&c, "whole.csv", "force,to\nFR-RES,28.28\n");
    let o = c.run(&["move", &whole, "--dry-run", "--json"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("\"28.28\""), "{}", stdout(&o));
    // Sent on day 10 from his own headquarters: it arrives on day 11, 4/14 of the turn left.
    let late = beside(&c, "late.csv", "force,to,day,from\nFR-RES,28.28,10,FR-RES\n");
    let o = c.run(&["move", &late]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("sent on day 10") && out.contains("arrives on day 11"), "{out}");
    assert!(out.contains("marches on 4/14 of its turn"), "{out}");
    // The messenger's road is named: from his own headquarters, his own hex.
    assert!(out.contains("  its road: 29.21\n"), "{out}");
    // 4/14 of 9 road hexes: 2 hexes, where the whole turn took it 8.
    assert_eq!(hex_of(&c, "FR-RES"), "28.22", "{out}");
    assert!(out.contains("marched: 29.21 29.22 28.22 (2 hexes)"), "{out}");
    assert!(out.contains("halted at 28.22: its order came late"), "{out}");
    let journal = c.read("journal.jsonl");
    assert!(journal.contains("is the messenger late"), "every die is journalled: {journal}");
    assert_code(&c.run(&["audit"]), 0);
    assert_code(&c.run(&["undo", "move"]), 0);
    assert_eq!(hex_of(&c, "FR-RES"), "29.21");
}

#[test]
fn orders_to_one_force_supersede_each_other_by_arrival() {
    let c = Camp::new("peninsula");
    let two = beside(&c, "two.csv", "force,to,day,from\nFR-RES,28.28,9,FR-RES\nFR-RES,28.21,1,FR-RES\n");
    let o = c.run(&["move", &two, "--dry-run"]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("two.csv:3) sent on day 1") && out.contains("replaced by a later order"), "{out}");
    assert!(out.contains("route:   29.21 29.22"), "the order arriving last stands: {out}");
    // Without a day, twice is still refused.
    let twice = beside(&c, "twice.csv", "force,to\nFR-RES,28.28\nFR-RES,28.21\n");
    let o = c.run(&["move", &twice]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("ordered twice"), "{}", stderr(&o));
    // Nor with one order by messenger and one without, whatever the messenger's dice.
    let mixed = beside(&c, "mixed.csv", "force,to,day,from\nFR-RES,28.28,,\nFR-RES,28.21,3,FR-RES\n");
    let o = c.run(&["move", &mixed]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("ordered twice"), "{}", stderr(&o));
}

#[test]
fn a_messenger_crossing_an_enemy_line_is_caught_about_one_time_in_three() {
    let c = Camp::new("peninsula");
    let msgs = beside(&c, "messages.csv", MESSAGES);
    let order = beside(&c, "order.csv", CROSSING_ORDER);
    let (mut messages_caught, mut orders_caught) = (0, 0);
    for seed in 1..=60 {
        set_seed(&c, seed);
        let o = c.run(&["messages", &msgs, "--dry-run", "--json"]);
        assert_code(&o, 0);
        let v: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
        let list = v.as_array().unwrap();
        assert_eq!(list[0]["crosses"], true);
        assert_eq!(list[0]["route"][1], "18.28", "by the shortest road, through the French at 18.28");
        if list[0]["fate"] == "intercepted" {
            messages_caught += 1;
        }
        assert_eq!(list[1]["crosses"], false);
        assert_eq!(list[1]["fate"], "delivered", "seed {seed}: a message crossing no line always arrives");
        let o = c.run(&["move", &order, "--dry-run"]);
        assert_code(&o, 0);
        if stdout(&o).contains("intercepted at 28.23 on the French supply line of FR-TOL") {
            orders_caught += 1;
        }
    }
    assert!((12..=30).contains(&messages_caught), "{messages_caught} of 60 messages caught");
    assert!((12..=30).contains(&orders_caught), "{orders_caught} of 60 orders caught");
    assert!(!c.path("journal.jsonl").exists(), "dry runs write nothing");
}

/// The first seed from 1 on whose dice catch the order.
fn seed_that_catches(c: &Camp, order: &str) -> u64 {
    (1..=60)
        .find(|&s| {
            set_seed(c, s);
            stdout(&c.run(&["move", order, "--dry-run"])).contains("intercepted at")
        })
        .unwrap()
}

#[test]
fn an_intercepted_order_does_not_arrive_and_the_interceptors_report_says_so() {
    let c = Camp::new("peninsula");
    let order = beside(&c, "order.csv", CROSSING_ORDER);
    seed_that_catches(&c, &order);
    let o = c.run(&["move", &order]);
    assert_code(&o, 0);
    assert_eq!(hex_of(&c, "SP-EXT"), "18.29", "the order never arrived: the force stays");
    assert!(
        c.read("messages.csv").contains("SP-MAN,SP-EXT,28.23,French,FR-TOL"),
        "{}",
        c.read("messages.csv")
    );
    assert_code(&c.run(&["audit"]), 0);
    assert_code(&c.run(&["turn", "advance"]), 0);
    let french = c.read("turns/T21/french.md");
    assert!(french.contains("## Intercepted messages"), "{french}");
    assert!(
        french.contains("from SP-MAN to SP-EXT, caught at 28.23")
            && french.contains("SP-EXT to march by 17.30 16.30"),
        "{french}"
    );
    assert!(!c.read("turns/T21/allies.md").contains("caught at"), "the sender learns nothing of it");
}

#[test]
fn messages_are_journalled_audited_undone_and_not_sent_twice() {
    let c = Camp::new("peninsula");
    let msgs = beside(&c, "messages.csv", MESSAGES);
    let dry = c.run(&["messages", &msgs, "--dry-run"]);
    assert_code(&dry, 0);
    let o = c.run(&["messages", &msgs]);
    assert_code(&o, 0);
    assert_eq!(
        stdout(&o).replace("(dry run: nothing written)\n", ""),
        stdout(&dry).replace("(dry run: nothing written)\n", ""),
        "the dry run rolls the same dice"
    );
    let journal = c.read("journal.jsonl");
    assert!(journal.contains("\"kind\":\"messages\"") && journal.contains("T20-messages-"), "{journal}");
    assert_code(&c.run(&["audit"]), 0);
    let again = c.run(&["messages", &msgs]);
    assert_code(&again, 1);
    assert!(stderr(&again).contains("sent already this turn"), "{}", stderr(&again));
    assert_code(&c.run(&["undo", "messages"]), 0);
    assert_code(&c.run(&["audit"]), 0);
    // A die changed by hand in the journal is caught by the audit.
    let c2 = Camp::new("peninsula");
    let msgs2 = beside(&c2, "messages.csv", MESSAGES);
    assert_code(&c2.run(&["messages", &msgs2]), 0);
    let j = c2.read("journal.jsonl");
    let tampered = j.replacen("\"sides\":6,\"value\":", "\"sides\":6,\"value\":9", 1);
    c2.write("journal.jsonl", &tampered);
    let audit = c2.run(&["audit"]);
    assert_code(&audit, 1);
    assert!(stderr(&audit).contains("the stream rolls"), "{}", stderr(&audit));
}

#[test]
fn bad_rows_are_refused_with_file_line_and_field_and_nothing_changes() {
    let c = Camp::new("peninsula");
    let before = c.snapshot();
    let bad = beside(&c, "bad.csv", "from,to,day,text\nSP-EXT,XX-NONE,3,a\nSP-EXT,SP-MAN,15,b\n");
    let o = c.run(&["messages", &bad]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("bad.csv:3: day: 15 is not a day of the turn (1 to 14)"), "{err}");
    let o = c.run(&["messages", &beside(&c, "unknown.csv", "from,to,day,text\nSP-EXT,XX-NONE,3,a\n")]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("unknown.csv:2: to: 'XX-NONE' is not a force on the map"), "{}", stderr(&o));
    let orders =
        beside(&c, "orders.csv", "force,to,day,from\nFR-RES,28.28,15,FR-RES\nFR-I,18.27,2,NOWHERE\n");
    let o = c.run(&["move", &orders]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("orders.csv:2: day: 15 is not a day of the turn"), "{err}");
    assert!(err.contains("orders.csv:3: from: 'NOWHERE' is neither a force on the map nor a hex"), "{err}");
    assert_eq!(before, c.snapshot(), "refused: nothing changed");
}

#[test]
fn a_file_still_being_written_is_said_empty_and_nothing_changes() {
    let c = Camp::new("peninsula");
    let before = c.snapshot();
    let empty = beside(&c, "empty.csv", "");
    for cmd in ["move", "messages"] {
        let o = c.run(&[cmd, &empty]);
        assert_code(&o, 1);
        assert!(
            stderr(&o).contains("empty.csv:1: the file is empty (is it still being written"),
            "{}",
            stderr(&o)
        );
        assert!(!stderr(&o).contains("required column"), "one cause, one message: {}", stderr(&o));
    }
    let mut after = c.snapshot();
    after.remove("campaign.lock");
    let mut before = before;
    before.remove("campaign.lock");
    before.remove("empty.csv");
    after.remove("empty.csv");
    assert_eq!(after, before);
}
