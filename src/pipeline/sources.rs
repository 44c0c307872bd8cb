//! The reader thread's work: walk the sources, split each into pending games, and push them to
//! the engine, a source's own record first.
//!
//! Everything here is sequential and cheap (reading bytes, one memchr pass per file to find the
//! game trees); decoding and parsing happen later, in parallel, in [`PendingGame::read`]. A
//! small file goes to the workers whole and is split there, where most such files (one game
//! each) are split by reading their game ([`Unit::File`]). A source holds its bytes in one
//! shared buffer that its pending games point into, so a big collection is in memory as raw
//! bytes until its last game is analysed, never as parse trees.

use std::ops::ControlFlow;

use super::engine::Feeder;
use super::job::Job;
use super::progress::Progress;
use crate::finding::Finding;
use crate::record::{self, PendingGame, ReadOptions, Source};

/// What the reader hands to the workers.
#[derive(Debug)]
pub(crate) enum Unit {
    /// A source, pushed before its games.
    Source(SourceInfo),
    /// One game of the last source pushed.
    Game(PendingGame),
    /// A small file, split where its games are read ([`record::split_small`]): the source and
    /// its games come back from the worker together.
    File(Source),
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

/// Pushes every source of `job` (or of its shard) and their games, until the input ends or the
/// engine says stop.
pub(crate) fn feed(job: &Job, feeder: &mut Feeder<Unit>, progress: &Progress) {
    let _stopped = feed_until_stopped(job, feeder, progress);
}

fn feed_until_stopped(
    job: &Job,
    feeder: &mut Feeder<Unit>,
    progress: &Progress,
) -> ControlFlow<()> {
    // Large files are read part by part, so that memory stays flat however large a
    // collection is (see `record::split_parts`).
    let read = ReadOptions { stream_above: Some(STREAM_ABOVE), ..job.read.clone() };
    for (ordinal, source) in record::sources(job.paths.iter().cloned(), &read).enumerate() {
        if feeder.is_stopped() {
            return ControlFlow::Break(());
        }
        if job.shard.is_some_and(|shard| !shard.keeps(ordinal as u64)) {
            continue;
        }
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
        let mut parts = record::split_parts(source, &read);
        if let Some((games, findings)) = parts.survey() {
            // The source comes before its games: its game count and file-level findings come
            // from a first pass over the file; the parts then give the games.
            feeder.push(Unit::Source(SourceInfo { name, bytes, games, findings }), 0)?;
            for part in parts {
                push_games(feeder, part.games)?;
            }
            continue;
        }
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
const SMALL_FILE: usize = 64 << 10;

fn push_games(feeder: &mut Feeder<Unit>, games: Vec<PendingGame>) -> ControlFlow<()> {
    for game in games {
        // Weight a game by its text, so that a batch of huge games stays small.
        let weight = game.bytes().len().max(1);
        feeder.push(Unit::Game(game), weight)?;
    }
    ControlFlow::Continue(())
}
