//! Pictures: `map` and the battle picture through the real binary. Every SVG is parsed with
//! quick-xml and rendered to pixels with resvg, in this process, so that the tests see what
//! an umpire would see: a force's colour at its hex, the battle hex marked at its centre.

use std::collections::BTreeMap;

use quick_xml::events::Event;
use resvg::{tiny_skia, usvg};
use sowbridge::formats::svg::palette;
use sowbridge::model::{Campaign, HexId};

use crate::common::*;

/// One element of an SVG document: its name, attributes and the text directly inside it.
#[derive(Debug, Clone)]
pub struct Element {
    pub name: String,
    pub attrs: BTreeMap<String, String>,
    pub text: String,
    /// Names of the elements it is inside, outermost first, with their `id` if any
    /// (`g#forces`).
    pub path: Vec<String>,
}

impl Element {
    pub fn attr(&self, k: &str) -> Option<&str> {
        self.attrs.get(k).map(String::as_str)
    }
    pub fn inside(&self, id: &str) -> bool {
        self.path.iter().any(|p| p.ends_with(&format!("#{id}")))
    }
}

/// Parses a whole SVG document with quick-xml, failing the test on any XML error.
#[track_caller]
pub fn parse_svg(bytes: &[u8]) -> Vec<Element> {
    let mut r = quick_xml::Reader::from_reader(bytes);
    let mut out: Vec<Element> = Vec::new();
    let mut stack: Vec<(String, usize)> = Vec::new();
    let mut buf = Vec::new();
    loop {
        let ev = r.read_event_into(&mut buf).unwrap_or_else(|e| panic!("SVG is not XML: {e}"));
        match ev {
            Event::Start(ref s) | Event::Empty(ref s) => {
                let q = s.name();
                let name: String = AsRef::<str>::as_ref(&q).to_string();
                let mut attrs = BTreeMap::new();
                for a in s.attributes() {
                    let a = a.unwrap();
                    let k: String = AsRef::<str>::as_ref(&a.key).to_string();
                    attrs.insert(
                        k,
                        a.normalized_value(quick_xml::XmlVersion::Implicit1_0).unwrap().into_owned(),
                    );
                }
                let path = stack.iter().map(|(p, _)| p.clone()).collect();
                let label = match attrs.get("id") {
                    Some(id) => format!("{name}#{id}"),
                    None => name.clone(),
                };
                out.push(Element { name, attrs, text: String::new(), path });
                if matches!(ev, Event::Start(_)) {
                    stack.push((label, out.len() - 1));
                }
            }
            Event::Text(t) => {
                if let Some(&(_, i)) = stack.last() {
                    out[i].text.push_str(&t.xml10_content());
                }
            }
            Event::GeneralRef(g) => {
                if let Some(&(_, i)) = stack.last() {
                    let name: String = AsRef::<str>::as_ref(&g).to_string();
                    let ch = match name.as_str() {
                        "amp" => "&",
                        "lt" => "<",
                        "gt" => ">",
                        "quot" => "\"",
                        "apos" => "'",
                        other => panic!("unexpected entity &{other};"),
                    };
                    out[i].text.push_str(ch);
                }
            }
            Event::End(_) => {
                stack.pop();
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    assert!(stack.is_empty(), "unclosed elements: {stack:?}");
    assert_eq!(out.first().map(|e| e.name.as_str()), Some("svg"), "the root is <svg>");
    out
}

/// Renders an SVG to pixels (without fonts: text is left out, so that it never stands
/// between a test and the shapes it looks at).
#[track_caller]
pub fn render(bytes: &[u8]) -> tiny_skia::Pixmap {
    let tree = usvg::Tree::from_data(bytes, &usvg::Options::default()).expect("resvg reads the SVG");
    let size = tree.size().to_int_size();
    let mut pixmap = tiny_skia::Pixmap::new(size.width(), size.height()).unwrap();
    resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
    pixmap
}

/// The colour of the pixel at a point, as `#rrggbb`.
pub fn pixel(p: &tiny_skia::Pixmap, at: (f64, f64)) -> String {
    let c = p.pixel(at.0.round() as u32, at.1.round() as u32).unwrap();
    format!("#{:02x}{:02x}{:02x}", c.red(), c.green(), c.blue())
}

/// True when two `#rrggbb` colours differ by at most `tol` in every channel.
pub fn near(a: &str, b: &str, tol: u8) -> bool {
    let ch = |s: &str, i: usize| u8::from_str_radix(&s[1 + 2 * i..3 + 2 * i], 16).unwrap();
    (0..3).all(|i| ch(a, i).abs_diff(ch(b, i)) <= tol)
}

#[track_caller]
pub fn assert_colour(p: &tiny_skia::Pixmap, at: (f64, f64), want: &str, what: &str) {
    let got = pixel(p, at);
    assert!(near(&got, want, 6), "{what}: pixel at {at:?} is {got}, expected {want}");
}

fn load(c: &Camp) -> Campaign {
    sowbridge::store::CampaignDir::new(&c.dir).load().unwrap()
}

fn hex(s: &str) -> HexId {
    s.parse().unwrap()
}

/// Runs `map --out <tmp>/<name> args…` and returns the bytes written.
#[track_caller]
fn map(c: &Camp, name: &str, args: &[&str]) -> Vec<u8> {
    let out = c.tmp.path().join(name);
    let o_str = out.to_string_lossy().into_owned();
    let mut all = vec!["map", "--out", o_str.as_str()];
    all.extend_from_slice(args);
    let o = c.run(&all);
    assert_code(&o, 0);
    assert!(stderr(&o).contains("wrote"), "{}", stderr(&o));
    std::fs::read(out).unwrap()
}

fn texts(svg: &[Element]) -> Vec<&str> {
    svg.iter().filter(|e| e.name == "text" || e.name == "title").map(|e| e.text.as_str()).collect()
}

#[test]
fn map_draws_every_hex_settlement_and_force_of_the_fixture() {
    let c = Camp::new("peninsula");
    let bytes = map(&c, "map.svg", &[]);
    let svg = parse_svg(&bytes);
    let camp = load(&c);
    let hexes = svg.iter().filter(|e| e.name == "use" && e.inside("hexes")).count();
    assert_eq!(hexes, 64 * 48, "every hex of the map");
    let ids = svg.iter().filter(|e| e.name == "text" && e.inside("hex-ids")).count();
    assert_eq!(ids, 64 * 48, "every hex id");
    let places: Vec<&str> = svg.iter().filter_map(|e| e.attr("data-settlement")).collect();
    assert_eq!(places.len(), camp.map.settlements.len());
    let forces: Vec<&str> = svg.iter().filter_map(|e| e.attr("data-force")).collect();
    assert_eq!(forces.len(), 12, "every top-level force: {forces:?}");
    let rivers = svg.iter().filter(|e| e.name == "line" && e.inside("rivers")).count();
    assert_eq!(rivers, camp.map.rivers.len());
    let roads: Vec<&Element> = svg.iter().filter(|e| e.name == "line" && e.inside("roads")).collect();
    assert_eq!(roads.len(), camp.map.roads.len());
    assert!(roads.iter().any(|e| e.attr("stroke-dasharray").is_some()), "secondary roads are broken lines");
    let contacts = svg.iter().filter(|e| e.name == "line" && e.inside("contacts")).count();
    assert_eq!(contacts, 4, "FR-I and FR-LM with the Army of Extremadura, Toledo");
    let t = texts(&svg);
    for want in [
        "Peninsular Campaign 1808-1814",
        "Medellin",
        "Badajoz",
        "18.28",
        "Ier Corps",
        "15,860 men, 44 guns",
        "Legend (rule 1.2)",
        "fortress city",
        "depot",
    ] {
        assert!(t.iter().any(|x| x.contains(want)), "no text '{want}'");
    }
    assert!(t.iter().any(|x| x.contains("Turn 20, late March 1809")), "turn and date");
    // The kinds of rule 1.2's legend, each on the map.
    let kinds: std::collections::BTreeSet<&str> = svg.iter().filter_map(|e| e.attr("data-kind")).collect();
    for k in ["town", "fortress-town", "city", "fortress-city", "capital"] {
        assert!(kinds.contains(k), "{k}");
    }
}

#[test]
fn map_pixels_show_each_force_ground_and_river_where_it_belongs() {
    let c = Camp::new("peninsula");
    let bytes = map(&c, "map.svg", &[]);
    let camp = load(&c);
    let frame = sowbridge::formats::svg::map::map_frame(&camp.map);
    let p = render(&bytes);
    let french = palette::side(sowbridge::model::Side::French);
    let allies = palette::side(sowbridge::model::Side::Allies);
    assert_colour(&p, frame.centre(hex("18.28")), french, "FR-I at Medellín");
    assert_colour(&p, frame.centre(hex("20.29")), french, "FR-LM");
    assert_colour(&p, frame.centre(hex("18.29")), allies, "SP-EXT");
    assert_colour(&p, frame.centre(hex("02.29")), allies, "BR-LIS at Lisbon");
    // Ground: a high hex and a low one, away from everything drawn on them.
    let high = camp.map.hexes.iter().find(|(h, i)| {
        i.terrain == sowbridge::model::Terrain::High && !i.forest && camp.map.settlements_in(**h).is_empty()
    });
    let (&high, _) = high.unwrap();
    let (x, y) = frame.centre(high);
    assert_colour(&p, (x + 14.0, y), palette::HIGH, &format!("high ground at {high}"));
    let (x, y) = frame.centre(hex("34.30"));
    assert_colour(&p, (x + 14.0, y), palette::LOW, "low ground");
    // The Guadiana on Medellín's north-west side (17.28-18.28).
    let (a, b) = frame.shared_side(hex("17.28"), hex("18.28")).unwrap();
    assert_colour(&p, ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0), palette::RIVER, "the Guadiana");
}

#[test]
fn map_follows_the_campaigns_layout_setting() {
    let c = Camp::new("peninsula");
    // Rivers and roads run along sides of the even layout: left out here.
    let toml = c.read("campaign.toml").replace("even-columns-down", "odd-columns-down");
    c.write("campaign.toml", &toml);
    c.write("map/rivers.csv", "from,to,name\n");
    c.write("map/roads.csv", "from,to,class\n");
    let forces = c.read("forces.csv").replace("18.28,18.29,Talavera", "18.28,,Talavera");
    c.write("forces.csv", &forces);
    let bytes = map(&c, "odd.svg", &[]);
    let camp = load(&c);
    assert_eq!(camp.map.grid.layout, sowbridge::model::HexLayout::OddColumnsDown);
    let frame = sowbridge::formats::svg::map::map_frame(&camp.map);
    let p = render(&bytes);
    // Column 18 is even: with odd columns down it stands half a hex higher than before.
    let french = palette::side(sowbridge::model::Side::French);
    assert_colour(&p, frame.centre(hex("18.28")), french, "FR-I, odd layout");
    let mut even = camp.map.clone();
    even.grid.layout = sowbridge::model::HexLayout::EvenColumnsDown;
    let old = sowbridge::formats::svg::map::map_frame(&even).centre(hex("18.28"));
    assert!(!near(&pixel(&p, old), french, 40), "FR-I where the even layout would put it");
}

#[test]
fn map_is_the_same_bytes_for_the_same_campaign() {
    let c = Camp::new("peninsula");
    let a = map(&c, "a.svg", &["--zoc"]);
    let b = map(&c, "b.svg", &["--zoc"]);
    let other = Camp::new("peninsula");
    let d = map(&other, "d.svg", &["--zoc"]);
    assert_eq!(a, b);
    assert_eq!(a, d, "another copy of the campaign");
    let html_a = map(&c, "a.html", &["--side", "allies"]);
    let html_b = map(&other, "b.html", &["--side", "allies"]);
    assert_eq!(html_a, html_b);
}

#[test]
fn map_zones_of_control_shade_the_hexes_around_each_force() {
    let c = Camp::new("peninsula");
    let svg = parse_svg(&map(&c, "zoc.svg", &["--zoc"]));
    let camp = load(&c);
    for side in [sowbridge::model::Side::French, sowbridge::model::Side::Allies] {
        let drawn =
            svg.iter().filter(|e| e.name == "polygon" && e.inside(&format!("zoc-{}", side.slug()))).count();
        // No force marches along a road with cavalry alone: each zone is the six hexes around.
        let zone: std::collections::BTreeSet<HexId> = camp
            .oob
            .forces()
            .filter(|f| f.side() == side)
            .filter_map(|f| f.hex)
            .flat_map(|h| camp.map.grid.neighbours(h).collect::<Vec<_>>())
            .collect();
        assert_eq!(drawn, zone.len(), "{side}");
    }
    let plain = parse_svg(&map(&c, "plain.svg", &[]));
    assert!(!plain.iter().any(|e| e.inside("zoc-french")), "no zones without --zoc");
}

#[test]
fn map_html_is_one_self_contained_page_with_the_svg_inline() {
    let c = Camp::new("peninsula");
    let page = String::from_utf8(map(&c, "map.html", &[])).unwrap();
    let svg = String::from_utf8(map(&c, "map.svg", &[])).unwrap();
    assert!(page.starts_with("<!DOCTYPE html>"));
    assert!(page.contains(
        "<title>Peninsular Campaign 1808-1814: turn 20, late March 1809 (umpire&#39;s map)</title>"
    ));
    let body = svg.split_once("?>").unwrap().1.trim();
    assert!(page.contains(body), "the same SVG, inline");
    for external in ["<script", "<link", "src=", "url(", "@import", "http://", "https://"] {
        let inside = page.replace("xmlns=\"http://www.w3.org/2000/svg\"", "");
        assert!(!inside.contains(external), "{external}");
    }
    // References only within the page (the hexagon every hex uses).
    for (i, _) in page.match_indices("href=\"") {
        assert!(page[i + 6..].starts_with('#'), "{}", &page[i..i + 40]);
    }
}

#[test]
fn map_side_view_shows_no_enemy_force_the_side_could_not_know_of() {
    let c = Camp::new("peninsula");
    let fr = map(&c, "french.svg", &["--side", "french"]);
    let text = String::from_utf8(fr.clone()).unwrap();
    // Out of contact with every French force: absent by id and by name.
    for (id, name) in [
        ("SP-ALB", "División del Duque de Alburquerque"),
        ("SP-SEV", "División de Reserva de Andalucía"),
        ("PO-ELV", "Brigada de Elvas"),
        ("BR-LIS", "Brigade Mackenzie"),
    ] {
        assert!(!text.contains(id), "{id} leaks into the French view");
        assert!(!text.contains(name), "{name} leaks into the French view");
    }
    // In contact (8.1): there, by name, without its strength.
    let svg = parse_svg(&fr);
    let forces: Vec<&str> = svg.iter().filter_map(|e| e.attr("data-force")).collect();
    assert_eq!(forces.iter().filter(|f| f.starts_with("SP-")).count(), 3, "{forces:?}");
    assert!(text.contains("Ejército de Extremadura"));
    assert!(!text.contains("17,030"), "the enemy's men are not known");
    assert!(text.contains("strength not known"));
    assert!(text.contains("15,860 men, 44 guns"), "its own forces' strength");
    // Nor drawn where it stands.
    let camp = load(&c);
    let frame = sowbridge::formats::svg::map::map_frame(&camp.map);
    let p = render(&fr);
    let at = frame.centre(hex("17.37"));
    assert!(!near(&pixel(&p, at), palette::side(sowbridge::model::Side::Allies), 40), "SP-SEV drawn");

    let al = String::from_utf8(map(&c, "allies.svg", &["--side", "allies"])).unwrap();
    for (id, name) in [("FR-RES", "Division Dessolles"), ("FR-LAP", "2e Division Lapisse")] {
        assert!(!al.contains(id), "{id} leaks into the Allied view");
        assert!(!al.contains(name), "{name} leaks into the Allied view");
    }
    assert!(al.contains("Ier Corps") && !al.contains("15,860"));
}

#[test]
fn map_refuses_a_file_that_is_not_svg_or_html() {
    let c = Camp::new("peninsula");
    let out = c.tmp.path().join("map.png");
    let o = c.run(&["map", "--out", out.to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("FILE.svg or FILE.html"), "{}", stderr(&o));
    assert!(!out.exists());
}

fn battle_svg(c: &Camp) -> Vec<u8> {
    std::fs::read(c.path("battles/T20-18.28/battle.svg")).expect("export writes battles/<id>/battle.svg")
}

fn battle_record(c: &Camp) -> sowbridge::model::battle::BattleRecord {
    sowbridge::store::CampaignDir::new(&c.dir).read_battle("T20-18.28").unwrap()
}

#[test]
fn export_draws_the_battle_picture_with_every_force_the_map_and_the_objective() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let rec = battle_record(&c);
    let svg = parse_svg(&battle_svg(&c));
    let forces: std::collections::BTreeSet<&str> =
        svg.iter().filter(|e| e.inside("forces")).filter_map(|e| e.attr("data-force")).collect();
    let want: std::collections::BTreeSet<&str> = rec.participants.iter().map(|p| p.force.as_str()).collect();
    assert_eq!(forces, want, "every principal and joiner at its hex");
    assert_eq!(want.len(), 5, "FR-I, FR-LM, SP-EXT, SP-EXT-VAN, SP-ALB");
    let t = texts(&svg);
    let has = |s: &str| t.iter().any(|x| x.contains(s));
    assert!(has(&format!("SoW map {} at {}°", rec.map.id, rec.map.orientation)), "map and orientation");
    assert!(has("Medellin (major objective)"));
    assert!(has("campaign north"));
    for p in rec.participants.iter().filter(|p| p.role == sowbridge::model::battle::Role::Joiner) {
        assert!(has(&format!("+{} min", p.delay_minutes)), "the delay of {}", p.force);
        assert!(has(&format!(
            "joins from {} by the {} edge after {} minutes",
            p.hex, p.edge, p.delay_minutes
        )));
    }
    assert!(has("Mérida"), "the places around");
    assert!(svg.iter().any(|e| e.inside("rivers") && e.name == "line"), "the Guadiana");
}

#[test]
fn battle_picture_marks_the_battle_hex_and_each_force_where_it_belongs() {
    use sowbridge::formats::svg::battle::{BATTLE_MARK, neighbourhood_frame, reach};
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let rec = battle_record(&c);
    let camp = load(&c);
    let bytes = battle_svg(&c);
    let p = render(&bytes);
    let frame = neighbourhood_frame(camp.map.grid, rec.hex, reach(&rec));
    assert_colour(&p, frame.centre(hex("18.28")), BATTLE_MARK, "the battle hex's marker");
    let french = palette::side(sowbridge::model::Side::French);
    let allies = palette::side(sowbridge::model::Side::Allies);
    assert_colour(&p, frame.centre(hex("20.29")), french, "FR-LM at its hex");
    assert_colour(&p, frame.centre(hex("17.30")), allies, "SP-ALB at its hex");
    assert_colour(&p, frame.centre(hex("18.29")), allies, "SP-EXT at its hex");

    // Each arrow ends on the SoW map's edge the record names, in its side's colour.
    let svg = parse_svg(&bytes);
    let sq = svg.iter().find(|e| e.attr("id") == Some("sow-map")).expect("the SoW map's square");
    let f = |k: &str| sq.attr(k).unwrap().parse::<f64>().unwrap();
    let (x0, y0, w, h) = (f("x"), f("y"), f("width"), f("height"));
    let mut arrows = 0;
    for part in rec.participants.iter().filter(|p| p.bearing.is_some()) {
        let g = svg.iter().find(|e| e.attr("data-entry") == Some(part.force.as_str())).unwrap();
        assert_eq!(g.attr("data-edge"), Some(part.edge.as_str()), "{}", part.force);
        let (tx, ty) = g.attr("data-tip").unwrap().split_once(',').unwrap();
        let tip: (f64, f64) = (tx.parse().unwrap(), ty.parse().unwrap());
        let on = |a: f64, b: f64| (a - b).abs() < 0.2;
        let on_edge = match part.edge.as_str() {
            "N" => on(tip.1, y0),
            "S" => on(tip.1, y0 + h),
            "E" => on(tip.0, x0 + w),
            "W" => on(tip.0, x0),
            e => panic!("edge {e}"),
        };
        assert!(on_edge, "{} ends at {tip:?}, not on the {} edge", part.force, part.edge);
        let mb = (part.bearing.unwrap() + f64::from(rec.map.orientation)) % 360.0;
        let head = sowbridge::formats::svg::Frame::toward(tip, mb, 6.0);
        assert_colour(&p, head, palette::side(part.side), &format!("{}'s arrow head", part.force));
        arrows += 1;
    }
    assert_eq!(arrows, 4, "every force outside the battle hex");
}

#[test]
fn battle_picture_names_the_reserve_held_back() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &["--reserve", "FR-I-LAS-1"]);
    let svg = parse_svg(&battle_svg(&c));
    let t = texts(&svg);
    assert!(t.iter().any(|x| x.starts_with("held back in reserve (8.7): FR-I-LAS-1")), "{t:?}");
}

