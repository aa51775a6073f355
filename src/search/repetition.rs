//! Repetition inside the search, counted exactly as [`GameLine`](crate::games::GameLine) counts it:
//! every position of the game so far plus every position on the current search path.
//!
//! Counting means scanning the keys, which would cost a loop per node over a game of hundreds of
//! plies; a small table of counts by the key's low bits answers "certainly not repeated" for almost
//! every node, and only a possible hit pays for the scan.

const FILTER_BITS: u32 = 12;
const FILTER_MASK: u64 = (1 << FILTER_BITS) - 1;

/// Game history plus the search path, as repetition keys.
#[derive(Clone)]
pub struct Repetitions {
    keys: Vec<u64>,
    filter: Box<[u16; 1 << FILTER_BITS]>,
}

impl Repetitions {
    /// Starts from the game's keys (the current position last).
    pub fn new(history: &[u64]) -> Self {
        let mut r = Repetitions {
            keys: Vec::with_capacity(history.len() + 256),
            filter: Box::new([0; 1 << FILTER_BITS]),
        };
        for &k in history {
            r.push(k);
        }
        r
    }

    /// Enters a position on the path (after a move).
    #[inline]
    pub fn push(&mut self, key: u64) {
        self.keys.push(key);
        self.filter[(key & FILTER_MASK) as usize] += 1;
    }

    /// Leaves the last position entered (taking a move back).
    #[inline]
    pub fn pop(&mut self) {
        if let Some(key) = self.keys.pop() {
            self.filter[(key & FILTER_MASK) as usize] -= 1;
        }
    }

    /// How often `key` occurred so far (history and path).
    #[inline]
    pub fn count(&self, key: u64) -> usize {
        if self.filter[(key & FILTER_MASK) as usize] == 0 {
            return 0;
        }
        self.keys.iter().filter(|&&k| k == key).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn counts_history_and_path() {
        let mut r = Repetitions::new(&[1, 2, 1 + (1 << 20)]);
        assert_eq!(r.count(1), 1);
        assert_eq!(r.count(3), 0);
        r.push(1);
        assert_eq!(r.count(1), 2);
        r.pop();
        assert_eq!(r.count(1), 1);
        assert_eq!(r.count(1 + (1 << 20)), 1);
    }
}
