//! `kifu score`: the score of every game under each requested ruleset, as CSV on standard
//! output with the columns of `scores.csv`.

use std::io;

use clap::Args as ClapArgs;

use super::args::{CsvArgs, InputArgs, RunArgs, ScoringArgs};
use super::session::stream_rows;
use crate::pipeline::Processed;
use crate::report::{ScoreRow, Summary};

/// Options of `kifu score`.
#[derive(ClapArgs, Clone, Debug)]
#[command(after_long_help = "Columns: source, game, ruleset, preset, komi, result, margin, \
    dead_stones, confidence (as scores.csv): one row per game and requested ruleset; result is \
    empty when no score can be computed (`kifu check` says why).\n\nExit status: 0 when the run \
    completed; 2 when it could not run; 130 when stopped by Ctrl-C.\n\nExamples:\n  \
    kifu score -r chinese,japanese games/ > scores.csv\n  kifu score --dead-stones markup \
    game.sgf\n")]
pub struct Args {
    /// What to read.
    #[command(flatten)]
    pub input: InputArgs,

    /// How to score.
    #[command(flatten)]
    pub scoring: ScoringArgs,

    /// Do not write the header line (to concatenate the outputs of sharded runs).
    #[arg(long)]
    pub no_header: bool,

    /// How to write CSV.
    #[command(flatten)]
    pub csv: CsvArgs,

    /// How to run.
    #[command(flatten)]
    pub run: RunArgs,
}

/// Runs the scoring; the exit status on success.
pub fn run(args: &Args) -> io::Result<u8> {
    let job = args.input.job(args.scoring.analysis(), args.csv.guard())?;
    let names: Vec<&'static str> = job.analysis.rulesets.iter().map(|r| r.name()).collect();
    let summary = Summary::new("score", &names);
    stream_rows(&job, &args.run, ScoreRow::COLUMNS, !args.no_header, summary, |item| match item {
        // A source's own findings are `kifu check`'s; here they are only counted.
        Processed::Source(_) => &[],
        Processed::Game(game) => &game.scores,
    })
}
