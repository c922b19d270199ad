//! The campaign as Excel saves it: CRLF line ends, Windows-1252 or UTF-8 with a byte-order
//! mark, `;` between fields in Spanish, French, Portuguese and German locales, and numbers
//! Excel shortened. Every message names the true line; a campaign saved with `;` is read
//! and written back as it was saved; a refusal leaves the campaign byte for byte as it was.

use serde_json::Value;

use crate::common::*;

const FR: &str = "FR-I-RUF-1-9L1"; // 500 men
const SP: &str = "SP-EXT-IZQ-1-REI1"; // 750 men

/// How a test file ends its lines.
#[derive(Debug, Clone, Copy)]
enum Ending {
    Lf,
    CrLf,
    /// CRLF, the last line without one.
    CrLfOpenEnd,
    /// LF, the last line without one.
    LfOpenEnd,
    /// CR alone (Excel for Mac's "CSV (Macintosh)").
    Cr,
}

const ENDINGS: [Ending; 5] = [Ending::Lf, Ending::CrLf, Ending::CrLfOpenEnd, Ending::LfOpenEnd, Ending::Cr];

/// Text with LF line ends, ended as `e` says.
fn ended(text: &str, e: Ending) -> String {
    let body = text.trim_end_matches('\n');
    match e {
        Ending::Lf => format!("{body}\n"),
        Ending::CrLf => format!("{}\r\n", body.replace('\n', "\r\n")),
        Ending::CrLfOpenEnd => body.replace('\n', "\r\n"),
        Ending::LfOpenEnd => body.to_string(),
        Ending::Cr => format!("{}\r", body.replace('\n', "\r")),
    }
}

/// A CSV text saved as Excel saves it in a locale with the decimal comma: `;` between
/// fields, quotes only where needed, CRLF.
fn semicolons(text: &str) -> String {
    let mut rdr = csv::ReaderBuilder::new().has_headers(false).flexible(true).from_reader(text.as_bytes());
    let mut w = csv::WriterBuilder::new()
        .delimiter(b';')
        .terminator(csv::Terminator::CRLF)
        .flexible(true)
        .from_writer(Vec::new());
    for r in rdr.records() {
        w.write_record(&r.unwrap()).unwrap();
    }
    String::from_utf8(w.into_inner().unwrap()).unwrap()
}

/// Text in Windows-1252.
fn windows_1252(text: &str) -> Vec<u8> {
    let (bytes, _, unmappable) = encoding_rs::WINDOWS_1252.encode(text);
    assert!(!unmappable);
    bytes.into_owned()
}

/// Replaces one field of one line of a CSV text (LF, commas, no quotes on that line).
fn set_field(text: &str, line: usize, field: usize, value: &str) -> String {
    let mut lines: Vec<String> = text.lines().map(str::to_string).collect();
    let mut fields: Vec<&str> = lines[line - 1].split(',').collect();
    fields[field] = value;
    lines[line - 1] = fields.join(",");
    lines.join("\n") + "\n"
}

#[test]
fn every_campaign_reader_names_the_true_line_with_lf_crlf_cr_and_an_open_last_line() {
    for e in ENDINGS {
        let c = Camp::new("peninsula");
        // commanders.csv: line 3 and the last line; battles_won is the fourth field.
        let commanders = c.read("commanders.csv");
        let last_c = commanders.lines().count();
        let commanders = set_field(&set_field(&commanders, 3, 3, "x"), last_c, 3, "y");
        c.write("commanders.csv", &ended(&commanders, e));
        // forces.csv, read as a stream: men of line 5 and the last line.
        let forces = c.read("forces.csv");
        let last_f = forces.lines().count();
        let forces = set_field(&set_field(&forces, 5, 7, "five hundred"), last_f, 7, "many");
        c.write("forces.csv", &ended(&forces, e));
        // settlements.csv line 4 and map/roads.csv line 2.
        let settlements = set_field(&c.read("settlements.csv"), 4, 6, "Xx");
        c.write("settlements.csv", &ended(&settlements, e));
        let roads = set_field(&c.read("map/roads.csv"), 2, 2, "motorway");
        c.write("map/roads.csv", &ended(&roads, e));
        let before = c.snapshot();
        let o = c.run(&["check"]);
        assert_code(&o, 1);
        let err = stderr(&o);
        for want in [
            "commanders.csv:3: battles_won: 'x'".to_string(),
            format!("commanders.csv:{last_c}: battles_won: 'y'"),
            "forces.csv:5: men: 'five hundred'".to_string(),
            format!("forces.csv:{last_f}: men: 'many'"),
            "settlements.csv:4: control:".to_string(),
            "map/roads.csv:2: class: 'motorway'".to_string(),
        ] {
            assert!(err.contains(&want), "{e:?}: no '{want}' in\n{err}");
        }
        assert_eq!(c.snapshot(), before, "{e:?}: check changed the campaign");
    }
}

