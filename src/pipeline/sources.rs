//! The reader thread's work: walk the sources, split each into pending games, and push them to
//! the engine, a source's own record first.
//!
//! Everything here is sequential and cheap (reading bytes, one memchr pass per file to find the
//! game trees); decoding and parsing happen later, in parallel, in [`PendingGame::read`]. A
//! small file goes to the workers whole and is split there, where most such files (one game
//! each) are split by reading their game ([`Unit::File`]). A source holds its bytes in one
//! shared buffer that its pending games point into, so a big collection is in memory as raw
//! bytes until its last game is analysed, never as parse trees. The one pass that is neither
//! cheap nor overlapped with the workers, the survey of a large file before its games, runs on
//! a thread of its own while the games go out, and hands this thread the parts it splits
//! ([`push_surveyed`]). With more than one worker, even the reading of a folder's files is
//! left to them ([`Unit::Path`]): this thread then only walks the folders.

use std::ops::ControlFlow;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::{Acquire, Relaxed, Release};
use std::sync::{Arc, Condvar, Mutex, PoisonError};
use std::thread;

use super::engine::{Feeder, INTERRUPT_POLL, WORKER_STACK_SIZE};
use super::interrupt::Interrupt;
use super::job::Job;
use super::progress::Progress;
use crate::finding::Finding;
use crate::record::{
    self, Found, FoundFile, Handover, PendingGame, ReadOptions, Source, SplitParts,
};

/// What the reader hands to the workers.
#[derive(Debug)]
pub(crate) enum Unit {
    /// A source, pushed before its games.
    Source(SourceInfo),
    /// A large file, pushed before its games while its survey still runs.
    Surveying(SurveyedSource),
    /// One game of the last source pushed.
    Game(PendingGame),
    /// One game of the last large file pushed, sent before its survey had said that its parts
    /// read as the whole file: dropped if the survey finds that they do not.
    Speculative(PendingGame),
    /// A small file, split where its games are read ([`record::split_small`]): the source and
    /// its games come back from the worker together.
    File(Source),
    /// A file of a folder not read yet (see [`feed`]): the worker reads it and splits
    /// it as a [`Unit::File`] if it is small; a larger one goes back to be read as if it came
    /// here.
    Path(FoundFile),
}

/// A source as the summary and `findings.csv` need it.
#[derive(Debug)]
pub(crate) struct SourceInfo {
    /// Its name (path, `archive!member`, `-`).
    pub name: String,
    /// Bytes read (0 when it could not be read).
    pub bytes: u64,
    /// Game trees found in it (a file with none still yields one stand-in game).
    pub games: u64,
    /// Problems with the source rather than one game (junk between games, BOM).
    pub findings: Vec<Finding>,
}

/// A large file whose game count and file-level findings come from its survey, a first pass
/// over the file that runs on a thread of its own while its games already go out.
#[derive(Debug)]
pub(crate) struct SurveyedSource {
    /// Its name.
    pub name: String,
    /// Its size.
    pub bytes: u64,
    /// The survey's answer, when it comes.
    pub survey: Arc<Survey>,
}

/// What a survey found, once it has ended: see [`Survey::wait`].
#[derive(Debug)]
pub(crate) struct Surveyed {
    /// Game trees in the file.
    pub games: u64,
    /// Its file-level findings.
    pub findings: Vec<Finding>,
    /// Whether the games split from its parts read as from the whole file (else the file is
    /// read whole and its games sent again: the speculative ones are dropped).
    pub parts_hold: bool,
}

/// The answer of a survey running on its own thread.
#[derive(Debug, Default)]
pub(crate) struct Survey {
    answer: Mutex<Option<Surveyed>>,
    ended: Condvar,
    /// Set once the answer is in: see [`Survey::has_ended`].
    has_ended: AtomicBool,
    failed: AtomicBool,
}

