//! The example campaign's maps are legible: no two labels overlap, no label covers a
//! counter, a side's map writes its labels at a readable size, and the turn's map draws every
//! march of the turn. Each picture is made by the real binary and parsed with quick-xml; a
//! text's box is estimated from its font size and its characters, independently of the
//! estimate the picture's own label placer uses (and a little smaller, so that a difference
//! of estimates cannot fail the test: only a real overlap does).

use std::collections::BTreeMap;

use crate::common::*;
use crate::pictures::{Element, parse_svg};

/// A box: left, top, right, bottom.
type Box4 = (f64, f64, f64, f64);

fn overlap(a: &Box4, b: &Box4) -> bool {
    a.0 < b.2 && b.0 < a.2 && a.1 < b.3 && b.1 < a.3
}

fn num(e: &Element, k: &str) -> f64 {
    e.attr(k).unwrap_or("0").parse().unwrap_or_else(|_| panic!("{k} of {e:?}"))
}

/// A text's box from its anchor, baseline and size: DejaVu Sans' lower-case letters are
/// about 0.55 of the size wide (bold 0.6), its capitals rise 0.73 above the baseline.
fn text_box(e: &Element, anchor: &str) -> Box4 {
    let size = num(e, "font-size");
    let bold = e.attr("font-weight") == Some("bold");
    let w = if bold { 0.6 } else { 0.55 } * size * e.text.chars().count() as f64;
    let (x, y) = (num(e, "x"), num(e, "y"));
    let x0 = match e.attr("text-anchor").unwrap_or(anchor) {
        "middle" => x - w / 2.0,
        "end" => x - w,
        _ => x,
    };
    (x0, y - 0.73 * size, x0 + w, y + 0.15 * size)
}

/// The labels of a map (the texts the placer wrote) with their boxes.
fn labels(svg: &[Element]) -> Vec<(String, Box4)> {
    svg.iter()
        .filter(|e| e.name == "text" && e.inside("labels"))
        .map(|e| (e.text.clone(), text_box(e, "start")))
        .collect()
}

/// Every counter's box (a `<use>` of the counter shape centred at x, y, or a wide `<rect>`).
fn counters(svg: &[Element]) -> Vec<(String, Box4)> {
    svg.iter()
        .filter(|e| e.inside("forces") && (e.name == "use" || e.name == "rect") && !e.inside("defs"))
        .map(|e| {
            let b = if e.name == "use" {
                let (x, y) = (num(e, "x"), num(e, "y"));
                (x - 15.0, y - 7.5, x + 15.0, y + 7.5)
            } else {
                let (x, y) = (num(e, "x"), num(e, "y"));
                (x, y, x + num(e, "width"), y + num(e, "height"))
            };
            (e.name.clone(), b)
        })
        .collect()
}

/// Fails naming every pair of labels that overlap, and every label over a counter.
#[track_caller]
fn assert_legible(name: &str, bytes: &[u8]) -> Vec<(String, Box4)> {
    let svg = parse_svg(bytes);
    let ls = labels(&svg);
    assert!(!ls.is_empty(), "{name}: no labels");
    let mut bad = Vec::new();
    for (i, (a, ba)) in ls.iter().enumerate() {
        for (b, bb) in &ls[i + 1..] {
            if overlap(ba, bb) {
                bad.push(format!("{a:?} {ba:?} overlaps {b:?} {bb:?}"));
            }
        }
        for (_, bc) in counters(&svg) {
            if overlap(ba, &bc) {
                bad.push(format!("{a:?} {ba:?} covers a counter at {bc:?}"));
            }
        }
    }
    // No label runs off the picture (a side's dispatch shows the picture cut to its area).
    if let Some(root) = svg.iter().find(|e| e.name == "svg" && e.attr("width").is_some()) {
        let (w, h) = (num(root, "width"), num(root, "height"));
        for (t, b) in &ls {
            if b.0 < 0.0 || b.1 < 0.0 || b.2 > w || b.3 > h {
                bad.push(format!("{t:?} {b:?} runs off the picture ({w} x {h})"));
            }
        }
    }
    assert!(bad.is_empty(), "{name}: {} overlaps:\n{}", bad.len(), bad.join("\n"));
    ls
}

#[test]
fn the_overlap_measure_finds_an_overlap() {
    let svg = br#"<svg xmlns="http://www.w3.org/2000/svg"><g id="labels">
        <text x="100" y="100" font-size="10">Rio Guadiana</text>
        <text x="120" y="104" font-size="10" font-weight="bold">Ier Corps</text></g></svg>"#;
    let r = std::panic::catch_unwind(|| assert_legible("test", svg));
    assert!(r.is_err(), "two labels on one another were not found");
}

