//! Modiar evaluation: captured stones plus the stones each side keeps when play stops.
//!
//! A Modiar game ends when the player to move cannot move, and each player adds the stones in
//! their own holes; so own-row stones count, discounted for the captures still to come. The
//! engine plays Modiar from its solved table where available; this evaluation guides the search
//! elsewhere.

use super::{row_stones, store_difference, Evaluate, Weights};
use crate::games::{Game, Modiar};

/// Centi-stones per stone on one's own row.
const ROW_WEIGHT: i32 = 50;

impl Evaluate for Modiar {
    #[inline]
    fn evaluate_with(&self, _weights: &Weights) -> i32 {
        let me = self.side_to_move();
        store_difference(self) + ROW_WEIGHT * (row_stones(self, me) - row_stones(self, me.other()))
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