impl Survey {
    fn end(&self, surveyed: Surveyed) {
        self.failed.store(!surveyed.parts_hold, Relaxed);
        *self.answer.lock().unwrap_or_else(PoisonError::into_inner) = Some(surveyed);
        self.has_ended.store(true, Release);
        self.ended.notify_all();
    }

    /// Whether the survey has ended: [`Survey::wait`] would not wait.
    pub fn has_ended(&self) -> bool {
        self.has_ended.load(Acquire)
    }

    /// Whether the survey has ended and found that the parts do not read as the whole file.
    fn failed(&self) -> bool {
        self.failed.load(Relaxed)
    }

    /// Waits for the answer and takes it; `None` if `interrupt` is triggered first.
    pub fn wait(&self, interrupt: &Interrupt) -> Option<Surveyed> {
        let mut answer = self.answer.lock().unwrap_or_else(PoisonError::into_inner);
        loop {
            if let Some(surveyed) = answer.take() {
                return Some(surveyed);
            }
            if interrupt.is_triggered() {
                return None;
            }
            answer = self
                .ended
                .wait_timeout(answer, INTERRUPT_POLL)
                .unwrap_or_else(PoisonError::into_inner)
                .0;
        }
    }
}

/// Pushes every source of `job` (or of its shard) and their games, until the input ends or the
/// engine says stop.
///
/// With `parallel` (more than one worker, waiting on other cores for what this thread sends):
/// - the regular files of folders go out unread ([`Unit::Path`]), for the workers to open and
///   read: on a folder of thousands of small games, opening, reading and closing each file was
///   nearly all of this thread's work, a third of the whole run's, and on two cores it set the
///   pace (the workers waited for it);
/// - a large file's parts start short ([`record::split_parts_eager`]), so that its first games
///   go out before a whole part is read and split.
pub(crate) fn feed(job: &Job, parallel: bool, feeder: &mut Feeder<Unit>, progress: &Progress) {
    let _stopped = feed_until_stopped(job, parallel, feeder, progress);
}

fn feed_until_stopped(
    job: &Job,
    parallel: bool,
    feeder: &mut Feeder<Unit>,
    progress: &Progress,
) -> ControlFlow<()> {
    // Large files are read part by part, so that memory stays flat however large a
    // collection is (see `record::split_parts`).
    let read = ReadOptions { stream_above: Some(STREAM_ABOVE), ..job.read.clone() };
    let mut found = record::sources(job.paths.iter().cloned(), &read);
    if parallel {
        found = found.deferring_files();
    }
    let mut ordinal = 0u64;
    while let Some(next) = found.next_found() {
        if feeder.is_stopped() {
            return ControlFlow::Break(());
        }
        ordinal += 1;
        if job.shard.is_some_and(|shard| !shard.keeps(ordinal - 1)) {
            continue;
        }
        let source = match next {
            Found::Source(source) => source,
            Found::File(file) => {
                if progress.is_visible() {
                    progress.reading(&file.name());
                }
                // Its size is not known: weighed as one byte, a batch of them holds at most
                // its item limit times SMALL_FILE once read.
                feeder.push(Unit::Path(file), 1)?;
                continue;
            }
        };
        progress.reading(&source.name);
        if let (None, Ok(bytes)) = (&source.large, &source.bytes)
            && bytes.len() <= SMALL_FILE
        {
            let weight = bytes.len().max(1);
            feeder.push(Unit::File(source), weight)?;
            continue;
        }
        let name = source.name.clone();
        let bytes = match &source.large {
            Some(large) => large.size,
            None => source.bytes.as_ref().map_or(0, |b| b.len() as u64),
        };
        let split_parts = if parallel { record::split_parts_eager } else { record::split_parts };
        let parts = split_parts(source.clone(), &read);
        if parts.is_streamed() {
            push_surveyed(feeder, name, bytes, parts, split_parts(source, &read))?;
            continue;
        }
        let mut parts = parts;
        let split = parts.next().unwrap_or_default();
        let games = split.games.iter().filter(|g| g.has_tree()).count() as u64;
        let info = SourceInfo { name, bytes, games, findings: split.findings };
        feeder.push(Unit::Source(info), 0)?;
        push_games(feeder, split.games)?;
    }
    ControlFlow::Continue(())
}

