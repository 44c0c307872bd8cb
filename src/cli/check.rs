//! `kifu check`: legality and format only. Every finding as CSV on standard output, the columns
//! of `findings.csv`; no scoring.

use std::io;

use clap::Args as ClapArgs;

use super::args::{CsvArgs, InputArgs, RunArgs};
use super::session::stream_rows;
use crate::analysis::{AnalysisOptions, DeadStoneMode};
use crate::pipeline::{Job, Processed};
use crate::report::{FindingRow, Summary};

/// Options of `kifu check`.
#[derive(ClapArgs, Clone, Debug)]
#[command(after_long_help = "Columns: source, game, move, code, severity, message, line, offset \
    (as findings.csv; `kifu codes` lists the codes).\n\nExit status: 0 when the run completed, \
    whatever it found; 2 when it could not run; 130 when stopped by Ctrl-C.\n\nExamples:\n  \
    kifu check games/ > findings.csv\n  kifu check collection.sgf | grep ',error,'\n")]
pub struct Args {
    /// What to read.
    #[command(flatten)]
    pub input: InputArgs,

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

/// Runs the check; the exit status on success.
pub fn run(args: &Args) -> io::Result<u8> {
    // Legality is judged under each game's own rules; no ruleset is scored.
    let analysis = AnalysisOptions { rulesets: Vec::new(), dead_stones: DeadStoneMode::Auto };
    let job = Job { game_rows: false, ..args.input.job(analysis, args.csv.guard())? };
    let summary = Summary::new("check", &[]);
    stream_rows(&job, &args.run, FindingRow::COLUMNS, !args.no_header, summary, |item| match item {
        Processed::Source(source) => &source.rows,
        Processed::Game(game) => &game.findings,
    })
}
