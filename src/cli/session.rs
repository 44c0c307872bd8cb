//! What `audit`, `check` and `score` share around a run: Ctrl-C, the worker pool, the progress
//! line, the clock, and the summary on standard error; and for `check` and `score`, the one
//! table they stream to standard output.

use std::cell::RefCell;
use std::io::{self, BufWriter, Write};
use std::time::Instant;

use serde::Serialize;

use super::args::RunArgs;
use crate::pipeline::{
    Completion, Engine, INTERRUPTED_EXIT_CODE, Interrupt, Job, Processed, Progress, run_job,
};
use crate::report::{Column, CsvTable, Summary};

/// A run in progress.
pub struct Session {
    /// The worker pool.
    pub engine: Engine,
    /// The progress line (hidden unless standard error is a terminal).
    pub progress: Progress,
    /// When the run started.
    pub started: Instant,
    quiet: bool,
}

impl Session {
    /// Installs the Ctrl-C handler, starts the pool and the progress line.
    pub fn start(run: &RunArgs) -> io::Result<Session> {
        keep_heap_tops();
        let interrupt = Interrupt::new();
        interrupt.on_ctrl_c();
        let engine = Engine::new(run.threads(), run.limits(), interrupt)?;
        Ok(Session {
            engine,
            progress: Progress::new(!run.quiet),
            started: Instant::now(),
            quiet: run.quiet,
        })
    }

    /// Stops the progress line and fills in the summary's time, threads and interruption.
    pub fn finish(&self, summary: &mut Summary, completion: Completion) {
        self.progress.finish();
        summary.elapsed = self.started.elapsed();
        summary.threads = self.engine.threads();
        summary.interrupted = completion == Completion::Interrupted;
    }

    /// Prints `text` on standard error unless --quiet.
    pub fn say(&self, text: &str) {
        if !self.quiet {
            eprint!("{text}");
        }
    }

    /// The exit status for how the run ended: 0, or 130 after Ctrl-C.
    pub fn exit_code(completion: Completion) -> u8 {
        match completion {
            Completion::Finished => 0,
            Completion::Interrupted => INTERRUPTED_EXIT_CODE,
        }
    }
}

/// Runs `job` in a new [`Session`] and writes the rows `rows` picks from each source and game
/// as CSV on standard output, with `columns` (and a header line when `header`), as they come;
/// then prints `summary`, filled in, on standard error. This is the whole of `kifu check` and
/// `kifu score`, which differ in their rows. Returns the exit status on success.
pub fn stream_rows<T: Serialize>(
    job: &Job,
    run: &RunArgs,
    columns: &[Column],
    header: bool,
    mut summary: Summary,
    rows: impl Fn(&Processed) -> &[T],
) -> io::Result<u8> {
    let session = Session::start(run)?;
    let stdout = io::stdout();
    let out = BufWriter::with_capacity(64 * 1024, stdout.lock());
    // Rows are written by one closure and flushed after each batch by another.
    let table = RefCell::new(CsvTable::new(out, columns, header)?);
    let completion = run_job(
        &session.engine,
        job,
        &session.progress,
        |item| {
            match item {
                Processed::Source(source) => {
                    summary.add_source(source.bytes, source.games, &source.findings)
                }
                Processed::Game(game) => summary.add_game(game),
            }
            rows(item).iter().try_for_each(|row| table.borrow_mut().write(row))
        },
        || table.borrow_mut().flush(),
    )?;
    table.into_inner().into_inner()?.flush()?;
    session.finish(&mut summary, completion);
    session.say(&summary.to_string());
    Ok(Session::exit_code(completion))
}

/// Memory glibc's allocator keeps at the top of a heap when it could give it back, and adds
/// when it grows one: 4 MiB instead of none.
///
/// The workers' heaps (one glibc arena per thread) shrank whenever a batch's games were freed and
/// grew again for the next, each time with an `mprotect` (which takes the address space's write
/// lock, stalling the page faults of the other threads) and fresh zeroed pages. `kifu check -j2`
/// on the bench's 7 MB collection: 171 to 434 `mprotect` calls a run (`strace -f -c`) and about
/// 2,000 to 2,200 page faults (`perf stat`) without the pad, 24 and about 1,760 with it; on the
/// 4,266 professional games 239 to 268 calls against 18. What is kept is about the peak a run
/// reaches anyway: 13.2 MB for one copy of that collection (12.1 without), 14.0 MB for ten
/// (14.0 without), so memory stays as flat as the collection grows.
///
/// Only when glibc's allocator is the binary's: mimalloc (the default, src/main.rs) keeps its
/// own pages.
#[cfg(all(target_os = "linux", target_env = "gnu", not(feature = "mimalloc")))]
fn keep_heap_tops() {
    /// `M_TOP_PAD` of glibc's `<malloc.h>`.
    const M_TOP_PAD: i32 = -2;
    unsafe extern "C" {
        fn mallopt(param: i32, value: i32) -> i32;
    }
    // SAFETY: mallopt only sets a tuning parameter of the allocator, under its own lock; it
    // touches no memory of ours and is called before any thread of the run is started.
    unsafe {
        mallopt(M_TOP_PAD, 4 << 20);
    }
}

/// Other allocators need no such tuning.
#[cfg(not(all(target_os = "linux", target_env = "gnu", not(feature = "mimalloc"))))]
fn keep_heap_tops() {}
