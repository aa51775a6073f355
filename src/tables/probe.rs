//! What the search asks of the tables, beside the evaluation (as Stockfish keeps its Syzygy
//! probes apart from `evaluate`): bounds at the nodes of the search, a solved game's move at its
//! root, and whether the tables are ready without waiting.

use super::bestemshe::play::Solution;
use super::toguz;
use super::Decided;
use crate::games::{AnyGame, Game, Giuthi, Move, Toguz, Variant};

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
    /// The bounds of a Toguz position in `tables` (the mover's store plus the stones the
    /// tables say they secure), if its stones are within them.
    #[inline]
    pub fn of_toguz(tables: &toguz::Tables, pos: &Toguz) -> Option<TableBounds> {
        let b = tables.probe(pos)?;
        let store = pos.store(pos.side_to_move());
        Some(TableBounds {
            low: store + b.low,
            high: store + b.high,
            total: pos.variant().total_stones(),
        })
    }

    /// The result for the side to move when the bounds decide it (a proven win, loss or draw).
    pub fn decided(&self) -> Option<Decided> {
        let margin = |own: u32| 2 * own as i32 - self.total as i32;
        Decided::by_margins(margin(self.low), margin(self.high))
    }
}

/// A position of a solved game, as its table plays it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Solved {
    /// The table's best move.
    pub best: Move,
    /// The final margin (stones, side to move's view) with best play, piles included.
    pub margin: i32,
    /// A win, loss or draw the side to move can force whatever the rules do with endless play;
    /// `None` when the result rests on that.
    pub decided: Option<Decided>,
    /// The table's line of best play from here.
    pub pv: Vec<Move>,
}

/// A game's tables as the search sees them. Nothing here waits for a table: before
/// [`Probe::tables_ready`] is true the probes know nothing.
pub trait Probe: Game {
    /// What endgame tables know of this position, if the game has tables, they are loaded and
    /// the position is within them.
    #[inline]
    fn probe_tables(&self) -> Option<TableBounds> {
        None
    }

    /// Reads (or builds) this game's tables now, if it has any, waiting for them: on a thread of
    /// its own (`crate::search::prepare_tables_in_background`), never on a search's clock.
    fn prepare_tables(&self) {}

    /// Whether this game's tables are ready to use without waiting: read (or found missing), or
    /// the game has none.
    fn tables_ready(&self) -> bool {
        true
    }

    /// The perfect move from a solved game's table, for the root of a search (Modiar), once the
    /// table is ready.
    fn solved(&self) -> Option<Solved> {
        None
    }

    /// [`Probe::solved`] after the game's positions whose repetition keys are `history` (this
    /// position's own last, as `GameLine::keys` gives them), for a game whose perfect move
    /// depends on them (Modiar under its repetition rule), spending no time past `deadline`.
    fn solved_after(
        &self,
        history: &[u64],
        deadline: Option<std::time::Instant>,
    ) -> Option<Solved> {
        let _ = (history, deadline);
        self.solved()
    }
}

/// Toguz Kumalak's endgame tables (`otau tables`), and on Bestemshe the solution.
/// Bestemshe's solution (`otau solve --game bestemshe`) when this is Bestemshe and it is there.
fn solution(pos: &Toguz) -> Option<&'static Solution> {
    (pos.variant() == Variant::BESTEMSHE)
        .then(Solution::loaded)
        .flatten()
}

impl Probe for Toguz {
    fn prepare_tables(&self) {
        // The solution first: tables it read whose proof was refused are then installed as
        // Bestemshe's tables, and kept.
        if self.variant() == Variant::BESTEMSHE {
            let _ = Solution::get();
        }
        let _ = toguz::tables(self.variant());
    }

    fn tables_ready(&self) -> bool {
        toguz::is_read(self.variant())
            && (self.variant() != Variant::BESTEMSHE || Solution::is_read())
    }

    /// Bestemshe, solved: the proof's move, or a forced win's from the tables.
    fn solved(&self) -> Option<Solved> {
        solution(self)?.best(self)
    }

    #[inline]
    fn probe_tables(&self) -> Option<TableBounds> {
        // The solution's tables reach further than `otau tables`' (28 stones, not 15).
        let tables = match solution(self) {
            Some(s) => &s.tables,
            None => toguz::loaded(self.variant())?,
        };
        TableBounds::of_toguz(tables, self)
    }
}

/// Giuthi has no tables.
impl Probe for Giuthi {}

impl Probe for AnyGame {
    fn probe_tables(&self) -> Option<TableBounds> {
        crate::with_game!(self, g => g.probe_tables())
    }

    fn prepare_tables(&self) {
        crate::with_game!(self, g => g.prepare_tables())
    }

    fn tables_ready(&self) -> bool {
        crate::with_game!(self, g => g.tables_ready())
    }

    fn solved(&self) -> Option<Solved> {
        crate::with_game!(self, g => g.solved())
    }

    fn solved_after(
        &self,
        history: &[u64],
        deadline: Option<std::time::Instant>,
    ) -> Option<Solved> {
        crate::with_game!(self, g => g.solved_after(history, deadline))
    }
}
