//! Giuthi solved by retrograde analysis: every position of a board size with few enough seeds on
//! the board (`otau solve --game giuthi-5x4 --position ...`). The rules are
//! `protocol/rules-giuthi.md`, the figures and what is out of reach its "Solved boards".
//!
//! **What is computed.** The *margin* of a position is the mover's final total minus the
//! opponent's, counting only the seeds still on the board (the piles are added at the end: captured
//! seeds are out of play, so what remains to be won depends on the holes alone). The real game
//! ends an endless stretch by its repetition rule (the second occurrence of the same holes with
//! the same side to move is a draw), which makes a position's result depend on the game's history.
//! The solver computes instead two numbers that do not:
//!
//! - `lower`: the margin the mover can force **with the game ending normally in finite time**
//!   (no repetition), whatever the opponent does; [`UNFORCED`] below every margin when the
//!   mover cannot force a normal end at all;
//! - `upper`: the margin the opponent can hold the mover to, the same way; [`UNFORCED`] when
//!   the opponent cannot force a normal end.
//!
//! Where `lower == upper` that number is the position's value under any rule for endless play,
//! the real repetition rule included: the forcing strategies never repeat a position. Where they
//! differ, the result under the real rule still follows (a side wins only by ending the game
//! normally): the mover wins if the piles plus `lower` put them ahead, loses if the piles plus
//! `upper` put them behind, and otherwise neither can force a win and the game is a draw, by
//! repetition if need be ([`GiuthiTable::result`]). "Nothing forced" must stay apart from every
//! margin for that: a side far behind on the piles loses by every normal end, yet holds the
//! draw if it can keep the game going (sowing round a cycle while the opponent must pass, say).
//! Scoring what is not forced as all the board's seeds to the other side, as a share-out rule
//! would, called such positions lost; the proof search from the start found the case
//! (`giuthi-5x4 0,0,2,2,1/1,0,1,0,0 12/21 s 2`, a draw).
//!
//! **How.** By retrograde analysis, as Modiar's table: every board of the size's holes with 0, 1,
//! 2, ... seeds on it, the mover's row first (one entry serves South to move and the mirrored
//! North to move). A capture leads to a smaller board, already solved, so within one seed count
//! only capture-free moves link boards, and the two bounds are the least fixpoints of the shared
//! [`crate::tables::retrograde::fixpoint`] over that graph. An extra move keeps the mover: it goes through a
//! relay node of the graph whose one move leads back to the same board, so the negamax fixpoint
//! serves it unchanged. The moves are the game's own (`Game::legal_moves`, `Game::play`: the
//! sowing is `src/games/giuthi.rs`'s).
//!
//! **What fits.** A seed count of `s` seeds on `2n` holes has C(s + 2n - 1, 2n - 1) boards;
//! `giuthi-5x4` has C(49, 9) = 2,054,455,634 boards of 40 seeds alone and 10,272,278,170 of 0 to
//! 40, far beyond an explicit graph in 24 GiB (about 93 bytes a board of the largest seed count:
//! some 190 GB). The
//! solver takes positions of at most [`MAX_BOARD_SEEDS`] seeds on the board ([`fits`] names the
//! limit and why), which covers every endgame of the 5-hole boards up to there. A proof search
//! from the start (alpha-beta to the end with a transposition table) was measured too and is far
//! worse: Giuthi's capture-free cycles make results depend on the path, so almost nothing can be
//! stored (figures in `protocol/rules-giuthi.md`, "Solved boards").

mod build;
pub mod prove;

pub use build::LayerStats;

use crate::games::{Game, Giuthi, Move, Side, Variant};
use crate::tables::retrograde::board_index::{self, layer_size};
use crate::tables::storage::file_format::{self, Kind};
use crate::tables::Decided;

/// Most seeds on the board of a position of a 5-hole board the solver takes: the boards of 2 x 5
/// holes up to this many seeds, C(30, 10) = 30,045,015 in all and C(29, 9) = 10,015,005 in the
/// largest seed count, took 141 s of CPU and 933 MB at their peak as measured
/// (`protocol/rules-giuthi.md`, "Solved boards").
pub const MAX_BOARD_SEEDS: usize = 20;

/// Most positions of one seed count the solver builds, whatever the board (the largest seed
/// count of [`MAX_BOARD_SEEDS`] on 2 x 5 holes): the time and memory of the analysis grow with
/// it, about 93 bytes a board of the largest seed count.
pub const MAX_LAYER: u64 = 10_015_005;

/// The bound of a side that cannot force the game to a normal end: beyond every margin, so
/// that a draw by repetition, which no margin scores, is never mistaken for a share-out of the
/// board (a `lower` of `-UNFORCED`: the mover forces no end; an `upper` of `UNFORCED`: the
/// opponent forces none).
pub const UNFORCED: i8 = i8::MAX;

