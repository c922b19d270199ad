use super::super::movement::testing::{Builder, h};
use super::super::movement::{path_allowance, path_costs};
use super::*;

const SUMMER: Turn = Turn(3);

/// A north–south road down column 10, rows 0 to 29.
fn road() -> Builder {
    Builder::default().column_road(10, 0, 29, "major")
}

/// A second road leaving column 10 at 10.10 toward the south-east, one hex farther from
/// 10.05 at each step.
const BRANCH: [&str; 11] =
    ["10.10", "11.11", "12.11", "13.12", "14.12", "15.13", "16.13", "17.14", "18.14", "19.15", "20.15"];

fn plan(c: &Campaign, force: &str, victor: &str) -> WithdrawalPlan {
    plan_withdrawal(c, force, &[victor.to_string()], SUMMER)
}

fn hexes(p: &WithdrawalPlan) -> Vec<String> {
    p.destinations.iter().map(|d| d.hex.to_string()).collect()
}

fn refused(p: &WithdrawalPlan, hex: &str) -> String {
    check_destination(p, h(hex)).expect_err(hex)
}

#[test]
fn a_loser_withdraws_between_half_and_its_full_road_move() {
    let c = road()
        .force("fr", "division", "Fr", "10.05", &["line"])
        .force("sp", "division", "Sp", "10.06", &["line"])
        .build();
    let p = plan(&c, "sp", "fr");
    assert_eq!((p.allowance, p.minimum), (11, 6));
    assert_eq!(hexes(&p), ["10.12", "10.13", "10.14", "10.15", "10.16", "10.17"]);
    let d = check_destination(&p, h("10.14")).unwrap();
    assert_eq!((d.road_hexes, d.path.len(), d.path[0]), (8, 9, h("10.06")));
    assert!(d.crosses_rivers.is_empty() && d.stop_in.is_none());
    // No supply source: the farthest from the victor.
    assert_eq!(p.chosen.as_ref().map(|d| d.hex), Some(h("10.17")));
    assert!(!p.trapped && p.supply_source.is_none());
    assert!(refused(&p, "10.11").contains("only 5 road hexes"), "{}", refused(&p, "10.11"));
    assert!(refused(&p, "10.18").contains("beyond the allowance"), "{}", refused(&p, "10.18"));
    assert!(refused(&p, "10.29").contains("beyond the allowance"));
}

#[test]
fn winter_halves_the_withdrawal() {
    let c = road()
        .force("sp", "division", "Sp", "10.05", &["line"])
        .force("fr", "division", "Fr", "10.06", &["line"])
        .build();
    let p = plan_withdrawal(&c, "fr", &["sp".to_string()], Turn(13));
    assert_eq!((p.allowance, p.minimum), (6, 3));
    assert_eq!(hexes(&p), ["10.09", "10.10", "10.11", "10.12"]);
}

#[test]
fn the_choice_goes_toward_the_depot() {
    let base = || {
        road()
            .road(&BRANCH, "major")
            .settlement("Merida", "16.13", "town", "Sp")
            .settlement("Sevilla", "18.14", "city", "Sp")
            .settlement("Salamanca", "10.20", "city", "Fr")
            .force("fr", "division", "Fr", "10.05", &["line"])
            .force("sp", "division", "Sp", "10.06", &["line"])
    };
    // With no depot: the nearest friendly city by road, Sevilla (the French hold Salamanca).
    let c = base().build();
    let p = plan(&c, "sp", "fr");
    assert_eq!(p.supply_source, Some(("Sevilla".to_string(), h("18.14"))));
    let chosen = p.chosen.clone().unwrap();
    assert_eq!((chosen.hex, chosen.distance_to_supply, chosen.road_hexes), (h("17.14"), Some(1), 11));
    assert!(hexes(&p).contains(&"10.17".to_string()));
    // With a depot: toward it.
    let c = base().depot("sp", "Merida").build();
    let p = plan(&c, "sp", "fr");
    assert_eq!(p.chosen.as_ref().map(|d| (d.hex, d.distance_to_supply)), Some((h("16.13"), Some(0))));
    assert_eq!(plan(&c, "sp", "fr"), p, "the same campaign gives the same plan");
}

