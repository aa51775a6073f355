//! Time management: how long one move may take, from the limits of `go`.
//!
//! Two figures, as in most engines: a *soft* budget (no new iteration starts once it is spent,
//! since an iteration costs several times the previous one) and a *hard* deadline (the search is
//! cut wherever it is). The hard deadline never comes closer than the move overhead to the end
//! of the clock, so communication delays cannot lose on time; the overhead is `MoveOverhead`
//! plus a margin that grows with the scheduling delays the engine has observed ([`LagMeter`]),
//! so that a loaded machine does not make it lose on time either.

use std::time::{Duration, Instant};

use super::{Clock, Limits};

/// Moves a game is assumed to last from here when `go` does not say (`movestogo`): a Toguz
/// Kumalak game between engines lasts 40 to 80 moves a side, and planning for 30 more at every
/// move keeps a reserve for long games.
const DEFAULT_MOVES_TO_GO: u32 = 30;
/// Share of the soft budget after which no new iteration starts.
pub const ITERATION_SHARE: f64 = 0.6;
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
            // Exactly the time given, less the overhead (but never less than a quarter of it: under
            // load the margin for delays can ask for most of a short movetime).
            let hard = movetime
                .saturating_sub(overhead)
                .max(movetime / 4)
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
    let moves_to_go = clock
        .moves_to_go
        .unwrap_or(DEFAULT_MOVES_TO_GO)
        .clamp(1, DEFAULT_MOVES_TO_GO);
    // The time for the moves to come: the clock plus the increments still to be received, less
    // the overhead that every one of those moves will cost on top of its search. Charging the
    // overhead per move (as Stockfish does) keeps a short clock from draining: near the end of
    // it the budget falls below the increment and the clock grows back.
    // A reserve against delays the overhead does not cover (a loaded machine can hold a process
    // back for tens of milliseconds): a quarter of the clock, at most twenty overheads.
    // Increments count at three quarters, and a move's budget is at most an eighth of the
    // clock: a search overruns its soft budget by a fraction (the last iteration runs on), and
    // with the whole increment planned a long game drained the clock to under 100 ms at 10+0.1
    // (measured in the arena); this way it settles near six increments.
    let reserve = (clock.remaining / 4).min(overhead * 20);
    let increments = clock.increment * 3 / 4 * (moves_to_go - 1);
    let horizon =
        (clock.remaining + increments).saturating_sub(overhead * (moves_to_go + 1) + reserve);
    let mut soft = (horizon / moves_to_go)
        .min(clock.remaining / 8)
        .max(MIN_TIME);
    // With the last move before a time control, up to most of the clock; otherwise a few times
    // the soft budget, never more than a third of what is left.
    let available = clock.remaining.saturating_sub(overhead);
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

/// How many delays [`LagMeter`] keeps: three a move (the wait for the search thread after `go`
/// was read, the longest stretch the search went without looking at the clock, how far past
/// its deadline it ended), so its margin follows the load of the last 21 moves.
const LAG_WINDOW: usize = 64;
/// How long the largest delay seen counts, whatever the number of moves since. Long stalls are
/// rare and come at a rate per second, not per move: at load 7 on two cores a 1 ms sleep woke
/// up 7 ms late once in a thousand and 62 ms late once in 20 minutes
/// (`scripts/load-timeloss.sh`); 21 moves of 0.1 s are two seconds, too short to have seen
/// the stall that comes next, and fixed-time matches lost games on time with a margin that had
/// just forgotten it (2 of 120 games at load 7; with a minute's memory still 1 of 120, a stall
/// more than twice the minute's largest). Five minutes hold the tail; the time comes back five
/// minutes after the load is gone, and on an idle machine the margin is a millisecond or two.
const LAG_MEMORY: Duration = Duration::from_secs(300);
/// [`LAG_MEMORY`] is kept as the largest delay of each of this many equal stretches of time.
const LAG_STRETCHES: usize = 12;
/// The margin kept per observed delay: twice the largest, since the largest of the last moves
/// underestimates the largest of the next (a search that ends just after a 30 ms stall
/// overshoots by those 30 ms; the next stall may be longer).
const LAG_FACTOR: u32 = 2;
/// A delay longer than this is a pause, not load (Ctrl-Z, a suspended machine, a debugger): the
/// arena charges nobody for one (`arena::system::pause::GAP`), so it is not kept.
pub const MAX_LAG: Duration = Duration::from_millis(250);

/// The delays the engine observed on its own clock: how late the search thread started after
/// `go` was read, and how long the search went between two looks at the clock. On an idle
/// machine both are well under a millisecond; at load 8 on two cores a search is held back for
/// tens of milliseconds at a time, and a search that reaches its deadline while held back answers
/// that much late. [`LagMeter::margin`] is kept back from every time limit on top of
/// `MoveOverhead`, and grows with the largest delay of the last 21 moves or of the last five
/// minutes, whichever is larger.
#[derive(Clone, Debug)]
pub struct LagMeter {
    recent: [Duration; LAG_WINDOW],
    next: usize,
    /// Where the stretches of [`LAG_MEMORY`] are counted from.
    epoch: Instant,
    /// The largest delay of each stretch, with the stretch's number since `epoch` (a slot whose
    /// number is a whole memory old is stale).
    stretches: [(u64, Duration); LAG_STRETCHES],
}

