//! What `audit`, `check` and `score` share around a run: Ctrl-C, the worker pool, the progress
//! line, the clock, and the summary on standard error.

use std::io;
use std::time::Instant;

use super::args::RunArgs;
use crate::pipeline::{Completion, Engine, INTERRUPTED_EXIT_CODE, Interrupt, Progress};
use crate::report::Summary;

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
