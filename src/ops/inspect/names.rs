//! `inspect` of a unit names file (`OOBNames.xml`): how it is written (encoding, byte-order
//! mark, whether it is well-formed XML), which ids it names of each known battle, whether the
//! game's own file already names ids of sowbridge's scheme, and which suffix it gives second
//! names. Read as the Remastered editor reads an install's file: never refused.

use crate::formats::profile::Profile;
use crate::formats::sow::names::{NamesFile, is_sowbridge_tag, read_names};

use super::{FileReport, Known, Setting, finding, seen};

/// Tags ending with `suffix`.
fn ending(n: &NamesFile, suffix: &str) -> usize {
    n.tags.keys().filter(|t| t.ends_with(suffix)).count()
}

/// Fills a names file's report.
pub(super) fn inspect_names(r: &mut FileReport, bytes: &[u8], known: &[Known<'_>]) {
    let n = read_names(bytes);
    r.findings.push(finding(
        "x64 names file: a MyGUI language file of <Tag name=\"ID\">NAME</Tag>",
        n.root.as_deref().is_none_or(|root| root == "MyGUI") && !n.tags.is_empty(),
        format!(
            "root {}, {} tags, {}{}",
            n.root.as_deref().map_or("unread".to_string(), |r| format!("<{r}>")),
            n.tags.len(),
            r.facts.encoding,
            if n.bom { "" } else { " without a byte-order mark" }
        ),
    ));
    match &n.not_xml {
        None => r.findings.push(seen("x64 names file read as XML", "well-formed")),
        Some(why) => {
            r.findings.push(seen("x64 names file read tag by tag (no well-formed XML)", why.clone()));
            r.problems
                .push(format!("not well-formed XML ({why}); read tag by tag, as the Remastered editor does"));
        }
    }
    r.findings.push(seen(
        "x64 names file: suffixes of second and last names",
        format!(
            "{} _NAME2, {} _NAME_2, {} _Last",
            ending(&n, "_NAME2"),
            ending(&n, "_NAME_2"),
            ending(&n, "_Last")
        ),
    ));
    let foreign = n.tags.keys().filter(|t| !is_sowbridge_tag(t)).count();
    let ours: Vec<&String> = n.tags.keys().filter(|t| is_sowbridge_tag(t)).collect();
    if foreign > 0 {
        r.findings.push(finding(
            "the game names no id of sowbridge's scheme (OOB_ and six numbers)",
            ours.is_empty(),
            if ours.is_empty() {
                format!("{foreign} names of the game's or a mod's own, none of sowbridge's scheme")
            } else {
                format!(
                    "it already names {} of them ({}): an exported unit with that id may show the game's name",
                    ours.len(),
                    ours.iter().take(5).map(|t| t.as_str()).collect::<Vec<_>>().join(", ")
                )
            },
        ));
    }
    let named = |k: &Known<'_>| k.chains.iter().filter(|e| n.tags.contains_key(&e.id)).count();
    if let Some(k) = known.iter().filter(|k| named(k) > 0).max_by_key(|k| named(k)) {
        let got = named(k);
        r.battle = Some(format!("{}: names {got} of its {} units", k.label, k.chains.len()));
        let wrong: Vec<String> = k
            .chains
            .iter()
            .filter_map(|e| n.tags.get(&e.id).filter(|t| **t != e.name).map(|t| format!("{} {t:?}", e.id)))
            .collect();
        r.findings.push(finding(
            "every unit of the battle has its NAME1 in the names file",
            got == k.chains.len() && wrong.is_empty(),
            format!(
                "{got} of {} named{}",
                k.chains.len(),
                if wrong.is_empty() {
                    String::new()
                } else {
                    format!("; named otherwise: {}", wrong.join(", "))
                }
            ),
        ));
    } else if !known.is_empty() {
        r.battle = Some("none: it names no unit of a battle sowbridge exported".to_string());
    }
}

/// The second-name suffix the game's own names file uses, when it differs from the profile's.
pub(super) fn learned_suffix(r: &FileReport, bytes: &[u8], profile: &Profile) -> Option<Setting> {
    let n = read_names(bytes);
    if profile.names_file.is_empty() || n.tags.keys().all(|t| is_sowbridge_tag(t)) {
        return None;
    }
    let (plain, split) = (ending(&n, "_NAME2"), ending(&n, "_NAME_2"));
    let theirs = match (plain, split) {
        (0, s) if s > 0 => "_NAME_2",
        (p, 0) if p > 0 => "_NAME2",
        _ => return None,
    };
    (theirs != profile.names_second_suffix).then(|| Setting {
        key: "names_second_suffix",
        value: format!("\"{theirs}\""),
        why: format!("the game's names file {} gives second names the suffix {theirs}", r.path),
    })
}
