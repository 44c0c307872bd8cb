//! The batch engine: a reader thread cuts the input into bounded batches, a rayon pool processes
//! each batch in parallel, and the results come back in input order.
//!
//! ```text
//!  reader thread                      bounded channel          rayon pool (IN_FLIGHT batches)
//!  produce(feeder) ── push(item) ──▶ [batch][batch] ──▶ par_iter().map(process).collect()
//!    (discovery, reading, splitting:    (QUEUE_DEPTH)          ──▶ calling thread, in order:
//!     sequential, cheap)                                            consume(results) (writers)
//! ```
//!
//! This is qsv's batch pattern (read a batch sequentially, process it in parallel, write in
//! order) with pgn-reader's reader thread and bounded channel in front, so reading the next
//! batch overlaps processing this one. The pool holds several batches (the one being consumed
//! and those behind it), so a worker that runs out of work in one batch goes on to the next
//! rather than waiting at a barrier for the others, and the calling thread hands the pool what
//! the reader has cut before it consumes each batch's results (writes the reports), so the
//! workers process the next batches meanwhile: neither the workers nor the writers wait for
//! each other. Three properties follow from the shape:
//! - **Deterministic output**: each batch's results keep the batch's order and batches are
//!   consumed in the order they were cut, so results come out in input order whatever the
//!   number of threads or the order in which work finished.
//! - **Bounded memory**: a batch holds at most [`BatchLimits::items`] items and about
//!   [`BatchLimits::bytes`] bytes of input; at most `QUEUE_DEPTH` batches wait in the channel, one
//!   is being filled and `IN_FLIGHT` are processed or waiting to be consumed. A collection of
//!   600,000 games is never in memory as parsed games at once, only a few thousand are.
//! - **Parallel over items, not files**: the reader pushes the games of one big collection one by
//!   one, so a single file still keeps every core busy.
//!
//! Ctrl-C (an [`Interrupt`]) stops the reader at the next item and makes the workers skip what is
//! left of the batches in hand; the run then ends with [`Completion::Interrupted`] and the
//! caller decides what to keep (`kifu audit` keeps nothing).

use std::collections::BTreeMap;
use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::AtomicBool;
use std::sync::atomic::Ordering::Relaxed;
use std::sync::mpsc::{
    Receiver, RecvTimeoutError, SyncSender, TryRecvError, channel, sync_channel,
};
use std::thread;
use std::time::Duration;

use rayon::prelude::*;

use super::interrupt::Interrupt;

/// Stack size of each worker thread: 64 MiB.
///
/// The default for rayon workers is 2 MiB. sgf-parse frees (and clones, compares, validates) its
/// trees recursively: a tree about 35,000 nodes deep aborts the whole process on 2 MiB (measured,
/// `shared/notes/dependencies.md` §2), and OGS writes one nesting level per move. 64 MiB moves
/// that edge past a million nested nodes, above the depth limit the record layer enforces. The
/// cost is address space only: the kernel maps stack pages when they are first touched, so a
/// worker that never recurses deeply uses what it would use with 2 MiB.
pub const WORKER_STACK_SIZE: usize = 64 * 1024 * 1024;

/// Batches waiting between the reader and the workers. Two keep the workers fed while the reader
/// is on a slow file, without holding more input than needed.
pub const QUEUE_DEPTH: usize = 2;

/// How often the calling thread looks at the interrupt flag while it waits for the reader.
pub(crate) const INTERRUPT_POLL: Duration = Duration::from_millis(100);

/// Batches handed to the pool and not yet consumed: the one being written and, on two cores,
/// one for each worker behind it, so that a worker that finishes a batch finds the next one
/// already in the pool while this thread writes the reports of the last. With two, a worker
/// that finished waited for the write of the batch before, and then for a wake-up (`perf
/// sched` on `kifu check -j2` of the bench's professional games: each worker slept about 430
/// times). Each batch is at most [`BatchLimits`] of input and its results.
const IN_FLIGHT: u64 = 4;

/// Batches handed to the pool while the next one to be consumed is held back because the
/// consumer cannot take it yet (see [`Engine::run_held`]: a large file's source row waits for
/// its survey, a second pass over the whole file). With only [`IN_FLIGHT`], the workers ran out
/// of work a few hundred games into the file and waited for the survey (about a tenth of `kifu
/// check -j2` on the bench's 7 MB collection); sixteen batches of at most [`BatchLimits`] keep
/// them busy that long, and still bound memory whatever the size of the file.
const IN_FLIGHT_HELD: u64 = 16;

