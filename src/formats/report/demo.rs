//! What `demo` tells a newcomer once the example campaign is written: where it is, and the
//! battle day's commands to try next.

use std::path::Path;

/// Where the example is and what to run next (stderr, after the export's own lines).
pub fn next_steps(campaign: &Path, out: &Path, result: &Path) -> String {
    format!(
        "\nThe example campaign is in {}, its battle of Medellín exported into {}.\nNext, the battle day:\n  \
         sowbridge --campaign {c} battle show T20-18.28 --briefing allies\n  \
         sowbridge --campaign {c} apply {r}\n  \
         sowbridge --campaign {c} battle show T20-18.28\n  \
         sowbridge --campaign {c} undo T20-18.28\n  \
         sowbridge --campaign {c} apply {r} --winner draw\n  \
         sowbridge --campaign {c} turn advance",
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
