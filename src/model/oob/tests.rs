//! Tests of the order of battle's tree and indexes.

use compact_str::CompactString;

use super::*;
use crate::model::HexId;
use crate::model::kinds::{Arm, Level, Nation, Side, Status, StatusKind, Supply};

fn unit(id: &str, parent: Option<&str>, men: u32) -> Unit {
    Unit {
        id: id.into(),
        parent: parent.map(CompactString::from),
        level: if men == 0 { Level::Brigade } else { Level::Battalion },
        name: id.into(),
        nation: Nation::Fr,
        arm: (men > 0).then_some(Arm::Line),
        men,
        squadrons: 0,
        guns: 0,
        hex: None,
        moving_to: None,
        supply: Supply::In,
        supply_column: Supply::In,
        quality: None,
        ammo: None,
        rare: None,
    }
}

#[test]
fn the_indexes_find_rows_children_and_strength_in_file_order() {
    let oob = OrderOfBattle::new(
        vec![
            unit("B", None, 0),
            unit("B-2", Some("B"), 400),
            unit("B-1", Some("B"), 500),
            unit("B", None, 0),
            unit("X-1", Some("X"), 300),
        ],
        Vec::new(),
    );
    // A duplicated id is the first row of it; its children are every row naming it.
    assert_eq!(oob.get("B").map(|u| u.id.as_str()), Some("B"));
    let kids: Vec<&str> = oob.children("B").map(|u| u.id.as_str()).collect();
    assert_eq!(kids, ["B-2", "B-1"]);
    assert_eq!(oob.strength("B").infantry, 900);
    // A parent that names no row still lists its children.
    let orphans: Vec<&str> = oob.children("X").map(|u| u.id.as_str()).collect();
    assert_eq!(orphans, ["X-1"]);
    assert!(oob.get("X").is_none());
    assert_eq!(oob.force_of("B-1").map(|u| u.id.as_str()), Some("B"));
    assert_eq!(oob.duplicates(), [(3, 0)]);
    assert_eq!(oob.parent_row(2), Some(0));
    assert_eq!(oob.parent_row(4), None);
}

#[test]
fn a_parent_listed_after_its_children_is_found() {
    let oob = OrderOfBattle::new(
        vec![
            unit("C-1", Some("C"), 100),
            unit("C-2", Some("C"), 200),
            unit("C", None, 0),
            unit("D-1", Some("C-1"), 0),
        ],
        Vec::new(),
    );
    assert_eq!(oob.parent_row(0), Some(2));
    assert_eq!(oob.parent_row(1), Some(2));
    assert_eq!(oob.parent_row(3), Some(0));
    let kids: Vec<&str> = oob.children("C").map(|u| u.id.as_str()).collect();
    assert_eq!(kids, ["C-1", "C-2"]);
    assert_eq!(oob.forces().map(|u| u.id.as_str()).collect::<Vec<_>>(), ["C"]);
}

#[test]
fn ids_whose_hashes_clash_are_still_told_apart() {
    let mut oob = OrderOfBattle::new(vec![unit("A", None, 0), unit("A-1", Some("A"), 100)], Vec::new());
    // Force a clash: both ids under one hash, the second kept in the clash list.
    oob.index.clear();
    oob.index.insert(hash_id("A"), 0);
    oob.index.insert(hash_id("A-1"), 0);
    oob.clashes.push(1);
    assert_eq!(oob.get("A-1").map(|u| u.men), Some(100));
    assert_eq!(oob.get("A").map(|u| u.men), Some(0));
}

#[test]
fn a_force_has_men_while_one_of_its_units_has_any() {
    let mut wiped = unit("b2", Some("f"), 1);
    wiped.men = 0; // a battalion that lost every man
    let oob = OrderOfBattle::new(
        vec![unit("f", None, 0), unit("b1", Some("f"), 300), wiped.clone(), unit("g", None, 0)],
        Vec::new(),
    );
    assert!(!wiped.has_men() && wiped.is_unit(), "a unit with 0 men present");
    assert!(!oob.get("f").unwrap().has_men(), "a formation has no men of its own");
    assert!(oob.has_men("f") && oob.has_men("b1") && !oob.has_men("b2"));
    assert!(!oob.has_men("g"), "a formation without units");
    let oob = OrderOfBattle::new(vec![unit("f", None, 0), wiped], Vec::new());
    assert!(!oob.has_men("f"), "every unit reduced to 0: no men present");
    assert_eq!(oob.strength("f").men(), 0);
}

