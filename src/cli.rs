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
    /// Prove the profile's SoW ids against an installed mod's Logistics folder.
    Vocab(VocabArgs),
}

/// `vocab` and its subcommands.
#[derive(Debug, clap::Args)]
pub struct VocabArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: VocabCommand,
}

/// Subcommands of `vocab`.
#[derive(Debug, Subcommand)]
pub enum VocabCommand {
    /// List every class, drill, weapon and quality level of the vocabulary that the install
    /// lacks (exit 1 when anything is missing).
    Check(VocabCheckArgs),
    /// Write a starting vocabulary chosen from the install's Logistics files.
    Init(VocabInitArgs),
}

/// The install and the vocabulary a `vocab` command works on.
#[derive(Debug, clap::Args)]
pub struct VocabSource {
    /// The mod's Logistics folder (or the mod's own folder holding `Logistics`).
    pub dir: PathBuf,
    /// A folder layered under DIR, such as the base game's Logistics; files the mod does not
    /// ship come from it. Repeat for more layers, lowest first.
    #[arg(long = "base", value_name = "DIR")]
    pub base: Vec<PathBuf>,
    /// The profile whose vocabulary to use (default: `profile` in campaign.toml).
    #[arg(long)]
    pub profile: Option<String>,
}

/// `vocab check`.
#[derive(Debug, clap::Args)]
pub struct VocabCheckArgs {
    /// The install and the vocabulary.
    #[command(flatten)]
    pub source: VocabSource,
    /// Print JSON instead of text.
    #[arg(long)]
    pub json: bool,
}

/// `vocab init`.
#[derive(Debug, clap::Args)]
pub struct VocabInitArgs {
    /// The install and the vocabulary whose rows to fill.
    #[command(flatten)]
    pub source: VocabSource,
    /// Folder to write into (default: the campaign's `templates/<profile>/`).
    #[arg(long, value_name = "DIR")]
    pub out: Option<PathBuf>,
    /// Overwrite existing files.
    #[arg(long)]
    pub force: bool,
}
