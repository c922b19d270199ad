//! Robustness: the fixture's campaign files and sample result files, mutated thousands of
//! times by a seeded mutator (truncation, Windows-1252 bytes, a byte-order mark, swapped
//! columns, huge and negative numbers, emptied fields, duplicated rows, random bytes). Every
//! reader either accepts the file or refuses it with located problems; nothing panics, and
//! a refused command leaves the campaign folder as it was.

use std::collections::BTreeMap;
use std::panic::{AssertUnwindSafe, catch_unwind};

use rand::prelude::*;
use rand_chacha::ChaCha8Rng;
use sowbridge::formats::campaign::{CampaignFiles, names, parse_campaign, write_forces};
use sowbridge::formats::results::{parse_gamedb, parse_manual, parse_startlocs};
use sowbridge::rules::zoc::contacts;
use sowbridge::{Problem, Problems};

use crate::common::*;

/// The files of `fixtures/peninsula` by name.
fn fixture_files() -> CampaignFiles {
    let mut f = CampaignFiles::default();
    for name in [
        names::CAMPAIGN,
        names::HEXES,
        names::ROADS,
        names::RIVERS,
        names::SETTLEMENTS,
        names::FORCES,
        names::COMMANDERS,
    ] {
        f.files.insert(name, std::fs::read(fixture("peninsula").join(name)).unwrap());
    }
    f
}

/// Byte offsets of line starts.
fn line_starts(b: &[u8]) -> Vec<usize> {
    std::iter::once(0).chain(b.iter().enumerate().filter(|(_, c)| **c == b'\n').map(|(i, _)| i + 1)).collect()
}

/// Ranges of the digit runs in a file.
fn numbers(b: &[u8]) -> Vec<(usize, usize)> {
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        if b[i].is_ascii_digit() {
            let s = i;
            while i < b.len() && b[i].is_ascii_digit() {
                i += 1;
            }
            out.push((s, i));
        } else {
            i += 1;
        }
    }
    out
}

/// One mutation of a file's bytes, named for the failure message.
fn mutate(rng: &mut ChaCha8Rng, b: &mut Vec<u8>) -> &'static str {
    let pos = |rng: &mut ChaCha8Rng, b: &Vec<u8>| rng.random_range(0..=b.len());
    match rng.random_range(0..11) {
        0 => {
            let p = pos(rng, b);
            b.truncate(p);
            "truncated"
        }
        1 => {
            let p = pos(rng, b);
            let bytes = [[0xE9u8].as_slice(), &[0x80], &[0x96, 0xF1], &[0xC1, b'd', 0xED, b'z']];
            let ins = bytes[rng.random_range(0..bytes.len())];
            b.splice(p..p, ins.iter().copied());
            "windows-1252 bytes"
        }
        2 => {
            b.splice(0..0, [0xEF, 0xBB, 0xBF]);
            "utf-8 bom"
        }
        3 => {
            // Swap two columns of the header only (the data no longer matches its names).
            let end = b.iter().position(|&c| c == b'\n').unwrap_or(b.len());
            let head = String::from_utf8_lossy(&b[..end]).into_owned();
            let mut cols: Vec<&str> = head.split(',').collect();
            if cols.len() > 1 {
                let (i, j) = (rng.random_range(0..cols.len()), rng.random_range(0..cols.len()));
                cols.swap(i, j);
            }
            let new = cols.join(",");
            b.splice(0..end, new.into_bytes());
            "swapped columns"
        }
        k @ (4 | 5) => {
            let nums = numbers(b);
            if nums.is_empty() {
                return "no number to change";
            }
            let (s, e) = nums[rng.random_range(0..nums.len())];
            if k == 4 {
                let huge: &[&[u8]] = &[b"99999999999", b"4294967296", b"18446744073709551616", b"1e9"];
                b.splice(s..e, huge[rng.random_range(0..huge.len())].iter().copied());
                "huge number"
            } else {
                b.insert(s, b'-');
                "negative number"
            }
        }
        6 => {
            // Empty one field of a data row.
            let starts = line_starts(b);
            let l = rng.random_range(0..starts.len());
            let s = starts[l];
            let e = b[s..].iter().position(|&c| c == b'\n').map_or(b.len(), |x| s + x);
            let commas: Vec<usize> =
                std::iter::once(s).chain((s..e).filter(|&i| b[i] == b',').map(|i| i + 1)).collect();
            let f = commas[rng.random_range(0..commas.len())];
            let fe = (f..e).find(|&i| b[i] == b',').unwrap_or(e);
            b.drain(f..fe);
            "emptied field"
        }
        7 => {
            let starts = line_starts(b);
            let l = rng.random_range(0..starts.len());
            let s = starts[l];
            let e = starts.get(l + 1).copied().unwrap_or(b.len());
            let row = b[s..e].to_vec();
            let at = starts[rng.random_range(0..starts.len())];
            b.splice(at..at, row);
            "duplicated row"
        }
        8 => {
            for _ in 0..rng.random_range(1..8) {
                let p = pos(rng, b);
                let c = [b'"', b',', b'\n', b'\r', 0, 0xFF, b'.', b';', rng.random::<u8>()];
                b.insert(p, c[rng.random_range(0..c.len())]);
            }
            "random bytes"
        }
        9 => {
            let starts = line_starts(b);
            let l = rng.random_range(0..starts.len());
            let e = starts.get(l + 1).copied().unwrap_or(b.len());
            b.drain(starts[l]..e);
            "deleted line"
        }
        _ => {
            let n = rng.random_range(0..64);
            *b = (0..n).map(|_| rng.random::<u8>()).collect();
            "garbage file"
        }
    }
}

