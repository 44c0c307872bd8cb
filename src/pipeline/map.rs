//! Any per-game work over a job's input, on the same engine as `kifu audit`: what `kifu dedupe`
//! (a key per game) and `kifu clean` (a rewritten game) run.
//!
//! [`map_games`] is [`super::run_job`] with the work left open: the reader thread walks the
//! sources and splits all but the small files (which the workers split: see
//! [`crate::record::split_small`], and with several workers also read: a folder's file that
//! turns out larger is run through the engine on its own where it comes), the workers call
//! the caller's function on each game, and the consumer receives every source and every
//! result in input order, whatever the number of threads. A game that makes kifu panic comes back as [`Mapped::Crashed`], so a bug costs one
//! game, not the run.

use std::collections::HashMap;
use std::ffi::OsString;
use std::hash::{BuildHasherDefault, Hasher};
use std::io;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;
use std::sync::{Mutex, OnceLock, PoisonError};

use super::engine::{Completion, Engine};
use super::job::{Job, SourceReport, panic_message};
use super::progress::Progress;
use super::sources::{self, SourceInfo, Surveyed, SurveyedSource, Unit};
use crate::record::{self, FoundFile, GameLocation, PendingGame, Source};
use crate::report::{CellGuard, FindingRow};

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

/// What a worker hands back for one unit of the reader's: one item, or a small file split
/// in the worker (its source, then its games).
enum Done<T> {
    One(Mapped<T>),
    File(SourceReport, Vec<Mapped<T>>),
    /// A large file whose survey may still run: the consumer waits for it.
    Surveying(SurveyedSource),
    /// A game sent before its file's survey ended ([`Unit::Speculative`]).
    Speculative(Mapped<T>),
    /// A file of a folder left to the workers ([`Unit::Path`]) and found larger than a small
    /// file: its games are spread over the workers in a run of its own.
    Deferred(FoundFile),
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
    consume: impl FnMut(Mapped<T>) -> io::Result<()>,
    end_batch: impl FnMut() -> io::Result<()>,
) -> io::Result<Completion> {
    let game = |pending: PendingGame| match catch_unwind(AssertUnwindSafe(|| work(&pending))) {
        Ok(result) => Mapped::Game(result),
        Err(panic) => Mapped::Crashed(pending.location, panic_message(panic.as_ref())),
    };
    let small = |source: Source| {
        let split = record::split_small(&source, &job.read);
        let bytes = source.bytes.as_ref().map_or(0, |b| b.len()) as u64;
        let games = split.games.iter().filter(|g| g.has_tree()).count() as u64;
        let info = SourceInfo { name: source.name, bytes, games, findings: split.findings };
        Done::File(source_report(info, job.guard), split.games.into_iter().map(game).collect())
    };
    let ahead = Ahead::default();
    let process = |unit| match unit {
        Unit::Source(info) => Done::One(Mapped::Source(source_report(info, job.guard))),
        Unit::Surveying(source) => Done::Surveying(source),
        Unit::Game(pending) => Done::One(game(pending)),
        Unit::Speculative(pending) => Done::Speculative(game(pending)),
        Unit::File(source) => small(source),
        Unit::Path(file) => {
            if let Some(done) = ahead.take(&file.path) {
                return done;
            }
            let read = FILES.with_borrow_mut(|(buffer, folder)| {
                record::read_small(file, job.read.limits, buffer, folder)
            });
            match read {
                Ok(source) => small(source),
                Err(file) => Done::Deferred(file),
            }
        }
    };
    let mut run = Run { engine, progress, process: &process, ahead: &ahead, consume, end_batch };
    // With one worker, the reader thread reading the files is as good as a second thread, and
    // the first games of a large file wait for no idle core.
    run.run(job.clone(), engine.threads() > 1)
}

thread_local! {
    /// Each worker's buffer for the first read of the files it reads ([`Unit::Path`]), and the
    /// folder they are opened in.
    static FILES: std::cell::RefCell<(Vec<u8>, record::Folder)> =
        const { std::cell::RefCell::new((Vec::new(), record::Folder::new())) };
}

/// One run of the engine over a job, and the consumer's state: a file the workers found too
/// large to split alone is run through the engine again, on its own, where it comes.
struct Run<'a, T, P, C, E> {
    engine: &'a Engine,
    progress: &'a Progress,
    process: &'a P,
    ahead: &'a Ahead<T>,
    consume: C,
    end_batch: E,
}

