//! Supply lines on small maps built for each rule.

use super::*;
use crate::formats::campaign::{CampaignFiles, names, parse_campaign};
use crate::model::{Campaign, Control, Nation};

/// A major road down column 10 from row 10 to row 20, and whatever else a test adds.
struct Map {
    roads: Vec<String>,
    settlements: Vec<String>,
    forces: Vec<String>,
}

fn h(s: &str) -> HexId {
    s.parse().unwrap()
}

impl Map {
    fn new() -> Map {
        let mut roads = Vec::new();
        for r in 10..20 {
            roads.push(format!("10.{r:02},10.{:02},major", r + 1));
        }
        Map { roads, settlements: Vec::new(), forces: Vec::new() }
    }
    fn road(mut self, hexes: &[&str], class: &str) -> Map {
        for w in hexes.windows(2) {
            self.roads.push(format!("{},{},{class}", w[0], w[1]));
        }
        self
    }
    /// `name,hex,kind,port,depot,province,region,control,invested_by,citadel`
    fn place(mut self, row: &str) -> Map {
        self.settlements.push(row.to_string());
        self
    }
    /// A force of `bns` battalions (500 men each) and `guns` guns at `hex`.
    fn force(mut self, id: &str, nation: &str, hex: &str, bns: u32, guns: u32, depot: &str) -> Map {
        self.forces.push(format!("{id},,division,{id},{nation},,,,,{hex},{depot}"));
        for i in 0..bns {
            self.forces.push(format!("{id}-{i},{id},battalion,Bn {i},{nation},line,500,,,,"));
        }
        if guns > 0 {
            self.forces.push(format!("{id}-art,{id},battery,Battery,{nation},foot-artillery,100,,{guns},,"));
        }
        self
    }
    fn campaign(&self) -> Campaign {
        let mut files = CampaignFiles::default();
        let mut put = |name: &'static str, text: String| {
            files.files.insert(name, text.into_bytes());
        };
        put(names::CAMPAIGN, "name = \"T\"\nseed = 1\nturn = 20\n[map]\ncolumns = 64\nrows = 48\n".into());
        put(names::HEXES, "hex,terrain\n".into());
        put(names::ROADS, format!("from,to,class\n{}\n", self.roads.join("\n")));
        put(names::RIVERS, "from,to,name\n".into());
        put(
            names::SETTLEMENTS,
            format!(
                "name,hex,kind,port,depot,province,region,control,invested_by,citadel\n{}\n",
                self.settlements.join("\n")
            ),
        );
        put(names::COMMANDERS, "name,side\n".into());
        put(
            names::FORCES,
            format!(
                "id,parent,level,name,nation,arm,men,squadrons,guns,hex,depot\n{}\n",
                self.forces.join("\n")
            ),
        );
        parse_campaign(&files).unwrap()
    }
}

fn force<'a>(r: &'a SupplyReport, id: &str) -> &'a ForceSupply {
    r.forces.iter().find(|f| f.force == id).unwrap()
}

/// The French hold Ciudad at the top of the road with a brigade; a French division at its foot.
fn french_line() -> Map {
    Map::new()
        .place("Ciudad,10.10,city,,,Castile,south,Fr,,")
        .force("FR-GAR", "Fr", "10.10", 3, 0, "")
        .force("FR-A", "Fr", "10.20", 6, 12, "")
}

#[test]
fn a_line_runs_along_the_road_to_a_friendly_city() {
    let r = compute(&french_line().campaign(), &[]);
    let f = force(&r, "FR-A");
    assert_eq!(f.state, Supply::In);
    assert_eq!(f.source.as_deref(), Some("Ciudad"));
    assert_eq!(f.path.len(), 11);
    assert_eq!((f.path[0], f.path[10]), (h("10.20"), h("10.10")), "from the force back to the source");
    // What the map draws of it.
    let known = r.line("FR-A").unwrap();
    assert!(known.in_supply && known.source.as_deref() == Some("Ciudad") && known.path == f.path);
    assert!(r.line("FR-NONE").is_none());
}