/// Mutates one to three of a campaign's files (or removes one).
fn mutate_campaign(rng: &mut ChaCha8Rng, files: &mut CampaignFiles) -> Vec<String> {
    let mut done = Vec::new();
    for _ in 0..rng.random_range(1..=3) {
        let keys: Vec<&'static str> = files.files.keys().copied().collect();
        let name = keys[rng.random_range(0..keys.len())];
        if rng.random_ratio(1, 40) {
            files.files.remove(name);
            done.push(format!("{name}: removed"));
            continue;
        }
        let Some(b) = files.files.get_mut(name) else { continue };
        let what = mutate(rng, b);
        done.push(format!("{name}: {what}"));
    }
    done
}

/// Every problem names a file of the campaign; one about a field of a row names its line.
#[track_caller]
fn assert_located(p: &Problems, known: &[&str], ctx: &str) {
    assert!(!p.0.is_empty(), "{ctx}: refused without a problem");
    for x in &p.0 {
        assert!(known.contains(&x.file.as_str()), "{ctx}: problem in unknown file: {x}");
        if x.file.ends_with(".csv") && x.field.is_some() {
            assert!(x.line.is_some(), "{ctx}: a field problem without its line: {x}");
        }
    }
}

const CAMPAIGN_FILES: [&str; 26] = names::ALL;

#[test]
fn mutated_campaigns_are_read_or_refused_with_located_problems_never_a_panic() {
    let base = fixture_files();
    let mut rng = ChaCha8Rng::seed_from_u64(1808);
    let (mut accepted, mut refused) = (0, 0);
    for i in 0..2500 {
        let mut files = base.clone();
        let done = mutate_campaign(&mut rng, &mut files);
        let ctx = format!("mutation {i}: {done:?}");
        let outcome = catch_unwind(AssertUnwindSafe(|| parse_campaign(&files)));
        let Ok(outcome) = outcome else { panic!("{ctx}: parse_campaign panicked") };
        match outcome {
            Ok(c) => {
                accepted += 1;
                // A campaign that passes is whole: its contacts can be found and its order
                // of battle written back and read again.
                let ok = catch_unwind(AssertUnwindSafe(|| {
                    let _ = contacts(&c);
                    let mut again = files.clone();
                    again.files.insert(names::FORCES, write_forces(&c.oob, c.dialect(names::FORCES)));
                    parse_campaign(&again).map(|d| d.oob.units().len())
                }));
                match ok {
                    Ok(Ok(n)) => assert_eq!(n, c.oob.units().len(), "{ctx}"),
                    Ok(Err(p)) => panic!("{ctx}: written back and refused: {p:?}"),
                    Err(_) => panic!("{ctx}: a valid campaign panicked in contacts or write_forces"),
                }
            }
            Err(p) => {
                refused += 1;
                assert_located(&p, &CAMPAIGN_FILES, &ctx);
            }
        }
    }
    // The mutations do both: some survive (an extra BOM, a duplicated hex line) and most not.
    assert!(accepted > 50 && refused > 1000, "accepted {accepted}, refused {refused}");
}

#[test]
fn a_missing_file_is_named_in_every_problem_it_causes() {
    for name in [names::ROADS, names::FORCES, names::COMMANDERS] {
        let mut files = fixture_files();
        files.files.remove(name);
        let p = parse_campaign(&files).unwrap_err();
        assert!(p.0.iter().any(|x| x.file == name && x.message == "file is missing"), "{p:?}");
        assert!(p.0.iter().all(|x| !x.file.is_empty()), "{name}: {p:?}");
    }
}

/// Writes a campaign folder from in-memory files.
fn write_campaign(dir: &std::path::Path, files: &CampaignFiles) {
    for (name, bytes) in &files.files {
        let p = dir.join(name);
        std::fs::create_dir_all(p.parent().unwrap()).unwrap();
        std::fs::write(p, bytes).unwrap();
    }
}