#[test]
fn a_force_s_men_and_strength_follow_every_change_of_its_rows() {
    let oob = OrderOfBattle::new(
        vec![
            unit("F", None, 0),
            unit("F-1", Some("F"), 0),
            unit("F-1-a", Some("F-1"), 300),
            unit("G", None, 0),
            unit("G-1", Some("G"), 200),
            unit("F-2", Some("F"), 100),
        ],
        Vec::new(),
    );
    // Asked as a force (worked out once for every force) or as a formation under one (its
    // tree walked), the answers are the walk's.
    let walked = |oob: &OrderOfBattle, id: &str| oob.walk(id).map(|u| Strength::of_row(u).men()).sum::<u32>();
    for id in ["F", "F-1", "G", "F-1-a"] {
        assert_eq!(oob.strength(id).men(), walked(&oob, id), "{id}");
    }
    assert_eq!(oob.force_numbers(), [Some(0), Some(0), Some(0), Some(1), Some(1), Some(0)]);
    let (mut a, mut b) = (oob.clone(), oob.clone());
    // A row changed by its id: the force's men and strength are those of its rows now.
    a.get_mut("F-1-a").unwrap().men = 0;
    a.get_mut("F-2").unwrap().men = 0;
    assert!(!a.has_men("F") && a.strength("F").men() == 0 && a.has_men("G"));
    a.get_mut("F-2").unwrap().men = 50;
    assert!(a.has_men("F") && a.strength("F").infantry == 50);
    // Every row changed at once.
    for u in b.units_mut() {
        u.men *= 2;
    }
    assert_eq!((b.strength("F").men(), b.strength("G").men()), (800, 400));
    // What was worked out makes no difference to equality, and a supply state set changes
    // no strength.
    assert_ne!(a, oob);
    let mut c = oob.clone();
    c.set_supply([("G", Supply::Out)]);
    assert_eq!((c.get("G").unwrap().supply, c.strength("G").men()), (Supply::Out, 200));
    c.set_supply([("G", Supply::In)]);
    assert_eq!(c, OrderOfBattle::new(oob.units().to_vec(), Vec::new()));
}

#[test]
fn a_row_is_asked_about_by_its_id_or_by_itself_with_the_same_answers() {
    let oob = OrderOfBattle::new(
        vec![
            unit("A", None, 0),
            unit("A-1", Some("A"), 400),
            unit("B", None, 0),
            unit("B-1", Some("B"), 0),
            unit("B-2", Some("B"), 300),
        ],
        Vec::new(),
    );
    for f in oob.forces() {
        // The row the order of battle handed out, a copy of it (found by its id) and its id.
        let copy = f.clone();
        assert_eq!(oob.strength(f), oob.strength(f.id.as_str()));
        assert_eq!(oob.strength(&copy), oob.strength(f.id.as_str()));
        assert_eq!(oob.has_men(f), oob.has_men(&copy));
        let ids = |v: Vec<&Unit>| v.into_iter().map(|u| u.id.to_string()).collect::<Vec<_>>();
        assert_eq!(ids(oob.subtree(f)), ids(oob.subtree(f.id.as_str())));
        assert_eq!(ids(oob.subtree(&copy)), ids(oob.subtree(f.id.as_str())));
        assert_eq!(ids(oob.children(f).collect()), ids(oob.children(&copy).collect()));
    }
    assert_eq!(oob.strength(oob.get("B").unwrap()).men(), 300);
    // A row of another order of battle is looked up by its id, never by its place.
    let other = OrderOfBattle::new(vec![unit("Z", None, 0), unit("A-1", None, 9)], Vec::new());
    let stranger = other.get("A-1").unwrap();
    assert_eq!(oob.strength(stranger).men(), 400);
    assert!(oob.subtree(other.get("Z").unwrap()).is_empty());
}

