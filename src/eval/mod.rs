//! Static evaluation: how good a position is for the side to move, in centi-stones (100 = one
//! stone), without searching.
//!
//! Every game scores the difference of the stones already won plus the positional terms that
//! matter in that game (see each game's file). The search calls [`Evaluate::evaluate`] at its
//! leaves; it is monomorphised per game, so no dispatch happens per node. What tables know of a
//! position is asked beside the evaluation, through [`crate::tables::Probe`].
//!
//! Toguz Kumalak's positional weights are tuned (`otau tune`, see [`tune`]); the tuner fits the
//! linear terms of [`toguz::features`] on positions labelled with game results.

pub mod giuthi;
pub mod modiar;
pub mod toguz;
pub mod tune;

use crate::games::{AnyGame, Game, Side};

/// The tunable weights of every game's evaluation. The search uses [`Weights::TUNED`]; other
/// values serve the tuner and self-play comparisons of weight sets.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Weights {
    /// Toguz Kumalak's positional terms, `[opening, endgame]` per term of [`toguz::features`].
    pub toguz: [[i32; 2]; toguz::FEATURES],
}

impl Weights {
    /// The weights the engine plays with: the tuner's last output, written into the source.
    pub const TUNED: Weights = Weights {
        toguz: toguz::WEIGHTS,
    };
}

impl Default for Weights {
    fn default() -> Self {
        Weights::TUNED
    }
}

/// A game the search can evaluate.
pub trait Evaluate: Game {
    /// The score of the position for the side to move, in centi-stones, with given weights.
    fn evaluate_with(&self, weights: &Weights) -> i32;

    /// The score with the engine's own weights.
    #[inline]
    fn evaluate(&self) -> i32 {
        self.evaluate_with(&Weights::TUNED)
    }

    /// Plies of quiescence search this game can afford: 4 (deeper showed no gain in Toguz
    /// Kumalak). Giuthi overrides it: nearly every relay sowing captures or keeps the turn, so a
    /// deep capture search there explodes.
    #[inline]
    fn quiescence_plies(&self) -> usize {
        4
    }

    /// The named terms of the evaluation (for the `eval` command), each from the side to move's
    /// view; the last, `total`, is [`Evaluate::evaluate`].
    fn explain(&self) -> Vec<(&'static str, i32)> {
        vec![("total", self.evaluate())]
    }
}

/// Stones already won by the side to move minus the opponent's, in centi-stones.
#[inline]
pub fn store_difference<G: Game>(pos: &G) -> i32 {
    let me = pos.side_to_move();
    100 * (pos.store(me) as i32 - pos.store(me.other()) as i32)
}

/// Stones on a player's row.
#[inline]
pub fn row_stones<G: Game>(pos: &G, side: Side) -> i32 {
    pos.row(side).iter().map(|&s| s as i32).sum()
}

impl Evaluate for AnyGame {
    fn evaluate_with(&self, weights: &Weights) -> i32 {
        crate::with_game!(self, g => g.evaluate_with(weights))
    }

    fn explain(&self) -> Vec<(&'static str, i32)> {
        crate::with_game!(self, g => g.explain())
    }

    fn quiescence_plies(&self) -> usize {
        crate::with_game!(self, g => g.quiescence_plies())
    }
}
