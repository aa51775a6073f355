//! Fair CPU: what each engine's control group (the engine and everything it started) used in CPU
//! time on each move, its own and the opponent's, judged against its `cpus=`; and the run's
//! totals per engine.
//!
//! A move's CPU is measured from just before the arena writes `position` and `go` to just after
//! `bestmove` arrives, for both engines: the mover's on its move, the waiting engine's on the
//! opponent's time. An engine uses more than its `cpus=` allow when its CPU time on its move
//! passes the move's wall time times `cpus` by more than [`ON_MOVE_ALLOWANCE`] (possible only
//! where the quota is not enforced: the header says so); it computes on the opponent's time when
//! its CPU while waiting passes [`OFF_MOVE_ALLOWANCE`] (the end of its last search, answering
//! `isready`, freeing its tables take less). `--overuse warn` (the default) reports both by
//! engine and count at the end of the run; `--overuse forfeit` (or `overuse=forfeit` for one
//! engine) loses the game at the first, by `cpu-overuse`.

use std::time::Duration;

use crate::games::Side;

/// What an engine may use beyond the move's wall time times its `cpus` (one CFS period, the
/// quota's own granularity).
pub const ON_MOVE_ALLOWANCE: Duration = Duration::from_millis(100);
/// What an engine may use while the opponent is on move.
pub const OFF_MOVE_ALLOWANCE: Duration = Duration::from_millis(50);

/// One engine's CPU in one game (or a run): on its moves and on the opponent's, and the moves it
/// used more than allowed.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CpuUse {
    /// CPU used on its own moves.
    pub on_move: Duration,
    /// CPU used while the opponent was to move (pondering, or a runaway thread).
    pub off_move: Duration,
    /// Moves on which its CPU was measured.
    pub measured: u64,
    /// Its moves over `wall * cpus + ON_MOVE_ALLOWANCE`.
    pub over_cpus: u64,
    /// The opponent's moves during which it used more than [`OFF_MOVE_ALLOWANCE`].
    pub on_opponents_time: u64,
}

impl CpuUse {
    /// Adds another game's figures: a run's totals are its games' sums.
    pub fn add(&mut self, other: &CpuUse) {
        self.on_move += other.on_move;
        self.off_move += other.off_move;
        self.measured += other.measured;
        self.over_cpus += other.over_cpus;
        self.on_opponents_time += other.on_opponents_time;
    }
}

/// One move judged: each side's CPU during it (`None` where not measured) and the overuse found,
/// by side, in words.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MoveCpu {
    /// Each side's CPU during the move, by side index (`None`: that side is not in a control
    /// group).
    pub used: [Option<Duration>; 2],
    /// Each overuse as the note, log line or termination detail says it.
    pub overuse: Vec<(Side, String)>,
}

/// Judges one move of `mover` that took `wall`: `before` and `after` are each side's group CPU
/// around it, `cpus` each side's `cpus=`. Adds to `totals` (by side).
pub fn judge(
    mover: Side,
    wall: Duration,
    before: [Option<Duration>; 2],
    after: [Option<Duration>; 2],
    cpus: [Option<u64>; 2],
    totals: &mut [CpuUse; 2],
) -> MoveCpu {
    let mut out = MoveCpu::default();
    for side in Side::BOTH {
        let i = side.index();
        let (Some(b), Some(a)) = (before[i], after[i]) else {
            continue;
        };
        let used = a.saturating_sub(b);
        out.used[i] = Some(used);
        let t = &mut totals[i];
        if side == mover {
            t.on_move += used;
            t.measured += 1;
            if let Some(n) = cpus[i] {
                let allowed = wall.saturating_mul(n as u32) + ON_MOVE_ALLOWANCE;
                over(used, allowed, &mut t.over_cpus, &mut out, side, || {
                    format!(
                        "{side} used {} ms of CPU in a {} ms move, over its cpus={n}",
                        used.as_millis(),
                        wall.as_millis()
                    )
                });
            }
        } else {
            t.off_move += used;
            over(
                used,
                OFF_MOVE_ALLOWANCE,
                &mut t.on_opponents_time,
                &mut out,
                side,
                || {
                    format!(
                        "{side} used {} ms of CPU on the opponent's {} ms move (allowed {} ms)",
                        used.as_millis(),
                        wall.as_millis(),
                        OFF_MOVE_ALLOWANCE.as_millis()
                    )
                },
            );
        }
    }
    out
}