/// Files above this size are read part by part ([`record::PART_BYTES`] at a time).
const STREAM_ABOVE: u64 = 2 * record::PART_BYTES as u64;

/// Files up to this size are split by the worker that reads their games ([`Unit::File`]): most
/// hold one game, which [`record::split_small`] splits by reading it. Larger ones are split here,
/// so that the games of a collection are spread over the workers.
const SMALL_FILE: usize = record::SMALL_READ;

/// Pushes a large file read part by part, and its games.
///
/// The source comes before its games, and its game count and file-level findings come from a
/// first pass over the whole file (the survey: 65M of the reader's 126M instructions on the
/// bench's 7 MB collection, during which the workers had nothing to do). The survey runs on a
/// thread of its own, and the games of the parts go out meanwhile as speculative; the consumer
/// waits for the survey's answer before it writes the source. The survey hands the parts it
/// splits to this thread, as far as it can without waiting for it ([`Handover`]): a file of a
/// few parts is split once (on tom-9d's 1.1 MB in 3 parts, 826 games, `kifu check -j1` went
/// from 109.2M to 100.8M instructions). In the rare file whose parts do not read as the whole
/// file (a legacy charset, UTF-8 damaged past the first part), the speculative games are
/// dropped and the games of the whole file sent instead.
fn push_surveyed(
    feeder: &mut Feeder<Unit>,
    name: String,
    bytes: u64,
    parts: SplitParts,
    mut surveyor: SplitParts,
) -> ControlFlow<()> {
    let survey = Arc::new(Survey::default());
    let answer = Arc::clone(&survey);
    let handover = Arc::new(Handover::default());
    let handing = Arc::clone(&handover);
    let surveying = thread::Builder::new()
        .name("kifu-survey".into())
        .stack_size(WORKER_STACK_SIZE)
        .spawn(move || {
            // Should the survey panic, the consumer must not wait for ever: it gets an empty
            // answer that drops the speculative games, and the panic goes on to the reader.
            let mut whole = None;
            let surveyed =
                catch_unwind(AssertUnwindSafe(|| match surveyor.survey_handing(&handing) {
                    Some((games, findings)) => Surveyed { games, findings, parts_hold: true },
                    None => {
                        let split = surveyor.next().unwrap_or_default();
                        let games = split.games.iter().filter(|g| g.has_tree()).count() as u64;
                        whole = Some(split.games);
                        Surveyed { games, findings: split.findings, parts_hold: false }
                    }
                }));
            match surveyed {
                Ok(surveyed) => {
                    answer.end(surveyed);
                    Ok(whole)
                }
                Err(panic) => {
                    answer.end(Surveyed { games: 0, findings: Vec::new(), parts_hold: false });
                    Err(panic)
                }
            }
        })
        .expect("the system refused a thread for the survey");
    let source = SurveyedSource { name, bytes, survey: Arc::clone(&survey) };
    feeder.push(Unit::Surveying(source), 0)?;
    for part in Handover::parts(handover, parts) {
        if survey.failed() {
            break;
        }
        for game in part.games {
            let weight = game.bytes().len().max(1);
            feeder.push(Unit::Speculative(game), weight)?;
        }
    }
    match surveying.join() {
        Ok(Ok(Some(whole))) => push_games(feeder, whole),
        Ok(Ok(None)) => ControlFlow::Continue(()),
        Ok(Err(panic)) | Err(panic) => std::panic::resume_unwind(panic),
    }
}

fn push_games(feeder: &mut Feeder<Unit>, games: Vec<PendingGame>) -> ControlFlow<()> {
    for game in games {
        // Weight a game by its text, so that a batch of huge games stays small.
        let weight = game.bytes().len().max(1);
        feeder.push(Unit::Game(game), weight)?;
    }
    ControlFlow::Continue(())
}
