//! The unit names file of the Remastered (x64) engine: `Layout/Media/Language/OOBNames.xml`, a
//! MyGUI language file mapping each unit id to its display name (`<Tag name="ID">NAME1</Tag>`,
//! the second name under `ID_NAME2`, the last name under `ID_Last`). The engine shows unit
//! names from it, so a campaign unit, whose id the game has never seen, needs its own tags.
//!
//! Written as the public Remastered editor writes it (manosteele117/mank-scourge-of-war-editor,
//! `core/oob_names.py`): UTF-8 without a byte-order mark, the declaration
//! `<?xml version="1.0" encoding="utf-8"?>`, a `<MyGUI>` root, one tab-indented `Tag` a line,
//! LF line ends, `#` taken out of names. Read as that editor reads an install's file:
//! a byte-order mark skipped, and a file that is no well-formed XML read tag by tag.

use std::collections::{BTreeMap, BTreeSet};

use quick_xml::events::Event;

use crate::error::{Error, Result};

use super::super::profile::Profile;
use super::super::text::{decode, sow_field};
use super::oob::SowRow;

/// The names file as read.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct NamesFile {
    /// Every tag: its name with its text.
    pub tags: BTreeMap<String, String>,
    /// True when the file began with a UTF-8 byte-order mark.
    pub bom: bool,
    /// Why the file is no well-formed XML, when it is not (it was then read tag by tag).
    pub not_xml: Option<String>,
    /// The root element's name, when the XML parsed.
    pub root: Option<String>,
}

/// A name as the names file holds it: the OOB's cleaned name, without `#` (which MyGUI
/// reads as the start of a colour or a tag reference, and which the editor takes out).
pub fn xml_name(name: &str) -> String {
    sow_field(&name.replace('#', " "))
}

/// The tags of a battle's rows: NAME1 under the id, NAME2 under the id and the profile's
/// second-name suffix, and the first name's last word under the last-name suffix (when the
/// profile has one). A row without a first name is named by its id.
pub fn tags_for(p: &Profile, rows: &[SowRow]) -> BTreeMap<String, String> {
    let mut tags = BTreeMap::new();
    for r in rows {
        let id = r.chain.id();
        let name1 = match xml_name(&r.name1) {
            n if n.is_empty() => id.clone(),
            n => n,
        };
        let name2 = xml_name(&r.name2);
        if !p.names_last_suffix.is_empty()
            && let Some(last) = name1.split(' ').next_back()
        {
            tags.insert(format!("{id}{}", p.names_last_suffix), last.to_string());
        }
        if !name2.is_empty() {
            tags.insert(format!("{id}{}", p.names_second_suffix), name2);
        }
        tags.insert(id, name1);
    }
    tags
}

fn escape(text: &str, attribute: bool) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' if attribute => out.push_str("&quot;"),
            c => out.push(c),
        }
    }
    out
}

/// The bytes of a names file holding `tags`, in the order of their names.
pub fn names_xml(tags: &BTreeMap<String, String>) -> Vec<u8> {
    let mut s = String::from("<?xml version=\"1.0\" encoding=\"utf-8\"?>\n<MyGUI>");
    for (name, text) in tags {
        s.push_str(&format!("\n\t<Tag name=\"{}\">{}</Tag>", escape(name, true), escape(text, false)));
    }
    s.push_str("\n</MyGUI>");
    s.into_bytes()
}

/// Reads a names file: as XML when it is well-formed (the `Tag` elements under the root),
/// else tag by tag, as the Remastered editor reads an install's file. Never fails: what cannot
/// be read is left out, and `not_xml` says why the XML did not parse.
pub fn read_names(bytes: &[u8]) -> NamesFile {
    let bom = bytes.starts_with(b"\xEF\xBB\xBF");
    let text = decode(bytes).0;
    let text = text.trim_start_matches('\u{feff}');
    match parse_xml(text) {
        Ok((root, tags)) => NamesFile { tags, bom, not_xml: None, root: Some(root) },
        Err(why) => NamesFile { tags: scan_tags(text), bom, not_xml: Some(why), root: None },
    }
}

fn parse_xml(text: &str) -> std::result::Result<(String, BTreeMap<String, String>), String> {
    let mut r = quick_xml::Reader::from_str(text);
    let mut tags = BTreeMap::new();
    let (mut depth, mut root, mut current): (usize, Option<String>, Option<(String, String)>) =
        (0, None, None);
    loop {
        let ev = r.read_event().map_err(|e| format!("{e} (at byte {})", r.error_position()))?;
        match ev {
            Event::Start(s) if depth == 0 && root.is_none() => {
                root = Some(qname(&s));
                depth = 1;
            }
            Event::Empty(s) if depth == 0 && root.is_none() => {
                root = Some(qname(&s));
            }
            Event::Start(_) | Event::Empty(_) if depth == 0 => {
                return Err("more than one root element".to_string());
            }
            Event::Start(s) => {
                depth += 1;
                if depth == 2 && qname(&s) == "Tag" {
                    let name = tag_name(&s)?;
                    current = Some((name, String::new()));
                }
            }
            Event::Empty(s) if depth == 1 && qname(&s) == "Tag" => {
                tags.insert(tag_name(&s)?, String::new());
            }
            Event::Text(t) => {
                if let Some((_, body)) = current.as_mut() {
                    body.push_str(&t.xml10_content());
                }
            }
            Event::GeneralRef(g) => {
                let entity: &str = AsRef::<str>::as_ref(&g);
                let ch = match entity {
                    "amp" => "&".to_string(),
                    "lt" => "<".to_string(),
                    "gt" => ">".to_string(),
                    "quot" => "\"".to_string(),
                    "apos" => "'".to_string(),
                    _ => match g.resolve_char_ref() {
                        Ok(Some(c)) => c.to_string(),
                        _ => return Err(format!("unknown entity &{entity};")),
                    },
                };
                if let Some((_, body)) = current.as_mut() {
                    body.push_str(&ch);
                }
            }
            Event::End(_) => {
                if depth == 2
                    && let Some((name, body)) = current.take()
                {
                    tags.insert(name, body);
                }
                depth = depth.saturating_sub(1);
            }
            Event::Eof => break,
            _ => {}
        }
    }
    match root {
        Some(root) if depth == 0 => Ok((root, tags)),
        Some(root) => Err(format!("<{root}> is not closed")),
        None => Err("no root element".to_string()),
    }
}

