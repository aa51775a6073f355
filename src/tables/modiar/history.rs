//! Modiar's exact values under the real repetition rule, where the table's rest on the
//! endless-play convention (`protocol/rules-modiar.md`, "Where the table and the repetition rule
//! can differ").
//!
//! The real rule ends the game at the third occurrence of a position (holes, piles, side to move)
//! and each player adds their own row. A capture changes the piles, so positions repeat only
//! within a capture-free stretch, and the value of a position depends on the counts of the
//! positions met since the last capture. Three facts keep the search small:
//!
//! - **Only the position's own component matters.** A position met earlier in the stretch can
//!   come back only if it is reachable from here; it reached here, so the two lie in one strongly
//!   connected component of the stone count's capture-free move graph ([`Components`] over the
//!   whole layer). A move out of the component starts, for the purposes of repetition, a fresh
//!   history, and a capture a fresh stretch: both count at the next board's *fresh* value (its
//!   value as the first position of a stretch), which is memoised by board.
//! - **The table's game bounds hold while nothing has occurred twice.** `game_lower` and
//!   `game_upper` are forced by strategies whose bound rounds fall strictly move after move, so
//!   they never repeat a position, the current one included; they can only run into a position
//!   already met twice, which would end the game early. So where no position of the history but
//!   the current one has been met twice, the value lies in `[game_lower, game_upper]` (and is
//!   `game_lower` where the two meet: every board of fewer than 36 stones and most of the big
//!   components).
//! - **The value depends on the counts, not their order**, so a transposition table keyed by the
//!   position and a hash of the whole history (128-bit Zobrist) stores proven bounds.
//!
//! The search is negamax alpha-beta over those states, margins counted from the stones on the
//! board (as the table's), with a node budget: it answers exactly or not at all.

use crate::tables::proof_search::on_deep_stack;
use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Instant;

use super::build::quiet_graph;
use super::index::{for_each_board, index, own_rows, rank, turned, MAX_STONES};
use super::ModiarTable;
use crate::games::modiar::{analyse, Board, HoleStatus, HOLES};
use crate::games::{Game, Modiar, Move, MoveList, Side};
use crate::tables::retrograde::fixpoint::Components;

/// A position of a capture-free stretch: its board's table index (from the mover's point of
/// view) and whether the other side than at the reference position is to move (the same board
/// with the other side to move is another position).
type Place = (u32, bool);

/// The most transposition entries kept (about 50 bytes each); the table is cleared when full.
const TT_CAPACITY: usize = 4_000_000;

/// Nodes between two looks at the clock.
const CLOCK_CHECK: u64 = 1024;

/// The counts of the positions met in the current component since the stretch began.
#[derive(Default)]
struct History {
    counts: HashMap<Place, u8>,
    /// Positions met twice.
    twos: u32,
    /// Zobrist hash of the counts.
    hash: u128,
}

/// A pseudo-random 128-bit key for a place met `count` times (two rounds of splitmix64).
fn zobrist(p: Place, count: u8) -> u128 {
    let mix = |mut z: u64| {
        z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    };
    let x = ((p.0 as u64) << 3) | ((p.1 as u64) << 2) | count as u64;
    let a = mix(x);
    ((a as u128) << 64) | mix(a ^ 0x5851_F42D_4C95_7F2D) as u128
}

impl History {
    fn count(&self, p: Place) -> u8 {
        self.counts.get(&p).copied().unwrap_or(0)
    }

    fn push(&mut self, p: Place) {
        let c = self.counts.entry(p).or_insert(0);
        if *c > 0 {
            self.hash ^= zobrist(p, *c);
        }
        *c += 1;
        self.hash ^= zobrist(p, *c);
        if *c == 2 {
            self.twos += 1;
        }
    }

    fn pop(&mut self, p: Place) {
        let c = self.counts.get_mut(&p).expect("popping a place pushed");
        if *c == 2 {
            self.twos -= 1;
        }
        self.hash ^= zobrist(p, *c);
        *c -= 1;
        if *c > 0 {
            self.hash ^= zobrist(p, *c);
        } else {
            self.counts.remove(&p);
        }
    }
}