#[test]
fn a_hostile_settlement_cuts_the_line_and_another_road_is_found_if_one_exists() {
    // An Allied town on the road at 10.15: hostile to the French (2.3).
    let m = french_line().place("Villa,10.15,town,,,Castile,south,Sp,,");
    let r = compute(&m.campaign(), &[]);
    let f = force(&r, "FR-A");
    assert_eq!(f.state, Supply::Out);
    assert_eq!(f.break_hex, Some(h("10.15")));
    let why = f.reason.as_deref().unwrap();
    assert!(why.contains("Villa (10.15) is hostile") && why.contains("Ciudad"), "{why}");
    assert_eq!(f.turns_out, 1);
    // A road around it: 10.14-11.14-11.15-11.16-10.16.
    let r = compute(&m.road(&["10.14", "11.14", "11.15", "11.16", "10.16"], "major").campaign(), &[]);
    let f = force(&r, "FR-A");
    assert_eq!(f.state, Supply::In, "{:?}", f.reason);
    assert!(f.path.contains(&h("11.15")) && !f.path.contains(&h("10.15")), "{:?}", f.path);
}

#[test]
fn a_french_town_held_by_a_battalion_lets_the_line_through() {
    let m =
        french_line().place("Villa,10.15,town,,,Castile,south,Sp,,").force("FR-V", "Fr", "10.15", 1, 0, "");
    let r = compute(&m.campaign(), &[]);
    assert_eq!(force(&r, "FR-A").state, Supply::In);
    let v = r.settlements.iter().find(|s| s.name == "Villa").unwrap();
    assert_eq!(v.control, Control::Nation(Nation::Fr));
}

#[test]
fn capacity_is_25000_men_on_an_adequate_line_and_50000_on_a_good_one() {
    // 6 battalions of 500 and 12 guns: well within.
    let r = compute(&french_line().campaign(), &[]);
    let cap = force(&r, "FR-A").capacity.clone().unwrap();
    assert_eq!(
        (cap.line, cap.max_men, cap.max_guns, cap.settlements, cap.good),
        (Production::Adequate, 25_000, 75, 1, 0)
    );
    // 60 battalions: 30,000 men, beyond an adequate line.
    let big = Map::new()
        .place("Ciudad,10.10,city,,,Castile,south,Fr,,")
        .force("FR-GAR", "Fr", "10.10", 3, 0, "")
        .force("FR-A", "Fr", "10.20", 60, 12, "");
    let r = compute(&big.campaign(), &[]);
    let f = force(&r, "FR-A");
    assert_eq!(f.state, Supply::Out, "only up to the capacity is a force considered in supply");
    assert!(f.capacity.as_ref().unwrap().exceeded());
    assert!(f.reason.as_deref().unwrap().contains("it would carry 30100 men and 12 guns"), "{:?}", f.reason);
    assert_eq!(f.orders[0], "must halt or withdraw, no offensive (3.4)");
    // Double the garrison of Ciudad (2 brigades): the line is good, 50,000 men.
    let good = Map::new()
        .place("Ciudad,10.10,city,,,Castile,south,Fr,,")
        .force("FR-GAR", "Fr", "10.10", 6, 0, "")
        .force("FR-A", "Fr", "10.20", 60, 12, "");
    let r = compute(&good.campaign(), &[]);
    let cap = force(&r, "FR-A").capacity.clone().unwrap();
    assert_eq!((cap.line, cap.max_men, cap.max_guns), (Production::Good, 50_000, 150));
    assert!(!cap.exceeded());
}

