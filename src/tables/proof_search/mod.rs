//! Weak solutions by proof search: a df-pn search ([`dfpn`]) that proves one side's win from a
//! position over leaves some other means decide (the end of the game, endgame tables), and the
//! proof tree it yields, which anyone can re-check with the rules alone ([`tree`]).
//!
//! The search and the proof know nothing of a game but what [`ProofGame`] tells them, so
//! Bestemshe (`super::bestemshe`) and Giuthi's small boards (`super::giuthi`) share them: one
//! search, one proof format, one verifier.
//!
//! What a proof can lean on: a position met again on the line being searched counts as a draw,
//! a win for nobody but the defender, so no proof of a win ever rests on a repetition, whatever
//! the game's repetition rule (Giuthi draws at the second occurrence, Toguz Kumalak at the third,
//! Bestemshe's source has none). The verifier refuses a proof whose line comes back to itself.

pub mod dfpn;
pub mod tree;

use std::time::Instant;

use crate::games::{Game, Side};

use self::dfpn::{Dfpn, SearchStats};
use self::tree::{ExtractError, ProofTree};
use crate::tables::Decided;

/// A game as the proof search asks it: its positions, and the ones decided without search.
pub trait ProofGame: Sync {
    /// A position: the game's own type, copied to make a move.
    type Pos: Game + Copy;

    /// The result of a position decided without a search, for the side to move, and whether
    /// the tables decided it (else the game is over).
    /// A table result must be what the side to move can force in finite time, without a
    /// repetition: a proof takes it as proven.
    fn decided(&self, pos: &Self::Pos) -> Option<(Decided, bool)>;

    /// The proof and disproof numbers a position not searched yet starts with, for its mover
    /// (df-pn+: a side well ahead is cheap to prove and dear to disprove).
    fn initial_numbers(&self, _pos: &Self::Pos) -> (u32, u32) {
        (1, 1)
    }

    /// A key that tells positions apart exactly (hashes collide; a proof must not).
    fn exact_key(&self, pos: &Self::Pos) -> u128;
}

/// A position packed exactly into a key: every hole of both rows in `hole_bits` bits, South's
/// then North's store in 8 bits each, the side to move in one: for boards whose holes and
/// stores fit those widths.
pub fn packed_key<P: Game>(pos: &P, hole_bits: u32) -> u128 {
    debug_assert!(2 * pos.holes() as u32 * hole_bits + 17 <= 128);
    let mut k = 0u128;
    for side in Side::BOTH {
        for &x in pos.row(side) {
            k = k << hole_bits | x as u128;
        }
    }
    k = k << 8 | pos.store(Side::South) as u128;
    k = k << 8 | pos.store(Side::North) as u128;
    k << 1 | (pos.side_to_move() == Side::North) as u128
}

/// What a search for an attacker's win did.
#[derive(Clone, Copy, Debug)]
pub struct SearchFigures {
    /// The attacker (the winner when `proven`).
    pub winner: Side,
    /// The win was proven (else disproven).
    pub proven: bool,
    /// Expansions.
    pub nodes: u64,
    /// Leaves the endgame tables decided.
    pub table_hits: u64,
    /// Leaves at the end of the game.
    pub ends: u64,
    /// The search's and the extraction's time (and an earlier attacker's, after
    /// [`search_and_extract`]'s disproof).
    pub time: std::time::Duration,
    /// The first attacker's win was disproven first.
    pub disproved_first: bool,
}

