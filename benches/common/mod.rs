//! What the micro benchmarks share: the clock they time with. A folder of its own, so that
//! cargo does not take it for a benchmark target; each bench includes it with `mod common;`.

use std::time::Instant;

/// CPU nanoseconds of this thread so far (`clock_gettime(CLOCK_THREAD_CPUTIME_ID)`), so that
/// other processes' load counts less; wall time since `origin` where there is no such clock.
pub fn cpu_nanos(origin: Instant) -> u64 {
    #[cfg(unix)]
    {
        let _ = origin;
        let now = rustix::time::clock_gettime(rustix::time::ClockId::ThreadCPUTime);
        now.tv_sec as u64 * 1_000_000_000 + now.tv_nsec as u64
    }
    #[cfg(not(unix))]
    {
        origin.elapsed().as_nanos() as u64
    }
}
