//! The engine's CSV rules: which lines it reads, and how it splits them into fields.

/// One line of an engine CSV that the engine reads (not skipped), split into fields.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Record {
    /// 1-based line number.
    pub line: u64,
    /// Fields, quotes stripped, trimmed.
    pub fields: Vec<String>,
}

impl Record {
    /// Field `i`, "" past the end.
    pub fn field(&self, i: usize) -> &str {
        self.fields.get(i).map_or("", String::as_str)
    }
}

/// Splits one line as the engine does: commas separate fields, except inside a quote that
/// opens a field; every quote is dropped. Fields are trimmed.
pub fn split_fields(line: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut at_start = true;
    let mut quoted = false;
    for ch in line.chars() {
        match ch {
            '"' => {
                if quoted {
                    quoted = false;
                } else if at_start {
                    quoted = true;
                }
            }
            ',' if !quoted => {
                out.push(cur.trim().to_string());
                cur.clear();
                at_start = true;
                continue;
            }
            c => {
                if !(at_start && c.is_whitespace()) {
                    cur.push(c);
                }
            }
        }
        if ch != ' ' && ch != '\t' {
            at_start = false;
        }
    }
    out.push(cur.trim().to_string());
    out
}

/// Every line of a file after the header, numbered, with line ends removed.
pub(super) fn raw_lines(text: &str) -> Vec<(u64, &str)> {
    text.split('\n')
        .enumerate()
        .skip(1)
        .map(|(i, l)| (i as u64 + 1, l.strip_suffix('\r').unwrap_or(l)))
        .collect()
}

/// True for a line the engine skips: empty (or blank) or comma-led.
pub(super) fn skipped(raw: &str) -> bool {
    raw.trim().is_empty() || raw.starts_with(',')
}

/// The lines of a file the engine reads as rows.
pub fn records(text: &str) -> Vec<Record> {
    raw_lines(text)
        .into_iter()
        .filter(|(_, raw)| !skipped(raw))
        .map(|(line, raw)| Record { line, fields: split_fields(raw) })
        .collect()
}