/// Searches `root` for `attacker`'s win with a transposition table of `2^log2` entries, with
/// progress on stderr, on a thread with room for long lines; extracts the win's proof tree, or,
/// when the win is disproven and `hold` is set, the defender's proof that they hold the draw.
/// That extraction searches again where a result leaned on its line, which can cost far more
/// than the disproof did: it stops after [`HOLD_BUDGET_FACTOR`] times the disproof's expansions
/// (and a million more), and the tree is then None.
pub fn search_attacker<G: ProofGame + Copy + Send>(
    game: G,
    root: &G::Pos,
    attacker: Side,
    log2: u32,
    hold: bool,
) -> Result<(Option<ProofTree>, SearchFigures), ExtractError> {
    on_deep_stack("the search", || {
        let started = Instant::now();
        let progress = Box::new(move |st: &SearchStats| {
            eprintln!(
                "search ({attacker} to win): {} expansions, {} table leaves, {} ends, \
                 line {} (longest {}), {} stored ({} settled), {:.0} s",
                st.nodes,
                st.table_hits,
                st.ends,
                st.line,
                st.longest,
                st.stored,
                st.settled,
                started.elapsed().as_secs_f64()
            )
        });
        let mut search = Dfpn::new(game, attacker, log2, progress);
        let won = search.solve(root);
        let stats = search.stats;
        eprintln!(
            "search: {attacker}'s win {} in {} expansions",
            if won { "proven" } else { "disproven" },
            stats.nodes
        );
        let tree = match (won, hold) {
            (true, _) => Some(tree::extract(&mut search, root, tree::Goal::Win)?),
            (false, true) => {
                let budget = HOLD_BUDGET_FACTOR * stats.nodes + 1_000_000;
                search.set_budget(budget);
                let tree = tree::extract(&mut search, root, tree::Goal::Hold).ok();
                if tree.is_none() {
                    eprintln!(
                        "search: {}'s proof that it holds the draw not found within {budget} \
                         more expansions",
                        attacker.other()
                    );
                }
                tree
            }
            (false, false) => None,
        };
        let figures = SearchFigures {
            winner: attacker,
            proven: won,
            nodes: stats.nodes,
            table_hits: stats.table_hits,
            ends: stats.ends,
            time: started.elapsed(),
            disproved_first: false,
        };
        Ok((tree, figures))
    })
}

/// How many times the disproof's expansions a proof that the defender holds the draw may take
/// to extract ([`search_attacker`]).
pub const HOLD_BUDGET_FACTOR: u64 = 10;

/// Proves the result of `root`: a df-pn search for `attackers[0]`'s win, then for
/// `attackers[1]`'s ([`search_attacker`]). A win proven is the one tree returned; each win
/// disproven gives the defender's proof that they hold the draw, so two such trees prove a
/// draw (a proof not extracted within its budget is missing, and the draw is then not
/// proven). The figures of each search, in order.
pub fn prove_result<G: ProofGame + Copy + Send>(
    game: G,
    root: &G::Pos,
    attackers: [Side; 2],
    log2: u32,
) -> Result<(Vec<ProofTree>, Vec<SearchFigures>), ExtractError> {
    let mut trees = Vec::new();
    let mut figures: Vec<SearchFigures> = Vec::new();
    for attacker in attackers {
        let (tree, f) = search_attacker(game, root, attacker, log2, true)?;
        figures.push(SearchFigures {
            disproved_first: figures.first().is_some_and(|f| !f.proven),
            ..f
        });
        match tree {
            Some(tree) if f.proven => return Ok((vec![tree], figures)),
            Some(tree) => trees.push(tree),
            None => {}
        }
    }
    Ok((trees, figures))
}

/// What [`prove_result`]'s trees show when they prove no result (both wins disproven, a proof
/// that a side holds the draw missing): the proofs found, each checked here, and what is
/// missing, as an error's text.
pub fn partial_result<G: ProofGame>(game: &G, root: &G::Pos, trees: &[ProofTree]) -> String {
    let mut text = "neither side's win is proven, nor the draw: ".to_string();
    for t in trees {
        match on_deep_stack("the verification", || {
            tree::verify(game, t, root, &mut |_| {}, None)
        }) {
            Ok(st) => {
                text += &format!(
                    "{} {} (proof checked: {} prover moves); ",
                    t.winner,
                    t.goal.words(),
                    st.winner_nodes
                )
            }
            Err(e) => {
                text += &format!(
                    "{} {}: the proof does not check ({e}); ",
                    t.winner,
                    t.goal.words()
                )
            }
        }
    }
    text + "the other side's proof that it holds the draw was not found within its budget"
}

/// Runs `work` on a thread of its own with a stack of 1 GiB: the search, the extraction and the
/// verification recurse once a ply of their longest line, hundreds of plies deep.
pub fn on_deep_stack<T: Send>(what: &str, work: impl FnOnce() -> T + Send) -> T {
    std::thread::scope(|s| {
        std::thread::Builder::new()
            .stack_size(1 << 30)
            .spawn_scoped(s, work)
            .unwrap_or_else(|e| panic!("no thread for {what}: {e}"))
            .join()
            .unwrap_or_else(|_| panic!("{what} panicked"))
    })
}
