//! The order of battle read as it is parsed, on arbitrary bytes: it must give exactly what
//! the whole file decoded gives (header, every record with its line, every problem), or say
//! that only the whole file can read it, and then only for a file that is not UTF-8 or whose
//! lines end with CR alone. Never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sowbridge::error::Problems;
use sowbridge::formats::table::Records;
use sowbridge::formats::text::{Encoding, decode};
use sowbridge::model::dialect::LineEnd;

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

fuzz_target!(|data: &[u8]| {
    let (text, encoding) = decode(data);
    let mut p = Problems::default();
    let whole = Records::open("forces.csv", &text, encoding, &mut p).and_then(|r| collect(r, p));
    let mut p = Problems::default();
    match Records::stream("forces.csv", data, &mut p) {
        Some(r) if r.undecidable() => {
            assert!(encoding == Encoding::Windows1252 || r.dialect().line_end == LineEnd::Cr)
        }
        Some(r) => match collect(r, p) {
            Some(seen) => assert_eq!(Some(seen), whole),
            None => assert_eq!(encoding, Encoding::Windows1252),
        },
        None => assert!(whole.is_none()),
    }
});