#[test]
fn after_four_turns_out_of_supply_a_force_must_retreat_to_the_break() {
    let m = french_line().place("Villa,10.15,town,,,Castile,south,Sp,,").campaign();
    let record = |n| SupplyRecord {
        force: "FR-A".into(),
        turns_out: n,
        depot: None,
        depot_state: DepotState::Established,
        depot_ready: None,
    };
    let r = compute(&m, &[record(3)]);
    let f = force(&r, "FR-A");
    assert_eq!(f.turns_out, 4);
    assert!(!f.orders.iter().any(|o| o.contains("must retreat")), "{:?}", f.orders);
    let r = compute(&m, &[record(4)]);
    let f = force(&r, "FR-A");
    assert_eq!(f.turns_out, 5);
    assert!(
        f.orders.iter().any(|o| o.contains("must retreat to the break at 10.15 (3.3)")),
        "{:?}",
        f.orders
    );
    // Back in supply, the count starts again.
    let r = compute(&french_line().campaign(), &[record(4)]);
    assert_eq!(force(&r, "FR-A").turns_out, 0);
}

#[test]
fn the_french_line_of_communications_reaches_bayonne() {
    // Bayonne (a port fortress-town north of the Pyrenees) held by a battalion and a second.
    let m = french_line()
        .place("Bayonne,10.21,fortress-town,yes,,France,north,Fr,,")
        .road(&["10.20", "10.21"], "major")
        .force("FR-BAY", "Fr", "10.21", 2, 0, "");
    let r = compute(&m.campaign(), &[]);
    let comm = r.communications.iter().find(|k| k.force == "FR-A").unwrap();
    assert_eq!((comm.state, comm.to.as_deref()), ("open", Some("Bayonne")));
    assert!(!force(&r, "FR-A").orders.iter().any(|o| o.contains("no replacements")));
    // An Allied town between: cut, no replacements.
    let m = Map::new()
        .place("Ciudad,10.10,city,,,Castile,south,Fr,,")
        .place("Bayonne,10.21,fortress-town,yes,,France,north,Fr,,")
        .place("Villa,10.19,town,,,Navarra,south,Sp,,")
        .road(&["10.20", "10.21"], "major")
        .force("FR-GAR", "Fr", "10.10", 3, 0, "")
        .force("FR-BAY", "Fr", "10.21", 2, 0, "")
        .force("FR-A", "Fr", "10.17", 6, 12, "");
    let r = compute(&m.campaign(), &[]);
    let comm = r.communications.iter().find(|k| k.force == "FR-A").unwrap();
    assert_eq!((comm.state, comm.break_hex), ("cut", Some(h("10.19"))));
    assert!(
        force(&r, "FR-A").orders.iter().any(|o| o == "line of communications cut: no replacements (3.5)")
    );
    assert!(r.communications.iter().all(|k| c_is_french(&m, &k.force)), "only French forces");
}

fn c_is_french(m: &Map, id: &str) -> bool {
    m.campaign().oob.get(id).is_some_and(|f| f.side() == Side::French)
}

#[test]
fn only_the_allies_draw_on_garrisoned_ports() {
    let m = Map::new()
        .place("Puerto,10.10,town,yes,,Galicia,south,Sp,,")
        .force("SP-GAR", "Sp", "10.10", 2, 0, "")
        .force("SP-A", "Sp", "10.20", 6, 0, "");
    assert_eq!(
        force(&compute(&m.campaign(), &[]), "SP-A").state,
        Supply::In,
        "3.2: a garrisoned marked port"
    );
    let m = Map::new()
        .place("Puerto,10.10,town,yes,,Galicia,south,Sp,,")
        .force("FR-GAR", "Fr", "10.10", 2, 0, "")
        .force("FR-A", "Fr", "10.20", 6, 0, "");
    let r = compute(&m.campaign(), &[]);
    assert_eq!(force(&r, "FR-A").state, Supply::Out, "only the Allies may consider ports");
}

#[test]
fn an_invested_fortress_generates_no_supply() {
    let m = Map::new()
        .place("Fuerte,10.10,fortress-city,,,Castile,south,Fr,Sp,")
        .force("FR-GAR", "Fr", "10.10", 6, 0, "")
        .force("FR-A", "Fr", "10.20", 6, 0, "");
    let r = compute(&m.campaign(), &[]);
    assert_eq!(force(&r, "FR-A").state, Supply::Out, "7.1.1");
}

