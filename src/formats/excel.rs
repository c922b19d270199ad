//! What a spreadsheet does to the umpire's CSV files, in one place. Excel saves with `;`
//! between fields in Spanish, French, Portuguese and German locales, with CRLF line ends,
//! with a byte-order mark or in Windows-1252; sowbridge reads each of these and writes a file
//! back the way it found it ([`Dialect`]), so that Excel opens it again unchanged. Excel also
//! reformats what it takes for numbers (`17.30` saved as `17.3`, `1200` as `1,200` or
//! `1.0E+3`); [`count_problem`] and [`id_problem`] recognise those and say so, so that they
//! are refused with the cure instead of misread.

use crate::model::dialect::{Dialect, Encoding, LineEnd};

impl Dialect {
    /// A CSV reader for this dialect. Records end at `\n` (a `\r` before it is left on the
    /// last field, which every reader trims), so that the line of each record counts every
    /// line end once: the csv crate's own CRLF handling puts a CRLF file's records one line
    /// too early.
    pub fn reader(&self) -> csv::ReaderBuilder {
        let mut b = csv::ReaderBuilder::new();
        b.has_headers(true).flexible(true).delimiter(self.separator);
        if self.line_end != LineEnd::Cr {
            b.terminator(csv::Terminator::Any(b'\n'));
        }
        b
    }

    /// A CSV writer for this dialect (the text is encoded afterwards by [`Dialect::encode`]).
    pub fn writer(&self) -> csv::WriterBuilder {
        let mut b = csv::WriterBuilder::new();
        b.delimiter(self.separator).terminator(match self.line_end {
            LineEnd::Lf => csv::Terminator::Any(b'\n'),
            LineEnd::CrLf => csv::Terminator::CRLF,
            LineEnd::Cr => csv::Terminator::Any(b'\r'),
        });
        b
    }

    /// Encodes UTF-8 text written by [`Dialect::writer`] in the dialect's encoding. A
    /// Windows-1252 file that gained a character Windows-1252 lacks is written as UTF-8 with
    /// a byte-order mark, which Excel also reads correctly.
    pub fn encode(&self, utf8: Vec<u8>) -> Vec<u8> {
        const BOM: &[u8] = b"\xEF\xBB\xBF";
        match self.encoding {
            Encoding::Utf8 => utf8,
            Encoding::Utf8Bom => [BOM, &utf8].concat(),
            Encoding::Windows1252 => {
                let text = String::from_utf8_lossy(&utf8);
                let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(&text);
                if unmappable { [BOM, &utf8].concat() } else { bytes.into_owned() }
            }
        }
    }
}

/// The other separator sowbridge reads.
pub fn other_separator(sep: u8) -> u8 {
    if sep == b';' { b',' } else { b';' }
}

/// When a header's column names are not separated by `,` or `;`: the character that seems
/// to separate them. `names` are the columns the file should have.
pub fn foreign_separator(header: &str, names: &[&str]) -> Option<u8> {
    let h = header.to_ascii_lowercase();
    // Two of the expected names inside the one field, with the same character between
    // them: that character is the separator.
    if names.iter().filter(|n| h.contains(*n)).count() < 2 {
        return None;
    }
    let mut counts: Vec<(u8, usize)> = Vec::new();
    for b in h.bytes().filter(|b| !b.is_ascii_alphanumeric() && *b != b'_' && *b != b'-' && *b != b'"') {
        match counts.iter_mut().find(|(c, _)| *c == b) {
            Some((_, n)) => *n += 1,
            None => counts.push((b, 1)),
        }
    }
    counts.into_iter().max_by_key(|&(_, n)| n).map(|(b, _)| b)
}

/// Why a field that should be a whole number is not one, in the umpire's words, with the
/// likely reading where Excel reformatted it.
pub fn count_problem(t: &str) -> String {
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    if t.starts_with('-') && digits(&t[1..]) {
        return format!("'{t}' is negative");
    }
    if let Some(n) = scientific(t) {
        return format!(
            "'{t}' is a number in scientific notation, as Excel shows a long number{}; write \
             the whole number and format the column as Number with no decimals, or as Text",
            n.map(|n| format!(" (did you mean {n}?)")).unwrap_or_default()
        );
    }
    // Groups of three digits after the first: a thousands separator.
    for sep in [',', '.', ' ', '\u{a0}', '\u{202f}', '\''] {
        let mut parts = t.split(sep);
        let first = parts.next().unwrap_or("");
        let rest: Vec<&str> = parts.collect();
        if !rest.is_empty()
            && digits(first)
            && first.len() <= 3
            && rest.iter().all(|p| p.len() == 3 && digits(p))
        {
            let whole: String = t.chars().filter(char::is_ascii_digit).collect();
            return format!(
                "'{t}' has a thousands separator (did you mean {whole}?); Excel adds them when the \
                 column is formatted as Number with separators: write {whole} and format the column \
                 as General or Text",
            );
        }
    }
    for mark in ['.', ','] {
        if let Some((whole, frac)) = t.split_once(mark)
            && digits(whole)
            && digits(frac)
        {
            return if frac.bytes().all(|b| b == b'0') {
                format!("'{t}' has decimals (did you mean {whole}?); write whole numbers without decimals")
            } else {
                format!("'{t}' is not a whole number")
            };
        }
    }
    format!("'{t}' is not a whole number")
}