/// How often the calling thread looks again at a batch held back (the consumer's readiness is
/// not a channel it can wait on). The pool holds [`IN_FLIGHT_HELD`] batches meanwhile, so a
/// late look costs the workers nothing.
const HELD_POLL: Duration = Duration::from_millis(1);

/// Items in the first batch the reader cuts; each next batch may hold twice as many as the one
/// before, up to [`BatchLimits::items`]. The workers wait for the first batch, so it is cut
/// small: a whole first batch of 512 would be an eighth of the bench's 4,266 professional
/// games read before any worker starts, where the ramp of 16, 32, 64 reaches full batches of
/// 128 after 112.
const FIRST_BATCH_ITEMS: usize = 16;

/// The largest batch the reader cuts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BatchLimits {
    /// Items (games) per batch.
    pub items: usize,
    /// Bytes of input per batch (an item larger than this is a batch of its own).
    pub bytes: usize,
}

impl Default for BatchLimits {
    /// 128 games or 4 MB, whichever comes first: big enough that rayon's splitting and the
    /// channel cost nothing per game (a batch of pro games is about 0.2 MB and 3 ms of checking,
    /// 0.1 s of auditing), small enough that the few batches in flight hold a few megabytes, so
    /// that peak memory is reached within the first few hundred games and stays there however
    /// large the input (measured in BENCHMARKS.md, "Speed side by side"). The reader runs that
    /// far ahead of the workers, and every page of its heap is a page fault when first touched:
    /// batches of 512 games held four times as much and cost about 800 more page faults on the
    /// bench's professional games (`kifu check -j1`: 1,600 against 780, about 2 µs each here),
    /// for no fewer instructions.
    fn default() -> BatchLimits {
        BatchLimits { items: 128, bytes: 4 * 1024 * 1024 }
    }
}

/// How a run ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Completion {
    /// Every item was processed and consumed.
    Finished,
    /// Ctrl-C: the input was not read to the end and the last batch was dropped.
    Interrupted,
}

/// The worker pool and the batching policy of a run.
#[derive(Debug)]
pub struct Engine {
    pool: rayon::ThreadPool,
    limits: BatchLimits,
    interrupt: Interrupt,
}

impl Engine {
    /// A pool of `threads` workers (0: one per core) with [`WORKER_STACK_SIZE`] stacks.
    pub fn new(
        threads: usize,
        limits: BatchLimits,
        interrupt: Interrupt,
    ) -> std::io::Result<Engine> {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .stack_size(WORKER_STACK_SIZE)
            .thread_name(|i| format!("kifu-worker-{i}"))
            .build()
            .map_err(std::io::Error::other)?;
        let limits = BatchLimits { items: limits.items.max(1), bytes: limits.bytes.max(1) };
        Ok(Engine { pool, limits, interrupt })
    }

    /// Number of worker threads.
    pub fn threads(&self) -> usize {
        self.pool.current_num_threads()
    }

    /// The interrupt this engine watches.
    pub fn interrupt(&self) -> &Interrupt {
        &self.interrupt
    }

