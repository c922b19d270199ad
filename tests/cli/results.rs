//! Results you can trust: no stale, interim, doubled or misread result reaches the campaign,
//! and every refusal leaves it byte for byte as it was. Real files through the real binary;
//! the watcher on a real folder with real file events.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant, SystemTime};

use crate::common::*;
use crate::watch::{finish, start_with};

const MEDELLIN: &str = "T20-18.28";
const TOLEDO: &str = "T20-28.23";
const FINAL: &str = "sowgb_gamedb_03-28-09_15-00-00.csv";
const PERIODIC: &str = "sowgb_gamedb_03-28-09_10-30-00.csv";

fn losses(kind: &str, _unit: Option<&str>, men: u32) -> RowLosses {
    if kind == "unit" { (men / 10, men / 20, men / 10) } else { (0, 0, 0) }
}

/// A periodic dump: a small share of the final losses.
fn early_losses(kind: &str, _unit: Option<&str>, men: u32) -> RowLosses {
    if kind == "unit" { (men / 100, men / 200, 0) } else { (0, 0, 0) }
}

/// The fixture with Medellín exported, and an empty inbox.
fn medellin() -> (Camp, PathBuf) {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let inbox = c.tmp.path().join("Work");
    std::fs::create_dir_all(&inbox).unwrap();
    (c, inbox)
}

/// Sets a file's modification time to `secs` after an arbitrary fixed moment of the battle.
fn stamp(path: &Path, secs: u64) {
    let t = SystemTime::UNIX_EPOCH + Duration::from_secs(1_800_000_000 + secs);
    std::fs::File::options().write(true).open(path).unwrap().set_modified(t).unwrap();
}

fn applied_entries(c: &Camp) -> usize {
    if !c.path("journal.jsonl").is_file() {
        return 0;
    }
    c.read("journal.jsonl").lines().filter(|l| l.contains("\"kind\":\"apply\"")).count()
}

fn battle_state(c: &Camp, id: &str) -> String {
    let rec: serde_json::Value = serde_json::from_str(&c.read(&format!("battles/{id}/battle.json"))).unwrap();
    rec["state"].as_str().unwrap().to_string()
}

// 1. An interim dump is never applied as the final result.

#[test]
fn a_startlocs_left_by_another_battle_never_makes_a_periodic_dump_final() {
    let (c, inbox) = medellin();
    let out = c.tmp.path().join("out2");
    assert_code(
        &c.run(&["export", "hex", "28.23", "--overrule", "2.5.3", "--out", out.to_str().unwrap()]),
        0,
    );
    // Medellín's final startlocs.csv lies in the inbox; Toledo's 10:30 dump arrives.
    std::fs::write(inbox.join("startlocs.csv"), final_startlocs(&c, MEDELLIN)).unwrap();
    std::fs::write(inbox.join(PERIODIC), dump_for(&c, TOLEDO, early_losses)).unwrap();
    let before = c.snapshot();
    let (code, err) = finish(start_with(&c, &inbox, 1, None, &[]), Duration::from_secs(4));
    assert_eq!(code, None, "the watcher should still be waiting: {err}");
    assert!(inbox.join(PERIODIC).is_file(), "{err}");
    assert!(err.contains("of battle T20-28.23's 31 exported units"), "{err}");
    assert!(err.contains("written by another battle"), "{err}");
    assert_eq!(c.snapshot(), before, "a periodic dump was applied");
}

