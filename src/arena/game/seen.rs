//! The set of openings a run has made, as the 64-bit hashes of their final positions, in about
//! 8 bytes an opening.
//!
//! A `HashSet<u64>` takes 10 to 20 bytes an entry with its spare room, and 30 while it grows
//! (the old table and the new one both held): a run of 10^7 games would keep over 100 MB for
//! this set alone, where issue 33 promises a few bytes a game. Here the hashes are sorted runs of
//! sizes that halve (a binary counter of runs, as a log-structured merge tree keeps them) and a
//! short unsorted tail: a lookup is a scan of the tail and a binary search of each run (at most
//! 40 of them), an insert is amortised O(log n), and memory is 8 bytes a hash, 16 for the
//! instant two equal runs are merged.
//!
//! The set answers exactly as a hash set does, so the openings of a seed are the same as
//! before (`arena_openings::seeded_openings_are_the_same_move_for_move` pins them).

/// Hashes kept unsorted before they become a run: a lookup scans them.
const TAIL: usize = 64;

/// An exact set of `u64`.
#[derive(Debug, Default)]
pub(crate) struct SeenPositions {
    /// Sorted runs, longest first; each at most half as long as the one before it.
    runs: Vec<Vec<u64>>,
    tail: Vec<u64>,
    len: usize,
}

impl SeenPositions {
    pub(crate) fn contains(&self, key: u64) -> bool {
        self.tail.contains(&key) || self.runs.iter().any(|run| run.binary_search(&key).is_ok())
    }

    /// Adds `key`; false if it was there already.
    pub(crate) fn insert(&mut self, key: u64) -> bool {
        if self.contains(key) {
            return false;
        }
        self.tail.push(key);
        self.len += 1;
        if self.tail.len() == TAIL {
            let mut run = std::mem::replace(&mut self.tail, Vec::with_capacity(TAIL));
            run.sort_unstable();
            // Merge while the last run is no longer than twice the new one, so that run lengths
            // at least halve along the list and there are O(log n) of them.
            while let Some(last) = self.runs.last() {
                if last.len() > 2 * run.len() {
                    break;
                }
                let last = self.runs.pop().expect("just looked at it");
                run = merge(&last, &run);
            }
            self.runs.push(run);
        }
        true
    }

    pub(crate) fn len(&self) -> usize {
        self.len
    }

    pub(crate) fn clear(&mut self) {
        *self = SeenPositions::default();
    }
}

/// Two sorted runs with no common element as one sorted run, in a vector of exactly their size.
fn merge(a: &[u64], b: &[u64]) -> Vec<u64> {
    let mut out = Vec::with_capacity(a.len() + b.len());
    let (mut i, mut j) = (0, 0);
    while i < a.len() && j < b.len() {
        if a[i] < b[j] {
            out.push(a[i]);
            i += 1;
        } else {
            out.push(b[j]);
            j += 1;
        }
    }
    out.extend_from_slice(&a[i..]);
    out.extend_from_slice(&b[j..]);
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::{Rng, SeedableRng};
    use std::collections::HashSet;

    #[test]
    fn answers_as_a_hash_set_does() {
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        let mut seen = SeenPositions::default();
        let mut reference = HashSet::new();
        // Few distinct values, so that repeats are common, then many.
        for round in 0..2 {
            for _ in 0..20_000 {
                let key = if round == 0 {
                    rng.gen_range(0..5_000u64)
                } else {
                    rng.gen()
                };
                assert_eq!(seen.contains(key), reference.contains(&key));
                assert_eq!(seen.insert(key), reference.insert(key));
                assert_eq!(seen.len(), reference.len());
            }
        }
        for key in reference.iter().take(1_000) {
            assert!(seen.contains(*key));
        }
        // Runs stay few: at most one per halving of the size.
        assert!(seen.runs.len() <= 2 * (usize::BITS - seen.len().leading_zeros()) as usize);
        for run in &seen.runs {
            assert!(run.windows(2).all(|w| w[0] < w[1]), "runs are sorted");
        }
        seen.clear();
        assert_eq!(seen.len(), 0);
        assert!(!seen.contains(*reference.iter().next().unwrap()));
    }
}