    /// Drops `spent` on a worker rather than on the calling thread.
    ///
    /// What the workers allocated (a game's report: its rows, strings and findings) lives in
    /// their own glibc heaps; freed by the thread that writes the reports, every block goes back
    /// to a heap another thread is allocating from, under that heap's lock. perf put about 4 ms
    /// of `kifu check -j2`'s CPU on `pro` in malloc across threads (the writer's `_int_free`
    /// 0.31 -> 1.21 ms against -j1, the workers' heap consolidation doubled); freeing on a
    /// worker saved less than that, as measured: 1.0-1.7 ms of about 81 ms in alternated runs
    /// (BENCHMARKS.md, 5 December), wall time unchanged within noise. With one worker the
    /// calling thread frees them itself: nothing runs beside it to contend with.
    pub fn drop_on_worker<T: Send + 'static>(&self, spent: T) {
        if self.threads() > 1 {
            self.pool.spawn(move || drop(spent));
        }
    }

    /// Runs `produce` on a reader thread, `process` on every item in parallel, and `consume` on
    /// each batch of results, in input order, on the calling thread.
    ///
    /// `produce` pushes items through the [`Feeder`] and must stop when a push returns
    /// `ControlFlow::Break` (the consumer failed or the run was interrupted). An error from
    /// `consume` stops the run and is returned.
    ///
    /// The reader thread is joined when the input ends. After an error or an interrupt it is
    /// left to stop on its own at its next push: it may be blocked in a read that never returns
    /// (a FIFO, a terminal on standard input), and Ctrl-C must not wait for it.
    pub fn run<T, O, E>(
        &self,
        produce: impl FnOnce(&mut Feeder<T>) + Send + 'static,
        process: impl Fn(T) -> O + Sync + Send,
        consume: impl FnMut(Vec<O>) -> Result<(), E>,
    ) -> Result<Completion, E>
    where
        T: Send + 'static,
        O: Send,
    {
        self.run_held(produce, |_| {}, process, |_| true, consume)
    }

    /// [`Engine::run`], with two more hooks.
    ///
    /// `meanwhile` runs on the calling thread once the reader thread has started and before the
    /// first batch is handed to the workers: work that can go ahead while the reader finds the
    /// first items (a folder's walk lists and sorts the whole folder before its first file). It
    /// is given a probe that says whether the reader has cut its first batch, and should return
    /// soon after it has, or the workers wait for it.
    ///
    /// `ready` says of each result whether the consumer can take it now without waiting for
    /// something else (a large file's survey). A batch with a result that is not ready is held
    /// back, not consumed, and the pool is given up to sixteen batches meanwhile (`IN_FLIGHT_HELD`)
    /// instead of four (`IN_FLIGHT`), so that the workers go on while the consumer could only
    /// wait.
    /// `consume` still gets every batch, in input order.
    pub fn run_held<T, O, E>(
        &self,
        produce: impl FnOnce(&mut Feeder<T>) + Send + 'static,
        meanwhile: impl FnOnce(&dyn Fn() -> bool),
        process: impl Fn(T) -> O + Sync + Send,
        ready: impl Fn(&O) -> bool,
        mut consume: impl FnMut(Vec<O>) -> Result<(), E>,
    ) -> Result<Completion, E>
    where
        T: Send + 'static,
        O: Send,
    {
        let (sender, receiver) = sync_channel::<Vec<T>>(QUEUE_DEPTH);
        let limits = self.limits;
        let interrupt = self.interrupt.clone();
        let cut = Arc::new(AtomicBool::new(false));
        let first_cut = Arc::clone(&cut);
        let reader = thread::Builder::new()
            .name("kifu-reader".into())
            .stack_size(WORKER_STACK_SIZE)
            .spawn(move || {
                let mut feeder = Feeder::new(sender, limits, interrupt, first_cut);
                produce(&mut feeder);
                let _ = feeder.flush();
            })
            .expect("the system refused a thread for the reader");
        meanwhile(&|| cut.load(Relaxed));
        let result = self.process_batches(&receiver, &process, &ready, &mut consume);
        if matches!(result, Ok(Completion::Finished))
            && let Err(panic) = reader.join()
        {
            // The input ended because the reader panicked: that is a bug, not an end of input.
            std::panic::resume_unwind(panic);
        }
        result
    }

    fn process_batches<T: Send, O: Send, E>(
        &self,
        receiver: &Receiver<Vec<T>>,
        process: &(impl Fn(T) -> O + Sync + Send),
        ready_to_consume: &impl Fn(&O) -> bool,
        consume: &mut impl FnMut(Vec<O>) -> Result<(), E>,
    ) -> Result<Completion, E> {
        let interrupt = &self.interrupt;
        // Set when this thread gives up (a consumer's error): the batches in flight skip
        // what is left of them, as after Ctrl-C.
        let stopping = AtomicBool::new(false);
        let stopping = &stopping;
        let (done, finished) = channel::<(u64, Vec<Option<O>>)>();
        // Each batch is a task of one scope opened on this thread, and the next batch is handed
        // to the pool before the one in hand is done, so that a worker that runs out of work
        // in one batch goes on to the next instead of waiting for the other workers (a
        // barrier per batch, and the sleep and wake-up of each idle worker that came with it,
        // cost a third of the second core on folders of small games). This thread consumes
        // the results in input order as they come.
        self.pool.in_place_scope(|scope| {
            let mut ready: BTreeMap<u64, Vec<Option<O>>> = BTreeMap::new();
            let (mut handed, mut consumed) = (0u64, 0u64);
            let mut input_open = true;
            // Whether the next batch to consume is done but held back (`ready_to_consume`).
            let mut held = false;
            let hand = |batch: Vec<T>, handed: &mut u64| {
                let (done, index) = (done.clone(), *handed);
                *handed += 1;
                scope.spawn(move |_| {
                    let live = || !interrupt.is_triggered() && !stopping.load(Relaxed);
                    let results =
                        batch.into_par_iter().map(|item| live().then(|| process(item))).collect();
                    // The receiver lives until the scope has ended.
                    let _ = done.send((index, results));
                });
            };
            let completion = 'run: loop {
                if interrupt.is_triggered() {
                    break Ok(Completion::Interrupted);
                }
                // First the workers' supply: every batch the reader has ready, while there is
                // room. Consuming (writing the reports) comes after, so that a worker that has
                // finished its batch finds the next one in the pool instead of waiting for this
                // thread to write the last one.
                let room = if held { IN_FLIGHT_HELD } else { IN_FLIGHT };
                while input_open && handed - consumed < room {
                    match receiver.try_recv() {
                        Ok(batch) => hand(batch, &mut handed),
                        Err(TryRecvError::Empty) => break,
                        Err(TryRecvError::Disconnected) => input_open = false,
                    }
                }
                ready.extend(finished.try_iter());
                held = false;
                if let Some(results) = ready.remove(&consumed) {
                    if results.iter().flatten().all(ready_to_consume) {
                        if interrupt.is_triggered() {
                            break 'run Ok(Completion::Interrupted);
                        }
                        // Every item was processed (the interrupt was not seen), so every slot
                        // is Some.
                        if let Err(e) = consume(results.into_iter().flatten().collect()) {
                            break 'run Err(e);
                        }
                        consumed += 1;
                        // There is room in the pool again: fill it before the next batch is
                        // consumed or waited for. Batches are often done several at once (a
                        // worker waiting in one batch's join runs the next one meanwhile, and
                        // returns both together), and writing them all first left the pool
                        // empty and both workers asleep for that long (`perf sched` of `kifu
                        // check -j2` at SCHED_RR on the bench's professional games: every 4 ms
                        // or so, 0.3-1.4 ms; idle of the two cores from exec to exit 3.0-5.3 ms
                        // against 2.0-2.7 ms now, on the collection 3.9-8.2 against 2.7-3.0).
                        continue;
                    }
                    ready.insert(consumed, results);
                    held = true;
                }
                if !input_open && consumed == handed {
                    break Ok(Completion::Finished);
                }
                // Nothing to do until the reader cuts a batch (when there is room for one) or
                // a batch is done. A reader that stalls (a slow file, a FIFO) holds back the
                // writing of what is done by INTERRUPT_POLL at most.
                // While a batch is held back, the wait is short: what releases it is not
                // something this thread can wait on.
                let (room, poll) =
                    if held { (IN_FLIGHT_HELD, HELD_POLL) } else { (IN_FLIGHT, INTERRUPT_POLL) };
                if input_open && handed - consumed < room {
                    match receiver.recv_timeout(poll) {
                        Ok(batch) => hand(batch, &mut handed),
                        Err(RecvTimeoutError::Timeout) => {}
                        Err(RecvTimeoutError::Disconnected) => input_open = false,
                    }
                } else if let Ok((index, results)) = finished.recv_timeout(poll) {
                    ready.insert(index, results);
                }
            };
            if !matches!(completion, Ok(Completion::Finished)) {
                stopping.store(true, Relaxed);
            }
            completion
        })
    }
}

