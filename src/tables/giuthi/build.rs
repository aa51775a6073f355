//! The retrograde analysis (see [`super`]): seed count by seed count upwards, each by the shared
//! least fixpoint ([`crate::tables::retrograde::fixpoint`]) over the capture-free moves, captures being exits
//! into the smaller boards already solved.

use std::time::{Duration, Instant};

use super::{GiuthiTable, UNFORCED};
use crate::games::{BoardState, Game, Giuthi, Side, Variant};
use crate::tables::retrograde::board_index::{for_each_board, layer_size, rank};
use crate::tables::retrograde::fixpoint::{self, Graph, NO_EXIT};

/// Counts of one seed count's analysis.
#[derive(Clone, Debug, Default)]
pub struct LayerStats {
    /// Seeds on the board.
    pub seeds: usize,
    /// Boards of this seed count.
    pub positions: u64,
    /// Capture-free moves (the graph's edges, extra moves included).
    pub quiet_moves: u64,
    /// Positions whose two bounds differ (value rests on the endless-play convention).
    pub open: u64,
    /// Rounds the bounds took to settle.
    pub rounds: u32,
    /// Time this seed count took.
    pub elapsed: Duration,
}

/// The board `board` (mover's row first) as a position with the mover as South.
pub(super) fn position(variant: Variant, board: &[u8]) -> Giuthi {
    let n = board.len() / 2;
    let mut state = BoardState::start(n, 0);
    state.ring[..2 * n].copy_from_slice(board);
    let on_board: u32 = board.iter().map(|&s| s as u32).sum();
    state.stores = [(variant.total_stones() - on_board) as u16, 0];
    state.side = Side::South;
    Giuthi::from_state(variant, state)
}

/// What a move leads to, from the mover's point of view.
pub(super) enum Next {
    /// The mover moves again (an extra move) on this board, their row still first.
    Again(Vec<u8>),
    /// The opponent moves on this board (their row first), after `captured` seeds were taken.
    Turn { board: Vec<u8>, captured: i32 },
}

/// Every move of `pos` (South to move) and what it leads to, in move-list order.
pub(super) fn successors(pos: &Giuthi) -> Vec<(crate::games::Move, Next)> {
    let n = pos.holes();
    pos.legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = *pos;
            let effect = child.play(mv);
            let ring = &child.state().ring[..2 * n];
            let next = if child.side_to_move() == Side::South {
                Next::Again(ring.to_vec())
            } else {
                let mut board = ring[n..].to_vec();
                board.extend_from_slice(&ring[..n]);
                Next::Turn {
                    board,
                    captured: effect.captured as i32,
                }
            };
            (mv, next)
        })
        .collect()
}

/// The mover's bounds for a move that captures `captured` seeds into a board whose mover (the
/// opponent) has bounds `(lo, hi)`: the mover's lower bound from the reply's upper, and the
/// other way; "nothing forced" stays so whatever was captured on the way.
pub(super) fn after_capture(captured: i32, (lo, hi): (i32, i32)) -> (i32, i32) {
    let unforced = UNFORCED as i32;
    let lower = if hi == unforced {
        -unforced
    } else {
        captured - hi
    };
    let upper = if lo == -unforced {
        unforced
    } else {
        captured - lo
    };
    (lower, upper)
}

/// Most moves a position has: both directions of every hole, or a pass.
fn max_moves(n: usize) -> usize {
    2 * n
}

const NONE: u32 = u32::MAX;

impl GiuthiTable {
    /// Solves every board of `variant`'s size with at most `max_seeds` seeds on it (at most the
    /// game's total), printing a line a seed count on stderr when `progress` is set.
    pub fn build(variant: Variant, max_seeds: usize, progress: bool) -> GiuthiTable {
        let n = variant.holes();
        let mut table = GiuthiTable {
            variant,
            lower: Vec::new(),
            upper: Vec::new(),
            layers: Vec::new(),
        };
        for seeds in 0..=max_seeds {
            let stats = table.solve_layer(n, seeds);
            if progress {
                eprintln!(
                    "solve {variant}: {seeds} seeds on the board: {} positions, {} quiet moves, \
                     {} open, {} rounds, {:.1} s",
                    stats.positions,
                    stats.quiet_moves,
                    stats.open,
                    stats.rounds,
                    stats.elapsed.as_secs_f64()
                );
            }
            table.layers.push(stats);
        }
        table
    }

    /// Solves the boards of `seeds` seeds, every smaller board being solved. The graph has two
    /// nodes a board: the board itself, and a relay node standing for "the mover moves again on
    /// it", whose one move leads to the board: an extra move is then an ordinary move into the
    /// relay node (`-(-v) = v`), so the shared negamax fixpoint serves a game with extra moves.
    fn solve_layer(&mut self, n: usize, seeds: usize) -> LayerStats {
        let started = Instant::now();
        let places = 2 * n;
        let size = layer_size(places, seeds) as usize;
        assert!(
            2 * size < NONE as usize,
            "a layer too large for 32-bit indices"
        );
        let slots = max_moves(n);
        let mut child = vec![NONE; slots * size];
        let mut terminal = vec![false; size];
        let mut rows = vec![0i8; size];
        let mut exits = vec![[NO_EXIT; 2]; 2 * size];
        for_each_board(places, seeds, |b| {
            let r = rank(b);
            let pos = position(self.variant, b);
            let next = successors(&pos);
            if next.is_empty() {
                let own: i32 = b[..n].iter().map(|&s| s as i32).sum();
                terminal[r] = true;
                rows[r] = (2 * own - seeds as i32) as i8;
                return;
            }
            for (slot, (_, next)) in next.into_iter().enumerate() {
                match next {
                    Next::Again(board) => {
                        child[slots * r + slot] = (size + rank(&board)) as u32;
                    }
                    Next::Turn { board, captured: 0 } => {
                        child[slots * r + slot] = rank(&board) as u32;
                    }
                    Next::Turn { board, captured } => {
                        let (lo, hi) = after_capture(captured, self.bounds_of(&board));
                        let e = &mut exits[r];
                        e[0] = e[0].max(lo as i16);
                        e[1] = e[1].max(hi as i16);
                    }
                }
            }
        });
        let mut start = Vec::with_capacity(2 * size + 1);
        start.push(0u32);
        let mut succ = Vec::new();
        for moves in child.chunks_exact(slots) {
            succ.extend(moves.iter().filter(|&&c| c != NONE));
            start.push(succ.len() as u32);
        }
        drop(child);
        let quiet_moves = succ.len() as u64;
        for q in 0..size {
            succ.push(q as u32);
            start.push(succ.len() as u32);
        }
        let graph = Graph::new(start, succ);
        let fix = fixpoint::solve(&graph, UNFORCED as usize, &exits, |p| {
            (p < size && terminal[p]).then(|| rows[p])
        });
        let lower: Vec<i8> = fix.bounds[..size].iter().map(|b| b[0]).collect();
        let upper: Vec<i8> = fix.bounds[..size].iter().map(|b| b[1]).collect();
        let open = lower.iter().zip(&upper).filter(|(l, u)| l != u).count() as u64;
        self.lower.push(lower);
        self.upper.push(upper);
        LayerStats {
            seeds,
            positions: size as u64,
            quiet_moves,
            open,
            rounds: fix.last_round,
            elapsed: started.elapsed(),
        }
    }
}
