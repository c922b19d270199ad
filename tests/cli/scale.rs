//! The synthetic campaign generator (`examples/gen_campaign.rs`) makes campaigns that
//! sowbridge accepts, with the contacts it promises, the same bytes for the same seed.

use std::collections::BTreeMap;

use sowbridge::formats::campaign::parse_campaign;
use sowbridge::rules::zoc::contacts;

use crate::common::*;
use crate::synth::{SynthOptions, generate};

#[test]
fn a_generated_campaign_passes_check_with_its_contacts() {
    for forces in [12, 100, 400] {
        let s = generate(&SynthOptions::new(forces, 7));
        let c = parse_campaign(&s.files).unwrap_or_else(|p| panic!("{forces} forces: {p:?}"));
        assert_eq!(c.oob.forces().count(), forces);
        assert_eq!(c.oob.units().len(), s.rows);
        // About twenty rows of order of battle per force.
        let per_force = s.rows as f64 / forces as f64;
        assert!((15.0..=25.0).contains(&per_force), "{per_force} rows per force");
        // Exactly the contacts promised, each at its hex, and nobody else in contact.
        let found = contacts(&c);
        assert_eq!(found.len(), s.contact_hexes.len(), "{forces} forces");
        for (k, h) in found.iter().zip(&s.contact_hexes) {
            assert!(k.hexes.contains(h), "contact {:?} lacks {h}", k.hexes);
            assert_eq!(k.hexes.len(), 2);
        }
        // Both sides, forces sharing hexes, roads crossing rivers on bridges.
        assert!(c.oob.forces().any(|f| f.side() == sowbridge::model::Side::Allies));
        let mut per_hex: BTreeMap<_, usize> = BTreeMap::new();
        for f in c.oob.forces() {
            *per_hex.entry(f.hex).or_default() += 1;
        }
        assert!(per_hex.values().any(|&n| n > 1));
        assert!(c.map.roads.keys().any(|s| c.map.rivers.contains_key(s)), "no bridge");
        // No SoW level gets near 99 children.
        for u in c.oob.units() {
            assert!(c.oob.children(&u.id).count() < 99);
        }
    }
}

#[test]
fn the_binary_checks_a_generated_campaign_folder() {
    let s = generate(&SynthOptions::new(60, 1808));
    let tmp = tempfile::tempdir().unwrap();
    s.write_to(tmp.path()).unwrap();
    let o = sowbridge(tmp.path(), &["check"]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("60 forces"), "{}", stdout(&o));
    let hex = s.contact_hexes[0].to_string();
    let out = tmp.path().join("out");
    let o = sowbridge(tmp.path(), &["export", "hex", &hex, "--out", out.to_str().unwrap()]);
    assert_code(&o, 0);
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    let a = generate(&SynthOptions::new(200, 3));
    let b = generate(&SynthOptions::new(200, 3));
    let c = generate(&SynthOptions::new(200, 4));
    assert_eq!(a.files.files, b.files.files);
    assert_ne!(a.files.files, c.files.files);
}