/// A number in scientific notation (`1.0E+3`, `1,2E+05`), with its value when that is a
/// whole number of reasonable size.
fn scientific(t: &str) -> Option<Option<u64>> {
    // Its whole part is digits, never empty: most text (every id) is ruled out by its first byte.
    if !t.as_bytes().first().is_some_and(u8::is_ascii_digit) {
        return None;
    }
    let (mantissa, exp) = t.split_once(['E', 'e'])?;
    let exp: i32 = exp.strip_prefix('+').unwrap_or(exp).parse().ok()?;
    let (int, frac) = mantissa.split_once(['.', ',']).unwrap_or((mantissa, ""));
    let digit_ok = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if int.is_empty() || !digit_ok(int) || !digit_ok(frac) {
        return None;
    }
    let shift = usize::try_from(exp).ok()?;
    let frac = frac.trim_end_matches('0');
    if frac.len() > shift || shift > 15 {
        return Some(None);
    }
    let text = format!("{int}{frac}{}", "0".repeat(shift - frac.len()));
    Some(text.parse().ok())
}

/// An id that Excel turned into a number in scientific notation (`1.23457E+11`): its
/// digits are lost, so it is refused with the cure.
pub fn id_problem(t: &str) -> Option<String> {
    scientific(t)?;
    Some(format!(
        "'{t}' looks like an id that Excel showed in scientific notation and saved so; its \
         digits are lost: format the column as Text and type the id again"
    ))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_semicolon_header_is_read_with_semicolons_and_crlf_is_kept() {
        let d = Dialect::sniff(b"id;parent;name\r\nx;y;\"a,b\"\r\n", Encoding::Utf8);
        assert_eq!((d.separator, d.line_end), (b';', LineEnd::CrLf));
        let d = Dialect::sniff(b"id,name,\"x;y;z\"\n", Encoding::Utf8);
        assert_eq!((d.separator, d.line_end), (b',', LineEnd::Lf));
        assert_eq!(Dialect::sniff(b"id,name\r", Encoding::Utf8).line_end, LineEnd::Cr);
    }

    #[test]
    fn a_dialect_writes_what_it_read() {
        let d = Dialect { separator: b';', line_end: LineEnd::CrLf, encoding: Encoding::Windows1252 };
        let mut w = d.writer().from_writer(Vec::new());
        w.write_record(["id", "name"]).unwrap();
        w.write_record(["FR-9L", "9e Léger; 1st"]).unwrap();
        let bytes = d.encode(w.into_inner().unwrap());
        assert_eq!(bytes, b"id;name\r\nFR-9L;\"9e L\xe9ger; 1st\"\r\n");
        // A letter Windows-1252 lacks: UTF-8 with a byte-order mark instead.
        assert_eq!(d.encode("Łódź".as_bytes().to_vec()), "\u{feff}Łódź".as_bytes());
    }

    #[test]
    fn numbers_excel_reformatted_are_named() {
        assert!(count_problem("1,200").contains("did you mean 1200?"), "{}", count_problem("1,200"));
        assert!(count_problem("1.200").contains("thousands separator"));
        assert!(count_problem("12 000").contains("did you mean 12000?"));
        assert!(count_problem("1.0E+3").contains("did you mean 1000?"), "{}", count_problem("1.0E+3"));
        assert!(count_problem("1,5E+03").contains("did you mean 1500?"));
        assert!(count_problem("500.0").contains("did you mean 500?"));
        assert_eq!(count_problem("-3"), "'-3' is negative");
        assert_eq!(count_problem("five"), "'five' is not a whole number");
        assert_eq!(count_problem("1,20"), "'1,20' is not a whole number");
        assert!(id_problem("1.23457E+11").is_some());
        assert!(id_problem("FR-I").is_none());
        assert!(id_problem("E3").is_none());
    }

    #[test]
    fn a_foreign_separator_is_found_between_the_expected_names() {
        assert_eq!(foreign_separator("name\tside\tbattles_fought", &["name", "side"]), Some(b'\t'));
        assert_eq!(foreign_separator("name|side", &["name", "side"]), Some(b'|'));
        assert_eq!(foreign_separator("nom", &["name", "side"]), None);
    }
}