#[test]
fn a_river_behind_the_loser_is_crossed_by_its_bridge() {
    let c = road()
        .river("10.09", "10.10", "Guadiana")
        .force("sp", "division", "Sp", "10.05", &["line"])
        .force("fr", "division", "Fr", "10.06", &["line"])
        .build();
    let p = plan(&c, "fr", "sp");
    assert_eq!((p.allowance, p.minimum), (13, 7));
    // Crossing costs the French division 1 hex: 12 hexes at most.
    assert_eq!(hexes(&p), ["10.13", "10.14", "10.15", "10.16", "10.17", "10.18"]);
    assert!(p.destinations.iter().all(|d| d.crosses_rivers == ["Guadiana"]));
    assert_eq!(
        refused(&p, "10.19"),
        "10.19 is beyond the allowance: the shortest road there is 13 hexes from 10.06, and fr may \
         march 12 on it after river and secondary-road penalties (6.2, 6.3, 6.5.1)"
    );
}

#[test]
fn a_loser_with_an_unbridged_river_at_its_back_is_trapped() {
    let c = Builder::default()
        .column_road(10, 0, 6, "major")
        .column_road(10, 7, 29, "major")
        .river("10.06", "10.07", "Tagus")
        .force("fr", "corps", "Fr", "10.05", &["line"])
        .force("br", "division", "Br", "10.06", &["line"])
        .build();
    let p = plan(&c, "br", "fr");
    assert!(p.trapped && p.chosen.is_none() && p.destinations.is_empty());
    assert_eq!(
        refused(&p, "10.07"),
        "10.07 lies across the Tagus where no road bridge is: major rivers are crossed only where \
         roads meet them (6.5.1)"
    );
    assert!(refused(&p, "10.12").contains("no road leads"));
}

#[test]
fn a_friendly_fortress_to_the_rear_lets_the_loser_stop_early() {
    let c = road()
        .settlement("Ciudad Rodrigo", "10.08", "fortress-town", "Sp")
        .settlement("Almeida", "10.09", "fortress-town", "Fr")
        .settlement("Tamames", "10.10", "town", "Sp")
        .force("fr", "division", "Fr", "10.05", &["line"])
        .force("sp", "division", "Sp", "10.06", &["line"])
        .build();
    let p = plan(&c, "sp", "fr");
    let d = check_destination(&p, h("10.08")).unwrap();
    assert_eq!((d.road_hexes, d.stop_in.as_deref()), (2, Some("Ciudad Rodrigo")));
    assert!(refused(&p, "10.09").contains("only 3 road hexes"));
    assert!(refused(&p, "10.10").contains("only 4 road hexes"));
    assert_eq!(hexes(&p)[0..2], ["10.08", "10.12"]);
    // A friendly fortress in the full-distance band is a plain destination.
    assert!(p.destinations.iter().skip(1).all(|d| d.stop_in.is_none()));
}

#[test]
fn enemy_zones_of_control_close_the_road() {
    let c = road()
        .road(&BRANCH, "major")
        .force("fr", "division", "Fr", "10.05", &["line"])
        .force("fr2", "brigade", "Fr", "09.13", &["dragoon"])
        .force("sp", "division", "Sp", "10.06", &["line"])
        .build();
    let p = plan(&c, "sp", "fr");
    assert_eq!(hexes(&p), ["12.11", "13.12", "14.12", "15.13", "16.13", "17.14"]);
    assert_eq!(refused(&p, "10.12"), "10.12 is in the zone of control of the enemy force fr2 (8.1)");
    assert!(refused(&p, "10.14").contains("passes through an enemy zone of control"));
    assert!(refused(&p, "09.13").contains("holds the enemy force fr2"));
}

