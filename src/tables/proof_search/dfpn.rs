//! The proof search: depth-first proof-number search (df-pn, Nagai; with Pawlewicz and Lew's
//! 1+ε thresholds) over a [`ProofGame`]'s positions, with its decided positions as leaves.
//!
//! The question is one-sided: does the `attacker` win? At every node the side to move "wins"
//! in the search's sense when the attacker's question goes their way there: the attacker by
//! winning, the defender by not losing (a draw holds the attacker off). Each node keeps a proof
//! and a disproof number of that, from its mover's view: `phi` the least number of leaves
//! still to be shown to prove it, `delta` to disprove it.
//!
//! Repetition. A position met again on the current line counts as a draw, which is a win for
//! nobody but the defender, so no proof of the attacker's win ever rests on it. The defender's
//! results can: such a result holds on the line it was found on, not necessarily on another
//! (the graph-history interaction). So a settled result is stored in the transposition table
//! only when every repetition it leans on goes back to the position itself or below it; one
//! that leans on a position above is handed up to its parent, valid on this line, and found
//! again where the position is met on another. Every settled entry of the table then holds
//! whatever line leads to its position, which is what lets a proof that the defender holds the
//! draw be extracted from it ([`super::tree`]). The verifier re-checks every proof on its own,
//! so a search error can cost time but never a wrong result.

use crate::games::{Game, Move, Side, MAX_RING};

use super::ProofGame;
use crate::tables::Decided;

/// A proof or disproof number too large to matter (sums saturate here).
pub const INF: u32 = u32::MAX / 4;

/// The line depth a result leans on when it leans on no repetition.
const NO_LINE: u32 = u32::MAX;

/// A transposition-table entry: 16 bytes.
#[derive(Clone, Copy, Default)]
struct Entry {
    key: u64,
    phi: u32,
    delta: u32,
}

/// Counters of a search, for progress lines and the closing figures.
#[derive(Clone, Copy, Debug, Default)]
pub struct SearchStats {
    /// Expansions (calls of the search on a position).
    pub nodes: u64,
    /// Leaves the endgame tables decided.
    pub table_hits: u64,
    /// Leaves at the end of the game.
    pub ends: u64,
    /// The current line's length, and the longest so far.
    pub line: usize,
    /// The longest line so far.
    pub longest: usize,
    /// Entries written, and proofs or disproofs among them.
    pub stored: u64,
    /// Of the entries written, the proofs and disproofs.
    pub settled: u64,
}

/// A df-pn search for one attacker's win in one game.
pub struct Dfpn<'t, G: ProofGame> {
    game: G,
    attacker: Side,
    tt: Vec<Entry>,
    mask: usize,
    /// Hashes of the positions on the current line.
    line: Vec<u64>,
    /// The counters so far.
    pub stats: SearchStats,
    /// Expansions after which the search gives up (`u64::MAX`: never).
    budget: u64,
    /// Leaves met (counted while only reading).
    table_leaves: std::cell::Cell<u64>,
    end_leaves: std::cell::Cell<u64>,
    /// Called every 2^22 expansions with the counters.
    progress: Box<dyn FnMut(&SearchStats) + 't>,
}

