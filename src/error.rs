//! Errors that name their place: every problem found in the umpire's files carries the file,
//! the line and the field, so that the umpire can go straight to it.

use std::fmt;

/// One problem found in an input file (or in the campaign as a whole).
#[derive(Debug, Clone, PartialEq, Eq, PartialOrd, Ord, serde::Serialize)]
pub struct Problem {
    /// The file, relative to the campaign folder where there is one.
    pub file: String,
    /// 1-based line number, when the problem sits on a line.
    pub line: Option<u64>,
    /// The column or key at fault.
    pub field: Option<String>,
    /// What is wrong, in the umpire's words.
    pub message: String,
}

impl Problem {
    /// A problem on a line and field of a file.
    pub fn at(file: &str, line: u64, field: &str, message: impl Into<String>) -> Self {
        Problem {
            file: file.to_string(),
            line: Some(line),
            field: if field.is_empty() { None } else { Some(field.to_string()) },
            message: message.into(),
        }
    }

    /// A problem of a whole file.
    pub fn in_file(file: &str, message: impl Into<String>) -> Self {
        Problem { file: file.to_string(), line: None, field: None, message: message.into() }
    }
}

impl fmt::Display for Problem {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.file)?;
        if let Some(line) = self.line {
            write!(f, ":{line}")?;
        }
        if let Some(field) = &self.field {
            write!(f, ": {field}")?;
        }
        write!(f, ": {}", self.message)
    }
}

/// Every problem found in one pass; validation collects them all before refusing.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Problems(pub Vec<Problem>);

impl Problems {
    /// Adds one problem.
    pub fn push(&mut self, p: Problem) {
        self.0.push(p);
    }
    /// True when nothing is wrong.
    pub fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// Number of problems.
    pub fn len(&self) -> usize {
        self.0.len()
    }
    /// Turns a non-empty collection into an error.
    pub fn into_result(mut self) -> Result<(), Error> {
        if self.0.is_empty() {
            Ok(())
        } else {
            self.0.sort();
            self.0.dedup();
            Err(Error::Rejected(self))
        }
    }
}

impl fmt::Display for Problems {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let n = self.0.len();
        writeln!(f, "{n} problem{}:", if n == 1 { "" } else { "s" })?;
        for p in &self.0 {
            writeln!(f, "  {p}")?;
        }
        Ok(())
    }
}

/// Library errors. `Rejected` is bad input (exit code 1); the rest are other failures (exit 2).
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// Input was read and refused; nothing was changed.
    #[error("{0}")]
    Rejected(Problems),
    /// A refusal by a campaign rule or a command's precondition; nothing was changed.
    #[error("{0}")]
    Refused(String),
    /// Not yet: the input is not complete or final (the watcher waits; exit 1 by hand).
    #[error("{0}")]
    Pending(String),
    /// An interim dump of a battle, refused as its result (the watcher sets it aside).
    #[error("{message}")]
    Interim {
        /// The battle it belongs to.
        battle: String,
        /// What the umpire reads.
        message: String,
    },
    /// A result of a battle that is no longer pending: nothing to do (exit 1).
    #[error("{0}")]
    Settled(String),
    /// A file the command must replace is held open by another program (Excel, the game);
    /// nothing was changed, and the same command succeeds once it is closed (exit 1).
    #[error("{0}")]
    HeldOpen(String),
    /// The file system failed. The I/O error is part of the message, not a separate
    /// source, so that the error chain says it once.
    #[error("{path}: {err}")]
    Io {
        /// The path being read or written.
        path: String,
        /// The underlying error.
        err: std::io::Error,
    },
    /// Anything else.
    #[error("{0}")]
    Other(String),
}

impl Error {
    /// A refusal with a message (exit 1).
    pub fn refused(msg: impl Into<String>) -> Self {
        Error::Refused(msg.into())
    }
    /// A single located problem (exit 1).
    pub fn problem(p: Problem) -> Self {
        Error::Rejected(Problems(vec![p]))
    }
    /// Wraps an I/O error with the path it happened on.
    pub fn io(path: impl AsRef<std::path::Path>, source: std::io::Error) -> Self {
        Error::Io { path: path.as_ref().display().to_string(), err: source }
    }
    /// True for input rejected by validation or a rule (exit code 1).
    pub fn is_rejection(&self) -> bool {
        matches!(
            self,
            Error::Rejected(_)
                | Error::Refused(_)
                | Error::Pending(_)
                | Error::Interim { .. }
                | Error::Settled(_)
                | Error::HeldOpen(_)
        )
    }
}

/// Result with the library error.
pub type Result<T, E = Error> = std::result::Result<T, E>;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_io_error_is_said_once_in_the_whole_chain() {
        let e = anyhow::Error::from(Error::io("forces.csv", std::io::Error::other("Access denied.")));
        assert_eq!(format!("{e:#}"), "forces.csv: Access denied.");
    }
}
