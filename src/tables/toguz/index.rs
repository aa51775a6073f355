//! The index of a Toguz position in its tables: side to move first (the board seen from the
//! mover), then the stones on the board, then the tuzdik pair, then the arrangement of those
//! stones over the holes that are not tuzdiks, ranked by the shared board index
//! ([`board_index`]).

use super::Tables;
use crate::games::notation::PositionFields;
use crate::games::{Game, Side, Toguz, Variant, MAX_HOLES};
use crate::tables::retrograde::board_index;

impl Tables {
    /// Per stone count and tuzdik pair, where its class begins; and the entries in all.
    pub(super) fn layout(variant: Variant, max_stones: usize) -> (Vec<Vec<usize>>, usize) {
        let n = variant.holes();
        let mut offsets = Vec::new();
        let mut total = 0usize;
        for s in 0..=max_stones {
            let mut row = vec![usize::MAX; n * n];
            if !layer_built(variant, max_stones, s) {
                offsets.push(row);
                continue;
            }
            for (class, slot) in row.iter_mut().enumerate() {
                let (mine, theirs) = (class / n, class % n);
                if !pair_allowed(variant, mine, theirs) {
                    continue;
                }
                *slot = total;
                total += class_size(free_holes(n, mine, theirs), s);
            }
            offsets.push(row);
        }
        (offsets, total)
    }

    /// The position with South to move, `counts` stones on the free holes (South's row, then
    /// North's, skipping tuzdiks), and stores that make the total right without either store
    /// holding a majority.
    pub(super) fn position(&self, counts: &[u8], mine: usize, theirs: usize, s: usize) -> Toguz {
        let n = self.variant.holes();
        let mut rows = [[0u8; MAX_HOLES]; 2];
        let mut k = 0;
        for (row, tuzdik) in [(0usize, theirs), (1, mine)] {
            for (hole, place) in rows[row][..n].iter_mut().enumerate() {
                if tuzdik != 0 && hole + 1 == tuzdik {
                    continue;
                }
                *place = counts[k];
                k += 1;
            }
        }
        let rest = self.variant.total_stones() - s as u32;
        let fields = PositionFields {
            variant: self.variant,
            rows,
            stores: [rest / 2, rest - rest / 2],
            side: Side::South,
            fullmove: 1,
        };
        let tuzdiks = [
            (mine != 0).then_some(mine as u8),
            (theirs != 0).then_some(theirs as u8),
        ];
        Toguz::from_fields(&fields, tuzdiks).expect("an enumerated position is valid")
    }

    /// The index of a position (seen from its side to move), if its stones are within the tables.
    #[inline]
    pub fn index(&self, pos: &Toguz) -> Option<usize> {
        let n = self.variant.holes();
        let me = pos.side_to_move();
        let (row_me, row_opp) = (pos.row(me), pos.row(me.other()));
        let s: usize = row_me.iter().chain(row_opp).map(|&x| x as usize).sum();
        if s > self.max_stones {
            return None;
        }
        let mine = pos.tuzdik(me).map_or(0, |h| h as usize);
        let theirs = pos.tuzdik(me.other()).map_or(0, |h| h as usize);
        let base = self.offsets[s][mine * n + theirs];
        if base == usize::MAX {
            return None; // a layer of the other parity, not built
        }
        // The free holes' stones, the mover's row first, in the order the ranking takes them.
        let mut counts = [0u8; 2 * MAX_HOLES];
        let mut free = 0;
        for (row, tuzdik) in [(row_me, theirs), (row_opp, mine)] {
            for (hole, &c) in row.iter().enumerate() {
                if tuzdik == 0 || hole + 1 != tuzdik {
                    counts[free] = c;
                    free += 1;
                }
            }
        }
        Some(base + board_index::rank(&counts[..free]))
    }
}

/// Whether the tables hold the layer of `s` stones: every layer, except on wide tables of a
/// board without tuzdiks, where only the start's parity is built (captures take even counts
/// there, so no game reaches the other parity).
pub(super) fn layer_built(variant: Variant, max_stones: usize, s: usize) -> bool {
    variant.has_tuzdik()
        || max_stones <= super::MAX_STONES_LIMIT
        || s % 2 == variant.total_stones() as usize % 2
}

/// Whether the rules allow this tuzdik pair (0 = none): never on the last hole, never both on
/// the same number, none at all on boards without tuzdiks.
pub(super) fn pair_allowed(variant: Variant, mine: usize, theirs: usize) -> bool {
    let n = variant.holes();
    if !variant.has_tuzdik() {
        return mine == 0 && theirs == 0;
    }
    mine < n && theirs < n && (mine == 0 || theirs == 0 || mine != theirs)
}

/// Holes that can hold stones: the whole ring less the tuzdiks.
pub(super) fn free_holes(n: usize, mine: usize, theirs: usize) -> usize {
    2 * n - (mine != 0) as usize - (theirs != 0) as usize
}

/// Arrangements of `s` stones over `free` holes.
pub(super) fn class_size(free: usize, s: usize) -> usize {
    board_index::layer_size(free, s) as usize
}
