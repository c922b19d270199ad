//! Tests of settlement control and the garrisons it counts.

use super::*;
use crate::formats::campaign::{CampaignFiles, names, parse_campaign};
use crate::model::{Status, StatusKind};

/// A campaign with one settlement row and the forces given (rows of forces.csv).
fn campaign(settlement: &str, forces: &str) -> Campaign {
    let mut files = CampaignFiles::default();
    let mut put = |name: &'static str, text: String| {
        files.files.insert(name, text.into_bytes());
    };
    put(names::CAMPAIGN, "name = \"T\"\nseed = 1\nturn = 20\n[map]\ncolumns = 64\nrows = 48\n".into());
    put(names::HEXES, "hex,terrain\n".into());
    put(names::ROADS, "from,to,class\n".into());
    put(names::RIVERS, "from,to,name\n".into());
    put(names::SETTLEMENTS, format!("name,hex,kind,port,province,region,control,overrule\n{settlement}\n"));
    put(names::COMMANDERS, "name,side\n".into());
    put(names::FORCES, format!("id,parent,level,name,nation,arm,men,squadrons,guns,hex\n{forces}"));
    parse_campaign(&files).unwrap()
}

fn battalions(id: &str, nation: &str, hex: &str, n: usize) -> String {
    let mut s = format!("{id},,brigade,{id},{nation},,,,,{hex}\n");
    for i in 0..n {
        s += &format!("{id}-{i},{id},battalion,Bn {i},{nation},line,500,,,\n");
    }
    s
}

fn control_of(settlement: &str, forces: &str) -> SettlementControl {
    compute(&campaign(settlement, forces)).remove(0)
}

#[test]
fn a_town_held_by_one_french_battalion_is_french() {
    let k = control_of("Trujillo,19.26,town,,Extremadura,south,Sp,", &battalions("FR", "Fr", "19.26", 1));
    assert_eq!(k.control, Control::Nation(Nation::Fr), "2.1.1: a town needs 1 unit");
    assert_eq!(k.production, Production::Adequate);
    let k = control_of("Trujillo,19.26,town,,Extremadura,south,Sp,", &battalions("FR", "Fr", "19.26", 2));
    assert_eq!(k.production, Production::Good, "doubling the garrison");
}

#[test]
fn a_city_with_one_french_battalion_is_not_french() {
    let k = control_of("Mérida,16.29,city,,Extremadura,south,Sp,", &battalions("FR", "Fr", "16.29", 1));
    assert_eq!(k.control, Control::Unrest, "a city needs a brigade (2.1.1); French-garrisoned, not Allied");
    let k = control_of("Mérida,16.29,city,,Extremadura,south,Sp,", &battalions("FR", "Fr", "16.29", 3));
    assert_eq!(k.control, Control::Nation(Nation::Fr), "3 battalions are a brigade");
}

#[test]
fn madrid_held_by_a_division_is_french_and_by_a_brigade_is_not() {
    let k = control_of("Madrid,29.21,capital,,New Castile,south,Sp,", &battalions("FR", "Fr", "29.21", 6));
    assert_eq!(k.control, Control::Nation(Nation::Fr), "a capital needs a division (2.1.1)");
    let k = control_of("Madrid,29.21,capital,,New Castile,south,Sp,", &battalions("FR", "Fr", "29.21", 5));
    assert_eq!(k.control, Control::Unrest);
}

#[test]
fn a_port_needs_one_unit_more() {
    let k = control_of("Bilbao,33.04,town,yes,Vascongadas,south,Fr,", &battalions("FR", "Fr", "33.04", 1));
    assert_eq!(k.control, Control::Unrest, "a port town needs 2 units");
    let k = control_of("Bilbao,33.04,town,yes,Vascongadas,south,Fr,", &battalions("FR", "Fr", "33.04", 2));
    assert_eq!(k.control, Control::Nation(Nation::Fr));
}

