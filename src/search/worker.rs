//! The alpha-beta search of one thread: iterative deepening, principal variation search, a
//! transposition table shared with the other threads, move ordering, and a quiescence search
//! over captures.
//!
//! Generic over the game and monomorphised, so move generation, play and evaluation inline into
//! the search loop. Positions are copied, not unmade: every game's state is a few dozen bytes.
//!
//! Sign logic: scores are from the side to move's view (negamax). A move after which the *same*
//! side moves again (Giuthi's extra move) keeps the child's score and window as they are; any
//! other move, a pass included, negates them. Every ply counts, extra moves and passes too, so
//! mate distances are plies to the end of the game.

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use super::features::Features;
use super::repetition::Repetitions;
use super::time::{lag_margin, MAX_LAG};
use super::tt::{Bound, TranspositionTable, TtEntry};
use crate::eval::{Evaluate, Weights};
use crate::games::{mix64, Final, Move, MoveList, Outcome, Side, MAX_RING};
use crate::tables::Probe;

/// The score of winning now; winning in `n` plies scores `MATE - n`.
pub const MATE: i32 = 30_000;
/// Deepest ply a search path may reach (quiescence included).
pub const MAX_PLY: usize = 128;
/// Scores beyond this are proven wins (below its negation, proven losses).
pub const MATE_BOUND: i32 = MATE - MAX_PLY as i32;
const INFINITY: i32 = MATE + 1;
/// The score of a win proven by endgame tables (whose distance is unknown); `TABLE_WIN - ply`.
pub const TABLE_WIN: i32 = 20_000;
/// The first iteration ignores stop, time and node limits (so the move played was searched) only
/// up to this many nodes: on large Giuthi boards its quiescence alone can take 250,000 nodes
/// (0.3 s, seconds on a loaded machine), which broke `stop`'s promptness and `movetime`.
const FIRST_ITERATION_NODES: u64 = 20_000;

/// What all threads of one search share (one value per `go`; the UGI job thread's flags are
/// `ugi::worker::JobFlags`).
pub struct SearchShared<'a> {
    /// The transposition table, shared by every thread.
    pub tt: &'a TranspositionTable,
    /// Set by the caller (`stop`).
    pub external_stop: &'a AtomicBool,
    /// Set when the main thread has finished, to end the helpers.
    pub internal_stop: &'a AtomicBool,
    /// When `go` started the search.
    pub started: Instant,
    /// Stop wherever the search is at this time.
    pub deadline: Option<Instant>,
    /// The margin for delays ([`super::time::LagMeter`]) already kept back from `deadline`.
    pub lag_kept: Duration,
    /// The longest the main thread went between two looks at the clock in this search, in µs
    /// (pauses longer than [`MAX_LAG`] left out): a search held back by the machine pulls its
    /// own deadline in by the margin that delay asks for, from the first move on.
    pub main_lag_us: AtomicU64,
    /// Stop once the threads together have searched this many nodes.
    pub max_nodes: Option<u64>,
    /// Each thread's node count, published every few hundred nodes.
    pub node_counts: &'a [AtomicU64],
    /// The search techniques in use.
    pub features: Features,
    /// The evaluation weights.
    pub weights: Weights,
    /// Evaluation noise amplitude (strength levels) and its seed.
    pub noise: i32,
    /// Seeds the evaluation noise.
    pub seed: u64,
}

impl SearchShared<'_> {
    /// The longest delay the main thread has seen in this search.
    pub fn main_lag(&self) -> Duration {
        Duration::from_micros(self.main_lag_us.load(Ordering::Relaxed))
    }

    /// The margin this search's own delays ask for beyond the one already kept.
    pub fn lag_extra(&self) -> Duration {
        lag_margin(self.main_lag()).saturating_sub(self.lag_kept)
    }

    /// Nodes searched by every thread together, as last published.
    pub fn total_nodes(&self) -> u64 {
        self.node_counts
            .iter()
            .map(|n| n.load(Ordering::Relaxed))
            .sum()
    }
}