impl<'t, G: ProofGame> Dfpn<'t, G> {
    /// A search for `attacker`'s win with a table of `2^log2_entries` entries (16 bytes each).
    pub fn new(
        game: G,
        attacker: Side,
        log2_entries: u32,
        progress: Box<dyn FnMut(&SearchStats) + 't>,
    ) -> Dfpn<'t, G> {
        let size = 1usize << log2_entries;
        Dfpn {
            game,
            attacker,
            tt: vec![Entry::default(); size],
            mask: size - 1,
            line: Vec::with_capacity(1024),
            stats: SearchStats::default(),
            budget: u64::MAX,
            table_leaves: Default::default(),
            end_leaves: Default::default(),
            progress,
        }
    }

    /// The game searched.
    pub fn game(&self) -> &G {
        &self.game
    }

    /// The side whose win is searched for.
    pub fn attacker(&self) -> Side {
        self.attacker
    }

    /// Stops any search after `expansions` more (a search on a clock).
    pub fn set_budget(&mut self, expansions: u64) {
        self.budget = self.stats.nodes.saturating_add(expansions);
    }

    /// [`Dfpn::solve`] within the budget: None when it ran out first.
    pub fn solve_within(&mut self, pos: &G::Pos) -> Option<bool> {
        let won = self.solve(pos);
        (self.stats.nodes <= self.budget).then_some(won)
    }

    /// [`Dfpn::solve_within`] with `line` (the positions' [`Game::hash`]es) played before
    /// `pos`: a position of it met again counts as a draw, as on the search's own line. What a
    /// proof extraction asks, whose line from the game's start is the game's history.
    pub fn solve_after(&mut self, line: &[u64], pos: &G::Pos) -> Option<bool> {
        let own = std::mem::replace(&mut self.line, line.to_vec());
        let won = self.solve_within(pos);
        self.line = own;
        won
    }

    /// Searches `pos` to the end: true if the attacker's win is proven there, false if it is
    /// disproven (the defender holds at least a draw, as far as the search can tell).
    pub fn solve(&mut self, pos: &G::Pos) -> bool {
        let (phi, delta, _) = self.mid(pos, INF, INF);
        self.stats.table_hits = self.table_leaves.get();
        self.stats.ends = self.end_leaves.get();
        debug_assert!(phi == 0 || delta == 0 || self.stats.nodes > self.budget);
        let mover_wins = phi == 0;
        let settled = phi == 0 || delta == 0;
        settled && mover_wins == (pos.side_to_move() == self.attacker)
    }

    /// The numbers of a position as the table knows them (a leaf's from the rules or tables,
    /// a position on the current line's as a draw, an unknown position's `(1, 1)`).
    fn numbers(&self, pos: &G::Pos) -> (u32, u32) {
        let (phi, delta, _) = self.numbers_on_line(pos);
        (phi, delta)
    }

    /// [`Dfpn::numbers`] with the depth of the line a repetition goes back to ([`NO_LINE`]
    /// unless the position is on the line).
    fn numbers_on_line(&self, pos: &G::Pos) -> (u32, u32, u32) {
        if let Some((phi, delta)) = self.leaf(pos) {
            return (phi, delta, NO_LINE);
        }
        let key = pos.hash();
        if let Some(at) = self.line.iter().position(|&k| k == key) {
            let (phi, delta) = self.draw(pos);
            return (phi, delta, at as u32);
        }
        let (phi, delta) = self.tt_numbers(pos, key);
        (phi, delta, NO_LINE)
    }

    /// The numbers the transposition table holds for `pos`, else its initial ones.
    fn tt_numbers(&self, pos: &G::Pos, key: u64) -> (u32, u32) {
        let slot = key as usize & self.mask & !1;
        for e in &self.tt[slot..slot + 2] {
            if e.key == key {
                return (e.phi, e.delta);
            }
        }
        self.game.initial_numbers(pos)
    }

    /// The numbers of a draw for the side to move: a win for the defender only.
    fn draw(&self, pos: &G::Pos) -> (u32, u32) {
        if pos.side_to_move() == self.attacker {
            (INF, 0)
        } else {
            (0, INF)
        }
    }

    /// A position the rules or the tables decide, as proof numbers.
    #[inline]
    fn leaf(&self, pos: &G::Pos) -> Option<(u32, u32)> {
        let (w, by_table) = self.game.decided(pos)?;
        let counter = if by_table {
            &self.table_leaves
        } else {
            &self.end_leaves
        };
        counter.set(counter.get() + 1);
        let mover_wins = if pos.side_to_move() == self.attacker {
            w == Decided::Win
        } else {
            w >= Decided::Draw
        };
        Some(if mover_wins { (0, INF) } else { (INF, 0) })
    }

    /// Whether the table holds a proof that the side to move at `pos` gets the attacker's
    /// question its way (`Some(true)`) or not (`Some(false)`).
    pub fn known(&self, pos: &G::Pos) -> Option<bool> {
        let (phi, delta) = self.numbers(pos);
        if phi == 0 {
            Some(true)
        } else if delta == 0 {
            Some(false)
        } else {
            None
        }
    }

    /// The child of `pos` the table rates best for its mover: a proven one if any.
    pub fn best_move(&self, pos: &G::Pos) -> Option<Move> {
        pos.legal_moves()
            .iter()
            .map(|&mv| {
                let mut c = *pos;
                c.play(mv);
                let (phi, delta) = self.numbers(&c);
                // The number that disproves the child for the opponent of `pos`'s mover.
                let against = if c.side_to_move() == pos.side_to_move() {
                    phi
                } else {
                    delta
                };
                (against, mv)
            })
            .min_by_key(|&(delta, mv)| (delta, mv.code()))
            .map(|(_, mv)| mv)
    }

    /// The multiple-iterative-deepening step: works on `pos` until its proof number reaches
    /// `th_phi` or its disproof number `th_delta`; returns its numbers and the least depth of
    /// the line a settled result leans on (a repetition of a position there), and stores them
    /// unless the result leans on a position above it (then it holds on this line only: the
    /// graph-history interaction).
    fn mid(&mut self, pos: &G::Pos, th_phi: u32, th_delta: u32) -> (u32, u32, u32) {
        self.stats.nodes += 1;
        self.stats.line = self.line.len();
        self.stats.longest = self.stats.longest.max(self.line.len());
        if self.stats.nodes & ((1 << 22) - 1) == 0 {
            self.stats.table_hits = self.table_leaves.get();
            self.stats.ends = self.end_leaves.get();
            (self.progress)(&self.stats);
        }
        if let Some((phi, delta)) = self.leaf(pos) {
            return (phi, delta, NO_LINE);
        }
        let key = pos.hash();
        let depth = self.line.len() as u32;
        let mut kids: [(G::Pos, u32, u32, u32); MAX_RING] = [(*pos, 0, 0, NO_LINE); MAX_RING];
        let mut n = 0;
        for &mv in pos.legal_moves().iter() {
            let mut c = *pos;
            c.play(mv);
            kids[n].0 = c;
            n += 1;
        }
        self.line.push(key);
        // Each child's numbers as the opponent of this node's mover sees them: a child where
        // the mover moves again (an extra move) has them the other way round.
        let me = pos.side_to_move();
        for k in kids[..n].iter_mut() {
            let (p, d, r) = self.numbers_on_line(&k.0);
            (k.1, k.2, k.3) = if k.0.side_to_move() == me {
                (d, p, r)
            } else {
                (p, d, r)
            };
        }
        let (mut phi, mut delta);
        loop {
            // phi: the cheapest child to disprove; delta: all children to prove.
            let (mut best, mut d1, mut d2) = (0, INF, INF);
            let mut sum = 0u32;
            for (i, k) in kids[..n].iter().enumerate() {
                sum = (sum + k.1).min(INF);
                if k.2 < d1 {
                    d2 = d1;
                    d1 = k.2;
                    best = i;
                } else if k.2 < d2 {
                    d2 = k.2;
                }
            }
            phi = d1;
            delta = sum;
            if phi >= th_phi || delta >= th_delta || self.stats.nodes > self.budget {
                break;
            }
            let child_phi = th_delta.saturating_sub(delta - kids[best].1).min(INF);
            // 1+ε: let the best child run until its disproof number passes the second best's
            // by a quarter, not by one, so the search switches less often.
            let child_delta = th_phi.min(d2.saturating_add(1).max(d2.saturating_add(d2 / 4)));
            let c = kids[best].0;
            let child_delta = child_delta.min(INF);
            (kids[best].1, kids[best].2, kids[best].3) = if c.side_to_move() == me {
                let (p, d, r) = self.mid(&c, child_delta, child_phi);
                (d, p, r)
            } else {
                self.mid(&c, child_phi, child_delta)
            };
        }
        self.line.pop();
        // What the result leans on: a win on one disproven child (the one leaning on least),
        // a loss on every child.
        let kids = &kids[..n];
        let leans = if phi == 0 {
            kids.iter().filter(|k| k.2 == 0).map(|k| k.3).max()
        } else if delta == 0 {
            kids.iter().map(|k| k.3).min()
        } else {
            None
        }
        .unwrap_or(NO_LINE);
        if leans < depth {
            return (phi, delta, leans);
        }
        // Two entries a bucket: the position's own, else the one cheaper to find again (an
        // unsettled one, the smaller numbers first); a proof or disproof replaces either.
        let slot = key as usize & self.mask & !1;
        let settled = |e: &Entry| e.phi == 0 || e.delta == 0;
        let cost = |e: &Entry| {
            if e.key == key || (e.key == 0 && e.phi == 0 && e.delta == 0) {
                0
            } else if settled(e) {
                u64::MAX
            } else {
                1 + e.phi as u64 + e.delta as u64
            }
        };
        let new = Entry { key, phi, delta };
        let victim = if cost(&self.tt[slot]) <= cost(&self.tt[slot + 1]) {
            slot
        } else {
            slot + 1
        };
        if cost(&self.tt[victim]) != u64::MAX || settled(&new) {
            self.tt[victim] = new;
            self.stats.stored += 1;
            self.stats.settled += settled(&new) as u64;
        }
        (phi, delta, leans)
    }
}
