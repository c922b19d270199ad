//! Unit tests of the march rules on small campaigns.

use std::collections::BTreeMap;

use super::*;
use crate::rules::movement::testing::{Builder, h};

const SUMMER: Turn = Turn(3);
const WINTER: Turn = Turn(13);

fn order(force: &str, path: &[&str]) -> Order {
    Order {
        attach: None,
        standing: false,
        force: force.into(),
        route: Route::Path(path.iter().map(|s| h(s)).collect()),
        retreat: false,
        on_contact: None,
        day: None,
        from: None,
        file: "orders.csv".into(),
        line: 2,
    }
}

fn plan(c: &Campaign, o: &Order, turn: Turn) -> Result<Plan, Box<Refusal>> {
    plan_order(c, &Steps::of(c), o, turn, 0, None)
}

#[test]
fn rates_follow_rule_6_3_by_arm_and_nation() {
    let c = Builder::default()
        .force("inf", "division", "Br", "05.05", &["line"])
        .force("gun", "division", "Fr", "06.05", &["line", "foot-artillery"])
        .force("cav", "brigade", "Sp", "07.05", &["dragoon"])
        .force("mix", "division", "Br", "08.05", &["line", "dragoon"])
        .build();
    let r = Rates::of(&c, "inf", SUMMER);
    assert_eq!((r.road, r.low, r.high), (12, 8, Some(6)));
    let r = Rates::of(&c, "gun", SUMMER);
    assert_eq!((r.road, r.low, r.high), (11, 7, None), "French +1, artillery never on high ground");
    let r = Rates::of(&c, "cav", SUMMER);
    assert_eq!((r.road, r.low, r.high), (13, 9, Some(3)), "Spanish −1");
    assert_eq!(Rates::of(&c, "mix", SUMMER).high, Some(4), "any cavalry: 4 on high ground");
    // Winter (6.2 as amended): halved after the modifiers, no artillery off road.
    let w = Rates::of(&c, "gun", WINTER);
    assert_eq!((w.rate(Ground::Road, 0), w.rate(Ground::Low, 0)), (Some(5), None));
    assert_eq!(Rates::of(&c, "inf", WINTER).rate(Ground::Low, 0), Some(4));
}

#[test]
fn a_mixed_march_costs_each_step_its_share_of_that_grounds_allowance() {
    // 4 road hexes (4/12) and 5 off road on low ground (5/8): 1/3 + 5/8 = 23/24 ≤ 1.
    let c = Builder::default()
        .column_road(10, 0, 4, "major")
        .force("f", "division", "Br", "10.00", &["line"])
        .build();
    let ok = order("f", &["10.01", "10.02", "10.03", "10.04", "10.05", "10.06", "10.07", "10.08", "10.09"]);
    let p = plan(&c, &ok, SUMMER).unwrap();
    assert_eq!(p.at.last().copied(), Some(TURN_UNITS * 23 / 24));
    // One more off-road hex is 1/3 + 6/8 > 1: refused at that step.
    let mut far = ok.clone();
    if let Route::Path(v) = &mut far.route {
        v.push(h("10.10"));
    }
    let r = plan(&c, &far, SUMMER).unwrap_err();
    assert_eq!((r.step, r.rule), (Some(10), "6.3"), "{r}");
}

#[test]
fn a_major_river_is_crossed_only_by_road() {
    let c = Builder::default()
        .column_road(10, 0, 5, "major")
        .river("10.02", "10.03", "Tagus")
        .river("11.02", "11.03", "Tagus")
        .force("f", "division", "Sp", "10.00", &["line"])
        .force("g", "division", "Sp", "11.01", &["line"])
        .build();
    // By the bridge: a Spanish division loses 2 hexes (6.5.1): 11 − 2 = 9 road hexes.
    let p = plan(&c, &order("f", &["10.01", "10.02", "10.03"]), SUMMER).unwrap();
    assert_eq!(p.road_rate(), 9);
    let r = plan(&c, &order("g", &["11.02", "11.03"]), SUMMER).unwrap_err();
    assert_eq!((r.step, r.rule), (Some(2), "6.5.1"), "{r}");
}

