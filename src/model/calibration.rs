//! The calibration battle's record (`sowbridge-calibration.json`), written beside its
//! scenario by `calibrate` and read back by `inspect`.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::battle::ChainEntry;

/// What `calibrate` wrote: enough for `inspect` to recognise the game's files of it.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct CalibrationRecord {
    /// Battle id (file and folder names): `CAL-<profile>`.
    pub battle: String,
    /// SoW profile.
    pub profile: String,
    /// SoW map id.
    pub map: String,
    /// Start and end times.
    pub start_time: String,
    /// End time (final dumps just before it).
    pub end_time: String,
    /// When the final dumps ran before the end (3, 2 and 1 s in records that predate it).
    #[serde(default = "super::battle::legacy_final_dumps")]
    pub final_dumps: super::battle::FinalDumps,
    /// Every row written.
    pub chains: Vec<ChainEntry>,
    /// The OOB file, relative to the output folder.
    pub oob: String,
    /// The scenario folder, relative to the output folder.
    pub scenario_dir: String,
    /// SHA-256 of each written file, by path relative to the output folder.
    pub files: BTreeMap<String, String>,
}