/// A hand-settled result for the exported Medellín battle: every unit of the battle, the
/// Spanish battalion with losses; `sep` between fields.
fn hand_result(c: &Camp, sep: &str) -> String {
    let rec: Value = serde_json::from_str(&c.read("battles/T20-18.28/battle.json")).unwrap();
    let mut s = ["battle", "unit", "killed", "wounded", "missing", "captured", "guns_lost", "ammo"].join(sep);
    s.push('\n');
    for u in rec["units"].as_array().unwrap() {
        let id = u["unit"].as_str().unwrap();
        let figures =
            if id == SP { ["20", "80", "100", "10", "0", ""] } else { ["0", "0", "0", "0", "0", ""] };
        s.push_str(&format!("T20-18.28{sep}{id}{sep}{}\n", figures.join(sep)));
    }
    s
}

#[test]
fn the_hand_result_reader_names_the_true_line_with_lf_crlf_cr_and_refuses_an_open_last_line() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let good = hand_result(&c, ",");
    let last = good.lines().count();
    let bad = set_field(&set_field(&good, 3, 2, "-4"), last, 3, "lots");
    let before = c.snapshot();
    for e in ENDINGS {
        let p = c.tmp.path().join("medellin.result.csv");
        std::fs::write(&p, ended(&bad, e)).unwrap();
        let o = c.run(&["apply", p.to_str().unwrap(), "--winner", "french"]);
        assert_code(&o, 1);
        let err = stderr(&o);
        assert!(err.contains("medellin.result.csv:3: killed: '-4' is negative"), "{e:?}: {err}");
        if matches!(e, Ending::CrLfOpenEnd | Ending::LfOpenEnd) {
            // A last line with no line ending may be cut inside its last number: refused as cut.
            let cut = format!("medellin.result.csv:{last}: truncated: the last line has no line ending");
            assert!(err.contains(&cut), "{e:?}: {err}");
        } else {
            assert!(err.contains(&format!("medellin.result.csv:{last}: wounded: 'lots'")), "{e:?}: {err}");
        }
        assert_eq!(c.snapshot(), before, "{e:?}: a refused result changed the campaign");
    }
}

/// The fixture saved as Excel in a Spanish locale saves it: forces.csv in Windows-1252,
/// commanders.csv as "CSV UTF-8" (with a byte-order mark), settlements.csv in UTF-8; all
/// with `;` and CRLF.
fn saved_by_spanish_excel(c: &Camp) {
    let forces = semicolons(&c.read("forces.csv"));
    std::fs::write(c.path("forces.csv"), windows_1252(&forces)).unwrap();
    let commanders = semicolons(&c.read("commanders.csv"));
    std::fs::write(c.path("commanders.csv"), format!("\u{feff}{commanders}")).unwrap();
    let settlements = semicolons(&c.read("settlements.csv"));
    c.write("settlements.csv", &settlements);
}

