//! `turn advance`: the fixture's Medellín battle exported, a game dump applied, then the
//! campaign moved on turn by turn through the real binary.

use std::collections::BTreeMap;
use std::path::PathBuf;

use serde_json::Value;

use crate::common::*;

/// One `forces.csv` row as the tests look at it.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Row {
    men: u32,
    ammo: String,
    status: String,
}

fn forces(c: &Camp) -> BTreeMap<String, Row> {
    let text = c.read("forces.csv");
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let h = rdr.headers().unwrap().clone();
    let col = |n: &str| h.iter().position(|x| x == n).unwrap();
    let (id, men, ammo, status) = (col("id"), col("men"), col("ammo"), col("status"));
    rdr.records()
        .map(|r| {
            let r = r.unwrap();
            let row = Row {
                men: r[men].parse().unwrap_or(0),
                ammo: r[ammo].to_string(),
                status: r[status].to_string(),
            };
            (r[id].to_string(), row)
        })
        .collect()
}

/// `returns.csv` as (turn, unit, men, kind) rows; empty when the file is absent.
fn returns(c: &Camp) -> Vec<(u32, String, u32, String)> {
    let Ok(text) = std::fs::read_to_string(c.path("returns.csv")) else { return Vec::new() };
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    rdr.records()
        .map(|r| {
            let r = r.unwrap();
            (r[0].parse().unwrap(), r[1].to_string(), r[2].parse().unwrap(), r[3].to_string())
        })
        .collect()
}

/// Sets one field of one `forces.csv` row by hand, as the umpire would, leaving every other
/// line as it is.
fn set_field(c: &Camp, id: &str, column: &str, value: &str) {
    let text = c.read("forces.csv");
    let header: Vec<&str> = text.lines().next().unwrap().split(',').collect();
    let col = header.iter().position(|h| *h == column).unwrap();
    let mut found = false;
    let lines: Vec<String> = text
        .split('\n')
        .map(|l| {
            let mut f: Vec<String> = l.split(',').map(str::to_string).collect();
            if f[0] == id {
                assert_eq!(f.len(), header.len(), "{l}");
                f[col] = value.to_string();
                found = true;
            }
            f.join(",")
        })
        .collect();
    assert!(found, "no row {id}");
    c.write("forces.csv", &lines.join("\n"));
}

/// Writes a game dump (`sowgb_gamedb_*.csv`, sow-formats.md §3.1) for an exported battle:
/// the engine's three preamble lines, then one row per chain of `battle.json`
/// (`side,army,corps,div,brigade,reg,name,ammo,status,deserted,killed,wounded,r1..r6,
/// killer,casualties`), in ISO-8859-1 with CRLF. `losses` gives (deserted, killed, wounded)
/// from a chain's kind and men.
fn write_dump(c: &Camp, battle: &str, losses: impl Fn(&str, u32) -> (u32, u32, u32)) -> PathBuf {
    let rec: Value = serde_json::from_str(&c.read(&format!("battles/{battle}/battle.json"))).unwrap();
    let mut lines = vec![
        "SOW Game Database Dump".to_string(),
        format!("Scenario: {battle},Time: 18:42:10"),
        "Side,Army,Corp,Div,Brig,Reg,Our Name,Ammo,Status,Deserted,Killed,Wounded,R1,R2,R3,R4,R5,R6,Killer Name,Casualties"
            .to_string(),
    ];
    for ch in rec["chains"].as_array().unwrap() {
        let chain: Vec<&str> = ch["chain"].as_str().unwrap().split('_').collect();
        let men = ch["men"].as_u64().unwrap_or(0) as u32;
        let (d, k, w) = losses(ch["kind"].as_str().unwrap(), men);
        lines.push(format!(
            "{},{},{},Steady,{d},{k},{w},0,0,0,0,0,0,,0",
            chain.join(","),
            ch["name"].as_str().unwrap(),
            ch["ammo"].as_u64().unwrap_or(0)
        ));
    }
    let text = lines.join("\r\n") + "\r\n";
    let bytes: Vec<u8> = text.chars().map(|ch| u8::try_from(u32::from(ch)).unwrap()).collect();
    let path = c.tmp.path().join("sowgb_gamedb_1.csv");
    std::fs::write(&path, bytes).unwrap();
    path
}

