//! `demo`: the example campaign (the fixture `fixtures/peninsula`, built into the binary) and
//! its example result, copied into a new folder, and the battle of Medellín exported there.
//! A newcomer's first command, which leaves the shipped campaign as it is.

use std::path::{Path, PathBuf};

use anyhow::Result;

use crate::error::Error;
use crate::model::HexId;
use crate::ops::export::{ExportOptions, ExportOutcome, ExportRequest};
use crate::store::{CampaignDir, atomic_write, free_for_new_folder};

/// The example campaign's files, by path inside the campaign folder (the fixture's
/// `.gitignore`, which keeps sowbridge's own files out of this repository, is no part of it:
/// an umpire keeping a campaign in git wants the journal and battles kept).
pub const EXAMPLE_CAMPAIGN: [(&str, &[u8]); 9] = [
    ("README.md", include_bytes!("../../fixtures/peninsula/README.md")),
    ("campaign.toml", include_bytes!("../../fixtures/peninsula/campaign.toml")),
    ("commanders.csv", include_bytes!("../../fixtures/peninsula/commanders.csv")),
    ("forces.csv", include_bytes!("../../fixtures/peninsula/forces.csv")),
    ("juntas.csv", include_bytes!("../../fixtures/peninsula/juntas.csv")),
    ("settlements.csv", include_bytes!("../../fixtures/peninsula/settlements.csv")),
    ("map/hexes.csv", include_bytes!("../../fixtures/peninsula/map/hexes.csv")),
    ("map/rivers.csv", include_bytes!("../../fixtures/peninsula/map/rivers.csv")),
    ("map/roads.csv", include_bytes!("../../fixtures/peninsula/map/roads.csv")),
];

/// The example result of Medellín, settled by hand (invented for practice).
pub const EXAMPLE_RESULT: (&str, &[u8]) =
    ("T20-18.28-example.result.csv", include_bytes!("../../fixtures/results/T20-18.28-example.result.csv"));

/// The example orders for the turn's march (`move`), written into the demo's `orders/`.
pub const EXAMPLE_ORDERS: [(&str, &[u8]); 2] = [
    ("french.csv", include_bytes!("../../fixtures/orders/french.csv")),
    ("allies.csv", include_bytes!("../../fixtures/orders/allies.csv")),
];

/// The hex of the example battle, Medellín.
const MEDELLIN: HexId = HexId::new(18, 28);

/// `demo DIR`: the folder to create.
#[derive(Debug, Clone)]
pub struct DemoRequest {
    /// The folder (must not exist, or be empty).
    pub folder: PathBuf,
}

/// What `demo` wrote: the example campaign, its result beside it, and the battle exported.
#[derive(Debug)]
pub struct Demo {
    /// The example campaign's folder.
    pub campaign: PathBuf,
    /// The example result.
    pub result: PathBuf,
    /// The export of Medellín.
    pub export: ExportOutcome,
}

/// `demo DIR`: copies the example campaign, its result and its orders into a new folder and
/// exports the battle of Medellín into its `out` folder.
pub fn demo(req: &DemoRequest) -> Result<Demo> {
    let folder = &req.folder;
    if !free_for_new_folder(folder) {
        return Err(Error::refused(format!(
            "{}: already exists and is not empty; give `sowbridge demo` a new folder",
            folder.display()
        ))
        .into());
    }
    let campaign = folder.join("campaign");
    for (rel, bytes) in EXAMPLE_CAMPAIGN {
        atomic_write(&campaign.join(Path::new(rel)), bytes)?;
    }
    let result = folder.join(EXAMPLE_RESULT.0);
    atomic_write(&result, EXAMPLE_RESULT.1)?;
    for (name, bytes) in EXAMPLE_ORDERS {
        atomic_write(&folder.join("orders").join(name), bytes)?;
    }
    let options = ExportOptions { out: Some(folder.join("out")), ..ExportOptions::default() };
    let req = ExportRequest { hex: MEDELLIN, options };
    let export = crate::ops::export::export_hex(&CampaignDir::new(&campaign), &req)?;
    Ok(Demo { campaign, result, export })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The built-in example is the fixture, every file of it, byte for byte.
    #[test]
    fn the_example_campaign_is_the_whole_fixture() {
        let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("fixtures/peninsula");
        let mut on_disk: Vec<String> = walkdir::WalkDir::new(&root)
            .into_iter()
            .filter_map(Result::ok)
            .filter(|e| e.file_type().is_file())
            .map(|e| {
                e.path()
                    .strip_prefix(&root)
                    .map(|p| p.to_string_lossy().replace('\\', "/"))
                    .unwrap_or_default()
            })
            .filter(|p| !p.starts_with("battles/") && !p.starts_with("journal") && p != "campaign.lock")
            .filter(|p| p != ".gitignore")
            .filter(|p| !["map/battle-maps.csv", "returns.csv", "score.csv"].contains(&p.as_str()))
            .collect();
        on_disk.sort();
        let mut embedded: Vec<String> = EXAMPLE_CAMPAIGN.iter().map(|(p, _)| p.to_string()).collect();
        embedded.sort();
        assert_eq!(embedded, on_disk);
        for (rel, bytes) in EXAMPLE_CAMPAIGN {
            assert_eq!(std::fs::read(root.join(rel)).ok().as_deref(), Some(bytes), "{rel}");
        }
    }
}