/// One allowance judged (the mover's `cpus=`, or the waiting engine's on the opponent's time):
/// a use past `allowed` is counted in `count` and noted for `side` in the words of `why` (made
/// only then: most moves use less).
fn over(
    used: Duration,
    allowed: Duration,
    count: &mut u64,
    out: &mut MoveCpu,
    side: Side,
    why: impl FnOnce() -> String,
) {
    if used > allowed {
        *count += 1;
        out.overuse.push((side, why()));
    }
}

/// One engine's line for the end of the run: `CPU of NAME: 1.20 s on its 60 moves (20.0 ms a
/// move), 0.01 s on the opponent's time; 3 moves on the opponent's time`.
pub fn summary_line(name: &str, u: &CpuUse) -> String {
    let secs = |d: Duration| format!("{:.2} s", d.as_secs_f64());
    let per = u.on_move.as_secs_f64() * 1000.0 / u.measured.max(1) as f64;
    let mut line = format!(
        "CPU of {name}: {} on its {} moves ({per:.1} ms a move), {} on the opponent's time",
        secs(u.on_move),
        u.measured,
        secs(u.off_move)
    );
    if u.over_cpus > 0 || u.on_opponents_time > 0 {
        line += &format!(
            "; OVERUSE: {} moves over its cpus=, {} moves computing on the opponent's time",
            u.over_cpus, u.on_opponents_time
        );
    }
    line
}

/// The warning for a run with `cpus=` whose games at once, each with its engines' largest
/// `cpus=`, ask for more cores than the machine's `cores` (fastchess warns on concurrency above
/// the hardware threads): an engine then waits for a core it was promised, and its clock runs.
/// (One engine thinks at a time in a game; the other waits.)
pub fn cores_warning(cpus: &[Option<u64>], concurrency: usize, cores: usize) -> Option<String> {
    let most = cpus.iter().flatten().copied().max()?;
    let asked = most.saturating_mul(concurrency as u64);
    (asked > cores as u64).then(|| {
        format!(
            "warning: --concurrency {concurrency} x cpus={most} asks for {asked} cores, and the \
             machine has {cores}: engines will wait for cores on their own clocks"
        )
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ms(n: u64) -> Option<Duration> {
        Some(Duration::from_millis(n))
    }

    #[test]
    fn a_move_is_judged_for_both_engines() {
        let mut totals = [CpuUse::default(); 2];
        // South moves for 100 ms: 150 ms of CPU is within cpus=1 (100 + 100); North idles.
        let m = judge(
            Side::South,
            Duration::from_millis(100),
            [ms(0), ms(0)],
            [ms(150), ms(10)],
            [Some(1), None],
            &mut totals,
        );
        assert_eq!(m.used, [ms(150), ms(10)]);
        assert!(m.overuse.is_empty());
        // 400 ms on a 100 ms move under cpus=1, and 300 ms on the opponent's time.
        let m = judge(
            Side::North,
            Duration::from_millis(100),
            [ms(150), ms(10)],
            [ms(450), ms(410)],
            [Some(1), Some(1)],
            &mut totals,
        );
        assert_eq!(m.overuse.len(), 2, "{m:?}");
        assert!(m.overuse[0].1.contains("on the opponent's 100 ms move"));
        assert!(m.overuse[1].1.contains("over its cpus=1"));
        assert_eq!(totals[0].on_opponents_time, 1);
        assert_eq!(totals[1].over_cpus, 1);
        assert_eq!(totals[0].measured, 1);
        // Not measured (no group): nothing judged.
        let m = judge(
            Side::South,
            Duration::from_millis(1),
            [None, None],
            [None, None],
            [Some(1), Some(1)],
            &mut totals,
        );
        assert_eq!(m, MoveCpu::default());
        assert!(summary_line("x", &totals[0]).contains("OVERUSE: 0 moves over its cpus=, 1 moves"));
    }

    #[test]
    fn too_many_cores_asked_are_warned_about() {
        assert_eq!(cores_warning(&[Some(1), None], 2, 2), None);
        let w = cores_warning(&[Some(2), None], 2, 2).unwrap();
        assert!(
            w.contains("--concurrency 2 x cpus=2 asks for 4 cores"),
            "{w}"
        );
        assert_eq!(cores_warning(&[None, None], 3, 2), None, "only with cpus=");
    }
}
