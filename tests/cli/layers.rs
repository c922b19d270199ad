//! The layers of the source hold (design.md, "Layers, and what may import what"): the rules and
//! the model import no outer layer, the file system is touched only by the store and the
//! watcher, and of `formats/` only the reports read the rules. Each check reads every `.rs`
//! file under `src/` with its test code left out, and names every offending file and line.

use crate::common::repo;

/// The outer layers the pure core (`rules/`, `model/`) never imports.
const OUTER: [&str; 6] = ["formats", "store", "commands", "ops", "cli", "inbox"];

/// Files that still touch the file system outside `store/` and `inbox/`: each leaves this
/// list when its reading moves into `store/`.
const FS_NOT_YET_IN_STORE: [&str; 1] = [
    // Reads the orders files `march` is given.
    "src/commands/march.rs",
];

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
    let outside = |p: &str| {
        !p.starts_with("src/store/") && !p.starts_with("src/inbox/") && !FS_NOT_YET_IN_STORE.contains(&p)
    };
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
