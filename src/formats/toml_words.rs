//! TOML errors in the umpire's words. The TOML parser and serde speak of escape sequences,
//! `u16` and variants; an umpire editing `campaign.toml` needs the key at fault, what it
//! expects, and the cure — above all for the Windows path `"C:\Games\SOWGB\Work"`, whose
//! backslashes a double-quoted TOML string takes for escapes.

use crate::error::Problem;

/// What each key of `campaign.toml` expects, in words.
const CAMPAIGN_KEYS: [(&str, &str); 9] = [
    ("name", "the campaign's name in quotes"),
    ("seed", "a whole number (the seed of every die)"),
    ("turn", "a whole number, 1 or more (1 = early June 1808)"),
    ("profile", "a SoW profile's name in quotes: \"napmod-g1\" or \"x64\""),
    ("map.columns", "a whole number from 1 to 100"),
    ("map.rows", "a whole number from 1 to 100"),
    ("map.layout", "\"even-columns-down\" or \"odd-columns-down\""),
    ("paths.sow_work", "a folder in quotes (a Windows path in single quotes: 'C:\\Games\\SOWGB\\Work')"),
    ("paths.inbox", "a folder in quotes (a Windows path in single quotes: 'C:\\Games\\SOWGB\\Work')"),
];

/// The escapes a double-quoted TOML string knows.
const ESCAPES: &str = "bfnrtuU\\\"e";

/// A TOML error as a problem located at its line and key, in words.
pub(crate) fn toml_problem(file: &str, text: &str, e: &toml::de::Error) -> Problem {
    let at = e.span().map(|s| s.start.min(text.len()));
    let line_text = at.map(|s| line_around(text, s)).unwrap_or("");
    // A key missing from the top of the file is on no line.
    let nowhere = e.message().starts_with("missing field") && !line_text.trim_start().starts_with('[');
    let line = at.filter(|_| !nowhere).map(|s| text[..s].matches('\n').count() as u64 + 1);
    let setting = setting_of(line_text).map(|(k, v)| (qualified(text, at.unwrap_or(0), k), v));
    let (field, message) = in_words(file, e.message(), line_text, setting);
    Problem { file: file.to_string(), line, field, message }
}

/// The line of `text` that holds byte `at`.
fn line_around(text: &str, at: usize) -> &str {
    let start = text[..at].rfind('\n').map_or(0, |i| i + 1);
    let end = text[at..].find('\n').map_or(text.len(), |i| at + i);
    text[start..end].trim_end_matches('\r')
}

/// `key = value` on a line: the key and the value as written.
fn setting_of(line: &str) -> Option<(&str, &str)> {
    let (k, v) = line.split_once('=')?;
    let k = k.trim().trim_matches('"');
    let simple = !k.is_empty() && k.bytes().all(|b| b.is_ascii_alphanumeric() || b"_-.".contains(&b));
    simple.then(|| (k, v.trim()))
}

/// A key with the `[table]` it stands under (the last header before byte `at`).
fn qualified(text: &str, at: usize, key: &str) -> String {
    let table = text[..at]
        .lines()
        .rev()
        .map(str::trim)
        .find(|l| l.starts_with('[') && l.ends_with(']'))
        .map(|l| l.trim_matches(|c| c == '[' || c == ']').trim());
    match table {
        Some(t) if !t.is_empty() => format!("{t}.{key}"),
        _ => key.to_string(),
    }
}

/// What a key expects, in words, when the file is `campaign.toml`.
fn expects(file: &str, key: &str) -> Option<&'static str> {
    if !file.ends_with("campaign.toml") {
        return None;
    }
    CAMPAIGN_KEYS.iter().find(|(k, _)| *k == key).map(|(_, w)| *w)
}

