//! Checks that screenshots of sowbridge's HTML pages are not blank: each PNG must hold a
//! picture, not one colour. `.ci/browser-check` takes the screenshots in a real browser
//! (headless Chromium) and runs this on them:
//!
//! ```text
//! cargo run --example page_check -- umpire.png french.png
//! ```
//!
//! A page counts as drawn when at least 5 % of its pixels differ from its most common colour
//! and it has at least 16 colours (the campaign map's ground, roads, rivers, the sides).
#![allow(clippy::print_stderr)]

use std::collections::HashMap;
use std::process::ExitCode;

use resvg::tiny_skia::Pixmap;

fn check(path: &str) -> Result<String, String> {
    let p = Pixmap::load_png(path).map_err(|e| format!("{path}: {e}"))?;
    let mut counts: HashMap<[u8; 4], usize> = HashMap::new();
    for px in p.pixels() {
        let c = px.demultiply();
        *counts.entry([c.red(), c.green(), c.blue(), c.alpha()]).or_default() += 1;
    }
    let total = p.pixels().len();
    let commonest = counts.values().copied().max().unwrap_or(0);
    let other = (total - commonest) as f64 / total.max(1) as f64;
    let verdict = format!(
        "{path}: {}x{}, {} colours, {:.1} % off the background",
        p.width(),
        p.height(),
        counts.len(),
        100.0 * other
    );
    if other < 0.05 || counts.len() < 16 {
        return Err(format!("{verdict}: blank"));
    }
    Ok(verdict)
}

fn main() -> ExitCode {
    let paths: Vec<String> = std::env::args().skip(1).collect();
    if paths.is_empty() {
        eprintln!("usage: page_check SHOT.png...");
        return ExitCode::from(2);
    }
    let mut failed = false;
    for p in &paths {
        match check(p) {
            Ok(v) => eprintln!("{v}"),
            Err(e) => {
                eprintln!("{e}");
                failed = true;
            }
        }
    }
    if failed { ExitCode::FAILURE } else { ExitCode::SUCCESS }
}