impl Default for LagMeter {
    fn default() -> LagMeter {
        LagMeter {
            recent: [Duration::ZERO; LAG_WINDOW],
            next: 0,
            epoch: Instant::now(),
            stretches: [(0, Duration::ZERO); LAG_STRETCHES],
        }
    }
}

impl LagMeter {
    /// Notes one delay (one over [`MAX_LAG`], a pause, is dropped).
    pub fn record(&mut self, delay: Duration) {
        self.record_at(delay, Instant::now());
    }

    /// The largest delay of the window and of the last five minutes.
    pub fn largest(&self) -> Duration {
        self.largest_at(Instant::now())
    }

    /// The time kept back for the delays seen lately.
    pub fn margin(&self) -> Duration {
        lag_margin(self.largest())
    }

    /// [`LagMeter::record`] of a delay seen at `now`.
    fn record_at(&mut self, delay: Duration, now: Instant) {
        if delay > MAX_LAG {
            return;
        }
        self.recent[self.next] = delay;
        self.next = (self.next + 1) % LAG_WINDOW;
        let number = self.stretch(now);
        let slot = &mut self.stretches[(number % LAG_STRETCHES as u64) as usize];
        if slot.0 != number {
            *slot = (number, Duration::ZERO);
        }
        slot.1 = slot.1.max(delay);
    }

    /// [`LagMeter::largest`] as of `now`.
    fn largest_at(&self, now: Instant) -> Duration {
        let number = self.stretch(now);
        let of_the_memory = self
            .stretches
            .iter()
            .filter(|(n, _)| *n + (LAG_STRETCHES as u64) > number)
            .map(|(_, d)| *d);
        self.recent
            .iter()
            .copied()
            .chain(of_the_memory)
            .max()
            .unwrap_or_default()
    }

    /// The number of the stretch of time `now` falls in (0 the first, at `epoch`).
    fn stretch(&self, now: Instant) -> u64 {
        let stretch = LAG_MEMORY.as_millis() as u64 / LAG_STRETCHES as u64;
        now.saturating_duration_since(self.epoch).as_millis() as u64 / stretch
    }
}

/// The margin kept for a delay `lag`: [`LAG_FACTOR`] times it (at most [`MAX_LAG`] counts).
pub fn lag_margin(lag: Duration) -> Duration {
    lag.min(MAX_LAG) * LAG_FACTOR
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

    /// Over a long game the clock settles well above zero, even when every search overruns its
    /// soft budget by half (up to the hard deadline) and each move costs a few milliseconds of
    /// communication: at 10+0.1 and at 1+0.01, the time controls.
    #[test]
    fn a_long_game_keeps_a_reserve_on_the_clock() {
        let overhead = Duration::from_millis(10);
        for (base, inc, floor) in [(10_000, 100, 350), (1000, 10, 200), (2000, 20, 200)] {
            let increment = Duration::from_millis(inc);
            let mut remaining = Duration::from_millis(base);
            let mut low = remaining;
            for _ in 0..300 {
                let limits = clock(remaining.as_millis() as u64, inc, None);
                let b = Budget::new(&limits, overhead, false);
                let hard = b.hard.unwrap();
                assert!(hard + overhead <= remaining.max(overhead * 3));
                let used = (b.soft.unwrap() * 3 / 2).min(hard) + overhead / 2;
                remaining = remaining.saturating_sub(used) + increment;
                low = low.min(remaining);
            }
            assert!(
                low >= Duration::from_millis(floor),
                "{base}+{inc}: the clock fell to {low:?}"
            );
        }
    }

    #[test]
    fn the_lag_margin_grows_with_the_largest_recent_delay_and_forgets_it() {
        let ms = Duration::from_millis;
        let mut lag = LagMeter::default();
        assert_eq!(lag.margin(), Duration::ZERO);
        lag.record(ms(3));
        lag.record(ms(30));
        lag.record(ms(5));
        assert_eq!(lag.margin(), ms(60));
        // A pause is no load.
        lag.record(ms(5000));
        assert_eq!(lag.margin(), ms(60));
        // The 30 ms stall is forgotten once the window has moved past it and five minutes have
        // gone by.
        let seen = lag.epoch + ms(1000);
        lag.record_at(ms(30), seen);
        for _ in 0..LAG_WINDOW {
            lag.record_at(ms(1), seen);
        }
        assert_eq!(lag_margin(lag.largest_at(seen + ms(250_000))), ms(60));
        assert_eq!(lag_margin(lag.largest_at(seen + ms(325_000))), ms(2));
        lag.record_at(ms(1), seen + ms(325_000));
        assert_eq!(lag_margin(lag.largest_at(seen + ms(325_000))), ms(2));
        // The margin comes off a movetime (never below a quarter of it).
        let st = Limits {
            movetime: Some(ms(100)),
            ..Limits::default()
        };
        assert_eq!(Budget::new(&st, ms(10) + ms(60), false).hard, Some(ms(30)));
        assert_eq!(Budget::new(&st, ms(10) + ms(500), false).hard, Some(ms(25)));
        assert_eq!(Budget::new(&st, ms(10) + ms(20), false).hard, Some(ms(70)));
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
