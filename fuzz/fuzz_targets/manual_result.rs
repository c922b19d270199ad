//! sowbridge's result CSV for a battle settled by hand on arbitrary bytes: read or refused with problems in its file, never a panic.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sowbridge::formats::results::parse_manual;

fuzz_target!(|data: &[u8]| {
    if let Err(p) = parse_manual("result.csv", data) {
        assert!(!p.0.is_empty() && p.0.iter().all(|x| x.file == "result.csv"));
    }
});
