//! The `kifu` binary: parses the command line and hands over to the library.

fn main() -> std::process::ExitCode {
    eprintln!("kifu: the command line is not wired up yet");
    std::process::ExitCode::from(2)
}