#[test]
fn periodic_dumps_are_set_aside_as_interim_and_only_the_final_one_is_applied() {
    let (c, inbox) = medellin();
    // As the battlescript writes them: the 10:30 dump, then at the end dumplocs and two
    // seconds later the final dumpgamedb.
    std::fs::write(inbox.join(PERIODIC), dump_for(&c, MEDELLIN, early_losses)).unwrap();
    stamp(&inbox.join(PERIODIC), 0);
    std::fs::write(inbox.join("startlocs.csv"), final_startlocs(&c, MEDELLIN)).unwrap();
    stamp(&inbox.join("startlocs.csv"), 16_200);
    std::fs::write(inbox.join(FINAL), dump_for(&c, MEDELLIN, losses)).unwrap();
    stamp(&inbox.join(FINAL), 16_202);
    let (code, err) = finish(start_with(&c, &inbox, 2, None, &[]), Duration::from_secs(30));
    assert_eq!(code, Some(0), "{err}");
    assert_eq!(applied_entries(&c), 1, "{err}");
    assert!(inbox.join("processed").join(FINAL).is_file(), "{err}");
    assert!(inbox.join("interim").join(PERIODIC).is_file(), "{err}");
    let note = std::fs::read_to_string(inbox.join("interim").join(format!("{PERIODIC}.err"))).unwrap();
    assert!(note.contains("written 4 h 30 min before battle T20-18.28's final dumplocs"), "{note}");
    assert!(note.contains("sowbridge apply --interim"), "{note}");
    // The startlocs.csv used leaves the inbox with its dump.
    assert!(!inbox.join("startlocs.csv").exists(), "{err}");
    assert!(inbox.join("processed").join(format!("{FINAL}.startlocs.csv")).is_file(), "{err}");
    // The battle was decided on the final losses, and the report says why it was final.
    let report = c.read("battles/T20-18.28/report.md");
    assert!(report.contains("Result: final: the startlocs.csv beside it lists"), "{report}");
    assert!(report.contains("written 2 s after it"), "{report}");
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn by_hand_an_interim_dump_is_refused_unless_interim_is_said() {
    let (c, work) = medellin();
    std::fs::write(work.join(PERIODIC), dump_for(&c, MEDELLIN, early_losses)).unwrap();
    stamp(&work.join(PERIODIC), 0);
    std::fs::write(work.join("startlocs.csv"), final_startlocs(&c, MEDELLIN)).unwrap();
    stamp(&work.join("startlocs.csv"), 16_200);
    let before = c.snapshot();
    let dump = work.join(PERIODIC);
    let o = c.run(&["apply", dump.to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("an interim dump of battle T20-18.28"), "{}", stderr(&o));
    assert!(stderr(&o).contains("apply --interim"), "{}", stderr(&o));
    assert_eq!(c.snapshot(), before);
    // A battle that crashed: the umpire applies its last dump deliberately.
    let o = c.run(&["apply", "--interim", dump.to_str().unwrap()]);
    assert_code(&o, 0);
    assert!(
        c.read("battles/T20-18.28/report.md")
            .contains("Result: an interim dump, applied deliberately (--interim)")
    );
}

#[test]
fn a_startlocs_of_no_pending_battle_is_set_aside_with_a_note() {
    let (c, inbox) = medellin();
    let stray = "Name,Ammo,dir x,dir z,loc x,loc z,Formation,Head Count,Fatigue,Morale,14:59:57\r\n\
                 OOB_7_7_1_1_1_1,10,1,0,1000,1000,DRIL_Lvl6_Inf_Line,400,4,10\r\n";
    std::fs::write(inbox.join("startlocs.csv"), stray).unwrap();
    let before = c.snapshot();
    let (code, err) = finish(start_with(&c, &inbox, 1, None, &[]), Duration::from_secs(30));
    assert_eq!(code, Some(0), "{err}");
    assert!(inbox.join("rejected/startlocs.csv").is_file(), "{err}");
    let note = std::fs::read_to_string(inbox.join("rejected/startlocs.csv.err")).unwrap();
    assert!(note.contains("belongs to no pending battle"), "{note}");
    assert_eq!(c.snapshot(), before);
}

// 2. One contact, one battle.

#[test]
fn a_force_in_a_pending_battle_cannot_be_exported_into_another() {
    let (c, _) = medellin();
    let before = c.snapshot();
    let out = c.tmp.path().join("out-18.29");
    let o = c.run(&["export", "hex", "18.29", "--out", out.to_str().unwrap()]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.contains("already fight in battle T20-18.28 at 18.28"), "{err}");
    assert!(err.contains("nothing written"), "{err}");
    assert_eq!(c.snapshot(), before);
    assert!(!out.exists(), "SoW files were written");
    // --replace replaces that battle only: its result can no longer be applied.
    assert_code(&c.run(&["export", "hex", "18.29", "--replace", "--out", out.to_str().unwrap()]), 0);
    assert_eq!(battle_state(&c, "T20-18.28"), "replaced");
    assert_eq!(battle_state(&c, "T20-18.29"), "exported");
    let old = c.tmp.path().join("old.csv");
    std::fs::write(&old, dump_for(&c, MEDELLIN, losses)).unwrap();
    let before = c.snapshot();
    let o = c.run(&["apply", old.to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("replaced by a later export"), "{}", stderr(&o));
    assert_eq!(c.snapshot(), before);
}

// 3. Files still being written wait.

#[test]
fn a_dump_whose_writing_pauses_waits_and_is_applied_once_whole() {
    let (c, inbox) = medellin();
    std::fs::write(inbox.join("startlocs.csv"), final_startlocs(&c, MEDELLIN)).unwrap();
    let bytes = dump_for(&c, MEDELLIN, losses);
    let cut = bytes.len() / 2 + 7;
    let child = start_with(&c, &inbox, 1, None, &[]);
    std::fs::write(inbox.join(FINAL), &bytes[..cut]).unwrap();
    // Longer than the settle window: today's watcher judged it and set it aside as cut.
    std::thread::sleep(Duration::from_millis(1500));
    assert!(inbox.join(FINAL).is_file(), "a dump still being written left the inbox");
    assert!(!inbox.join("rejected").join(FINAL).exists());
    std::fs::write(inbox.join(FINAL), &bytes).unwrap();
    let (code, err) = finish(child, Duration::from_secs(30));
    assert_eq!(code, Some(0), "{err}");
    assert!(err.contains("waiting: still being written"), "{err}");
    assert_eq!(applied_entries(&c), 1);
    assert!(inbox.join("processed").join(FINAL).is_file());
    assert_eq!(std::fs::read_dir(inbox.join("rejected")).unwrap().count(), 0, "no tail file was made");
}

#[test]
fn a_dump_left_cut_is_set_aside_after_the_incomplete_limit() {
    let (c, inbox) = medellin();
    std::fs::write(inbox.join("startlocs.csv"), final_startlocs(&c, MEDELLIN)).unwrap();
    let bytes = dump_for(&c, MEDELLIN, losses);
    std::fs::write(inbox.join(FINAL), &bytes[..bytes.len() - 5]).unwrap();
    let before = c.snapshot();
    let (code, err) =
        finish(start_with(&c, &inbox, 1, None, &["--incomplete-limit", "2"]), Duration::from_secs(40));
    assert_eq!(code, Some(0), "{err}");
    let why = std::fs::read_to_string(inbox.join("rejected").join(format!("{FINAL}.err"))).unwrap();
    assert!(why.contains("stopped writing it mid-line"), "{why}");
    assert_eq!(c.snapshot(), before);
}

#[test]
fn a_startlocs_arriving_after_its_dump_rejudges_the_waiting_dump_at_once() {
    let (c, inbox) = medellin();
    std::fs::write(inbox.join(FINAL), dump_for(&c, MEDELLIN, losses)).unwrap();
    stamp(&inbox.join(FINAL), 16_202);
    let child = start_with(&c, &inbox, 1, None, &[]);
    std::thread::sleep(Duration::from_millis(1500));
    assert!(inbox.join(FINAL).is_file());
    // The startlocs.csv the game wrote two seconds before the dump arrives after it.
    let t = Instant::now();
    std::fs::write(inbox.join("startlocs.csv"), final_startlocs(&c, MEDELLIN)).unwrap();
    stamp(&inbox.join("startlocs.csv"), 16_200);
    let (code, err) = finish(child, Duration::from_secs(25));
    assert_eq!(code, Some(0), "{err}");
    // Waiting files are otherwise judged again every 30 s.
    assert!(t.elapsed() < Duration::from_secs(15), "took {:?}: {err}", t.elapsed());
    assert_eq!(applied_entries(&c), 1);
}

// 4. A dump is read as the game wrote it, or refused.

/// The dump with its 9th column (Status) deleted from the header and every row.
fn without_status(bytes: &[u8], killers: bool) -> Vec<u8> {
    let text: String = bytes.iter().map(|&b| char::from(b)).collect();
    let mut out = String::new();
    for line in text.split_inclusive("\r\n") {
        let body = line.trim_end_matches("\r\n");
        let mut f: Vec<&str> = body.split(',').collect();
        if f.len() >= 12 {
            f.remove(8);
            if !killers && f[0] != "Side" {
                f.truncate(11);
            }
        }
        out.push_str(&f.join(","));
        out.push_str("\r\n");
    }
    out.chars().map(|ch| u8::try_from(u32::from(ch)).unwrap_or(b'?')).collect()
}

#[test]
fn a_dump_without_its_status_column_is_refused_never_read_shifted() {
    for killers in [true, false] {
        let (c, work) = medellin();
        std::fs::write(work.join("startlocs.csv"), final_startlocs(&c, MEDELLIN)).unwrap();
        let dump = work.join(FINAL);
        std::fs::write(&dump, without_status(&dump_for(&c, MEDELLIN, losses), killers)).unwrap();
        let before = c.snapshot();
        let o = c.run(&["apply", dump.to_str().unwrap()]);
        assert_code(&o, 1);
        let err = stderr(&o);
        assert!(
            err.contains(&format!("{FINAL}:4: the header's column 9 is 'Deserted', not 'Status'")),
            "{err}"
        );
        let fields = if killers { 19 } else { 11 };
        assert!(
            err.contains(&format!("{FINAL}:5: {fields} fields; the dump layout is Side,Army,Corp")),
            "{err}"
        );
        assert_eq!(c.snapshot(), before, "killers: {killers}");
    }
}

// 5. A hand result names its battle.

#[test]
fn battle_cannot_override_the_battle_a_hand_result_names() {
    let (c, _) = medellin();
    let out = c.tmp.path().join("out2");
    assert_code(
        &c.run(&["export", "hex", "28.23", "--overrule", "2.5.3", "--out", out.to_str().unwrap()]),
        0,
    );
    let template = c.run(&["battle", "template", MEDELLIN]);
    assert_code(&template, 0);
    let file = c.tmp.path().join("medellin.result.csv");
    std::fs::write(&file, &template.stdout).unwrap();
    let before = c.snapshot();
    let o = c.run(&["apply", file.to_str().unwrap(), "--battle", TOLEDO]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("names battle T20-18.28 in its battle column, but --battle says T20-28.23"));
    assert_eq!(c.snapshot(), before);
}

// 6. One-line answers to the common mistakes.

fn error_lines(o: &std::process::Output) -> usize {
    stderr(o).lines().filter(|l| !l.trim().is_empty()).count()
}

#[test]
fn a_dump_of_a_battle_already_applied_or_of_none_gets_one_line() {
    let (c, work) = medellin();
    std::fs::write(work.join("startlocs.csv"), final_startlocs(&c, MEDELLIN)).unwrap();
    let dump = work.join(FINAL);
    std::fs::write(&dump, dump_for(&c, MEDELLIN, losses)).unwrap();
    assert_code(&c.run(&["apply", dump.to_str().unwrap()]), 0);
    let before = c.snapshot();
    // Another dump of the same battle (the periodic one, say), after it was applied.
    let other = c.tmp.path().join(PERIODIC);
    std::fs::write(&other, dump_for(&c, MEDELLIN, early_losses)).unwrap();
    let o = c.run(&["apply", other.to_str().unwrap()]);
    assert_code(&o, 1);
    assert_eq!(error_lines(&o), 1, "{}", stderr(&o));
    assert!(
        stderr(&o).contains("a result of battle T20-18.28 at Medellin (18.28), which is applied from"),
        "{}",
        stderr(&o)
    );
    assert!(stderr(&o).contains("nothing to do"), "{}", stderr(&o));
    // A dump of a game sowbridge never exported: every name is another.
    let foreign: Vec<u8> = dump_for(&c, MEDELLIN, losses)
        .split(|&b| b == b'\n')
        .map(|l| {
            let s = String::from_utf8_lossy(l).into_owned();
            let mut f: Vec<String> = s.split(',').map(str::to_string).collect();
            if f.len() > 7 && f[0].parse::<u32>().is_ok() {
                f[6] = format!("Union {}", f[6]);
            }
            f.join(",")
        })
        .collect::<Vec<_>>()
        .join("\n")
        .into_bytes();
    let foreign_path = c.tmp.path().join("sowgb_gamedb_other.csv");
    std::fs::write(&foreign_path, &foreign).unwrap();
    let o = c.run(&["apply", foreign_path.to_str().unwrap()]);
    assert_code(&o, 1);
    assert_eq!(error_lines(&o), 1, "{}", stderr(&o));
    assert!(stderr(&o).contains("a dump of no battle sowbridge exported"), "{}", stderr(&o));
    let v = c.run(&["apply", foreign_path.to_str().unwrap(), "--verbose"]);
    assert_code(&v, 1);
    assert!(stderr(&v).contains("Row by row against battle T20-18.28"), "{}", stderr(&v));
    assert!(error_lines(&v) > 10);
    assert_eq!(c.snapshot(), before);
}

#[test]
fn a_missing_file_is_one_message_and_exit_1() {
    let (c, _) = medellin();
    let before = c.snapshot();
    let o = c.run(&["apply", "no-such-result.csv"]);
    assert_code(&o, 1);
    assert_eq!(stderr(&o).trim(), "error: no-such-result.csv: no such file");
    assert_eq!(c.snapshot(), before);
}

// 7. A newcomer can practise the whole loop.

#[test]
fn the_shipped_example_result_runs_the_whole_battle_day() {
    let (c, _) = medellin();
    let example = repo().join("fixtures/results/T20-18.28-example.result.csv");
    let o = c.run(&["apply", example.to_str().unwrap()]);
    assert_code(&o, 0);
    assert!(stderr(&o).contains("to battle T20-18.28 (journal entry 1)"), "{}", stderr(&o));
    let show = c.run(&["battle", "show", MEDELLIN]);
    assert_code(&show, 0);
    assert!(stdout(&show).contains("**French victory.**"), "{}", stdout(&show));
    assert_code(&c.run(&["undo", MEDELLIN]), 0);
    assert_eq!(battle_state(&c, MEDELLIN), "undone");
    assert_code(&c.run(&["apply", example.to_str().unwrap()]), 0);
    let t = c.run(&["turn", "advance"]);
    assert_code(&t, 0);
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn a_filled_in_template_is_applied() {
    let (c, _) = medellin();
    let o = c.run(&["battle", "template", MEDELLIN]);
    assert_code(&o, 0);
    let text = stdout(&o);
    let header = text.lines().next().unwrap();
    assert_eq!(header, "battle,unit,name,side,force,men,guns,killed,wounded,missing,captured,guns_lost,ammo");
    let exported: serde_json::Value = serde_json::from_str(&c.read("battles/T20-18.28/battle.json")).unwrap();
    assert_eq!(
        text.lines().count() - 1,
        exported["units"].as_array().unwrap().len(),
        "one row per exported unit"
    );
    // The umpire fills in the first battalion's losses; the rest had none.
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let first = lines[1].clone();
    let mut f: Vec<&str> = first.split(',').collect();
    let unit = f[1].to_string();
    let exported_men: u32 = f[5].parse().unwrap();
    f[7] = "20";
    f[8] = "45";
    f[9] = "30";
    lines[1] = f.join(",");
    let file = c.tmp.path().join("filled.result.csv");
    std::fs::write(&file, lines.join("\r\n") + "\r\n").unwrap();
    let out = c.tmp.path().join("t.csv");
    assert_code(&c.run(&["battle", "template", MEDELLIN, "--out", out.to_str().unwrap()]), 0);
    assert_eq!(std::fs::read_to_string(&out).unwrap(), text, "--out writes what stdout shows");
    let again = c.run(&["battle", "template", MEDELLIN, "--out", out.to_str().unwrap()]);
    assert_code(&again, 1);
    assert_code(&c.run(&["apply", file.to_str().unwrap(), "--winner", "french"]), 0);
    assert!(men(&c)[&unit] < exported_men, "the losses were applied");
}

#[test]
fn losses_above_a_unit_s_strength_name_every_column_counted_and_change_nothing() {
    let (c, _) = medellin();
    let text = stdout(&c.run(&["battle", "template", MEDELLIN]));
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    // The umpire types the battalion's men into `captured`: that column alone is over.
    let mut f: Vec<String> = lines[1].split(',').map(str::to_string).collect();
    let (unit, exported) = (f[1].clone(), f[5].clone());
    let over = exported.parse::<u32>().unwrap() + 1;
    f[10] = over.to_string();
    lines[1] = f.join(",");
    let file = c.tmp.path().join("over.result.csv");
    std::fs::write(&file, lines.join("\r\n") + "\r\n").unwrap();
    let before = c.snapshot();
    let o = c.run(&["apply", file.to_str().unwrap(), "--winner", "french"]);
    assert_code(&o, 1);
    let want = format!(
        "over.result.csv:2: killed+wounded+missing+captured: {over} lost (0 killed, 0 wounded, 0 missing, \
         {over} captured) but {unit} exported only {exported} men"
    );
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    assert_eq!(c.snapshot(), before, "a refused result changes nothing");
}

// 8. Say what happened.

#[test]
fn dry_runs_say_that_they_wrote_nothing_and_what_the_real_run_would() {
    let c = Camp::new("peninsula");
    let before = c.snapshot();
    let o = c.run(&["export", "hex", "18.28", "--dry-run"]);
    assert_code(&o, 0);
    assert!(stderr(&o).contains("dry run: nothing written"), "{}", stderr(&o));
    assert_eq!(c.snapshot(), before);
    export_medellin(&c, &[]);
    let example = repo().join("fixtures/results/T20-18.28-example.result.csv");
    let o = c.run(&["apply", example.to_str().unwrap(), "--dry-run"]);
    assert_code(&o, 0);
    assert!(stderr(&o).contains("as journal entry 1"), "{}", stderr(&o));
    assert_code(&c.run(&["apply", example.to_str().unwrap()]), 0);
    assert_code(&c.run(&["undo", MEDELLIN]), 0);
    // The umpire reinforces Toledo by hand: the real run journals that edit first.
    c.write(
        "forces.csv",
        &c.read("forces.csv").replace("28e Léger 4th Bn,,Fr,light,520,", "28e Léger 4th Bn,,Fr,light,600,"),
    );
    let o = c.run(&["apply", example.to_str().unwrap(), "--dry-run"]);
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains("as journal entry 4, after entry 3 recording the manual edits"),
        "{}",
        stderr(&o)
    );
    let real = c.run(&["apply", example.to_str().unwrap()]);
    assert!(stderr(&real).contains("(journal entry 4)"), "{}", stderr(&real));
}

#[test]
fn audit_counts_what_stands_with_undone_entries_apart() {
    let (c, _) = medellin();
    let example = repo().join("fixtures/results/T20-18.28-example.result.csv");
    assert_code(&c.run(&["apply", example.to_str().unwrap()]), 0);
    let once = stdout(&c.run(&["audit"]));
    assert_code(&c.run(&["undo", MEDELLIN]), 0);
    assert_code(&c.run(&["apply", example.to_str().unwrap()]), 0);
    let o = c.run(&["audit", "--json"]);
    assert_code(&o, 0);
    let a: serde_json::Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(a["battles_applied"], 1);
    assert_eq!(a["units_checked"].as_u64().unwrap(), 89, "the battle's units, once");
    assert_eq!(a["undone"].as_array().unwrap().len(), 1, "{a}");
    let text = stdout(&c.run(&["audit"]));
    assert!(text.contains("applied and undone (replayed and checked, not counted above): entry 1 (battle T20-18.28), undone by entry 2"), "{text}");
    let counts =
        |s: &str| s.lines().next().unwrap().split("; ").skip(1).map(str::to_string).collect::<Vec<_>>();
    assert_eq!(counts(&once), counts(&text), "the same battle applied once counts the same");
}

#[test]
fn turn_advance_warns_of_a_pending_battle_before_it_changes_anything() {
    let (c, _) = medellin();
    let o = c.run(&["turn", "advance", "--dry-run"]);
    assert_code(&o, 0);
    assert!(
        stderr(&o).starts_with("WARNING: battle T20-18.28 at Medellin (18.28) of turn 20 is still pending"),
        "{}",
        stderr(&o)
    );
    let o = c.run(&["turn", "advance"]);
    assert_code(&o, 0);
    assert!(stderr(&o).starts_with("WARNING: battle T20-18.28"), "{}", stderr(&o));
}

// 9. The report an umpire reads.

#[test]
fn the_report_names_places_and_dates_says_the_verdict_once_and_counts_each_man_once() {
    let (c, _) = medellin();
    let example = repo().join("fixtures/results/T20-18.28-example.result.csv");
    assert_code(&c.run(&["apply", example.to_str().unwrap()]), 0);
    let r = c.read("battles/T20-18.28/report.md");
    assert!(r.contains("SP-EXT withdraws from 18.29 to Badajoz (13.29)"), "{r}");
    assert!(r.contains("- turn 21, early April 1809: "), "{r}");
    assert_eq!(r.matches("French victory").count(), 1, "{r}");
    assert!(r.contains("| 1re Division foot battery (FR-I-RUF-BTY), battery |"), "{r}");
    assert!(!r.contains("| 1re Division Ruffin (FR-I-RUF) |"), "{r}");
    // Allies: the stragglers column holds no captured man; captured holds them once.
    let journal = c.read("journal.jsonl");
    let entry: serde_json::Value = serde_json::from_str(journal.lines().last().unwrap()).unwrap();
    let sum = |fields: &[&str]| -> u64 {
        entry["carryover"]
            .as_array()
            .unwrap()
            .iter()
            .filter(|u| u["unit"].as_str().unwrap().starts_with("SP-"))
            .map(|u| fields.iter().map(|f| u[*f].as_u64().unwrap()).sum::<u64>())
            .sum()
    };
    let row = r.lines().find(|l| l.starts_with("| Allies |")).unwrap();
    let n: Vec<u64> = row.split('|').filter_map(|x| x.trim().parse().ok()).collect();
    let (stragglers, captured) = (n[4], n[6]);
    assert!(sum(&["stragglers_captured"]) > 0, "the example takes prisoners");
    assert_eq!(stragglers, sum(&["stragglers_returning", "stragglers_lost", "stragglers_drowned"]), "{row}");
    assert_eq!(captured, sum(&["stragglers_captured", "wounded_captured"]), "{row}");
}

#[test]
fn the_umpire_copy_of_a_briefing_shows_the_dice() {
    let (c, _) = medellin();
    let player = stdout(&c.run(&["battle", "show", MEDELLIN, "--briefing", "allies"]));
    let o = c.run(&["battle", "show", MEDELLIN, "--briefing", "allies", "--umpire"]);
    assert_code(&o, 0);
    let umpire = stdout(&o);
    assert_ne!(player, umpire);
    assert_eq!(umpire, c.read("battles/T20-18.28/briefings/allies-umpire.md"));
    assert!(umpire.contains("## Umpire: dice rolled"), "{umpire}");
    assert!(!player.contains("dice rolled"), "{player}");
}

#[test]
fn the_watcher_says_which_names_it_takes_of_a_result_it_ignores() {
    let (c, inbox) = medellin();
    std::fs::write(inbox.join("medellin-result.csv"), c.read("forces.csv")).unwrap();
    let (_, err) = finish(start_with(&c, &inbox, 1, None, &[]), Duration::from_secs(3));
    let lines: Vec<&str> = err.lines().filter(|l| l.contains("medellin-result.csv")).collect();
    assert_eq!(lines.len(), 1, "{err}");
    assert!(lines[0].contains("ignored: not a result file name (the watcher takes"), "{err}");
    assert!(lines[0].contains("*.result.csv"), "{err}");
}

#[test]
fn a_hand_result_cut_mid_line_says_it_was_cut() {
    let (c, _) = medellin();
    let text = stdout(&c.run(&["battle", "template", MEDELLIN]));
    let file = c.tmp.path().join("cut.result.csv");
    std::fs::write(&file, &text.as_bytes()[..text.len() - 20]).unwrap();
    let o = c.run(&["apply", file.to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("truncated: the last line has no line ending"), "{}", stderr(&o));
    assert!(!stderr(&o).contains("killed: is empty"), "{}", stderr(&o));
}

#[test]
fn a_hex_off_the_map_says_so() {
    let c = Camp::new("peninsula");
    let o = c.run(&["export", "hex", "99.99", "--dry-run"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("99.99 is outside the 64 × 48 map"), "{}", stderr(&o));
}

#[test]
fn an_unfilled_template_is_refused_unless_the_umpire_gives_the_verdict() {
    let (c, _) = medellin();
    let file = c.tmp.path().join("T20-18.28.result.csv");
    let o = c.run(&["battle", "template", MEDELLIN, "--out", file.to_str().unwrap()]);
    assert_code(&o, 0);
    assert!(
        stderr(&o).contains(&format!("sowbridge --campaign {} apply", c.dir.display())),
        "{}",
        stderr(&o)
    );
    let before = c.snapshot();
    let o = c.run(&["apply", file.to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("every unit of battle T20-18.28 has 0 losses"), "{}", stderr(&o));
    assert_eq!(c.snapshot(), before);
    assert_code(&c.run(&["apply", file.to_str().unwrap(), "--winner", "draw"]), 0);
}

#[test]
fn a_typed_hex_that_lost_a_digit_is_refused_with_both_readings() {
    let c = Camp::new("peninsula");
    let o = c.run(&["export", "hex", "18.2", "--dry-run"]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains(
            "'18.2' — did you mean 18.20? A hex's row has two digits: 18.02, or one of 18.20 to 18.29"
        ),
        "{}",
        stderr(&o)
    );
}
