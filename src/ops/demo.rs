//! `demo`: the example campaign (the fixture `fixtures/peninsula`, built into the binary) and
//! its example result, copied into a new folder, and the battle of Medellín exported there.
//! A newcomer's first command, which leaves the shipped campaign as it is.

use std::path::Path;

use anyhow::Result;

use crate::cli::ExportHexArgs;
use crate::error::Error;
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

/// Runs `demo DIR`.
pub fn run(folder: &Path) -> Result<()> {
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
    let out = folder.join("out");
    let args = ExportHexArgs { hex: "18.28".to_string(), out: Some(out.clone()), ..ExportHexArgs::default() };
    super::export::run(&CampaignDir::new(&campaign), &args)?;
    crate::errln!(
        "\nThe example campaign is in {}, its battle of Medellín exported into {}.\nNext, the battle day:\n  \
         sowbridge --campaign {c} battle show T20-18.28 --briefing allies\n  \
         sowbridge --campaign {c} apply {r}\n  \
         sowbridge --campaign {c} battle show T20-18.28\n  \
         sowbridge --campaign {c} undo T20-18.28\n  \
         sowbridge --campaign {c} turn advance",
        campaign.display(),
        out.display(),
        c = quoted(&campaign),
        r = quoted(&result),
    );
    Ok(())
}

/// A path as it can be typed back into a shell: quoted when it holds a space.
fn quoted(p: &Path) -> String {
    let s = p.display().to_string();
    if s.contains(' ') { format!("\"{s}\"") } else { s }
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