fn run_mutated_binary(seed: u64, count: usize, export: bool) {
    let base = fixture_files();
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut codes: BTreeMap<i32, usize> = BTreeMap::new();
    for i in 0..count {
        let mut files = base.clone();
        let done = mutate_campaign(&mut rng, &mut files);
        let tmp = tempfile::tempdir().unwrap();
        let dir = tmp.path().join("campaign");
        write_campaign(&dir, &files);
        let before = snapshot(&dir);
        let out = tmp.path().join("out");
        let o = if export {
            sowbridge(&dir, &["export", "hex", "18.28", "--out", out.to_str().unwrap()])
        } else {
            sowbridge(&dir, &["check"])
        };
        let ctx = format!("seed {seed} run {i}: {done:?}\n--- stderr\n{}", stderr(&o));
        let code = o.status.code();
        assert!(matches!(code, Some(0 | 1)), "{ctx}: exit {:?} (a panic is 101, a signal none)", code);
        *codes.entry(code.unwrap_or(-1)).or_default() += 1;
        if code == Some(1) {
            assert!(!stderr(&o).trim().is_empty(), "{ctx}: refused in silence");
            assert!(!stderr(&o).contains("panicked"), "{ctx}");
        }
        if !export || code == Some(1) {
            assert!(snapshot(&dir) == before, "{ctx}: the campaign folder changed");
            assert!(!out.exists(), "{ctx}: an output folder was made");
        }
    }
    assert!(codes.get(&1).copied().unwrap_or(0) > count / 2, "{codes:?}");
}

#[test]
fn check_on_mutated_campaign_folders_exits_0_or_1_and_changes_nothing() {
    run_mutated_binary(1809, 200, false);
}

#[test]
fn export_on_mutated_campaign_folders_refuses_without_a_trace() {
    run_mutated_binary(1810, 150, true);
}

/// A SoW battle dump (sow-formats.md §3.1): preamble, header, one or more rows per unit.
const DUMP: &str = include_str!("../data/sample-gamedb.csv");

const MANUAL: &str = "\
battle,unit,killed,wounded,missing,captured,guns_lost,ammo
T20-18.28,fr-9leger-1,40,110,85,30,0,35
T20-18.28,fr-art-3,2,5,0,0,2,
T20-18.28,br-29,12,40,8,0,,60
";

const STARTLOCS: &str = "\
Name,Ammo,dir x,dir z,loc x,loc z,Formation,Head Count,Fatigue,Morale,10:03:30
OOB_1_1_1_1_1_1,27,0.71,-0.71,10234.5,8832.1,DRIL_Lvl6_Inf_Line,563,120,900
OOB_2_1_1_1_2_3,15,-1,0,11000,9010.25,DRIL_Lvl6_Inf_Column,402,,
";

type Reader = fn(&str, &[u8]) -> Result<(), Problems>;

fn readers() -> [(&'static str, &'static str, Reader); 3] {
    [
        ("sowgb_gamedb_1.csv", DUMP, |f, b| parse_gamedb(f, b).map(drop)),
        ("result.csv", MANUAL, |f, b| parse_manual(f, b).map(drop)),
        ("startlocs.csv", STARTLOCS, |f, b| parse_startlocs(f, b).map(drop)),
    ]
}

#[test]
fn mutated_result_files_never_panic_and_refuse_with_their_file_name() {
    let mut rng = ChaCha8Rng::seed_from_u64(1811);
    for (file, sample, read) in readers() {
        assert!(read(file, sample.as_bytes()).is_ok(), "{file}: the sample itself");
        for i in 0..1500 {
            let mut b = sample.as_bytes().to_vec();
            if rng.random_bool(0.5) {
                b = sowbridge::formats::text::encode_sow(sample);
            }
            let what = mutate(&mut rng, &mut b);
            let ctx = format!("{file} mutation {i} ({what}): {:?}", String::from_utf8_lossy(&b));
            match catch_unwind(AssertUnwindSafe(|| read(file, &b))) {
                Err(_) => panic!("{ctx}: panicked"),
                Ok(Ok(())) => {}
                Ok(Err(p)) => assert_located(&p, &[file], &ctx),
            }
        }
    }
}

#[test]
fn a_truncated_dump_is_refused_unless_cut_exactly_at_a_line_end() {
    for bytes in [DUMP.as_bytes().to_vec(), sowbridge::formats::text::encode_sow(DUMP)] {
        for cut in 0..bytes.len() {
            let b = &bytes[..cut];
            let at_line_end = cut > 0 && matches!(b[cut - 1], b'\n' | b'\r');
            let r = catch_unwind(|| parse_gamedb("sowgb_gamedb_1.csv", b))
                .unwrap_or_else(|_| panic!("cut at {cut}: panicked"));
            if !at_line_end {
                let p: Vec<Problem> = r.expect_err(&format!("cut at byte {cut} was accepted")).0;
                assert!(p.iter().all(|x| x.file == "sowgb_gamedb_1.csv"));
            }
        }
    }
}
