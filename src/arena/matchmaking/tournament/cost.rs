//! CPU accounting: what a session cost (plies, wall time, the arena's own CPU time).

use std::time::Duration;

/// What a session cost, printed at its end so a slowdown of the arena itself shows.
#[derive(Clone, Copy, Debug, Default)]
pub struct Cost {
    /// Plies played.
    pub plies: u64,
    /// Wall time of the session.
    pub wall: Duration,
    /// The arena's own CPU time (its threads, not the engines').
    pub arena_cpu: Duration,
}

impl Cost {
    /// `N plies in X s (Y plies/s); arena CPU Z us/ply`.
    pub fn describe(&self) -> String {
        let secs = self.wall.as_secs_f64().max(1e-9);
        let per_ply = self.arena_cpu.as_secs_f64() * 1e6 / (self.plies.max(1) as f64);
        format!(
            "{} plies in {:.1} s ({:.0} plies/s); arena CPU {:.2} s, {:.1} us/ply",
            self.plies,
            secs,
            self.plies as f64 / secs,
            self.arena_cpu.as_secs_f64(),
            per_ply
        )
    }
}

/// CPU time of this process (every thread; children excluded).
pub(super) fn own_cpu() -> Duration {
    // The process's CPU clock: user and system time, as `getrusage(RUSAGE_SELF)` adds them up.
    let t = rustix::time::clock_gettime(rustix::time::ClockId::ProcessCPUTime);
    Duration::new(
        t.tv_sec.max(0) as u64,
        t.tv_nsec.clamp(0, 999_999_999) as u32,
    )
}
