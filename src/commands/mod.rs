//! One module per subcommand, wiring the store, formats and rules together.

pub mod apply;
pub mod check;
pub mod contacts;
pub mod export;
pub mod status;
pub mod turn;
pub mod vocab;

use anyhow::Result;

use crate::cli::{Cli, Command, ExportCommand, TurnCommand};
use crate::store::CampaignDir;

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    let dir = CampaignDir::new(&cli.campaign);
    match cli.command {
        Command::Check(j) => check::run(&dir, j.json),
        Command::Status(j) => status::run(&dir, j.json),
        Command::Contacts(j) => contacts::run(&dir, j.json),
        Command::Export(ExportCommand::Hex(a)) => export::run(&dir, &a),
        Command::Vocab(a) => vocab::run(&dir, a),
        Command::Apply(a) => apply::run(&dir, &a),
        Command::Turn(TurnCommand::Advance(a)) => turn::run(&dir, &a),
    }
}

/// Prints a value as pretty JSON on stdout.
pub fn print_json<T: serde::Serialize>(v: &T) -> Result<()> {
    println!("{}", serde_json::to_string_pretty(v)?);
    Ok(())
}
