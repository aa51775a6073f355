//! Modiar's boards in the table: every stone count one after another, each ranked by the shared
//! board index ([`board_index`]) over the six holes, the mover's row first.

use crate::games::modiar::{Board, RING};
use crate::tables::retrograde::board_index;

/// Most stones on the board.
pub const MAX_STONES: usize = 42;

/// Boards with exactly `n` stones: C(n + 5, 5).
pub const fn layer_size(n: usize) -> usize {
    board_index::layer_size(RING, n) as usize
}

/// Boards with fewer than `n` stones: C(n + 5, 6), where the boards of `n` stones begin.
pub const fn layer_offset(n: usize) -> usize {
    board_index::layers_below(RING, n) as usize
}

/// Entries in the table: every board of 0..=42 stones, C(48, 6).
pub const POSITIONS: usize = layer_offset(MAX_STONES + 1);

/// Stones on a board and the board's rank among the boards of that many stones.
#[inline]
pub(super) fn rank(b: &Board) -> (usize, usize) {
    let stones = b.iter().map(|&x| x as usize).sum();
    (stones, board_index::rank(b))
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
    board_index::for_each_board(RING, n, |b| {
        f(b.try_into().expect("a board of the ring's holes"))
    });
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