#[test]
fn a_row_knows_the_line_it_was_read_from_and_lines_make_no_difference() {
    let rows = || vec![unit("A", None, 0), unit("A-1", Some("A"), 400), unit("A-2", Some("A"), 300)];
    let read = OrderOfBattle::new(rows(), Vec::new()).with_lines(vec![2, 4, 5]);
    assert_eq!(read.line_of("A-1"), Some(4));
    assert_eq!(read.line_of(read.get("A-2").unwrap()), Some(5));
    assert_eq!(read.line_of("B"), None);
    // Built, not read, or given lines that do not fit its rows: no line is known.
    let built = OrderOfBattle::new(rows(), Vec::new());
    assert_eq!(built.line_of("A-1"), None);
    assert_eq!(OrderOfBattle::new(rows(), Vec::new()).with_lines(vec![2]).line_of("A"), None);
    assert_eq!(read, built, "where a row was read is not part of the order of battle");
}

/// Each row's parent as the definition has it: the first row with the id the row names.
fn parents_by_definition(units: &[Unit]) -> Vec<Option<usize>> {
    let mut first: std::collections::HashMap<&str, usize> = std::collections::HashMap::new();
    for (i, u) in units.iter().enumerate() {
        first.entry(u.id.as_str()).or_insert(i);
    }
    units.iter().map(|u| u.parent.as_ref().and_then(|p| first.get(p.as_str()).copied())).collect()
}

#[test]
fn a_large_order_of_battle_finds_every_parent_and_child_as_defined() {
    // Thousands of ordinary forces in tree order, with every kind of row whose parent is not
    // the row before it, or that row's parent, put in among them.
    let mut units = Vec::new();
    for f in 0..1500 {
        let force = format!("F{f}");
        units.push(unit(&force, None, 0));
        for b in 0..3 {
            let brigade = format!("{force}-{b}");
            units.push(unit(&brigade, Some(&force), 0));
            for k in 0..3 {
                units.push(unit(&format!("{brigade}-{k}"), Some(&brigade), 100));
            }
        }
        match f {
            // A duplicated id, then rows naming it right after its second row: their parent
            // is its first row.
            100 => {
                units.push(unit("D", None, 0));
                units.push(unit("D-1", Some("D"), 100));
            }
            900 => {
                units.push(unit("D", None, 0));
                units.push(unit("D-2", Some("D"), 100));
                units.push(unit("D-3", Some("D"), 100));
            }
            // Children listed before their parent, an orphan, a row naming itself.
            200 => {
                units.push(unit("L-1", Some("L"), 100));
                units.push(unit("L-2", Some("L"), 100));
                units.push(unit("O-1", Some("NOWHERE"), 100));
                units.push(unit("S", Some("S"), 0));
            }
            300 => units.push(unit("L", None, 0)),
            _ => {}
        }
    }
    assert!(units.len() >= 1 << 14, "a large order of battle: {}", units.len());
    let expected = parents_by_definition(&units);
    let oob = OrderOfBattle::new(units.clone(), Vec::new());
    for (i, parent) in expected.iter().enumerate() {
        assert_eq!(oob.parent_row(i), *parent, "row {i} ({})", units[i].id);
    }
    let kids = |id: &str| oob.children(id).map(|u| u.id.to_string()).collect::<Vec<_>>();
    assert_eq!(kids("D"), ["D-1", "D-2", "D-3"]);
    assert_eq!(kids("L"), ["L-1", "L-2"]);
    assert_eq!(kids("NOWHERE"), ["O-1"]);
    assert_eq!(kids("F7-1"), ["F7-1-0", "F7-1-1", "F7-1-2"]);
    // Every row is the child of its parent, once, in file order.
    let mut by_definition: Vec<Vec<&str>> = vec![Vec::new(); units.len()];
    for (u, parent) in units.iter().zip(&expected) {
        if let Some(p) = *parent {
            by_definition[p].push(u.id.as_str());
        }
    }
    for (p, wanted) in by_definition.iter().enumerate().filter(|(_, w)| !w.is_empty()) {
        let found: Vec<&str> = oob.children(units[p].id.as_str()).map(|c| c.id.as_str()).collect();
        assert_eq!(&found, wanted, "children of row {p} ({})", units[p].id);
    }
    let tops: Vec<&str> = oob.forces().map(|u| u.id.as_str()).take(3).collect();
    assert_eq!(tops, ["F0", "F1", "F2"]);
    assert_eq!(oob.forces().len(), units.iter().filter(|u| u.parent.is_none()).count());
    // A part of the same rows gives the same answers.
    let small: Vec<Unit> = units[..units.len() / 4].to_vec();
    let small_oob = OrderOfBattle::new(small.clone(), Vec::new());
    for (i, parent) in parents_by_definition(&small).iter().enumerate() {
        assert_eq!(small_oob.parent_row(i), *parent, "row {i} ({})", small[i].id);
    }
    assert_eq!(oob.duplicates().len(), 1);
}

