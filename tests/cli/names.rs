//! The x64 unit names file: an x64 export names every unit it writes in
//! `Layout/Media/Language/OOBNames.xml` (read back here with an XML parser), keeps the names
//! of other battles exported into the same folder, and never replaces the game's own file.

use std::collections::BTreeMap;
use std::path::Path;

use quick_xml::events::Event;

use crate::common::*;

const NAMES: &str = "Layout/Media/Language/OOBNames.xml";

/// Every `<Tag name>` with its text, by a strict XML parse (any error fails the test).
fn parse_names(bytes: &[u8]) -> BTreeMap<String, String> {
    assert!(!bytes.starts_with(b"\xEF\xBB\xBF"), "the editor writes no byte-order mark");
    assert!(bytes.starts_with(b"<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<MyGUI>\n\t<Tag name=\""));
    let mut r = quick_xml::Reader::from_reader(bytes);
    let (mut tags, mut current, mut depth) = (BTreeMap::new(), None::<(String, String)>, 0);
    let mut buf = Vec::new();
    loop {
        match r.read_event_into(&mut buf).unwrap_or_else(|e| panic!("OOBNames.xml is not XML: {e}")) {
            Event::Start(s) => {
                depth += 1;
                let q = s.name();
                let name: &str = AsRef::<str>::as_ref(&q);
                if depth == 1 {
                    assert_eq!(name, "MyGUI");
                } else {
                    assert_eq!((depth, name), (2, "Tag"));
                    let a = s.try_get_attribute("name").unwrap().expect("a Tag without a name");
                    let v = a.normalized_value(quick_xml::XmlVersion::Implicit1_0).unwrap().into_owned();
                    current = Some((v, String::new()));
                }
            }
            Event::Text(t) => {
                if let Some((_, body)) = current.as_mut() {
                    body.push_str(&t.xml10_content());
                }
            }
            Event::GeneralRef(g) => {
                let e: &str = AsRef::<str>::as_ref(&g);
                let ch = [("amp", "&"), ("lt", "<"), ("gt", ">")].iter().find(|(n, _)| *n == e).unwrap().1;
                current.as_mut().unwrap().1.push_str(ch);
            }
            Event::End(_) => {
                if let Some((k, v)) = current.take() {
                    assert!(tags.insert(k.clone(), v).is_none(), "{k} twice");
                }
                depth -= 1;
            }
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    assert_eq!(depth, 0);
    tags
}

/// The OOB's rows (ISO-8859-1): ID, NAME1, NAME2 of each.
fn oob_names(path: &Path) -> Vec<(String, String, String)> {
    let text: String = std::fs::read(path).unwrap().iter().map(|&b| char::from(b)).collect();
    text.lines()
        .skip(1)
        .map(|l| {
            let f: Vec<&str> = l.trim_end_matches('\r').split(',').collect();
            (f[1].to_string(), f[2].to_string(), f[3].to_string())
        })
        .collect()
}

#[test]
fn an_x64_export_names_every_unit_it_writes() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &["--profile", "x64"]);
    let out = c.tmp.path().join("out");
    let tags = parse_names(&std::fs::read(out.join(NAMES)).unwrap());
    let rows = oob_names(&out.join("OOBs/T20-18.28.csv"));
    assert!(rows.len() > 30);
    for (id, name1, name2) in &rows {
        assert_eq!(tags.get(id), Some(name1), "{id}'s NAME1");
        if !name2.is_empty() {
            assert_eq!(tags.get(&format!("{id}_NAME2")), Some(name2), "{id}'s NAME2");
        }
        assert_eq!(tags.get(&format!("{id}_Last")).map(String::as_str), name1.split(' ').next_back());
    }
    // Nothing but the battle's own units.
    assert!(tags.keys().all(|t| rows.iter().any(|(id, _, _)| t == id || t.starts_with(&format!("{id}_")))));
    // A name with an accent is UTF-8 in the names file, Latin-1 in the OOB.
    assert!(tags.values().any(|v| !v.is_ascii()), "{tags:?}");
    let rec: serde_json::Value = serde_json::from_str(&c.read("battles/T20-18.28/battle.json")).unwrap();
    assert!(rec["files"][NAMES].is_string(), "the record keeps the names file's hash");
}

#[test]
fn a_g1_export_writes_no_names_file() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    assert!(!c.tmp.path().join("out").join("Layout").exists());
}

