//! The index of a Giuthi board among the boards of as many seeds on as many holes: the
//! combinatorial number system over the running sums, the mover's row first (as Modiar's index,
//! for any number of holes).

/// Most holes on a board (two rows of 10).
pub const MAX_PLACES: usize = 20;

/// Binomial coefficients C(a, b) for a < 84, b <= 20 (saturated where they overflow, far past
/// any board the solver takes).
const BINOM: [[u64; MAX_PLACES + 1]; 84] = {
    let mut t = [[0u64; MAX_PLACES + 1]; 84];
    let mut a = 0;
    while a < 84 {
        t[a][0] = 1;
        let mut b = 1;
        while b <= MAX_PLACES && b <= a {
            t[a][b] = t[a - 1][b - 1].saturating_add(if b < a { t[a - 1][b] } else { 0 });
            b += 1;
        }
        a += 1;
    }
    t
};

/// C(a, b), for the table's range.
pub const fn binomial(a: usize, b: usize) -> u64 {
    BINOM[a][b]
}

/// Boards of `seeds` seeds on `places` holes: C(seeds + places - 1, places - 1).
pub const fn layer_size(places: usize, seeds: usize) -> u64 {
    binomial(seeds + places - 1, places - 1)
}

/// The rank of `board` among the boards of its seeds on its holes.
#[inline]
pub fn rank(board: &[u8]) -> usize {
    let mut sum = 0usize;
    let mut rank = 0u64;
    for (j, &x) in board[..board.len() - 1].iter().enumerate() {
        sum += x as usize;
        rank += BINOM[sum + j][j + 1];
    }
    rank as usize
}

/// Calls `f` with every board of `seeds` seeds on `places` holes.
pub fn for_each_board(places: usize, seeds: usize, mut f: impl FnMut(&[u8])) {
    fn fill(board: &mut [u8], i: usize, left: usize, f: &mut dyn FnMut(&[u8])) {
        if i + 1 == board.len() {
            board[i] = left as u8;
            f(board);
            return;
        }
        for x in 0..=left {
            board[i] = x as u8;
            fill(board, i + 1, left - x, f);
        }
    }
    let mut board = vec![0u8; places];
    fill(&mut board, 0, seeds, &mut f);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every board of a layer gets a distinct rank below the layer's size.
    #[test]
    fn ranks_are_a_bijection() {
        for (places, seeds) in [(10, 0), (10, 1), (10, 5), (12, 4), (6, 7)] {
            let size = layer_size(places, seeds) as usize;
            let mut seen = vec![false; size];
            for_each_board(places, seeds, |b| {
                let r = rank(b);
                assert!(r < size && !seen[r], "{b:?}");
                seen[r] = true;
            });
            assert!(seen.iter().all(|&s| s), "{places} holes, {seeds} seeds");
        }
        assert_eq!(layer_size(10, 40), 2_054_455_634);
    }
}