/// Files of a folder read while its walk lists and sorts it ([`first_files`](record::first_files)),
/// by their paths: the worker that gets one from the walk takes what was done instead of reading
/// it again. Filled by one thread before any batch is handed out, then only looked up: a
/// lookup shares nothing that another worker writes but the slot it takes.
struct Ahead<T> {
    done: OnceLock<AheadMap<T>>,
}

/// What was done ahead, by the path's bytes. Every file of the folder is looked up, a few
/// hundred found: `Path`'s own hash splits the path into components and SipHash follows, which
/// took about 1% of `kifu check -j2` on the bench's 4,266 professional games (`perf record`).
type AheadMap<T> = HashMap<OsString, Mutex<Option<Done<T>>>, BuildHasherDefault<NameTail>>;

/// A hash of a path's bytes by their length and last 16 bytes: the paths looked up are the
/// files of one folder, which differ at their names' ends (equal tails only share a bucket;
/// the map still compares whole paths).
#[derive(Default)]
struct NameTail(u64);

impl Hasher for NameTail {
    fn write(&mut self, bytes: &[u8]) {
        let tail = &bytes[bytes.len().saturating_sub(16)..];
        let (mut low, mut high) = ([0u8; 8], [0u8; 8]);
        let split = tail.len().saturating_sub(8);
        high[..tail.len() - split].copy_from_slice(&tail[split..]);
        low[..split].copy_from_slice(&tail[..split]);
        let mixed = (self.0 ^ u64::from_le_bytes(high)).wrapping_mul(0x9E37_79B9_7F4A_7C15);
        self.0 = (mixed.rotate_left(29) ^ u64::from_le_bytes(low) ^ bytes.len() as u64)
            .wrapping_mul(0xFF51_AFD7_ED55_8CCD);
    }

    fn finish(&self) -> u64 {
        self.0 ^ (self.0 >> 32)
    }
}

impl<T> Default for Ahead<T> {
    fn default() -> Ahead<T> {
        Ahead { done: OnceLock::new() }
    }
}

impl<T> Ahead<T> {
    /// What was done ahead, handed over once.
    fn fill(&self, done: AheadMap<T>) {
        if !done.is_empty() {
            let _ = self.done.set(done);
        }
    }

    fn take(&self, path: &Path) -> Option<Done<T>> {
        let slot = self.done.get()?.get(path.as_os_str())?;
        slot.lock().unwrap_or_else(PoisonError::into_inner).take()
    }
}

/// At most this many files of a folder are read ahead of its walk: more than the workers' share
/// of the walk's time on a folder of thousands of games (about 3 ms, 150 games), and a bound on
/// what waits for its turn.
const AHEAD_FILES: usize = 512;

