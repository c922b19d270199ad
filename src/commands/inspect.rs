//! `inspect FILE|DIR…`: what sowbridge understands of the files the game wrote — a dump,
//! `startlocs.csv`, the OOB and scenario `dumpoobscen`/`dumpscen` wrote, or a whole `Work`
//! folder — and what it does not: each file's facts, the battle (pending, applied or
//! calibration) it belongs to, what `apply` would do with it, and every fact of the SoW
//! formats it confirms or contradicts, by name. Nothing is changed; an unknown layout or
//! `Status` value is a finding, never a failure.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;

use crate::commands::apply::matching::{listed_in, naming, recognised_in};
use crate::commands::apply::{ApplyRequest, apply_result};
use crate::commands::calibrate::{CalibrationRecord, RECORD};
use crate::formats::inspect::{FileFacts, FileKind, LineEnds, facts};
use crate::formats::results::{parse_gamedb, parse_manual, parse_startlocs};
use crate::model::battle::{BattleRecord, ChainEntry};
use crate::store::{CampaignDir, read_optional};

/// One fact of the formats, held against a file.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Finding {
    /// The fact, as the formats' notes name it.
    pub fact: String,
    /// `confirmed`, `contradicted`, or `seen` (a fact the notes mark unknown, now seen).
    pub verdict: &'static str,
    /// What this file shows.
    pub detail: String,
}

/// The report on one file.
#[derive(Debug, Clone, Serialize)]
pub struct FileReport {
    /// The file.
    pub path: String,
    /// Its facts.
    pub facts: FileFacts,
    /// The battle it belongs to, with its state, when one was found.
    pub battle: Option<String>,
    /// How its units are named (dumps, `startlocs.csv`): by id, by name, by name with a player.
    pub naming: Option<String>,
    /// What `apply` would do with it.
    pub apply: Option<String>,
    /// What sowbridge's readers refuse in it.
    pub problems: Vec<String>,
    /// Facts of the formats it confirms or contradicts.
    pub findings: Vec<Finding>,
}

/// A battle a file may belong to: a campaign battle or a calibration battle.
struct Known<'a> {
    label: String,
    chains: &'a [ChainEntry],
    battle: Option<&'a BattleRecord>,
}

fn finding(fact: &str, ok: bool, detail: impl Into<String>) -> Finding {
    Finding {
        fact: fact.to_string(),
        verdict: if ok { "confirmed" } else { "contradicted" },
        detail: detail.into(),
    }
}

fn seen(fact: &str, detail: impl Into<String>) -> Finding {
    Finding { fact: fact.to_string(), verdict: "seen", detail: detail.into() }
}

/// The files to read: each file given, the files directly in each folder given, and the
/// calibration records below them (`Scenarios/*/sowbridge-calibration.json`).
fn expand(paths: &[PathBuf]) -> (Vec<PathBuf>, Vec<(PathBuf, CalibrationRecord)>) {
    let mut files = Vec::new();
    let mut records = Vec::new();
    for p in paths {
        if p.is_dir() {
            for e in
                walkdir::WalkDir::new(p).max_depth(3).sort_by_file_name().into_iter().filter_map(|e| e.ok())
            {
                if !e.file_type().is_file() {
                    continue;
                }
                let name = e.file_name().to_string_lossy().to_ascii_lowercase();
                if name == RECORD {
                    if let Ok(Some(b)) = read_optional(e.path())
                        && let Ok(r) = serde_json::from_slice::<CalibrationRecord>(&b)
                    {
                        records.push((e.path().to_path_buf(), r));
                    }
                } else if e.depth() == 1 && (name.ends_with(".csv") || name.ends_with(".txt")) {
                    files.push(e.path().to_path_buf());
                }
            }
        } else {
            files.push(p.clone());
        }
    }
    (files, records)
}

