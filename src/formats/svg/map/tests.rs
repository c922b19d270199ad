//! Tests of the campaign map's picture.

use super::*;
use crate::formats::svg::num;
use crate::rules::intel::known::{side_view, umpire_view};
use crate::rules::movement::testing::Builder;
use crate::rules::zoc::contacts;

fn draw(side: Option<Side>, zoc: bool) -> String {
    let c = Builder::default()
        .settlement("Medellin", "10.10", "town", "Sp")
        .force("fr-a", "division", "Fr", "10.10", &["line"])
        .force("sp-a", "division", "Sp", "10.11", &["line"])
        .force("sp-hidden", "division", "Sp", "02.02", &["line"])
        .build();
    let k = contacts(&c);
    let view = match side {
        None => umpire_view(&c, &k, zoc),
        Some(s) => side_view(&c, &k, s, zoc),
    };
    let h = MapHeading { title: "Test".into(), turn: 3, date: "early July 1808".into() };
    String::from_utf8(campaign_map(&c.map, &view, &h, MapOptions { zoc, supply: false, window: None }))
        .unwrap()
}

#[test]
fn long_names_wrap_between_words() {
    assert_eq!(wrap("Division de dragons Latour-Maubourg", 22), ["Division de dragons", "Latour-Maubourg"]);
    assert_eq!(wrap("Ier Corps", 22), ["Ier Corps"]);
}

#[test]
fn the_same_campaign_draws_the_same_bytes() {
    assert_eq!(draw(None, true), draw(None, true));
}

#[test]
fn supply_lines_are_drawn_for_the_viewers_own_forces_only() {
    use crate::rules::intel::known::KnownSupply;
    let c = Builder::default()
        .settlement("Medellin", "10.10", "town", "Sp")
        .force("fr-a", "division", "Fr", "10.10", &["line"])
        .force("sp-a", "division", "Sp", "10.11", &["line"])
        .build();
    let k = contacts(&c);
    let hexes = |v: &[&str]| v.iter().map(|h| h.parse().unwrap()).collect::<Vec<HexId>>();
    let line = |id: &str| match id {
        "fr-a" => Some(KnownSupply {
            in_supply: false,
            source: None,
            path: hexes(&["10.10", "09.10"]),
            break_hex: Some("08.10".parse().unwrap()),
            reason: Some("Badajoz is hostile".into()),
        }),
        _ => Some(KnownSupply {
            in_supply: true,
            source: Some("Mérida".into()),
            path: hexes(&["10.11", "11.11", "12.11"]),
            break_hex: None,
            reason: None,
        }),
    };
    let h = MapHeading { title: "Test".into(), turn: 3, date: "early July 1808".into() };
    let opts = MapOptions { zoc: false, supply: true, window: None };
    let ump =
        String::from_utf8(campaign_map(&c.map, &umpire_view(&c, &k, false).with_supply(line), &h, opts))
            .unwrap();
    assert!(ump.contains("data-supply=\"fr-a\" data-state=\"out\""), "{ump}");
    assert!(ump.contains("fr-a: out of supply: Badajoz is hostile"));
    assert!(ump.contains("data-supply=\"sp-a\" data-state=\"in\" data-source=\"Mérida\""));
    assert!(ump.contains("line of supply to its source (3.1)"), "the legend says what the lines are");
    let fr = side_view(&c, &k, Side::French, false).with_supply(line);
    let fr = String::from_utf8(campaign_map(&c.map, &fr, &h, opts)).unwrap();
    assert!(fr.contains("data-supply=\"fr-a\""));
    assert!(
        !fr.contains("data-supply=\"sp-a\"") && !fr.contains("Mérida"),
        "the enemy's supply is not known"
    );
}

#[test]
fn a_force_with_no_source_at_all_is_crossed_out_where_it_stands() {
    use crate::rules::intel::known::KnownSupply;
    let c = Builder::default().force("fr-a", "division", "Fr", "10.10", &["line"]).build();
    let none = |_: &str| {
        Some(KnownSupply {
            in_supply: false,
            source: None,
            path: Vec::new(),
            break_hex: None,
            reason: Some("the French have no supply source".into()),
        })
    };
    let v = umpire_view(&c, &contacts(&c), false).with_supply(none);
    let h = MapHeading { title: "Test".into(), turn: 3, date: "early July 1808".into() };
    let opts = MapOptions { zoc: false, supply: true, window: None };
    let svg = String::from_utf8(campaign_map(&c.map, &v, &h, opts)).unwrap();
    let g = svg.split("data-supply=\"fr-a\"").nth(1).unwrap().split("</g>").next().unwrap().to_string();
    let (x, y) = map_frame(&c.map).centre("10.10".parse().unwrap());
    let stroke = format!("x1=\"{}\" y1=\"{}\"", num(x - 9.0), num(y - 9.0));
    assert!(g.contains(&stroke), "a cross at the force's own hex: {g}");
}

#[test]
fn an_enemy_reported_by_intelligence_is_labelled_with_the_report() {
    use crate::rules::intel::known::Reported;
    let c = Builder::default().force("sp-a", "division", "Sp", "10.11", &["line"]).build();
    let mut v = side_view(&c, &contacts(&c), Side::French, false);
    assert!(v.forces.is_empty(), "out of contact and never reported: not known");
    let mut f = umpire_view(&c, &contacts(&c), false).forces.remove(0);
    f.strength = None;
    f.reported = Some(Reported { hex: "10.11".parse().unwrap(), turn: 20, men: 2900, guns: 6 });
    assert_eq!(strength_text(&f), "reported turn 20 at 10.11: about 2,900 men, 6 guns (9.0)");
    v.forces.push(f);
    let h = MapHeading { title: "Test".into(), turn: 21, date: "early April 1809".into() };
    let svg = String::from_utf8(campaign_map(&c.map, &v, &h, MapOptions::default())).unwrap();
    // On two lines of the label.
    assert!(svg.contains(">reported turn 20 at 10.11:<"), "{svg}");
    assert!(svg.contains(">about 2,900 men, 6 guns (9.0)<"), "{svg}");
}

#[test]
fn a_side_view_names_no_enemy_out_of_contact() {
    let all = draw(None, false);
    assert!(all.contains("sp-hidden"));
    let fr = draw(Some(Side::French), true);
    assert!(fr.contains("data-force=\"sp-a\""));
    assert!(!fr.contains("sp-hidden"));
    assert!(fr.contains("strength not known"));
}
