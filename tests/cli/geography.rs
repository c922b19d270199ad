//! The example campaign's geography: sea hexes, the coast, the national borders and the
//! Spanish provinces of 2.2 in `map/hexes.csv` (written by `scripts/geography/`), drawn on the
//! map, refused to a land march, and refused to a road, river or settlement.

use crate::common::*;
use crate::pictures::{assert_colour, parse_svg, render};
use sowbridge::formats::svg::palette;
use sowbridge::model::HexId;

fn hex(s: &str) -> HexId {
    s.parse().unwrap()
}

fn load(c: &Camp) -> sowbridge::model::Campaign {
    sowbridge::store::CampaignDir::new(&c.dir).load().unwrap()
}

/// Runs `map --out NAME` and gives the picture's bytes.
fn map(c: &Camp, name: &str) -> Vec<u8> {
    let out = c.tmp.path().join(name);
    let o = c.run(&["map", "--out", out.to_str().unwrap()]);
    assert_code(&o, 0);
    std::fs::read(&out).unwrap()
}

/// Writes an orders file beside the campaign and gives its path.
fn write_orders(c: &Camp, name: &str, text: &str) -> String {
    let p = c.tmp.path().join(name);
    std::fs::write(&p, text).unwrap();
    p.display().to_string()
}

#[test]
fn the_example_map_has_sea_and_every_province_of_2_2() {
    let c = Camp::new("peninsula");
    let camp = load(&c);
    let m = &camp.map;
    // The Bay of Biscay, the Atlantic off Lisbon and the Mediterranean off Valencia are sea;
    // Madrid and Medellín are land, and in their provinces.
    for sea in ["30.01", "00.29", "52.30"] {
        assert!(m.is_sea(hex(sea)), "{sea} is sea");
    }
    assert_eq!(m.province(hex("29.21")), Some("Castile-La Mancha"));
    assert_eq!(m.province(hex("18.28")), Some("Extremadura"));
    assert_eq!(m.province(hex("02.29")), Some("Portugal"));
    assert_eq!(m.province(hex("53.03")), Some("France"));
    let provinces: std::collections::BTreeSet<&str> = m.hexes.values().map(|i| i.province.as_str()).collect();
    for p in [
        "Galicia",
        "Asturias",
        "Cantabria",
        "Leon and Old Castile",
        "Vascongadas",
        "Navarra",
        "Aragon",
        "Cataluña",
        "Valencia",
        "Murcia",
        "Castile-La Mancha",
        "Andalucía",
        "Extremadura",
    ] {
        assert!(provinces.contains(p), "no hex of {p}");
    }
    // Every settlement, road and river lies on land; each place's province is its hex's (or,
    // for two places sharing a hex, one of them is).
    for s in &m.settlements {
        assert!(!m.is_sea(s.hex), "{} at sea", s.name);
        let here: Vec<&str> = m.settlements_in(s.hex).iter().map(|s| s.province.as_str()).collect();
        assert!(
            here.contains(&m.province(s.hex).unwrap_or_default()),
            "{} in {:?}",
            s.name,
            m.province(s.hex)
        );
    }
    for side in m.roads.keys().chain(m.rivers.keys()) {
        let (a, b) = side.hexes();
        assert!(!m.is_sea(a) && !m.is_sea(b), "{a}-{b} at sea");
    }
}

#[test]
fn map_draws_the_sea_the_coast_the_borders_and_the_provinces() {
    let c = Camp::new("peninsula");
    let bytes = map(&c, "map.svg");
    let svg = parse_svg(&bytes);
    let path = |id: &str| svg.iter().find(|e| e.name == "path" && e.attr("id") == Some(id)).cloned();
    for id in ["coast", "borders", "provinces"] {
        let p = path(id).unwrap_or_else(|| panic!("no path#{id}"));
        let segments = p.attr("d").unwrap().matches('M').count();
        assert!(segments > 20, "path#{id} has {segments} sides");
    }
    // The national border is heavier than a province's.
    let width = |id: &str| path(id).unwrap().attr("stroke-width").unwrap().parse::<f64>().unwrap();
    assert!(width("borders") > 2.0 * width("provinces"));
    // The provinces named on the map.
    let names: Vec<&str> = svg.iter().filter_map(|e| e.attr("data-province")).collect();
    for p in ["Extremadura", "Castile-La Mancha", "Andalucía", "Portugal", "France"] {
        assert!(names.contains(&p), "{p} not named: {names:?}");
    }
    // In pixels: the sea is the sea's colour, the border between Portugal and Spain at Elvas
    // and Badajoz (12.28-13.29) the border's.
    let camp = load(&c);
    let frame = sowbridge::formats::svg::map::map_frame(&camp.map);
    let p = render(&bytes);
    let (x, y) = frame.centre(hex("30.01"));
    assert_colour(&p, (x + 14.0, y), palette::SEA, "the Bay of Biscay");
    let border =
        camp.map.grid.neighbours(hex("12.28")).find(|&n| {
            camp.map.province(n) == Some("Extremadura") && camp.map.road(hex("12.28"), n).is_none()
        });
    let (a, b) = frame.shared_side(hex("12.28"), border.expect("Elvas borders Extremadura")).unwrap();
    // A quarter along the side: the border's dashes leave its middle bare in places.
    let at = (a.0 + (b.0 - a.0) * 0.25, a.1 + (b.1 - a.1) * 0.25);
    assert_colour(&p, at, palette::BORDER, "the border beside Elvas");
}

