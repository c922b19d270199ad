//! Printing that a closed pipe cannot crash. `println!` panics when its reader has gone
//! (`sowbridge vocab check X 2>&1 | head -1`, `sowbridge status | more` on Windows), and a
//! panic is exit code 101. Everything sowbridge prints goes through [`outln!`](crate::outln),
//! [`out!`](crate::out), [`errln!`](crate::errln) and [`errout!`](crate::errout) instead: once
//! a stream cannot be written (its reader has gone), the rest of what goes to it is dropped,
//! and the command carries on to its end with its own exit code. A writing command is never
//! stopped half-way because nobody reads its report.

use std::fmt;
use std::io::Write;
use std::sync::atomic::{AtomicBool, Ordering};

static STDOUT_GONE: AtomicBool = AtomicBool::new(false);
static STDERR_GONE: AtomicBool = AtomicBool::new(false);
/// Why stdout could not be written, when it was not for its reader having gone (a full
/// disk, a failing device): the data is lost, and the command must not say it succeeded.
static STDOUT_FAILED: std::sync::OnceLock<String> = std::sync::OnceLock::new();

/// Why the output on stdout could not be written, when it was lost for any reason other than
/// its reader having gone (`sowbridge status > file` on a full disk).
pub fn stdout_failure() -> Option<&'static str> {
    STDOUT_FAILED.get().map(String::as_str)
}

/// Writes to stdout, unless it has failed before (what [`outln!`](crate::outln) calls).
#[doc(hidden)]
pub fn print_stdout(args: fmt::Arguments<'_>) {
    if let Some(e) = write_or_drop(&mut std::io::stdout().lock(), &STDOUT_GONE, args)
        && e.kind() != std::io::ErrorKind::BrokenPipe
    {
        let _ = STDOUT_FAILED.set(e.to_string());
    }
}

/// Writes to stderr, unless it has failed before (what [`errln!`](crate::errln) calls).
#[doc(hidden)]
pub fn print_stderr(args: fmt::Arguments<'_>) {
    write_or_drop(&mut std::io::stderr().lock(), &STDERR_GONE, args);
}

/// Writes `args` to `w` unless `gone`; a failed write sets `gone` and is returned: the
/// rest of the output is dropped, and the command goes on to its end.
fn write_or_drop(w: &mut impl Write, gone: &AtomicBool, args: fmt::Arguments<'_>) -> Option<std::io::Error> {
    if gone.load(Ordering::Relaxed) {
        return None;
    }
    let e = w.write_fmt(args).and_then(|()| w.flush()).err()?;
    gone.store(true, Ordering::Relaxed);
    Some(e)
}

/// `println!` for sowbridge: a closed stdout ends the output, not the program.
#[macro_export]
macro_rules! outln {
    () => {
        $crate::output::print_stdout(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::print_stdout(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `print!` for sowbridge: a closed stdout ends the output, not the program.
#[macro_export]
macro_rules! out {
    ($($arg:tt)*) => {
        $crate::output::print_stdout(format_args!($($arg)*))
    };
}

/// `eprintln!` for sowbridge: a closed stderr ends the messages, not the program.
#[macro_export]
macro_rules! errln {
    () => {
        $crate::output::print_stderr(format_args!("\n"))
    };
    ($($arg:tt)*) => {
        $crate::output::print_stderr(format_args!("{}\n", format_args!($($arg)*)))
    };
}

/// `eprint!` for sowbridge: a closed stderr ends the messages, not the program.
#[macro_export]
macro_rules! errout {
    ($($arg:tt)*) => {
        $crate::output::print_stderr(format_args!($($arg)*))
    };
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pipe whose reader has gone: every write fails, and is counted.
    #[derive(Debug, Default)]
    struct ClosedPipe {
        writes: usize,
    }

    impl Write for ClosedPipe {
        fn write(&mut self, _: &[u8]) -> std::io::Result<usize> {
            self.writes += 1;
            Err(std::io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> std::io::Result<()> {
            Ok(())
        }
    }

    #[test]
    fn a_closed_pipe_is_written_to_once_and_then_left_alone() {
        let gone = AtomicBool::new(false);
        let mut pipe = ClosedPipe::default();
        write_or_drop(&mut pipe, &gone, format_args!("first line\n"));
        assert!(gone.load(Ordering::Relaxed));
        write_or_drop(&mut pipe, &gone, format_args!("second line\n"));
        assert_eq!(pipe.writes, 1);
    }

    #[test]
    fn an_open_stream_gets_every_line() {
        let gone = AtomicBool::new(false);
        let mut buf = Vec::new();
        write_or_drop(&mut buf, &gone, format_args!("a {}\n", 1));
        write_or_drop(&mut buf, &gone, format_args!("b\n"));
        assert_eq!(buf, b"a 1\nb\n");
        assert!(!gone.load(Ordering::Relaxed));
    }
}