impl<T, P, C, E> Run<'_, T, P, C, E>
where
    T: Send,
    P: Fn(Unit) -> Done<T> + Sync,
    C: FnMut(Mapped<T>) -> io::Result<()>,
    E: FnMut() -> io::Result<()>,
{
    fn run(&mut self, job: Job, parallel: bool) -> io::Result<Completion> {
        let (engine, process) = (self.engine, self.process);
        let reader_progress = self.progress.clone();
        // Set when a large file's survey finds that its parts do not read as the whole file:
        // the games sent from them before it ended are dropped (the whole file's follow).
        let mut drop_speculative = false;
        let guard = job.guard;
        let read_job = job.clone();
        let ahead = self.ahead;
        // The walk of a folder lists and sorts all of it before its first file, and the
        // workers had nothing to do meanwhile (3 ms of the 45 ms of `kifu check -j2` on the
        // bench's professional games, `perf sched`): this thread reads some of its files
        // ahead, in the order the file system lists them, until the first batch is cut.
        let meanwhile = |cut: &dyn Fn() -> bool| {
            let first = job.paths.first().filter(|p| p.as_os_str() != "-" && p.is_dir());
            let Some(folder) = first.filter(|_| parallel && job.shard.is_none()) else {
                return;
            };
            let mut done = AheadMap::default();
            for file in record::first_files(folder, AHEAD_FILES) {
                if cut() || engine.interrupt().is_triggered() {
                    break;
                }
                let path = file.path.clone().into_os_string();
                done.insert(path, Mutex::new(Some(process(Unit::Path(file)))));
            }
            ahead.fill(done);
        };
        // A large file's source comes before its games, and waits for its survey: the batch
        // that holds it is held back meanwhile, and the workers go on with the games behind.
        let ready = |done: &Done<T>| match done {
            Done::Surveying(source) => source.survey.has_ended(),
            _ => true,
        };
        engine.run_held(
            move |feeder| sources::feed(&read_job, parallel, feeder, &reader_progress),
            meanwhile,
            process,
            ready,
            |batch: Vec<Done<T>>| self.consume_batch(batch, &job, guard, &mut drop_speculative),
        )
    }

    fn consume_batch(
        &mut self,
        batch: Vec<Done<T>>,
        job: &Job,
        guard: CellGuard,
        drop_speculative: &mut bool,
    ) -> io::Result<()> {
        let mut games = 0;
        for done in batch {
            match done {
                Done::Surveying(source) => {
                    let Some(surveyed) = source.survey.wait(self.engine.interrupt()) else {
                        // Ctrl-C: the engine stops at the end of this batch.
                        break;
                    };
                    *drop_speculative = !surveyed.parts_hold;
                    let SurveyedSource { name, bytes, .. } = source;
                    let Surveyed { games: count, findings, .. } = surveyed;
                    let info = SourceInfo { name, bytes, games: count, findings };
                    (self.consume)(Mapped::Source(source_report(info, guard)))?;
                }
                Done::Speculative(_) if *drop_speculative => {}
                Done::Speculative(item) => {
                    games += 1;
                    (self.consume)(item)?;
                }
                Done::One(item) => {
                    games += u64::from(!matches!(item, Mapped::Source(_)));
                    (self.consume)(item)?;
                }
                Done::File(source, results) => {
                    (self.consume)(Mapped::Source(source))?;
                    games += results.len() as u64;
                    for item in results {
                        (self.consume)(item)?;
                    }
                }
                Done::Deferred(file) => {
                    // Its games, in parallel, before what follows it; what follows it waits
                    // in the pool meanwhile. It is read as its folder's walk reads a file.
                    self.progress.add_games(games);
                    games = 0;
                    let alone = Job { paths: vec![file.path], shard: None, ..job.clone() };
                    if self.run(alone, false)? == Completion::Interrupted {
                        break;
                    }
                }
            }
        }
        self.progress.add_games(games);
        (self.end_batch)()
    }
}

