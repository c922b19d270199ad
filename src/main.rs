//! The `sowbridge` binary: parse the command line, run, print the whole error chain and
//! exit 0 (ok), 1 (input rejected, nothing changed) or 2 (any other failure).

use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    // Output piped into `head` or a closed pager ends the program quietly, as in other
    // command-line tools, instead of a panic about a broken pipe.
    let default_hook = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let msg = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if msg.contains("failed printing to stdout") && msg.contains("Broken pipe") {
            std::process::exit(0);
        }
        default_hook(info);
    }));
    let cli = sowbridge::cli::Cli::parse();
    match sowbridge::commands::run(cli) {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            let rejected = e.downcast_ref::<sowbridge::Error>().is_some_and(sowbridge::Error::is_rejection);
            eprintln!("error: {e:#}");
            ExitCode::from(if rejected { 1 } else { 2 })
        }
    }
}