#[test]
fn battle_picture_is_the_same_bytes_for_the_same_battle() {
    let (a, b) = (Camp::new("peninsula"), Camp::new("peninsula"));
    export_medellin(&a, &[]);
    export_medellin(&b, &[]);
    assert_eq!(battle_svg(&a), battle_svg(&b));
}

/// Exports Medellín and applies the shipped example result (a French victory), with `extra`
/// arguments to `apply`.
fn medellin_applied(c: &Camp, extra: &[&str]) {
    export_medellin(c, &[]);
    let example = repo().join("fixtures/results/T20-18.28-example.result.csv");
    let mut args = vec!["apply", example.to_str().unwrap()];
    args.extend_from_slice(extra);
    assert_code(&c.run(&args), 0);
}

fn aftermath_svg(c: &Camp) -> Vec<u8> {
    std::fs::read(c.path("battles/T20-18.28/aftermath.svg")).expect("apply writes battles/<id>/aftermath.svg")
}

/// Where the aftermath picture draws each hex: the neighbourhood it names.
fn aftermath_frame(c: &Camp, svg: &[Element]) -> sowbridge::formats::svg::Frame {
    let g = svg.iter().find(|e| e.attr("id") == Some("neighbourhood")).expect("the neighbourhood");
    let reach: u32 = g.attr("data-reach").unwrap().parse().unwrap();
    let centre = hex(g.attr("data-centre").unwrap());
    sowbridge::formats::svg::battle::neighbourhood_frame(load(c).map.grid, centre, reach)
}