#[test]
fn a_route_to_a_destination_is_the_cheapest_legal_one() {
    // The road bends round; off road across is cheaper for infantry, not for guns in winter.
    let c = Builder::default()
        .road(&["10.00", "11.00", "12.00", "12.01", "12.02", "11.03", "10.03"], "major")
        .force("f", "division", "Br", "10.00", &["line"])
        .force("g", "division", "Br", "10.00", &["line", "foot-artillery"])
        .build();
    let to = |f: &str, turn| {
        let o = Order { route: Route::To(h("10.03")), ..order(f, &[]) };
        plan(&c, &o, turn).map(|p| (p.path, p.rest))
    };
    assert_eq!(to("f", SUMMER).unwrap().0, [h("10.00"), h("10.01"), h("10.02"), h("10.03")]);
    // Guns in winter keep to the road (6.2): six road hexes, more than their five a turn. They
    // march five and keep the sixth as a standing order.
    let (path, rest) = to("g", WINTER).unwrap();
    assert_eq!(path.len(), 6, "{path:?}");
    assert_eq!(rest, [h("10.03")]);
}

#[test]
fn simultaneous_marches_do_not_depend_on_the_order_of_the_lines() {
    // Two enemies march down the same road toward each other; whoever is listed first, they
    // halt where their proportional steps bring them into contact.
    let c = Builder::default()
        .column_road(10, 0, 20, "major")
        .force("fr", "division", "Fr", "10.00", &["line"])
        .force("br", "division", "Br", "10.20", &["line"])
        .build();
    let down: Vec<String> = (1..=13).map(|r| format!("10.{r:02}")).collect();
    let up: Vec<String> = (8..=19).rev().map(|r| format!("10.{r:02}")).collect();
    let fr = order("fr", &down.iter().map(String::as_str).collect::<Vec<_>>());
    let br = order("br", &up.iter().map(String::as_str).collect::<Vec<_>>());
    let run = |orders: Vec<Order>| {
        let plans = plan_orders(&c, &Steps::of(&c), &orders, SUMMER, &BTreeMap::new()).unwrap();
        let mut out: Vec<(String, HexId, Option<HexId>)> =
            march(&c, &plans).into_iter().map(|m| (m.force.clone(), m.end(), m.moving_to)).collect();
        out.sort();
        out
    };
    let a = run(vec![fr.clone(), br.clone()]);
    assert_eq!(a, run(vec![br, fr]));
    // French 13 a turn, British 12: after 10 French and 9 British steps … they touch.
    let (fr_end, br_end) = (a[1].1, a[0].1);
    assert!(c.map.grid.adjacent(fr_end, br_end), "{a:?}");
    assert_eq!(a[1].2, Some(HexId::new(10, fr_end.row + 1)), "moving_to is the next hex");
}

#[test]
fn a_cavalry_screen_on_a_road_halts_an_enemy_two_hexes_ahead() {
    // 8.1/8.3: French cavalry marching down the road controls the second hex ahead of it. The
    // British column stepping into that hex halts there; the cavalry is not halted by it and
    // marches on until it comes next to the column itself.
    let c = Builder::default()
        .column_road(10, 0, 12, "major")
        .force("cav", "brigade", "Fr", "10.00", &["dragoon", "light-cavalry"])
        .force("br", "division", "Br", "12.04", &["line"])
        .build();
    let cav = order("cav", &["10.01", "10.02", "10.03", "10.04"]);
    let br = order("br", &["11.05", "10.05", "09.06"]);
    let plans = plan_orders(&c, &Steps::of(&c), &[cav, br], SUMMER, &BTreeMap::new()).unwrap();
    let m = march(&c, &plans);
    // The cavalry (15 a turn) is at 10.03 heading for 10.04 from 3/15 of the turn; the column
    // (8 a turn off road) enters 10.05 at 2/8.
    assert_eq!(m[1].end(), h("10.05"));
    assert!(
        matches!(
            &m[1].halt,
            Some(Halt::Contact { rule: crate::rules::zoc::ContactRule::CavalryRoad, entered: true, .. })
        ),
        "{:?}",
        m[1].halt
    );
    assert_eq!(m[0].end(), h("10.04"), "the cavalry marched on past the moment it stopped the column");
}

#[test]
fn the_puente_de_alcantara_is_closed_while_an_enemy_brigade_holds_the_other_end() {
    let c = Builder::default()
        .road(&["28.22", "28.23", "28.24", "28.25"], "major")
        .river("28.23", "28.24", "Tajo")
        .river("27.24", "28.23", "Tajo")
        .force("fr", "brigade", "Fr", "28.23", &["line", "line", "line"])
        .force("sp", "division", "Sp", "28.24", &["line", "line", "line"])
        .force("fr2", "brigade", "Fr", "27.24", &["line"])
        .build();
    let plans =
        plan_orders(&c, &Steps::of(&c), &[order("fr", &["28.24"])], SUMMER, &BTreeMap::new()).unwrap();
    let m = march(&c, &plans);
    assert_eq!(m[0].end(), h("28.23"));
    assert!(matches!(m[0].halt, Some(Halt::Bridge { .. })), "{:?}", m[0].halt);
    // The open-country crossing 27.24–28.23 is off road, yet allowed (2.5.3).
    assert!(plan(&c, &order("fr2", &["28.23"]), SUMMER).is_ok());
}

