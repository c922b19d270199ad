//! The command line: clap's derive types, turned at once into a command to run.

use std::path::PathBuf;

use clap::{Parser, Subcommand};

/// The umpire's bridge between a Peninsular War hex-map campaign and Scourge of War
/// NapMod multiplayer battles.
#[derive(Debug, Parser)]
#[command(name = "sowbridge", version, about, long_about = None)]
pub struct Cli {
    /// The campaign folder.
    #[arg(long, global = true, env = "SOWBRIDGE_CAMPAIGN", default_value = "campaign")]
    pub campaign: PathBuf,
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// Output format flag shared by listing commands.
#[derive(Debug, Clone, Copy, clap::Args)]
pub struct JsonFlag {
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// Subcommands.
#[derive(Debug, Subcommand)]
pub enum Command {
    /// Load and validate the whole campaign; list every problem with file and line.
    Check(JsonFlag),
    /// Turn and date, forces per side, contacts.
    Status(JsonFlag),
    /// Every hex where enemy forces are in contact (rules 8.1, 8.3).
    Contacts(JsonFlag),
}
