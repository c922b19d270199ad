//! The campaign reader on arbitrary files: the input is split at each `\0\0` into
//! forces.csv, commanders.csv, settlements.csv, map/hexes.csv, map/roads.csv,
//! map/rivers.csv and, when there is a seventh part, campaign.toml (else a valid one).
//! It must accept or refuse with located problems, never panic; an accepted campaign's
//! contacts are found and its order of battle written back.
#![no_main]

use libfuzzer_sys::fuzz_target;
use sowbridge::formats::campaign::{CampaignFiles, names, parse_campaign, write_forces};

const TOML: &[u8] = b"name = \"Fuzz\"\nseed = 1\nturn = 20\n[map]\ncolumns = 64\nrows = 48\n";

fuzz_target!(|data: &[u8]| {
    let order = [
        names::FORCES,
        names::COMMANDERS,
        names::SETTLEMENTS,
        names::HEXES,
        names::ROADS,
        names::RIVERS,
        names::CAMPAIGN,
    ];
    let mut files = CampaignFiles::default();
    files.files.insert(names::CAMPAIGN, TOML.to_vec());
    let mut rest = data;
    for name in order {
        let (part, tail) = match rest.windows(2).position(|w| w == b"\0\0") {
            Some(i) => (&rest[..i], &rest[i + 2..]),
            None => (rest, &[][..]),
        };
        files.files.insert(name, part.to_vec());
        rest = tail;
        if rest.is_empty() {
            break;
        }
    }
    match parse_campaign(&files) {
        Ok(c) => {
            let _ = sowbridge::rules::zoc::contacts(&c);
            let _ = write_forces(&c.oob, c.dialect(names::FORCES));
        }
        Err(p) => assert!(!p.0.is_empty() && p.0.iter().all(|x| !x.file.is_empty())),
    }
});
