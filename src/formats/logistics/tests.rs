//! Tests of the reading of the install's Logistics files.

use super::*;

fn files(list: &[(&str, &[u8])]) -> LogisticsFiles {
    let mut f = LogisticsFiles::default();
    for (name, bytes) in list {
        f.files.insert(name.to_string(), LogisticsFile { label: format!("L/{name}"), bytes: bytes.to_vec() });
    }
    f
}

#[test]
fn a_quote_opening_a_field_keeps_its_commas() {
    assert_eq!(
        split_fields(r#",Class,"the ID, used in the OOB",x"#),
        vec!["", "Class", "the ID, used in the OOB", "x"]
    );
}

#[test]
fn a_quote_inside_a_field_is_stripped_but_not_honoured() {
    assert_eq!(split_fields(r#"a"b,c"d,e"#), vec!["ab", "cd", "e"]);
    assert_eq!(split_fields(r#" "NAP_FR_Line" ,2"#), vec!["NAP_FR_Line", "2"]);
}

#[test]
fn empty_and_comma_led_lines_are_skipped_and_crlf_is_removed() {
    let text = "Class,Type\r\n,doc row, with words\r\n\r\nA_Inf,1\r\n   \r\nB_Cav,2\r\n";
    let r = records(text);
    assert_eq!(r.len(), 2);
    assert_eq!(r[0], Record { line: 4, fields: vec!["A_Inf".into(), "1".into()] });
    assert_eq!(r[1].line, 6);
    assert_eq!(r[1].field(1), "2");
}

#[test]
fn windows_1252_ids_are_decoded() {
    let (l, p) = parse_logistics(&files(&[("unitglobal.csv", b"Class,Type\r\nNAP_SP_Bail\xe9n,1\r\n")]));
    assert!(l.class("nap_sp_bailén").is_some(), "{:?}", l.classes);
    assert!(p.0.iter().all(|x| x.file != "L/unitglobal.csv"), "{p}");
}

#[test]
fn classes_carry_their_type_and_compare_without_case() {
    let ug = b"Class,Type,Alt\n,Type,\"1 = Infantry,2 = Cavalry\"\nUGLB_USA_Inf_1,1\nU_Courier,5\nUGLB_USA_Wagon,4\nx,,\n";
    let (l, p) = parse_logistics(&files(&[("unitglobal.csv", ug)]));
    assert_eq!(l.class("u_courier").map(|c| c.kind.clone()), Some(ClassType::Courier));
    assert_eq!(l.class("UGLB_USA_WAGON").map(|c| c.kind.clone()), Some(ClassType::Ordnance));
    assert_eq!(l.class("uglb_usa_inf_1").map(|c| c.def.line), Some(3));
    let blank = p.0.iter().find(|x| x.file == "L/unitglobal.csv").expect("blank type reported");
    assert_eq!(blank.line, Some(6));
}

#[test]
fn drills_skip_their_slot_maps() {
    let d = "Name,ID,Rows,Columns\n,doc\nLine (0),DRIL_Lvl6_Inf_Line,2,3\n124,122,120\n(3.01)125,,\nCol,DRIL_Lvl6_Inf_Column,1,2\n5,6\n";
    let (l, p) = parse_logistics(&files(&[("drills.csv", d.as_bytes())]));
    let ids: Vec<&str> = l.drills.values().map(|d| d.id.as_str()).collect();
    assert_eq!(ids, vec!["DRIL_Lvl6_Inf_Column", "DRIL_Lvl6_Inf_Line"]);
    assert!(p.0.iter().all(|x| x.file != "L/drills.csv"), "{p}");
    // A Rows value too small leaves a slot-map line read as a definition.
    let bad = "Name,ID,Rows\nLine,DRIL_A,1\n1,2\n3,4\n";
    let (_, p) = parse_logistics(&files(&[("drills.csv", bad.as_bytes())]));
    let hit = p.0.iter().find(|x| x.file == "L/drills.csv").expect("stray line reported");
    assert_eq!(hit.line, Some(4));
}

#[test]
fn attribute_blocks_count_their_levels() {
    let ua = "\
,INTEGERS ONLY,Level Name
,Level Name,Textual label
NEW,Weather,,
,Visibility (yds),Label
0,900,IDS_UATT_Day_Cloudy
1,1000,IDS_UATT_Day_Clear
,,,
NEW,Morale
0,1,IDS_UATT_Routed
1,296,IDS_UATT_Broken
2,297,IDS_UATT_Broken
NEW,Close Order Proficiency
0,5,Raw
NEW,Open Order Proficiency
0,5,Raw
1,10,Untrained
NEW,Empty
";
    let (l, p) = parse_logistics(&files(&[("unitattributes.csv", ua.as_bytes())]));
    let levels = |t: &str| l.attribute(t).map(|a| a.levels);
    assert_eq!(levels("Weather"), Some(2));
    assert_eq!(levels("Morale"), Some(3));
    assert_eq!(levels("Close"), Some(1));
    assert_eq!(levels("Open"), Some(2));
    assert_eq!(levels("Ability"), None);
    let empty = p.0.iter().find(|x| x.file == "L/unitattributes.csv").expect("empty table reported");
    assert_eq!(empty.line, Some(17));
}

#[test]
fn proficiencies_fall_back_to_their_place_after_morale() {
    let ua = "x\nNEW,Morale\n0\nNEW,Drill\n0\n1\nNEW,Skirmish\n0\n";
    let (l, _) = parse_logistics(&files(&[("unitattributes.csv", ua.as_bytes())]));
    assert_eq!(l.attribute("Close").map(|a| a.name.as_str()), Some("Drill"));
    assert_eq!(l.attribute("Open").map(|a| a.name.as_str()), Some("Skirmish"));
    assert_eq!(l.attribute("Edged"), None);
}

#[test]
fn missing_files_are_named() {
    let (_, p) = parse_logistics(&files(&[("unitglobal.csv", b"Class,Type\n")]));
    let missing: Vec<&str> = p.0.iter().filter(|x| x.line.is_none()).map(|x| x.file.as_str()).collect();
    assert_eq!(missing, vec!["drills.csv", "rifles.csv", "artillery.csv", "unitattributes.csv"]);
}