/// Why a position is not solved.
#[derive(Debug, PartialEq, Eq)]
pub enum SolveError {
    /// The game is not Giuthi.
    NotGiuthi(Variant),
    /// More boards than the solver takes (see [`MAX_LAYER`]).
    TooLarge {
        /// The game asked for.
        variant: Variant,
        /// The seeds on the board asked for.
        seeds: usize,
        /// Boards of the largest seed count.
        layer: u64,
    },
}

impl std::fmt::Display for SolveError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SolveError::NotGiuthi(v) => write!(f, "{v} is not a Giuthi game"),
            SolveError::TooLarge {
                variant,
                seeds,
                layer,
            } => write!(
                f,
                "{variant} with {seeds} seeds on the board does not fit: the retrograde analysis \
                 builds every board of {} holes up to that many seeds, {layer} boards in the \
                 largest seed count alone, and takes at most {MAX_LAYER} (2 x 5 holes with \
                 {MAX_BOARD_SEEDS} seeds, measured in minutes) on this machine; give a \
                 --position with fewer seeds on the board (protocol/rules-giuthi.md, \
                 \"Solved boards\")",
                2 * variant.holes()
            ),
        }
    }
}

impl std::error::Error for SolveError {}

/// Whether the positions of `variant` with `seeds` seeds on the board fit the solver.
pub fn fits(variant: Variant, seeds: usize) -> Result<(), SolveError> {
    if !matches!(variant, Variant::Giuthi { .. }) {
        return Err(SolveError::NotGiuthi(variant));
    }
    let layer = (0..=seeds)
        .map(|s| layer_size(2 * variant.holes(), s))
        .max()
        .unwrap_or(1);
    if layer > MAX_LAYER || seeds > variant.total_stones() as usize {
        return Err(SolveError::TooLarge {
            variant,
            seeds,
            layer,
        });
    }
    Ok(())
}

/// The solution of every board of one size up to a seed count: for each seed count, by rank,
/// the mover's two bounds (module documentation).
pub struct GiuthiTable {
    variant: Variant,
    lower: Vec<Vec<i8>>,
    upper: Vec<Vec<i8>>,
    layers: Vec<LayerStats>,
}

/// A move's bounds for the mover who plays it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveBounds {
    /// The move.
    pub mv: Move,
    /// The margin the mover can force after it (see the module's documentation).
    pub lower: i32,
    /// The margin the opponent can hold the mover to after it.
    pub upper: i32,
}

/// The board of `pos` from its mover's point of view (their row first).
fn mover_board(pos: &Giuthi) -> Vec<u8> {
    let me = pos.side_to_move();
    let mut b = pos.row(me).to_vec();
    b.extend_from_slice(pos.row(me.other()));
    b
}

impl GiuthiTable {
    /// Solves every board of `variant`'s size with up to `seeds` seeds on it, if that fits.
    pub fn for_seeds(
        variant: Variant,
        seeds: usize,
        progress: bool,
    ) -> Result<GiuthiTable, SolveError> {
        fits(variant, seeds)?;
        Ok(GiuthiTable::build(variant, seeds, progress))
    }

    /// The game (and so board size) the table solves.
    pub fn variant(&self) -> Variant {
        self.variant
    }

    /// Most seeds on a board the table holds.
    pub fn max_seeds(&self) -> usize {
        self.lower.len() - 1
    }

    /// The SHA-256 of the table's content ([`file_format::Digest`], kind [`Kind::GiuthiTable`]): what a
    /// start proof over it records, so that a proof made over another table (another build of
    /// otau, or forged) is refused instead of replayed.
    pub fn digest(&self) -> file_format::Digest {
        let bytes = |layers: &[Vec<i8>], s: usize| -> Vec<u8> {
            layers[s].iter().map(|&b| b as u8).collect()
        };
        let layers: Vec<Vec<u8>> = (0..self.lower.len())
            .flat_map(|s| [bytes(&self.lower, s), bytes(&self.upper, s)])
            .collect();
        let parts: Vec<&[u8]> = layers.iter().map(Vec::as_slice).collect();
        let params = [self.variant.holes() as u8, self.max_seeds() as u8, 0];
        file_format::Digest::of_parts(Kind::GiuthiTable, params, &parts)
    }

    /// The name a proof gives the table it rests on.
    pub fn name(&self) -> String {
        format!(
            "the Giuthi table of {} holes a row and 0..{} seeds (built in memory)",
            self.variant.holes(),
            self.max_seeds()
        )
    }

    /// Each seed count's figures.
    pub fn layers(&self) -> &[LayerStats] {
        &self.layers
    }