#[test]
fn a_secondary_road_needs_a_unit_at_its_junction_and_in_its_towns() {
    // A secondary spur 10.20-11.21-11.22 off the major road; the force at its end.
    let spur = |with_junction: bool, town: bool| {
        let mut m = french_line().road(&["10.20", "11.21", "11.22"], "secondary");
        m.forces.retain(|f| !f.starts_with("FR-A"));
        m = m.force("FR-B", "Fr", "11.22", 3, 0, "");
        if with_junction {
            m = m.force("FR-J", "Fr", "10.20", 1, 0, "");
        }
        if town {
            m = m.place("Aldea,11.21,town,,,Castile,south,Fr,,");
        }
        m
    };
    let r = compute(&spur(false, false).campaign(), &[]);
    let f = force(&r, "FR-B");
    assert_eq!(f.state, Supply::Out);
    assert!(
        f.reason.as_deref().unwrap().contains("where the secondary road joins a major road"),
        "{:?}",
        f.reason
    );
    assert_eq!(force(&compute(&spur(true, false).campaign(), &[]), "FR-B").state, Supply::In);
    let r = compute(&spur(true, true).campaign(), &[]);
    assert_eq!(force(&r, "FR-B").state, Supply::Out, "the town on it holds no battalion");
}

#[test]
fn a_new_french_depot_takes_three_turns_and_a_captured_one_is_lost() {
    // A French depot in the town at 10.20, held by a battalion; the force beside it.
    let m = Map::new()
        .place("Depósito,10.20,town,,yes,Castile,south,Fr,,")
        .force("FR-D", "Fr", "10.20", 1, 0, "")
        .force("FR-A", "Fr", "10.19", 6, 0, "Depósito")
        .campaign();
    let r = compute(&m, &[]);
    assert_eq!(r.depots[0].state, DepotState::Established, "first seen: established");
    assert_eq!(force(&r, "FR-A").source.as_deref(), Some("Depósito"));
    // It was elsewhere last turn: a new depot, in use from turn 23.
    let moved = SupplyRecord {
        force: "FR-A".into(),
        turns_out: 0,
        depot: Some("Otro".into()),
        depot_state: DepotState::Established,
        depot_ready: None,
    };
    let r = compute(&m, std::slice::from_ref(&moved));
    assert_eq!((r.depots[0].state, r.depots[0].ready), (DepotState::Establishing, Some(23)));
    assert_eq!(force(&r, "FR-A").state, Supply::Out);
    let rec = r.records().into_iter().find(|x| x.force == "FR-A").unwrap();
    let r = compute_for_turn(&m, &[rec], 23);
    assert_eq!(r.depots[0].state, DepotState::Established);
    assert_eq!(force(&r, "FR-A").state, Supply::In);
}

#[test]
fn an_allied_army_must_retake_its_depot_then_wait_four_turns() {
    let depot_at = |holder: &str, id: &str, nation: &str| {
        Map::new()
            .place("Depósito,10.20,town,,yes,Extremadura,south,Sp,,")
            .force(id, nation, "10.20", 1, 0, "")
            .force("SP-A", "Sp", "10.19", 6, 0, "Depósito")
            .place(&format!("X,30.30,village,,,,south,{holder},,"))
            .campaign()
    };
    let r = compute(&depot_at("Fr", "FR-X", "Fr"), &[]);
    assert_eq!(r.depots[0].state, DepotState::Captured);
    assert!(r.depots[0].note.as_deref().unwrap().contains("supplies and recruits are lost"));
    let rec = r.records().into_iter().find(|x| x.force == "SP-A").unwrap();
    let r = compute(&depot_at("Sp", "SP-X", "Sp"), &[rec]);
    assert_eq!((r.depots[0].state, r.depots[0].ready), (DepotState::Reestablishing, Some(24)));
    // A new depot somewhere else is not allowed.
    let rec = SupplyRecord {
        force: "SP-A".into(),
        turns_out: 0,
        depot: Some("Otro".into()),
        depot_state: DepotState::Established,
        depot_ready: None,
    };
    let r = compute(&depot_at("Sp", "SP-X", "Sp"), &[rec]);
    assert_eq!(r.depots[0].state, DepotState::NotAllowed);
}