#[test]
fn apply_draws_the_aftermath_with_the_withdrawal_ending_at_its_destination() {
    use sowbridge::formats::svg::battle::BATTLE_MARK;
    let c = Camp::new("peninsula");
    medellin_applied(&c, &[]);
    let bytes = aftermath_svg(&c);
    let svg = parse_svg(&bytes);
    let frame = aftermath_frame(&c, &svg);
    let p = render(&bytes);
    let allies = palette::side(sowbridge::model::Side::Allies);
    let french = palette::side(sowbridge::model::Side::French);
    assert_colour(&p, frame.centre(hex("18.28")), BATTLE_MARK, "the battle hex's marker");
    // The report: SP-EXT and SP-ALB withdraw to Badajoz (13.29), SP-EXT-VAN is trapped at 19.29.
    assert_colour(&p, frame.centre(hex("13.29")), allies, "the beaten army at Badajoz");
    let (a, b) = (frame.centre(hex("14.29")), frame.centre(hex("13.29")));
    assert_colour(&p, ((a.0 + b.0) / 2.0, (a.1 + b.1) / 2.0), allies, "the last step of the road to Badajoz");
    assert_colour(&p, frame.centre(hex("19.29")), allies, "SP-EXT-VAN trapped at its hex");
    let fr_i = frame.centre(hex("18.28"));
    assert_colour(&p, (fr_i.0, fr_i.1 + 0.42 * 44.0), french, "the victor on the field, below the marker");
    let lines: Vec<&Element> =
        svg.iter().filter(|e| e.name == "polyline" && e.inside("withdrawals")).collect();
    let last_point = |e: &Element| {
        let pts = e.attr("points").unwrap();
        let (x, y) = pts.rsplit(' ').next().unwrap().split_once(',').unwrap();
        (x.parse::<f64>().unwrap(), y.parse::<f64>().unwrap())
    };
    // Each road is drawn to the hex before the destination, then an arrow into it.
    assert!(lines.iter().any(|e| {
        let (x, y) = last_point(e);
        (x - a.0).abs() < 0.2 && (y - a.1).abs() < 0.2
    }));
    let t = texts(&svg);
    let has = |s: &str| t.iter().any(|x| x.contains(s));
    assert!(has("After the action at Medellin (18.28): French victory"), "{t:?}");
    assert!(has("SP-EXT, SP-ALB to Badajoz (13.29)"), "{t:?}");
    let trapped = svg.iter().find(|e| e.attr("data-withdrawal") == Some("SP-EXT-VAN")).unwrap();
    assert!(
        svg.iter().any(|e| e.text == "trapped (6.5.1)"
            && e.path.len() > trapped.path.len()
            && e.inside("withdrawals")),
        "SP-EXT-VAN trapped, said at its hex"
    );
    assert!(has("SP-EXT Ejército de Extremadura withdraws from 18.29 to Badajoz (13.29), 5 hexes by road"));
    assert!(has("Brigade SP-EXT-VAN-1 unavailable until turn 23."));
    // The losses are the report's.
    let report = c.read("battles/T20-18.28/report.md");
    let row = report.lines().find(|l| l.starts_with("| Allies |")).unwrap();
    let cells: Vec<&str> = row.split('|').map(str::trim).collect();
    let n = |s: &str| s.parse::<u32>().unwrap();
    let want = format!(
        "Allies: {} men before, {} after: {} killed, {} wounded, {} captured; {} guns lost",
        sowbridge::formats::svg::thousands(n(cells[2])),
        sowbridge::formats::svg::thousands(n(cells[3])),
        sowbridge::formats::svg::thousands(n(cells[4])),
        sowbridge::formats::svg::thousands(n(cells[5])),
        sowbridge::formats::svg::thousands(n(cells[8])),
        cells[11]
    );
    assert!(has(&want), "{want} not in {t:?}");
}

