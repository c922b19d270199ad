//! The layers of the source hold (design.md, "Layers, and what may import what"): the rules and
//! the model import no outer layer, the file system is touched only by the store and the
//! watcher, and of `formats/` only the reports read the rules. Each check reads every `.rs`
//! file under `src/` with its test code left out, and names every offending file and line.

use crate::common::repo;

/// The outer layers the pure core (`rules/`, `model/`) never imports.
const OUTER: [&str; 6] = ["formats", "store", "commands", "ops", "cli", "inbox"];

/// One source file: its path from the repository's root (`/`-separated) and its
/// production lines, each with its line number.
#[derive(Debug)]
struct Source {
    path: String,
    lines: Vec<(usize, String)>,
}

/// Whether a file is test code whole: a `tests.rs`, or a file under a `tests/` folder.
fn test_file(path: &str) -> bool {
    path.ends_with("/tests.rs") || path.contains("/tests/")
}

/// The lines of `text` that are not test code: every `#[cfg(test)]` item is left out, from
/// its attribute to its end (the `;` of a one-line item, else the closing brace at the
/// item's own indentation, as rustfmt writes it).
fn production_lines(text: &str) -> Vec<(usize, String)> {
    let lines: Vec<&str> = text.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let line = lines[i];
        if line.trim() != "#[cfg(test)]" {
            out.push((i + 1, line.to_string()));
            i += 1;
            continue;
        }
        // Further attributes of the same item.
        i += 1;
        while i < lines.len() && lines[i].trim_start().starts_with("#[") {
            i += 1;
        }
        let Some(item) = lines.get(i) else { break };
        let indent = &item[..item.len() - item.trim_start().len()];
        if item.trim_end().ends_with(';') {
            i += 1;
            continue;
        }
        let close = [format!("{indent}}}"), format!("{indent}}};")];
        while i < lines.len() && !close.iter().any(|c| lines[i].trim_end() == c) {
            i += 1;
        }
        i += 1;
    }
    out
}

/// Every production `.rs` file under `src/`, sorted by path.
fn sources() -> Vec<Source> {
    let root = repo();
    let mut out: Vec<Source> = walkdir::WalkDir::new(root.join("src"))
        .into_iter()
        .map(|e| e.expect("walk src/"))
        .filter(|e| e.file_type().is_file() && e.path().extension().is_some_and(|x| x == "rs"))
        .filter_map(|e| {
            let rel = e.path().strip_prefix(&root).expect("under the root");
            let path =
                rel.components().map(|c| c.as_os_str().to_string_lossy()).collect::<Vec<_>>().join("/");
            if test_file(&path) {
                return None;
            }
            let text = std::fs::read_to_string(e.path()).expect("read a source file");
            Some(Source { lines: production_lines(&text), path })
        })
        .collect();
    out.sort_by(|a, b| a.path.cmp(&b.path));
    assert!(out.len() > 100, "found only {} source files under src/", out.len());
    out
}