/// The result of the last completed (or usefully interrupted) iteration.
#[derive(Clone, Debug, Default)]
pub struct Completed {
    /// Plies of the iteration.
    pub depth: u32,
    /// Internal score (mate scores are `MATE - plies`) from the side to move's view.
    pub score: i32,
    /// The principal variation, the best move first.
    pub pv: Vec<Move>,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
}

/// One Lazy SMP thread's search state, made for one search.
pub struct SearchThread<'a, G: Evaluate + Probe> {
    shared: &'a SearchShared<'a>,
    id: usize,
    /// Nodes this thread has searched.
    pub nodes: u64,
    stopped: bool,
    /// When this thread last looked at the clock.
    last_poll: Instant,
    /// While set (the first iteration), stop requests wait (see [`FIRST_ITERATION_NODES`]).
    uninterruptible: bool,
    seldepth: usize,
    repetitions: Repetitions,
    repetition_limit: usize,
    /// Probe endgame tables (off when the root itself is in them: the search must then find
    /// the actual way to win, which a bare "won" from the tables does not show).
    probe_tables: bool,
    /// Plies of quiescence search at most, for this game.
    quiescence_plies: usize,
    killers: Box<[[Option<Move>; 2]; MAX_PLY + 1]>,
    /// Indexed by side and move code.
    history: Box<[[i32; 256]; 2]>,
    pv_len: Box<[usize; MAX_PLY + 1]>,
    pv: Box<[[Move; MAX_PLY + 1]; MAX_PLY + 1]>,
    /// Best root move of the iteration in progress, set only by fully searched root moves.
    root_best: Option<(Move, i32, Vec<Move>)>,
    _game: std::marker::PhantomData<G>,
}

const HISTORY_MAX: i32 = 1 << 14;
/// Centi-stones a capture may change the evaluation beyond the stones it wins (delta pruning).
const DELTA_MARGIN: i32 = 200;

impl<'a, G: Evaluate + Probe> SearchThread<'a, G> {
    /// A thread's state for one search from `root`: `history` holds the game's repetition keys,
    /// the root's last; `id` 0 is the main thread.
    pub fn new(shared: &'a SearchShared<'a>, id: usize, root: &G, history: &[u64]) -> Self {
        SearchThread {
            shared,
            id,
            nodes: 0,
            stopped: false,
            last_poll: Instant::now(),
            uninterruptible: false,
            seldepth: 0,
            repetitions: Repetitions::new(history),
            repetition_limit: root.repetition_limit(),
            probe_tables: shared.features.tables && root.probe_tables().is_none(),
            quiescence_plies: shared
                .features
                .quiescence_plies
                .unwrap_or_else(|| root.quiescence_plies()),
            killers: Box::new([[None; 2]; MAX_PLY + 1]),
            history: Box::new([[0; 256]; 2]),
            pv_len: Box::new([0; MAX_PLY + 1]),
            pv: Box::new([[Move::PASS; MAX_PLY + 1]; MAX_PLY + 1]),
            root_best: None,
            _game: std::marker::PhantomData,
        }
    }

    /// Iterative deepening up to `max_depth`; `on_iteration` sees each completed iteration (the
    /// main thread reports them). Returns the last result worth playing.
    pub fn iterate(
        &mut self,
        root: &G,
        max_depth: u32,
        mut on_iteration: impl FnMut(&Completed, u64) -> bool,
    ) -> Completed {
        let mut done = Completed::default();
        // Helpers start one ply deeper on odd ids so the threads spread over two depths.
        let first = 1 + (self.id % 2) as u32;
        let mut depth = first.min(max_depth.max(1));
        while depth <= max_depth.max(1) {
            self.uninterruptible = depth == first && self.id == 0;
            self.seldepth = 0;
            self.root_best = None;
            let score = self.search(root, depth as i32, 0, -INFINITY, INFINITY, true);
            self.uninterruptible = false;
            if self.stopped {
                // A root move searched to the end in the cut iteration is still a better choice
                // (or the only one, when the first iteration was cut).
                if let Some((mv, score, pv)) = self.root_best.take() {
                    if done.pv.first() != Some(&mv) {
                        done.score = score;
                        done.pv = pv;
                        done.depth = done.depth.max(1);
                    }
                }
                break;
            }
            done = Completed {
                depth,
                score,
                pv: self.pv[0][..self.pv_len[0]].to_vec(),
                seldepth: self.seldepth as u32,
            };
            self.publish();
            if !on_iteration(&done, self.nodes) {
                break;
            }
            depth += 1;
        }
        self.publish();
        done
    }

