//! A unit that loses every man in a battle: `apply` writes it with `men` 0, and every later
//! command reads it as a unit with no men present (left out of the SoW order of battle, no
//! zone of control, no garrison) until its returns refill it; `undo` takes the battle back.

use std::path::{Path, PathBuf};
use std::process::Command;

use crate::common::*;

const WIPED: &str = "FR-I-RUF-1-9L1"; // 500 men, the first row of the example result

/// The example campaign as `sowbridge demo` makes it, with its battle of Medellín exported:
/// the folder it was made in and its campaign folder.
fn demo() -> (tempfile::TempDir, PathBuf) {
    let tmp = tempfile::tempdir().unwrap();
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sowbridge"));
    cmd.arg("demo").current_dir(tmp.path()).env_remove("SOWBRIDGE_CAMPAIGN");
    assert_code(&output(&mut cmd), 0);
    let dir = tmp.path().join("sowbridge-demo/campaign");
    (tmp, dir)
}

/// The example result with the rows `wiped` picks (by unit and force) losing every man:
/// killed = men - `missing`, the rest missing; written beside the campaign.
fn wipe(tmp: &Path, wiped: impl Fn(&str, &str) -> bool, missing: u32) -> PathBuf {
    let example = tmp.join("sowbridge-demo/T20-18.28-example.result.csv");
    let text = std::fs::read_to_string(example).unwrap();
    let mut lines = text.lines();
    let header = lines.next().unwrap();
    let cols: Vec<&str> = header.split(',').collect();
    let at = |name: &str| cols.iter().position(|c| *c == name).unwrap();
    let (unit, force, men) = (at("unit"), at("force"), at("men"));
    let (killed, wounded, miss) = (at("killed"), at("wounded"), at("missing"));
    let mut out = format!("{header}\n");
    for line in lines {
        let mut f: Vec<String> = line.split(',').map(str::to_string).collect();
        if wiped(&f[unit], &f[force]) {
            let m: u32 = f[men].parse().unwrap();
            f[killed] = (m - missing).to_string();
            f[wounded] = "0".to_string();
            f[miss] = missing.to_string();
        }
        out.push_str(&f.join(","));
        out.push('\n');
    }
    let p = tmp.join("wipe.csv");
    std::fs::write(&p, out).unwrap();
    p
}

/// Men of one row of `forces.csv` (`None` when the field is empty).
fn men_of(dir: &Path, id: &str) -> Option<String> {
    let text = std::fs::read_to_string(dir.join("forces.csv")).unwrap();
    let mut rdr = csv::Reader::from_reader(text.as_bytes());
    let h = rdr.headers().unwrap().clone();
    let (i, m) = (h.iter().position(|x| x == "id")?, h.iter().position(|x| x == "men")?);
    rdr.records().map(|r| r.unwrap()).find(|r| &r[i] == id).map(|r| r[m].to_string())
}