#[test]
fn a_force_in_contact_may_step_away_but_halts_on_a_step_that_keeps_it_in_contact() {
    let c = Builder::default()
        .column_road(10, 0, 12, "major")
        .force("fr", "division", "Fr", "10.05", &["line"])
        .force("sp", "division", "Sp", "10.06", &["line"])
        .build();
    let run = |o: Order| {
        let plans = plan_orders(&c, &Steps::of(&c), &[o], SUMMER, &BTreeMap::new()).unwrap();
        march(&c, &plans).remove(0)
    };
    let away = run(order("sp", &["10.07", "10.08"]));
    assert_eq!((away.end(), &away.halt), (h("10.08"), &None));
    // 10.06 to 11.06 keeps it next to the French at 10.05: it halts at once (8.1).
    let along = run(order("sp", &["11.06", "11.07"]));
    assert_eq!(along.end(), h("11.06"));
    assert!(matches!(along.halt, Some(Halt::Contact { entered: true, .. })), "{:?}", along.halt);
    assert_eq!(along.moving_to, Some(h("11.07")), "it was marching on into 11.07");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// Whatever the forces and their marches, neither the order of the orders nor that of
    /// `forces.csv` changes anything (8.1–8.3).
    #[test]
    fn the_march_is_the_same_in_any_order_of_the_orders_and_the_forces(
        forces in proptest::collection::vec((0u16..6, 0u16..20, 0u16..6, proptest::bool::ANY, proptest::bool::ANY), 2..8)
    ) {
        let build = |reverse: bool| {
            let mut b = Builder::default();
            for col in 0..6 {
                b = b.column_road(col + 4, 0, 29, "major");
            }
            let mut list: Vec<_> = forces.iter().enumerate().collect();
            if reverse {
                list.reverse();
            }
            let mut orders = Vec::new();
            for (i, &(col, row, steps, french, cavalry)) in list {
                let id = format!("f{i}");
                let (col, nation) = (col + 4, if french { "Fr" } else { "Br" });
                let arms: &[&str] = if cavalry { &["dragoon", "dragoon"] } else { &["line"] };
                b = b.force(&id, "division", nation, &HexId::new(col, row).to_string(), arms);
                let path: Vec<String> = (1..=steps).map(|k| HexId::new(col, row + k).to_string()).collect();
                if steps > 0 {
                    orders.push(order(&id, &path.iter().map(String::as_str).collect::<Vec<_>>()));
                }
            }
            (b.build(), orders)
        };
        let run = |(c, orders): (Campaign, Vec<Order>)| {
            let plans = plan_orders(&c, &Steps::of(&c), &orders, SUMMER, &BTreeMap::new()).unwrap();
            let mut out: Vec<(String, HexId, Option<HexId>, Option<Halt>)> =
                march(&c, &plans).into_iter().map(|m| (m.force.clone(), m.end(), m.moving_to, m.halt)).collect();
            out.sort_by(|a, b| a.0.cmp(&b.0));
            out
        };
        proptest::prop_assert_eq!(run(build(false)), run(build(true)));
    }
}

#[test]
fn a_force_with_no_men_present_halts_no_march_and_is_halted_by_none() {
    // Both marching down the same road toward each other, the British with every man lost
    // (its returns still to come): no zone of control either way (8.1), so both march on.
    let mut c = Builder::default()
        .column_road(10, 0, 20, "major")
        .force("fr", "division", "Fr", "10.00", &["line"])
        .force("br", "division", "Br", "10.20", &["line"])
        .build();
    let units: Vec<String> = c.oob.units_under("br").iter().map(|u| u.id.to_string()).collect();
    for u in units {
        c.oob.get_mut(&u).unwrap().men = 0;
    }
    let fr = order("fr", &["10.01", "10.02", "10.03", "10.04", "10.05", "10.06", "10.07", "10.08", "10.09"]);
    let br = order(
        "br",
        &["10.19", "10.18", "10.17", "10.16", "10.15", "10.14", "10.13", "10.12", "10.11", "10.10"],
    );
    let plans = plan_orders(&c, &Steps::of(&c), &[fr, br], SUMMER, &BTreeMap::new()).unwrap();
    let ends: Vec<(String, HexId)> =
        march(&c, &plans).into_iter().map(|m| (m.force.clone(), m.end())).collect();
    assert_eq!(ends, [("fr".to_string(), h("10.09")), ("br".to_string(), h("10.10"))]);
}

