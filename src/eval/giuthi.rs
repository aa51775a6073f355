//! Giuthi evaluation: captured seeds plus the seeds each side would keep at the end.
//!
//! A Giuthi game ends when neither side has a hole of two seeds, and each player then adds the
//! seeds left in their own holes: so seeds on one's own row are worth nearly as much as captured
//! ones late in the game, and less early, when they are still exposed to the relay captures.
//! Holes of two or more seeds are moves (mobility); a side without one must pass.

use super::{row_stones, store_difference, Evaluate, Weights};
use crate::games::{Game, Giuthi};

/// Centi-stones per seed on one's own row, at the start and at the end of the game.
const ROW_WEIGHT: [i32; 2] = [20, 90];
/// Centi-stones per playable hole (two or more seeds).
const MOBILITY: i32 = 15;

fn terms(pos: &Giuthi) -> [i32; 3] {
    let me = pos.side_to_move();
    let opp = me.other();
    let total = pos.variant().total_stones().max(1) as i32;
    let board = pos.board_stones() as i32;
    let weight = (ROW_WEIGHT[0] * board + ROW_WEIGHT[1] * (total - board)) / total;
    let rows = weight * (row_stones(pos, me) - row_stones(pos, opp));
    let movable = |s| pos.row(s).iter().filter(|&&x| x >= 2).count() as i32;
    let mobility = MOBILITY * (movable(me) - movable(opp));
    [store_difference(pos), rows, mobility]
}

/// Quiescence plies for Giuthi: at 12 (an early cap) a depth-1 search of the 2x10 start took 246k
/// nodes and depth 3 did not finish in 30 s; a short capture horizon keeps depth growing.
const QUIESCENCE_PLIES: usize = 2;

impl Evaluate for Giuthi {
    #[inline]
    fn quiescence_plies(&self) -> usize {
        QUIESCENCE_PLIES
    }

    #[inline]
    fn evaluate_with(&self, _weights: &Weights) -> i32 {
        terms(self).iter().sum()
    }

    fn explain(&self) -> Vec<(&'static str, i32)> {
        let t = terms(self);
        vec![
            ("piles", t[0]),
            ("rows", t[1]),
            ("mobility", t[2]),
            ("total", t.iter().sum()),
        ]
    }
}
