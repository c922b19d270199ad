//! The one edit sowbridge makes to `campaign.toml`: the campaign's turn, changed on its own
//! line in place, so the umpire's comments and layout stay byte for byte; the edit is proved
//! by parsing the file before and after and finding nothing else changed.

use crate::error::{Error, Result};
use crate::formats::text::decode;

/// Sets the top-level `turn = N` of `campaign.toml` by editing that one line in place (its
/// indentation, spacing, trailing comment and line ending kept); every other byte of the
/// file is unchanged. Refuses when there is no such line or when the edited file would not
/// read back as the same settings with only the turn changed.
pub fn set_turn(bytes: &[u8], turn: u32) -> Result<Vec<u8>> {
    let mut out = Vec::with_capacity(bytes.len() + 4);
    let (mut top, mut in_basic, mut in_literal, mut done) = (true, false, false, false);
    for line in bytes.split_inclusive(|&b| b == b'\n') {
        let outside = !in_basic && !in_literal;
        if !done
            && top
            && outside
            && let Some(edited) = turn_line(line, turn)
        {
            out.extend_from_slice(&edited);
            done = true;
            continue;
        }
        if outside && line.trim_ascii_start().starts_with(b"[") {
            top = false;
        }
        in_basic ^= count(line, b"\"\"\"") % 2 == 1;
        in_literal ^= count(line, b"'''") % 2 == 1;
        out.extend_from_slice(line);
    }
    if !done {
        return Err(Error::refused("campaign.toml: no top-level `turn = N` line to change; nothing changed"));
    }
    let table = |b: &[u8]| -> Result<toml::Table> {
        let (text, _) = decode(b);
        text.parse::<toml::Table>()
            .map_err(|e| Error::refused(format!("campaign.toml: {}; nothing changed", e.message())))
    };
    let mut expected = table(bytes)?;
    expected.insert("turn".to_string(), toml::Value::Integer(i64::from(turn)));
    if table(&out)? != expected {
        return Err(Error::refused(
            "campaign.toml: editing its `turn` line would change more than the turn; set it by hand",
        ));
    }
    Ok(out)
}

fn count(hay: &[u8], needle: &[u8]) -> usize {
    hay.windows(needle.len()).filter(|w| *w == needle).count()
}

/// The line with its number replaced, when it is `turn = N` (with optional indentation, a
/// byte-order mark on the first line, spaces, a trailing comment and a line ending).
fn turn_line(line: &[u8], turn: u32) -> Option<Vec<u8>> {
    let body = line.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(line);
    let lead = line.len() - body.len() + (body.len() - body.trim_ascii_start().len());
    let rest = line[lead..].strip_prefix(b"turn")?;
    let after_key = rest.trim_ascii_start().strip_prefix(b"=")?;
    let value = after_key.trim_ascii_start();
    let start = line.len() - value.len();
    let digits = value.iter().take_while(|b| b.is_ascii_digit() || **b == b'_').count();
    if digits == 0 {
        return None;
    }
    let tail = &value[digits..];
    let tail_text = tail.trim_ascii();
    if !(tail_text.is_empty() || tail_text.starts_with(b"#")) {
        return None;
    }
    let mut out = line[..start].to_vec();
    out.extend_from_slice(turn.to_string().as_bytes());
    out.extend_from_slice(tail);
    Some(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    const TOML: &str = "# Late March 1809: Victor at Medellin.\r\nname = \"Turn = 3 is not this\"\r\nseed = 1808\r\n  turn   =  20   # the current turn\r\n\r\n[map]\r\ncolumns = 64 # wide\r\nrows = 48\r\n";

    #[test]
    fn only_the_turn_number_changes() {
        let out = set_turn(TOML.as_bytes(), 21).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), TOML.replace("=  20   #", "=  21   #"));
    }

    #[test]
    fn a_turn_key_inside_a_table_or_a_multiline_string_is_not_the_campaign_turn() {
        let text = "name = \"\"\"\nturn = 5\n\"\"\"\nseed = 1\n[paths]\nturn = 7\n";
        let err = set_turn(text.as_bytes(), 8).unwrap_err();
        assert!(err.to_string().contains("no top-level `turn = N` line"), "{err}");
        let text = "[map]\nturn = 7\n";
        assert!(set_turn(text.as_bytes(), 8).is_err());
        let text = "name = \"\"\"\nturn = 5\n\"\"\"\nturn = 9\n";
        assert_eq!(set_turn(text.as_bytes(), 10).unwrap(), b"name = \"\"\"\nturn = 5\n\"\"\"\nturn = 10\n");
    }

    #[test]
    fn a_bom_no_final_newline_and_latin1_bytes_are_kept() {
        let mut bytes = b"\xEF\xBB\xBFturn = 9".to_vec();
        assert_eq!(set_turn(&bytes, 10).unwrap(), b"\xEF\xBB\xBFturn = 10");
        bytes = b"name = \"M\xe9rida\"\nturn = 1\n".to_vec();
        assert_eq!(set_turn(&bytes, 2).unwrap(), b"name = \"M\xe9rida\"\nturn = 2\n");
    }

    #[test]
    fn a_turn_line_that_is_not_a_plain_number_is_refused() {
        assert!(set_turn(b"turn = \"20\"\n", 21).is_err());
        assert!(set_turn(b"turns = 20\n", 21).is_err());
        assert!(set_turn(b"turn = 20 junk\n", 21).is_err());
    }
}