    #[inline]
    fn publish(&self) {
        self.shared.node_counts[self.id].store(self.nodes, Ordering::Relaxed);
    }

    /// Counts a node and says whether the search must unwind now.
    #[inline]
    fn node(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes & 255 == 0 {
            self.poll();
        }
        if self.shared.node_counts.len() == 1 {
            if let Some(max) = self.shared.max_nodes {
                if self.nodes >= max && !self.must_finish() {
                    self.stopped = true;
                }
            }
        }
        self.stopped
    }

    /// Whether limits wait: the first iteration, within its node allowance.
    #[inline]
    fn must_finish(&self) -> bool {
        self.uninterruptible && self.nodes < FIRST_ITERATION_NODES
    }

    #[cold]
    fn poll(&mut self) {
        self.publish();
        let s = self.shared;
        let now = Instant::now();
        if self.id == 0 {
            let gap = now.saturating_duration_since(self.last_poll);
            if gap <= MAX_LAG {
                let us = u64::try_from(gap.as_micros()).unwrap_or(u64::MAX);
                s.main_lag_us.fetch_max(us, Ordering::Relaxed);
            }
        }
        self.last_poll = now;
        if self.must_finish() {
            return;
        }
        if s.external_stop.load(Ordering::Relaxed) || s.internal_stop.load(Ordering::Relaxed) {
            self.stopped = true;
        }
        if let Some(deadline) = s.deadline {
            if now + s.lag_extra() >= deadline {
                self.stopped = true;
            }
        }
        if s.node_counts.len() > 1 {
            if let Some(max) = s.max_nodes {
                if s.total_nodes() >= max {
                    self.stopped = true;
                }
            }
        }
    }

    /// Whether this thread has stopped (a limit was reached or `stop` was sent).
    pub fn stopped(&self) -> bool {
        self.stopped
    }

    #[inline]
    fn evaluate(&self, pos: &G) -> i32 {
        let mut score = if self.shared.features.positional_eval {
            pos.evaluate_with(&self.shared.weights)
        } else {
            crate::eval::store_difference(pos)
        };
        if self.shared.noise > 0 {
            let h = mix64(pos.hash() ^ self.shared.seed);
            let span = 2 * self.shared.noise as u64 + 1;
            score += (h % span) as i32 - self.shared.noise;
        }
        score.clamp(-MATE_BOUND + 1, MATE_BOUND - 1)
    }

    /// The value of a position whose game is over, from the side to move's view.
    #[inline]
    fn final_score(fin: &Final, me: Side, ply: usize) -> i32 {
        match fin.outcome {
            Outcome::Draw => 0,
            Outcome::Win(side) if side == me => MATE - ply as i32,
            Outcome::Win(_) => -(MATE - ply as i32),
        }
    }

    /// The end of the game at this node, by the position or by repetition (counted over the game
    /// and the path above, exactly as the referee counts), or by endgame tables: `Err(score)`.
    /// Otherwise `Ok` with the position's repetition key, for the path.
    #[inline]
    fn terminal(&self, pos: &G, ply: usize) -> Result<u64, i32> {
        let me = pos.side_to_move();
        if let Some(fin) = pos.final_result() {
            return Err(Self::final_score(&fin, me, ply));
        }
        let key = pos.repetition_key();
        if self.repetitions.count(key) + 1 >= self.repetition_limit {
            return Err(Self::final_score(&pos.repetition_final(), me, ply));
        }
        if self.probe_tables {
            if let Some(decided) = pos.probe_tables().and_then(|b| b.decided()) {
                return Err(decided.sign() * (TABLE_WIN - ply as i32));
            }
        }
        Ok(key)
    }

