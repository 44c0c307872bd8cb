//! `kifu dedupe`: groups of duplicate games (the same moves under any symmetry of the board,
//! truncated copies, the same game with other metadata) into `duplicates.csv`.

use std::fmt::Write as _;
use std::io;
use std::path::PathBuf;
use std::time::Duration;

use clap::Args as ClapArgs;

use super::args::{CsvArgs, InputArgs, RunArgs};
use super::session::Session;
use crate::analysis::AnalysisOptions;
use crate::analysis::dedupe::{
    DedupeOptions, DuplicateCounts, DuplicateGroup, GameEntry, find_duplicates,
};
use crate::pipeline::{Completion, Job, Mapped, map_games};
use crate::record::{GameRecord, unparsed};
use crate::report::atomic::AtomicFile;
use crate::report::folder::with_path;
use crate::report::summary::human_bytes;
use crate::report::{CellGuard, CsvTable, DuplicateRow};

pub use crate::report::duplicates::DUPLICATES_FILE;

/// Options of `kifu dedupe`.
#[derive(ClapArgs, Clone, Debug)]
#[command(after_long_help = after_long_help())]
pub struct Args {
    /// Report folder, created if missing; `duplicates.csv` in it is replaced only when the run
    /// completes. Other files in it are left alone.
    #[arg(short, long, value_name = "DIR", default_value = "kifu-report")]
    pub out: PathBuf,

    /// What to read.
    #[command(flatten)]
    pub input: InputArgs,

    /// What counts as a duplicate.
    #[command(flatten)]
    pub thresholds: ThresholdArgs,

    /// How to write CSV.
    #[command(flatten)]
    pub csv: CsvArgs,

    /// How to run.
    #[command(flatten)]
    pub run: RunArgs,
}

/// What counts as a duplicate, in moves (main-line moves plus setup stones other than handicap
/// stones; final passes not counted).
#[derive(ClapArgs, Clone, Debug)]
#[command(next_help_heading = "Thresholds")]
pub struct ThresholdArgs {
    /// Records with the same moves are grouped on their moves alone from this many moves on;
    /// shorter ones only when their metadata is identical and names a player, date or event.
    #[arg(long, value_name = "N", default_value_t = DedupeOptions::default().min_same_moves)]
    pub min_same_moves: u32,

    /// A record counts as a truncated copy of a longer one from this many moves on.
    #[arg(long, value_name = "N", default_value_t = DedupeOptions::default().min_prefix_moves)]
    pub min_prefix_moves: u32,

    /// A truncated copy shorter than this is grouped only when its players, date and winner
    /// agree with the longer record wherever both give them.
    #[arg(long, value_name = "N", default_value_t = DedupeOptions::default().long_prefix_moves)]
    pub long_prefix_moves: u32,
}

impl ThresholdArgs {
    /// The options these flags ask for.
    pub fn options(&self) -> DedupeOptions {
        DedupeOptions {
            min_same_moves: self.min_same_moves,
            min_prefix_moves: self.min_prefix_moves,
            long_prefix_moves: self.long_prefix_moves,
        }
    }
}

fn after_long_help() -> String {
    let mut text = format!(
        "Writes DIR/{DUPLICATES_FILE}: one row per member of each group of duplicate games, the \
         record kept first. Columns:\n"
    );
    for c in DuplicateRow::COLUMNS {
        let _ = writeln!(text, "  {:<10} {}", c.name, c.meaning);
    }
    text.push_str(
        "\nA group holds records of one game: the same moves under any of the 8 symmetries of \
         the board (4 on a rectangular board), colours as recorded, setup stones included; a \
         record whose moves are the first moves of a longer one (a truncated copy) when no \
         other game continues it; the same game with other metadata. The record kept is the \
         most complete: longest main line, then most metadata, then a counted result, then \
         first in input order.\n\nExit status: 0 when the run completed, whatever it found; 2 \
         when it could not run; 130 when stopped by Ctrl-C.\n\nExamples:\n  kifu dedupe \
         games/\n  kifu dedupe -o report --min-prefix-moves 50 a.zip b/\n",
    );
    text
}

/// What a pass over the input gathered for duplicate detection.
#[derive(Debug, Default)]
pub struct Gathered {
    /// One entry per game found, in input order.
    pub entries: Vec<GameEntry>,
    /// Sources read.
    pub sources: u64,
    /// Bytes read.
    pub bytes: u64,
    /// Games that could not be read (never grouped).
    pub unread: u64,
}

