//! `kifu audit`: the main job. Every game of every input into `games.csv`, `findings.csv`,
//! `scores.csv`, `disagreements.csv` and `summary.txt` in one report folder.

use std::io;
use std::path::PathBuf;

use clap::Args as ClapArgs;

use super::args::{CsvArgs, InputArgs, RunArgs, ScoringArgs};
use super::session::Session;
use crate::pipeline::{Completion, Processed, run_job};
use crate::report::{
    Column, DisagreementRow, FindingRow, GameRow, REPORT_FILES, ReportFolder, ScoreRow, Summary,
};

/// Options of `kifu audit`.
#[derive(ClapArgs, Clone, Debug)]
#[command(after_long_help = after_long_help())]
pub struct Args {
    /// Report folder, created if missing. Its reports are replaced only when the run completes.
    #[arg(short, long, value_name = "DIR", default_value = "kifu-report")]
    pub out: PathBuf,

    /// What to read.
    #[command(flatten)]
    pub input: InputArgs,

    /// How to score.
    #[command(flatten)]
    pub scoring: ScoringArgs,

    /// How to write CSV.
    #[command(flatten)]
    pub csv: CsvArgs,

    /// How to run.
    #[command(flatten)]
    pub run: RunArgs,
}

/// The files and columns, for `kifu audit --help`.
fn after_long_help() -> String {
    let mut text = String::from("Writes into DIR:\n");
    let mut file = |name: &str, what: &str, columns: &[Column]| {
        let names: Vec<&str> = columns.iter().map(|c| c.name).collect();
        text.push_str(&format!("  {name:<18} {what}\n  {:<18} {}\n", "", names.join(", ")));
    };
    file(REPORT_FILES[0], "one row per game found, unparsed ones included", GameRow::COLUMNS);
    file(REPORT_FILES[1], "one row per problem (codes: `kifu codes`)", FindingRow::COLUMNS);
    file(REPORT_FILES[2], "one row per game and requested ruleset", ScoreRow::COLUMNS);
    file(REPORT_FILES[3], "one row per disagreement", DisagreementRow::COLUMNS);
    text.push_str(&format!("  {:<18} the summary printed at the end\n", REPORT_FILES[4]));
    text.push_str(
        "\nThe README describes every column. The files appear together when the run completes; an interrupted run leaves DIR as it \
         was.\n\nExit status: 0 when the run completed, whatever it found; 2 when it could not \
         run (bad arguments, unwritable DIR); 130 when stopped by Ctrl-C.\n\nExamples:\n  \
         kifu audit corpus\n  kifu audit -o report -r chinese,japanese,aga games.zip more/\n  \
         find /data -name '*.sgf' | kifu audit --files-from - -o report\n",
    );
    text
}

/// Runs the audit; the exit status on success.
pub fn run(args: &Args) -> io::Result<u8> {
    let job = args.input.job(args.scoring.analysis(), args.csv.guard())?;
    // Open the report folder before reading anything: an unwritable DIR is exit 2 at once.
    let mut folder = ReportFolder::create(&args.out)?;
    let session = Session::start(&args.run)?;
    let names: Vec<&'static str> = job.analysis.rulesets.iter().map(|r| r.name()).collect();
    let mut summary = Summary::new("audit", &names);
    let consume = |item: &Processed| match item {
        Processed::Source(source) => {
            summary.add_source(source.bytes, source.games, &source.findings);
            folder.write_source_findings(&source.rows)
        }
        Processed::Game(game) => {
            summary.add_game(game);
            folder.write_game(game)
        }
    };
    // The report files are flushed once, at the end: nobody reads them before that.
    let completion = run_job(&session.engine, &job, &session.progress, consume, || Ok(()))?;
    session.finish(&mut summary, completion);
    if completion == Completion::Interrupted {
        drop(folder);
        eprintln!(
            "kifu: interrupted after {} games; no report written ({} left as it was)",
            summary.games,
            args.out.display()
        );
        return Ok(Session::exit_code(completion));
    }
    let [games, findings, scores, disagreements] = folder.row_counts();
    let mut text = summary.to_string();
    text.push_str(&format!(
        "\nreport: {}/ ({games} games, {findings} findings, {scores} scores, {disagreements} \
         disagreements)\n",
        args.out.display().to_string().trim_end_matches('/'),
    ));
    folder.commit(&text)?;
    session.say(&text);
    Ok(Session::exit_code(completion))
}