/// An element's name.
fn qname(s: &quick_xml::events::BytesStart<'_>) -> String {
    let q = s.name();
    AsRef::<str>::as_ref(&q).to_string()
}

fn tag_name(s: &quick_xml::events::BytesStart<'_>) -> std::result::Result<String, String> {
    for a in s.attributes() {
        let a = a.map_err(|e| e.to_string())?;
        if AsRef::<str>::as_ref(&a.key) == "name" {
            return a
                .normalized_value(quick_xml::XmlVersion::Implicit1_0)
                .map(|v| v.into_owned())
                .map_err(|e| e.to_string());
        }
    }
    Err("a <Tag> without a name".to_string())
}

/// Every `<Tag name="…">text` of a text that is no well-formed XML, by its characters alone:
/// the names the editor's fallback finds, with the text up to the next `<`.
fn scan_tags(text: &str) -> BTreeMap<String, String> {
    let mut tags = BTreeMap::new();
    let mut rest = text;
    while let Some(at) = rest.find("<Tag") {
        rest = &rest[at + 4..];
        let attrs = rest.trim_start();
        if attrs.len() == rest.len() {
            continue;
        }
        let Some(value) = attrs.strip_prefix("name=\"") else { continue };
        let Some(end) = value.find('"') else { break };
        let name = value[..end].to_string();
        let after = &value[end + 1..];
        let body = after.find('>').map_or("", |gt| {
            let b = &after[gt + 1..];
            if after[..gt].ends_with('/') { "" } else { &b[..b.find('<').unwrap_or(b.len())] }
        });
        let body = body.replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">");
        tags.insert(name, body);
        rest = after;
    }
    tags
}

/// True for a tag sowbridge writes: `OOB_` and six whole numbers (a unit's id), perhaps with a
/// suffix of its own (`_NAME2`, `_Last`).
pub fn is_sowbridge_tag(tag: &str) -> bool {
    let Some(rest) = tag.strip_prefix("OOB_") else { return false };
    let parts: Vec<&str> = rest.split('_').collect();
    parts.len() >= 6 && parts[..6].iter().all(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()))
}

/// The names file to write where `existing` (`shown` in messages) already is: the tags of
/// every other battle exported into the same folder kept, this battle's ids named afresh. A
/// file holding names sowbridge did not write (the game's own, or a mod's) is refused: it
/// would be replaced.
pub fn merged(existing: Option<(&str, &[u8])>, ours: &BTreeMap<String, String>) -> Result<Vec<u8>> {
    let Some((shown, bytes)) = existing else { return Ok(names_xml(ours)) };
    let old = read_names(bytes);
    let foreign: Vec<&String> = old.tags.keys().filter(|t| !is_sowbridge_tag(t)).collect();
    if !foreign.is_empty() {
        return Err(Error::refused(format!(
            "{shown} holds {} names sowbridge did not write ({}{}): the output folder is the game's own \
             or a mod's, whose names file an export must not replace. Export into a folder of its own under \
             the game's Mods folder (docs/sow-install.md)",
            foreign.len(),
            foreign.iter().take(3).map(|t| t.as_str()).collect::<Vec<_>>().join(", "),
            if foreign.len() > 3 { ", …" } else { "" }
        )));
    }
    let ids: BTreeSet<&str> = ours.keys().filter(|t| is_id(t)).map(String::as_str).collect();
    let mut tags: BTreeMap<String, String> =
        old.tags.into_iter().filter(|(t, _)| !ids.contains(unit_id(t))).collect();
    tags.extend(ours.iter().map(|(k, v)| (k.clone(), v.clone())));
    Ok(names_xml(&tags))
}

/// True for a tag that is a unit id itself (no suffix).
fn is_id(tag: &str) -> bool {
    is_sowbridge_tag(tag) && tag.split('_').count() == 7
}

/// The unit id a sowbridge tag belongs to (`OOB_1_2_3_4_5_6_NAME2` → `OOB_1_2_3_4_5_6`).
fn unit_id(tag: &str) -> &str {
    match tag.match_indices('_').nth(6) {
        Some((at, _)) => &tag[..at],
        None => tag,
    }
}

#[cfg(test)]
mod tests;
