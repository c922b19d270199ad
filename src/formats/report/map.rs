//! The map's message: the picture written and what it shows.

use std::path::Path;

use crate::rules::intel::known::ForcesView;

/// "wrote FILE (what it shows, the pairs in contact)", for stderr.
pub fn wrote(out: &Path, view: &ForcesView) -> String {
    let enemy = view.viewer.map(|s| view.forces.iter().filter(|f| f.side() != s).count());
    let shown = match enemy {
        None => format!("{} forces", view.forces.len()),
        Some(e) => {
            let reported =
                view.forces.iter().filter(|f| Some(f.side()) != view.viewer && f.reported.is_some()).count();
            format!(
                "{} own forces and {e} enemy forces, in contact or reported by intelligence ({reported} reported)",
                view.forces.len() - e
            )
        }
    };
    let pairs = match view.contacts.len() {
        1 => "1 pair of forces in contact".to_string(),
        n => format!("{n} pairs of forces in contact"),
    };
    format!("wrote {} ({shown}, {pairs})", out.display())
}