/// Each force's men present and strength, its force number by row and the men of all rows,
/// as the order of battle answers them.
fn totals_of(oob: &OrderOfBattle) -> (Vec<(bool, Strength)>, Vec<Option<u32>>, u64) {
    let forces = oob.forces().map(|f| (oob.has_men(f), oob.strength(f))).collect();
    (forces, oob.force_numbers().to_vec(), oob.total_men())
}

#[test]
fn the_men_and_strength_summed_while_indexing_are_those_worked_out_on_asking() {
    let cavalry = |id: &str, parent: &str, men: u32| Unit {
        level: Level::Regiment,
        arm: Some(Arm::LightCavalry),
        squadrons: 4,
        ..unit(id, Some(parent), men)
    };
    let battery = |id: &str, parent: &str| Unit {
        level: Level::Battery,
        arm: Some(Arm::FootArtillery),
        guns: 8,
        ..unit(id, Some(parent), 120)
    };
    // Rows in tree order, with a duplicated id, a force without men and every arm.
    let in_order = vec![
        unit("F", None, 0),
        unit("F-1", Some("F"), 0),
        unit("F-1-a", Some("F-1"), 300),
        cavalry("F-1-b", "F-1", 280),
        battery("F-B", "F"),
        unit("G", None, 0),
        unit("G-1", Some("G"), 0),
        unit("F", None, 0),
        unit("F-2", Some("F"), 100),
        unit("H", None, 0),
        unit("H-1", Some("H"), 0),
    ];
    let built = OrderOfBattle::new(in_order.clone(), Vec::new());
    assert!(built.derived.0.get().is_some(), "rows in tree order are summed while the index is built");
    let mut asked = built.clone();
    asked.units_mut();
    assert!(asked.derived.0.get().is_none());
    assert_eq!(totals_of(&built), totals_of(&asked));
    let (forces, numbers, men) = totals_of(&built);
    assert_eq!(
        forces[0],
        (true, Strength { infantry: 400, cavalry: 280, artillery: 120, guns: 8, squadrons: 4 })
    );
    assert_eq!((forces[1].0, forces[3].0), (false, false));
    assert_eq!(
        numbers,
        [Some(0), Some(0), Some(0), Some(0), Some(0), Some(1), Some(1), Some(2), Some(0), Some(3), Some(3)]
    );
    assert_eq!(men, 800);
    // A row before its parent, an orphan or a row naming itself: left to be worked out on
    // asking, and then each force's men and strength are those of a walk of its tree.
    for odd in [unit("L-1", Some("L"), 50), unit("O-1", Some("NOWHERE"), 60), unit("S", Some("S"), 0)] {
        let mut rows = in_order.clone();
        rows.insert(3, odd.clone());
        rows.push(unit("L", None, 0));
        let oob = OrderOfBattle::new(rows, Vec::new());
        assert!(oob.derived.0.get().is_none(), "{}", odd.id);
        let walked: Vec<(bool, Strength)> = oob
            .forces()
            .map(|f| {
                let mut s = Strength::default();
                oob.walk(f).for_each(|u| s.add(&Strength::of_row(u)));
                (oob.walk(f).any(Unit::has_men), s)
            })
            .collect();
        let (forces, _, men) = totals_of(&oob);
        assert_eq!(forces, walked, "{}", odd.id);
        assert_eq!(men, 800 + u64::from(odd.men), "{}", odd.id);
    }
    let mut rows = in_order.clone();
    rows.insert(3, unit("L-1", Some("L"), 50));
    rows.push(unit("L", None, 0));
    let l = OrderOfBattle::new(rows, Vec::new());
    assert_eq!(l.strength("L").infantry, 50, "a row before its parent counts for its force");
}