    /// Searches a child within `(alpha, beta)` of the parent: the same window if the mover
    /// keeps the turn, negated otherwise.
    #[inline]
    fn child(
        &mut self,
        child: &G,
        keeps_turn: bool,
        depth: i32,
        ply: usize,
        (alpha, beta): (i32, i32),
        pv_node: bool,
    ) -> i32 {
        if keeps_turn {
            self.search(child, depth, ply + 1, alpha, beta, pv_node)
        } else {
            -self.search(child, depth, ply + 1, -beta, -alpha, pv_node)
        }
    }

    #[inline]
    fn child_quiescence(
        &mut self,
        child: &G,
        keeps_turn: bool,
        ply: usize,
        alpha: i32,
        beta: i32,
        qply: usize,
    ) -> i32 {
        if keeps_turn {
            self.quiescence(child, ply + 1, alpha, beta, qply + 1, 0)
        } else {
            -self.quiescence(child, ply + 1, -beta, -alpha, qply + 1, 0)
        }
    }

    /// Negamax alpha-beta with principal variation search. Returns a score from the side to
    /// move's view; meaningless once `stopped` is set.
    fn search(
        &mut self,
        pos: &G,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        pv_node: bool,
    ) -> i32 {
        self.pv_len[ply] = ply;
        let root = ply == 0;
        // The root's key is the game's last; it is never pushed on the path.
        let repetition_key = if root {
            0
        } else {
            match self.terminal(pos, ply) {
                Ok(key) => key,
                Err(score) => {
                    self.nodes += 1;
                    return score;
                }
            }
        };
        if depth <= 0 {
            return self.quiescence(pos, ply, alpha, beta, 0, repetition_key);
        }
        if self.node() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        if ply >= MAX_PLY {
            return self.evaluate(pos);
        }
        let features = self.shared.features;
        let key = pos.hash();
        let mut tt_move = None;
        if features.tt {
            if let Some(e) = self.shared.tt.probe(key) {
                tt_move = e.best;
                let score = score_from_tt(e.score, ply);
                if !pv_node
                    && e.depth >= depth
                    && match e.bound {
                        Bound::Exact => true,
                        Bound::Lower => score >= beta,
                        Bound::Upper => score <= alpha,
                    }
                {
                    return score;
                }
            }
        }

        let me = pos.side_to_move();
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        if moves.is_empty() {
            // Only a game over by its rules has no moves, and that was caught above.
            return self.evaluate(pos);
        }
        // The hash move is searched first, alone: it often cuts off at once, before the other
        // moves are even played. Then every other move is played up front: the children tell
        // what each move captures, which orders them, and are searched without being played
        // again. `slots` holds the playing order as indices into these arrays.
        let mut children: [Option<G>; MAX_RING] = [const { None }; MAX_RING];
        let mut order = [0i32; MAX_RING];
        let mut gains = [0i32; MAX_RING];
        let mut slots = [0u8; MAX_RING];
        let mut ready = 0;
        let mut all_played = false;
        let tt_index = tt_move.and_then(|m| moves.iter().position(|&x| x == m));
        if let Some(t) = tt_index {
            let mut child = pos.clone();
            child.play(moves[t]);
            gains[t] = material_gain(pos, &child, me);
            children[t] = Some(child);
            slots[0] = t as u8;
            ready = 1;
        }

        if !root {
            self.repetitions.push(repetition_key);
        }
        let mut best_score = -INFINITY;
        let mut best_move = None;
        let mut quiets_tried = [Move::PASS; MAX_RING];
        let mut n_quiets = 0;
        let original_alpha = alpha;
        // Children at depth 0 go to quiescence, which does not read the table.
        let prefetch = features.tt && depth > 1;
        for searched in 0..moves.len() {
            if searched == ready && !all_played {
                for (i, &mv) in moves.iter().enumerate() {
                    if Some(i) == tt_index {
                        continue;
                    }
                    let mut child = pos.clone();
                    child.play(mv);
                    if prefetch {
                        // The child's table entry arrives while its siblings are played.
                        self.shared.tt.prefetch(child.hash());
                    }
                    let gain = material_gain(pos, &child, me);
                    let keeps_turn = child.side_to_move() == me;
                    gains[i] = gain;
                    order[i] = if features.captures_first && (gain > 0 || keeps_turn) {
                        (1 << 24) + gain * 64 + keeps_turn as i32
                    } else if features.killers && self.killers[ply][0] == Some(mv) {
                        (1 << 22) + 1
                    } else if features.killers && self.killers[ply][1] == Some(mv) {
                        1 << 22
                    } else if features.history {
                        self.history[me.index()][mv.code() as usize]
                    } else {
                        0
                    };
                    children[i] = Some(child);
                    slots[ready] = i as u8;
                    ready += 1;
                }
                all_played = true;
            }
            // Selection sort: most moves are never reached after a cut-off.
            let mut pick = searched;
            for j in searched + 1..ready {
                if order[slots[j] as usize] > order[slots[pick] as usize] {
                    pick = j;
                }
            }
            slots.swap(searched, pick);
            let index = slots[searched] as usize;
            let mv = moves[index];
            let child = children[index].take().expect("each child is searched once");
            let keeps_turn = child.side_to_move() == me;
            let quiet = gains[index] <= 0 && !keeps_turn;

            let score = if searched == 0 || !features.pvs {
                self.child(&child, keeps_turn, depth - 1, ply, (alpha, beta), pv_node)
            } else {
                let is_killer = self.killers[ply].contains(&Some(mv));
                let reduction =
                    if features.lmr && depth >= 3 && searched >= 3 && quiet && !is_killer {
                        1 + (depth >= 6 && searched >= 6) as i32
                    } else {
                        0
                    };
                let mut s = self.child(
                    &child,
                    keeps_turn,
                    depth - 1 - reduction,
                    ply,
                    (alpha, alpha + 1),
                    false,
                );
                if s > alpha && reduction > 0 && !self.stopped {
                    s = self.child(
                        &child,
                        keeps_turn,
                        depth - 1,
                        ply,
                        (alpha, alpha + 1),
                        false,
                    );
                }
                if s > alpha && s < beta && pv_node && !self.stopped {
                    s = self.child(&child, keeps_turn, depth - 1, ply, (alpha, beta), true);
                }
                s
            };
            if self.stopped {
                if !root {
                    self.repetitions.pop();
                }
                return 0;
            }
            if score > best_score {
                best_score = score;
                if score > alpha {
                    best_move = Some(mv);
                    alpha = score;
                    self.update_pv(ply, mv);
                    if root {
                        let pv = self.pv[0][..self.pv_len[0]].to_vec();
                        self.root_best = Some((mv, score, pv));
                    }
                    if score >= beta {
                        if quiet {
                            self.reward(me, ply, mv, depth, &quiets_tried[..n_quiets]);
                        }
                        break;
                    }
                }
            }
            if quiet {
                quiets_tried[n_quiets] = mv;
                n_quiets += 1;
            }
        }
        if !root {
            self.repetitions.pop();
        }

        if features.tt {
            let bound = if best_score >= beta {
                Bound::Lower
            } else if best_score > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.shared.tt.store(
                key,
                TtEntry {
                    best: best_move.or(tt_move),
                    depth,
                    bound,
                    score: score_to_tt(best_score, ply),
                },
            );
        }
        best_score
    }