#[test]
fn the_aftermath_marks_a_river_crossed_on_the_way_back() {
    let c = Camp::new("peninsula");
    medellin_applied(&c, &["--withdraw-to", "SP-EXT=12.28"]);
    let bytes = aftermath_svg(&c);
    let svg = parse_svg(&bytes);
    let frame = aftermath_frame(&c, &svg);
    let crossing =
        svg.iter().find(|e| e.attr("data-river-crossed") == Some("Rio Guadiana")).expect("the crossing");
    assert_eq!(crossing.name, "g");
    let (p, q) = frame.shared_side(hex("13.29"), hex("12.28")).unwrap();
    let mid = ((p.0 + q.0) / 2.0, (p.1 + q.1) / 2.0);
    assert_colour(&render(&bytes), mid, palette::RIVER, "the crossing's marker on the Guadiana");
    let t = texts(&svg);
    assert!(t.iter().any(|x| x.contains("crosses the Rio Guadiana")), "{t:?}");
    assert!(t.iter().any(|x| x.contains("to Elvas (12.28) (the umpire's choice)")), "{t:?}");
}

#[test]
fn the_aftermath_is_the_same_bytes_and_undo_takes_it_away() {
    let (a, b) = (Camp::new("peninsula"), Camp::new("peninsula"));
    medellin_applied(&a, &[]);
    medellin_applied(&b, &[]);
    assert_eq!(aftermath_svg(&a), aftermath_svg(&b));
    assert_code(&a.run(&["undo", "T20-18.28"]), 0);
    assert!(
        !a.path("battles/T20-18.28/aftermath.svg").exists(),
        "undo removes the aftermath with the report"
    );
}