/// A source as the consumer receives it, its findings made rows.
fn source_report(info: SourceInfo, guard: CellGuard) -> SourceReport {
    let SourceInfo { name, bytes, games, findings } = info;
    let rows = findings.iter().map(|f| FindingRow::for_source(&name, f, guard)).collect();
    SourceReport { name, bytes, games, findings, rows }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analysis::AnalysisOptions;
    use crate::pipeline::{BatchLimits, Interrupt};
    use crate::record::ReadOptions;
    use crate::report::CellGuard;

    #[test]
    fn files_read_ahead_are_found_by_their_whole_path() {
        // Paths with the same last 16 bytes share a hash, not a slot.
        let mut done: AheadMap<u32> = AheadMap::default();
        let paths = ["games/a/0001-game.sgf", "games/b/0001-game.sgf", "0001-game.sgf", ""];
        for (n, path) in paths.iter().enumerate() {
            let item = Done::One(Mapped::Game(n as u32));
            done.insert(OsString::from(path), Mutex::new(Some(item)));
        }
        let ahead = Ahead::default();
        ahead.fill(done);
        for (n, path) in paths.iter().enumerate().rev() {
            let found = ahead.take(Path::new(path));
            assert!(matches!(found, Some(Done::One(Mapped::Game(k))) if k == n as u32), "{path}");
            assert!(ahead.take(Path::new(path)).is_none(), "handed over once: {path}");
        }
        assert!(ahead.take(Path::new("games/c/0001-game.sgf")).is_none());
    }

    /// A job over one file with the default options, game rows included.
    fn job_of(path: std::path::PathBuf) -> Job {
        Job {
            paths: vec![path],
            read: ReadOptions::default(),
            analysis: AnalysisOptions::default(),
            guard: CellGuard::Raw,
            shard: None,
            game_rows: true,
        }
    }

    #[test]
    fn results_come_in_input_order_and_a_panic_costs_one_game() {
        let dir = tempfile::tempdir().unwrap();
        let mut text = String::new();
        for i in 0..40 {
            text.push_str(&format!("(;GM[1]PB[p{i}];B[aa])\n"));
        }
        let path = dir.path().join("many.sgf");
        std::fs::write(&path, text).unwrap();
        let job = job_of(path);
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

    /// On several threads the workers read a folder's files themselves: a small file is split
    /// where it is read, a larger one is handed back and read on its own, its games spread over
    /// the workers, one read part by part too. Every source and game comes once, in the order of
    /// one thread, where the reader thread reads every file.
    #[test]
    fn a_folder_reads_the_same_whether_its_files_are_read_by_the_workers_or_not() {
        let dir = tempfile::tempdir().unwrap();
        let games = |n: usize, pad: usize| -> String {
            (1..=n)
                .map(|i| format!("(;GM[1]SZ[19]PB[p{i}]C[{}];B[pd];W[dd])\n", "x".repeat(pad)))
                .collect()
        };
        // Sorted by name: small, one game over SMALL_FILE (split on its own), small with two
        // games, a file read part by part, an empty file, small again.
        std::fs::write(dir.path().join("a.sgf"), games(1, 0)).unwrap();
        std::fs::write(dir.path().join("b.sgf"), games(1, record::SMALL_READ)).unwrap();
        std::fs::write(dir.path().join("c.sgf"), games(2, 10)).unwrap();
        let many = 3 * crate::record::PART_BYTES / 230;
        std::fs::write(dir.path().join("d.sgf"), games(many, 200)).unwrap();
        std::fs::write(dir.path().join("e.sgf"), "").unwrap();
        std::fs::write(dir.path().join("f.sgf"), games(3, 5000)).unwrap();
        let job = job_of(dir.path().to_path_buf());
        let mut runs = Vec::new();
        for threads in [1, 2, 3] {
            let limits = BatchLimits { items: 5, bytes: 1 << 20 };
            let engine = Engine::new(threads, limits, Interrupt::new()).unwrap();
            let mut seen = Vec::new();
            map_games(
                &engine,
                &job,
                &Progress::hidden(),
                |game| (game.location.source.clone(), game.location.game),
                |item| {
                    seen.push(match item {
                        Mapped::Source(s) => format!("{} {} {}", s.name, s.games, s.bytes),
                        Mapped::Game((source, game)) => format!("{source} #{game}"),
                        Mapped::Crashed(location, _) => format!("crashed {location:?}"),
                    });
                    Ok(())
                },
            )
            .unwrap();
            runs.push(seen);
        }
        let sources: Vec<&String> = runs[0].iter().filter(|s| !s.contains('#')).collect();
        assert_eq!(sources.len(), 6, "{sources:?}");
        let game_rows = runs[0].iter().filter(|s| s.contains('#')).count();
        assert_eq!(game_rows, 1 + 1 + 2 + many + 1 + 3, "the empty file stands in as one game");
        assert_eq!(runs[1], runs[0], "two threads");
        assert_eq!(runs[2], runs[0], "three threads");
    }

    /// Games of a file read part by part go out before its survey ends; when the survey finds
    /// that the parts do not read as the whole file (here a Latin-1 byte past the first part),
    /// those games are dropped and the whole file's sent: every game still comes once, in
    /// order, after its source.
    #[test]
    fn every_game_of_a_large_file_comes_once_whether_its_parts_hold_or_not() {
        let dir = tempfile::tempdir().unwrap();
        let mut text = String::new();
        let mut n = 0;
        while text.len() < 3 * crate::record::PART_BYTES {
            n += 1;
            text.push_str(&format!(
                "(;GM[1]SZ[19]PB[player {n}]C[{}];B[pd];W[dd])\n",
                "x".repeat(200)
            ));
        }
        let utf8 = dir.path().join("utf8.sgf");
        std::fs::write(&utf8, &text).unwrap();
        let mut bytes = text.into_bytes();
        bytes.extend_from_slice(b"(;GM[1]PB[Jos\xe9];B[aa])\n");
        let latin1 = dir.path().join("latin1.sgf");
        std::fs::write(&latin1, &bytes).unwrap();
        for (path, games) in [(utf8, n), (latin1, n + 1)] {
            let job = job_of(path.clone());
            for threads in [1, 2] {
                let engine =
                    Engine::new(threads, BatchLimits::default(), Interrupt::new()).unwrap();
                let mut seen = Vec::new();
                map_games(
                    &engine,
                    &job,
                    &Progress::hidden(),
                    |game| game.location.game,
                    |item| {
                        seen.push(match item {
                            Mapped::Source(s) => -(s.games as i64),
                            Mapped::Game(g) => g as i64,
                            Mapped::Crashed(..) => 0,
                        });
                        Ok(())
                    },
                )
                .unwrap();
                let want: Vec<i64> =
                    std::iter::once(-(games as i64)).chain(1..=games as i64).collect();
                assert_eq!(seen, want, "{} on {threads} threads", path.display());
            }
        }
    }
}
