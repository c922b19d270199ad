//! Writes a synthetic campaign folder for measuring sowbridge at scale:
//!
//! ```text
//! cargo run --release --example gen_campaign -- --forces 10000 --out /tmp/big [--seed 1808] [--contacts 32]
//! ```
//!
//! The folder passes `sowbridge check`; the hexes of its contacts are printed, one a line,
//! for `sowbridge export hex`.
#![allow(clippy::unwrap_used, clippy::expect_used)]

#[path = "../tests/support/synth.rs"]
mod synth;

use std::path::PathBuf;
use std::process::ExitCode;

fn usage() -> ExitCode {
    eprintln!("usage: gen_campaign --forces N --out DIR [--seed S] [--contacts K]");
    ExitCode::from(2)
}

fn main() -> ExitCode {
    let mut forces = None;
    let mut out = None;
    let mut seed = 1808u64;
    let mut contacts = None;
    let mut args = std::env::args().skip(1);
    while let Some(a) = args.next() {
        let Some(v) = args.next() else { return usage() };
        match a.as_str() {
            "--forces" => forces = v.parse::<usize>().ok(),
            "--out" => out = Some(PathBuf::from(v)),
            "--seed" => match v.parse() {
                Ok(s) => seed = s,
                Err(_) => return usage(),
            },
            "--contacts" => contacts = v.parse::<usize>().ok(),
            _ => return usage(),
        }
    }
    let (Some(forces), Some(out)) = (forces, out) else { return usage() };
    let s = synth::generate(&synth::SynthOptions { forces, seed, contacts });
    if let Err(e) = s.write_to(&out) {
        eprintln!("{}: {e}", out.display());
        return ExitCode::FAILURE;
    }
    eprintln!(
        "{}: {} forces, {} rows of order of battle, {} contacts",
        out.display(),
        s.forces,
        s.rows,
        s.contact_hexes.len()
    );
    for h in &s.contact_hexes {
        println!("{h}");
    }
    ExitCode::SUCCESS
}