#[test]
fn export_writes_each_sides_view_beside_its_briefing_and_nothing_of_the_enemy_out_of_contact() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let fr = std::fs::read(c.path("battles/T20-18.28/briefings/french.svg")).expect("the French view");
    let al = std::fs::read(c.path("battles/T20-18.28/briefings/allies.svg")).expect("the Allied view");
    let (ft, at) = (String::from_utf8(fr.clone()).unwrap(), String::from_utf8(al.clone()).unwrap());
    // SP-ALB stands in the neighbourhood (17.30) but touches no French force: not in the
    // French view, though the Allies see it.
    for (id, name) in [("SP-ALB", "División del Duque de Alburquerque"), ("PO-ELV", "Brigada de Elvas")] {
        assert!(!ft.contains(id) && !ft.contains(name), "{id} leaks into the French battle view");
    }
    assert!(at.contains("SP-ALB"), "the Allies see their own force");
    assert!(
        ft.contains("Ejército de Extremadura") && !ft.contains("17,030"),
        "the enemy in contact, strength not known"
    );
    assert!(ft.contains("15,860 men, 44 guns"));
    assert!(!at.contains("15,860"), "the Allies do not know I Corps' strength");
    let svg = parse_svg(&fr);
    let t = texts(&svg);
    assert!(t.iter().any(|x| x.contains("Battle T20-18.28 at Medellin (18.28)")), "{t:?}");
    assert!(t.iter().any(|x| x.contains("French view")), "{t:?}");
    // A window of the map, not all of it.
    let hexes = svg.iter().filter(|e| e.name == "use" && e.inside("hexes")).count();
    assert!(hexes > 20 && hexes < 200, "{hexes} hexes");
}

