//! The index of a Modiar board in the table: the stones on the board, then the board's rank
//! among the boards of that many stones (combinatorial number system over the running sums), the
//! mover's row first.

use crate::games::modiar::{Board, RING};

/// Most stones on the board.
pub const MAX_STONES: usize = 42;

/// Binomial coefficients C(n, k) for n <= 48, k <= 6.
const BINOM: [[u32; 7]; 49] = {
    let mut t = [[0u32; 7]; 49];
    let mut n = 0;
    while n < 49 {
        t[n][0] = 1;
        let mut k = 1;
        while k < 7 && k <= n {
            t[n][k] = t[n - 1][k - 1] + if k < n { t[n - 1][k] } else { 0 };
            k += 1;
        }
        n += 1;
    }
    t
};

/// Boards with exactly `n` stones: C(n + 5, 5).
pub const fn layer_size(n: usize) -> usize {
    BINOM[n + 5][5] as usize
}

/// Boards with fewer than `n` stones: C(n + 5, 6), where the boards of `n` stones begin.
pub const fn layer_offset(n: usize) -> usize {
    BINOM[n + 5][6] as usize
}

/// Entries in the table: every board of 0..=42 stones, C(48, 6).
pub const POSITIONS: usize = layer_offset(MAX_STONES + 1);

/// Stones on a board and the board's rank among the boards of that many stones (combinatorial
/// number system over the five running sums).
#[inline]
pub(super) fn rank(b: &Board) -> (usize, usize) {
    let mut sum = 0usize;
    let mut rank = 0usize;
    for (j, &x) in b[..RING - 1].iter().enumerate() {
        sum += x as usize;
        rank += BINOM[sum + j][j + 1] as usize;
    }
    (sum + b[RING - 1] as usize, rank)
}

/// The table index of a board (mover's row first). At most [`MAX_STONES`] stones.
#[inline]
pub fn index(b: &Board) -> usize {
    let (n, r) = rank(b);
    layer_offset(n) + r
}

/// The board as seen by the other player (their row first).
#[inline]
pub(super) fn turned(b: &Board) -> Board {
    [b[3], b[4], b[5], b[0], b[1], b[2]]
}

/// The margin if the game ended now: the mover's row minus the opponent's.
#[inline]
pub(super) fn own_rows(b: &Board) -> i32 {
    (b[0] + b[1] + b[2]) as i32 - (b[3] + b[4] + b[5]) as i32
}

/// Calls `f` with every board of exactly `n` stones.
pub(super) fn for_each_board(n: usize, mut f: impl FnMut(&Board)) {
    let n = n as u8;
    let mut b = [0u8; RING];
    for a0 in 0..=n {
        b[0] = a0;
        for a1 in 0..=n - a0 {
            b[1] = a1;
            for a2 in 0..=n - a0 - a1 {
                b[2] = a2;
                for a3 in 0..=n - a0 - a1 - a2 {
                    b[3] = a3;
                    for a4 in 0..=n - a0 - a1 - a2 - a3 {
                        b[4] = a4;
                        b[5] = n - a0 - a1 - a2 - a3 - a4;
                        f(&b);
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_is_a_bijection_per_layer() {
        for n in [0, 1, 2, 5, 9] {
            let mut seen = vec![false; layer_size(n)];
            for_each_board(n, |b| {
                let (m, r) = rank(b);
                assert_eq!(m, n);
                assert!(!seen[r], "{b:?}");
                seen[r] = true;
            });
            assert!(seen.iter().all(|&s| s));
        }
        assert_eq!(POSITIONS, 12_271_512);
        assert_eq!(layer_offset(42) + layer_size(42), POSITIONS);
    }
}
