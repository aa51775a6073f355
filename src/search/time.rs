//! Time management: how long one move may take, from the limits of `go`.
//!
//! Two figures, as in most engines: a *soft* budget (no new iteration starts once it is spent,
//! since an iteration costs several times the previous one) and a *hard* deadline (the search is
//! cut wherever it is). The hard deadline never comes closer than the move overhead to the end
//! of the clock, so communication delays cannot lose on time.

use std::time::Duration;

use super::{Clock, Limits};

/// Moves a game is assumed to last from here when `go` does not say (`movestogo`): a Toguz
/// Kumalak game between engines lasts 40 to 70 moves a side, and playing as if 30 are left keeps
/// a reserve for long games.
const DEFAULT_MOVES_TO_GO: u32 = 30;
/// The shortest deadline ever set: a search needs a moment to produce any move at all.
const MIN_TIME: Duration = Duration::from_millis(1);

/// The time a search may use.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Budget {
    /// Do not start another iteration after this.
    pub soft: Option<Duration>,
    /// Stop wherever the search is.
    pub hard: Option<Duration>,
}

impl Budget {
    /// The budget for `limits`, keeping `overhead` back. `forced`: there is only one legal move,
    /// so a clock search just needs a move and a score, not thought.
    pub fn new(limits: &Limits, overhead: Duration, forced: bool) -> Budget {
        if limits.infinite {
            return Budget::default();
        }
        let mut budget = Budget::default();
        if let Some(movetime) = limits.movetime {
            // Exactly the time given, less the overhead (but never less than half of it).
            let hard = movetime
                .saturating_sub(overhead)
                .max(movetime / 2)
                .max(MIN_TIME);
            budget.soft = Some(hard);
            budget.hard = Some(hard);
        }
        if let Some(clock) = limits.clock {
            let (soft, hard) = clock_budget(&clock, overhead, forced);
            budget.soft = Some(budget.soft.map_or(soft, |s| s.min(soft)));
            budget.hard = Some(budget.hard.map_or(hard, |h| h.min(hard)));
        }
        budget
    }
}

fn clock_budget(clock: &Clock, overhead: Duration, forced: bool) -> (Duration, Duration) {
    let available = clock.remaining.saturating_sub(overhead).max(MIN_TIME);
    let moves_to_go = clock
        .moves_to_go
        .unwrap_or(DEFAULT_MOVES_TO_GO)
        .clamp(1, DEFAULT_MOVES_TO_GO);
    // The increment comes back after this move, but only counts if the clock can cover it now.
    let increment = clock.increment.min(available / 2);
    let mut soft = available / moves_to_go + increment * 3 / 4;
    // With the last move before a time control, up to most of the clock; otherwise a few times
    // the soft budget, never more than a third of what is left.
    let hard_cap = if moves_to_go == 1 {
        available * 9 / 10
    } else {
        available / 3
    };
    let mut hard = (soft * 4).min(hard_cap).max(MIN_TIME);
    if forced {
        soft /= 20;
        hard = hard.min(soft * 2);
    }
    (soft.min(hard).max(MIN_TIME), hard.max(MIN_TIME))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn clock(ms: u64, inc: u64, mtg: Option<u32>) -> Limits {
        Limits {
            clock: Some(Clock {
                remaining: Duration::from_millis(ms),
                increment: Duration::from_millis(inc),
                moves_to_go: mtg,
            }),
            ..Limits::default()
        }
    }

    #[test]
    fn never_beyond_the_clock() {
        let overhead = Duration::from_millis(10);
        for ms in [0, 1, 5, 11, 50, 200, 1000, 10_000, 600_000] {
            for inc in [0, 10, 100, 5000] {
                for mtg in [None, Some(1), Some(2), Some(40)] {
                    let b = Budget::new(&clock(ms, inc, mtg), overhead, false);
                    let hard = b.hard.unwrap();
                    assert!(b.soft.unwrap() <= hard);
                    if ms > 20 {
                        assert!(
                            hard + overhead <= Duration::from_millis(ms),
                            "{ms}+{inc} {mtg:?}: {hard:?}"
                        );
                    }
                }
            }
        }
    }

    #[test]
    fn movetime_and_clock_combine() {
        let mut limits = clock(60_000, 0, None);
        limits.movetime = Some(Duration::from_millis(100));
        let b = Budget::new(&limits, Duration::from_millis(10), false);
        assert_eq!(b.hard, Some(Duration::from_millis(90)));
        assert_eq!(
            Budget::new(&Limits::default(), Duration::ZERO, false),
            Budget::default()
        );
        let forced = Budget::new(&clock(60_000, 0, None), Duration::ZERO, true);
        assert!(forced.hard.unwrap() < Duration::from_millis(300));
    }
}
