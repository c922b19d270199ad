//! The `sowbridge` binary: parse the command line, run, print the whole error chain and
//! exit 0 (ok), 1 (input rejected, nothing changed) or 2 (any other failure). Everything is
//! printed through `sowbridge::output`, so a closed pipe never panics.
#![warn(clippy::print_stdout, clippy::print_stderr)]

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = sowbridge::cli::Cli::parse();
    match sowbridge::commands::run(cli) {
        // Output lost other than to a reader that has gone (a full disk): not a success.
        Ok(()) => match sowbridge::output::stdout_failure() {
            Some(why) => {
                sowbridge::errln!("error: the output could not be written: {why}");
                ExitCode::from(2)
            }
            None => ExitCode::SUCCESS,
        },
        Err(e) => {
            let rejected = e.downcast_ref::<sowbridge::Error>().is_some_and(sowbridge::Error::is_rejection);
            sowbridge::errln!("error: {e:#}");
            ExitCode::from(if rejected { 1 } else { 2 })
        }
    }
}