/// serde's name of a type, in words.
fn type_words(t: &str) -> String {
    let t = t.trim();
    match t {
        "u8" | "u16" | "u32" | "u64" | "usize" | "an integer" | "integer" => "a whole number".to_string(),
        "i8" | "i16" | "i32" | "i64" | "isize" => "a whole number".to_string(),
        "f32" | "f64" | "a float" => "a number".to_string(),
        "a string" | "string" => "text in quotes".to_string(),
        "a boolean" | "bool" => "true or false".to_string(),
        "a sequence" => "a list in [ ]".to_string(),
        _ if t.starts_with("struct ") || t == "a map" => "a [table] of settings".to_string(),
        _ if t.starts_with("a decimal") => "a number".to_string(),
        _ => t.replace('`', "'"),
    }
}

/// serde's description of a value found, in words (`string "48"` → `the text "48"`).
fn found_words(f: &str) -> String {
    let f = f.trim();
    let plain = |s: &str| s.trim().trim_matches('`').to_string();
    if let Some(s) = f.strip_prefix("string ") {
        format!("the text {}", s.trim())
    } else if let Some(s) = f.strip_prefix("integer ") {
        format!("the number {}", plain(s))
    } else if let Some(s) = f.strip_prefix("floating point ") {
        format!("the number {}", plain(s))
    } else if let Some(s) = f.strip_prefix("boolean ") {
        plain(s)
    } else {
        f.replace('`', "'")
    }
}

/// The `` `a`, `b` `` names of a serde message, as a plain list.
fn names_in(s: &str) -> Vec<&str> {
    s.split('`').skip(1).step_by(2).collect()
}

/// The field and message of a TOML error.
fn in_words(file: &str, msg: &str, line: &str, setting: Option<(String, &str)>) -> (Option<String>, String) {
    let msg = msg.trim();
    let key = setting.as_ref().map(|(k, _)| k.clone());
    let wants =
        |k: &str, serde_type: &str| expects(file, k).map_or_else(|| type_words(serde_type), str::to_string);
    // A Windows path in a double-quoted string.
    if msg.contains("escape") {
        let (k, v) = setting.clone().unwrap_or_else(|| (String::new(), line.trim()));
        let inner = v.trim_matches('"');
        let bad = inner
            .split('\\')
            .skip(1)
            .find_map(|after| after.chars().next().filter(|c| !ESCAPES.contains(*c)))
            .map_or_else(|| "\\".to_string(), |c| format!("\\{c}"));
        let name =
            if k.is_empty() { "key".to_string() } else { k.rsplit('.').next().unwrap_or(&k).to_string() };
        let message = format!(
            "{v} is in double quotes, where TOML reads a backslash as the start of an escape, and \
             '{bad}' is not one. Write a Windows path in single quotes, {name} = '{inner}', or with \
             forward slashes, {name} = \"{slashes}\"",
            slashes = inner.replace('\\', "/"),
        );
        return (key, message);
    }
    if let Some(rest) = msg.strip_prefix("invalid type: ").or_else(|| msg.strip_prefix("invalid value: ")) {
        let (found, expected) = rest.split_once(", expected ").unwrap_or((rest, ""));
        let k = key.clone().unwrap_or_default();
        let mut message = format!("expects {}, not {}", wants(&k, expected), found_words(found));
        if found.starts_with("string ") && expected.starts_with(['u', 'i']) {
            message.push_str(": take away the quotes");
        }
        return (key, message);
    }
    if let Some(rest) = msg.strip_prefix("unknown variant ") {
        let (value, expected) = rest.split_once(", expected ").unwrap_or((rest, ""));
        let value = value.trim_matches('`');
        let choices = names_in(expected).join(", ");
        return (key, format!("'{value}' is not one of: {choices}"));
    }
    if let Some(rest) = msg.strip_prefix("missing field ") {
        let name = rest.trim_matches('`');
        // The error points at the table that lacks the key.
        let table = line.trim().trim_matches(|c| c == '[' || c == ']');
        let k = if line.trim().starts_with('[') && !table.is_empty() {
            format!("{table}.{name}")
        } else {
            name.to_string()
        };
        let message = format!("is missing: give it {}", wants(&k, ""));
        return (Some(k), message.trim_end_matches(": give it ").to_string());
    }
    if let Some(rest) = msg.strip_prefix("unknown field ") {
        let (name, expected) = rest.split_once(", expected ").unwrap_or((rest, ""));
        let name = name.trim_matches('`');
        let choices = names_in(expected).join(", ");
        let field = key.clone().unwrap_or_else(|| name.to_string());
        let message = if choices.is_empty() {
            "is not a key sowbridge knows".to_string()
        } else {
            format!("is not a key sowbridge knows here (the keys here are: {choices})")
        };
        return (Some(field), message);
    }
    if msg.starts_with("duplicate key") {
        return (key, "is set twice".to_string());
    }
    // Any other misreading: the key, what it expects, and how values are written.
    match setting {
        Some((k, v)) => {
            let what = expects(file, &k).map(|w| format!("; it expects {w}")).unwrap_or_default();
            (
                Some(k),
                format!(
                    "cannot read the value {v}{what}. Text goes in quotes, numbers and true or \
                     false without"
                ),
            )
        }
        None => (
            None,
            format!(
                "cannot read '{}': a setting is written key = value, and a table's name [in brackets]",
                line.trim()
            ),
        ),
    }
}