#[test]
fn dragoons_garrison_and_other_cavalry_do_not() {
    let dragoons = "FR,,brigade,Dragons,Fr,,,,,19.26\nFR-1,FR,regiment,1er Dragons,Fr,dragoon,400,2,,\n";
    let k = control_of("Trujillo,19.26,town,,Extremadura,south,Sp,", dragoons);
    assert_eq!(k.control, Control::Nation(Nation::Fr));
    let hussars =
        "FR,,brigade,Hussards,Fr,,,,,19.26\nFR-1,FR,regiment,2e Hussards,Fr,light-cavalry,400,3,,\n";
    let k = control_of("Trujillo,19.26,town,,Extremadura,south,Sp,", hussars);
    assert_eq!(k.control, Control::Nation(Nation::Sp), "hussars cannot garrison (2.1.1): it stays Allied");
    // A brigade of dragoons: 2 regiments, 4 squadrons, holds a city.
    let brigade = "FR,,brigade,Dragons,Fr,,,,,16.29\nFR-1,FR,regiment,1er,Fr,dragoon,400,2,,\nFR-2,FR,regiment,2e,Fr,dragoon,400,2,,\n";
    let k = control_of("Mérida,16.29,city,,Extremadura,south,Sp,", brigade);
    assert_eq!(k.control, Control::Nation(Nation::Fr));
}

#[test]
fn allied_towns_need_no_garrison_but_cities_do() {
    let k = control_of("Trujillo,19.26,town,,Extremadura,south,Sp,", "");
    assert_eq!(k.control, Control::Nation(Nation::Sp), "2.1.2: towns need no garrison");
    assert_eq!(k.production, Production::Adequate, "good needs 1 unit in a town");
    let k = control_of("Mérida,16.29,city,,Extremadura,south,Sp,", "");
    assert_eq!(k.control, Control::Unrest, "2.4.8: larger than a non-port town must be garrisoned");
    let k = control_of("Mérida,16.29,city,,Extremadura,south,Fr,", &battalions("SP", "Sp", "16.29", 1));
    assert_eq!(k.control, Control::Nation(Nation::Sp));
    let k = control_of("Abrantes,07.25,town,,Portugal,south,Fr,", "");
    assert_eq!(k.control, Control::Nation(Nation::Po), "a French town left empty goes back to Portugal");
}

#[test]
fn civil_unrest_persists_until_garrisoned() {
    let k = control_of("Ronda,22.41,town,,Andalucia,south,-,", "");
    assert_eq!(k.control, Control::Unrest);
    let k = control_of("Ronda,22.41,town,,Andalucia,south,-,", &battalions("SP", "Sp", "22.41", 1));
    assert_eq!(k.control, Control::Nation(Nation::Sp));
}

#[test]
fn north_of_the_pyrenees_towns_are_french_and_cities_need_a_unit() {
    let k = control_of("Orthez,44.03,town,,France,north,Fr,", "");
    assert_eq!(k.control, Control::Nation(Nation::Fr));
    let k = control_of("Toulouse,53.03,city,,France,north,Fr,", "");
    assert_eq!(k.control, Control::Unrest, "2.1.1: in cities 1 unit is needed");
    let k = control_of("Toulouse,53.03,city,,France,north,Fr,", &battalions("FR", "Fr", "53.03", 1));
    assert_eq!(k.control, Control::Nation(Nation::Fr));
    let k = control_of("Orthez,44.03,town,,France,north,Fr,", &battalions("SP", "Sp", "44.03", 1));
    assert_eq!(k.control, Control::Nation(Nation::Sp), "the Allies hold a French town with 1 unit");
}

#[test]
fn villages_need_no_garrison() {
    let k = control_of("Zancara,34.24,village,,New Castile,south,Sp,", "");
    assert_eq!(k.control, Control::Nation(Nation::Sp));
    let k = control_of("Zancara,34.24,village,,New Castile,south,Sp,", &battalions("FR", "Fr", "34.24", 1));
    assert_eq!(k.control, Control::Nation(Nation::Fr));
}

#[test]
fn the_umpire_overrules() {
    let k = control_of("Mérida,16.29,city,,Extremadura,south,Sp,Sp", "");
    assert_eq!((k.computed, k.control, k.overruled), (Control::Unrest, Control::Nation(Nation::Sp), true));
}