/// The positions of one component with given piles by their repetition keys (the board's table
/// index, the side to move), to count a game's history from the keys the engine keeps.
struct KeyIndex {
    places: HashMap<u64, (u32, Side)>,
}

/// The most key indexes kept (up to 10 MB each); all are dropped when full.
const KEY_INDEXES: usize = 16;

/// The real-rule solver: the table, the components of the stone counts it met, the fresh values
/// found and the transposition table. Values are margins from the stones on the board, for the
/// side to move, as the table's.
pub struct RealRule<'t> {
    table: &'t ModiarTable,
    components: HashMap<usize, Components>,
    fresh: HashMap<u32, i8>,
    tt: HashMap<(Place, u128), (i8, i8)>,
    /// The positions of the last components met by key (a game's stretch asks again move after
    /// move), by stone count, component and piles.
    keys: HashMap<(usize, u32, [u32; 2]), KeyIndex>,
    nodes: u64,
    limit: u64,
    /// When the current call gives up (checked every [`CLOCK_CHECK`] nodes).
    deadline: Option<Instant>,
    /// Whether the table's game bounds prune (always, but for the cross-check against a search
    /// without them).
    use_bounds: bool,
}

impl<'t> RealRule<'t> {
    /// A solver over `table` that prunes by its game bounds (the usual one; see
    /// [`RealRule::without_bounds`]).
    pub fn new(table: &'t ModiarTable) -> RealRule<'t> {
        RealRule {
            table,
            components: HashMap::new(),
            fresh: HashMap::new(),
            tt: HashMap::new(),
            keys: HashMap::new(),
            nodes: 0,
            limit: 0,
            deadline: None,
            use_bounds: true,
        }
    }

    /// A solver that does not prune by the game bounds inside the components it searches (it
    /// still counts a board whose bounds meet at that value when a capture or a move out of the
    /// component reaches it fresh): slower, for cross-checks only.
    pub fn without_bounds(table: &'t ModiarTable) -> RealRule<'t> {
        RealRule {
            use_bounds: false,
            ..RealRule::new(table)
        }
    }

    /// Nodes searched so far, over every call.
    pub fn nodes(&self) -> u64 {
        self.nodes
    }

    /// The real-rule value of `board` (mover's row first) as the first position of a capture-free
    /// stretch (just reached by a capture, or given as a position string), searching at most
    /// `budget` nodes; None when the budget runs out.
    pub fn fresh_value(&mut self, board: &Board, budget: u64) -> Option<i32> {
        self.limit = self.nodes.saturating_add(budget);
        on_deep_stack("the real-rule search", || self.fresh(board))
    }

    /// The real-rule value of the last of `stretch`, the boards (each from its mover's point of
    /// view) of the capture-free stretch from its first position to the current one, every move
    /// between them capture-free. None when the budget runs out.
    pub fn value_after(&mut self, stretch: &[Board], budget: u64) -> Option<i32> {
        let board = *stretch.last()?;
        self.limit = self.nodes.saturating_add(budget);
        let (n, r) = rank(&board);
        let mut history = History::default();
        for (k, b) in stretch.iter().enumerate() {
            let (m, s) = rank(b);
            if m == n && self.component(n, s) == self.component(n, r) {
                history.push((index(b) as u32, (stretch.len() - 1 - k) % 2 == 1));
            }
        }
        let here = (index(&board) as u32, false);
        if history.count(here) >= 3 {
            return Some(own_rows(&board));
        }
        if !self.cyclic(n, r) {
            return on_deep_stack("the real-rule search", || self.fresh(&board));
        }
        on_deep_stack("the real-rule search", || {
            self.search(&board, here, &mut history, -(n as i32) - 1, n as i32 + 1)
        })
    }

    /// What each legal move of `pos` is worth under the real rule (the mover's margin from the
    /// stones on the board, as [`ModiarTable::move_values`]), after the game's positions whose
    /// repetition keys are `history` (`pos`'s own last, as `GameLine::keys` gives them). None
    /// when `budget` nodes or the `deadline` run out first, or on the game's first move (which
    /// the table's values answer exactly). Of the history only the positions of `pos`'s
    /// capture-free stretch and component count; they are found by their keys, so the search
    /// needs no positions, only the keys the engine keeps anyway.
    pub fn move_values_after(
        &mut self,
        pos: &Modiar,
        history: &[u64],
        budget: u64,
        deadline: Option<Instant>,
    ) -> Option<Vec<(Move, i32)>> {
        if pos.is_first_move() {
            return None;
        }
        self.limit = self.nodes.saturating_add(budget);
        self.deadline = deadline;
        let values = on_deep_stack("the real-rule search", || self.values_after(pos, history));
        self.deadline = None;
        values
    }

    fn values_after(&mut self, pos: &Modiar, history: &[u64]) -> Option<Vec<(Move, i32)>> {
        let board = ModiarTable::mover_board(pos);
        let (n, r) = rank(&board);
        let me = pos.side_to_move();
        let mut counts = History::default();
        let comp = self.component(n, r);
        if self.cyclic(n, r) {
            let which = (n, comp, [pos.store(Side::South), pos.store(Side::North)]);
            if !self.keys.contains_key(&which) {
                if self.keys.len() >= KEY_INDEXES {
                    self.keys.clear();
                }
                let index = self.key_index(pos, n, comp);
                self.keys.insert(which, index);
            }
            let keys = &self.keys[&which];
            for k in history {
                if let Some(&(i, side)) = keys.places.get(k) {
                    counts.push((i, side != me));
                }
            }
        }
        let here = (index(&board) as u32, false);
        if counts.count(here) == 0 {
            counts.push(here);
        }
        if counts.count(here) >= 3 {
            return None; // the game is over
        }
        let a = analyse(&board, 0, true);
        let mut out = Vec::new();
        for h in (0..HOLES).filter(|&h| a.status[h] == HoleStatus::Legal) {
            let child = turned(&a.after[h]);
            let captured = a.sowing[h].captured as i32;
            let v = if captured > 0 || self.component(n, rank(&child).1) != comp {
                captured - self.fresh(&child)?
            } else {
                let next = (index(&child) as u32, true);
                if counts.count(next) == 2 {
                    -own_rows(&child)
                } else {
                    counts.push(next);
                    let v = self.search(&child, next, &mut counts, -(n as i32) - 1, n as i32 + 1);
                    counts.pop(next);
                    -v?
                }
            };
            out.push((Move::hole(h), v));
        }
        Some(out)
    }

    /// The positions of component `comp` of `n` stones with `pos`'s piles, by repetition key.
    fn key_index(&mut self, pos: &Modiar, n: usize, comp: u32) -> KeyIndex {
        let ids = &self.components[&n].id;
        let mut places = HashMap::new();
        for_each_board(n, |b| {
            if ids[rank(b).1] != comp {
                return;
            }
            for side in Side::BOTH {
                let holes = if side == Side::South { *b } else { turned(b) };
                let key = pos.with_holes(holes, side).repetition_key();
                places.insert(key, (index(b) as u32, side));
            }
        });
        KeyIndex { places }
    }

    /// Whether two boards (each from its mover's point of view) lie in one strongly connected
    /// component of the capture-free move graph (the history of one matters to the other).
    pub fn same_component(&mut self, a: &Board, b: &Board) -> bool {
        let ((n, r), (m, s)) = (rank(a), rank(b));
        n == m && self.component(n, r) == self.component(n, s)
    }

    /// The components of the boards of `n` stones (computed on first use: about a second for a
    /// stone count of 42).
    fn component(&mut self, n: usize, rank: usize) -> u32 {
        self.components
            .entry(n)
            .or_insert_with(|| quiet_graph(n, |_, _, _| {}).components(|_| true))
            .id[rank]
    }

    fn cyclic(&mut self, n: usize, rank: usize) -> bool {
        let c = self.component(n, rank);
        self.components[&n].cyclic[c as usize]
    }

    /// The value of `board` as the first position of a stretch (or of its component).
    fn fresh(&mut self, board: &Board) -> Option<i32> {
        let e = self.table.entry(board);
        if e.game_lower == e.game_upper {
            return Some(e.game_lower);
        }
        let i = index(board) as u32;
        if let Some(&v) = self.fresh.get(&i) {
            return Some(v as i32);
        }
        let (n, r) = rank(board);
        let v = if self.cyclic(n, r) {
            let mut history = History::default();
            history.push((i, false));
            self.search(
                board,
                (i, false),
                &mut history,
                e.game_lower - 1,
                e.game_upper + 1,
            )?
        } else {
            // No move comes back: every move leads to a fresh stretch or component.
            let a = analyse(board, 0, true);
            let mut best = i32::MIN;
            for h in (0..HOLES).filter(|&h| a.status[h] == HoleStatus::Legal) {
                let captured = a.sowing[h].captured as i32;
                best = best.max(captured - self.fresh(&turned(&a.after[h]))?);
            }
            if best == i32::MIN {
                own_rows(board)
            } else {
                best
            }
        };
        self.fresh.insert(i, v as i8);
        Some(v)
    }

    /// Negamax alpha-beta (fail-soft) from `board` at `place`, whose occurrence `history`
    /// already counts, over the moves of its component.
    fn search(
        &mut self,
        board: &Board,
        place: Place,
        history: &mut History,
        alpha: i32,
        beta: i32,
    ) -> Option<i32> {
        self.nodes += 1;
        if self.nodes > self.limit {
            return None;
        }
        if self.nodes.is_multiple_of(CLOCK_CHECK)
            && self.deadline.is_some_and(|d| Instant::now() >= d)
        {
            self.limit = self.nodes; // the rest of this call gives up at once
            return None;
        }
        let (n, r) = rank(board);
        let e = self.table.entry(board);
        let (mut lo, mut hi) = (-(n as i32), n as i32);
        // Only the current position may have been met twice for the game bounds to hold.
        let open = history.twos == (history.count(place) == 2) as u32;
        if open && self.use_bounds {
            (lo, hi) = (e.game_lower, e.game_upper);
        }
        let key = (place, history.hash);
        if let Some(&(l, h)) = self.tt.get(&key) {
            (lo, hi) = (lo.max(l as i32), hi.min(h as i32));
        }
        if lo == hi || lo >= beta {
            return Some(lo);
        }
        if hi <= alpha {
            return Some(hi);
        }
        // Values are whole numbers within [lo, hi]: the window can shrink to just outside them.
        let mut alpha = alpha.max(lo - 1);
        let beta = beta.min(hi + 1);
        let alpha0 = alpha;
        let a = analyse(board, 0, true);
        // Moves in the order the table rates them.
        let mut moves: Vec<(i32, usize)> = (0..HOLES)
            .filter(|&h| a.status[h] == HoleStatus::Legal)
            .map(|h| {
                let child = turned(&a.after[h]);
                (
                    a.sowing[h].captured as i32 - self.table.entry(&child).value,
                    h,
                )
            })
            .collect();
        if moves.is_empty() {
            return Some(own_rows(board));
        }
        moves.sort_by_key(|&(v, h)| (-v, h));
        let mut best = i32::MIN;
        for (_, h) in moves {
            let child = turned(&a.after[h]);
            let captured = a.sowing[h].captured as i32;
            let v = if captured > 0 {
                captured - self.fresh(&child)?
            } else {
                let (_, cr) = rank(&child);
                if self.component(n, cr) != self.component(n, r) {
                    -self.fresh(&child)?
                } else {
                    let next = (index(&child) as u32, !place.1);
                    if history.count(next) == 2 {
                        // Its third occurrence ends the game: each side keeps its own row.
                        -own_rows(&child)
                    } else {
                        history.push(next);
                        let v = self.search(&child, next, history, -beta, -alpha);
                        history.pop(next);
                        -v?
                    }
                }
            };
            best = best.max(v);
            alpha = alpha.max(v);
            if alpha >= beta {
                break;
            }
        }
        debug_assert!(
            best >= lo && best <= hi,
            "{board:?}: {best} outside [{lo}, {hi}]"
        );
        let bounds = if best <= alpha0 {
            (lo, best)
        } else if best >= beta {
            (best, hi)
        } else {
            (best, best)
        };
        if self.tt.len() >= TT_CAPACITY {
            self.tt.clear();
        }
        self.tt.insert(key, (bounds.0 as i8, bounds.1 as i8));
        Some(best)
    }
}

/// The process's solver for the engine: its memo of fresh values, components and
/// transpositions serve every move of the process.
static ENGINE: Mutex<Option<RealRule<'static>>> = Mutex::new(None);

/// The fewest stones on a board whose table value rests on the endless-play convention.
const CONVENTION_STONES: usize = 36;

/// Most nodes the engine's real-rule search takes for one move (about a second here), whatever
/// the clock allows.
pub const ENGINE_NODES: u64 = 200_000;

impl ModiarTable {
    /// Prepares the engine's real-rule solver: the components of every reachable stone count
    /// where the table's values rest on the convention (36 to 42, even), about 1.5 s of CPU and
    /// 30 MB. For `Probe::prepare_tables`, on its thread, never on a search's clock.
    pub fn prepare_real_rule(&'static self) {
        let mut slot = ENGINE.lock().unwrap_or_else(|e| e.into_inner());
        if slot.is_none() {
            *slot = Some(self.prepared_solver());
        }
    }

    /// A real-rule solver with the components of every reachable stone count where the table's
    /// values rest on the convention computed.
    fn prepared_solver(&'static self) -> RealRule<'static> {
        let mut solver = RealRule::new(self);
        for n in (CONVENTION_STONES..=MAX_STONES).step_by(2) {
            solver.component(n, 0);
        }
        solver
    }

    /// The engine's moves after the game's positions `history` (repetition keys, `pos`'s last):
    /// where the table's value rests on the endless-play convention (its game bounds differ),
    /// the moves of the best value under the real repetition rule given that history, by
    /// `solver`, in the order of [`ModiarTable::best_moves`] where it has them; everywhere else,
    /// and when the real-rule search runs out of its nodes or of the `deadline`,
    /// [`ModiarTable::best_moves`] itself.
    pub fn best_moves_after(
        &self,
        solver: &mut RealRule,
        pos: &Modiar,
        history: &[u64],
        deadline: Option<Instant>,
    ) -> MoveList {
        let table_moves = self.best_moves(pos);
        let (low, high) = self.game_bounds(pos);
        if low == high || pos.is_first_move() {
            return table_moves;
        }
        let Some(values) = solver.move_values_after(pos, history, ENGINE_NODES, deadline) else {
            return table_moves;
        };
        let best = values.iter().map(|&(_, v)| v).max();
        let keeps = |m: &Move| values.iter().any(|&(mv, v)| mv == *m && Some(v) == best);
        let mut out = MoveList::new();
        for m in table_moves.iter().filter(|m| keeps(m)) {
            out.push(*m);
        }
        for &(m, _) in &values {
            if keeps(&m) && !out.contains(m) {
                out.push(m);
            }
        }
        out
    }

    /// [`ModiarTable::best_moves_after`] with the process's solver, for the engine. Without a
    /// deadline (an untimed search, which may wait for the tables) it waits for the solver, and
    /// prepares it if nobody has yet; with one, the table's moves while the solver is being
    /// prepared ([`ModiarTable::prepare_real_rule`]) or busy.
    pub fn engine_moves_after(
        &'static self,
        pos: &Modiar,
        history: &[u64],
        deadline: Option<Instant>,
    ) -> MoveList {
        let (low, high) = self.game_bounds(pos);
        if low == high {
            return self.best_moves(pos);
        }
        let slot = match deadline {
            None => Some(ENGINE.lock().unwrap_or_else(|e| e.into_inner())),
            Some(_) => ENGINE.try_lock().ok(),
        };
        let Some(mut slot) = slot else {
            return self.best_moves(pos);
        };
        if slot.is_none() && deadline.is_none() {
            *slot = Some(self.prepared_solver());
        }
        match slot.as_mut() {
            Some(solver) => self.best_moves_after(solver, pos, history, deadline),
            None => self.best_moves(pos),
        }
    }
}
