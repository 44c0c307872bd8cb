//! Ctrl-C as a value: a shared flag the reader and the workers look at between games.
//!
//! The first Ctrl-C sets the flag: the reader stops at the next game, workers skip the rest of
//! their batch, and the command removes its temporary files and exits with status 130 (128 +
//! SIGINT, the shell convention). A second Ctrl-C exits at once, for a run stuck in a slow read.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// Exit status of a run stopped by Ctrl-C: 128 + SIGINT.
pub const INTERRUPTED_EXIT_CODE: u8 = 130;

/// A flag set once, by Ctrl-C or by a test.
#[derive(Clone, Debug, Default)]
pub struct Interrupt(Arc<AtomicBool>);

impl Interrupt {
    /// A flag not yet set.
    pub fn new() -> Interrupt {
        Interrupt::default()
    }

    /// Sets the flag.
    pub fn trigger(&self) {
        self.0.store(true, Ordering::SeqCst);
    }

    /// Whether the flag is set.
    pub fn is_triggered(&self) -> bool {
        self.0.load(Ordering::Relaxed)
    }

    /// Makes Ctrl-C (and SIGTERM or SIGHUP) set this flag; a second one exits the process with
    /// [`INTERRUPTED_EXIT_CODE`]. Only the first call in a process installs a handler; later
    /// calls report `false` and change nothing.
    pub fn on_ctrl_c(&self) -> bool {
        let flag = self.clone();
        ctrlc::set_handler(move || {
            if flag.is_triggered() {
                eprintln!("kifu: interrupted twice, stopping now");
                std::process::exit(INTERRUPTED_EXIT_CODE.into());
            }
            flag.trigger();
        })
        .is_ok()
    }
}