/// Runs `battle show T20-18.28 --html <tmp>/<name> args…`, returning the page.
fn battle_page(c: &Camp, name: &str, args: &[&str]) -> String {
    let out = c.tmp.path().join(name);
    let o_str = out.to_string_lossy().into_owned();
    let mut all = vec!["battle", "show", "T20-18.28", "--html", o_str.as_str()];
    all.extend_from_slice(args);
    let o = c.run(&all);
    assert_code(&o, 0);
    String::from_utf8(std::fs::read(out).unwrap()).unwrap()
}

#[test]
fn battle_show_html_writes_the_umpires_page_and_each_players_page() {
    let c = Camp::new("peninsula");
    medellin_applied(&c, &[]);
    let before = c.snapshot();
    let ump = battle_page(&c, "umpire.html", &[]);
    assert!(ump.contains("<table>") && ump.contains("<td>French</td>"), "the report's tables");
    assert!(ump.contains("French victory"));
    assert_eq!(ump.matches("<svg ").count(), 2, "the aftermath and the battle picture");
    assert!(ump.contains("After the action at Medellin"));
    assert!(ump.contains("The action at Medellin"));
    for external in ["<script", "<link", "src=", "url(", "@import"] {
        assert!(!ump.contains(external), "{external}");
    }
    let fr = battle_page(&c, "french.html", &["--side", "french"]);
    assert_eq!(fr.matches("<svg ").count(), 1, "the French view");
    assert!(fr.contains(&c.read("battles/T20-18.28/briefings/french.md").lines().next().unwrap()[2..]));
    // Nothing of the Allies' secrets: not their briefing, strengths, the other forces.
    for secret in ["SP-ALB", "Alburquerque", "17,030", "report.md", "Casualties"] {
        assert!(!fr.contains(secret), "{secret} in the French page");
    }
    let al = battle_page(&c, "allies.html", &["--side", "allies"]);
    assert!(!al.contains("15,860"), "I Corps' strength in the Allied page");
    assert_eq!(c.snapshot(), before, "the campaign is unchanged");
    let o = c.run(&["battle", "show", "T20-18.28", "--side", "french"]);
    assert_code(&o, 2);
}

