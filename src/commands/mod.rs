//! One module per subcommand, wiring the store, formats and rules together.

pub mod apply;
pub mod audit;
pub mod battles;
pub mod calibrate;
pub mod check;
pub mod contacts;
pub mod demo;
pub mod export;
pub mod inspect;
pub mod map;
pub mod march;
pub mod messages;
pub mod sieges;
pub mod status;
pub mod supply;
pub mod turn;
pub mod undo;
pub mod vocab;
pub mod watch;

use anyhow::Result;

use crate::cli::{BattleCommand, Cli, Command, ExportCommand, TurnCommand};
use crate::store::CampaignDir;

/// Runs a parsed command line.
pub fn run(cli: Cli) -> Result<()> {
    let dir = CampaignDir::new(&cli.campaign);
    // No command, read-only ones included, shows a half-committed campaign: a change that
    // an interrupted command committed is finished first (or the command refuses, saying why).
    if let Some(done) = dir.finish_unfinished_change()?
        && done.operation.is_some()
        && done.operation == operation(&cli.command)
    {
        // Recovery is not a second run: the change asked for is the one just finished.
        crate::errln!(
            "that is the change this command asks for: {} is done now, and it is not made a second time",
            done.describe()
        );
        return Ok(());
    }
    if matches!(
        cli.command,
        Command::Apply(_)
            | Command::Move(_)
            | Command::Messages(_)
            | Command::Undo { .. }
            | Command::Turn(_)
            | Command::Export(_)
    ) {
        // A writing command cut short by Ctrl-C says, in one line, what it leaves.
        let _ = ctrlc::set_handler(|| {
            crate::errln!("{}", crate::store::commit::interrupted_message());
            std::process::exit(130);
        });
    }
    match cli.command {
        Command::Check(j) => check::run(&dir, j.json),
        Command::Status(j) => status::run(&dir, j.json),
        Command::Contacts(a) => contacts::run(&dir, &a),
        Command::Supply(j) => supply::run(&dir, j.json),
        Command::Export(ExportCommand::Hex(a)) => export::run(&dir, &a),
        Command::Map(a) => map::run(&dir, &a),
        Command::Vocab(a) => vocab::run(&dir, a),
        Command::Apply(a) => apply::run(&dir, &a),
        Command::Move(a) => march::run(&dir, &a),
        Command::Messages(a) => messages::run(&dir, &a),
        Command::Undo { battle, dry_run } => undo::run(&dir, &battle, dry_run),
        Command::Audit(j) => audit::run(&dir, j.json),
        Command::Sieges(j) => sieges::run(&dir, j.json),
        Command::Battles(j) => battles::list(&dir, j.json),
        Command::Battle(BattleCommand::Show { id, html: Some(out), side, .. }) => {
            battles::page(&dir, &id, &out, side)
        }
        Command::Battle(BattleCommand::Show { id, briefing, umpire, json, .. }) => {
            battles::show(&dir, &id, briefing.map(|s| (s, umpire)), json)
        }
        Command::Battle(BattleCommand::Template { id, out }) => battles::template(&dir, &id, out.as_deref()),
        Command::Battle(BattleCommand::Cancel { id, dry_run }) => battles::cancel(&dir, &id, dry_run),
        Command::Watch(a) => watch::run(&dir, &a),
        Command::Demo { dir: folder } => demo::run(&folder),
        Command::Calibrate { out, profile } => calibrate::run(&dir, out.as_deref(), profile.as_deref()),
        Command::Inspect { paths, json, write } => inspect::run(&dir, &paths, json, write),
        Command::Turn(TurnCommand::Advance(a)) => turn::run(&dir, &a),
    }
}

/// What a writing command is asked to do, in words that a change's manifest records
/// ([`crate::store::Commit::operation`]): the same words for the same request (the same turn
/// advance, the same result file, the same orders, the same undo). `None` for a command that
/// writes no journalled change, or a dry run.
pub fn operation(command: &Command) -> Option<String> {
    match command {
        Command::Turn(TurnCommand::Advance(a)) if !a.dry_run => Some(crate::ops::turn::OPERATION.to_string()),
        Command::Apply(a) if !a.dry_run => {
            let input = crate::formats::results::read_result_input(&a.file).ok()?;
            Some(crate::ops::apply::operation(&crate::store::journal::sha256_hex(&input.bytes)))
        }
        Command::Move(a) if !a.dry_run => crate::ops::march::operation(&a.orders),
        Command::Messages(a) if !a.dry_run => crate::ops::messages::operation(&a.file),
        Command::Undo { battle, dry_run: false } if battle.eq_ignore_ascii_case("turn") => {
            Some("undo turn".to_string())
        }
        Command::Undo { battle, dry_run: false } => Some(format!("undo {battle}")),
        _ => None,
    }
}

/// Lets go of a campaign (or a turn's outcome) a one-shot command is done with, without
/// freeing it row by row: the process ends right after, and the operating system takes its
/// memory back at once (a large order of battle is hundreds of thousands of rows). Never for
/// `watch`, which loads a campaign for every result it applies.
pub(crate) fn done_with<T>(value: T) {
    std::mem::forget(value);
}

/// Prints a value as pretty JSON on stdout.
pub fn print_json<T: serde::Serialize>(v: &T) -> Result<()> {
    crate::outln!("{}", serde_json::to_string_pretty(v)?);
    Ok(())
}
