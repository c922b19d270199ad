//! Closed pipes: output read by `head` or a pager that stops early (`sowbridge vocab check X
//! 2>&1 | head -1`, `sowbridge status | more` on Windows) never panics the program; the
//! command ends with the exit code it has with its output read to the end.

use std::process::{Command, Output, Stdio};

use crate::common::*;

/// A pipe whose reading end is already closed: every write to it fails.
fn closed_pipe() -> std::io::PipeWriter {
    let (reader, writer) = std::io::pipe().unwrap();
    drop(reader);
    writer
}

fn run(campaign: &std::path::Path, args: &[&str], stdout: Stdio, stderr: Stdio) -> Output {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_sowbridge"));
    cmd.arg("--campaign")
        .arg(campaign)
        .args(args)
        .env_remove("SOWBRIDGE_CAMPAIGN")
        .stdin(Stdio::null())
        .stdout(stdout)
        .stderr(stderr);
    output(&mut cmd)
}

fn commands(install: &str) -> Vec<Vec<String>> {
    [
        &["status"][..],
        &["status", "--json"],
        &["contacts"],
        &["check"],
        &["battles"],
        &["vocab", "check", install, "--profile", "napmod-g1"],
        &["export", "hex", "18.28", "--dry-run"],
        &["battle", "show", "T1-00.00"],
    ]
    .iter()
    .map(|a| a.iter().map(|s| s.to_string()).collect())
    .collect()
}

#[test]
fn a_closed_stdout_and_stderr_never_panic_and_keep_the_exit_code() {
    let c = Camp::new("peninsula");
    let install = c.tmp.path().join("empty-install");
    std::fs::create_dir_all(&install).unwrap();
    for args in commands(install.to_str().unwrap()) {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let read = c.run(&args);
        let expected = read.status.code();
        assert!(matches!(expected, Some(0..=2)), "{args:?}: {}", stderr(&read));
        let pipe = closed_pipe();
        let o = run(&c.dir, &args, Stdio::from(pipe.try_clone().unwrap()), Stdio::from(pipe));
        assert_eq!(o.status.code(), expected, "{args:?} with stdout and stderr closed");
        let o = run(&c.dir, &args, Stdio::from(closed_pipe()), Stdio::piped());
        assert_eq!(o.status.code(), expected, "{args:?} with stdout closed: {}", stderr(&o));
        assert!(!stderr(&o).contains("panicked"), "{args:?}: {}", stderr(&o));
        let o = run(&c.dir, &args, Stdio::piped(), Stdio::from(closed_pipe()));
        assert_eq!(o.status.code(), expected, "{args:?} with stderr closed");
        assert_eq!(o.stdout, read.stdout, "{args:?}: stdout changed when stderr was closed");
    }
}

#[test]
fn a_writing_command_with_its_output_closed_still_does_its_work() {
    let c = Camp::new("peninsula");
    let out = c.tmp.path().join("out");
    let pipe = closed_pipe();
    let args = ["export", "hex", "18.28", "--out", out.to_str().unwrap()];
    let o = run(&c.dir, &args, Stdio::from(pipe.try_clone().unwrap()), Stdio::from(pipe));
    assert_eq!(o.status.code(), Some(0));
    assert!(c.path("battles/T20-18.28/battle.json").is_file(), "the export was not committed");
    assert!(out.join("OOBs").join("T20-18.28.csv").is_file());
}
