//! What the table says of a position and its moves, and how the engine plays from it: the moves
//! that keep the value, with the progress that makes a forced value happen.

use super::index::{index, own_rows, turned};
use super::{
    ModiarTable, CYCLIC_BIT, GAME_ROUND_LOWER, GAME_ROUND_UPPER, GAME_UPPER, LOWER, ROUND_LOWER,
    ROUND_UPPER, UPPER, VALUE,
};
use crate::games::modiar::{analyse, HoleStatus, Modiar, HOLES};
use crate::games::{Game, GameLine, Move, MoveList, Side};
use crate::tables::probe::{Probe, Solved};
use crate::tables::Decided;
use std::time::Instant;

/// What a legal move is worth by the table.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct MoveValue {
    /// The move.
    pub mv: Move,
    /// Stones the move captures.
    pub captured: u32,
    /// The mover's margin from the stones now on the board: `captured - value(child)`.
    pub value: i32,
}

impl ModiarTable {
    /// Every legal move with its table value (empty when the game is over).
    pub fn move_values(&self, pos: &Modiar) -> Vec<MoveValue> {
        let board = ModiarTable::mover_board(pos);
        let a = analyse(&board, 0, !pos.is_first_move());
        (0..HOLES)
            .filter(|&h| a.status[h] == HoleStatus::Legal)
            .map(|h| {
                let captured = a.sowing[h].captured as i32;
                let child = self.entry(&turned(&a.after[h]));
                MoveValue {
                    mv: Move::hole(h),
                    captured: captured as u32,
                    value: captured - child.value,
                }
            })
            .collect()
    }

    /// The margin the side to move secures with best play from the stones on the board (piles
    /// left out): their final share of the board minus the opponent's. On the game's first move
    /// (which captures nothing and is not in the table) it is the best of the three moves.
    pub fn value(&self, pos: &Modiar) -> i32 {
        if pos.is_first_move() {
            return self
                .move_values(pos)
                .iter()
                .map(|m| m.value)
                .max()
                .unwrap_or_else(|| own_rows(&ModiarTable::mover_board(pos)));
        }
        self.entry(&ModiarTable::mover_board(pos)).value
    }

    /// The bounds the side to move and the opponent can force all the way to the end of the game
    /// (see [`ModiarEntry::game_lower`]); equal bounds mean the value does not rest on any convention
    /// for endless play. On the first move: the bounds over its three moves.
    pub fn game_bounds(&self, pos: &Modiar) -> (i32, i32) {
        let board = ModiarTable::mover_board(pos);
        if !pos.is_first_move() {
            let e = self.entry(&board);
            return (e.game_lower, e.game_upper);
        }
        let a = analyse(&board, 0, false);
        let (mut lo, mut hi) = (i32::MIN, i32::MIN);
        for h in (0..HOLES).filter(|&h| a.status[h] == HoleStatus::Legal) {
            let child = self.entry(&turned(&a.after[h]));
            lo = lo.max(-child.game_upper);
            hi = hi.max(-child.game_lower);
        }
        if lo == i32::MIN {
            let rows = own_rows(&board);
            return (rows, rows);
        }
        (lo, hi)
    }

    /// The final margin of the whole game with best play, piles included, for the side to move.
    pub fn final_margin(&self, pos: &Modiar) -> i32 {
        let me = pos.side_to_move();
        self.value(pos) + pos.store(me) as i32 - pos.store(me.other()) as i32
    }

    /// Final totals (South, North) with best play from here.
    pub fn final_totals(&self, pos: &Modiar) -> [u32; 2] {
        let board = pos.board_stones() as i32;
        let mover = (board + self.value(pos)) / 2;
        let me = pos.side_to_move();
        let mut totals = [pos.store(Side::South), pos.store(Side::North)];
        totals[me.index()] += mover as u32;
        totals[me.other().index()] += (board - mover) as u32;
        totals
    }