#[test]
fn no_two_labels_of_the_examples_maps_overlap() {
    let c = Camp::new("peninsula");
    let at = |rel: &str| c.path(rel).display().to_string();
    assert_code(&c.run(&["map", "--out", &at("map.svg")]), 0);
    let umpire = assert_legible("map", &std::fs::read(c.path("map.svg")).unwrap());
    let names: Vec<&str> = umpire.iter().map(|(t, _)| t.as_str()).collect();
    // The crowded corner around Medellín: every name is there.
    for want in ["Badajoz", "Elvas", "Mérida", "Medellin", "Rio Guadiana", "Ier Corps"] {
        assert!(names.contains(&want), "{want} not labelled: {names:?}");
    }
    for side in ["french", "allies"] {
        let out = format!("{side}.svg");
        assert_code(&c.run(&["map", "--out", &at(&out), "--side", side]), 0);
        let bytes = std::fs::read(c.path(&out)).unwrap();
        assert_legible(&out, &bytes);
        // A side's map is handed to players: no force's label under 10 pixels.
        for e in parse_svg(&bytes).iter().filter(|e| e.name == "text" && e.inside("labels")) {
            let colour = e.attr("fill").unwrap_or("");
            if ["#1f4fa8", "#c0392b"].contains(&colour) {
                assert!(num(e, "font-size") >= 10.0, "{out}: {:?} is too small", e.text);
            }
        }
    }
    // The briefings' side views of the battle's neighbourhood.
    export_medellin(&c, &[]);
    for side in ["french", "allies"] {
        let rel = format!("battles/T20-18.28/briefings/{side}.svg");
        assert_legible(&rel, &std::fs::read(c.path(&rel)).unwrap());
    }
    // Each side's dispatch: its map, cut to the side's part of the Peninsula.
    assert_code(&c.run(&["turn", "advance"]), 0);
    for side in ["french", "allies"] {
        let rel = format!("turns/T21/{side}.html");
        let page = c.read(&rel);
        let (i, j) = (page.find("<svg").unwrap(), page.find("</svg>").unwrap() + "</svg>".len());
        assert_legible(&rel, &page.as_bytes()[i..j]);
    }
}

fn orders() -> [String; 2] {
    let o = repo().join("fixtures/orders");
    [o.join("french.csv").display().to_string(), o.join("allies.csv").display().to_string()]
}

/// The marches a map draws: force → its hexes.
fn marches(bytes: &[u8]) -> BTreeMap<String, String> {
    parse_svg(bytes)
        .iter()
        .filter(|e| e.name == "g" && e.attr("data-march").is_some())
        .map(|e| (e.attr("data-march").unwrap().to_string(), e.attr("data-hexes").unwrap_or("").to_string()))
        .collect()
}

#[test]
fn the_turn_map_draws_every_march_of_the_turn_and_the_dry_run_the_same() {
    let c = Camp::new("peninsula");
    let [fr, al] = orders();
    let before = c.snapshot();
    let dry = c.path("dry.html").display().to_string();
    let o = c.run(&["move", &fr, &al, "--dry-run", "--json", "--map", &dry]);
    assert_code(&o, 0);
    let report: serde_json::Value = serde_json::from_str(&stdout(&o)).unwrap();
    let mut want: BTreeMap<String, String> = BTreeMap::new();
    for f in report["forces"].as_array().unwrap() {
        let hexes: Vec<&str> = f["marched"].as_array().unwrap().iter().map(|h| h.as_str().unwrap()).collect();
        want.insert(f["force"].as_str().unwrap().to_string(), hexes.join(" "));
    }
    assert!(want.len() >= 3 && want.values().any(|h| h.split(' ').count() > 3), "{want:?}");
    // The orders' map is the user's file: the campaign is as it was but for it.
    let mut after = c.snapshot();
    let page = after.remove("dry.html").expect("move --dry-run --map wrote no file");
    assert_eq!(after, before, "move --dry-run changed the campaign");
    let page = String::from_utf8(page).unwrap();
    let svg = &page[page.find("<svg").unwrap()..page.rfind("</svg>").unwrap() + 6];
    assert_eq!(marches(svg.as_bytes()), want);
    assert_legible("dry.html", svg.as_bytes());

    assert_code(&c.run(&["move", &fr, &al]), 0);
    assert_code(&c.run(&["turn", "advance"]), 0);
    let bytes = std::fs::read(c.path("turns/T21/marches.svg")).expect("no turn map");
    assert_eq!(marches(&bytes), want, "the turn map's marches");
    // An arrow per march that went anywhere: its head, a polygon in the march's group.
    let mut heads: BTreeMap<String, usize> = BTreeMap::new();
    let mut current = None;
    for e in parse_svg(&bytes).iter().filter(|e| e.inside("marches")) {
        if let Some(f) = e.attr("data-march") {
            current = Some(f.to_string());
        } else if e.name == "polygon" {
            *heads.entry(current.clone().unwrap()).or_default() += 1;
        }
    }
    for (force, hexes) in want.iter().filter(|(_, h)| h.contains(' ')) {
        assert!(heads.get(force).is_some_and(|&n| n >= 1), "{force} {hexes}: no arrow head");
    }
    assert_legible("turns/T21/marches.svg", &bytes);
    // `undo turn` takes the turn's map away with its reports.
    assert_code(&c.run(&["undo", "turn"]), 0);
    assert!(!c.path("turns/T21/marches.svg").exists());
}

#[test]
fn move_map_refuses_a_folder_in_the_pictures_place_and_moves_nothing() {
    let c = Camp::new("peninsula");
    let [fr, al] = orders();
    let folder = c.tmp.path().join("orders.svg");
    std::fs::create_dir(&folder).unwrap();
    let before = c.snapshot();
    let o = c.run(&["move", &fr, &al, "--map", folder.to_str().unwrap()]);
    // Exit 2, as for any file a command cannot replace (not the umpire's input, but the disk's).
    assert_code(&o, 2);
    assert!(stderr(&o).contains("orders.svg: cannot be replaced"), "{}", stderr(&o));
    assert!(c.snapshot() == before, "the forces marched though the move was refused");
}

#[test]
fn move_map_refuses_a_file_that_is_not_svg_or_html_and_moves_nothing() {
    let c = Camp::new("peninsula");
    let [fr, al] = orders();
    let before = c.snapshot();
    let png = c.path("orders.png").display().to_string();
    let o = c.run(&["move", &fr, &al, "--map", &png]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("FILE.svg or FILE.html"), "{}", stderr(&o));
    assert_eq!(c.snapshot(), before);
}