    fn update_pv(&mut self, ply: usize, mv: Move) {
        self.pv[ply][ply] = mv;
        let child_len = self.pv_len[ply + 1].max(ply + 1);
        for i in ply + 1..child_len {
            self.pv[ply][i] = self.pv[ply + 1][i];
        }
        self.pv_len[ply] = child_len;
    }

    /// A quiet move caused a cut-off: remember it as a killer and raise its history, lowering
    /// the quiet moves tried before it.
    fn reward(&mut self, me: Side, ply: usize, mv: Move, depth: i32, tried: &[Move]) {
        if self.killers[ply][0] != Some(mv) {
            self.killers[ply][1] = self.killers[ply][0];
            self.killers[ply][0] = Some(mv);
        }
        let bonus = (depth * depth).min(400);
        let table = &mut self.history[me.index()];
        let mut update = |code: usize, delta: i32| {
            let h = &mut table[code];
            *h += delta - *h * delta.abs() / HISTORY_MAX;
        };
        update(mv.code() as usize, bonus);
        for &other in tried {
            update(other.code() as usize, -bonus);
        }
    }

    /// Captures (and moves that keep the turn) until the position is quiet. The side to move may
    /// always "stand pat" on the static evaluation.
    /// `key`: the position's repetition key when the caller already checked its end (the first
    /// quiescence ply).
    fn quiescence(
        &mut self,
        pos: &G,
        ply: usize,
        mut alpha: i32,
        beta: i32,
        qply: usize,
        key: u64,
    ) -> i32 {
        self.pv_len[ply] = ply;
        let key = if qply > 0 {
            match self.terminal(pos, ply) {
                Ok(key) => key,
                Err(score) => {
                    self.nodes += 1;
                    return score;
                }
            }
        } else {
            key
        };
        if self.node() {
            return 0;
        }
        self.seldepth = self.seldepth.max(ply);
        let stand_pat = self.evaluate(pos);
        if stand_pat >= beta
            || ply >= MAX_PLY
            || qply >= self.quiescence_plies
            || !self.shared.features.quiescence
        {
            return stand_pat;
        }
        alpha = alpha.max(stand_pat);
        let me = pos.side_to_move();
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        let mut children: [Option<G>; MAX_RING] = [const { None }; MAX_RING];
        let mut order = [0i32; MAX_RING];
        let mut forcing = MoveList::new();
        for &mv in moves.iter() {
            let mut child = pos.clone();
            child.play(mv);
            let gain = material_gain(pos, &child, me);
            let keeps_turn = child.side_to_move() == me;
            // Delta pruning: a capture that cannot lift the score to alpha even with a margin
            // for the positional change is not worth a node.
            let hopeless = !keeps_turn && stand_pat + 100 * gain + DELTA_MARGIN <= alpha;
            if (gain > 0 || keeps_turn) && !hopeless {
                order[forcing.len()] = gain * 2 + keeps_turn as i32;
                children[forcing.len()] = Some(child);
                forcing.push(mv);
            }
        }
        let count = forcing.len();
        let mut moves = forcing;
        if count > 0 {
            self.repetitions.push(key);
        }
        let mut best = stand_pat;
        for searched in 0..count {
            let mut pick = searched;
            for j in searched + 1..count {
                if order[j] > order[pick] {
                    pick = j;
                }
            }
            order.swap(searched, pick);
            children.swap(searched, pick);
            moves.as_mut_slice().swap(searched, pick);
            let child = children[searched]
                .take()
                .expect("each child is searched once");
            let keeps_turn = child.side_to_move() == me;
            let score = self.child_quiescence(&child, keeps_turn, ply, alpha, beta, qply);
            if self.stopped {
                self.repetitions.pop();
                return 0;
            }
            if score > best {
                best = score;
                if score > alpha {
                    alpha = score;
                    self.update_pv(ply, moves[searched]);
                    if score >= beta {
                        break;
                    }
                }
            }
        }
        if count > 0 {
            self.repetitions.pop();
        }
        best
    }
}

/// Stones a move won for the mover, net of any it fed into the opponent's store (a tuzdik).
#[inline]
fn material_gain<G: Evaluate>(before: &G, after: &G, me: Side) -> i32 {
    let mine = after.store(me) as i32 - before.store(me) as i32;
    let theirs = after.store(me.other()) as i32 - before.store(me.other()) as i32;
    mine - theirs
}

/// Mate scores are stored as distances from the node, not from the root, so that an entry is
/// right wherever in the tree the position is met again.
#[inline]
fn score_to_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score + ply as i32
    } else if score < -MATE_BOUND {
        score - ply as i32
    } else {
        score
    }
}

#[inline]
fn score_from_tt(score: i32, ply: usize) -> i32 {
    if score > MATE_BOUND {
        score - ply as i32
    } else if score < -MATE_BOUND {
        score + ply as i32
    } else {
        score
    }
}
