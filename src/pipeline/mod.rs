//! The batch pipeline: from the paths a user gives to analysed games, in parallel, in input
//! order, in bounded memory.
//!
//! ```text
//! paths ─▶ record::input (discovery, archives, stdin) ─▶ split into games ─▶ bounded batches
//!       ─▶ rayon: read + analyse each game ─▶ rows in input order ─▶ writers (report folder, stdout)
//! ```
//!
//! (A file of up to 64 KB travels whole and is split by the worker that reads its games:
//! `sources`, [`crate::record::split_small`]. With more than one worker, a folder's files travel
//! as paths, and the workers open and read them too: `sources::feed`; while the reader lists
//! and sorts the first folder, the calling thread reads some of its files ahead: `map`.)
//!
//! - [`job`]: what to read and compute, and [`run_job`], which runs it and hands over rows;
//! - [`engine`]: the reader thread, the bounded channel and the ordered parallel batches;
//! - [`map`]: [`map_games`], any per-game work (dedupe keys, rewritten games) on the same engine;
//! - [`interrupt`]: Ctrl-C as a flag;
//! - [`progress`]: the progress line on standard error.
//!
//! It knows nothing of SGF (the record layer does) or of Go (analysis does), and writes nothing
//! itself: the commands in `cli` hand it a consumer.

pub mod engine;
pub mod interrupt;
pub mod job;
pub mod map;
pub mod progress;
mod sources;

pub use engine::{BatchLimits, Completion, Engine, Feeder};
pub use interrupt::{INTERRUPTED_EXIT_CODE, Interrupt};
pub use job::{Job, Processed, Shard, SourceReport, run_job};
pub use map::{Mapped, map_games};
pub use progress::Progress;