#[test]
fn battle_picture_draws_the_avoiding_sides_line_of_retreat() {
    use sowbridge::formats::svg::battle::{line_of_retreat_tip, neighbourhood_frame, reach};
    let c = Camp::new("peninsula");
    export_medellin(&c, &["--avoiding", "allies"]);
    let rec = battle_record(&c);
    let line = rec.line_of_retreat.clone().expect("8.2: the Allies' line of retreat");
    let bytes = battle_svg(&c);
    let svg = parse_svg(&bytes);
    let g = svg.iter().find(|e| e.attr("id") == Some("line-of-retreat")).expect("the line of retreat drawn");
    assert_eq!(g.attr("data-toward"), Some(line.toward.as_str()));
    assert_eq!(g.attr("data-side"), Some("allies"));
    let frame = neighbourhood_frame(load(&c).map.grid, rec.hex, reach(&rec));
    let tip = line_of_retreat_tip(&frame, &rec, reach(&rec));
    let head = sowbridge::formats::svg::Frame::toward(tip, line.bearing + 180.0, 6.0);
    assert_colour(&render(&bytes), head, palette::side(sowbridge::model::Side::Allies), "the arrow's head");
    let t = texts(&svg);
    assert!(t.iter().any(|x| *x == format!("retreat toward {} (8.2)", line.toward)), "{t:?}");
    assert!(
        t.iter()
            .any(|x| x.contains("The Allies tried to refuse battle (8.2). Its line of retreat runs toward"))
    );
    // Without 8.2, no such line.
    let plain = Camp::new("peninsula");
    export_medellin(&plain, &[]);
    assert!(!String::from_utf8(battle_svg(&plain)).unwrap().contains("line-of-retreat"));
}

