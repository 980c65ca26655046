//! Writing to stdout. A reader that has gone away (`tablut-bot replay < game.txt | head -c 200`)
//! ends the command quietly, as Unix tools do, rather than with a panic: every command prints
//! through [`line`], and its error [`CliError::Closed`] ends the process with exit code 0 and
//! nothing on stderr.

use super::common::CliError;
use std::fmt::Display;
use std::io::{self, Write};

/// Prints `text` and a newline on stdout, flushed: [`CliError::Closed`] if the reader has
/// closed its end, a one-line failure for any other error.
pub(super) fn line(text: impl Display) -> Result<(), CliError> {
    let mut out = io::stdout().lock();
    writeln!(out, "{text}")
        .and_then(|()| out.flush())
        .map_err(error)
}

/// A failed write to stdout as the command's error.
pub(super) fn error(e: io::Error) -> CliError {
    if e.kind() == io::ErrorKind::BrokenPipe {
        CliError::Closed
    } else {
        CliError::Failed(format!("cannot write to stdout: {e}"))
    }
}