/// The reader's end of the engine: collects pushed items into batches and sends them on.
#[derive(Debug)]
pub struct Feeder<T> {
    sender: SyncSender<Vec<T>>,
    limits: BatchLimits,
    interrupt: Interrupt,
    batch: Vec<T>,
    bytes: usize,
    /// Items the batch being filled may hold: growing from [`FIRST_BATCH_ITEMS`] to the limit.
    items: usize,
    stopped: bool,
    /// Set once a batch has been sent: [`Engine::run_held`]'s `meanwhile` probe.
    cut: Arc<AtomicBool>,
}

impl<T> Feeder<T> {
    fn new(
        sender: SyncSender<Vec<T>>,
        limits: BatchLimits,
        interrupt: Interrupt,
        cut: Arc<AtomicBool>,
    ) -> Feeder<T> {
        let items = limits.items.min(FIRST_BATCH_ITEMS);
        let batch = Vec::with_capacity(items);
        Feeder { sender, limits, interrupt, batch, bytes: 0, items, stopped: false, cut }
    }

    /// Adds an item of about `bytes` bytes of input. `Break` means: stop reading.
    pub fn push(&mut self, item: T, bytes: usize) -> ControlFlow<()> {
        if self.is_stopped() {
            return ControlFlow::Break(());
        }
        if !self.batch.is_empty() && self.bytes.saturating_add(bytes) > self.limits.bytes {
            self.flush()?;
        }
        self.batch.push(item);
        self.bytes = self.bytes.saturating_add(bytes);
        if self.batch.len() >= self.items || self.bytes >= self.limits.bytes {
            self.flush()?;
        }
        ControlFlow::Continue(())
    }