#[test]
fn map_supply_draws_each_line_to_its_source_and_crosses_out_where_it_is_cut() {
    let c = Camp::new("peninsula");
    let bytes = map(&c, "supply.svg", &["--supply"]);
    let svg = parse_svg(&bytes);
    let line =
        |id: &str| svg.iter().find(|e| e.attr("data-supply") == Some(id)).unwrap_or_else(|| panic!("{id}"));
    // `supply` on the fixture: Lapisse at Salamanca is cut at Segovia (27.18), hostile (2.3).
    let lap = line("FR-LAP");
    assert_eq!(lap.attr("data-state"), Some("out"));
    let fr_i = line("FR-I");
    assert_eq!((fr_i.attr("data-state"), fr_i.attr("data-source")), (Some("in"), Some("Madrid")));
    assert_eq!(line("SP-EXT").attr("data-source"), Some("Badajoz"));
    let t = texts(&svg);
    assert!(t.iter().any(|x| x.starts_with("FR-LAP: out of supply: cut at 27.18")), "{t:?}");
    let frame = sowbridge::formats::svg::map::map_frame(&load(&c).map);
    let p = render(&bytes);
    assert_colour(&p, frame.centre(hex("27.18")), palette::CUT, "the cross where Lapisse's line is cut");
    // Badajoz, the source of the Army of Extremadura: the source's mark at its hex.
    let b = frame.centre(hex("13.29"));
    assert_colour(&p, (b.0 + 3.0, b.1 + 3.0), palette::SUPPLY, "the source's mark");
    // A side sees its own lines only.
    let fr = String::from_utf8(map(&c, "fr-supply.svg", &["--supply", "--side", "french"])).unwrap();
    assert!(fr.contains("data-supply=\"FR-LAP\""));
    assert!(!fr.contains("data-supply=\"SP-"), "the enemy's supply is not known");
    assert!(!fr.contains("Badajoz (2.3)") && !fr.contains("on the road to Badajoz"));
    // Without --supply, none.
    assert!(!String::from_utf8(map(&c, "plain.svg", &[])).unwrap().contains("data-supply"));
}
