//! Tests of the CSV reader: whole and streamed, in every encoding and dialect.

use proptest::prelude::*;

use super::*;

/// Every record of a file (line and fields), its header and problems, as one reader sees
/// them; `None` when the streaming reader could not decide the encoding.
type Seen = (Vec<String>, Vec<(u64, Vec<String>)>, Vec<String>);

fn collect<R: std::io::Read>(mut r: Records<'_, R>, mut p: Problems) -> Option<Seen> {
    let mut rows = Vec::new();
    while let Some((line, rec)) = r.next_record(&mut p) {
        rows.push((line, rec.iter().map(str::to_string).collect()));
    }
    if r.undecidable() {
        return None;
    }
    Some((r.headers.clone(), rows, p.0.iter().map(|x| x.to_string()).collect()))
}

fn whole(bytes: &[u8]) -> Option<Seen> {
    let (text, enc) = decode(bytes);
    let mut p = Problems::default();
    let r = Records::open("f.csv", &text, enc, &mut p)?;
    collect(r, p)
}

fn streamed(bytes: &[u8]) -> Option<Option<Seen>> {
    let mut p = Problems::default();
    let r = Records::stream("f.csv", bytes, &mut p)?;
    if r.undecidable() {
        return Some(None);
    }
    Some(collect(r, p))
}

proptest! {
    /// Read record by record, a file gives what the whole file decoded gives, or says it
    /// cannot tell, and then only for a file that is not UTF-8 (after UTF-8 letters, or
    /// behind a UTF-16 byte-order mark). It may start with any byte-order mark.
    #[test]
    fn streaming_reads_as_the_whole_file_decoded(
        bom in prop_oneof![
            Just(&b""[..]), Just(&b"\xef\xbb\xbf"[..]), Just(&b"\xff\xfe"[..]), Just(&b"\xfe\xff"[..]),
        ],
        pieces in proptest::collection::vec(
            prop_oneof![
                Just(&b"a"[..]), Just(&b"1"[..]), Just(&b","[..]), Just(&b"\n"[..]),
                Just(&b"\r\n"[..]), Just(&b"\""[..]), Just(&b" "[..]), Just("é".as_bytes()),
                Just(&b"\xe9"[..]), Just(&b"\xc3"[..]), Just(&b"\xef\xbb\xbf"[..]),
            ],
            0..60,
        ),
    ) {
        let mut bytes = bom.to_vec();
        bytes.extend(b"id,name\n");
        for p in &pieces {
            bytes.extend_from_slice(p);
        }
        match streamed(&bytes) {
            Some(Some(seen)) => prop_assert_eq!(Some(seen), whole(&bytes)),
            Some(None) => {
                let (_, enc) = decode(&bytes);
                prop_assert_eq!(enc, super::super::text::Encoding::Windows1252);
            }
            None => prop_assert!(whole(&bytes).is_none()),
        }
    }
}

#[test]
fn a_file_whose_lines_end_with_cr_alone_names_its_true_lines() {
    let bytes = b"id,name\rA,1\r\rB,\"two\rlines\"\rC,3\r";
    let seen = whole(bytes).unwrap();
    let lines: Vec<u64> = seen.1.iter().map(|(l, _)| *l).collect();
    assert_eq!(lines, [2, 4, 6]);
    assert_eq!(seen.1[1].1, ["B", "two\rlines"]);
    // Streamed, it is left to the whole file.
    assert_eq!(streamed(bytes), Some(None));
    let crlf = whole(b"id,name\r\nA,1\r\n\r\nB,2").unwrap();
    assert_eq!(crlf.1.iter().map(|(l, _)| *l).collect::<Vec<_>>(), [2, 4]);
    // Blank lines in an LF file, read whole and streamed; a field over two lines.
    let lf = b"id,name\nA,1\n\n\nB,\"x\ny\"\nC,3\n\nD,4";
    let seen = whole(lf).unwrap();
    assert_eq!(seen.1.iter().map(|(l, _)| *l).collect::<Vec<_>>(), [2, 5, 7, 9]);
    assert_eq!(streamed(lf), Some(Some(seen)));
}

#[test]
fn a_windows_1252_file_is_decided_on_its_first_letter_when_all_before_is_ascii() {
    let bytes = b"id,name\nA,C\xe1diz\nB,Sevilla\n";
    let seen = streamed(bytes).unwrap().unwrap();
    assert_eq!(seen.1[0].1, ["A", "Cádiz"]);
    assert_eq!(Some(seen), whole(bytes));
    // UTF-8 letters first, then a Windows-1252 byte: only the whole file can tell.
    let mixed = b"id,name\nA,C\xc3\xa1diz\nB,M\xe1laga\n";
    assert_eq!(streamed(mixed), Some(None));
    assert_eq!(whole(mixed).unwrap().1[0].1, ["A", "C\u{c3}\u{a1}diz"]);
}
