//! Text encodings at the edge. Input may be UTF-8, UTF-8 with a byte-order mark, or
//! Windows-1252 (what a spreadsheet on Windows saves); SoW's own files are ISO-8859-1 with
//! CRLF line ends, and that is how sowbridge writes every file the game reads.

use std::borrow::Cow;

pub use crate::model::dialect::Encoding;

/// Decodes bytes: UTF-8 (with or without BOM) when valid, else Windows-1252.
pub fn decode(bytes: &[u8]) -> (Cow<'_, str>, Encoding) {
    if let Some(rest) = bytes.strip_prefix(b"\xEF\xBB\xBF")
        && let Ok(s) = std::str::from_utf8(rest)
    {
        return (Cow::Borrowed(s), Encoding::Utf8Bom);
    }
    match std::str::from_utf8(bytes) {
        Ok(s) => (Cow::Borrowed(s), Encoding::Utf8),
        Err(_) => {
            let (s, _, _) = encoding_rs::WINDOWS_1252.decode(bytes);
            (s, Encoding::Windows1252)
        }
    }
}

/// Bytes as text: borrowed when they are UTF-8 (a picture sowbridge drew always is, and the
/// check is several times quicker than the lossy reading's), else read lossily.
pub fn utf8_or_lossy(bytes: &[u8]) -> Cow<'_, str> {
    match std::str::from_utf8(bytes) {
        Ok(s) => Cow::Borrowed(s),
        Err(_) => String::from_utf8_lossy(bytes),
    }
}

/// Encodes text as ISO-8859-1 for SoW: characters outside Latin-1 become their nearest
/// ASCII letter where one is obvious, else `?`. Line ends become CRLF.
pub fn encode_sow(text: &str) -> Vec<u8> {
    let mut out = Vec::with_capacity(text.len() + text.len() / 16);
    let mut prev_cr = false;
    for ch in text.chars() {
        if ch == '\n' && !prev_cr {
            out.push(b'\r');
        }
        prev_cr = ch == '\r';
        let code = u32::from(ch);
        if code < 0x100 {
            out.push(code as u8);
        } else {
            out.push(match ch {
                '‘' | '’' => b'\'',
                '“' | '”' => b'"',
                '–' | '—' => b'-',
                'Œ' => b'O',
                'œ' => b'o',
                _ => b'?',
            });
        }
    }
    out
}

/// Makes a name safe for the engine's CSV reader (sow-formats.md §1.1): no commas, no
/// quotes, no `$` (the SDK's comment character), no line breaks, no leading/trailing space.
pub fn sow_field(name: &str) -> String {
    let cleaned: String = name
        .chars()
        .map(|c| match c {
            ',' | ';' => ' ',
            '"' | '$' => '\'',
            '\r' | '\n' | '\t' => ' ',
            c => c,
        })
        .filter(|&c| c != '\'')
        .collect();
    cleaned.split_whitespace().collect::<Vec<_>>().join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utf8_is_borrowed_and_anything_else_read_lossily() {
        assert!(matches!(utf8_or_lossy("Ejército".as_bytes()), Cow::Borrowed("Ejército")));
        let lossy = utf8_or_lossy(b"Ej\xe9rcito");
        assert!(matches!(lossy, Cow::Owned(_)));
        assert_eq!(lossy, "Ej\u{FFFD}rcito");
    }

    #[test]
    fn decodes_the_three_input_encodings() {
        assert_eq!(decode("Cádiz".as_bytes()), (Cow::Borrowed("Cádiz"), Encoding::Utf8));
        let bom = [b"\xEF\xBB\xBF".as_slice(), "Cádiz".as_bytes()].concat();
        assert_eq!(decode(&bom).0, "Cádiz");
        assert_eq!(decode(&bom).1, Encoding::Utf8Bom);
        let cp = b"C\xE1diz \x80";
        let (s, e) = decode(cp);
        assert_eq!(s, "Cádiz €");
        assert_eq!(e, Encoding::Windows1252);
    }

    #[test]
    fn encodes_latin1_with_crlf() {
        assert_eq!(encode_sow("Ocaña\nBailén\r\n"), b"Oca\xF1a\r\nBail\xE9n\r\n".to_vec());
        assert_eq!(encode_sow("a–b"), b"a-b".to_vec());
    }

    #[test]
    fn sow_fields_have_no_commas_or_quotes() {
        assert_eq!(sow_field(" 9e Léger, 1st \"Bn\" "), "9e Léger 1st Bn");
    }
}