#[test]
fn a_victor_in_the_loser_hex_does_not_pin_it() {
    let c = road()
        .force("fr", "division", "Fr", "10.06", &["line"])
        .force("sp", "brigade", "Sp", "10.06", &["line"])
        .build();
    let p = plan(&c, "sp", "fr");
    // The first step enters the victor's zone: the battlefield the loser leaves.
    assert_eq!(hexes(&p), ["10.00", "10.12", "10.13", "10.14", "10.15", "10.16", "10.17"]);
}

#[test]
fn a_loser_inside_a_friendly_fortress_may_stay_there() {
    // 8.4: "unless a city or fortress is to his rear when he may fall back into it and stop".
    let c = road()
        .settlement("Plaza", "10.06", "fortress-town", "Sp")
        .force("fr", "division", "Fr", "10.05", &["line"])
        .force("sp", "brigade", "Sp", "10.06", &["line"])
        .build();
    let p = plan(&c, "sp", "fr");
    let stay = p.chosen.as_ref().unwrap();
    assert_eq!((stay.hex, stay.road_hexes, stay.stop_in.as_deref()), (h("10.06"), 0, Some("Plaza")));
    assert!(p.destinations.len() > 1, "the roads away stay legal");
    // An enemy-held or hostile place is no refuge.
    let c = road()
        .settlement("Plaza", "10.06", "fortress-town", "Fr")
        .force("fr", "division", "Fr", "10.05", &["line"])
        .force("sp", "brigade", "Sp", "10.06", &["line"])
        .build();
    assert_ne!(plan(&c, "sp", "fr").chosen.map(|d| d.hex), Some(h("10.06")));
}

#[test]
fn no_withdrawal_crosses_the_puente_de_alcantara_into_an_enemy_brigade() {
    // 2.5.3: no crossing between 28.23 and 28.24 with enemy forces of at least brigade
    // strength in the other hex; a withdrawal never enters an enemy-held hex.
    let c = Builder::default()
        .column_road(28, 15, 29, "major")
        .force("fr", "division", "Fr", "28.26", &["line"])
        .force("tol", "brigade", "Fr", "28.23", &["line", "line", "line"])
        .force("sp", "division", "Sp", "28.24", &["line"])
        .build();
    let p = plan(&c, "sp", "fr");
    assert!(p.destinations.iter().all(|d| !d.path.contains(&h("28.23"))), "{:?}", p.destinations);
    assert!(refused(&p, "28.23").contains("holds the enemy force tol"));
}

