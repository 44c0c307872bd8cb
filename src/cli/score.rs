//! `kifu score`: the score of every game under each requested ruleset, as CSV on standard
//! output with the columns of `scores.csv`.

use std::cell::RefCell;
use std::io::{self, BufWriter, Write};

use clap::Args as ClapArgs;

use super::args::{CsvArgs, InputArgs, RunArgs, ScoringArgs};
use super::session::Session;
use crate::pipeline::{Processed, run_job};
use crate::report::{CsvTable, ScoreRow, Summary};

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
    let session = Session::start(&args.run)?;
    let stdout = io::stdout();
    let out = BufWriter::with_capacity(64 * 1024, stdout.lock());
    // Rows are written by one closure and flushed after each batch by another.
    let table = RefCell::new(CsvTable::new(out, ScoreRow::COLUMNS, !args.no_header)?);
    let names: Vec<&'static str> = job.analysis.rulesets.iter().map(|r| r.name()).collect();
    let mut summary = Summary::new("score", &names);
    let completion = run_job(
        &session.engine,
        &job,
        &session.progress,
        |item| match item {
            Processed::Source(source) => {
                summary.add_source(source.bytes, source.games, &source.findings);
                Ok(())
            }
            Processed::Game(game) => {
                summary.add_game(&game);
                game.scores.iter().try_for_each(|row| table.borrow_mut().write(row))
            }
        },
        || table.borrow_mut().flush(),
    )?;
    table.into_inner().into_inner()?.flush()?;
    session.finish(&mut summary, completion);
    session.say(&summary.to_string());
    Ok(Session::exit_code(completion))
}
