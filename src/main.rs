//! The `kifu` binary: parses the command line, hands it to the library, and maps the outcome to
//! an exit status (see `kifu::cli`).
//!
//! On Linux with glibc the binary brings its own C `main` instead of Rust's runtime start
//! (`std::rt::lang_start`), which costs more than kifu's whole run on a small input would
//! suggest: it reads and parses `/proc/self/maps` (about 120,000 instructions of `sscanf` on
//! the main thread's stack bounds) and sets up a signal stack for stack overflows on every
//! thread. Measured at 7191ac6 (`perf stat` on `kifu check -j1 -q` of an empty folder,
//! alternated runs): see the commit that made it. What the runtime start did that kifu needs is
//! done here: SIGPIPE is ignored, so a closed standard output is an error kifu handles (`| head`
//! ends quietly) rather than a signal that kills it; a panic is reported by the panic hook as
//! usual and ends the process with status 101; standard output is flushed on the way out. The
//! arguments are still there: glibc hands them to Rust's standard library before `main`. A
//! stack overflow now ends the process with SIGSEGV, without the runtime's one-line message.

#![cfg_attr(all(target_os = "linux", target_env = "gnu", not(test)), no_main)]

use std::io::ErrorKind;

use clap::{CommandFactory, FromArgMatches};

/// Exit status after a panic, as Rust's own runtime start gives.
#[cfg(all(target_os = "linux", target_env = "gnu", not(test)))]
const PANIC_EXIT_CODE: u8 = 101;

/// Parses the command line and runs it; the process's exit status.
fn run() -> u8 {
    let cli = parse_command_line();
    match kifu::cli::run(cli) {
        Ok(code) => code,
        // Standard output closed early (`| head`): not an error, by Unix convention.
        Err(err) if err.kind() == ErrorKind::BrokenPipe => 0,
        Err(err) => {
            eprintln!("kifu: {err}");
            kifu::cli::FAILURE_EXIT_CODE
        }
    }
}

/// `Cli::parse()`, without freeing the command definition afterwards: clap builds every
/// subcommand's options and help (about 300,000 instructions, a third of an empty run's), and
/// dropping them all again cost another 43,000 for nothing, since the process ends soon after.
fn parse_command_line() -> kifu::cli::Cli {
    let mut command = kifu::cli::Cli::command();
    let mut matches = command.get_matches_mut();
    let cli = kifu::cli::Cli::from_arg_matches_mut(&mut matches)
        .unwrap_or_else(|err| err.format(&mut command).exit());
    std::mem::forget(command);
    cli
}

#[cfg(all(target_os = "linux", target_env = "gnu", not(test)))]
#[unsafe(no_mangle)]
extern "C" fn main(
    _argc: std::ffi::c_int,
    _argv: *const *const std::ffi::c_char,
) -> std::ffi::c_int {
    /// `SIGPIPE` and `SIG_IGN` of `<signal.h>` (the same on every Linux).
    const SIGPIPE: std::ffi::c_int = 13;
    const SIG_IGN: usize = 1;
    unsafe extern "C" {
        fn signal(signum: std::ffi::c_int, handler: usize) -> usize;
    }
    // SAFETY: ignoring SIGPIPE installs no handler of ours; no other thread runs yet.
    unsafe {
        signal(SIGPIPE, SIG_IGN);
    }
    let code = std::panic::catch_unwind(run).unwrap_or(PANIC_EXIT_CODE);
    let _ = std::io::Write::flush(&mut std::io::stdout());
    code.into()
}

/// Elsewhere, and in the test harness (which brings its own `main`), Rust's runtime start.
#[cfg(not(all(target_os = "linux", target_env = "gnu", not(test))))]
fn main() -> std::process::ExitCode {
    std::process::ExitCode::from(run())
}
