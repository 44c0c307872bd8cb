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

use clap::builder::{Resettable, StyledStr};
use clap::{ArgMatches, Args, FromArgMatches, Parser, Subcommand};

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
    Audit(Deferred<audit::Args>),
    /// Check legality and format only; findings as CSV on standard output.
    Check(Deferred<check::Args>),
    /// Score every game under the requested rulesets; CSV on standard output.
    Score(Deferred<score::Args>),
    /// Show the board of one game at a move, with prisoners and findings so far.
    Show(Deferred<show::Args>),
    /// List the ruleset presets and their parameters.
    Rules(Deferred<rules::Args>),
    /// List the finding codes with their severity and meaning.
    Codes(Deferred<codes::Args>),
    /// Find duplicate games (rotated, mirrored, truncated, other metadata) into
    /// duplicates.csv.
    Dedupe(Deferred<dedupe::Args>),
    /// Write a cleaned copy of the games (UTF-8, normalised RE/KM/HA/AB) into a new folder,
    /// with a manifest of every input game.
    Clean(Deferred<clean::Args>),
}

/// A subcommand's options, defined only when that subcommand is used.
///
/// clap builds the whole command line (every option of every subcommand, with its help) before
/// it parses a word of it: about 270,000 instructions, a quarter of a run of `kifu check` on an
/// empty folder, where the one subcommand used needs a fifth of that. Its options are added when
/// clap needs them (`Command::defer`): to parse the subcommand's arguments, show its help, or
/// check the definition (the test below builds them all).
#[derive(Clone, Debug)]
pub struct Deferred<A>(pub A);

impl<A: Args> Args for Deferred<A> {
    fn augment_args(cmd: clap::Command) -> clap::Command {
        cmd.defer(|cmd| keeping_about(cmd, A::augment_args))
    }

    fn augment_args_for_update(cmd: clap::Command) -> clap::Command {
        cmd.defer(|cmd| keeping_about(cmd, A::augment_args_for_update))
    }

    fn group_id() -> Option<clap::Id> {
        A::group_id()
    }
}

/// `augment(cmd)`, with the description `cmd` had before: the one the subcommand's variant
/// gives above, set before the deferred options are added, where the options' own (`Options of
/// ...`) would otherwise replace it.
fn keeping_about(cmd: clap::Command, augment: fn(clap::Command) -> clap::Command) -> clap::Command {
    let about = cmd.get_about().cloned();
    let long_about = cmd.get_long_about().cloned();
    let cmd = augment(cmd);
    let reset_or = |text: Option<StyledStr>| text.map_or(Resettable::Reset, Resettable::Value);
    cmd.about(reset_or(about)).long_about(reset_or(long_about))
}

impl<A: FromArgMatches> FromArgMatches for Deferred<A> {
    fn from_arg_matches(matches: &ArgMatches) -> Result<Self, clap::Error> {
        A::from_arg_matches(matches).map(Deferred)
    }

    fn from_arg_matches_mut(matches: &mut ArgMatches) -> Result<Self, clap::Error> {
        A::from_arg_matches_mut(matches).map(Deferred)
    }

    fn update_from_arg_matches(&mut self, matches: &ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches(matches)
    }

    fn update_from_arg_matches_mut(&mut self, matches: &mut ArgMatches) -> Result<(), clap::Error> {
        self.0.update_from_arg_matches_mut(matches)
    }
}

/// Runs a parsed command line; the exit status when it ran (0, or 130 after Ctrl-C).
pub fn run(cli: Cli) -> io::Result<u8> {
    match cli.command {
        Command::Audit(Deferred(args)) => audit::run(&args),
        Command::Check(Deferred(args)) => check::run(&args),
        Command::Score(Deferred(args)) => score::run(&args),
        Command::Show(Deferred(args)) => {
            let mut out = io::BufWriter::new(io::stdout().lock());
            let code = show::run(&args, &mut out)?;
            io::Write::flush(&mut out)?;
            Ok(code)
        }
        Command::Rules(Deferred(args)) => print_to_stdout(|out| rules::run(&args, out)),
        Command::Codes(Deferred(args)) => print_to_stdout(|out| codes::run(&args, out)),
        Command::Dedupe(Deferred(args)) => dedupe::run(&args),
        Command::Clean(Deferred(args)) => clean::run(&args),
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

    #[test]
    fn a_subcommand_gets_its_options_and_keeps_its_own_description() {
        let unbuilt = Cli::command();
        let check = unbuilt.find_subcommand("check").unwrap();
        assert_eq!(check.get_arguments().count(), 0, "options added only when needed");
        let mut built = Cli::command();
        built.build();
        let check = built.find_subcommand("check").unwrap();
        assert!(check.get_arguments().any(|arg| arg.get_id() == "no_header"));
        let about = check.get_about().map(ToString::to_string);
        let own = "Check legality and format only; findings as CSV on standard output";
        assert_eq!(about.as_deref(), Some(own));
    }
}