/// Battalions and squadrons lose an eighth deserted, a twentieth killed, a tenth wounded.
fn losses(kind: &str, men: u32) -> (u32, u32, u32) {
    if kind == "unit" { (men / 8, men / 20, men / 10) } else { (0, 0, 0) }
}

/// The fixture with the Medellín battle exported and a dump applied with `apply_args`.
fn after_medellin(apply_args: &[&str]) -> Camp {
    let c = Camp::new("peninsula");
    let out = c.tmp.path().join("out");
    assert_code(&c.run(&["export", "hex", "18.28", "--out", out.to_str().unwrap()]), 0);
    let dump = write_dump(&c, "T20-18.28", losses);
    let mut args = vec!["apply", dump.to_str().unwrap()];
    args.extend_from_slice(apply_args);
    assert_code(&c.run(&args), 0);
    c
}

/// The journal replays from its baseline to exactly the files on disk. When `sowbridge
/// audit` exists, add here: `assert_code(&c.run(&["audit"]), 0);`
#[track_caller]
fn assert_audited(c: &Camp) {
    let dir = sowbridge::store::CampaignDir::new(&c.dir);
    let journal = dir.read_journal().unwrap();
    let replayed = journal.replay(&dir.read_baseline().unwrap(), None).unwrap();
    assert_eq!(replayed, dir.read_state().unwrap(), "the journal replays to the files");
    let o = c.run(&["audit"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("every man is accounted for"), "{}", stdout(&o));
}

fn advance(c: &Camp) -> std::process::Output {
    let o = c.run(&["turn", "advance"]);
    assert_code(&o, 0);
    o
}

fn last_entry(c: &Camp) -> Value {
    serde_json::from_str(c.read("journal.jsonl").lines().last().unwrap()).unwrap()
}

#[test]
fn stragglers_return_on_the_next_turn_and_the_wounded_wait() {
    let c = after_medellin(&["--river-retreat", "no"]);
    // The umpire notes a Spanish battalion short of ammunition; it is in supply.
    set_field(&c, "SP-EXT-CEN-1-GES", "ammo", "45");
    let toml_before = c.read("campaign.toml");
    let men_before = forces(&c);
    let rows = returns(&c);
    let (due, later): (Vec<_>, Vec<_>) = rows.iter().cloned().partition(|r| r.0 <= 21);
    assert!(!due.is_empty() && due.iter().all(|r| r.0 == 21 && r.3 == "stragglers"), "{due:?}");
    assert!(!later.is_empty() && later.iter().all(|r| r.0 == 24 && r.3 == "wounded"), "{later:?}");

    let o = advance(&c);
    let total: u32 = due.iter().map(|r| r.2).sum();
    assert!(stdout(&o).contains(&format!("Men returning: {total} to {} units", due.len())), "{}", stdout(&o));

    // Exactly the stragglers due on turn 21 are back: men = before + returns − the turn's
    // recorded losses (Toledo's siege, 7.2), per unit.
    let mut expected: BTreeMap<String, u32> = men_before.iter().map(|(k, r)| (k.clone(), r.men)).collect();
    for (_, unit, men, _) in &due {
        *expected.get_mut(unit).unwrap() += men;
    }
    for x in last_entry(&c)["lost"].as_array().into_iter().flatten() {
        *expected.get_mut(x[0].as_str().unwrap()).unwrap() -= x[1].as_u64().unwrap() as u32;
    }
    let after = forces(&c);
    let men_after: BTreeMap<String, u32> = after.iter().map(|(k, r)| (k.clone(), r.men)).collect();
    assert_eq!(men_after, expected);
    assert_eq!(returns(&c), later, "returns.csv holds only the later rows");

    // campaign.toml: only the turn changed, its comment line kept.
    assert_eq!(c.read("campaign.toml"), toml_before.replace("\nturn = 20\n", "\nturn = 21\n"));
    assert!(c.read("campaign.toml").starts_with("# Late March 1809"));
    assert!(stdout(&c.run(&["status"])).contains("turn 21 (early April 1809)"));

    // Ammunition: made good in supply, not out of supply (3.1). unavailable:21 ended.
    assert_eq!(after["SP-EXT-CEN-1-GES"].ammo, "", "in supply: full again");
    assert_eq!(after["FR-LAP-1-16L1"].ammo, "70", "Lapisse is out of supply");
    assert_eq!(after["SP-SEV-2"].status, "", "unavailable:21 ends at the start of turn 21");

    let e = last_entry(&c);
    assert_eq!((e["kind"].as_str(), e["turn"].as_u64()), (Some("turn-advance"), Some(21)));
    let returned: u64 = e["returned"].as_array().unwrap().iter().map(|x| x[1].as_u64().unwrap()).sum();
    assert_eq!(returned, u64::from(total));
    assert!(e["summary"].as_str().unwrap().contains("20 → 21"));
    assert_audited(&c);

    // Turn 22: nobody is due (the wounded come back on 24).
    let o = advance(&c);
    assert!(stdout(&o).contains("No men return this turn."), "{}", stdout(&o));
    let again = forces(&c);
    let mut expected = men_after.clone();
    for x in last_entry(&c)["lost"].as_array().into_iter().flatten() {
        *expected.get_mut(x[0].as_str().unwrap()).unwrap() -= x[1].as_u64().unwrap() as u32;
    }
    expected.retain(|k, _| again.contains_key(k));
    assert_eq!(again.iter().map(|(k, r)| (k.clone(), r.men)).collect::<BTreeMap<_, _>>(), expected);
    assert_eq!(returns(&c), later);
    assert!(c.read("campaign.toml").contains("\nturn = 22\n"));
    assert!(last_entry(&c)["returned"].is_null(), "nothing returned, nothing recorded");
    assert_audited(&c);
}

#[test]
fn french_river_penalties_end_at_the_start_of_turn_23() {
    let c = after_medellin(&["--winner", "allies", "--river-retreat", "yes"]);
    set_field(&c, "FR-I-RUF-1-9L1", "ammo", "40");
    let penalised = |c: &Camp| -> Vec<String> {
        forces(c)
            .into_iter()
            .filter(|(id, r)| id.starts_with("FR-I") && !r.status.is_empty())
            .map(|(id, _)| id)
            .collect()
    };
    let at_start = penalised(&c);
    let f = forces(&c);
    assert!(at_start.contains(&"FR-I-RUF-1-9L1".to_string()));
    assert!(f["FR-I"].status.contains("ammo-halved:23") && f["FR-I"].status.contains("no-wagons:23"));
    for turn in [21, 22] {
        advance(&c);
        assert!(c.read("campaign.toml").contains(&format!("\nturn = {turn}\n")));
        assert_eq!(penalised(&c), at_start, "turn {turn}: the month's penalties still run");
        assert_eq!(forces(&c)["FR-I-RUF-1-9L1"].ammo, "40", "turn {turn}: still halved, not made good");
        assert_audited(&c);
    }
    let o = advance(&c);
    assert!(penalised(&c).is_empty(), "turn 23: every penalty over");
    assert_eq!(forces(&c)["FR-I-RUF-1-9L1"].ammo, "", "in supply: ammunition made good (6.5.2)");
    let text = stdout(&o);
    assert!(text.contains("ammo-halved:23 on") && text.contains("no-wagons:23 on"), "{text}");
    assert!(text.contains("FR-I-RUF-1-9L1       40% → full"), "{text}");
    assert!(c.read("campaign.toml").contains("\nturn = 23\n"));
    assert!(stdout(&c.run(&["status"])).contains("turn 23 (early May 1809)"));
    assert_audited(&c);
}

#[test]
fn a_dry_run_reports_and_changes_no_byte() {
    let c = after_medellin(&["--river-retreat", "no"]);
    let before = c.snapshot();
    let due: u32 = returns(&c).iter().filter(|r| r.0 <= 21).map(|r| r.2).sum();
    let o = c.run(&["turn", "advance", "--dry-run"]);
    assert_code(&o, 0);
    let text = stdout(&o);
    assert!(text.starts_with(
        "turn 20 (late March 1809, campaigning season, campaign year 2) → turn 21 (early April 1809"
    ));
    assert!(text.contains("dry run: nothing written"));
    let o = c.run(&["turn", "advance", "--dry-run", "--json"]);
    assert_code(&o, 0);
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!((j["from"]["turn"].as_u64(), j["to"]["turn"].as_u64()), (Some(20), Some(21)));
    assert_eq!(j["to"]["date"], "early April 1809");
    assert_eq!(j["men_returned"].as_u64(), Some(u64::from(due)));
    assert_eq!(j["returned_by_kind"]["stragglers"].as_u64(), Some(u64::from(due)));
    assert_eq!((j["dry_run"].as_bool(), j["journal_seq"].as_u64()), (Some(true), Some(0)));
    assert_eq!(c.snapshot(), before, "a dry run changes nothing");
}

#[test]
fn a_return_to_a_unit_no_longer_in_the_order_of_battle_is_refused_before_the_turn_advances() {
    let c = Camp::new("peninsula");
    c.write(
        "returns.csv",
        "turn,unit,men,kind,battle\n21,FR-I-GONE,12,stragglers,T19-18.28\n21,FR-I-RUF-1-9L1,30,wounded,T17-18.28\n",
    );
    let before = c.snapshot();
    let o = c.run(&["turn", "advance"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("returns.csv:2: unit: 'FR-I-GONE' is not in forces.csv, so its 12 men"), "{err}");
    assert!(c.snapshot() == before, "a refused turn advance changed the campaign");
}

#[test]
fn a_turn_advance_undone_lets_the_battle_before_it_be_undone_too() {
    let c = after_medellin(&["--river-retreat", "no"]);
    let before = c.snapshot();
    advance(&c);
    assert_code(&c.run(&["undo", "T20-18.28"]), 1);
    assert_code(&c.run(&["undo", "turn"]), 0);
    for f in ["forces.csv", "returns.csv", "score.csv", "campaign.toml"] {
        assert_eq!(c.snapshot().get(f), before.get(f), "{f}: restored by undo turn");
    }
    assert_code(&c.run(&["undo", "T20-18.28"]), 0);
    assert_audited(&c);
}

#[test]
fn the_turns_march_orders_end_with_it() {
    // 6.1: moving_to is the turn's order; left standing, it would make I Corps the attacker
    // (8.6) in a contact of the next turn it never marched into.
    let c = Camp::new("peninsula");
    assert_eq!(force_field(&c, "FR-I", "moving_to"), "18.29");
    let o = advance(&c);
    assert_code(&o, 0);
    assert_eq!(force_field(&c, "FR-I", "moving_to"), "");
    assert!(
        stdout(&o).contains("March orders ended with the turn (6.1), moving_to cleared:"),
        "{}",
        stdout(&o)
    );
    assert!(stdout(&o).contains("FR-I                 was moving to 18.29"), "{}", stdout(&o));
    assert_audited(&c);
    assert_code(&c.run(&["undo", "turn"]), 0);
    assert_eq!(force_field(&c, "FR-I", "moving_to"), "18.29", "undo turn gives the order back");
}
