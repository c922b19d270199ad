//! What `demo` tells a newcomer once the example campaign is written: where it is, the
//! commands that look at the battle before anything changes, and where the whole battle day
//! is told.

use std::path::Path;

/// Where the example is and what to run next (stderr, after the export's own lines). Each
/// command suggested only looks: the README's battle day, which applies the result, undoes
/// it and advances the turn, starts from the folder exactly as the demo left it.
pub fn next_steps(campaign: &Path, out: &Path, result: &Path) -> String {
    format!(
        "\nThe example campaign is in {}, its battle of Medellín exported into {}.\nNext, look \
         before anything changes:\n  \
         sowbridge --campaign {c} status\n  \
         sowbridge --campaign {c} battle show T20-18.28 --briefing allies\n  \
         sowbridge --campaign {c} apply {r} --dry-run\n\
         Then the whole battle day (the result applied, undone, the turn advanced), step by step: \
         README.md, \"The umpire's battle day\".",
        campaign.display(),
        out.display(),
        c = quoted(campaign),
        r = quoted(result),
    )
}

/// A path as it can be typed back into a shell: quoted when it holds a space.
fn quoted(p: &Path) -> String {
    let s = p.display().to_string();
    if s.contains(' ') { format!("\"{s}\"") } else { s }
}
