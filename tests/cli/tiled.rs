//! `map export` and `map import`: the example campaign's map written as a Tiled map, read back
//! unedited (no file changes, byte for byte), saved by Tiled itself, and edited as an umpire
//! would (a hex painted high, a road traced, a river added, a settlement moved), each change
//! reaching the campaign's files and its rules; a malformed map refused with its object named.

use std::path::{Path, PathBuf};

use serde_json::{Value, json};
use sowbridge::formats::tiled::{HexSize, Pixels};
use sowbridge::model::{Direction, HexGrid, HexId, HexLayout};

use crate::common::*;

fn pixels() -> Pixels {
    Pixels {
        grid: HexGrid { columns: 64, rows: 48, layout: HexLayout::EvenColumnsDown },
        size: HexSize::DEFAULT,
    }
}

fn hex(s: &str) -> HexId {
    s.parse().unwrap()
}

/// Exports the campaign's map beside the campaign (outside its folder) and gives its path.
fn export(c: &Camp) -> PathBuf {
    let out = c.tmp.path().join("tiled").join("peninsula.tmj");
    let o = c.run(&["map", "export", &out.display().to_string()]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("3072 hexes of 32x28 pixels"), "{}", stdout(&o));
    out
}

fn load(p: &Path) -> Value {
    serde_json::from_slice(&std::fs::read(p).unwrap()).unwrap()
}

fn save(p: &Path, v: &Value) {
    std::fs::write(p, serde_json::to_vec_pretty(v).unwrap()).unwrap();
}

fn layer<'v>(v: &'v mut Value, name: &str) -> &'v mut Value {
    v["layers"].as_array_mut().unwrap().iter_mut().find(|l| l["name"] == name).unwrap()
}

/// The object of the settlement `name`.
fn settlement<'v>(v: &'v mut Value, name: &str) -> &'v mut Value {
    layer(v, "settlements")["objects"].as_array_mut().unwrap().iter_mut().find(|o| o["name"] == name).unwrap()
}

/// Sets a property of an object (it must have it).
fn set_prop(o: &mut Value, name: &str, value: Value) {
    let p = o["properties"].as_array_mut().unwrap().iter_mut().find(|p| p["name"] == name).unwrap();
    p["value"] = value;
}

fn next_id(v: &mut Value) -> u64 {
    let id = v["nextobjectid"].as_u64().unwrap();
    v["nextobjectid"] = json!(id + 1);
    id
}

/// A polyline object through `points`, as an umpire draws it in Tiled (no class: the layer
/// says what it is).
fn polyline(v: &mut Value, name: &str, points: &[(f64, f64)], properties: Value) -> Value {
    let (x0, y0) = points[0];
    let rel: Vec<Value> = points.iter().map(|(x, y)| json!({"x": x - x0, "y": y - y0})).collect();
    json!({"id": next_id(v), "name": name, "type": "", "x": x0, "y": y0, "width": 0, "height": 0,
           "rotation": 0, "visible": true, "polyline": rel, "properties": properties})
}

fn import(c: &Camp, file: &Path, extra: &[&str]) -> std::process::Output {
    let mut args = vec!["map", "import"];
    let f = file.display().to_string();
    args.push(&f);
    args.extend_from_slice(extra);
    c.run(&args)
}

/// Refuses the map: exit 1, the campaign untouched, stderr returned.
#[track_caller]
fn refused(c: &Camp, file: &Path) -> String {
    let before = c.snapshot();
    let o = import(c, file, &[]);
    assert_code(&o, 1);
    assert_eq!(before, c.snapshot(), "a refused import changes nothing");
    stderr(&o)
}

#[test]
fn an_unedited_map_round_trips_without_changing_a_file() {
    let c = Camp::new("peninsula");
    let before = c.snapshot();
    let tmj = export(&c);
    assert!(
        tmj.with_file_name("peninsula-terrain.png").is_file(),
        "the tileset's picture is written beside it"
    );
    let o = import(&c, &tmj, &[]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("nothing changed"), "{}", stdout(&o));
    assert_eq!(before, c.snapshot(), "export then import changes no file, and journals nothing");
    // A map file there is not written over (its edits not yet imported, the image's
    // alignment): unless --replace, and then the file is the same, byte for byte.
    let first = std::fs::read(&tmj).unwrap();
    let again = c.run(&["map", "export", &tmj.display().to_string()]);
    assert_code(&again, 1);
    assert!(
        stderr(&again).contains("is there already") && stderr(&again).contains("--replace"),
        "{}",
        stderr(&again)
    );
    assert_code(&c.run(&["map", "export", &tmj.display().to_string(), "--replace"]), 0);
    assert_eq!(first, std::fs::read(&tmj).unwrap());
}

