//! Tests of `vocab init`'s choice of ids.

use super::score::{Words, class_score, drill_level, nation_words};
use crate::model::vocabulary::{SowLevel, VocabEntry};
use crate::model::{Arm, Nation};

fn entry(nation: Option<Nation>, level: SowLevel, arm: Option<Arm>) -> VocabEntry {
    VocabEntry {
        line: 2,
        nation,
        level,
        arm,
        class: String::new(),
        portrait: String::new(),
        weapon: String::new(),
        ammo: 0,
        flag: String::new(),
        flag2: String::new(),
        formation: String::new(),
        verified: false,
        comment: String::new(),
    }
}

#[test]
fn ids_split_into_words_and_short_words_must_match_whole() {
    let w = Words::new("NAP_FR_Cdr_HArt_Bty");
    assert_eq!(w.tokens, vec!["NAP", "FR", "CDR", "HART", "BTY"]);
    assert!(w.has("FR"));
    assert!(!Words::new("NAP_Fresh_Troops").has("FR"), "FR is a word, not a prefix");
    assert!(Words::new("NapBritishLightDragoons").any(nation_words(Nation::Br)));
    assert!(!Words::new("UGLB_Transport_Wagon").any(nation_words(Nation::Po)));
}

#[test]
fn a_battery_commander_never_gets_a_gun_class() {
    let e = entry(Some(Nation::Br), SowLevel::Brigade, Some(Arm::FootArtillery));
    let (cdr, _) = class_score(&e, "NAP_FRA_Art_Cdr_Bty");
    let (gun, _) = class_score(&e, "NAP_BRIT_Foot_Art_Limbered");
    assert!(cdr > gun, "{cdr} {gun}");
    let g = entry(Some(Nation::Br), SowLevel::Gun, Some(Arm::FootArtillery));
    assert!(class_score(&g, "NAP_BRIT_Foot_Art_Limbered").0 > class_score(&g, "NAP_BRIT_Art_Cdr_Bty").0);
}

#[test]
fn drill_levels_are_read_from_the_id() {
    assert_eq!(drill_level("DRIL_Lvl5_Art_Line"), Some(5));
    assert_eq!(drill_level("dril_lvl3_inf"), Some(3));
    assert_eq!(drill_level("DRIL_SupplyWagon"), None);
}
