//! Static evaluation: how good a position is for the side to move, in centi-stones (100 = one
//! stone), without searching.
//!
//! Every game scores the difference of the stones already won plus the positional terms that
//! matter in that game (see each game's file). The search calls [`Evaluate::evaluate`] at its
//! leaves; it is monomorphised per game, so no dispatch happens per node.
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
    pub const TUNED: Weights = Weights {
        toguz: toguz::WEIGHTS,
    };
}

impl Default for Weights {
    fn default() -> Self {
        Weights::TUNED
    }
}

/// Bounds from endgame tables on the side to move's final total (stones won so far plus what
/// they secure from the board), with both players playing on to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableBounds {
    /// The mover can force at least this final total.
    pub low: u32,
    /// The opponent can hold the mover to at most this final total.
    pub high: u32,
    /// All stones of the game.
    pub total: u32,
}

impl TableBounds {
    /// The outcome for the side to move when the bounds decide it: `Some(1)` a proven win,
    /// `Some(-1)` a proven loss, `Some(0)` a proven draw.
    pub fn decided(&self) -> Option<i32> {
        if 2 * self.low > self.total {
            Some(1)
        } else if 2 * self.high < self.total {
            Some(-1)
        } else if 2 * self.low == self.total && self.low == self.high {
            Some(0)
        } else {
            None
        }
    }
}

/// A position of a solved game, as its table plays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The table's best move.
    pub best: crate::games::Move,
    /// The final margin (stones, side to move's view) with best play, piles included.
    pub margin: i32,
    /// `Some(1)`, `Some(-1)`, `Some(0)`: a win, loss or draw the side to move can force whatever
    /// the rules do with endless play; `None` when the result rests on that.
    pub decided: Option<i32>,
    /// The table's line of best play from here.
    pub pv: Vec<crate::games::Move>,
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

    /// What endgame tables know of this position, if the game has tables, they are loaded and
    /// the position is within them.
    #[inline]
    fn probe_tables(&self) -> Option<TableBounds> {
        None
    }

    /// Plies of quiescence search this game can afford: 4 (deeper showed no gain in Toguz
    /// Kumalak). Giuthi overrides it: nearly every relay sowing captures or keeps the turn, so a
    /// deep capture search there explodes.
    #[inline]
    fn quiescence_plies(&self) -> usize {
        4
    }

    /// Reads (or builds) this game's tables now, if it has any, waiting for them: on a thread of
    /// its own (`crate::search::prepare_tables_in_background`), never on a search's clock.
    fn prepare_tables(&self) {}

    /// Whether this game's tables are ready to use without waiting: read (or found missing), or
    /// the game has none. [`Evaluate::probe_tables`] and [`Evaluate::solved`] never wait: before
    /// this is true they know nothing.
    fn tables_ready(&self) -> bool {
        true
    }

    /// The perfect move from a solved game's table, for the root of a search (Modiar), once the
    /// table is ready.
    fn solved(&self) -> Option<Solved> {
        None
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

    fn probe_tables(&self) -> Option<TableBounds> {
        crate::with_game!(self, g => g.probe_tables())
    }

    fn solved(&self) -> Option<Solved> {
        crate::with_game!(self, g => g.solved())
    }

    fn quiescence_plies(&self) -> usize {
        crate::with_game!(self, g => g.quiescence_plies())
    }

    fn prepare_tables(&self) {
        crate::with_game!(self, g => g.prepare_tables())
    }

    fn tables_ready(&self) -> bool {
        crate::with_game!(self, g => g.tables_ready())
    }
}