/// `tiled` on the PATH, or `None` (with a note) when it is not installed; CI sets
/// SOWBRIDGE_REQUIRE_TILED so that a missing Tiled fails there (the Windows build, run under
/// Wine, has no Windows Tiled to call: the Linux run covers it).
fn tiled() -> Option<&'static str> {
    if cfg!(windows) {
        return None;
    }
    let found = std::process::Command::new("tiled")
        .arg("--version")
        .env("QT_QPA_PLATFORM", "offscreen")
        .output()
        .is_ok_and(|o| o.status.success());
    if !found {
        assert!(
            std::env::var_os("SOWBRIDGE_REQUIRE_TILED").is_none(),
            "Tiled is required here but not installed"
        );
        eprintln!("Tiled is not installed: the round trip through Tiled itself is not tried");
    }
    found.then_some("tiled")
}

#[test]
fn a_map_saved_by_tiled_itself_imports_unchanged_and_takes_an_edit() {
    let Some(tiled) = tiled() else { return };
    let c = Camp::new("peninsula");
    let tmj = export(&c);
    let resaved = tmj.with_file_name("saved-by-tiled.tmj");
    let o = output(
        std::process::Command::new(tiled)
            .arg("--export-map")
            .arg(&tmj)
            .arg(&resaved)
            .env("QT_QPA_PLATFORM", "offscreen"),
    );
    assert!(o.status.success(), "tiled --export-map: {}", stderr(&o));
    assert_ne!(std::fs::read(&tmj).unwrap(), std::fs::read(&resaved).unwrap(), "Tiled writes its own JSON");
    let before = c.snapshot();
    let o = import(&c, &resaved, &[]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("nothing changed"), "{}", stdout(&o));
    assert_eq!(before, c.snapshot());
    // Tiled's own file, edited: 30.30 painted high.
    let mut v = load(&resaved);
    let i = 30 * 64 + 30;
    layer(&mut v, "terrain")["data"][i] = json!(2);
    save(&resaved, &v);
    let o = import(&c, &resaved, &[]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("hex 30.30: low -> high"), "{}", stdout(&o));
    assert!(
        c.read("map/hexes.csv").contains("\n30.30,high,,Castile-La Mancha,\n"),
        "{}",
        c.read("map/hexes.csv")
    );
}

