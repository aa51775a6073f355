//! The strength ladder: `Level` 1..=20, from a near-beginner to full strength.
//!
//! Each level below the top caps the nodes of a search (growing by a constant factor per level,
//! from 64 nodes at level 1 to about a million at level 19, so each rung is about equally far
//! above the one below), and the lowest levels also blur the evaluation
//! with noise, so that they make the kind of mistakes a weak human makes rather than only seeing
//! less far. The noise is a function of the position and the seed: the same position gets the
//! same blur, which keeps searches reproducible.
//!
//! The caps are what a level searches with [`LEVEL_REFERENCE_TIME`] a move. Under `depth`,
//! `nodes` or `movetime` a level searches its cap as is (the caller fixed the effort, and
//! depth- or node-limited play stays reproducible); under a clock, where the engine chooses its
//! own time, the cap scales with the soft budget of the move ([`Strength::max_nodes_for`]), so a
//! level thinks in proportion to the clock, as the full engine does, and every level keeps its
//! place on the ladder (all caps scale by the same factor). It also thinks at its speed there
//! (its cap per [`LEVEL_REFERENCE_TIME`], [`Strength::pace_for`]): the move is answered when its
//! nodes' time at that speed is up, within the soft budget, so a level's games take the clock's
//! time instead of the low levels moving in a millisecond at any clock.

use std::time::Duration;

use super::time::Budget;
use super::{Limits, MAX_LEVEL};

/// What a level allows a search.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Strength {
    /// Nodes per move, at most.
    pub max_nodes: Option<u64>,
    /// Amplitude of the evaluation noise in centi-stones (uniform in `-noise..=noise`).
    pub noise: i32,
}

/// Nodes per move at level 1.
const LEVEL_ONE_NODES: f64 = 64.0;
/// The time per move a level's cap stands for under a clock: at 10+0.1 the first moves' budget
/// is near 400 ms, so a level searches about four times its cap there, and levels 16 and above
/// reach the full engine's budget (about 2.5 million nodes a second on one core).
pub const LEVEL_REFERENCE_TIME: Duration = Duration::from_millis(100);
/// The fewest nodes a level searches under a clock, however short: a first iteration.
const MIN_CLOCK_NODES: u64 = 16;
/// Growth of the node cap per level: 64 * 1.71^18 is about a million nodes at level 19.
const LEVEL_FACTOR: f64 = 1.71;

impl Strength {
    /// The limits of `level`, clamped to 1..=[`MAX_LEVEL`]; [`MAX_LEVEL`] is unlimited and
    /// noiseless.
    pub fn of_level(level: u32) -> Strength {
        let level = level.clamp(1, MAX_LEVEL);
        if level == MAX_LEVEL {
            return Strength {
                max_nodes: None,
                noise: 0,
            };
        }
        Strength {
            max_nodes: Some((LEVEL_ONE_NODES * LEVEL_FACTOR.powi(level as i32 - 1)).round() as u64),
            // Levels 1..7: 700 down to 100 centi-stones of blur.
            noise: 100 * (8 - level.min(8)) as i32,
        }
    }

    /// The node cap of a search under `limits` with `budget`: the level's cap, scaled by the
    /// move's soft budget against [`LEVEL_REFERENCE_TIME`] when a clock (and no `movetime`)
    /// sets the time; `None` (full strength) stays uncapped, limited by the budget alone.
    pub fn max_nodes_for(&self, limits: &Limits, budget: &Budget) -> Option<u64> {
        let cap = self.max_nodes?;
        match clock_soft(limits, budget) {
            Some(soft) => {
                let scale = soft.as_secs_f64() / LEVEL_REFERENCE_TIME.as_secs_f64();
                Some(((cap as f64 * scale).round() as u64).max(MIN_CLOCK_NODES))
            }
            None => Some(cap),
        }
    }

    /// How long a move of a capped level takes under a clock, once its search has used `nodes`:
    /// a level thinks at its cap per [`LEVEL_REFERENCE_TIME`], so `nodes` take
    /// `nodes / cap * LEVEL_REFERENCE_TIME`, never more than the move's soft budget (what the
    /// full engine would spend on it; within the clock by construction). The search answers
    /// when that time is up (or at `stop`), not the moment its nodes are searched: a level's
    /// games take the clock's time as a full engine's do, instead of a level playing 400 games
    /// of 10+0.1 in 25 s. None (answer at once) at full strength and under `depth`, `nodes` or
    /// `movetime`, where the caller fixed the effort.
    pub fn pace_for(&self, limits: &Limits, budget: &Budget, nodes: u64) -> Option<Duration> {
        let cap = self.max_nodes?;
        let soft = clock_soft(limits, budget)?;
        Some(
            LEVEL_REFERENCE_TIME
                .mul_f64(nodes as f64 / cap.max(1) as f64)
                .min(soft),
        )
    }
}