    /// Sends the batch in hand, if any. Called at the end by the engine; a producer may call it
    /// to make what it pushed so far visible sooner (e.g. before a slow read).
    pub fn flush(&mut self) -> ControlFlow<()> {
        if self.is_stopped() {
            return ControlFlow::Break(());
        }
        if self.batch.is_empty() {
            return ControlFlow::Continue(());
        }
        self.bytes = 0;
        self.items = self.limits.items.min(self.items * 2);
        // The next batch is made as large as it may grow at once: grown push by push from
        // nothing, it was reallocated eight times on its way to 128 items, and each of the
        // larger reallocations could make glibc consolidate the reader's heap (`perf record`
        // of `kifu check -j2` on the bench's professional games: the reallocations and the
        // consolidations were 81 of the reader's 621 samples).
        let next = Vec::with_capacity(self.items);
        let batch = std::mem::replace(&mut self.batch, next);
        if self.sender.send(batch).is_err() {
            self.stopped = true;
            return ControlFlow::Break(());
        }
        self.cut.store(true, Relaxed);
        ControlFlow::Continue(())
    }

    /// Whether the run is over for the reader: the consumer stopped or Ctrl-C was pressed.
    pub fn is_stopped(&self) -> bool {
        self.stopped || self.interrupt.is_triggered()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicUsize, Ordering};

    fn engine(threads: usize, items: usize, bytes: usize) -> Engine {
        Engine::new(threads, BatchLimits { items, bytes }, Interrupt::new()).unwrap()
    }

    /// Uneven work, so that items finish out of order on several threads.
    fn slow_square(x: u64) -> u64 {
        let mut acc = 0u64;
        for i in 0..(x % 7) * 3_000 {
            acc = acc.wrapping_add(i ^ x);
        }
        std::hint::black_box(acc);
        x * x
    }

    fn run_collect(e: &Engine, n: u64) -> (Vec<u64>, Vec<usize>) {
        let mut out = Vec::new();
        let mut batch_sizes = Vec::new();
        let done = e
            .run(
                move |feeder| {
                    for x in 0..n {
                        if feeder.push(x, 10).is_break() {
                            return;
                        }
                    }
                },
                slow_square,
                |batch: Vec<u64>| -> Result<(), ()> {
                    batch_sizes.push(batch.len());
                    out.extend(batch);
                    Ok(())
                },
            )
            .unwrap();
        assert_eq!(done, Completion::Finished);
        (out, batch_sizes)
    }

    #[test]
    fn results_come_back_in_input_order_whatever_the_thread_count() {
        let want: Vec<u64> = (0..500).map(|x| x * x).collect();
        for threads in [1, 2, 4] {
            for batch in [1, 7, 64, 1000] {
                let (got, _) = run_collect(&engine(threads, batch, usize::MAX), 500);
                assert_eq!(got, want, "threads {threads}, batch {batch}");
            }
        }
    }