#[test]
fn a_second_battle_in_the_same_folder_keeps_the_first_one_s_names() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &["--profile", "x64"]);
    let out = c.tmp.path().join("out");
    let o = c.run(&[
        "export",
        "hex",
        "28.23",
        "--overrule",
        "2.5.3",
        "--attacker",
        "allies",
        "--profile",
        "x64",
        "--out",
        out.to_str().unwrap(),
    ]);
    assert_code(&o, 0);
    let tags = parse_names(&std::fs::read(out.join(NAMES)).unwrap());
    for battle in ["T20-18.28", "T20-28.23"] {
        for (id, name1, _) in oob_names(&out.join(format!("OOBs/{battle}.csv"))) {
            // The side commanders (1_0_0_0_0_0) of both battles share an id: the later name wins.
            if id.ends_with("_0_0_0_0_0") {
                continue;
            }
            assert_eq!(tags.get(&id), Some(&name1), "{battle} {id}");
        }
    }
}

#[test]
fn the_game_s_own_names_file_is_refused_and_nothing_is_written() {
    let c = Camp::new("peninsula");
    let out = c.tmp.path().join("Base");
    std::fs::create_dir_all(out.join("Layout/Media/Language")).unwrap();
    let base = "\u{feff}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<MyGUI>\r\n  <Tag name=\"OOB_Fr_Napoleon\">Napoleon</Tag>\r\n</MyGUI>\r\n";
    std::fs::write(out.join(NAMES), base).unwrap();
    let o = c.run(&["export", "hex", "18.28", "--profile", "x64", "--out", out.to_str().unwrap()]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("holds 1 names sowbridge did not write (OOB_Fr_Napoleon)"), "{}", stderr(&o));
    assert!(stderr(&o).contains("Mods"), "{}", stderr(&o));
    assert_eq!(std::fs::read_to_string(out.join(NAMES)).unwrap(), base);
    assert!(!out.join("OOBs").exists());
    assert!(!c.path("battles/T20-18.28").exists());
}

#[test]
fn calibrate_names_its_units_reports_its_margins_and_inspect_confirms_the_names() {
    let c = Camp::new("peninsula");
    let out = c.tmp.path().join("Work");
    let o = c.run(&["calibrate", "--profile", "x64", "--out", out.to_str().unwrap()]);
    assert_code(&o, 0);
    let err = stderr(&o);
    assert!(
        err.contains("final dumps: dumplocs 40 s, dumpdead 35 s and dumpgamedb 30 s before endscenario"),
        "{err}"
    );
    assert!(err.contains("check in the game that the names show"), "{err}");
    let page = std::fs::read_to_string(out.join("Scenarios/CAL-x64/CALIBRATION.txt")).unwrap();
    assert!(page.contains("Check the unit names"), "{page}");
    assert!(page.contains("arrived whole"), "{page}");
    assert!(page.contains("startlocs.csv (40 s before the end)"), "{page}");
    let tags = parse_names(&std::fs::read(out.join(NAMES)).unwrap());
    assert!(tags.values().any(|v| v == "Calibration French 1st Bn"), "{tags:?}");
    let o = c.run(&["inspect", out.to_str().unwrap()]);
    assert_code(&o, 0);
    let report = stdout(&o);
    assert!(report.contains("unit names file (XML)"), "{report}");
    assert!(report.contains("calibration battle CAL-x64: names 28 of its 28 units"), "{report}");
    assert!(
        report.contains("[confirmed] every unit of the battle has its NAME1 in the names file"),
        "{report}"
    );
}

#[test]
fn inspect_reads_a_broken_base_names_file_and_says_what_it_shows() {
    let c = Camp::new("peninsula");
    c.write(
        "campaign.toml",
        &c.read("campaign.toml").replace("profile = \"napmod-g1\"", "profile = \"x64\""),
    );
    let dir = c.tmp.path().join("Base");
    std::fs::create_dir_all(dir.join("Layout/Media/Language")).unwrap();
    let base = "\u{feff}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<MyGUI>\r\n\
                <Tag name=\"OOB_Fr_Ney\">Michel Ney</Tag>\r\n<Tag name=\"OOB_Fr_Ney_NAME_2\">II Corps & Staff</Tag>\r\n\
                <Tag name=\"OOB_Fr_Ney_Last\">Ney</Tag>\r\n<Tag name=\"OOB_1_1_1_1_1_1\">Clash</Tag>\r\n</MyGUI>\r\n";
    std::fs::write(dir.join(NAMES), base).unwrap();
    let o = c.run(&["inspect", dir.to_str().unwrap()]);
    assert_code(&o, 0);
    let report = stdout(&o);
    assert!(report.contains("utf-8 with BOM"), "{report}");
    assert!(report.contains("read tag by tag, as the Remastered editor does"), "{report}");
    assert!(report.contains("0 _NAME2, 1 _NAME_2, 1 _Last"), "{report}");
    assert!(report.contains("it already names 1 of them (OOB_1_1_1_1_1_1)"), "{report}");
    assert!(report.contains("names_second_suffix = \"_NAME_2\""), "{report}");
}
