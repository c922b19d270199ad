//! The NapMod Logistics reader on arbitrary files: the input is split at each `\0\0` into
//! unitglobal.csv, drills.csv, rifles.csv, artillery.csv and unitattributes.csv. Problems
//! are collected beside what could be read; it must never panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sowbridge::formats::logistics::{FILES, LogisticsFile, LogisticsFiles, parse_logistics};

fuzz_target!(|data: &[u8]| {
    let mut files = LogisticsFiles::default();
    let mut rest = data;
    for name in FILES {
        let (part, tail) = match rest.windows(2).position(|w| w == b"\0\0") {
            Some(i) => (&rest[..i], &rest[i + 2..]),
            None => (rest, &[][..]),
        };
        files.files.insert(name.to_string(), LogisticsFile { label: name.to_string(), bytes: part.to_vec() });
        rest = tail;
        if rest.is_empty() {
            break;
        }
    }
    let _ = parse_logistics(&files);
});