    /// The moves that keep the table's value, the engine's choice first. Empty when the game is
    /// over. The guarantee in full is in `protocol/rules-modiar.md` ("How the engine plays from
    /// it"); in short, every move returned in a non-cyclic position is worth exactly the
    /// position's value, with the progress that makes a forced value happen:
    ///
    /// - `value == game_lower` (every position whose value rests on no convention, the start's
    ///   moves included): a capture worth at least `game_lower` by the smaller board's
    ///   `game_upper`, or a move to a reply whose `game_upper` allows no more than `-game_lower`
    ///   and was settled in an earlier round. Played move after move, such moves never repeat a
    ///   position and end the game with at least the value for real, whatever the opponent does
    ///   and whatever the repetition rule.
    /// - `value == lower > game_lower`: the moves that keep forcing `lower` within the stone
    ///   count, with that fixpoint's progress (one always exists, and each is worth the value).
    /// - other non-cyclic positions: the moves of the minimax value.
    /// - cyclic positions, where the convention scores the position itself and no move need be
    ///   worth its value: the moves of the value where there are any; else, among the moves that
    ///   keep `game_lower` with its progress, those that keep the opponent from forcing less than
    ///   `upper`, rated highest (the highest rated of them if none does).
    ///
    /// The value comes before the game-forced bound: restricting the moves to those that keep
    /// `game_lower` by its progress test first (which judges by the round a reply's bound last
    /// changed, no distance for a weaker target) made the engine give up the value in 336
    /// positions. Among the moves kept, those that also keep `game_lower` with its progress come
    /// first, then the fastest progress within the stone count. On the first move of the game
    /// (which captures nothing and can never recur) the moves of the best value are returned.
    pub fn best_moves(&self, pos: &Modiar) -> MoveList {
        let mut out = MoveList::new();
        let values = self.move_values(pos);
        let Some(best) = values.iter().map(|m| m.value).max() else {
            return out;
        };
        if pos.is_first_move() {
            values
                .iter()
                .filter(|m| m.value == best)
                .for_each(|m| out.push(m.mv));
            return out;
        }
        let board = ModiarTable::mover_board(pos);
        let n = board.iter().map(|&x| x as i32).sum::<i32>();
        let i = index(&board);
        let e = self.entry(&board);
        let a = analyse(&board, 0, true);
        let child_index = |m: &MoveValue| index(&turned(&a.after[m.mv.index()]));
        // Whether a move keeps forcing `target`, and its progress rank (lower is faster). The
        // sections name what a capture's smaller board counts for, the reply's upper bound, and
        // the rounds of the bounds in play.
        let forces = |m: &MoveValue,
                      target: i32,
                      [exit, upper, round_upper, round_lower]: [usize; 4]|
         -> Option<u8> {
            let c = child_index(m);
            if target == -n {
                Some(0) // nothing to force: every move gives at least the minimum
            } else if m.captured > 0 {
                (m.captured as i32 - self.byte(exit, c) >= target).then_some(0)
            } else {
                let round = self.blob[round_upper + c];
                (-self.byte(upper, c) >= target && round < self.blob[round_lower + i] & !CYCLIC_BIT)
                    .then_some(round + 1)
            }
        };
        const GAME: [usize; 4] = [GAME_UPPER, GAME_UPPER, GAME_ROUND_UPPER, GAME_ROUND_LOWER];
        const LAYER: [usize; 4] = [VALUE, UPPER, ROUND_UPPER, ROUND_LOWER];
        // Every move rated: (rated value, game progress, layer progress, move), a progress of
        // `u8::MAX` meaning the move does not keep forcing that bound.
        let mut rated: Vec<(i32, u8, u8, MoveValue)> = values
            .iter()
            .map(|m| {
                (
                    m.value,
                    forces(m, e.game_lower, GAME).unwrap_or(u8::MAX),
                    forces(m, e.lower, LAYER).unwrap_or(u8::MAX),
                    *m,
                )
            })
            .collect();
        let keeps_upper = |m: &MoveValue| {
            if m.captured > 0 {
                m.value >= e.upper
            } else {
                -self.byte(LOWER, child_index(m)) >= e.upper
            }
        };
        // The moves that keep the position's value, each with the progress that makes the value
        // happen rather than be promised for ever. The value comes first: where it rests on the
        // convention, keeping the game-forced bound as well is only a preference (64 positions
        // allow no move that does both).
        let keeps = |&(value, game, layer, m): &(i32, u8, u8, MoveValue)| {
            if e.value == e.game_lower {
                game != u8::MAX
            } else if e.value == e.lower {
                layer != u8::MAX
            } else if !e.cyclic {
                value == e.value
            } else {
                value == e.value || keeps_upper(&m)
            }
        };
        // A cyclic position's value scores the position itself, not a move: where no move is
        // worth it, the game-forced bound, the one real guarantee, restricts the moves first
        // (moves that give it up there let the repetition rule end the game below it).
        if e.cyclic && rated.iter().all(|r| r.0 != e.value) {
            rated.retain(|r| r.1 != u8::MAX);
        }
        let mut chosen: Vec<_> = rated.iter().filter(|r| keeps(r)).copied().collect();
        debug_assert!(
            e.cyclic || !chosen.is_empty(),
            "no move keeps the value in {pos}"
        );
        if chosen.is_empty() {
            chosen = rated;
        }
        let top = chosen.iter().map(|r| r.0).max();
        chosen.retain(|r| Some(r.0) == top);
        chosen.sort_by_key(|&(_, game, layer, m)| (game, layer, m.mv));
        for (_, _, _, m) in chosen {
            out.push(m.mv);
        }
        out
    }