#[test]
fn a_campaign_saved_with_semicolons_is_read_and_written_back_as_it_was_saved() {
    let c = Camp::new("peninsula");
    saved_by_spanish_excel(&c);
    let forces_before = std::fs::read(c.path("forces.csv")).unwrap();
    let commanders_before = std::fs::read(c.path("commanders.csv")).unwrap();
    let o = c.run(&["check"]);
    assert_code(&o, 0);
    export_medellin(&c, &[]);
    let dump = c.tmp.path().join("sowgb_gamedb_03-28-09_15-00-00.csv");
    std::fs::write(
        &dump,
        dump_for(&c, "T20-18.28", |kind, unit, _| match (kind, unit) {
            ("unit", Some(FR)) => (40, 10, 50),
            ("unit", Some(SP)) => (100, 20, 80),
            _ => (0, 0, 0),
        }),
    )
    .unwrap();
    let o = c.run(&["apply", dump.to_str().unwrap(), "--winner", "french", "--river-retreat", "no"]);
    assert_code(&o, 0);
    // forces.csv: still Windows-1252, `;` and CRLF; only the rows the battle changed differ.
    let forces = std::fs::read(c.path("forces.csv")).unwrap();
    assert!(std::str::from_utf8(&forces).is_err(), "forces.csv is no longer Windows-1252");
    let (text, _, _) = encoding_rs::WINDOWS_1252.decode(&forces);
    assert!(text.starts_with("id;parent;level;name;commander;nation;arm;men;"), "{}", &text[..80]);
    assert!(
        text.contains(&format!("\r\n{FR};FR-I-RUF-1;battalion;9e Léger 1st Bn;;Fr;light;400;")),
        "{text}"
    );
    assert!(!text.replace("\r\n", "").contains('\n'), "a line end other than CRLF");
    let before_text = encoding_rs::WINDOWS_1252.decode(&forces_before).0.into_owned();
    let changed = text.split("\r\n").zip(before_text.split("\r\n")).filter(|(a, b)| a != b).count();
    assert!(changed > 0 && changed < 40, "{changed} lines of forces.csv changed");
    // commanders.csv keeps its byte-order mark, and returns.csv, new, is written the way
    // the order of battle was saved.
    let commanders = c.read("commanders.csv");
    assert!(
        commanders.starts_with("\u{feff}name;side;battles_fought;battles_won;status;player\r\n"),
        "{commanders}"
    );
    assert!(commanders.contains("\r\nVictor;French;7;6;;\r\n"), "{commanders}");
    let returns =
        encoding_rs::WINDOWS_1252.decode(&std::fs::read(c.path("returns.csv")).unwrap()).0.into_owned();
    assert!(returns.starts_with("turn;unit;men;kind;battle\r\n"), "{returns}");
    assert!(returns.contains(&format!("\r\n21;{FR};34;stragglers;T20-18.28\r\n")), "{returns}");
    // The journal replays to these very bytes, and undo gives back the files Excel saved.
    assert_code(&c.run(&["audit"]), 0);
    assert_code(&c.run(&["check"]), 0);
    assert_code(&c.run(&["undo", "T20-18.28"]), 0);
    let journal = c.read("journal.jsonl");
    assert_eq!(journal.lines().count(), 2, "{journal}");
    assert!(!journal.contains("\"manual-edit\""), "the files written were taken for a manual edit");
    assert_eq!(std::fs::read(c.path("forces.csv")).unwrap(), forces_before);
    assert_eq!(std::fs::read(c.path("commanders.csv")).unwrap(), commanders_before);
}

#[test]
fn a_hand_result_saved_with_semicolons_applies() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let p = c.tmp.path().join("medellin.result.csv");
    std::fs::write(&p, ended(&hand_result(&c, ";"), Ending::CrLf)).unwrap();
    assert_code(&c.run(&["apply", p.to_str().unwrap(), "--winner", "french", "--river-retreat", "no"]), 0);
    assert_eq!(men(&c)[SP], 540);
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn a_file_with_another_separator_is_one_message_naming_the_separator() {
    let c = Camp::new("peninsula");
    // commanders.csv saved as tab-separated text.
    let tabs = c.read("commanders.csv").replace(',', "\t");
    c.write("commanders.csv", &ended(&tabs, Ending::CrLf));
    let before = c.snapshot();
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.starts_with("error: 1 problem:\n"), "{err}");
    assert!(err.contains("commanders.csv:1: the header line's column names are separated by a tab"), "{err}");
    assert!(!err.contains("required column is missing"), "{err}");
    assert_eq!(c.snapshot(), before);

    // forces.csv with a `;` header over rows separated by `,`.
    let c = Camp::new("peninsula");
    let forces = c.read("forces.csv");
    let (head, body) = forces.split_once('\n').unwrap();
    c.write("forces.csv", &format!("{}\n{body}", head.replace(',', ";")));
    let rows = body.lines().count() - 1;
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(err.starts_with("error: 1 problem:\n"), "{err}");
    assert!(
        err.contains(&format!(
            "forces.csv:2: this line and {rows} more lines separate fields with ',' (comma) but the header line with ';' (semicolon)"
        )),
        "{err}"
    );
}

