//! The files a turn's supply phase leaves behind: what `turn advance` writes of the
//! campaign's memory of supply and control, from the campaign value the turn leaves.

use crate::formats::supply::{SUPPLY, with_state, write_records};
use crate::model::Campaign;
use crate::store::journal::StateFiles;

const SETTLEMENTS: &str = "settlements.csv";

/// The files of the campaign's memory of supply that `turn advance` writes from the campaign
/// value it leaves: `settlements.csv` with each place's control and investment (every other
/// field as it was), `supply.csv` with what the next turn must remember. `forces.csv` (the
/// forces' `supply`) is written by the turn with its own changes.
pub fn phase_files(c: &Campaign, current: &StateFiles, new_files: &mut StateFiles) -> crate::Result<()> {
    if let Some(Some(bytes)) = current.get(SETTLEMENTS) {
        let patched = with_state(bytes, &c.map.settlements)?;
        if &patched != bytes {
            new_files.insert(SETTLEMENTS.to_string(), Some(patched));
        }
    }
    let records = write_records(&c.supply, c.dialect(SUPPLY));
    new_files.insert(SUPPLY.to_string(), Some(records));
    Ok(())
}

/// The folder of a turn's reports.
pub fn reports_dir(turn: u32) -> String {
    format!("turns/T{turn}")
}

/// The three reports of a turn (relative paths): the umpire's, the French side's and the
/// Allies'.
pub fn report_paths(turn: u32) -> [String; 3] {
    let d = reports_dir(turn);
    [format!("{d}/report.md"), format!("{d}/french.md"), format!("{d}/allies.md")]
}