/// Runs `inspect`.
pub fn run(dir: &CampaignDir, paths: &[PathBuf], json: bool) -> Result<()> {
    let (files, records) = expand(paths);
    let battles = dir.battles().unwrap_or_default();
    let campaign_ok = dir.load().is_ok();
    let mut known: Vec<Known<'_>> = battles
        .iter()
        .map(|b| Known {
            label: format!("battle {} ({})", b.id, b.state.word()),
            chains: &b.chains,
            battle: Some(b),
        })
        .collect();
    known.extend(records.iter().map(|(_, r)| Known {
        label: format!("calibration battle {}", r.battle),
        chains: &r.chains,
        battle: None,
    }));
    let mut reports = Vec::new();
    for f in &files {
        let bytes = match read_optional(f) {
            Ok(Some(b)) => b,
            Ok(None) => {
                reports.push(missing(f, "no such file"));
                continue;
            }
            Err(e) => {
                reports.push(missing(f, &e.to_string()));
                continue;
            }
        };
        reports.push(inspect_file(dir, f, &bytes, &known, &records, campaign_ok));
    }
    if json {
        return super::print_json(&serde_json::json!({
            "calibration_battles": records.iter().map(|(p, r)| serde_json::json!({"record": p.display().to_string(), "battle": r.battle})).collect::<Vec<_>>(),
            "files": reports,
        }));
    }
    for (p, r) in &records {
        crate::outln!(
            "calibration battle {} ({} rows, profile {}): {}",
            r.battle,
            r.chains.len(),
            r.profile,
            p.display()
        );
    }
    for r in &reports {
        crate::out!("{}", render(r));
    }
    if reports.is_empty() {
        crate::outln!("no files to inspect");
    }
    Ok(())
}

fn missing(f: &Path, why: &str) -> FileReport {
    FileReport {
        path: f.display().to_string(),
        facts: facts(b""),
        battle: None,
        naming: None,
        apply: None,
        problems: vec![why.to_string()],
        findings: Vec::new(),
    }
}

/// The best match among the known battles, by the units a file names.
fn best<'k>(
    known: &'k [Known<'k>],
    score: impl Fn(&[ChainEntry]) -> usize,
) -> Option<(&'k Known<'k>, usize)> {
    known
        .iter()
        .map(|k| (k, score(k.chains)))
        .filter(|(_, n)| *n > 0)
        .max_by_key(|(k, n)| (*n, k.battle.is_some_and(|b| b.state.is_pending())))
}