#[test]
fn a_missing_commanders_or_roads_file_is_one_message_too() {
    for file in ["commanders.csv", "map/roads.csv"] {
        let c = Camp::new("peninsula");
        std::fs::remove_file(c.path(file)).unwrap();
        let before = c.snapshot();
        let o = c.run(&["check"]);
        assert_code(&o, 1);
        assert_eq!(stderr(&o), format!("error: 1 problem:\n  {file}: file is missing\n\n"));
        assert_eq!(c.snapshot(), before);
    }
}

#[test]
fn a_missing_settlements_file_is_one_message_and_the_first() {
    let c = Camp::new("peninsula");
    std::fs::remove_file(c.path("settlements.csv")).unwrap();
    // A second, unrelated problem, which is listed after it.
    let forces = set_field(&c.read("forces.csv"), 5, 7, "five hundred");
    c.write("forces.csv", &forces);
    let before = c.snapshot();
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    assert_eq!(
        stderr(&o),
        "error: 2 problems:\n  settlements.csv: file is missing\n  forces.csv:5: men: 'five hundred' is not a whole number\n\n"
    );
    assert_eq!(c.snapshot(), before);
}

/// The line of `forces.csv` that starts with an id.
fn force_line(c: &Camp, id: &str) -> usize {
    c.read("forces.csv").lines().position(|l| l.starts_with(&format!("{id},"))).unwrap() + 1
}

#[test]
fn a_hex_excel_shortened_is_refused_with_its_likely_reading_never_misread() {
    let c = Camp::new("peninsula");
    // Excel saves Alburquerque's 17.30 as 17.3, and Madrid's 29.20 likewise; read as 17.03
    // the division would leave the battle.
    let alb = force_line(&c, "SP-ALB");
    let forces = c.read("forces.csv").replace(",17.30,,Badajoz,", ",17.3,,Badajoz,");
    c.write("forces.csv", &ended(&forces, Ending::CrLf));
    let settlements = c.read("settlements.csv").replacen("Madrid,29.21,", "Madrid,29.2,", 1);
    c.write("settlements.csv", &ended(&settlements, Ending::CrLf));
    let before = c.snapshot();
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    assert_eq!(
        stderr(&o),
        format!(
            "error: 2 problems:\n  forces.csv:{alb}: hex: '17.3' — did you mean 17.30? Excel drops trailing \
             zeros; format the column as Text\n  settlements.csv:3: hex: '29.2' — did you mean 29.20? Excel \
             drops trailing zeros; format the column as Text\n\n"
        )
    );
    assert_eq!(c.snapshot(), before);
}

#[test]
fn a_column_without_its_leading_zero_is_read_as_the_hex_it_is() {
    let c = Camp::new("peninsula");
    let forces = c.read("forces.csv").replace(
        "BR-LIS,,brigade,Brigade Mackenzie,Mackenzie,Br,,,,,02.29,",
        "BR-LIS,,brigade,Brigade Mackenzie,Mackenzie,Br,,,,,2.29,",
    );
    c.write("forces.csv", &forces);
    c.write("settlements.csv", &c.read("settlements.csv").replacen("Lisbon,02.29,", "Lisbon,2.29,", 1));
    assert_code(&c.run(&["check"]), 0);
    let o = c.run(&["status", "--json"]);
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    let lis = j["forces"].as_array().unwrap().iter().find(|f| f["id"] == "BR-LIS").unwrap();
    assert_eq!(lis["hex"], "02.29", "{lis}");
}

#[test]
fn export_of_a_shortened_hex_is_refused() {
    let c = Camp::new("peninsula");
    let before = c.snapshot();
    let o = c.run(&["export", "hex", "18.2", "--dry-run"]);
    assert_code(&o, 1);
    assert!(stderr(&o).contains("export hex: '18.2' — did you mean 18.20?"), "{}", stderr(&o));
    let o = c.run(&["export", "hex", "18.2"]);
    assert_code(&o, 1);
    assert_eq!(c.snapshot(), before);
}

