//! The index of a board among the boards of as many stones on as many holes: the one ranking
//! every table built by retrograde analysis shares (Toguz Kumalak's for each tuzdik pair over
//! the free holes, Modiar's, Giuthi's), the mover's row first.
//!
//! It is the combinatorial number system over the running sums ("stars and bars"): a board of
//! `k` holes whose first `j + 1` holes hold `S_j` stones has the rank
//! `C(S_0, 1) + C(S_1 + 1, 2) + ... + C(S_{k-2} + k - 2, k - 1)`, a bijection from the boards of
//! `s` stones onto `0..layer_size(k, s)`. A table keeps its entries in this order, so the order
//! is part of every table file: it must never change.

/// Most holes a board may have: Giuthi's two rows of 10 (Toguz's widest ring has 18 holes).
pub const MAX_PLACES: usize = 20;

/// Rows of the binomial table: C(a, b) for a below this, enough for every board a table takes
/// (Giuthi's 20 holes with up to 64 stones; Toguz's 10 free holes of 2x5 with 40).
const ROWS: usize = 84;

/// C(a, b) for a < [`ROWS`], b <= [`MAX_PLACES`] (0 where b > a; saturated where it overflows,
/// far past any board a table takes).
const BINOM: [[u64; MAX_PLACES + 1]; ROWS] = {
    let mut t = [[0u64; MAX_PLACES + 1]; ROWS];
    let mut a = 0;
    while a < ROWS {
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
#[inline]
pub const fn binomial(a: usize, b: usize) -> u64 {
    BINOM[a][b]
}

/// Boards of `stones` stones on `places` holes: C(stones + places - 1, places - 1).
pub const fn layer_size(places: usize, stones: usize) -> u64 {
    binomial(stones + places - 1, places - 1)
}

/// Boards of fewer than `stones` stones on `places` holes, C(stones + places - 1, places): where
/// the boards of `stones` begin in a table that keeps every stone count one after another.
pub const fn layers_below(places: usize, stones: usize) -> u64 {
    binomial(stones + places - 1, places)
}

/// The rank of `board` among the boards of its stones on its holes.
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

/// The board of `stones` stones on `board.len()` holes with the given rank, written into
/// `board` (the inverse of [`rank`]).
pub fn unrank(mut rank: usize, stones: usize, board: &mut [u8]) {
    let places = board.len();
    // The bars b_0 < ... < b_{places-2} in 0..stones+places-1, rank = sum of C(b_j, j+1).
    let mut bars = [0usize; MAX_PLACES];
    let mut top = stones + places - 1;
    for j in (0..places - 1).rev() {
        let mut x = top - 1;
        while binomial(x, j + 1) > rank as u64 {
            x -= 1;
        }
        bars[j] = x;
        rank -= binomial(x, j + 1) as usize;
        top = x;
    }
    let mut prev: isize = -1;
    for j in 0..places - 1 {
        board[j] = (bars[j] as isize - prev - 1) as u8;
        prev = bars[j] as isize;
    }
    board[places - 1] = (stones as isize + places as isize - 1 - prev - 1) as u8;
}

/// Calls `f` with every board of `stones` stones on `places` holes, in lexicographic order.
pub fn for_each_board(places: usize, stones: usize, mut f: impl FnMut(&[u8])) {
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
    fill(&mut board, 0, stones, &mut f);
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every board of a layer gets a distinct rank below the layer's size, and unranks back.
    #[test]
    fn ranks_are_a_bijection_and_unrank_inverts_them() {
        for (places, stones) in [(10, 0), (10, 1), (10, 5), (12, 4), (6, 7), (18, 3), (1, 4)] {
            let size = layer_size(places, stones) as usize;
            let mut seen = vec![false; size];
            let mut back = vec![0u8; places];
            for_each_board(places, stones, |b| {
                let r = rank(b);
                assert!(r < size && !seen[r], "{b:?}");
                seen[r] = true;
                unrank(r, stones, &mut back);
                assert_eq!(back, b);
            });
            assert!(seen.iter().all(|&s| s), "{places} holes, {stones} stones");
        }
        assert_eq!(layer_size(10, 40), 2_054_455_634);
        assert_eq!(layers_below(6, 43), 12_271_512);
    }

    /// The order the table files keep: a few ranks pinned (the first and last boards of a
    /// layer, and boards in between), so that no rewrite reorders a file's entries.
    #[test]
    fn the_order_is_pinned() {
        assert_eq!(rank(&[0, 0, 0, 0, 0, 5]), 0);
        assert_eq!(rank(&[5, 0, 0, 0, 0, 0]), 251);
        assert_eq!(rank(&[0, 0, 0, 0, 1, 4]), 1);
        assert_eq!(rank(&[1, 0, 0, 0, 0, 4]), 5);
        assert_eq!(rank(&[2, 1, 0, 3, 0, 1]), 396);
        assert_eq!(rank(&[7, 7, 7, 7, 7, 7]), 609_105);
    }
}