#[test]
fn a_march_order_into_the_sea_is_refused_with_the_rule() {
    let c = Camp::new("peninsula");
    // BR-LIS in Lisbon (02.29): west into the Atlantic.
    let sea = load(&c).map.grid.neighbours(hex("02.29")).find(|&n| load(&c).map.is_sea(n)).unwrap();
    for (name, text) in
        [("to.csv", format!("force,to\nBR-LIS,{sea}\n")), ("path.csv", format!("force,path\nBR-LIS,{sea}\n"))]
    {
        let orders = write_orders(&c, name, &text);
        let before = c.snapshot();
        let o = c.run(&["move", &orders]);
        assert_code(&o, 1);
        assert_eq!(before, c.snapshot(), "a refused move changes nothing");
        let err = stderr(&o);
        assert!(err.contains(&format!("{name}:2:")), "{err}");
        assert!(err.contains(&format!("{sea} is sea")) && err.contains("rule 1.2"), "{err}");
    }
}

#[test]
fn check_refuses_a_settlement_a_road_or_a_river_in_the_sea() {
    let c = Camp::new("peninsula");
    let hexes = c.read("map/hexes.csv");
    // Medellín's hex (18.28) made sea: its settlement, roads and river sides are refused.
    let line = hexes.lines().position(|l| l.starts_with("18.28,")).unwrap() + 1;
    let edited: Vec<String> = hexes
        .lines()
        .map(|l| if l.starts_with("18.28,") { "18.28,sea,,,Medellin".to_string() } else { l.to_string() })
        .collect();
    c.write("map/hexes.csv", &(edited.join("\n") + "\n"));
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    let settlement = c.read("settlements.csv").lines().position(|l| l.starts_with("Medellin,")).unwrap() + 1;
    assert!(
        err.contains(&format!("settlements.csv:{settlement}: hex: 18.28 is a sea hex"))
            && err.contains("(1.2)"),
        "{err}"
    );
    assert!(err.contains("map/roads.csv:") && err.contains("a road lies on land only"), "{err}");
    assert!(err.contains("map/rivers.csv:") && err.contains("a river lies on land only"), "{err}");
    // A sea hex lies in no province.
    c.write("map/hexes.csv", &hexes.replacen("\n18.28,low,,Extremadura,", "\n18.28,sea,,Extremadura,", 1));
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    assert!(
        stderr(&o).contains(&format!("map/hexes.csv:{line}: province: a sea hex lies in no province")),
        "{}",
        stderr(&o)
    );
}

#[test]
fn check_refuses_a_settlement_whose_province_is_not_its_hexs() {
    let c = Camp::new("peninsula");
    let hexes = c.read("map/hexes.csv");
    assert!(hexes.contains("\n18.28,low,,Extremadura,"), "Medellín's hex row");
    c.write("map/hexes.csv", &hexes.replacen("\n18.28,low,,Extremadura,", "\n18.28,low,,Andalucía,", 1));
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains(
            "province: Medellin is in Extremadura, but map/hexes.csv puts its hex 18.28 in Andalucía"
        ),
        "{err}"
    );
}

#[test]
fn tiled_paints_the_sea_with_its_own_tile_and_refuses_a_port_painted_sea() {
    let c = Camp::new("peninsula");
    let tmj = c.tmp.path().join("tiled").join("peninsula.tmj");
    assert_code(&c.run(&["map", "export", tmj.to_str().unwrap()]), 0);
    let mut v: serde_json::Value = serde_json::from_slice(&std::fs::read(&tmj).unwrap()).unwrap();
    // The tileset's fourth tile is the sea, and the Bay of Biscay (30.01) is painted with it.
    let tiles = &v["tilesets"][0]["tiles"];
    let sea =
        tiles.as_array().unwrap().iter().find(|t| t["properties"][0]["value"] == "sea").expect("a sea tile");
    let gid = sea["id"].as_u64().unwrap() + 1;
    assert_eq!(gid, 4);
    let png = std::fs::read(c.tmp.path().join("tiled").join("peninsula-terrain.png")).unwrap();
    assert_eq!(u32::from_be_bytes(png[16..20].try_into().unwrap()), 4 * 32, "four tiles side by side");
    let terrain = v["layers"].as_array_mut().unwrap().iter_mut().find(|l| l["name"] == "terrain").unwrap();
    assert_eq!(terrain["data"][64 + 30], serde_json::json!(gid), "30.01 is sea");
    // Exported and imported unedited, nothing changes.
    let before = c.snapshot();
    let o = c.run(&["map", "import", tmj.to_str().unwrap()]);
    assert_code(&o, 0);
    assert_eq!(before, c.snapshot());
    // Lisbon's hex (02.29) painted sea: refused, naming the settlement's object and its roads.
    terrain["data"][29 * 64 + 2] = serde_json::json!(gid);
    std::fs::write(&tmj, serde_json::to_vec(&v).unwrap()).unwrap();
    let o = c.run(&["map", "import", tmj.to_str().unwrap()]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("'Lisbon' (settlement): property 'hex': 02.29 is a sea hex")
            && err.contains("a settlement lies on land only (1.2)"),
        "{err}"
    );
    assert!(err.contains("map/roads.csv:") && err.contains("a road lies on land only"), "{err}");
    assert_eq!(before, c.snapshot(), "a refused import changes nothing");
}
