//! The catalogue of SoW maps (`sow-maps/catalogue.csv`): id, size and terrain tags. The
//! shipped catalogue is built into the binary; a campaign may carry its own copy.

use crate::error::Problems;
use crate::model::catalogue::{CatalogueMap, TAGS};

use super::table::{Fields, Table};

/// The catalogue shipped in `sow-maps/`.
pub const BUILTIN_CATALOGUE: &str = include_str!("../../sow-maps/catalogue.csv");

/// Parses a catalogue.
pub fn parse_catalogue(file: &str, bytes: &[u8]) -> Result<Vec<CatalogueMap>, Problems> {
    let mut p = Problems::default();
    let t = Table::parse(file, bytes, &mut p);
    let mut out: Vec<CatalogueMap> = Vec::new();
    if t.require(&["id", "multiplier", "tags"], &mut p) {
        for row in &t.rows {
            let mut f = Fields::new(&t, row, &mut p);
            let id = f.text("id").to_string();
            if id.is_empty() {
                f.problem("id", "is empty");
                continue;
            }
            let multiplier = f.req::<u32>("multiplier");
            let mut tags = std::collections::BTreeSet::new();
            for tag in f.text("tags").split(';').map(str::trim).filter(|x| !x.is_empty()) {
                if TAGS.contains(&tag) {
                    tags.insert(tag.to_string());
                } else {
                    f.problem("tags", format!("unknown tag '{tag}' (expected {})", TAGS.join(", ")));
                }
            }
            if out.iter().any(|m| m.id.eq_ignore_ascii_case(&id)) {
                f.problem("id", format!("map '{id}' is listed twice"));
                continue;
            }
            if let Some(multiplier) = multiplier {
                out.push(CatalogueMap {
                    id,
                    name: f.text("name").to_string(),
                    multiplier,
                    tags,
                    source: f.text("source").to_string(),
                });
            }
        }
    }
    if p.is_empty() { Ok(out) } else { Err(p) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_shipped_catalogue_parses() {
        let c = parse_catalogue("sow-maps/catalogue.csv", BUILTIN_CATALOGUE.as_bytes()).unwrap();
        assert!(c.len() >= 20);
        assert!(c.iter().filter(|m| m.tags.contains("open")).count() >= 4);
        assert!(c.iter().any(|m| m.id == "FBSC" && m.tags.contains("river")));
    }

    #[test]
    fn bad_tags_are_located() {
        let e = parse_catalogue("c.csv", b"id,name,multiplier,tags\nX,X,16384,swamp\n").unwrap_err();
        assert_eq!(e.0[0].line, Some(2));
        assert!(e.0[0].message.contains("swamp"));
    }
}