#[test]
fn a_battalion_wiped_out_is_read_by_every_later_command() {
    let (tmp, dir) = demo();
    let result = wipe(tmp.path(), |u, _| u == WIPED, 0);
    assert_code(&sowbridge(&dir, &["apply", result.to_str().unwrap()]), 0);
    assert_eq!(men_of(&dir, WIPED).as_deref(), Some("0"), "apply writes an explicit 0");

    let o = sowbridge(&dir, &["check"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("is valid"), "{}", stdout(&o));
    assert_code(&sowbridge(&dir, &["status"]), 0);
    assert_code(&sowbridge(&dir, &["status", "--json"]), 0);
    assert_code(&sowbridge(&dir, &["battle", "show", "T20-18.28", "--briefing", "french"]), 0);

    // The next battle at Medellín: the battalion is left out of the SoW order of battle,
    // and the export says so.
    let out = tmp.path().join("out2");
    let o = sowbridge(&dir, &["export", "hex", "18.28", "--out", out.to_str().unwrap()]);
    assert_code(&o, 0);
    assert!(
        stdout(&o).contains("no men present, left out of the SoW order of battle: FR-I-RUF-1-9L1"),
        "{}",
        stdout(&o)
    );
    let rows = sow_rows(&out.join("OOBs/T20-18.28-2.csv"));
    assert!(!rows.iter().any(|r| r[0] == "9e L\u{e9}ger 1st Bn"), "the wiped battalion was exported");
    assert!(rows.iter().any(|r| r[0] == "9e L\u{e9}ger 2nd Bn"), "its brigade's other battalions fight");
    assert!(rows.iter().skip(1).all(|r| r[18] != "0"), "a SoW row of 0 men");

    let o = sowbridge(&dir, &["turn", "advance"]);
    assert_code(&o, 0);
    assert_eq!(men_of(&dir, WIPED).as_deref(), Some("0"), "no return was due to it");
    assert_code(&sowbridge(&dir, &["check"]), 0);
    assert_code(&sowbridge(&dir, &["audit"]), 0);
}

#[test]
fn undo_takes_back_a_battle_that_wiped_out_a_battalion_byte_for_byte() {
    let (tmp, dir) = demo();
    let result = wipe(tmp.path(), |u, _| u == WIPED, 0);
    let before = snapshot(&dir);
    assert_code(&sowbridge(&dir, &["apply", result.to_str().unwrap()]), 0);
    assert_ne!(snapshot(&dir)["forces.csv"], before["forces.csv"]);
    let o = sowbridge(&dir, &["undo", "T20-18.28"]);
    assert_code(&o, 0);
    let after = snapshot(&dir);
    for (file, bytes) in &before {
        if file == "battles/T20-18.28/battle.json" {
            continue; // the battle's record says it was undone
        }
        assert!(after.get(file) == Some(bytes), "{file} is not as it was before the apply");
    }
    let o = sowbridge(&dir, &["audit"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("every man is accounted for"), "{}", stdout(&o));
    assert_code(&sowbridge(&dir, &["check"]), 0);
}

#[test]
fn a_force_wiped_out_has_no_zone_of_control_and_its_returns_refill_it() {
    let (tmp, dir) = demo();
    // The dragoons of Latour-Maubourg lose every man, 10 of each unit straggling back.
    let result = wipe(tmp.path(), |_, f| f == "FR-LM", 10);
    assert_code(&sowbridge(&dir, &["apply", result.to_str().unwrap()]), 0);
    assert_eq!(men_of(&dir, "FR-LM-1-1DR").as_deref(), Some("0"));

    let o = sowbridge(&dir, &["status"]);
    assert_code(&o, 0);
    let line = stdout(&o).lines().find(|l| l.contains("FR-LM ")).unwrap().to_string();
    assert!(line.contains("no men present"), "{line}");
    let j: serde_json::Value =
        serde_json::from_str(&stdout(&sowbridge(&dir, &["status", "--json"]))).unwrap();
    let in_contact =
        j["contacts"].as_array().unwrap().iter().any(|k| k["french"].to_string().contains("FR-LM"));
    assert!(!in_contact, "a force with no men is in contact: {}", j["contacts"]);
    let o = sowbridge(&dir, &["supply"]);
    assert_code(&o, 0);
    let line = stdout(&o).lines().find(|l| l.contains("FR-LM ")).unwrap().to_string();
    assert!(line.contains("no men present; the line carries") && line.contains(" 44 of 75 guns"), "{line}");

    // The battle at Medellín again: the dragoons at 20.29 no longer join it.
    let out = tmp.path().join("out2");
    let o = sowbridge(&dir, &["export", "hex", "18.28", "--out", out.to_str().unwrap()]);
    assert_code(&o, 0);
    assert!(!stdout(&o).contains("FR-LM"), "{}", stdout(&o));

    // Next turn its stragglers come back: the force has men again, and its zone with them.
    assert_code(&sowbridge(&dir, &["turn", "advance"]), 0);
    assert_eq!(men_of(&dir, "FR-LM-1-1DR").as_deref(), Some("8"), "85 % of 10 stragglers return");
    let o = sowbridge(&dir, &["status"]);
    let line = stdout(&o).lines().find(|l| l.contains("FR-LM ")).unwrap().to_string();
    assert!(!line.contains("no men present"), "{line}");
    assert_code(&sowbridge(&dir, &["audit"]), 0);
}

#[test]
fn an_empty_men_field_is_still_refused() {
    let (_tmp, dir) = demo();
    let text = std::fs::read_to_string(dir.join("forces.csv")).unwrap();
    let row = text.lines().find(|l| l.starts_with(WIPED)).unwrap();
    std::fs::write(dir.join("forces.csv"), text.replace(row, &row.replace(",500,", ",,"))).unwrap();
    let o = sowbridge(&dir, &["check"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("forces.csv:5: men: a battalion without men"), "{}", stderr(&o));
    // A hand-typed 0 is a battalion with no men present, as apply writes it.
    std::fs::write(dir.join("forces.csv"), text.replace(row, &row.replace(",500,", ",0,"))).unwrap();
    assert_code(&sowbridge(&dir, &["check"]), 0);
}
