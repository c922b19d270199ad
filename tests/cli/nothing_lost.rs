//! Nothing lost, nothing doubled: a battle record restored from a backup, a state file
//! re-saved by a spreadsheet, a journal damaged, hand edits that make men, inputs cut short or
//! past any plausible number. Interrupted commands are in `interrupted.rs`.

use std::process::Command;

use crate::common::*;

pub(crate) const BATTLE: &str = "T20-18.28";

fn losses(kind: &str, _u: Option<&str>, men: u32) -> RowLosses {
    if kind == "unit" { (men / 8, men / 25, men / 9) } else { (0, 0, 0) }
}

fn other_losses(kind: &str, _u: Option<&str>, men: u32) -> RowLosses {
    if kind == "unit" { (men / 10, men / 20, men / 12) } else { (0, 0, 0) }
}

/// A campaign with Medellín exported and its dump written; returns the dump's path.
pub(crate) fn ready() -> (Camp, std::path::PathBuf) {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let p = c.tmp.path().join("sowgb_gamedb_1.csv");
    std::fs::write(&p, dump_for(&c, BATTLE, losses)).unwrap();
    (c, p)
}

pub(crate) fn count(c: &Camp, kind: &str) -> usize {
    c.read("journal.jsonl").lines().filter(|l| l.contains(&format!("\"kind\":\"{kind}\""))).count()
}

pub(crate) fn run_env(c: &Camp, env: &[(&str, &str)], args: &[&str]) -> std::process::Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sowbridge"));
    cmd.arg("--campaign").arg(&c.dir).args(args).env_remove("SOWBRIDGE_CAMPAIGN");
    for (k, v) in env {
        cmd.env(k, v);
    }
    output(&mut cmd)
}

