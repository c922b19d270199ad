//! How a CSV file was saved — its separator, line ends and encoding — as one value that
//! travels with the file's data from reading to writing, so that sowbridge writes a file
//! back the way the umpire's spreadsheet saved it.

/// How a CSV file was saved: what sowbridge keeps to write the file back the same way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Dialect {
    /// The field separator: `,` or `;`.
    pub separator: u8,
    /// The line ends.
    pub line_end: LineEnd,
    /// The text encoding.
    pub encoding: Encoding,
}

impl Default for Dialect {
    /// What sowbridge writes a new file in: `,`, LF, UTF-8.
    fn default() -> Self {
        Dialect { separator: b',', line_end: LineEnd::Lf, encoding: Encoding::Utf8 }
    }
}

/// The line ends of a file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LineEnd {
    /// `\n` (Linux, macOS, sowbridge's own).
    Lf,
    /// `\r\n` (Excel on Windows).
    CrLf,
    /// `\r` alone (old Macintosh CSV).
    Cr,
}

/// The separators sowbridge reads.
const SEPARATORS: [u8; 2] = [b',', b';'];

/// Which encoding a file was read in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    /// UTF-8 without a byte-order mark.
    Utf8,
    /// UTF-8 with a byte-order mark.
    Utf8Bom,
    /// Windows-1252 (a superset of ISO-8859-1's printable range).
    Windows1252,
}

impl Dialect {
    /// The dialect of a file from its first bytes (its header line, after any byte-order
    /// mark): the separator that comes most often outside quotes (`,` on a tie), and the
    /// line end of the first line.
    pub fn sniff(head: &[u8], encoding: Encoding) -> Dialect {
        let first_end = head.iter().position(|&b| b == b'\n' || b == b'\r');
        let line = &head[..first_end.unwrap_or(head.len())];
        let line_end = match first_end.map(|i| (head[i], head.get(i + 1))) {
            Some((b'\r', Some(b'\n'))) => LineEnd::CrLf,
            Some((b'\r', _)) => LineEnd::Cr,
            _ => LineEnd::Lf,
        };
        let [commas, semicolons] = SEPARATORS.map(|s| count_outside_quotes(line, s));
        let separator = if semicolons > commas { b';' } else { b',' };
        Dialect { separator, line_end, encoding }
    }

    /// The separator in words, for messages.
    pub fn separator_name(&self) -> &'static str {
        separator_name(self.separator)
    }
}

/// A separator in words.
pub fn separator_name(b: u8) -> &'static str {
    match b {
        b',' => "',' (comma)",
        b';' => "';' (semicolon)",
        b'\t' => "a tab",
        b'|' => "'|'",
        b':' => "':'",
        b' ' => "spaces",
        _ => "another character",
    }
}

fn count_outside_quotes(line: &[u8], sep: u8) -> usize {
    let mut quoted = false;
    line.iter()
        .filter(|&&b| {
            if b == b'"' {
                quoted = !quoted;
            }
            !quoted && b == sep
        })
        .count()
}