    /// Plays the first of [`ModiarTable::best_moves`] for both sides from `pos` until the game ends
    /// (by no moves or by the third repetition) or `max_plies` moves were played.
    pub fn principal_variation(&self, pos: &Modiar, max_plies: usize) -> GameLine<Modiar> {
        let mut line = GameLine::new(*pos);
        while !line.is_over() && line.moves().len() < max_plies {
            let best = self.best_moves(line.position());
            let Some(&mv) = best.first() else { break };
            line.play(mv).expect("the table's move is legal");
        }
        line
    }
}

/// Modiar is solved: the table (built on first use, then cached) gives the perfect move, once it
/// is loaded. Reading the 110 MB table (or building it, the first time on a machine) takes far
/// longer than a move at a fast time control.
impl Probe for Modiar {
    fn prepare_tables(&self) {
        ModiarTable::get().prepare_real_rule();
    }

    fn tables_ready(&self) -> bool {
        ModiarTable::loaded().is_some()
    }

    fn solved(&self) -> Option<Solved> {
        let table = ModiarTable::loaded()?;
        solved_by(table, self, *table.best_moves(self).first()?)
    }

    /// The move that keeps the exact value under the real repetition rule given the game so far
    /// where the table's value rests on the convention (and the real-rule search answers in
    /// time), else the table's ([`ModiarTable::best_moves_after`]).
    fn solved_after(&self, history: &[u64], deadline: Option<Instant>) -> Option<Solved> {
        let table = ModiarTable::loaded()?;
        let best = *table.engine_moves_after(self, history, deadline).first()?;
        solved_by(table, self, best)
    }
}

/// What the engine reports in a solved position where it plays `best`: the table's margin,
/// whether the game bounds decide the result, its principal variation.
fn solved_by(table: &ModiarTable, pos: &Modiar, best: Move) -> Option<Solved> {
    let me = pos.side_to_move();
    let piles = pos.store(me) as i32 - pos.store(me.other()) as i32;
    let (low, high) = table.game_bounds(pos);
    let decided = Decided::by_margins(low + piles, high + piles);
    let mut after = *pos;
    after.play(best);
    let mut pv = vec![best];
    pv.extend_from_slice(table.principal_variation(&after, 31).moves());
    Some(Solved {
        best,
        margin: table.final_margin(pos),
        decided,
        pv,
    })
}