/// Whether `c` can be part of an identifier.
fn ident(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Whether `text` holds `word` as a whole path segment (not part of a longer name).
fn has_segment(text: &str, word: &str) -> bool {
    text.match_indices(word).any(|(at, _)| {
        let before = text[..at].chars().next_back();
        let after = text[at + word.len()..].chars().next();
        !before.is_some_and(ident) && !after.is_some_and(ident)
    })
}

/// The modules of this crate a line names: `crate::m` and each `m` of a `crate::{…}` group.
fn crate_modules(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    for (at, _) in line.match_indices("crate::") {
        let rest = &line[at + "crate::".len()..];
        if let Some(group) = rest.strip_prefix('{') {
            let inner = group.split('}').next().unwrap_or("");
            out.extend(inner.split(',').map(|s| s.trim().split("::").next().unwrap_or("").to_string()));
        } else {
            out.push(rest.chars().take_while(|c| ident(*c)).collect());
        }
    }
    out
}

/// The production lines of the files `within` picks for which `offends` says what is wrong.
fn offences(within: impl Fn(&str) -> bool, offends: impl Fn(&str) -> Option<String>) -> Vec<String> {
    let mut out = Vec::new();
    for s in sources().iter().filter(|s| within(&s.path)) {
        for (n, line) in &s.lines {
            if let Some(why) = offends(line) {
                out.push(format!("{}:{n}: {why}: {}", s.path, line.trim()));
            }
        }
    }
    out
}

#[track_caller]
fn assert_none(what: &str, found: Vec<String>) {
    assert!(found.is_empty(), "{what}:\n{}", found.join("\n"));
}

#[test]
fn the_rules_and_the_model_import_no_outer_layer() {
    let core = |p: &str| p.starts_with("src/rules/") || p.starts_with("src/model/");
    let found = offences(core, |line| {
        let named: Vec<String> =
            crate_modules(line).into_iter().filter(|m| OUTER.contains(&m.as_str())).collect();
        (!named.is_empty()).then(|| format!("names crate::{}", named.join(", crate::")))
    });
    assert_none("rules/ and model/ are pure: they import no outer layer", found);
}

#[test]
fn only_the_store_and_the_watcher_touch_the_file_system() {
    let outside = |p: &str| !p.starts_with("src/store/") && !p.starts_with("src/inbox/");
    let found = offences(outside, |line| {
        let fs = has_segment(line, "std::fs")
            || line.match_indices("fs::").any(|(at, _)| !line[..at].chars().next_back().is_some_and(ident))
            || line.contains("std::{") && has_segment(line, "fs");
        fs.then(|| "touches the file system".to_string())
    });
    assert_none("std::fs is used only in src/store/ and src/inbox/", found);
}

#[test]
fn of_the_formats_only_the_reports_read_the_rules() {
    let plain_format = |p: &str| {
        p.starts_with("src/formats/")
            && !p.starts_with("src/formats/report/")
            && !p.starts_with("src/formats/svg/")
            && p != "src/formats/html.rs"
    };
    let found = offences(plain_format, |line| {
        crate_modules(line).iter().any(|m| m == "rules").then(|| "names crate::rules".to_string())
    });
    assert_none("formats/ reads the rules only in report/, svg/ and html.rs", found);
}

#[test]
fn test_code_is_left_out_to_its_end_and_no_further() {
    let text = "fn a() {}\n#[cfg(test)]\nconst T: u8 = 1;\n#[cfg(test)]\n#[allow(unused)]\nmod tests {\n    fn t() {\n    }\n}\nfn b() {}\n";
    let kept: Vec<usize> = production_lines(text).into_iter().map(|(n, _)| n).collect();
    assert_eq!(kept, [1, 10]);
    assert!(test_file("src/rules/supply/tests.rs") && !test_file("src/rules/supply.rs"));
}

/// The command a file under `src/commands/` belongs to: `commands/apply/report.rs` is
/// `apply`'s; `commands/mod.rs` belongs to none.
fn command_of(path: &str) -> Option<&str> {
    let rest = path.strip_prefix("src/commands/")?;
    let first = rest.split('/').next()?;
    let name = first.strip_suffix(".rs").unwrap_or(first);
    (name != "mod").then_some(name)
}

/// Every command: the files and folders directly under `src/commands/`.
fn commands() -> Vec<String> {
    let mut names: Vec<String> =
        sources().iter().filter_map(|s| command_of(&s.path).map(str::to_string)).collect();
    names.sort();
    names.dedup();
    assert!(names.len() > 10, "found only {} commands", names.len());
    names
}

#[test]
fn no_command_imports_another_command() {
    let all = commands();
    let mut found = Vec::new();
    for s in sources() {
        let Some(own) = command_of(&s.path) else { continue };
        for (n, line) in &s.lines {
            for other in all.iter().filter(|c| c.as_str() != own) {
                let named =
                    [format!("crate::commands::{other}"), format!("super::{other}")].iter().any(|p| {
                        line.match_indices(p.as_str()).any(|(at, _)| {
                            !line[at + p.len()..].chars().next().is_some_and(ident)
                                && !line[..at].chars().next_back().is_some_and(|c| ident(c) || c == ':')
                        })
                    });
                if named {
                    found.push(format!("{}:{n}: imports the command {other}: {}", s.path, line.trim()));
                }
            }
        }
    }
    assert_none("a command never imports another command (commands/mod.rs's helpers aside)", found);
}

#[test]
fn only_the_store_builds_journal_entries_and_takes_the_lock() {
    let outside = |p: &str| !p.starts_with("src/store/");
    let found = offences(outside, |line| {
        let entry = line
            .match_indices("Entry {")
            .any(|(at, _)| !line[..at].chars().next_back().is_some_and(|c| ident(c) || c == ':'))
            || line.contains("journal::Entry {");
        if entry {
            Some("builds a journal Entry".to_string())
        } else {
            line.contains("CampaignLock::acquire").then(|| "takes the campaign lock".to_string())
        }
    });
    assert_none("journal entries are built and the lock is taken only in src/store/", found);
}

/// A command file holds its wiring only: parse, call one use case, print.
const COMMAND_FILE_LINES: usize = 150;
/// No production function grows past this many lines.
const FUNCTION_LINES: usize = 120;

#[test]
fn command_files_are_wiring_only() {
    let long: Vec<String> = sources()
        .iter()
        .filter(|s| s.path.starts_with("src/commands/"))
        .filter_map(|s| {
            let n = s.lines.last().map_or(0, |(n, _)| *n);
            (n > COMMAND_FILE_LINES).then(|| format!("{}: {n} lines", s.path))
        })
        .collect();
    assert_none(&format!("every command file is at most {COMMAND_FILE_LINES} lines"), long);
}

/// The production functions of a file, each with its first line and length: from its `fn`
/// line to the closing brace at the same indentation, as rustfmt writes it.
fn functions(s: &Source) -> Vec<(usize, String, usize)> {
    let mut out = Vec::new();
    let lines = &s.lines;
    let mut i = 0;
    while i < lines.len() {
        let (n, line) = &lines[i];
        let body = line.trim_start();
        let indent = &line[..line.len() - body.len()];
        let head = ["pub fn ", "fn ", "pub(crate) fn ", "pub(super) fn ", "const fn ", "pub const fn "]
            .iter()
            .find_map(|p| body.strip_prefix(p));
        let Some(head) = head.filter(|_| !line.trim_end().ends_with(';')) else {
            i += 1;
            continue;
        };
        let name: String = head.chars().take_while(|c| ident(*c)).collect();
        let close = format!("{indent}}}");
        let mut j = i;
        while j < lines.len() && lines[j].1.trim_end() != close {
            j += 1;
        }
        let end = lines.get(j).map_or(*n, |(m, _)| *m);
        out.push((*n, name, end + 1 - n));
        i = j + 1;
    }
    out
}

#[test]
fn no_production_function_is_over_the_limit() {
    let long: Vec<String> = sources()
        .iter()
        .flat_map(|s| {
            functions(s)
                .into_iter()
                .filter(|(_, _, len)| *len > FUNCTION_LINES)
                .map(|(n, name, len)| format!("{}:{n}: fn {name} is {len} lines", s.path))
                .collect::<Vec<_>>()
        })
        .collect();
    assert_none(&format!("no production function is over {FUNCTION_LINES} lines"), long);
}

#[test]
fn the_function_scan_measures_a_function_to_its_closing_brace() {
    let s = Source {
        path: "src/x.rs".into(),
        lines: production_lines("fn a() {\n    let x = 1;\n}\nimpl A {\n    pub fn b(&self) {\n    }\n}\n"),
    };
    let f: Vec<(usize, String, usize)> = functions(&s);
    assert_eq!(f, [(1, "a".to_string(), 3), (5, "b".to_string(), 2)]);
}