#[test]
fn the_map_s_steps_worked_out_once_are_the_steps_asked_one_by_one() {
    // Roads of both classes, a river crossed by a road and one crossed off it, sea, high
    // ground and the map's edges.
    let mut c = Builder::default()
        .road(&["05.05", "06.05", "07.05", "08.05"], "major")
        .road(&["05.06", "05.07", "05.08"], "secondary")
        .river("06.05", "07.05", "Tagus")
        .river("05.07", "06.07", "Guadiana")
        .force("inf", "division", "Br", "05.05", &["line"])
        .build();
    let terrain = |t| crate::model::map::HexInfo { terrain: t, ..Default::default() };
    c.map.hexes.insert(h("06.06"), terrain(crate::model::Terrain::Sea));
    c.map.hexes.insert(h("07.06"), terrain(crate::model::Terrain::High));
    let legal = Steps::of(&c);
    let grid = c.map.grid;
    let mut asked = 0;
    for col in 0..grid.columns {
        for row in 0..grid.rows {
            let here = HexId::new(col, row);
            let one_by_one: Vec<(HexId, Ground, bool)> = grid
                .neighbours(here)
                .filter_map(|n| step_kind(&c, here, n).ok().map(|(g, river)| (n, g, river.is_some())))
                .collect();
            asked += grid.neighbours(here).count();
            assert_eq!(legal.out_of(here).collect::<Vec<_>>(), one_by_one, "out of {here}");
        }
    }
    assert!(asked > 5000);
    let from = |a: &str| legal.out_of(h(a)).map(|(n, g, r)| (n.to_string(), g, r)).collect::<Vec<_>>();
    assert!(from("06.05").contains(&("07.05".into(), Ground::Road, true)), "a bridge");
    for (a, b) in [("05.07", "06.07"), ("05.06", "06.06")] {
        assert!(grid.adjacent(h(a), h(b)), "{a} and {b} are neighbours");
    }
    assert!(!from("05.07").iter().any(|(n, ..)| n == "06.07"), "a river off a road");
    assert!(!from("05.06").iter().any(|(n, ..)| n == "06.06"), "the sea");
    assert!(legal.out_of(h("40.40")).next().is_none(), "off the map");
}

#[test]
fn plans_and_refusals_come_back_in_the_orders_order_whichever_thread_planned_them() {
    // Five forces on one road; the orders plan on two threads, half each. A force ordered
    // twice and a march off the map are refused in place; the rest plan in the orders' order.
    let mut b = Builder::default().column_road(10, 0, 20, "major");
    for (id, at) in [("a", "10.00"), ("b", "10.04"), ("c", "10.08"), ("d", "10.12"), ("e", "10.16")] {
        b = b.force(id, "division", "Fr", at, &["line"]);
    }
    let c = b.build();
    let mut orders = vec![
        order("e", &["10.17"]),
        order("a", &["10.01"]),
        order("e", &["10.15"]),
        order("d", &["10.13"]),
        order("b", &["10.05", "99.99"]),
        order("c", &["10.07"]),
    ];
    for (i, o) in orders.iter_mut().enumerate() {
        o.line = i as u64 + 2;
    }
    let refused = plan_orders(&c, &Steps::of(&c), &orders, SUMMER, &BTreeMap::new()).unwrap_err();
    let at: Vec<(&str, u64)> = refused.iter().map(|r| (r.force.as_str(), r.line)).collect();
    assert_eq!(at, [("e", 4), ("b", 6)], "{refused:?}");
    assert!(refused[0].to_string().contains("ordered twice"), "{}", refused[0]);
    let each: Vec<&Order> = orders.iter().collect();
    let planned = plan_each(&c, &Steps::of(&c), &each, SUMMER, &BTreeMap::new());
    let forces: Vec<(&str, bool)> =
        planned.iter().map(|p| (p.as_ref().map_or("-", |p| p.force.as_str()), p.is_ok())).collect();
    assert_eq!(forces, [("e", true), ("a", true), ("e", true), ("d", true), ("-", false), ("c", true)]);
    let ends: Vec<Option<HexId>> =
        planned.iter().map(|p| p.as_ref().ok().and_then(|p| p.path.last().copied())).collect();
    assert_eq!(
        ends,
        [Some(h("10.17")), Some(h("10.01")), Some(h("10.15")), Some(h("10.13")), None, Some(h("10.07"))]
    );
}