#[test]
fn numbers_and_ids_excel_reformatted_are_refused_with_a_hint() {
    let c = Camp::new("peninsula");
    let forces = c.read("forces.csv");
    // men with thousands separators and in scientific notation, ammo with decimals.
    let forces = set_field(&forces, 5, 7, "\"1,200\"");
    let forces = set_field(&forces, 6, 7, "1.0E+3");
    let forces = set_field(&forces, 7, 7, "1.200");
    let forces = set_field(&forces, 8, 15, "70.0");
    // The brigade's id is 0101 (the column formatted as Text); Excel dropped the zero from
    // its battalions' parent. A long id shown in scientific notation.
    let forces = set_field(&forces, 4, 0, "0101");
    let forces = (5..=7).fold(forces, |t, l| set_field(&t, l, 1, "101"));
    let forces = set_field(&forces, 9, 0, "1.23457E+11");
    c.write("forces.csv", &forces);
    let commanders = set_field(&c.read("commanders.csv"), 2, 2, "6.0");
    c.write("commanders.csv", &commanders);
    let before = c.snapshot();
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    for want in [
        "forces.csv:5: men: '1,200' has a thousands separator (did you mean 1200?)",
        "forces.csv:6: men: '1.0E+3' is a number in scientific notation, as Excel shows a long number (did you mean 1000?)",
        "forces.csv:7: men: '1.200' has a thousands separator (did you mean 1200?)",
        "forces.csv:8: ammo: '70.0' has decimals (did you mean 70?)",
        "forces.csv:5: parent: unknown parent '101' (there is a row '0101': Excel drops the leading zeros",
        "forces.csv:9: id: '1.23457E+11' looks like an id that Excel showed in scientific notation",
        "commanders.csv:2: battles_fought: '6.0' has decimals (did you mean 6?)",
    ] {
        assert!(err.contains(want), "no '{want}' in\n{err}");
    }
    assert_eq!(c.snapshot(), before);
}

#[test]
fn a_hand_result_with_reformatted_numbers_is_refused_and_nothing_changes() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let good = hand_result(&c, ";");
    let bad = good.replacen(";20;80;100;10;0;", ";20;1.080;100;10;0;", 1);
    assert_ne!(bad, good);
    let line = bad.lines().position(|l| l.contains(";1.080;")).unwrap() + 1;
    let p = c.tmp.path().join("medellin.result.csv");
    std::fs::write(&p, windows_1252(&ended(&bad, Ending::CrLf))).unwrap();
    let before = c.snapshot();
    let o = c.run(&["apply", p.to_str().unwrap(), "--winner", "french"]);
    assert_code(&o, 1);
    let want = format!(
        "medellin.result.csv:{line}: wounded: '1.080' has a thousands separator (did you mean 1080?)"
    );
    assert!(stderr(&o).contains(&want), "{}", stderr(&o));
    assert_eq!(c.snapshot(), before);
}

#[test]
fn a_windows_path_in_double_quotes_is_refused_with_the_cure() {
    let c = Camp::new("peninsula");
    let toml = c.read("campaign.toml");
    let line = toml.lines().position(|l| l.starts_with("sow_work = ")).unwrap() + 1;
    let windows = toml.replace("sow_work = \"\"", "sow_work = \"C:\\Games\\SOWGB\\Work\"");
    c.write("campaign.toml", &ended(&windows, Ending::CrLf));
    let before = c.snapshot();
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    assert_eq!(
        stderr(&o),
        format!(
            "error: 1 problem:\n  campaign.toml:{line}: paths.sow_work: \"C:\\Games\\SOWGB\\Work\" is in double \
             quotes, where TOML reads a backslash as the start of an escape, and '\\G' is not one. Write a \
             Windows path in single quotes, sow_work = 'C:\\Games\\SOWGB\\Work', or with forward slashes, \
             sow_work = \"C:/Games/SOWGB/Work\"\n\n"
        )
    );
    assert_eq!(c.snapshot(), before);
    // The cure, as the fixture's own comment shows it.
    assert!(toml.contains("# sow_work = 'C:\\Games\\SOWGB\\Work'"), "{toml}");
    c.write("campaign.toml", &toml.replace("sow_work = \"\"", "sow_work = 'C:\\Games\\SOWGB\\Work'"));
    assert_code(&c.run(&["check"]), 0);
    c.write("campaign.toml", &toml.replace("sow_work = \"\"", "sow_work = \"C:/Games/SOWGB/Work\""));
    assert_code(&c.run(&["check"]), 0);
}

