//! The `kifu` binary: parses the command line, hands it to the library, and maps the outcome to
//! an exit status (see `kifu::cli`).
//!
//! It keeps Rust's own runtime start: bringing a C `main` instead saved about 120,000
//! instructions of an empty run (glibc parsing `/proc/self/maps` for the main thread's stack
//! bounds) but lost the runtime's stack-overflow message and its SIGPIPE and exit handling,
//! which would then be done here by hand; about 0.3% of a small collection's check was not
//! worth that.

use std::io::ErrorKind;
use std::process::ExitCode;

use clap::{CommandFactory, FromArgMatches};

fn main() -> ExitCode {
    let cli = parse_command_line();
    match kifu::cli::run(cli) {
        Ok(code) => ExitCode::from(code),
        // Standard output closed early (`| head`): not an error, by Unix convention.
        Err(err) if err.kind() == ErrorKind::BrokenPipe => ExitCode::SUCCESS,
        Err(err) => {
            eprintln!("kifu: {err}");
            ExitCode::from(kifu::cli::FAILURE_EXIT_CODE)
        }
    }
}

/// `Cli::parse()`, without freeing the command definition afterwards: dropping the options and
/// help clap built cost about 43,000 instructions for nothing, since the process ends soon
/// after.
fn parse_command_line() -> kifu::cli::Cli {
    let mut command = kifu::cli::Cli::command();
    let mut matches = command.get_matches_mut();
    let cli = kifu::cli::Cli::from_arg_matches_mut(&mut matches)
        .unwrap_or_else(|err| err.format(&mut command).exit());
    std::mem::forget(command);
    cli
}
