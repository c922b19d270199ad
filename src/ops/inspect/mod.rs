//! `inspect FILE|DIR…`: what sowbridge understands of the files the game wrote — a dump,
//! `startlocs.csv`, the OOB and scenario `dumpoobscen`/`dumpscen` wrote, or a whole `Work`
//! folder — and what it does not: each file's facts, the battle (pending, applied or
//! calibration) it belongs to, what `apply` would do with it, and every fact of the SoW
//! formats it confirms or contradicts, by name. Nothing is changed; an unknown layout or
//! `Status` value is a finding, never a failure.

mod names;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Serialize;

use crate::commands::apply::matching::{listed_in, naming, recognised_in};
use crate::commands::apply::{ApplyRequest, apply_result};
use crate::formats::inspect::{FileFacts, FileKind, LineEnds, facts};
use crate::formats::results::{parse_gamedb, parse_manual, parse_startlocs};
use crate::model::battle::{BattleRecord, ChainEntry};
use crate::ops::calibrate::{CalibrationRecord, RECORD};
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
    /// For an OOB or scenario the engine dumped: the header it wrote, when it is of a
    /// calibration battle.
    #[serde(skip)]
    pub dumped_header: Option<String>,
}

/// A setting of the campaign's profile that the game's files show.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct Setting {
    /// The key of `profile.toml`.
    pub key: &'static str,
    /// Its value, as TOML writes it.
    pub value: String,
    /// What showed it.
    pub why: String,
}

/// What the files show of the profile's switches: whether the engine's own OOB has the
/// `OOBMOD` column, and how the install names its battle dumps. Only what differs from the
/// profile in use is a setting to make.
pub fn learned(reports: &[FileReport], profile: &crate::formats::profile::Profile) -> Vec<Setting> {
    let mut out = Vec::new();
    for r in reports {
        if let (FileKind::Oob, Some(h)) = (r.facts.kind, &r.dumped_header) {
            let has = h.split(',').any(|c| c.trim().eq_ignore_ascii_case("OOBMOD"));
            if has != profile.oobmod_column && !out.iter().any(|s: &Setting| s.key == "oobmod_column") {
                out.push(Setting {
                    key: "oobmod_column",
                    value: has.to_string(),
                    why: format!(
                        "the OOB the engine dumped ({}) {} an OOBMOD column",
                        r.path,
                        if has { "has" } else { "has no" }
                    ),
                });
            }
        }
        let name =
            Path::new(&r.path).file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let lower = name.to_ascii_lowercase();
        if r.facts.kind == FileKind::GameDump
            && !crate::commands::watch::glob_match(&profile.gamedb_pattern, &name)
            && let Some(at) = lower.find("_gamedb_")
            && lower.ends_with(".csv")
            && !out.iter().any(|s: &Setting| s.key == "gamedb_pattern")
        {
            out.push(Setting {
                key: "gamedb_pattern",
                value: format!("\"{}_gamedb_*.csv\"", &name[..at]),
                why: format!("the install names its dumps like {name}, not {}", profile.gamedb_pattern),
            });
        }
    }
    out
}

/// `profile.toml` with each setting's line replaced (or added at the end).
pub fn with_settings(profile_toml: &str, settings: &[Setting]) -> String {
    let mut lines: Vec<String> = profile_toml.lines().map(str::to_string).collect();
    for s in settings {
        let line = format!("{} = {}", s.key, s.value);
        let found = lines.iter().position(|l| l.split('=').next().is_some_and(|k| k.trim() == s.key));
        match found {
            Some(i) => lines[i] = line,
            None => lines.push(line),
        }
    }
    lines.join("\n") + "\n"
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
                walkdir::WalkDir::new(p).max_depth(4).sort_by_file_name().into_iter().filter_map(|e| e.ok())
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
                } else if (e.depth() == 1
                    && (name.ends_with(".csv") || name.ends_with(".txt") || name.ends_with(".xml")))
                    || (e.depth() == 4 && name == "oobnames.xml")
                {
                    // The game's files, and the names file of Layout/Media/Language.
                    files.push(e.path().to_path_buf());
                }
            }
        } else {
            files.push(p.clone());
        }
    }
    (files, records)
}

