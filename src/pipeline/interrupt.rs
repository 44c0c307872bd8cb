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
        signals::install(self)
    }
}

/// The handler as a plain signal handler, which sets the flag itself.
///
/// The `ctrlc` crate starts a thread that waits for its handler's signal; on a small input that
/// thread (its creation, stack, signal stack and exit) was a measurable part of a whole run
/// (see the commit that replaced it). What the handler does, an atomic store, or a `write` and
/// `_exit` on the second signal, is allowed in a signal handler.
#[cfg(unix)]
mod signals {
    use std::ffi::c_int;
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, AtomicPtr, Ordering};

    use super::{INTERRUPTED_EXIT_CODE, Interrupt};

    /// `SIGHUP`, `SIGINT` and `SIGTERM`: the same numbers on every Unix.
    const SIGNALS: [c_int; 3] = [1, 2, 15];

    /// `SIG_ERR` of `<signal.h>`.
    const SIG_ERR: usize = usize::MAX;

    /// The flag the handler sets: one per process, kept for the life of the process.
    static FLAG: AtomicPtr<AtomicBool> = AtomicPtr::new(std::ptr::null_mut());

    unsafe extern "C" {
        // `signal` installs a handler that stays and whose interrupted system calls restart
        // (BSD semantics, as glibc and the BSDs give), as `ctrlc` had it.
        fn signal(signum: c_int, handler: usize) -> usize;
        fn write(fd: c_int, buf: *const u8, count: usize) -> isize;
        fn _exit(status: c_int) -> !;
    }

    extern "C" fn on_signal(_signum: c_int) {
        // SAFETY: a non-null FLAG points into an `Arc` that is never released.
        let Some(flag) = (unsafe { FLAG.load(Ordering::SeqCst).as_ref() }) else {
            return;
        };
        if flag.swap(true, Ordering::SeqCst) {
            const MESSAGE: &[u8] = b"kifu: interrupted twice, stopping now\n";
            // SAFETY: write and _exit are async-signal-safe; MESSAGE is a static buffer.
            unsafe {
                write(2, MESSAGE.as_ptr(), MESSAGE.len());
                _exit(INTERRUPTED_EXIT_CODE.into());
            }
        }
    }

    pub(super) fn install(interrupt: &Interrupt) -> bool {
        let flag = Arc::into_raw(Arc::clone(&interrupt.0)).cast_mut();
        let installed = FLAG
            .compare_exchange(std::ptr::null_mut(), flag, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok();
        if !installed {
            // SAFETY: `flag` came from `Arc::into_raw` above and was not stored.
            drop(unsafe { Arc::from_raw(flag) });
            return false;
        }
        let handler = on_signal as extern "C" fn(c_int) as usize;
        // SAFETY: the handler only touches the static flag and async-signal-safe calls.
        SIGNALS.iter().all(|&signum| unsafe { signal(signum, handler) } != SIG_ERR)
    }
}

/// Elsewhere, the `ctrlc` crate's handler.
#[cfg(not(unix))]
mod signals {
    use super::{INTERRUPTED_EXIT_CODE, Interrupt};

    pub(super) fn install(interrupt: &Interrupt) -> bool {
        let flag = interrupt.clone();
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

#[cfg(all(test, unix))]
mod tests {
    use super::*;

    unsafe extern "C" {
        fn raise(signum: std::ffi::c_int) -> std::ffi::c_int;
    }

    #[test]
    fn a_signal_sets_the_flag_of_the_first_interrupt_only() {
        let first = Interrupt::new();
        let second = Interrupt::new();
        // The only test in this binary that installs the handler.
        assert!(first.on_ctrl_c());
        assert!(!second.on_ctrl_c(), "one handler per process");
        assert!(!first.is_triggered());
        // SIGTERM, as a cluster stops a job; SAFETY: the handler above is installed.
        assert_eq!(unsafe { raise(15) }, 0);
        assert!(first.is_triggered());
        assert!(!second.is_triggered());
    }
}