#[test]
fn toledo_invested_lets_the_investor_s_line_through_and_gives_no_supply() {
    // The French hold Toledo (a city with the Alcázar) with a brigade; the Spanish invest it.
    let m = Map::new()
        .place("Sevilla,10.10,city,,,Andalucia,south,Sp,,")
        .place("Toledo,10.15,city,,,Castile,south,Fr,Sp,yes")
        .force("SP-GAR", "Sp", "10.10", 1, 0, "")
        .force("FR-TOL", "Fr", "10.15", 3, 0, "")
        .force("SP-A", "Sp", "10.20", 6, 0, "Sevilla")
        .force("FR-B", "Fr", "10.16", 3, 0, "");
    let r = compute(&m.campaign(), &[]);
    assert_eq!(force(&r, "SP-A").state, Supply::In, "2.5.3: investing allows a supply line through");
    assert_eq!(force(&r, "FR-B").state, Supply::Out, "the invested Alcázar generates none");
}

#[test]
fn the_searches_walk_each_hex_s_roads_as_the_map_gives_them() {
    // A junction of both classes, a road at the grid's corner and a hex with no road.
    let c = Map::new()
        .road(&["10.15", "11.15", "12.15"], "secondary")
        .road(&["10.15", "09.15", "08.15"], "major")
        .road(&["00.00", "01.00"], "major")
        .campaign();
    let roads = roads(&c);
    let grid = c.map.grid;
    for col in 0..grid.columns {
        for row in 0..grid.rows {
            let h = HexId::new(col, row);
            assert_eq!(roads.at(grid, h), c.map.road_neighbours(h).as_slice(), "{h}");
        }
    }
    assert_eq!(roads.at(grid, h("10.15")).len(), 4);
    assert!(roads.at(grid, h("30.30")).is_empty());
    assert!(roads.at(grid, HexId::new(grid.columns, 0)).is_empty(), "off the grid: no roads");
}

#[test]
fn the_contacts_found_beside_supply_are_those_of_the_campaign_it_leaves() {
    // FR-A cut off by an Allied town (out of supply, its column saying in), the town held by
    // the Spanish beside it (control computed), and the two in contact.
    let m =
        french_line().place("Villa,10.15,town,,,Castile,south,Sp,,").force("SP-A", "Sp", "10.11", 3, 0, "");
    let c = m.campaign();
    let (after, report, found) = now_beside(c.clone(), crate::rules::zoc::contacts);
    assert_eq!(force(&report, "FR-A").state, Supply::Out);
    assert_eq!(after.oob.get("FR-A").unwrap().supply, Supply::Out);
    assert!(!found.is_empty(), "the two forces are in contact");
    assert_eq!(found, crate::rules::zoc::contacts(&after));
    let (alone, report_alone) = now(c);
    assert_eq!(after.oob, alone.oob);
    assert_eq!(after.map.settlements, alone.map.settlements);
    assert_eq!(format!("{report:?}"), format!("{report_alone:?}"));
}

#[test]
fn two_sides_forces_are_put_back_in_file_order() {
    let french = [(0, "F1"), (3, "F2"), (4, "F3"), (9, "F4")];
    let allies = [(1, "A1"), (2, "A2"), (7, "A3")];
    assert_eq!(super::in_file_order(french, allies), ["F1", "A1", "A2", "F2", "F3", "A3", "F4"]);
    assert_eq!(super::in_file_order(allies, french), ["F1", "A1", "A2", "F2", "F3", "A3", "F4"]);
    assert_eq!(super::in_file_order(french, []), ["F1", "F2", "F3", "F4"]);
    assert_eq!(super::in_file_order([], allies), ["A1", "A2", "A3"]);
}