#[test]
fn rivers_are_listed_for_a_sentence() {
    let r = |v: &[&str]| river_list(&v.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    assert_eq!(r(&["Rio Guadiana"]), "Rio Guadiana");
    assert_eq!(r(&["Rio Guadiana", "Rio Tajo"]), "Rio Guadiana and the Rio Tajo");
    assert_eq!(r(&["A", "B", "C"]), "A, the B and the C");
}

#[test]
fn check_destination_refuses_a_hex_nearer_the_victor() {
    let c = road()
        .force("fr", "division", "Fr", "10.05", &["line"])
        .force("sp", "division", "Sp", "10.08", &["line"])
        .build();
    let p = plan(&c, "sp", "fr");
    assert_eq!(
        refused(&p, "10.07"),
        "10.07 is not farther from the victor than 10.08 (2 hexes against 3): a loser withdraws \
         away from the victorious enemy at each step (8.4)"
    );
    assert!(refused(&p, "10.08").contains("where sp stands"));
    assert!(refused(&p, "10.05").contains("holds the enemy force fr"));
    assert!(refused(&p, "31.02").contains("not on the map"));
}

#[test]
fn an_unknown_force_or_absent_victor_gives_an_empty_plan_with_a_note() {
    let c = road().force("sp", "division", "Sp", "10.08", &["line"]).build();
    let p = plan(&c, "nobody", "sp");
    assert!(p.note.as_deref().is_some_and(|n| n.contains("'nobody'")) && !p.trapped);
    let p = plan(&c, "sp", "gone");
    assert!(p.destinations.is_empty() && !p.trapped);
    assert!(refused(&p, "10.12").contains("none of the victors (gone)"));
}

/// Every path of every destination, over a dense road net with rivers, secondary roads,
/// two victors and another enemy, obeys rule 8.4.
#[test]
fn every_path_leads_away_within_the_allowance_and_outside_enemy_zones() {
    let grid = HexGrid { columns: 30, rows: 30, layout: Default::default() };
    let mut b = Builder::default();
    for col in 2..19u16 {
        for row in 4..25u16 {
            let a = HexId::new(col, row);
            let inside = |n: &HexId| (2..19).contains(&n.col) && (4..25).contains(&n.row);
            for n in grid.neighbours(a).filter(|&n| n > a && inside(&n)) {
                let class = if (col * 7 + row) % 5 == 0 { "secondary" } else { "major" };
                let (sa, sn) = (a.to_string(), n.to_string());
                b = b.road(&[&sa, &sn], class);
                if row == 12 && n.row == 13 {
                    b = b.river(&sa, &sn, "Duero");
                }
            }
        }
    }
    let c = b
        .force("br", "corps", "Br", "08.08", &["line"])
        .force("sp", "brigade", "Sp", "12.07", &["dragoon"])
        .force("po", "brigade", "Po", "14.16", &["line"])
        .force("fr", "corps", "Fr", "10.09", &["line", "foot-artillery"])
        .build();
    let victors = ["br".to_string(), "sp".to_string()];
    let p = plan_withdrawal(&c, "fr", &victors, SUMMER);
    assert_eq!((p.allowance, p.minimum), (11, 6));
    // Away from the nearer of two victors: the old strict cone is still there, and the
    // roads that run across the line of retreat open a fan to the south.
    let found = hexes(&p);
    for x in ["10.15", "10.16", "10.17", "11.15", "11.16", "11.17"] {
        assert!(found.contains(&x.to_string()), "{x} missing from {found:?}");
    }
    assert!(found.iter().all(|x| h(x).row >= 11), "a destination north of the line: {found:?}");
    let victor_hexes = [h("08.08"), h("12.07")];
    let away = |x: HexId| victor_hexes.iter().map(|&v| grid.distance(x, v)).min().unwrap();
    let po_zone: Vec<HexId> = grid.neighbours(h("14.16")).collect();
    assert!(p.destinations.iter().any(|d| !d.crosses_rivers.is_empty()));
    for d in &p.destinations {
        assert_eq!((d.path[0], *d.path.last().unwrap()), (h("10.09"), d.hex));
        assert!(d.stop_in.is_none());
        assert_eq!(d.road_hexes as usize, d.path.len() - 1);
        assert!(away(d.hex) > away(h("10.09")), "{d:?}");
        let sideways = d.path.windows(2).filter(|w| away(w[1]) == away(w[0])).count();
        assert!(sideways <= SIDEWAYS_STEPS as usize, "{d:?}");
        for w in d.path.windows(2) {
            assert!(c.map.road(w[0], w[1]).is_some(), "{d:?}");
            assert!(away(w[1]) >= away(w[0]), "{d:?}");
            assert!(!po_zone.contains(&w[1]) && w[1] != h("14.16"), "{d:?}");
        }
        assert!(d.road_hexes >= p.minimum);
        assert!(i64::from(d.road_hexes) <= i64::from(path_allowance(&c, "fr", SUMMER, &d.path)));
        assert_eq!(path_costs(&c, &d.path).0, d.crosses_rivers);
    }
    let chosen = p.chosen.unwrap();
    assert!(p.destinations.contains(&chosen));
}
