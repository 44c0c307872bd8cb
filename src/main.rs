//! The `kifu` binary: parses the command line, hands it to the library, and maps the outcome to
//! an exit status (see `kifu::cli`).

use std::io::ErrorKind;
use std::process::ExitCode;

use clap::Parser;

fn main() -> ExitCode {
    let cli = kifu::cli::Cli::parse();
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