#[test]
fn each_force_s_garrison_units_and_place_are_counted_while_indexing_as_on_asking() {
    let with =
        |u: Unit, nation: Nation, arm: Arm, squadrons: u32| Unit { nation, arm: Some(arm), squadrons, ..u };
    let mut tired = unit("A-3", Some("A"), 200);
    tired.status_mut().push(Status { kind: StatusKind::Unavailable, until: 9 });
    let rows = vec![
        unit("F", None, 0),
        unit("F-1", Some("F"), 300),
        // Dragoons count their squadrons, one when they name none; hussars and a battalion
        // without men count nothing.
        with(unit("F-2", Some("F"), 250), Nation::Fr, Arm::Dragoon, 3),
        with(unit("F-3", Some("F"), 250), Nation::Fr, Arm::Dragoon, 0),
        with(unit("F-4", Some("F"), 250), Nation::Fr, Arm::LightCavalry, 4),
        unit("F-5", Some("F"), 0),
        with(unit("A", None, 0), Nation::Sp, Arm::Line, 0),
        with(unit("A-1", Some("A"), 400), Nation::Sp, Arm::Line, 0),
        with(unit("A-2", Some("A"), 400), Nation::Br, Arm::Line, 0),
        // A unit out of action is counted here: what garrisons leave out of action is theirs.
        with(tired, Nation::Sp, Arm::Line, 0),
    ];
    let built = OrderOfBattle::new(rows.clone(), Vec::new());
    assert!(built.derived.0.get().is_some());
    let mut asked = built.clone();
    asked.units_mut();
    let counted = |oob: &OrderOfBattle| {
        let with_status: Vec<String> = oob.rows_with_status().map(|u| u.id.to_string()).collect();
        (oob.garrison_units().to_vec(), with_status, oob.force_places().to_vec())
    };
    assert_eq!(counted(&built), counted(&asked));
    let (by_force, with_status, places) = counted(&built);
    let (fr, sp) = (Side::French, Side::Allies);
    assert_eq!(
        places,
        [ForcePlace { side: fr, ..ForcePlace::default() }, ForcePlace { side: sp, ..ForcePlace::default() }]
    );
    // A force moved: where it stands is kept with it.
    let to = HexId::new(4, 7);
    asked.get_mut("A").unwrap().hex = Some(to);
    assert_eq!(asked.force_places()[1], ForcePlace { side: sp, hex: Some(to), moving_to: None });
    assert_eq!(asked.force(1).id, "A");
    assert_eq!(with_status, ["A-3"]);
    let f = by_force[0];
    // Units by nation: Fr, Sp, Po, Br.
    assert_eq!((f.battalions(), f.squadrons(), f.units_by_nation()), (1, 4, [5, 0, 0, 0]));
    let a = by_force[1];
    assert_eq!((a.battalions(), a.squadrons()), (3, 0));
    assert_eq!(a.units_by_nation(), [0, 2, 0, 1]);
    // Listed before its force, a row is counted once the totals are asked for.
    let mut late = rows.clone();
    late.swap(0, 1);
    let late = OrderOfBattle::new(late, Vec::new());
    assert!(late.derived.0.get().is_none());
    assert_eq!(late.garrison_units(), [f, a]);
}
