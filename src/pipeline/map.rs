//! Any per-game work over a job's input, on the same engine as `kifu audit`: what `kifu dedupe`
//! (a key per game) and `kifu clean` (a rewritten game) run.
//!
//! [`map_games`] is [`super::run_job`] with the work left open: the reader thread walks and
//! splits the sources, the workers call the caller's function on each game, and the consumer
//! receives every source and every result in input order, whatever the number of threads. A
//! game that makes kifu panic comes back as [`Mapped::Crashed`], so a bug costs one game, not
//! the run.

use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};

use super::engine::{Completion, Engine};
use super::job::{Job, SourceReport, panic_message};
use super::progress::Progress;
use super::sources::{self, SourceInfo, Unit};
use crate::record::{GameLocation, PendingGame};
use crate::report::FindingRow;

/// What the consumer of [`map_games`] receives, in input order: each source, then its games.
#[derive(Debug)]
pub enum Mapped<T> {
    /// A source was read; its games follow.
    Source(SourceReport),
    /// The result of the caller's function on one game.
    Game(T),
    /// kifu panicked on this game: where it is, and the panic's message.
    Crashed(GameLocation, String),
}

/// Calls `work` on every game of `job` in parallel and hands `consume` each source and each
/// result in input order. Stops at the first error from `consume` and returns it.
pub fn map_games<T: Send>(
    engine: &Engine,
    job: &Job,
    progress: &Progress,
    work: impl Fn(&PendingGame) -> T + Sync + Send,
    consume: impl FnMut(Mapped<T>) -> io::Result<()>,
) -> io::Result<Completion> {
    map_games_in_batches(engine, job, progress, work, consume, || Ok(()))
}

/// [`map_games`], calling `end_batch` after each batch has been consumed: where output
/// streamed to a pipe is flushed, so that readers see rows as they come and a closed pipe is
/// noticed within a batch. Stops at the first error from either and returns it.
pub fn map_games_in_batches<T: Send>(
    engine: &Engine,
    job: &Job,
    progress: &Progress,
    work: impl Fn(&PendingGame) -> T + Sync + Send,
    mut consume: impl FnMut(Mapped<T>) -> io::Result<()>,
    mut end_batch: impl FnMut() -> io::Result<()>,
) -> io::Result<Completion> {
    let (reader_job, reader_progress) = (job.clone(), progress.clone());
    engine.run(
        move |feeder| sources::feed(&reader_job, feeder, &reader_progress),
        |unit| match unit {
            Unit::Source(SourceInfo { name, bytes, games, findings }) => {
                let rows =
                    findings.iter().map(|f| FindingRow::for_source(&name, f, job.guard)).collect();
                Mapped::Source(SourceReport { name, bytes, games, findings, rows })
            }
            Unit::Game(pending) => match catch_unwind(AssertUnwindSafe(|| work(&pending))) {
                Ok(result) => Mapped::Game(result),
                Err(panic) => Mapped::Crashed(pending.location, panic_message(panic.as_ref())),
            },
        },
        |batch: Vec<Mapped<T>>| {
            let mut games = 0;
            for item in batch {
                games += u64::from(!matches!(item, Mapped::Source(_)));
                consume(item)?;
            }
            progress.add_games(games);
            end_batch()
        },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::AnalysisOptions;
    use crate::pipeline::{BatchLimits, Interrupt};
    use crate::record::ReadOptions;
    use crate::report::CellGuard;

    #[test]
    fn results_come_in_input_order_and_a_panic_costs_one_game() {
        let dir = tempfile::tempdir().unwrap();
        let mut text = String::new();
        for i in 0..40 {
            text.push_str(&format!("(;GM[1]PB[p{i}];B[aa])\n"));
        }
        let path = dir.path().join("many.sgf");
        std::fs::write(&path, text).unwrap();
        let job = Job {
            paths: vec![path],
            read: ReadOptions::default(),
            analysis: AnalysisOptions::default(),
            guard: CellGuard::Raw,
            shard: None,
            game_rows: true,
        };
        for threads in [1, 2] {
            let engine =
                Engine::new(threads, BatchLimits { items: 7, bytes: 1 << 20 }, Interrupt::new())
                    .unwrap();
            let mut seen = Vec::new();
            map_games(
                &engine,
                &job,
                &Progress::hidden(),
                |game| {
                    assert_ne!(game.location.game, 13, "a bug on game 13");
                    game.location.game
                },
                |item| {
                    seen.push(match item {
                        Mapped::Source(s) => format!("source {}", s.games),
                        Mapped::Game(n) => n.to_string(),
                        Mapped::Crashed(location, _) => format!("crashed {}", location.game),
                    });
                    Ok(())
                },
            )
            .unwrap();
            let mut want = vec!["source 40".to_string()];
            want.extend(
                (1..=40).map(|n| if n == 13 { "crashed 13".to_string() } else { n.to_string() }),
            );
            assert_eq!(seen, want, "{threads} threads");
        }
    }
}
