//! The progress line on standard error: games done, rate, and the source being read.
//!
//! It is drawn only when standard error is a terminal and `--quiet` was not given; in a pipe, a
//! log file or CI it is hidden and costs nothing. The total is not known in advance (a folder is
//! discovered while it is read and a collection's games are found while it is split), so it is a
//! spinner with counts rather than a bar with an end.

use std::io::IsTerminal;
use std::time::Duration;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressState, ProgressStyle};

/// The progress display of one run. Cheap to clone; clones draw on the same line.
#[derive(Clone, Debug)]
pub struct Progress {
    bar: ProgressBar,
}

impl Progress {
    /// A progress line on standard error if `wanted` and standard error is a terminal; hidden
    /// otherwise.
    pub fn new(wanted: bool) -> Progress {
        if !(wanted && std::io::stderr().is_terminal()) {
            return Progress::hidden();
        }
        let bar = ProgressBar::with_draw_target(None, ProgressDrawTarget::stderr_with_hz(5));
        let style = ProgressStyle::with_template(
            "{spinner} {elapsed_precise} {human_pos} games ({rate}) {wide_msg}",
        )
        .unwrap_or_else(|_| ProgressStyle::default_spinner())
        .with_key("rate", |state: &ProgressState, w: &mut dyn std::fmt::Write| {
            let _ = write!(w, "{:.0}/s", state.per_sec());
        });
        bar.set_style(style);
        bar.enable_steady_tick(Duration::from_millis(200));
        Progress { bar }
    }

    /// A progress display that draws nothing.
    pub fn hidden() -> Progress {
        Progress { bar: ProgressBar::hidden() }
    }

    /// Whether anything is drawn.
    pub fn is_visible(&self) -> bool {
        !self.bar.is_hidden()
    }

    /// Names the source being read.
    pub fn reading(&self, source: &str) {
        if self.is_visible() {
            self.bar.set_message(source.to_owned());
        }
    }

    /// Counts finished games.
    pub fn add_games(&self, games: u64) {
        self.bar.inc(games);
    }

    /// Runs `f` (which prints to standard error) with the line cleared, so the two do not mix.
    pub fn suspend<R>(&self, f: impl FnOnce() -> R) -> R {
        self.bar.suspend(f)
    }

    /// Removes the line for good.
    pub fn finish(&self) {
        self.bar.finish_and_clear();
    }
}