fn inspect_file(
    dir: &CampaignDir,
    f: &Path,
    bytes: &[u8],
    known: &[Known<'_>],
    records: &[(PathBuf, CalibrationRecord)],
    campaign_ok: bool,
) -> FileReport {
    let name = f.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let fa = facts(bytes);
    let mut r = FileReport {
        path: f.display().to_string(),
        facts: fa.clone(),
        battle: None,
        naming: None,
        apply: None,
        problems: Vec::new(),
        findings: Vec::new(),
    };
    let sow_text =
        !fa.encoding.starts_with("utf-8") && matches!(fa.line_ends, LineEnds::Crlf | LineEnds::CrCrLf);
    match fa.kind {
        FileKind::GameDump => {
            r.findings.push(finding(
                "§1 the game writes ISO-8859-1 text with CRLF line ends",
                sow_text,
                format!("{}, {} line ends", fa.encoding, fa.line_ends.label()),
            ));
            let non_blank = fa.preamble.iter().filter(|l| !l.trim().is_empty()).count();
            r.findings.push(finding(
                "§7.1 exactly 3 non-blank lines before the first unit row",
                non_blank == 3,
                format!(
                    "{non_blank}: {}",
                    fa.preamble.iter().map(|l| format!("{l:?}")).collect::<Vec<_>>().join(" | ")
                ),
            ));
            let layouts_ok = fa.fields_per_row.keys().all(|n| [12, 20].contains(n));
            r.findings.push(finding(
                "§7.1 20 positional columns (the first 12 on rows without killer data)",
                layouts_ok,
                format!("fields per row: {:?}", fa.fields_per_row),
            ));
            r.findings.push(seen(
                "§3.1 the Status values (unknown)",
                fa.status_values.iter().map(|(s, n)| format!("{s:?} ×{n}")).collect::<Vec<_>>().join(", "),
            ));
            r.findings.push(seen(
                "§7.1 rows with killer data (more than 13 fields)",
                fa.rows_with_killer.to_string(),
            ));
            r.findings
                .push(seen("§7.1 Ammo may be blank", format!("{} rows with a blank Ammo", fa.blank_ammo)));
            match parse_gamedb(&name, bytes) {
                Err(p) => r.problems = p.0.iter().take(20).map(ToString::to_string).collect(),
                Ok(d) => {
                    if let Some((k, n)) = best(known, |chains| recognised_in(chains, &d)) {
                        r.battle = Some(format!(
                            "{}: {n} of the dump's {} units recognised",
                            k.label,
                            d.units.len()
                        ));
                        let (by_id, by_name, with_player) = naming(k.chains, &d);
                        r.naming = Some(format!(
                            "{by_id} by SoW id, {by_name} by display name, {with_player} by name with a player"
                        ));
                        r.findings.push(seen(
                            "§7.1 the unit column holds NAME1 (+ player) in Gettysburg-engine dumps, the ID in Waterloo-era ones",
                            format!("{by_id} by id, {by_name} by name, {with_player} by name with a player"),
                        ));
                        if let Some(b) = k.battle {
                            r.apply = Some(would_apply(dir, f, b, campaign_ok));
                        } else {
                            r.apply = Some(
                                "a calibration battle: not a campaign battle, nothing to apply".to_string(),
                            );
                        }
                    } else {
                        r.battle = Some("none: no battle sowbridge exported has its units".to_string());
                    }
                }
            }
        }
        FileKind::Startlocs => {
            r.findings.push(finding(
                "§7.2 the header ends with the game time",
                fa.game_time.is_some(),
                fa.header.clone().unwrap_or_default(),
            ));
            match parse_startlocs(&name, bytes) {
                Err(p) => r.problems = p.0.iter().take(20).map(ToString::to_string).collect(),
                Ok(l) => {
                    let repeated = l.units.values().filter(|v| v.len() > 1).count();
                    if let Some((k, n)) = best(known, |chains| listed_in(chains, &l)) {
                        r.battle = Some(format!("{}: {n} of its {} rows listed", k.label, k.chains.len()));
                        let by_id =
                            k.chains.iter().filter(|e| l.units.contains_key(&e.id.to_uppercase())).count();
                        r.naming =
                            Some(format!("{by_id} by SoW id, {} by display name", n.saturating_sub(by_id)));
                        r.findings.push(seen(
                            "§7.2 rows keyed by ID or by display name (the editor says both)",
                            format!(
                                "{by_id} by id, {} by name; {repeated} names repeat",
                                n.saturating_sub(by_id)
                            ),
                        ));
                    } else {
                        r.battle =
                            Some("none: it lists the units of no battle sowbridge exported".to_string());
                    }
                }
            }
        }
        FileKind::Oob | FileKind::Scenario => {
            r.findings.push(finding(
                "§1 SoW files are ISO-8859-1 text with CRLF line ends",
                sow_text,
                format!("{}, {} line ends", fa.encoding, fa.line_ends.label()),
            ));
            compare_with_written(&mut r, bytes, records);
        }
        FileKind::HandResult => match parse_manual(&name, bytes) {
            Ok(m) => r.battle = Some(format!("names battle {}", m.battle)),
            Err(p) => r.problems = p.0.iter().take(20).map(ToString::to_string).collect(),
        },
        FileKind::Unknown => r
            .problems
            .push("not a file sowbridge recognises: no dump, startlocs.csv, OOB or scenario".to_string()),
    }
    r
}

/// What `apply` would do with a dump of a campaign battle, without doing it.
fn would_apply(dir: &CampaignDir, f: &Path, b: &BattleRecord, campaign_ok: bool) -> String {
    if !campaign_ok {
        return "the campaign does not load: run `sowbridge check`".to_string();
    }
    let req = ApplyRequest { path: f.to_path_buf(), dry_run: true, ..ApplyRequest::default() };
    match apply_result(dir, &req) {
        Ok(a) => format!(
            "apply it to battle {} as journal entry {}: {}; result {}",
            a.battle,
            a.journal_seq,
            a.winner.map_or("a draw".to_string(), |w| format!("{w} victory")),
            a.evidence
        ),
        Err(e) => format!("refuse it (battle {}): {}", b.id, e.to_string().lines().next().unwrap_or("")),
    }
}

/// An OOB or scenario the engine dumped, held against the one sowbridge wrote for the
/// calibration battle: did the engine read every column as intended?
fn compare_with_written(r: &mut FileReport, bytes: &[u8], records: &[(PathBuf, CalibrationRecord)]) {
    let hash = crate::store::journal::sha256_hex(bytes);
    for (at, rec) in records {
        let Some(out) = at.parent().and_then(Path::parent).and_then(Path::parent) else { continue };
        let written_rel = if r.facts.kind == FileKind::Oob {
            rec.oob.clone()
        } else {
            format!("{}/scenario.csv", rec.scenario_dir)
        };
        if rec.files.get(&written_rel) == Some(&hash) {
            r.battle = Some(format!("calibration battle {}: the file sowbridge wrote", rec.battle));
            return;
        }
        let Ok(Some(written)) = read_optional(&out.join(Path::new(&written_rel))) else { continue };
        let (dumped, mine) = (table(bytes), table(&written));
        let id_col =
            |t: &[Vec<String>]| t.first().and_then(|h| h.iter().position(|c| c.eq_ignore_ascii_case("id")));
        let (Some(di), Some(mi)) = (id_col(&dumped), id_col(&mine)) else { continue };
        let mine_rows: BTreeMap<&str, &Vec<String>> =
            mine[1..].iter().map(|row| (row[mi].as_str(), row)).collect();
        let shared = dumped[1..]
            .iter()
            .filter(|row| row.get(di).is_some_and(|id| mine_rows.contains_key(id.as_str())))
            .count();
        if shared == 0 {
            continue;
        }
        r.battle = Some(format!("calibration battle {} ({shared} of its rows)", rec.battle));
        let mut diffs = Vec::new();
        if dumped[0] != mine[0] {
            diffs.push(format!("header: dumped {} / written {}", dumped[0].join(","), mine[0].join(",")));
        }
        for row in &dumped[1..] {
            let Some(m) = row.get(di).and_then(|id| mine_rows.get(id.as_str())) else { continue };
            for (col, label) in mine[0].iter().enumerate() {
                let dc = dumped[0].iter().position(|h| h.eq_ignore_ascii_case(label));
                let (Some(dc), Some(want)) = (dc, m.get(col)) else { continue };
                let got = row.get(dc).map_or("", String::as_str);
                if got.trim() != want.trim() {
                    diffs.push(format!("{} {label}: written {want:?}, the engine has {got:?}", row[di]));
                }
            }
        }
        let n = diffs.len();
        r.findings.push(finding(
            "the engine reads sowbridge's file as written (every column of every row)",
            n == 0,
            if n == 0 {
                format!("{shared} rows, every column as written")
            } else {
                format!("{n} differences: {}", diffs.iter().take(20).cloned().collect::<Vec<_>>().join("; "))
            },
        ));
        return;
    }
}

/// A file's lines as fields, by the engine's rules (every comma splits, quotes stripped).
fn table(bytes: &[u8]) -> Vec<Vec<String>> {
    let (text, _) = crate::formats::text::decode(bytes);
    text.lines()
        .map(|l| l.trim_end_matches('\r'))
        .filter(|l| !l.trim().is_empty())
        .map(|l| l.split(',').map(|f| f.replace('"', "").trim().to_string()).collect())
        .collect()
}

/// The report on one file, for people.
fn render(r: &FileReport) -> String {
    use std::fmt::Write as _;
    let f = &r.facts;
    let mut s = String::new();
    let _ = writeln!(s, "\n{}: {}", r.path, f.kind.label());
    let _ = writeln!(
        s,
        "  {} lines, {}, {} line ends{}",
        f.lines,
        f.encoding,
        f.line_ends.label(),
        if f.ends_with_line_end { "" } else { "; the last line has no line end (still being written?)" }
    );
    for l in &f.preamble {
        let _ = writeln!(s, "  preamble: {l:?}");
    }
    if let Some(h) = &f.header {
        let _ = writeln!(s, "  header: {h}");
    }
    if !f.fields_per_row.is_empty() {
        let _ = writeln!(s, "  fields per row: {:?}", f.fields_per_row);
    }
    for (label, v) in [("battle", &r.battle), ("units named", &r.naming), ("apply would", &r.apply)] {
        if let Some(v) = v {
            let _ = writeln!(s, "  {label}: {v}");
        }
    }
    for p in &r.problems {
        let _ = writeln!(s, "  refused: {p}");
    }
    for x in &r.findings {
        let _ = writeln!(s, "  [{}] {}: {}", x.verdict, x.fact, x.detail);
    }
    s
}
