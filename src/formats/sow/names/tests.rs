use super::*;

fn tags(pairs: &[(&str, &str)]) -> BTreeMap<String, String> {
    pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect()
}

#[test]
fn the_file_is_written_as_the_remastered_editor_writes_it() {
    let t =
        tags(&[("OOB_1_1_0_0_0_0", "Gén. Victor & staff"), ("OOB_1_1_0_0_0_0_NAME2", "1er Corps <Armée>")]);
    let bytes = names_xml(&t);
    assert_eq!(
        String::from_utf8(bytes).unwrap(),
        "<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<MyGUI>\n\
         \t<Tag name=\"OOB_1_1_0_0_0_0\">Gén. Victor &amp; staff</Tag>\n\
         \t<Tag name=\"OOB_1_1_0_0_0_0_NAME2\">1er Corps &lt;Armée&gt;</Tag>\n</MyGUI>"
    );
}

#[test]
fn what_is_written_reads_back_as_xml() {
    let t = tags(&[("OOB_2_5_1_1_1_1", "Regimiento de Irlanda & Cía"), ("OOB_2_5_1_1_1_1_Last", "Cía")]);
    let read = read_names(&names_xml(&t));
    assert_eq!(read.tags, t);
    assert_eq!(read.root.as_deref(), Some("MyGUI"));
    assert_eq!((read.bom, read.not_xml), (false, None));
}

#[test]
fn a_byte_order_mark_is_skipped_and_broken_xml_is_read_tag_by_tag() {
    let text = "\u{feff}<?xml version=\"1.0\" encoding=\"UTF-8\"?>\r\n<MyGUI type=\"Resource\">\r\n  \
                <Tag name=\"OOB_Fr_Napoleon\">Napoleon</Tag>\r\n  <Tag name=\"OOB_Fr_Napoleon_Last\">Bonaparte</Tag>\r\n\
                <Tag name=\"OOB_Br_Guards\">Guards & Co</Tag>\r\n</MyGUI>\r\n";
    let read = read_names(text.as_bytes());
    assert!(read.bom);
    let why = read.not_xml.expect("a raw & is no XML");
    assert!(!why.is_empty());
    assert_eq!(
        read.tags,
        tags(&[
            ("OOB_Br_Guards", "Guards & Co"),
            ("OOB_Fr_Napoleon", "Napoleon"),
            ("OOB_Fr_Napoleon_Last", "Bonaparte")
        ])
    );
    // Without the stray ampersand the same file is XML, BOM and CRLF notwithstanding.
    let fixed = read_names(text.replace("& Co", "and Co").as_bytes());
    assert_eq!(fixed.not_xml, None);
    assert_eq!(fixed.tags.len(), 3);
}

#[test]
fn an_unclosed_root_and_garbage_are_no_xml_but_never_a_failure() {
    let cut = read_names(b"<MyGUI>\n\t<Tag name=\"OOB_1_1_1_1_1_1\">A</Tag>\n");
    assert!(cut.not_xml.is_some());
    assert_eq!(cut.tags, tags(&[("OOB_1_1_1_1_1_1", "A")]));
    let junk = read_names(b"\x00\x01 not xml at all");
    assert!(junk.not_xml.is_some());
    assert!(junk.tags.is_empty());
}

#[test]
fn sowbridge_tags_are_told_from_the_game_s_own() {
    assert!(is_sowbridge_tag("OOB_1_12_3_4_5_6"));
    assert!(is_sowbridge_tag("OOB_1_12_3_4_5_6_NAME2"));
    assert!(is_sowbridge_tag("OOB_1_12_3_4_5_6_NAME_2"));
    assert!(!is_sowbridge_tag("OOB_Fr_Napoleon"));
    assert!(!is_sowbridge_tag("OOB_1_2_3_4_5"));
    assert_eq!(unit_id("OOB_1_2_3_4_5_6_NAME2"), "OOB_1_2_3_4_5_6");
    assert_eq!(unit_id("OOB_1_2_3_4_5_6"), "OOB_1_2_3_4_5_6");
}

#[test]
fn a_second_battle_keeps_the_first_one_s_names_and_renames_its_own() {
    let first = names_xml(&tags(&[
        ("OOB_1_1_0_0_0_0", "Victor"),
        ("OOB_1_2_0_0_0_0", "Old name"),
        ("OOB_1_2_0_0_0_0_NAME2", "Old second name"),
    ]));
    let ours = tags(&[("OOB_1_2_0_0_0_0", "Sebastiani")]);
    let merged = merged(Some(("out/OOBNames.xml", &first)), &ours).unwrap();
    assert_eq!(
        read_names(&merged).tags,
        tags(&[("OOB_1_1_0_0_0_0", "Victor"), ("OOB_1_2_0_0_0_0", "Sebastiani")])
    );
}

#[test]
fn the_game_s_own_names_file_is_never_replaced() {
    let base = b"<MyGUI><Tag name=\"OOB_Fr_Napoleon\">Napoleon</Tag></MyGUI>";
    let e =
        merged(Some(("Base/Layout/Media/Language/OOBNames.xml", base)), &tags(&[("OOB_1_1_0_0_0_0", "V")]))
            .unwrap_err()
            .to_string();
    assert!(
        e.contains(
            "Base/Layout/Media/Language/OOBNames.xml holds 1 names sowbridge did not write (OOB_Fr_Napoleon)"
        ),
        "{e}"
    );
}

#[test]
fn names_lose_hashes_commas_and_quotes() {
    assert_eq!(xml_name("#1 Gun, \"Battery\" 2"), "1 Gun Battery 2");
}