#[test]
fn a_result_applied_again_after_its_battle_record_is_restored_from_a_backup_is_refused() {
    let (c, dump) = ready();
    let record = format!("battles/{BATTLE}/battle.json");
    let backup = std::fs::read(c.path(&record)).unwrap();
    assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
    let applied = c.snapshot();
    // The record as it was before the battle, from a backup or a `git checkout`.
    std::fs::write(c.path(&record), &backup).unwrap();
    let before = c.snapshot();
    let again = c.run(&["apply", dump.to_str().unwrap()]);
    assert_code(&again, 1);
    assert!(
        stderr(&again).contains("already applied to battle T20-18.28 by journal entry 1"),
        "{}",
        stderr(&again)
    );
    assert!(c.snapshot() == before, "a refused apply changed the campaign");
    // Another result of the same battle: the journal says the battle stands applied.
    let other = c.tmp.path().join("sowgb_gamedb_2.csv");
    std::fs::write(&other, dump_for(&c, BATTLE, other_losses)).unwrap();
    let o = c.run(&["apply", other.to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("was applied by journal entry 1"), "{}", stderr(&o));
    assert!(stderr(&o).contains("restored from a backup"), "{}", stderr(&o));
    assert!(c.snapshot() == before, "a refused apply changed the campaign");
    assert_eq!(count(&c, "apply"), 1);
    // audit sees the record behind the journal.
    let a = c.run(&["audit"]);
    assert_code(&a, 1);
    assert!(
        stderr(&a).contains("journal entry 1 applied it, but the record says exported"),
        "{}",
        stderr(&a)
    );
    // Undo goes by the journal; then the other result applies once.
    assert_code(&c.run(&["undo", BATTLE]), 0);
    assert_code(&c.run(&["apply", other.to_str().unwrap()]), 0);
    assert_code(&c.run(&["audit"]), 0);
    assert_ne!(c.snapshot(), applied);
}

/// Men of every row of a `forces.csv` however it was saved (BOM, Windows-1252, `;`, quotes,
/// any column order).
fn men_any(bytes: &[u8]) -> std::collections::BTreeMap<String, String> {
    let text: String = match std::str::from_utf8(bytes) {
        Ok(s) => s.trim_start_matches('\u{feff}').to_string(),
        Err(_) => bytes.iter().map(|&b| b as char).collect(),
    };
    let sep = if text.lines().next().unwrap().contains(';') { b';' } else { b',' };
    let mut rdr = csv::ReaderBuilder::new().delimiter(sep).from_reader(text.as_bytes());
    let h = rdr.headers().unwrap().clone();
    let id = h.iter().position(|x| x == "id").unwrap();
    let m = h.iter().position(|x| x == "men").unwrap();
    rdr.records().map(|r| r.unwrap()).map(|r| (r[id].to_string(), r[m].to_string())).collect()
}

/// A CSV text written again with the csv crate: `sep`, every field quoted or not, the
/// columns in the order `order` gives, line ends `crlf`.
fn resave(text: &str, sep: u8, quote_all: bool, order: impl Fn(usize) -> Vec<usize>, crlf: bool) -> String {
    let mut rdr = csv::ReaderBuilder::new().has_headers(false).from_reader(text.as_bytes());
    let rows: Vec<csv::StringRecord> = rdr.records().map(|r| r.unwrap()).collect();
    let cols = order(rows[0].len());
    let mut w = csv::WriterBuilder::new()
        .delimiter(sep)
        .quote_style(if quote_all { csv::QuoteStyle::Always } else { csv::QuoteStyle::Necessary })
        .terminator(if crlf { csv::Terminator::CRLF } else { csv::Terminator::Any(b'\n') })
        .from_writer(Vec::new());
    for r in &rows {
        w.write_record(cols.iter().map(|&i| r.get(i).unwrap_or(""))).unwrap();
    }
    String::from_utf8(w.into_inner().unwrap()).unwrap()
}

/// A way of saving a file again.
type Resave = Box<dyn Fn(&str) -> Vec<u8>>;

/// Every way a spreadsheet saves `forces.csv` again without changing a value.
fn resaves() -> Vec<(&'static str, Resave)> {
    let same = |n: usize| (0..n).collect::<Vec<_>>();
    vec![
        ("CRLF", Box::new(|t: &str| t.replace('\n', "\r\n").into_bytes())),
        (
            "Excel CSV UTF-8",
            Box::new(|t: &str| [&b"\xEF\xBB\xBF"[..], t.replace('\n', "\r\n").as_bytes()].concat()),
        ),
        (
            "; in Windows-1252",
            Box::new(move |t: &str| {
                resave(t, b';', false, same, true)
                    .chars()
                    .map(|ch| u8::try_from(u32::from(ch)).unwrap())
                    .collect()
            }),
        ),
        (
            "rows sorted",
            Box::new(|t: &str| {
                let mut lines: Vec<&str> = t.lines().collect();
                lines[1..].sort_unstable_by(|a, b| b.cmp(a));
                (lines.join("\n") + "\n").into_bytes()
            }),
        ),
        (
            "columns reordered",
            Box::new(|t: &str| resave(t, b',', false, |n| (0..n).rev().collect(), false).into_bytes()),
        ),
        ("fields quoted", Box::new(move |t: &str| resave(t, b',', true, same, false).into_bytes())),
    ]
}

#[test]
fn a_spreadsheet_save_of_forces_csv_never_blocks_undo() {
    for (how, save) in resaves() {
        let (c, dump) = ready();
        let before = men_any(&std::fs::read(c.path("forces.csv")).unwrap());
        assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
        let applied = men_any(&std::fs::read(c.path("forces.csv")).unwrap());
        assert_ne!(applied, before);
        let saved = save(&c.read("forces.csv"));
        std::fs::write(c.path("forces.csv"), &saved).unwrap();
        assert_eq!(men_any(&saved), applied, "{how}: the re-save changed a value");
        let o = c.run(&["undo", BATTLE]);
        assert_code(&o, 0);
        let now = std::fs::read(c.path("forces.csv")).unwrap();
        assert_eq!(men_any(&now), before, "{how}: the undo did not restore the men");
        assert_eq!(now.starts_with(b"\xEF\xBB\xBF"), saved.starts_with(b"\xEF\xBB\xBF"), "{how}");
        assert_eq!(now.windows(2).any(|w| w == b"\r\n"), saved.windows(2).any(|w| w == b"\r\n"), "{how}");
        assert_code(&c.run(&["audit"]), 0);
        assert_code(&c.run(&["check"]), 0);
    }
}

#[test]
fn a_spreadsheet_save_never_blocks_undo_turn_but_a_real_conflict_does() {
    let (c, dump) = ready();
    let fresh = men_any(c.read("forces.csv").as_bytes());
    assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
    let toml = c.read("campaign.toml");
    assert_code(&c.run(&["turn", "advance"]), 0);
    let saved = [&b"\xEF\xBB\xBF"[..], c.read("forces.csv").replace('\n', "\r\n").as_bytes()].concat();
    std::fs::write(c.path("forces.csv"), &saved).unwrap();
    assert_code(&c.run(&["undo", "turn"]), 0);
    assert_eq!(c.read("campaign.toml"), toml);
    assert_code(&c.run(&["audit"]), 0);
    // A value the battle set, changed by hand since: named with both values.
    let text = c.read("forces.csv");
    let men = men_any(text.as_bytes());
    let (unit, was) = men.iter().find(|(u, m)| fresh.get(*u) != Some(m)).unwrap();
    let line =
        text.lines().find(|l| l.trim_start_matches('\u{feff}').starts_with(&format!("{unit},"))).unwrap();
    let edited_line = line.replace(&format!(",{was},"), ",1,");
    assert_ne!(line, edited_line);
    std::fs::write(c.path("forces.csv"), text.replace(line, &edited_line)).unwrap();
    let before = c.snapshot();
    let o = c.run(&["undo", BATTLE]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains(&format!("forces.csv: {unit}, men: is 1 now, the change to take back left it {was}")),
        "{err}"
    );
    assert!(c.snapshot() == before, "a refused undo changed the campaign");
}

/// A hand result for Medellín: every exported unit with 5 killed, the last with 18 captured.
fn hand_result(c: &Camp) -> String {
    let template = stdout(&c.run(&["battle", "template", BATTLE]));
    let mut rdr = csv::Reader::from_reader(template.as_bytes());
    let h = rdr.headers().unwrap().clone();
    let unit = h.iter().position(|x| x == "unit").unwrap();
    let units: Vec<String> = rdr.records().map(|r| r.unwrap()[unit].to_string()).collect();
    let mut s = String::from("battle,unit,killed,wounded,missing,captured\n");
    for (i, u) in units.iter().enumerate() {
        let captured = if i + 1 == units.len() { 18 } else { 0 };
        s.push_str(&format!("{BATTLE},{u},5,0,0,{captured}\n"));
    }
    s
}

#[test]
fn a_hand_result_cut_inside_its_last_number_is_refused() {
    let (c, _) = ready();
    let whole = hand_result(&c);
    assert!(whole.ends_with(",18\n"));
    let file = c.tmp.path().join("T20-18.28.result.csv");
    std::fs::write(&file, &whole[..whole.len() - 2]).unwrap();
    let before = c.snapshot();
    let o = c.run(&["apply", file.to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("truncated: the last line has no line ending"), "{}", stderr(&o));
    assert!(c.snapshot() == before, "a refused result changed the campaign");
    std::fs::write(&file, &whole).unwrap();
    assert_code(&c.run(&["apply", file.to_str().unwrap()]), 0);
}

#[test]
fn a_duplicated_column_is_refused_in_every_csv_naming_it() {
    let (c, dump) = ready();
    let before = c.snapshot();
    // A hand result.
    let result = hand_result(&c).replacen("captured\n", "captured,killed\n", 1).replace(",0\n", ",0,9\n");
    let file = c.tmp.path().join("dup.result.csv");
    std::fs::write(&file, result.replace(",18\n", ",18,9\n")).unwrap();
    let o = c.run(&["apply", file.to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("killed: the column is named twice in the header (columns 3 and 7)"),
        "{}",
        stderr(&o)
    );
    assert!(c.snapshot() == before);
    // An orders file.
    let orders = c.tmp.path().join("orders.csv");
    std::fs::write(&orders, "force,to,to\nBR-LIS,10.29,04.29\n").unwrap();
    let o = c.run(&["move", orders.to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("to: the column is named twice in the header"), "{}", stderr(&o));
    assert!(c.snapshot() == before);
    // The startlocs.csv beside a dump.
    let mut locs = String::from_utf8(final_startlocs(&c, BATTLE)).unwrap();
    locs = locs.replacen("Head Count,", "Head Count,Ammo,", 1);
    let dir = c.tmp.path().join("Work");
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(&dump, dir.join("sowgb_gamedb_1.csv")).unwrap();
    std::fs::write(dir.join("startlocs.csv"), locs).unwrap();
    let o = c.run(&["apply", dir.join("sowgb_gamedb_1.csv").to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("Ammo: the column is named twice in the header (columns 2 and 9)"),
        "{}",
        stderr(&o)
    );
    assert!(c.snapshot() == before);
    // A campaign file.
    let forces = c.read("forces.csv");
    let (head, rest) = forces.split_once('\n').unwrap();
    let doubled: String = std::iter::once(format!("{head},men"))
        .chain(rest.lines().map(|l| format!("{l},")))
        .map(|l| l + "\n")
        .collect();
    c.write("forces.csv", &doubled);
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("forces.csv:1: men: the column is named twice in the header"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn numbers_near_two_to_the_32_are_refused_not_wrapped() {
    let c = Camp::new("peninsula");
    let fresh = c.snapshot();
    // A turn past any campaign: turn advance would wrap it to 0.
    c.write("campaign.toml", &c.read("campaign.toml").replace("turn = 20", "turn = 4294967295"));
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("campaign.toml: turn: must be from 1 to 1000"), "{}", stderr(&o));
    let before = c.snapshot();
    assert_code(&c.run(&["turn", "advance"]), 1);
    assert!(c.snapshot() == before, "a refused turn advance changed the campaign");
    // The last turn a campaign may reach does not advance past it.
    c.write("campaign.toml", &c.read("campaign.toml").replace("turn = 4294967295", "turn = 1000"));
    let o = c.run(&["turn", "advance"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("turn 1000 is the last a campaign may reach"), "{}", stderr(&o));
    c.write("campaign.toml", &String::from_utf8(fresh["campaign.toml"].clone()).unwrap());
    // A row's men past any unit.
    let forces = c.read("forces.csv");
    let huge = forces.replacen(",line,800,", ",line,4294967295,", 1);
    let line = huge.lines().position(|l| l.contains("4294967295")).unwrap() + 1;
    c.write("forces.csv", &huge);
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    let want =
        format!("forces.csv:{line}: men: 4294967295 is more than one row's men can be (at most 100000)");
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    // Rows each within the limit that add up past any campaign.
    let mut rdr = csv::Reader::from_reader(forces.as_bytes());
    let h = rdr.headers().unwrap().clone();
    let m = h.iter().position(|x| x == "men").unwrap();
    let mut w = csv::Writer::from_writer(Vec::new());
    w.write_record(&h).unwrap();
    let mut rows = 0;
    for r in rdr.records() {
        let r = r.unwrap();
        let full = !r[m].is_empty();
        rows += usize::from(full);
        w.write_record(r.iter().enumerate().map(|(i, x)| if i == m && full { "99999" } else { x })).unwrap();
    }
    assert!(rows * 99_999 > 10_000_000, "{rows} rows with men");
    c.write("forces.csv", &String::from_utf8(w.into_inner().unwrap()).unwrap());
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("men: the order of battle counts"), "{}", stderr(&o));
    assert!(stderr(&o).contains("more than any campaign can hold (at most 10000000)"), "{}", stderr(&o));
    // returns.csv: a return past any unit.
    c.write("forces.csv", &forces);
    c.write(
        "returns.csv",
        "turn,unit,men,kind,battle\n21,SP-EXT-DER-1-LFS,4294967295,stragglers,T20-18.28\n",
    );
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("returns.csv:2: men: 4294967295 is more than one return's men"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_deleted_journal_is_reported_not_taken_for_a_fresh_campaign() {
    let (c, dump) = ready();
    assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
    std::fs::remove_file(c.path("journal.jsonl")).unwrap();
    let o = c.run(&["audit"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains(
            "journal.jsonl: journal.jsonl ends at entry 0, but the campaign's files were written with entry 1"
        ),
        "{err}"
    );
    assert!(
        err.contains("battles/T20-18.28/battle.json: applied, but journal.jsonl has no entry at all"),
        "{err}"
    );
    assert!(!stdout(&o).contains("nothing has been applied"), "{}", stdout(&o));
    let before = c.snapshot();
    let o = c.run(&["turn", "advance"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("the journal is missing"), "{}", stderr(&o));
    assert!(c.snapshot() == before, "a writer went on over a lost journal");
    // A campaign from before the journal's head: the baseline says a journal was begun.
    std::fs::remove_file(c.path("journal-head.txt")).unwrap();
    let o = c.run(&["turn", "advance"]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("journal.jsonl is missing, but journal-baseline/ shows a journal was begun"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn a_journal_one_entry_short_is_never_journalled_as_a_hand_edit() {
    let (c, dump) = ready();
    assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
    assert_code(&c.run(&["turn", "advance"]), 0);
    let journal = c.read("journal.jsonl");
    let short: String = journal.lines().take(journal.lines().count() - 1).map(|l| format!("{l}\n")).collect();
    c.write("journal.jsonl", &short);
    let o = c.run(&["audit"]);
    assert_code(&o, 1);
    assert!(
        stderr(&o)
            .contains("journal.jsonl ends at entry 1, but the campaign's files were written with entry 2"),
        "{}",
        stderr(&o)
    );
    let before = c.snapshot();
    let orders = fixture("orders").join("lisbon-elvas.csv");
    let o = c.run(&["move", orders.to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("the journal is short"), "{}", stderr(&o));
    assert!(c.snapshot() == before, "the gap was journalled");
    assert!(!c.read("journal.jsonl").contains("manual-edit"));
    // The journal put back, all is well again.
    c.write("journal.jsonl", &journal);
    assert_code(&c.run(&["audit"]), 0);
    assert_code(&c.run(&["move", orders.to_str().unwrap()]), 0);
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn check_refuses_a_damaged_battle_record_or_journal_line_and_rules_export_would_refuse() {
    let (c, dump) = ready();
    assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
    assert_code(&c.run(&["check"]), 0);
    // A battle record cut short.
    let rec = format!("battles/{BATTLE}/battle.json");
    let whole = c.read(&rec);
    c.write(&rec, &whole[..whole.len() / 2]);
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains(&format!("{rec}:")), "{}", stderr(&o));
    assert!(stderr(&o).contains("not a battle record sowbridge can read"), "{}", stderr(&o));
    c.write(&rec, &whole);
    // A journal line that is not JSON.
    let journal = c.read("journal.jsonl");
    c.write("journal.jsonl", &format!("{journal}this is not an entry\n"));
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    let line = journal.lines().count() + 1;
    assert!(
        stderr(&o).contains(&format!("journal.jsonl:{line}: not a journal entry sowbridge can read")),
        "{}",
        stderr(&o)
    );
    c.write("journal.jsonl", &journal);
    assert_code(&c.run(&["check"]), 0);
    // rules.toml values that read but that export could not use.
    c.write("rules.toml", "[battle]\nstart_time = \"25:99:00\"\n\n[verdict]\nwin_ratio = 0\n");
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("rules.toml: battle.start_time: '25:99:00' is not a time of day"), "{err}");
    assert!(err.contains("rules.toml: verdict.win_ratio: 0 is below 1"), "{err}");
}

/// `/dev/full` takes no byte (Linux only): output lost for a reason other than a closed pipe.
#[cfg(target_os = "linux")]
#[test]
fn output_that_cannot_be_written_is_not_a_success() {
    let c = Camp::new("peninsula");
    let full = std::fs::OpenOptions::new().write(true).open("/dev/full").unwrap();
    let o = output(
        Command::new(env!("CARGO_BIN_EXE_sowbridge"))
            .arg("--campaign")
            .arg(&c.dir)
            .arg("status")
            .env_remove("SOWBRIDGE_CAMPAIGN")
            .stdout(full),
    );
    assert_code(&o, 2);
    assert!(stderr(&o).contains("error: the output could not be written"), "{}", stderr(&o));
}

/// A state file that is a symbolic link to a file kept elsewhere. Unix only: creating a
/// symbolic link on Windows needs a privilege the tests do not have.
#[cfg(unix)]
#[test]
fn a_symlinked_state_file_is_never_replaced_by_a_plain_file() {
    let (c, dump) = ready();
    let elsewhere = c.tmp.path().join("forces-kept-elsewhere.csv");
    std::fs::rename(c.path("forces.csv"), &elsewhere).unwrap();
    std::os::unix::fs::symlink(&elsewhere, c.path("forces.csv")).unwrap();
    let kept = std::fs::read(&elsewhere).unwrap();
    let before = c.snapshot();
    let o = c.run(&["apply", dump.to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("forces.csv is a symbolic link"), "{}", stderr(&o));
    assert!(std::fs::symlink_metadata(c.path("forces.csv")).unwrap().file_type().is_symlink());
    assert_eq!(std::fs::read(&elsewhere).unwrap(), kept);
    assert!(c.snapshot() == before, "a refused apply changed the campaign");
}

#[test]
fn hand_edits_that_make_men_fail_audit() {
    // A returns.csv row added by hand, and one duplicated.
    for how in ["added", "duplicated"] {
        let (c, dump) = ready();
        assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
        let returns = c.read("returns.csv");
        let row = returns.lines().nth(1).unwrap().to_string();
        let extra = if how == "added" { row.replace(",T20-18.28", ",") } else { row.clone() };
        c.write("returns.csv", &format!("{returns}{extra}\n"));
        let o = c.run(&["audit"]);
        assert_code(&o, 1);
        assert!(stderr(&o).contains("a manual edit of returns.csv added"), "{how}: {}", stderr(&o));
        // Journalled by the next writer, it still fails.
        assert_code(&c.run(&["turn", "advance"]), 0);
        let o = c.run(&["audit"]);
        assert_code(&o, 1);
        assert!(
            stderr(&o).contains("journal.jsonl entry 2: a manual edit of returns.csv added"),
            "{how}: {}",
            stderr(&o)
        );
    }
    // forces.csv put back from a copy older than the battle.
    let (c, dump) = ready();
    let old = c.read("forces.csv");
    assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
    c.write("forces.csv", &old);
    let o = c.run(&["audit"]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains("a manual edit put back the men every unit had before battle T20-18.28"),
        "{}",
        stderr(&o)
    );
}

#[test]
fn returns_of_a_unit_not_in_forces_csv_are_refused_by_check() {
    let (c, dump) = ready();
    assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
    assert_code(&c.run(&["check"]), 0);
    // A unit renamed in forces.csv alone: its men due back would vanish.
    let returns = c.read("returns.csv");
    let unit = returns.lines().nth(1).unwrap().split(',').nth(1).unwrap().to_string();
    let forces = c.read("forces.csv");
    c.write("forces.csv", &forces.replacen(&format!("\n{unit},"), &format!("\n{unit}-NEW,"), 1));
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    let want = format!("returns.csv:2: unit: '{unit}' is not in forces.csv");
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    assert!(stderr(&o).contains("rename it here too"), "{}", stderr(&o));
    // A row for a unit that never was.
    c.write("forces.csv", &forces);
    c.write("returns.csv", &format!("{returns}21,NO-SUCH-UNIT,10,stragglers,T20-18.28\n"));
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("unit: 'NO-SUCH-UNIT' is not in forces.csv"), "{}", stderr(&o));
}

#[test]
fn the_men_due_back_to_a_force_taken_prisoner_go_with_it() {
    let c = Camp::new("peninsula");
    c.write("returns.csv", "turn,unit,men,kind,battle\n40,FR-TOL-28L4,25,wounded,T19-28.23\n");
    assert_code(&c.run(&["check"]), 0);
    // Toledo holds out 1 to 4 turns (7.1.1), then its garrison is taken prisoner.
    for _ in 0..6 {
        assert_code(&c.run(&["turn", "advance"]), 0);
    }
    assert!(!c.read("forces.csv").contains("FR-TOL-"), "the garrison is prisoner");
    assert!(!c.read("returns.csv").contains("FR-TOL-28L4"), "its men due back are taken with it");
    assert_code(&c.run(&["check"]), 0);
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn audit_fails_on_two_standing_applies_of_one_battle() {
    let (c, dump) = ready();
    assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
    assert_code(&c.run(&["audit"]), 0);
    // A journal that applied the battle twice, as one written before the journal was the
    // authority could: a second apply entry of the battle with no undo between.
    let journal = c.read("journal.jsonl");
    let mut second: serde_json::Value = serde_json::from_str(journal.lines().last().unwrap()).unwrap();
    second["seq"] = serde_json::json!(2);
    second["changes"] = serde_json::json!([]);
    second["carryover"] = serde_json::json!([]);
    c.write("journal.jsonl", &format!("{journal}{second}\n"));
    c.write("journal-head.txt", "2\n");
    let o = c.run(&["audit"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains(
            "journal.jsonl entry 2: battle T20-18.28 applied a second time: journal entry 1 applied it"
        ),
        "{err}"
    );
}

/// Sets the mode bits of every file and folder below `dir` (and `dir` itself).
#[cfg(unix)]
fn set_modes(dir: &std::path::Path, folders: u32, files: u32) {
    use std::os::unix::fs::PermissionsExt;
    for e in walkdir::WalkDir::new(dir) {
        let e = e.unwrap();
        let mode = if e.file_type().is_dir() { folders } else { files };
        std::fs::set_permissions(e.path(), std::fs::Permissions::from_mode(mode)).unwrap();
    }
}

/// A campaign where nothing may be written (a backup, a read-only share). Unix only: it is
/// made read-only by its mode bits; a test run as root, who may write anywhere, runs the
/// binary as `nobody` with `setpriv`.
#[cfg(unix)]
#[test]
fn audit_runs_on_a_read_only_campaign() {
    let (c, dump) = ready();
    assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
    set_modes(c.tmp.path(), 0o555, 0o444);
    let privileged = std::fs::write(c.path("probe"), "").is_ok();
    let _ = std::fs::remove_file(c.path("probe"));
    let bin = env!("CARGO_BIN_EXE_sowbridge");
    let mut cmd = Command::new(if privileged { "setpriv" } else { bin });
    if privileged {
        cmd.args(["--reuid=65534", "--regid=65534", "--clear-groups", bin]);
    }
    let o = output(cmd.arg("--campaign").arg(&c.dir).arg("audit").env_remove("SOWBRIDGE_CAMPAIGN"));
    set_modes(c.tmp.path(), 0o755, 0o644);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("every man is accounted for"), "{}", stdout(&o));
}
