//! `kifu check`: legality and format only. Every finding as CSV on standard output, the columns
//! of `findings.csv`; no scoring.

use std::cell::RefCell;
use std::io::{self, BufWriter, Write};

use clap::Args as ClapArgs;

use super::args::{CsvArgs, InputArgs, RunArgs};
use super::session::Session;
use crate::analysis::{AnalysisOptions, DeadStoneMode};
use crate::pipeline::{Processed, run_job};
use crate::report::{CsvTable, FindingRow, Summary};

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
    let job = args.input.job(analysis, args.csv.guard())?;
    let session = Session::start(&args.run)?;
    let stdout = io::stdout();
    let out = BufWriter::with_capacity(64 * 1024, stdout.lock());
    // Rows are written by one closure and flushed after each batch by another.
    let table = RefCell::new(CsvTable::new(out, FindingRow::COLUMNS, !args.no_header)?);
    let mut summary = Summary::new("check", &[]);
    let completion = run_job(
        &session.engine,
        &job,
        &session.progress,
        |item| match item {
            Processed::Source(source) => {
                summary.add_source(source.bytes, source.games, &source.findings);
                source.rows.iter().try_for_each(|row| table.borrow_mut().write(row))
            }
            Processed::Game(game) => {
                summary.add_game(&game);
                game.findings.iter().try_for_each(|row| table.borrow_mut().write(row))
            }
        },
        || table.borrow_mut().flush(),
    )?;
    table.into_inner().into_inner()?.flush()?;
    session.finish(&mut summary, completion);
    session.say(&summary.to_string());
    Ok(Session::exit_code(completion))
}