    #[test]
    fn batches_respect_both_item_and_byte_limits() {
        let (_, sizes) = run_collect(&engine(2, 8, usize::MAX), 20);
        assert_eq!(sizes, [8, 8, 4]);
        // 10 bytes per item, 35 bytes per batch: three items fit, the fourth would not.
        let (_, sizes) = run_collect(&engine(2, 100, 35), 7);
        assert_eq!(sizes, [3, 3, 1]);
    }

    #[test]
    fn the_first_batches_are_small_so_that_the_workers_start_early() {
        let (got, sizes) = run_collect(&engine(2, 100, usize::MAX), 500);
        assert_eq!(sizes, [16, 32, 64, 100, 100, 100, 88]);
        assert_eq!(got, (0..500).map(|x| x * x).collect::<Vec<u64>>());
    }

    #[test]
    fn an_item_larger_than_a_batch_travels_alone() {
        let e = engine(1, 100, 50);
        let mut sizes = Vec::new();
        e.run(
            |f| {
                for bytes in [10, 500, 10, 10] {
                    let _ = f.push(bytes, bytes);
                }
            },
            |x| x,
            |b: Vec<usize>| -> Result<(), ()> {
                sizes.push(b);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(sizes, [vec![10], vec![500], vec![10, 10]]);
    }

    #[test]
    fn the_reader_stays_at_most_a_few_batches_ahead() {
        // Memory bound: when the consumer is slow, the reader blocks instead of reading on.
        let e = engine(1, 10, usize::MAX);
        let pushed = Arc::new(AtomicUsize::new(0));
        let mut max_ahead = 0;
        let mut consumed = 0;
        let counter = pushed.clone();
        e.run(
            move |f| {
                for x in 0..1000u64 {
                    counter.fetch_add(1, Ordering::SeqCst);
                    if f.push(x, 1).is_break() {
                        return;
                    }
                }
            },
            |x| x,
            |b: Vec<u64>| -> Result<(), ()> {
                std::thread::sleep(std::time::Duration::from_millis(2));
                consumed += b.len();
                max_ahead = max_ahead.max(pushed.load(Ordering::SeqCst) - consumed);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(consumed, 1000);
        // In the channel (QUEUE_DEPTH), blocked in send (1), being filled (1), in the pool
        // (IN_FLIGHT, less the one being consumed, counted as consumed): at most
        // QUEUE_DEPTH + IN_FLIGHT + 1 batches of 10.
        let bound = (QUEUE_DEPTH + IN_FLIGHT as usize + 1) * 10;
        assert!(max_ahead <= bound, "reader ran {max_ahead} items ahead");
    }

    #[test]
    fn a_batch_held_back_lets_the_workers_go_on_with_the_next_ones() {
        // The first item cannot be consumed until the item of the eleventh batch of 10 has
        // been processed (as a large file's source waits for its survey): with only IN_FLIGHT
        // batches handed out while it waits, the run would never end.
        let interrupt = Interrupt::new();
        let e = Engine::new(2, BatchLimits { items: 10, bytes: usize::MAX }, interrupt.clone())
            .unwrap();
        let released = AtomicBool::new(false);
        let watchdog = interrupt.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_secs(20));
            watchdog.trigger();
        });
        let mut out = Vec::new();
        let done = e
            .run_held(
                |f| {
                    for x in 0..300u64 {
                        if f.push(x, 1).is_break() {
                            return;
                        }
                    }
                },
                |_| {},
                |x| {
                    if x == 100 {
                        released.store(true, Ordering::SeqCst);
                    }
                    x
                },
                |&x| x != 0 || released.load(Ordering::SeqCst),
                |b: Vec<u64>| -> Result<(), ()> {
                    out.extend(b);
                    Ok(())
                },
            )
            .unwrap();
        assert_eq!(done, Completion::Finished, "the held batch was never released");
        assert_eq!(out, (0..300).collect::<Vec<u64>>());
    }

    #[test]
    fn the_pool_is_refilled_after_each_batch_written_not_after_all_that_are_done() {
        // Batch 0 (one item each) is slow, so batches 1-3 are done by the time it is: four
        // batches to write at once. Each write takes 30 ms. The pool must get batch 4 as soon
        // as batch 0 is written, and batch 5 after batch 1, so that the workers have work
        // while the rest are written: by the time batch 3 is written, more than the first
        // four items have been processed.
        let e = engine(2, 1, usize::MAX);
        let processed = AtomicUsize::new(0);
        let mut seen_at_write = Vec::new();
        e.run(
            |f| {
                for x in 0..12u64 {
                    if f.push(x, 1).is_break() {
                        return;
                    }
                }
            },
            |x| {
                if x == 0 {
                    std::thread::sleep(std::time::Duration::from_millis(100));
                }
                processed.fetch_add(1, Ordering::SeqCst);
                x
            },
            |_b: Vec<u64>| -> Result<(), ()> {
                seen_at_write.push(processed.load(Ordering::SeqCst));
                std::thread::sleep(std::time::Duration::from_millis(30));
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(seen_at_write.len(), 12);
        assert!(seen_at_write[3] > 4, "processed when each batch was written: {seen_at_write:?}");
    }

    #[test]
    fn a_consumer_error_stops_the_reader_and_is_returned() {
        let e = engine(2, 4, usize::MAX);
        let read = Arc::new(AtomicUsize::new(0));
        let counter = read.clone();
        let result = e.run(
            move |f| {
                for x in 0..1_000_000u64 {
                    counter.fetch_add(1, Ordering::SeqCst);
                    if f.push(x, 1).is_break() {
                        return;
                    }
                }
            },
            |x| x,
            |_b: Vec<u64>| Err("disk full"),
        );
        assert_eq!(result, Err("disk full"));
        assert!(read.load(Ordering::SeqCst) < 100, "the reader should stop soon after");
    }

    #[test]
    fn an_interrupt_stops_reading_and_drops_the_batch_in_hand() {
        let interrupt = Interrupt::new();
        let e = Engine::new(2, BatchLimits { items: 10, bytes: usize::MAX }, interrupt.clone())
            .unwrap();
        let mut consumed = 0;
        let trigger = interrupt.clone();
        let (stopped_at, stop) = std::sync::mpsc::channel();
        let done = e
            .run(
                move |f| {
                    for x in 0..1_000_000u64 {
                        if x == 35 {
                            trigger.trigger();
                        }
                        if f.push(x, 1).is_break() {
                            let _ = stopped_at.send(x);
                            return;
                        }
                    }
                },
                |x| x,
                |b: Vec<u64>| -> Result<(), ()> {
                    consumed += b.len();
                    Ok(())
                },
            )
            .unwrap();
        assert_eq!(done, Completion::Interrupted);
        assert!(consumed <= 30, "only whole batches cut before the interrupt: {consumed}");
        assert_eq!(consumed % 10, 0);
        let x = stop.recv_timeout(std::time::Duration::from_secs(10)).unwrap();
        assert_eq!(x, 35, "the reader stops at the first push after Ctrl-C");
    }

    #[test]
    fn ctrl_c_does_not_wait_for_a_reader_stuck_in_a_read() {
        // A FIFO or a terminal on standard input can block a read for ever.
        let interrupt = Interrupt::new();
        let e = Engine::new(1, BatchLimits::default(), interrupt.clone()).unwrap();
        let trigger = interrupt.clone();
        std::thread::spawn(move || {
            std::thread::sleep(std::time::Duration::from_millis(50));
            trigger.trigger();
        });
        let started = std::time::Instant::now();
        let done = e
            .run(
                |_f: &mut Feeder<u64>| loop {
                    std::thread::park();
                },
                |x| x,
                |_b: Vec<u64>| -> Result<(), ()> { Ok(()) },
            )
            .unwrap();
        assert_eq!(done, Completion::Interrupted);
        assert!(started.elapsed() < std::time::Duration::from_secs(5));
    }

    #[test]
    fn workers_have_the_large_stack() {
        // Recursion that needs ~16 MiB would overflow a default 2 MiB rayon stack.
        fn depth(n: u32) -> u32 {
            let pad = std::hint::black_box([0u8; 512]);
            if n == 0 { pad[0] as u32 } else { 1 + depth(n - 1) + pad[1] as u32 }
        }
        let e = engine(2, 1, usize::MAX);
        let mut out = Vec::new();
        e.run(
            |f| {
                let _ = f.push(30_000u32, 1);
            },
            depth,
            |b: Vec<u32>| -> Result<(), ()> {
                out.extend(b);
                Ok(())
            },
        )
        .unwrap();
        assert_eq!(out, [30_000]);
    }
}