/// Runs `inspect`; with `write`, the settings the files show go into the campaign's own
/// `templates/<profile>/profile.toml`.
pub fn run(dir: &CampaignDir, paths: &[PathBuf], json: bool, write: bool) -> Result<()> {
    let absent: Vec<String> = paths.iter().filter(|p| !p.exists()).map(|p| p.display().to_string()).collect();
    if !absent.is_empty() {
        return Err(crate::error::Error::refused(format!(
            "inspect: no such file or folder: {}",
            absent.join(", ")
        ))
        .into());
    }
    let (files, records) = expand(paths);
    let battles = dir.battles().unwrap_or_default();
    // The campaign is loaded once: its profile, and whether `apply` could run at all.
    let profile_name = dir.load().ok().map(|c| c.config.profile);
    let campaign_ok = profile_name.is_some();
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
    let profile = match &profile_name {
        Some(n) => crate::store::profile::profile_files(dir, n).ok().map(|f| (n.clone(), f)),
        None => None,
    };
    let parsed = profile.as_ref().and_then(|(n, f)| {
        crate::formats::profile::parse_profile(n, &f.profile).ok().map(|p| (n.clone(), f.profile.clone(), p))
    });
    let mut settings = parsed.as_ref().map_or_else(Vec::new, |(_, _, p)| learned(&reports, p));
    if let Some((_, _, p)) = &parsed {
        for (f, r) in files.iter().zip(&reports).filter(|(_, r)| r.facts.kind == FileKind::Names) {
            if let Ok(Some(b)) = read_optional(f)
                && let Some(s) = names::learned_suffix(r, &b, p)
                && !settings.iter().any(|x| x.key == s.key)
            {
                settings.push(s);
            }
        }
    }
    let mut written = None;
    if write {
        let Some((name, text, _)) = &parsed else {
            return Err(crate::error::Error::refused("inspect --write: the campaign does not load, so its profile is unknown; run `sowbridge check`").into());
        };
        if !settings.is_empty() {
            let rel = format!("templates/{name}/profile.toml");
            let lock = crate::store::CampaignLock::acquire(dir, std::time::Duration::from_secs(60))?;
            dir.recover(&lock)?;
            crate::store::atomic_write(&dir.path(&rel), with_settings(text, &settings).as_bytes())?;
            written = Some(rel);
        }
    }
    if json {
        return super::print_json(&serde_json::json!({
            "calibration_battles": records.iter().map(|(p, r)| serde_json::json!({"record": p.display().to_string(), "battle": r.battle})).collect::<Vec<_>>(),
            "files": reports,
            "settings": settings,
            "written": written,
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
    if reports.is_empty() && !records.is_empty() {
        crate::outln!(
            "no file the game wrote is here yet: play the calibration battle, then bring its dumps, \
             startlocs.csv and dumped OOB and scenario back into this folder (CALIBRATION.txt says how)"
        );
    } else if reports.is_empty() {
        crate::outln!(
            "no CSV or text file directly in the folders given: give the SoW Work folder, or the files"
        );
    }
    if !settings.is_empty() {
        crate::outln!("\nsettings the files show for profile {}:", profile_name.as_deref().unwrap_or("?"));
        for s in &settings {
            crate::outln!("  {} = {}   ({})", s.key, s.value, s.why);
        }
        match &written {
            Some(rel) => crate::errln!("wrote them into {rel}"),
            None => crate::errln!(
                "inspect --write writes them into the campaign's templates/<profile>/profile.toml"
            ),
        }
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
        dumped_header: None,
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
        dumped_header: None,
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
        FileKind::Names => names::inspect_names(&mut r, bytes, known),
        FileKind::HandResult => match parse_manual(&name, bytes) {
            Ok(m) => r.battle = Some(format!("names battle {}", m.battle)),
            Err(p) => r.problems = p.0.iter().take(20).map(ToString::to_string).collect(),
        },
        FileKind::Unknown => r.problems.push(
            "not a file sowbridge recognises: no dump, startlocs.csv, OOB, scenario or names file"
                .to_string(),
        ),
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
        r.dumped_header = Some(dumped[0].join(","));
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