#[test]
fn a_battalion_with_no_men_present_garrisons_nothing() {
    // Written with men 0, as `apply` leaves a battalion that lost every man.
    let wiped = |n: usize, zero: usize| {
        let s = battalions("FR", "Fr", "16.29", n);
        s.replacen(",line,500,", ",line,0,", zero)
    };
    let k = control_of("Mérida,16.29,city,,Extremadura,south,Sp,", &wiped(3, 1));
    assert_eq!(k.control, Control::Unrest, "2 battalions with men are no brigade (2.1.1)");
    let k = control_of("Trujillo,19.26,town,,Extremadura,south,Sp,", &wiped(1, 1).replace("16.29", "19.26"));
    assert_ne!(k.control, Control::Nation(Nation::Fr), "a force without men holds no town");
    // Nor is it a force stationed in the hex (a secondary road's junction, 13 July 2014).
    let c = campaign("Trujillo,19.26,town,,Extremadura,south,Sp,", &wiped(2, 2));
    assert_eq!(Garrisons::of(&c).at("16.29".parse::<HexId>().unwrap(), Side::French).forces, 0);
}

#[test]
fn garrisons_counted_row_by_row_are_those_counted_force_by_force() {
    // Units listed before their formations, a mixed Allied army, dragoons,
    // other cavalry, a force with no man left and two forces in one hex.
    let forces = "\
SP-1-A,SP-1,battalion,Bn a,Sp,line,500,,,
SP-1-B,SP-1,battalion,Bn b,Br,line,500,,,
SP-1-C,SP-1,battalion,Bn c,Br,line,500,,,
SP-1-D,SP-1,regiment,Dr,Sp,dragoon,400,3,,
SP-1,SP,brigade,Brigade,Sp,,,,,
SP,,division,Army,Sp,,,,,19.26
PO,,brigade,Po,Po,,,,,19.26
PO-1,PO,battalion,Bn,Po,line,0,,,
FR,,brigade,Fr,Fr,,,,,20.20
FR-1,FR,regiment,Hussars,Fr,light-cavalry,300,4,,
FR-2,FR,battalion,Bn,Fr,line,600,,,
FR2,,brigade,Fr2,Fr,,,,,20.20
FR2-1,FR2,regiment,Dragoons,Fr,dragoon,300,4,,
";
    let c = campaign("Trujillo,19.26,town,,Extremadura,south,Sp,", forces);
    let g = Garrisons::of(&c);
    assert_eq!(g, Garrisons::walked(&c, c.config.turn));
    let trujillo = "19.26".parse::<HexId>().unwrap();
    assert_eq!(
        g.at(trujillo, Side::Allies),
        Garrison { battalions: 3, squadrons: 3, forces: 1 },
        "no men, no force"
    );
    // One Spanish battalion and three squadrons are more units than two British battalions.
    assert_eq!(g.allied_nation.get(&trujillo), Some(&Nation::Sp));
    let g20 = g.at("20.20".parse::<HexId>().unwrap(), Side::French);
    assert_eq!(g20, Garrison { battalions: 1, squadrons: 4, forces: 2 }, "hussars police nothing");
    // The map's last hex, and a hex off the map (a campaign value not read from files),
    // count alike.
    let (last, off) = (HexId { col: 63, row: 47 }, HexId { col: 90, row: 3 });
    let mut moved = c.clone();
    for u in moved.oob.units_mut() {
        match u.id.as_str() {
            "SP" => u.hex = Some(last),
            "FR2" => u.hex = Some(off),
            _ => {}
        }
    }
    let g = Garrisons::of(&moved);
    assert_eq!(g, Garrisons::walked(&moved, moved.config.turn));
    assert_eq!(g.at(last, Side::Allies), Garrison { battalions: 3, squadrons: 3, forces: 1 });
    assert_eq!(g.allied_nation.get(&last), Some(&Nation::Sp));
    assert_eq!(g.at(off, Side::French), Garrison { battalions: 0, squadrons: 4, forces: 1 });
    assert_eq!(g.at(trujillo, Side::Allies), Garrison::default());
    // A penalty run out, or one of another kind, leaves the battalion counted; an unavailable
    // one running leaves it out (6.5.2.4).
    let turn = c.config.turn;
    let penalised = |until: u32| {
        let mut p = c.clone();
        *p.oob.get_mut("SP-1-B").unwrap().status_mut() = vec![
            Status { kind: StatusKind::AmmoHalved, until: turn + 3 },
            Status { kind: StatusKind::Unavailable, until },
        ];
        let g = Garrisons::of(&p);
        assert_eq!(g, Garrisons::walked(&p, turn));
        g.at(trujillo, Side::Allies)
    };
    assert_eq!(penalised(turn), Garrison { battalions: 3, squadrons: 3, forces: 1 });
    assert_eq!(penalised(turn + 1), Garrison { battalions: 2, squadrons: 3, forces: 1 });
}