    /// Bounds of a board (mover's row first) the table holds.
    fn bounds_of(&self, board: &[u8]) -> (i32, i32) {
        let seeds: usize = board.iter().map(|&s| s as usize).sum();
        let r = board_index::rank(board);
        (self.lower[seeds][r] as i32, self.upper[seeds][r] as i32)
    }

    /// `(lower, upper)` of `pos` for its mover, on the seeds on the board; `None` when the table
    /// does not reach its seed count.
    pub fn bounds(&self, pos: &Giuthi) -> Option<(i32, i32)> {
        assert_eq!(
            pos.holes(),
            self.variant.holes(),
            "a position of another size"
        );
        (pos.board_stones() as usize <= self.max_seeds()).then(|| self.bounds_of(&mover_board(pos)))
    }

    /// The result under the real rules for the side to move of `pos` (None: more seeds on the
    /// board than the table holds). A win needs a normal end: the
    /// mover wins when the piles and `lower` put them ahead, loses when the piles and `upper`
    /// leave them behind, and neither can force more than a draw otherwise (by repetition if need
    /// be). Each side reaches its result whatever came before: a forcing strategy never repeats a
    /// position, and a repetition is a draw.
    pub fn result(&self, pos: &Giuthi) -> Option<Decided> {
        let (lower, upper) = self.bounds(pos)?;
        let me = pos.side_to_move();
        let piles = pos.store(me) as i32 - pos.store(me.other()) as i32;
        Some(Decided::by_margins(piles + lower, piles + upper).unwrap_or(Decided::Draw))
    }

    /// Each move's bounds for the mover of `pos`, in move-list order (the position must be in
    /// the table).
    pub fn move_bounds(&self, pos: &Giuthi) -> Vec<MoveBounds> {
        let mover = build::position(self.variant, &mover_board(pos));
        build::successors(&mover)
            .into_iter()
            .map(|(mv, next)| {
                let (lower, upper) = match next {
                    build::Next::Again(board) => self.bounds_of(&board),
                    build::Next::Turn { board, captured } => {
                        build::after_capture(captured, self.bounds_of(&board))
                    }
                };
                MoveBounds { mv, lower, upper }
            })
            .collect()
    }

    /// The margin of `pos` for its mover where it is forced: the two bounds meet, or one side
    /// forces all the board's seeds (no rule can give them more, so the other bound, which may
    /// be [`UNFORCED`], does not matter). None where the margin is open, or beyond the table.
    pub fn value(&self, pos: &Giuthi) -> Option<i32> {
        let (lower, upper) = self.bounds(pos)?;
        forced_margin(lower, upper, pos.board_stones() as i32)
    }

    /// A line of best play from `pos` of at most `max_plies` plies: at each step a move that
    /// keeps the position's forced margin ([`GiuthiTable::value`]), the one capturing most first,
    /// never back to a position of the line. It stops at the end of the game, where the margin is
    /// not forced (no best move is defined without a convention), or where every such move goes
    /// back into the line.
    pub fn principal_variation(&self, pos: &Giuthi, max_plies: usize) -> Vec<Move> {
        let mut line = Vec::new();
        let mut seen = vec![(mover_board(pos), pos.side_to_move())];
        let mut p = *pos;
        while line.len() < max_plies {
            let Some(value) = self.value(&p) else {
                break;
            };
            let seeds = p.board_stones() as i32;
            let mut choice: Option<(Move, Giuthi, u32)> = None;
            for m in self.move_bounds(&p) {
                if forced_margin(m.lower, m.upper, seeds) != Some(value) {
                    continue;
                }
                let mut child = p;
                let captured = child.play(m.mv).captured;
                let key = (mover_board(&child), child.side_to_move());
                if seen.contains(&key) {
                    continue;
                }
                if choice.as_ref().is_none_or(|&(_, _, c)| captured > c) {
                    choice = Some((m.mv, child, captured));
                }
            }
            let Some((mv, child, _)) = choice else { break };
            seen.push((mover_board(&child), child.side_to_move()));
            line.push(mv);
            p = child;
        }
        line
    }
}

/// The margin bounds `lower`/`upper` force on a board of `seeds` seeds ([`GiuthiTable::value`]).
fn forced_margin(lower: i32, upper: i32, seeds: i32) -> Option<i32> {
    if lower == upper || lower == seeds {
        Some(lower)
    } else if upper == -seeds {
        Some(upper)
    } else {
        None
    }
}

/// The final totals `[south, north]` when the mover of `pos` gets `margin` of the board.
pub fn totals(pos: &Giuthi, margin: i32) -> [u32; 2] {
    let board = pos.board_stones() as i32;
    let me = pos.side_to_move();
    let mine = pos.store(me) as i32 + (board + margin) / 2;
    let theirs = pos.store(me.other()) as i32 + (board - margin) / 2;
    match me {
        Side::South => [mine as u32, theirs as u32],
        Side::North => [theirs as u32, mine as u32],
    }
}
