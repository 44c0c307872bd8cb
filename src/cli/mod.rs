//! The command line: one module per subcommand, each with its clap `Args` and a `run`.
//!
//! [`Cli`] is parsed by `main.rs`, which hands it to [`run`] and turns the result into the
//! process's exit status: 0 when a run completed (whatever it found), 2 when it could not run
//! (bad arguments, unreadable list of paths, unwritable report folder), 130 after Ctrl-C, and 0
//! quietly when standard output was closed early (`kifu check ... | head`).
//!
//! - [`audit`]: the main job, a report folder of CSV files;
//! - [`check`]: findings on standard output;
//! - [`score`]: scores on standard output;
//! - [`show`]: one position as a board diagram;
//! - [`rules`]: the ruleset presets;
//! - [`codes`]: the finding codes;
//! - [`dedupe`]: groups of duplicate games into `duplicates.csv`;
//! - [`clean`]: a cleaned copy of a corpus with a manifest;
//! - [`args`]: option groups the reading commands share; [`session`]: what they share at run time.

pub mod args;
pub mod audit;
pub mod check;
pub mod clean;
pub mod codes;
pub mod dedupe;
pub mod rules;
pub mod score;
pub mod session;
pub mod show;

use std::io;

use clap::{Parser, Subcommand};

/// Exit status when a run could not start or could not write its output.
pub const FAILURE_EXIT_CODE: u8 = 2;

/// kifu audits Go (weiqi, baduk) game records in SGF at corpus scale.
#[derive(Parser, Debug)]
#[command(
    name = "kifu",
    version,
    about = "Audit Go (weiqi, baduk) game records in SGF at corpus scale: parse, replay under \
             real rulesets, rescore, report as CSV.",
    long_about = "Audit Go (weiqi, baduk) game records in SGF at corpus scale.\n\nkifu reads \
                  files, folders, multi-game collections and archives, replays every game \
                  under its rules (occupied points, suicide, ko, superko, moves out of turn or \
                  after the end), recomputes the result under several rulesets, compares it \
                  with the recorded result, and writes CSV reports.",
    after_help = "Exit status: 0 when the run completed, whatever it found; 2 when it could not \
                  run; 130 when stopped by Ctrl-C.\n\nStart with: kifu audit corpus",
    propagate_version = true,
    arg_required_else_help = true
)]
pub struct Cli {
    /// What to do.
    #[command(subcommand)]
    pub command: Command,
}

/// The subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Audit games into a report folder: games.csv, findings.csv, scores.csv,
    /// disagreements.csv and summary.txt.
    Audit(audit::Args),
    /// Check legality and format only; findings as CSV on standard output.
    Check(check::Args),
    /// Score every game under the requested rulesets; CSV on standard output.
    Score(score::Args),
    /// Show the board of one game at a move, with prisoners and findings so far.
    Show(show::Args),
    /// List the ruleset presets and their parameters.
    Rules(rules::Args),
    /// List the finding codes with their severity and meaning.
    Codes(codes::Args),
    /// Find duplicate games (rotated, mirrored, truncated, other metadata) into
    /// duplicates.csv.
    Dedupe(dedupe::Args),
    /// Write a cleaned copy of the games (UTF-8, normalised RE/KM/HA/AB) into a new folder,
    /// with a manifest of every input game.
    Clean(clean::Args),
}

/// Runs a parsed command line; the exit status when it ran (0, or 130 after Ctrl-C).
pub fn run(cli: Cli) -> io::Result<u8> {
    match cli.command {
        Command::Audit(args) => audit::run(&args),
        Command::Check(args) => check::run(&args),
        Command::Score(args) => score::run(&args),
        Command::Show(args) => {
            let mut out = io::BufWriter::new(io::stdout().lock());
            let code = show::run(&args, &mut out)?;
            io::Write::flush(&mut out)?;
            Ok(code)
        }
        Command::Rules(args) => print_to_stdout(|out| rules::run(&args, out)),
        Command::Codes(args) => print_to_stdout(|out| codes::run(&args, out)),
        Command::Dedupe(args) => dedupe::run(&args),
        Command::Clean(args) => clean::run(&args),
    }
}

fn print_to_stdout(
    f: impl FnOnce(&mut io::BufWriter<io::StdoutLock>) -> io::Result<()>,
) -> io::Result<u8> {
    let mut out = io::BufWriter::new(io::stdout().lock());
    f(&mut out)?;
    io::Write::flush(&mut out)?;
    Ok(0)
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::CommandFactory;

    #[test]
    fn the_command_line_definition_is_consistent() {
        Cli::command().debug_assert();
    }
}