/// Reads every game of `job` into an entry for duplicate detection. `exclude` marks the games
/// any other member of their group should be kept before.
pub fn gather(
    session: &Session,
    job: &Job,
    exclude: impl Fn(&GameRecord) -> bool + Sync + Send,
) -> io::Result<(Completion, Gathered)> {
    let mut gathered = Gathered::default();
    let completion = map_games(
        &session.engine,
        job,
        &session.progress,
        |pending| {
            let record = pending.read(&job.read);
            let mut entry = GameEntry::of(0, &record);
            entry.excluded = exclude(&record);
            entry
        },
        |item| {
            let ordinal = gathered.entries.len() as u64;
            match item {
                Mapped::Source(source) => {
                    gathered.sources += 1;
                    gathered.bytes += source.bytes;
                }
                Mapped::Game(mut entry) => {
                    entry.ordinal = ordinal;
                    gathered.unread += u64::from(entry.key.is_none());
                    gathered.entries.push(entry);
                }
                Mapped::Crashed(location, message) => {
                    let encoding = crate::record::TextEncoding {
                        name: "none",
                        origin: crate::record::CharsetOrigin::NotDecoded,
                        replaced: false,
                    };
                    let record = unparsed(location, encoding, &message);
                    gathered.unread += 1;
                    gathered.entries.push(GameEntry::of(ordinal, &record));
                }
            }
            Ok(())
        },
    )?;
    Ok((completion, gathered))
}

/// Writes `duplicates.csv` rows for `groups` to a table.
pub fn write_groups<W: io::Write>(
    table: &mut CsvTable<W>,
    groups: &[DuplicateGroup],
    entries: &[GameEntry],
    guard: CellGuard,
) -> io::Result<()> {
    for group in groups {
        for row in DuplicateRow::of_group(group, entries, guard) {
            table.write(&row)?;
        }
    }
    Ok(())
}

/// The first line of a summary: what was read, how fast.
pub fn headline(
    command: &str,
    gathered_games: u64,
    sources: u64,
    bytes: u64,
    elapsed: Duration,
    threads: usize,
) -> String {
    let secs = elapsed.as_secs_f64();
    let rate = if secs > 0.0 { gathered_games as f64 / secs } else { 0.0 };
    format!(
        "kifu {command}: {gathered_games} games from {sources} sources ({}) in {secs:.2} s, \
         {rate:.0} games/s on {threads} threads\n",
        human_bytes(bytes)
    )
}

/// Runs `kifu dedupe`; the exit status on success.
pub fn run(args: &Args) -> io::Result<u8> {
    let job = args.input.job(AnalysisOptions::default(), args.csv.guard())?;
    std::fs::create_dir_all(&args.out).map_err(|e| with_path(&args.out, e))?;
    let path = args.out.join(DUPLICATES_FILE);
    let file = AtomicFile::create(&path).map_err(|e| with_path(&path, e))?;
    let mut table = CsvTable::new(file, DuplicateRow::COLUMNS, true)?;
    let session = Session::start(&args.run)?;
    let (completion, gathered) = gather(&session, &job, |_| false)?;
    session.progress.finish();
    if completion == Completion::Interrupted {
        eprintln!(
            "kifu: interrupted after {} games; {} left as it was",
            gathered.entries.len(),
            path.display()
        );
        return Ok(Session::exit_code(completion));
    }
    let grouping = std::time::Instant::now();
    let groups = find_duplicates(&gathered.entries, &args.thresholds.options());
    let grouping = grouping.elapsed();
    write_groups(&mut table, &groups, &gathered.entries, args.csv.guard())
        .map_err(|e| with_path(&path, e))?;
    let rows = table.rows();
    table.into_inner().and_then(AtomicFile::commit).map_err(|e| with_path(&path, e))?;

    let games = gathered.entries.len() as u64;
    let mut text = headline(
        "dedupe",
        games,
        gathered.sources,
        gathered.bytes,
        session.started.elapsed(),
        session.engine.threads(),
    );
    let _ = writeln!(text, "\n{:<34} {:>8}", "games", games);
    let _ = writeln!(text, "{:<34} {:>8}", "  read", games - gathered.unread);
    let _ = writeln!(text, "{:<34} {:>8}", "  not read (never grouped)", gathered.unread);
    let _ = writeln!(text, "keys sorted and grouped in {:.2} s\n", grouping.as_secs_f64());
    text.push_str(&DuplicateCounts::of(&groups).to_string());
    let _ = writeln!(text, "\nreport: {} ({rows} rows)", path.display());
    session.say(&text);
    Ok(0)
}
