//! A job: the paths to read, how to read and analyse each game, and the run that turns them into
//! report rows in input order.
//!
//! [`run_job`] wires the record and analysis layers to the [`Engine`] through
//! [`super::map::map_games_in_batches`]: the reader thread walks the sources and splits each
//! into games, the workers read, analyse and turn each game into rows, and the caller's consumer
//! receives them one by one in input order. A game that makes kifu panic still becomes a row
//! (status `unparsed`, finding `internal`), so a bug costs one game, not the run.

use std::cell::RefCell;
use std::io;
use std::num::NonZeroU32;
use std::path::PathBuf;

use super::engine::{Completion, Engine};
use super::map::{Mapped, map_games_in_batches};
use super::progress::Progress;
use crate::analysis::{AnalysisOptions, GameAnalysis, GameStatus, analyze_with_findings};
use crate::finding::{Code, Finding};
use crate::record::{self, GameLocation, ReadOptions};
use crate::report::{CellGuard, FindingRow, GameReport};

/// One of N shards of the input: sources whose position in discovery order is `index` modulo
/// `count`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    /// 0-based shard number, below `count`.
    pub index: u32,
    /// Number of shards.
    pub count: NonZeroU32,
}

impl Shard {
    /// Whether the source at 0-based position `ordinal` belongs to this shard.
    pub fn keeps(self, ordinal: u64) -> bool {
        ordinal % u64::from(self.count.get()) == u64::from(self.index)
    }
}

/// Everything a run needs to know besides threads and batching.
#[derive(Clone, Debug)]
pub struct Job {
    /// Files, folders, archives, `-`, in the order given.
    pub paths: Vec<PathBuf>,
    /// How bytes are read.
    pub read: ReadOptions,
    /// What is computed for each game.
    pub analysis: AnalysisOptions,
    /// How text cells are written.
    pub guard: CellGuard,
    /// Only this shard of the sources, if set.
    pub shard: Option<Shard>,
    /// Whether each game's `games.csv` row is made ([`GameReport::game`]); `kifu check`,
    /// which writes findings only, spares it.
    pub game_rows: bool,
}

/// What the consumer of a run receives, in input order: each source, then its games.
#[derive(Debug)]
pub enum Processed {
    /// A source was read (its file-level findings are ready as rows).
    Source(SourceReport),
    /// A game was read and analysed.
    Game(Box<GameReport>),
}

/// A source as the reports see it.
#[derive(Debug)]
pub struct SourceReport {
    /// The source's name (path, `archive!member` or `-`).
    pub name: String,
    /// Bytes read.
    pub bytes: u64,
    /// Games found in it.
    pub games: u64,
    /// Problems with the source as a whole.
    pub findings: Vec<Finding>,
    /// The same problems as `findings.csv` rows (game 0).
    pub rows: Vec<FindingRow>,
}

/// Reads, analyses and reports every game of `job`, calling `consume` for each source and game
/// in input order, and `end_batch` after each batch (where output streamed to a pipe should be
/// flushed: readers see rows as they come, and a closed pipe is noticed within a batch). Stops
/// at the first error from either and returns it.
pub fn run_job(
    engine: &Engine,
    job: &Job,
    progress: &Progress,
    mut consume: impl FnMut(&Processed) -> io::Result<()>,
    mut end_batch: impl FnMut() -> io::Result<()>,
) -> io::Result<Completion> {
    // What was consumed this batch, dropped by a worker once the batch is written.
    let spent: RefCell<Vec<Processed>> = RefCell::new(Vec::new());
    map_games_in_batches(
        engine,
        job,
        progress,
        |pending| {
            let mut record = pending.read(&job.read);
            // The reports read the analysis's findings, never the record's: moved, not copied.
            let record_findings = std::mem::take(&mut record.findings);
            let analysis = analyze_with_findings(&record, record_findings, &job.analysis);
            let rulesets = &job.analysis.rulesets;
            let report = Box::new(GameReport::from_analysis(
                &record,
                analysis,
                rulesets,
                job.guard,
                job.game_rows,
            ));
            record::recycle(record);
            report
        },
        |mapped| {
            let processed = match mapped {
                Mapped::Source(source) => Processed::Source(source),
                Mapped::Game(report) => Processed::Game(report),
                Mapped::Crashed(location, message) => {
                    Processed::Game(Box::new(crashed_game(job, location, message)))
                }
            };
            let result = consume(&processed);
            spent.borrow_mut().push(processed);
            result
        },
        || {
            engine.drop_on_worker(spent.take());
            end_batch()
        },
    )
}

/// The report of a game kifu panicked on: unparsed, with an `internal` finding.
fn crashed_game(job: &Job, location: GameLocation, message: String) -> GameReport {
    let encoding = record::TextEncoding {
        name: "none",
        origin: record::CharsetOrigin::NotDecoded,
        replaced: false,
    };
    let mut record = record::unparsed(location, encoding, "not read: kifu failed on this game");
    record.findings = vec![Finding::new(
        Code::Internal,
        0,
        format!("kifu failed on this game ({message}); please report it with the game"),
    )];
    let analysis = GameAnalysis {
        status: GameStatus::Unparsed,
        findings: record.findings.clone(),
        scores: Vec::new(),
        disagreements: Vec::new(),
    };
    GameReport::new(&record, &analysis, &job.analysis.rulesets, job.guard)
}

pub(crate) fn panic_message(panic: &(dyn std::any::Any + Send)) -> String {
    if let Some(s) = panic.downcast_ref::<&str>() {
        (*s).to_owned()
    } else if let Some(s) = panic.downcast_ref::<String>() {
        s.clone()
    } else {
        "panic".to_owned()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_partition_the_sources() {
        let shards: Vec<Shard> =
            (0..3).map(|k| Shard { index: k, count: NonZeroU32::new(3).unwrap() }).collect();
        for ordinal in 0..100u64 {
            let owners = shards.iter().filter(|s| s.keeps(ordinal)).count();
            assert_eq!(owners, 1, "source {ordinal}");
        }
    }

    #[test]
    fn a_game_kifu_crashed_on_is_still_a_row_with_an_internal_finding() {
        let job = Job {
            paths: Vec::new(),
            read: ReadOptions::default(),
            analysis: AnalysisOptions::default(),
            guard: CellGuard::Spreadsheet,
            shard: None,
            game_rows: true,
        };
        let location = GameLocation { source: "big.sgf".into(), game: 7, offset: 900, line: 30 };
        let report = crashed_game(&job, location, "attempt to subtract with overflow".into());
        let game = report.game.as_ref().unwrap();
        assert_eq!((game.source.as_str(), game.game), ("big.sgf", 7));
        assert_eq!(report.status, GameStatus::Unparsed);
        assert_eq!(report.finding_codes, [(Code::Internal, crate::finding::Severity::Error)]);
        assert!(report.findings[0].message.contains("attempt to subtract with overflow"));
        assert_eq!(report.scores.len(), 3, "one score row per requested ruleset");
    }

    #[test]
    fn panic_messages_are_kept() {
        let p = std::panic::catch_unwind(|| panic!("index {} out of range", 3)).unwrap_err();
        assert_eq!(panic_message(p.as_ref()), "index 3 out of range");
    }
}
