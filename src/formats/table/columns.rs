//! Checks on a header's column names: named twice, or missing.

use crate::error::{Problem, Problems};
use crate::formats::excel::foreign_separator;
use crate::model::dialect::separator_name;

/// Pushes a problem for each column named twice in a header (blank names aside): only one
/// of the two would be read, and the other silently ignored.
pub(super) fn duplicate_columns(file: &str, line: u64, headers: &[String], problems: &mut Problems) {
    let mut seen: std::collections::BTreeMap<&str, usize> = std::collections::BTreeMap::new();
    for (i, h) in headers.iter().enumerate().filter(|(_, h)| !h.is_empty()) {
        if let Some(first) = seen.insert(h, i) {
            problems.push(Problem::at(
                file,
                line,
                h,
                format!(
                    "the column is named twice in the header (columns {} and {}): only one would be read; \
                     remove or rename the other",
                    first + 1,
                    i + 1
                ),
            ));
        }
    }
}

/// Pushes a problem for each required column missing from a header read with the separator
/// `sep`; true when all are there. A header whose names are there but run together, joined
/// by a separator sowbridge does not read, is one problem that names that separator.
pub fn require_columns(
    file: &str,
    headers: &[String],
    sep: u8,
    names: &[&str],
    problems: &mut Problems,
) -> bool {
    let missing: Vec<&str> = names.iter().copied().filter(|n| !headers.iter().any(|h| h == n)).collect();
    if missing.is_empty() {
        return true;
    }
    if headers.iter().all(|h| h.is_empty()) {
        problems.push(Problem::at(
            file,
            1,
            "",
            "the file is empty (is it still being written, or was it saved without its header line?)",
        ));
        return false;
    }
    let glued = headers.iter().find_map(|h| foreign_separator(h, names).filter(|&b| b != sep));
    if let Some(b) = glued {
        problems.push(Problem::at(
            file,
            1,
            "",
            format!(
                "the header line's column names are separated by {}, which sowbridge does not read as \
                 a separator: save the file as CSV with ',' (comma) or ';' (semicolon) between fields",
                separator_name(b)
            ),
        ));
        return false;
    }
    for n in missing {
        problems.push(Problem::at(file, 1, n, "required column is missing from the header"));
    }
    false
}
