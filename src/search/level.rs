//! The strength ladder: `Level` 1..=20, from a near-beginner to full strength.
//!
//! Each level below the top caps the nodes of a search (growing by a constant factor per level,
//! from 64 nodes at level 1 to about a million at level 19, so each rung is about equally far
//! above the one below), and the lowest levels also blur the evaluation
//! with noise, so that they make the kind of mistakes a weak human makes rather than only seeing
//! less far. The noise is a function of the position and the seed: the same position gets the
//! same blur, which keeps searches reproducible.

use super::MAX_LEVEL;

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
/// Growth of the node cap per level: 64 * 1.71^18 is about a million nodes at level 19.
const LEVEL_FACTOR: f64 = 1.71;

impl Strength {
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
}