#[cfg(test)]
mod tests {
    use crate::error::Problems;
    use crate::formats::campaign::parse_config;

    const GOOD: &str = "name = \"T\"\nseed = 1808\nturn = 20\n[map]\ncolumns = 64\nrows = 48\n\
                        layout = \"even-columns-down\"\n[paths]\nsow_work = \"\"\ninbox = \"\"\n";

    fn shown(text: &str) -> Vec<String> {
        let mut p = Problems::default();
        parse_config(text.as_bytes(), &mut p);
        p.0.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn a_windows_path_in_double_quotes_gets_the_cure() {
        let text = GOOD.replace("sow_work = \"\"", "sow_work = \"C:\\Games\\SOWGB\\Work\"");
        assert_eq!(
            shown(&text),
            ["campaign.toml:9: paths.sow_work: \"C:\\Games\\SOWGB\\Work\" is in double quotes, where TOML \
              reads a backslash as the start of an escape, and '\\G' is not one. Write a Windows path in \
              single quotes, sow_work = 'C:\\Games\\SOWGB\\Work', or with forward slashes, sow_work = \
              \"C:/Games/SOWGB/Work\""]
        );
        let single = GOOD.replace("sow_work = \"\"", "sow_work = 'C:\\Games\\SOWGB\\Work'");
        assert!(shown(&single).is_empty());
    }

    #[test]
    fn a_bad_value_names_its_key_and_what_it_expects() {
        assert_eq!(
            shown(&GOOD.replace("rows = 48", "rows = \"48\"")),
            [
                "campaign.toml:6: map.rows: expects a whole number from 1 to 100, not the text \"48\": take away the quotes"
            ]
        );
        assert_eq!(
            shown(&GOOD.replace("layout = \"even-columns-down\"", "layout = \"even\"")),
            ["campaign.toml:7: map.layout: 'even' is not one of: even-columns-down, odd-columns-down"]
        );
        assert_eq!(
            shown(&GOOD.replace("turn = 20", "turn = twenty")),
            ["campaign.toml:3: turn: cannot read the value twenty; it expects a whole number, 1 or more \
              (1 = early June 1808). Text goes in quotes, numbers and true or false without"]
        );
        assert_eq!(
            shown(&GOOD.replace("columns = 64", "colums = 64")),
            [
                "campaign.toml:5: map.colums: is not a key sowbridge knows here (the keys here are: columns, rows, layout)"
            ]
        );
        let missing = shown(&GOOD.replace("seed = 1808\n", ""));
        assert_eq!(missing.len(), 1);
        assert!(missing[0].contains("seed: is missing: give it a whole number"), "{missing:?}");
        for m in [
            shown(&GOOD.replace("rows = 48", "rows = \"48\"")),
            shown(&GOOD.replace("turn = 20", "turn = twenty")),
        ] {
            assert!(!m[0].contains("u16") && !m[0].contains("expected `"), "{m:?}");
        }
    }
}
