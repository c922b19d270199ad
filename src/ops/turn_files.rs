//! Where a turn's reports are written: `turns/T<n>/`, the umpire's report and each side's.

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