#[test]
fn a_bad_campaign_toml_value_names_the_key_and_what_it_expects() {
    let c = Camp::new("peninsula");
    let toml = c.read("campaign.toml");
    let line_of = |key: &str| toml.lines().position(|l| l.starts_with(key)).unwrap() + 1;
    let cases = [
        (
            "rows = 48",
            "rows = \"48\"",
            format!(
                "campaign.toml:{}: map.rows: expects a whole number from 1 to 100, not the text \"48\": take away the quotes",
                line_of("rows = ")
            ),
        ),
        (
            "layout = \"even-columns-down\"",
            "layout = \"even\"",
            format!(
                "campaign.toml:{}: map.layout: 'even' is not one of: even-columns-down, odd-columns-down",
                line_of("layout = ")
            ),
        ),
        (
            "turn = 20",
            "turn = twenty",
            format!(
                "campaign.toml:{}: turn: cannot read the value twenty; it expects a whole number, 1 or more (1 = early June 1808)",
                line_of("turn = ")
            ),
        ),
        (
            "turn = 20",
            "turn = 0",
            "campaign.toml: turn: must be from 1 to 1000 (1 = early June 1808)".to_string(),
        ),
    ];
    for (from, to, want) in cases {
        c.write("campaign.toml", &toml.replace(from, to));
        let before = c.snapshot();
        let o = c.run(&["check"]);
        assert_code(&o, 1);
        let err = stderr(&o);
        assert!(err.starts_with("error: 1 problem:\n") && err.contains(&want), "{to}: {err}");
        for jargon in ["u16", "u32", "expected `", "variant", "TOML parse error"] {
            assert!(!err.contains(jargon), "{to}: '{jargon}' in {err}");
        }
        assert_eq!(c.snapshot(), before);
    }
}

/// The first number before `words` in a text.
fn number_before(text: &str, words: &str) -> usize {
    let at = text.find(words).unwrap_or_else(|| panic!("no '{words}'"));
    text[..at].split_whitespace().last().unwrap().replace(',', "").parse().unwrap()
}

#[test]
fn the_fixture_readme_counts_what_the_fixture_holds() {
    let c = Camp::new("peninsula");
    let readme = std::fs::read_to_string(fixture("peninsula").join("README.md")).unwrap();
    let rows = |f: &str| c.read(f).lines().count() - 1;
    let o = c.run(&["status", "--json"]);
    let j: Value = serde_json::from_slice(&o.stdout).unwrap();
    assert_eq!(number_before(&readme, "top-level forces"), j["forces"].as_array().unwrap().len());
    assert_eq!(number_before(&readme, "rows: "), rows("forces.csv"));
    assert_eq!(number_before(&readme, "generals with"), rows("commanders.csv"));
    assert_eq!(number_before(&readme, "listed hexes"), rows("map/hexes.csv"));
    assert_eq!(number_before(&readme, "adjacent pairs"), rows("map/roads.csv"));
    assert_eq!(number_before(&readme, "places of rule 2.4"), rows("settlements.csv"));
}

