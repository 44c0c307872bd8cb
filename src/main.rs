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

/// mimalloc rather than glibc's malloc: at two threads the workers free what another thread
/// allocated (a game's report is made on a worker, written by the calling thread and freed on
/// whichever worker is free; a batch's items come from the reader), and glibc does that under
/// the other thread's arena lock, with its chunk headers and bins bouncing between the cores.
/// mimalloc hands such a block back through a lock-free list of its page. `kifu check` on the
/// bench's professional games, `-j1` on one core alternated with `-j2` on two, 15 rounds with
/// every other process stopped: `-j2` 45.1 -> 41.8 ms (CPU 78.0 -> 75.9 ms), two cores 1.64x ->
/// 1.77x one, `-j1` the same (74.0 and 74.1 ms); ten copies of the bench's collection 1.74x ->
/// 1.81x; `kifu audit -j1` on 600 of the games -2.7% CPU (BENCHMARKS.md, sixth session of 5
/// December). Peak memory 13-14 -> 16-17 MB for one copy of the collection and for ten: still
/// flat.
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

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
