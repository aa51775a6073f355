//! Modiar evaluation: captured stones plus the stones each side keeps when play stops.
//!
//! A Modiar game ends when the player to move cannot move, and each player adds the stones in
//! their own holes; so own-row stones count, discounted for the captures still to come. The
//! engine plays Modiar from its solved table where available; this evaluation guides the search
//! elsewhere.

use super::{row_stones, store_difference, Evaluate, Solved, Weights};
use crate::games::{Game, Modiar};

/// Centi-stones per stone on one's own row.
const ROW_WEIGHT: i32 = 50;

impl Evaluate for Modiar {
    #[inline]
    fn evaluate_with(&self, _weights: &Weights) -> i32 {
        let me = self.side_to_move();
        store_difference(self) + ROW_WEIGHT * (row_stones(self, me) - row_stones(self, me.other()))
    }

    /// Reading the 110 MB table (or building it, the first time on a machine) takes far longer
    /// than a move at a fast time control.
    fn prepare_tables(&self) {
        let _ = crate::solve::modiar::Table::get();
    }

    fn tables_ready(&self) -> bool {
        crate::solve::modiar::Table::loaded().is_some()
    }

    /// Modiar is solved: the table (built on first use, then cached) gives the perfect move, once
    /// it is loaded.
    fn solved(&self) -> Option<Solved> {
        let table = crate::solve::modiar::Table::loaded()?;
        let best = *table.best_moves(self).first()?;
        let me = self.side_to_move();
        let piles = self.store(me) as i32 - self.store(me.other()) as i32;
        let (low, high) = table.game_bounds(self);
        let decided = if low + piles > 0 {
            Some(1)
        } else if high + piles < 0 {
            Some(-1)
        } else if low == high {
            Some(0)
        } else {
            None
        };
        Some(Solved {
            best,
            margin: table.final_margin(self),
            decided,
            pv: table.principal_variation(self, 32).moves().to_vec(),
        })
    }

    fn explain(&self) -> Vec<(&'static str, i32)> {
        let me = self.side_to_move();
        let rows = ROW_WEIGHT * (row_stones(self, me) - row_stones(self, me.other()));
        vec![
            ("piles", store_difference(self)),
            ("rows", rows),
            ("total", self.evaluate()),
        ]
    }
}
