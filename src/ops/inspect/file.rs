//! Inspecting one file: its facts, the battle it belongs to, how it names that battle's
//! units, what `apply` would do with it, and the facts of the formats it confirms or
//! contradicts.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::formats::inspect::{FileFacts, LineEnds, facts};
use crate::formats::results::{parse_gamedb, parse_manual, parse_startlocs};
use crate::model::battle::{BattleRecord, ChainEntry};
use crate::ops::apply::matching::{listed_in, naming, recognised_in};
use crate::ops::apply::{ApplyRequest, apply_result};
use crate::ops::calibrate::CalibrationRecord;
use crate::store::{CampaignDir, read_optional};

use super::{FileKind, FileReport, Known, finding, names, seen};

/// What one file is held against: the campaign, the battles known, the calibration records
/// found.
pub(super) struct Inspector<'a> {
    pub(super) dir: &'a CampaignDir,
    pub(super) known: &'a [Known<'a>],
    pub(super) records: &'a [(PathBuf, CalibrationRecord)],
    /// Whether the campaign loads (else `apply` could not run at all).
    pub(super) campaign_ok: bool,
}

impl Inspector<'_> {
    /// The report on a file: on its content, or on why it could not be read.
    pub(super) fn read(&self, f: &Path) -> FileReport {
        match read_optional(f) {
            Ok(Some(bytes)) => self.inspect_file(f, &bytes),
            Ok(None) => missing(f, "no such file"),
            Err(e) => missing(f, &e.to_string()),
        }
    }

    fn inspect_file(&self, f: &Path, bytes: &[u8]) -> FileReport {
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
            FileKind::GameDump => self.game_dump(&mut r, f, &name, bytes, sow_text),
            FileKind::Startlocs => self.startlocs(&mut r, &name, bytes),
            FileKind::Oob | FileKind::Scenario => {
                r.findings.push(finding(
                    "§1 SoW files are ISO-8859-1 text with CRLF line ends",
                    sow_text,
                    format!("{}, {} line ends", fa.encoding, fa.line_ends.label()),
                ));
                compare_with_written(&mut r, bytes, self.records);
            }
            FileKind::Names => names::inspect_names(&mut r, bytes, self.known),
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

    /// A game dump: its layout against the formats' notes, and the battle whose units it holds.
    fn game_dump(&self, r: &mut FileReport, f: &Path, name: &str, bytes: &[u8], sow_text: bool) {
        let fa = &r.facts;
        let mut findings = vec![finding(
            "§1 the game writes ISO-8859-1 text with CRLF line ends",
            sow_text,
            format!("{}, {} line ends", fa.encoding, fa.line_ends.label()),
        )];
        let non_blank = fa.preamble.iter().filter(|l| !l.trim().is_empty()).count();
        findings.push(finding(
            "§7.1 exactly 3 non-blank lines before the first unit row",
            non_blank == 3,
            format!(
                "{non_blank}: {}",
                fa.preamble.iter().map(|l| format!("{l:?}")).collect::<Vec<_>>().join(" | ")
            ),
        ));
        findings.extend(dump_layout(fa));
        r.findings.extend(findings);
        let d = match parse_gamedb(name, bytes) {
            Err(p) => {
                r.problems = p.0.iter().take(20).map(ToString::to_string).collect();
                return;
            }
            Ok(d) => d,
        };
        let Some((k, n)) = best(self.known, |chains| recognised_in(chains, &d)) else {
            r.battle = Some("none: no battle sowbridge exported has its units".to_string());
            return;
        };
        r.battle = Some(format!("{}: {n} of the dump's {} units recognised", k.label, d.units.len()));
        let (by_id, by_name, with_player) = naming(k.chains, &d);
        r.naming = Some(format!(
            "{by_id} by SoW id, {by_name} by display name, {with_player} by name with a player"
        ));
        r.findings.push(seen(
            "§7.1 the unit column holds NAME1 (+ player) in Gettysburg-engine dumps, the ID in Waterloo-era ones",
            format!("{by_id} by id, {by_name} by name, {with_player} by name with a player"),
        ));
        r.apply = Some(match k.battle {
            Some(b) => self.would_apply(f, b),
            None => "a calibration battle: not a campaign battle, nothing to apply".to_string(),
        });
    }

    /// A `startlocs.csv`: its header, and the battle whose units it lists.
    fn startlocs(&self, r: &mut FileReport, name: &str, bytes: &[u8]) {
        r.findings.push(finding(
            "§7.2 the header ends with the game time",
            r.facts.game_time.is_some(),
            r.facts.header.clone().unwrap_or_default(),
        ));
        let l = match parse_startlocs(name, bytes) {
            Err(p) => {
                r.problems = p.0.iter().take(20).map(ToString::to_string).collect();
                return;
            }
            Ok(l) => l,
        };
        let repeated = l.units.values().filter(|v| v.len() > 1).count();
        let Some((k, n)) = best(self.known, |chains| listed_in(chains, &l)) else {
            r.battle = Some("none: it lists the units of no battle sowbridge exported".to_string());
            return;
        };
        r.battle = Some(format!("{}: {n} of its {} rows listed", k.label, k.chains.len()));
        let by_id = k.chains.iter().filter(|e| l.units.contains_key(&e.id.to_uppercase())).count();
        r.naming = Some(format!("{by_id} by SoW id, {} by display name", n.saturating_sub(by_id)));
        r.findings.push(seen(
            "§7.2 rows keyed by ID or by display name (the editor says both)",
            format!("{by_id} by id, {} by name; {repeated} names repeat", n.saturating_sub(by_id)),
        ));
    }

    /// What `apply` would do with a dump of a campaign battle, without doing it.
    fn would_apply(&self, f: &Path, b: &BattleRecord) -> String {
        if !self.campaign_ok {
            return "the campaign does not load: run `sowbridge check`".to_string();
        }
        let req = ApplyRequest { path: f.to_path_buf(), dry_run: true, ..ApplyRequest::default() };
        match apply_result(self.dir, &req) {
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
}

/// A dump's columns and values against the formats' notes.
fn dump_layout(fa: &FileFacts) -> Vec<super::Finding> {
    let layouts_ok = fa.fields_per_row.keys().all(|n| [12, 20].contains(n));
    vec![
        finding(
            "§7.1 20 positional columns (the first 12 on rows without killer data)",
            layouts_ok,
            format!("fields per row: {:?}", fa.fields_per_row),
        ),
        seen(
            "§3.1 the Status values (unknown)",
            fa.status_values.iter().map(|(s, n)| format!("{s:?} ×{n}")).collect::<Vec<_>>().join(", "),
        ),
        seen("§7.1 rows with killer data (more than 13 fields)", fa.rows_with_killer.to_string()),
        seen("§7.1 Ammo may be blank", format!("{} rows with a blank Ammo", fa.blank_ammo)),
    ]
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