#[test]
fn a_hand_result_saved_with_tabs_is_one_message_naming_the_tab() {
    let c = Camp::new("peninsula");
    export_medellin(&c, &[]);
    let p = c.tmp.path().join("medellin.result.csv");
    std::fs::write(&p, ended(&hand_result(&c, "\t"), Ending::CrLf)).unwrap();
    let before = c.snapshot();
    let o = c.run(&["apply", p.to_str().unwrap(), "--winner", "french"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains("medellin.result.csv:1: the header line's column names are separated by a tab"),
        "{err}"
    );
    assert!(!err.contains("required column") && !err.contains("battle dump"), "{err}");
    assert_eq!(c.snapshot(), before);
}

#[test]
fn hexes_saved_by_excel_in_a_decimal_comma_locale_are_refused_with_their_likely_reading() {
    let c = Camp::new("peninsula");
    // German Excel: `;` between fields, 17.30 saved as the number 17,3, and a hex 12.05
    // (here a listed hex of map/hexes.csv) taken for the 12th of May.
    let alb = force_line(&c, "SP-ALB");
    let forces = semicolons(&c.read("forces.csv")).replace(";17.30;;Badajoz;", ";17,3;;Badajoz;");
    std::fs::write(c.path("forces.csv"), windows_1252(&forces)).unwrap();
    let hexes = c.read("map/hexes.csv").replacen("\n00.00,", "\n12.05.2026,", 1);
    c.write("map/hexes.csv", &semicolons(&hexes));
    let before = c.snapshot();
    let o = c.run(&["check"]);
    assert_code(&o, 1);
    let err = stderr(&o);
    assert!(
        err.contains(&format!(
            "forces.csv:{alb}: hex: '17,3' — did you mean 17.30? Excel in a locale with the decimal comma \
             writes the point as a comma; format the column as Text"
        )),
        "{err}"
    );
    assert!(
        err.contains(
            "map/hexes.csv:2: hex: '12.05.2026' — did you mean 12.05 (or 05.12, if your Excel writes the month \
             first)? Excel took the hex for a date; format the column as Text"
        ),
        "{err}"
    );
    assert!(err.starts_with("error: 2 problems:"), "{err}");
    assert_eq!(c.snapshot(), before);
}

#[test]
fn a_hand_edit_of_a_semicolon_file_is_journalled_line_by_line_and_audited() {
    let c = Camp::new("peninsula");
    let forces = semicolons(&c.read("forces.csv"));
    c.write("forces.csv", &forces);
    export_medellin(&c, &[]);
    let p = c.tmp.path().join("medellin.result.csv");
    std::fs::write(&p, ended(&hand_result(&c, ";"), Ending::CrLf)).unwrap();
    assert_code(&c.run(&["apply", p.to_str().unwrap(), "--winner", "french", "--river-retreat", "no"]), 0);
    // Between battles the umpire adds 50 men to a battalion in Excel.
    let edited = c.read("forces.csv").replacen(";light;500;", ";light;550;", 1);
    assert_ne!(edited, c.read("forces.csv"));
    c.write("forces.csv", &edited);
    assert_code(&c.run(&["turn", "advance"]), 0);
    let journal = c.read("journal.jsonl");
    let manual: Value =
        serde_json::from_str(journal.lines().find(|l| l.contains("\"manual-edit\"")).unwrap()).unwrap();
    let change = &manual["changes"][0];
    assert_eq!(
        (change["file"].as_str(), change["how"].as_str()),
        (Some("forces.csv"), Some("lines")),
        "{change}"
    );
    assert_eq!(change["lines"].as_array().unwrap().len(), 1, "{change}");
    assert!(c.read("forces.csv").starts_with("id;parent;level;"));
    assert_code(&c.run(&["audit"]), 0);
}

#[test]
fn a_hand_result_unit_without_its_leading_zeros_names_the_unit_it_likely_meant() {
    let c = Camp::new("peninsula");
    // A battalion whose id is a number, 0101.
    c.write("forces.csv", &c.read("forces.csv").replace(&format!("{FR},"), "0101,"));
    export_medellin(&c, &[]);
    let result = hand_result(&c, ",");
    let line = result.lines().position(|l| l.contains(",0101,")).unwrap() + 1;
    let p = c.tmp.path().join("medellin.result.csv");
    std::fs::write(&p, ended(&result.replace(",0101,", ",101,"), Ending::CrLf)).unwrap();
    let before = c.snapshot();
    let o = c.run(&["apply", p.to_str().unwrap(), "--winner", "french"]);
    assert_code(&o, 1);
    assert_eq!(
        stderr(&o),
        format!(
            "error: 1 problem:\n  medellin.result.csv:{line}: unit: unit '101' did not fight in battle T20-18.28 \
             (unit '0101' did: Excel drops the leading zeros of ids that look like numbers; format the unit \
             column as Text)\n\n"
        )
    );
    assert_eq!(c.snapshot(), before);
}