/// The soft budget of a move whose time the engine chooses itself: a clock, no `movetime`.
fn clock_soft(limits: &Limits, budget: &Budget) -> Option<Duration> {
    match (limits.clock, limits.movetime, budget.soft) {
        (Some(_), None, Some(soft)) => Some(soft),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ladder_is_monotone() {
        let mut last = Strength::of_level(1);
        for level in 2..=MAX_LEVEL {
            let s = Strength::of_level(level);
            assert!(s.noise <= last.noise);
            match (s.max_nodes, last.max_nodes) {
                (Some(a), Some(b)) => assert!(a > b),
                (None, Some(_)) => assert_eq!(level, MAX_LEVEL),
                _ => unreachable!(),
            }
            last = s;
        }
    }

    fn clock(ms: u64, inc: u64) -> Limits {
        Limits {
            clock: Some(super::super::Clock {
                remaining: Duration::from_millis(ms),
                increment: Duration::from_millis(inc),
                moves_to_go: None,
            }),
            ..Limits::default()
        }
    }

    /// Under a clock a level's cap follows the time the move may take (a longer clock, more
    /// nodes; the order of the levels kept); under depth, nodes or movetime it is the cap as
    /// is, so such play stays reproducible; full strength is never capped.
    #[test]
    fn a_level_thinks_in_proportion_to_the_clock() {
        let overhead = Duration::from_millis(10);
        let level = Strength::of_level(10);
        let nominal = level.max_nodes.unwrap();
        for fixed in [
            Limits {
                depth: Some(6),
                ..Limits::default()
            },
            Limits {
                nodes: Some(1_000_000),
                ..Limits::default()
            },
            Limits {
                movetime: Some(Duration::from_millis(1000)),
                ..clock(60_000, 0)
            },
        ] {
            let budget = Budget::new(&fixed, overhead, false);
            assert_eq!(level.max_nodes_for(&fixed, &budget), Some(nominal));
        }
        let cap_at = |ms: u64, inc: u64, strength: &Strength| {
            let limits = clock(ms, inc);
            let budget = Budget::new(&limits, overhead, false);
            let soft = budget.soft.unwrap().as_secs_f64();
            let cap = strength.max_nodes_for(&limits, &budget);
            (cap, soft)
        };
        // 10+0.1 at the start: a budget of a few hundred ms, the cap scaled by it.
        let (cap, soft) = cap_at(10_000, 100, &level);
        let expected = nominal as f64 * soft / LEVEL_REFERENCE_TIME.as_secs_f64();
        assert!(soft > 0.2, "{soft}");
        assert!(
            (cap.unwrap() as f64 - expected).abs() <= 1.0,
            "{cap:?} {expected}"
        );
        // Ten times the clock, about ten times the nodes.
        let (long, _) = cap_at(100_000, 1000, &level);
        let ratio = long.unwrap() as f64 / cap.unwrap() as f64;
        assert!((8.0..=12.0).contains(&ratio), "{ratio}");
        // The ladder keeps its order under the clock, and a near-empty clock still searches.
        let mut last = 0;
        for l in 1..MAX_LEVEL {
            let (cap, _) = cap_at(10_000, 100, &Strength::of_level(l));
            assert!(cap.unwrap() > last);
            last = cap.unwrap();
        }
        let (tiny, _) = cap_at(20, 0, &Strength::of_level(1));
        assert_eq!(tiny, Some(MIN_CLOCK_NODES));
        assert_eq!(cap_at(10_000, 100, &Strength::of_level(MAX_LEVEL)).0, None);
    }

    /// Under a clock a level takes the time its nodes take at its speed (its cap per 100 ms),
    /// at most the soft budget: a search that used its whole scaled cap spends the budget, one
    /// that ended early (a forced or proven move) less. No wait at full strength, nor under
    /// depth, nodes or movetime.
    #[test]
    fn a_level_spends_the_time_its_nodes_take_at_its_speed() {
        let level = Strength::of_level(5);
        let cap = level.max_nodes.unwrap();
        let limits = clock(10_000, 100);
        let budget = Budget::new(&limits, Duration::from_millis(10), false);
        let soft = budget.soft.unwrap();
        let scaled = level.max_nodes_for(&limits, &budget).unwrap();
        let full = level.pace_for(&limits, &budget, scaled).unwrap();
        assert!(
            full <= soft && soft - full < Duration::from_millis(1),
            "{full:?} {soft:?}"
        );
        assert_eq!(
            level.pace_for(&limits, &budget, cap),
            Some(LEVEL_REFERENCE_TIME)
        );
        assert_eq!(level.pace_for(&limits, &budget, 0), Some(Duration::ZERO));
        assert_eq!(level.pace_for(&limits, &budget, u64::MAX), Some(soft));
        for fixed in [
            Limits {
                depth: Some(6),
                ..Limits::default()
            },
            Limits {
                nodes: Some(1000),
                ..Limits::default()
            },
            Limits {
                movetime: Some(Duration::from_millis(500)),
                ..clock(10_000, 100)
            },
        ] {
            let b = Budget::new(&fixed, Duration::from_millis(10), false);
            assert_eq!(level.pace_for(&fixed, &b, cap), None);
        }
        let top = Strength::of_level(MAX_LEVEL);
        assert_eq!(top.pace_for(&limits, &budget, 1_000_000), None);
    }
}