#[test]
fn an_umpires_edits_reach_the_campaign_and_its_rules_and_undo_takes_them_back() {
    let c = Camp::new("peninsula");
    let before = c.snapshot();
    let path_order = |to: &str| {
        let p = c.tmp.path().join(format!("to-{to}.csv"));
        std::fs::write(&p, format!("force,path\nPO-ELV,{to}\n")).unwrap();
        p.display().to_string()
    };
    // Before: Leite steps off road to 11.28 and to 12.29.
    let west = c.run(&["move", &path_order("11.28"), "--dry-run"]);
    assert_code(&west, 0);
    let south = c.run(&["move", &path_order("12.29"), "--dry-run"]);
    assert_code(&south, 0);
    assert!(stdout(&south).contains("(1.7 of 10 road hexes)"), "off road: {}", stdout(&south));
    // Dessolles' division marches north out of Madrid by road, no river on the way.
    let north = c.tmp.path().join("north.csv");
    std::fs::write(&north, "force,path\nFR-RES,29.20\n").unwrap();
    let north = north.display().to_string();
    let o = c.run(&["move", &north, "--dry-run"]);
    assert!(stdout(&o).contains("(1.0 of 11 road hexes)"), "{}", stdout(&o));

    let tmj = export(&c);
    let mut v = load(&tmj);
    let px = pixels();
    // A hex painted high and forested.
    layer(&mut v, "terrain")["data"][30 * 64 + 30] = json!(2);
    layer(&mut v, "forest")["data"][30 * 64 + 30] = json!(3);
    // A road traced from Elvas south to 12.29.
    let road = polyline(
        &mut v,
        "",
        &[px.centre(hex("12.28")), px.centre(hex("12.29"))],
        json!([{"name": "class", "type": "string", "value": "major"}]),
    );
    layer(&mut v, "roads")["objects"].as_array_mut().unwrap().push(road);
    // A river along the side between Elvas and 11.28, its points clicked near the corners.
    let (a, b) = px.side_corners(hex("12.28"), Direction::NW);
    let river = polyline(&mut v, "Rio Trancão", &[(a.0 + 1.5, a.1 - 1.0), (b.0 - 1.0, b.1 + 2.0)], json!([]));
    layer(&mut v, "rivers")["objects"].as_array_mut().unwrap().push(river);
    // A river under the road north out of Madrid: a road bridge.
    let (a, b) = px.side_corners(hex("29.21"), Direction::N);
    let river = polyline(&mut v, "Rio Manzanares", &[a, b], json!([]));
    layer(&mut v, "rivers")["objects"].as_array_mut().unwrap().push(river);
    // Alicante moved one hex north, to 45.31.
    let (x, y) = px.centre(hex("45.31"));
    for o in layer(&mut v, "settlements")["objects"].as_array_mut().unwrap() {
        if o["name"] == "Alicante" {
            o["x"] = json!(x + 3.0);
            o["y"] = json!(y - 2.0);
        }
    }
    save(&tmj, &v);

    let dry = import(&c, &tmj, &["--dry-run"]);
    assert_code(&dry, 0);
    assert_eq!(before, c.snapshot(), "a dry run changes nothing");
    let out = stdout(&dry);
    for want in [
        "would change the map: 1 hex, 1 road side, 2 river sides, 1 settlement",
        "hex 30.30: low -> high, forest",
        "road 12.28-12.29: new, major",
        "river 11.28-12.28: new, Rio Trancão",
        "settlement Alicante: hex '45.32' -> '45.31'",
    ] {
        assert!(out.contains(want), "{want}:\n{out}");
    }

    let o = import(&c, &tmj, &[]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("committed as journal entry 1"), "{}", stdout(&o));
    assert!(
        c.read("map/hexes.csv").contains("\n30.30,high,yes,Castile-La Mancha,\n"),
        "{}",
        c.read("map/hexes.csv")
    );
    assert!(c.read("map/roads.csv").ends_with("12.28,12.29,major\n"));
    assert!(c.read("map/rivers.csv").ends_with("11.28,12.28,Rio Trancão\n29.20,29.21,Rio Manzanares\n"));
    assert!(c.read("settlements.csv").contains("\nAlicante,45.31,town,yes,,Valencia,Sp,,,south,\n"));
    assert_code(&c.run(&["check"]), 0);
    assert_code(&c.run(&["audit"]), 0);

    // The rules see it: the new river blocks the step off road across it (6.5.1), the new
    // road carries the march south.
    let west = c.run(&["move", &path_order("11.28"), "--dry-run"]);
    assert_code(&west, 1);
    assert!(stderr(&west).contains("across the Rio Trancão between 12.28 and 11.28"), "{}", stderr(&west));
    let south = c.run(&["move", &path_order("12.29"), "--dry-run"]);
    assert_code(&south, 0);
    assert!(stdout(&south).contains("(1.0 of 10 road hexes)"), "{}", stdout(&south));
    // The new river under the road costs the division its crossing (6.5.1: one hex).
    let o = c.run(&["move", &north, "--dry-run"]);
    assert!(stdout(&o).contains("(1.0 of 10 road hexes)"), "{}", stdout(&o));

    // Undone, the map's files are as they were.
    let u = c.run(&["undo", "map"]);
    assert_code(&u, 0);
    let after = c.snapshot();
    for f in ["map/hexes.csv", "map/roads.csv", "map/rivers.csv", "settlements.csv"] {
        assert_eq!(before[f], after[f], "{f} is back");
    }
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn malformed_maps_are_refused_with_the_object_named() {
    let c = Camp::new("peninsula");
    let tmj = export(&c);
    let clean = load(&tmj);
    let px = pixels();
    let case = |edit: &dyn Fn(&mut Value), want: &str| {
        let mut v = clean.clone();
        edit(&mut v);
        save(&tmj, &v);
        let err = refused(&c, &tmj);
        assert!(err.contains(want), "{want}:\n{err}");
        assert!(err.contains("peninsula.tmj"), "the file is named: {err}");
    };
    case(
        &|v| {
            let r = polyline(
                v,
                "",
                &[px.centre(hex("10.10")), px.centre(hex("12.10"))],
                json!([{"name": "class", "type": "string", "value": "major"}]),
            );
            layer(v, "roads")["objects"].as_array_mut().unwrap().push(r);
        },
        "(road): it goes from 10.10 to 12.10, hexes that do not touch",
    );
    case(
        &|v| {
            let r =
                polyline(v, "Rio Nada", &[px.centre(hex("10.10")), px.corners(hex("10.10"))[0]], json!([]));
            layer(v, "rivers")["objects"].as_array_mut().unwrap().push(r);
        },
        "'Rio Nada' (river): point 1 (256, 308) is not on a hex corner",
    );
    case(
        &|v| {
            settlement(v, "Faro")["x"] = json!(-40);
        },
        "'Faro' (settlement): it lies off the map",
    );
    case(
        &|v| {
            set_prop(settlement(v, "Faro"), "kind", json!("hamlet"));
        },
        "'Faro' (settlement): property 'kind': unknown settlement kind 'hamlet'",
    );
    case(&|v| v["width"] = json!(60), "is 60 x 48 hexes");
    case(
        &|v| {
            let r = polyline(v, "", &[px.centre(hex("10.10")), px.centre(hex("10.11"))], json!([]));
            layer(v, "roads")["objects"].as_array_mut().unwrap().push(r);
        },
        "(road): its property 'class' is missing: major or secondary",
    );
    // A settlement of an unknown control: the campaign would not load; the object is named.
    case(
        &|v| {
            set_prop(settlement(v, "Faro"), "control", json!("Xx"));
        },
        "'Faro' (settlement): property 'control': unknown nation 'Xx'",
    );
    // A layer deleted in Tiled is not read as "no roads".
    case(
        &|v| v["layers"].as_array_mut().unwrap().retain(|l| l["name"] != "roads"),
        "has no object layer named 'roads'",
    );
    case(&|v| layer(v, "terrain")["data"][5] = json!(0), "tile layer 'terrain', hex 05.00: no ground");
    // A copy of Mérida not renamed.
    case(
        &|v| {
            let objects = layer(v, "settlements")["objects"].as_array_mut().unwrap();
            let mut copy = objects.iter().find(|o| o["name"] == "Mérida").unwrap().clone();
            copy["id"] = json!(9000);
            copy["x"] = json!(px.centre(hex("05.05")).0);
            copy["y"] = json!(px.centre(hex("05.05")).1);
            objects.push(copy);
        },
        "2 settlements are named 'Mérida'",
    );
    // Toledo is under siege: it stays where it is.
    case(
        &|v| {
            for o in layer(v, "settlements")["objects"].as_array_mut().unwrap() {
                if o["name"] == "Toledo" {
                    o["x"] = json!(px.centre(hex("30.30")).0);
                }
            }
        },
        "'Toledo' (settlement): it is invested (Sp, its siege in sieges.csv): a place under siege is not moved (7.1)",
    );
    case(
        &|v| {
            let r = polyline(
                v,
                "Rio Rodado",
                &[px.corners(hex("10.10"))[0], px.corners(hex("10.10"))[1]],
                json!([]),
            );
            layer(v, "rivers")["objects"].as_array_mut().unwrap().push(r);
            let n = layer(v, "rivers")["objects"].as_array().unwrap().len();
            layer(v, "rivers")["objects"][n - 1]["rotation"] = json!(30);
        },
        "'Rio Rodado' (river): it is rotated (30 degrees)",
    );
    case(
        &|v| {
            for p in v["properties"].as_array_mut().unwrap() {
                if p["name"] == "campaign" {
                    p["value"] = json!("Russia 1812");
                }
            }
        },
        "was written for the campaign 'Russia 1812', not 'Peninsular Campaign 1808-1814'",
    );
    // A new settlement without its control: the load's problem names the object.
    case(
        &|v| {
            let p = px.centre(hex("30.30"));
            let id = next_id(v);
            layer(v, "settlements")["objects"].as_array_mut().unwrap().push(json!({
                "id": id, "name": "Villanueva", "type": "", "point": true, "x": p.0, "y": p.1,
                "properties": [{"name": "kind", "type": "string", "value": "village"}]}));
        },
        "'Villanueva' (settlement): property 'control': is empty",
    );
    std::fs::write(&tmj, b"{\"type\": \"map\", \"layers\": [").unwrap();
    let err = refused(&c, &tmj);
    assert!(err.contains("not a Tiled map in JSON"), "{err}");
    std::fs::write(&tmj, b"<?xml version=\"1.0\"?>\n<map version=\"1.8\"></map>\n").unwrap();
    let err = refused(&c, &tmj);
    assert!(err.contains("is a Tiled map in XML (TMX): save it as JSON"), "{err}");
}

#[test]
fn a_moved_layer_moves_its_objects_and_an_investment_is_never_taken_from_the_map() {
    let c = Camp::new("peninsula");
    let tmj = export(&c);
    let mut v = load(&tmj);
    // The settlements layer moved one column to the right (24 pixels) in Tiled: every
    // settlement's hex is where Tiled shows it.
    layer(&mut v, "settlements")["offsetx"] = json!(48);
    for o in layer(&mut v, "settlements")["objects"].as_array_mut().unwrap() {
        let x = o["x"].as_f64().unwrap();
        o["x"] = json!(x - 48.0);
        if o["name"] == "Toledo" {
            for p in o["properties"].as_array_mut().unwrap() {
                if p["name"] == "invested_by" {
                    p["value"] = json!("");
                }
            }
        }
    }
    save(&tmj, &v);
    let o = import(&c, &tmj, &["--dry-run"]);
    assert_code(&o, 0);
    let out = stdout(&o);
    assert!(out.contains("nothing changed"), "the offset puts every point back: {out}");
    assert!(out.contains("settlement Toledo: invested_by '' in the file, not taken"), "{out}");
}

#[test]
fn without_its_turn_a_map_file_is_not_trusted_with_control() {
    let c = Camp::new("peninsula");
    let tmj = export(&c);
    let mut v = load(&tmj);
    v["properties"] = json!([]);
    set_prop(settlement(&mut v, "Faro"), "control", json!("Po"));
    save(&tmj, &v);
    let before = c.snapshot();
    let o = import(&c, &tmj, &[]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("the file does not say its turn"), "{}", stdout(&o));
    assert_eq!(before, c.snapshot());
}

#[test]
fn a_new_name_with_an_accent_is_written_in_the_campaigns_windows_1252() {
    let c = Camp::new("peninsula");
    // Excel-saved: every map file in Windows-1252 with ';' and CRLF; rivers.csv all ASCII.
    for f in ["map/rivers.csv", "settlements.csv"] {
        let text = c.read(f).replace(',', ";").replace('\n', "\r\n");
        let (bytes, _, _) = encoding_rs::WINDOWS_1252.encode(&text);
        std::fs::write(c.path(f), bytes).unwrap();
    }
    assert!(std::fs::read(c.path("map/rivers.csv")).unwrap().is_ascii());
    let tmj = export(&c);
    let mut v = load(&tmj);
    let px = pixels();
    let (a, b) = px.side_corners(hex("12.28"), Direction::NW);
    let r = polyline(&mut v, "Rio Pêra", &[a, b], json!([]));
    layer(&mut v, "rivers")["objects"].as_array_mut().unwrap().push(r);
    save(&tmj, &v);
    assert_code(&import(&c, &tmj, &[]), 0);
    let bytes = std::fs::read(c.path("map/rivers.csv")).unwrap();
    assert!(
        bytes.ends_with(b"\r\n11.28;12.28;Rio P\xeara\r\n"),
        "{:?}",
        String::from_utf8_lossy(&bytes[bytes.len() - 30..])
    );
}

#[test]
fn an_excel_saved_roads_file_keeps_its_separator_and_line_ends() {
    let c = Camp::new("peninsula");
    let excel = c.read("map/roads.csv").replace(',', ";").replace('\n', "\r\n");
    c.write("map/roads.csv", &excel);
    let tmj = export(&c);
    let mut v = load(&tmj);
    let px = pixels();
    let r = polyline(
        &mut v,
        "",
        &[px.centre(hex("12.28")), px.centre(hex("12.29"))],
        json!([{"name": "class", "type": "string", "value": "secondary"}]),
    );
    layer(&mut v, "roads")["objects"].as_array_mut().unwrap().push(r);
    save(&tmj, &v);
    let o = import(&c, &tmj, &[]);
    assert_code(&o, 0);
    let after = c.read("map/roads.csv");
    assert!(after.starts_with(&excel), "the rows as they were");
    assert!(after.ends_with("\r\n12.28;12.29;secondary\r\n"), "{}", &after[after.len() - 60..]);
}

#[test]
fn control_from_a_map_of_an_earlier_turn_is_not_taken() {
    let c = Camp::new("peninsula");
    let tmj = export(&c);
    let set = |turn: u32| {
        let mut v = load(&tmj);
        for p in v["properties"].as_array_mut().unwrap() {
            if p["name"] == "sowbridge-turn" {
                p["value"] = json!(turn);
            }
        }
        set_prop(settlement(&mut v, "Faro"), "control", json!("Po"));
        save(&tmj, &v);
    };
    set(19);
    let before = c.snapshot();
    let o = import(&c, &tmj, &[]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("settlement Faro: control 'Po' in the file, not taken"), "{}", stdout(&o));
    assert_eq!(before, c.snapshot());
    set(20);
    let o = import(&c, &tmj, &[]);
    assert_code(&o, 0);
    assert!(stdout(&o).contains("settlement Faro: control '-' -> 'Po'"), "{}", stdout(&o));
    assert!(c.read("settlements.csv").contains("\nFaro,08.38,town,yes,,Portugal,Po,,,south,\n"));
}
