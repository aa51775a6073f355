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

/// A game as the proof search asks it: its positions, and the ones decided without search.
pub trait ProofGame: Sync {
    /// A position: the game's own type, copied to make a move.
    type Pos: Game + Copy;

    /// The result of a position decided without a search, from the side to move's view (1 a
    /// win, 0 a draw, -1 a loss), and whether the tables decided it (else the game is over).
    /// A table result must be what the side to move can force in finite time, without a
    /// repetition: a proof takes it as proven.
    fn decided(&self, pos: &Self::Pos) -> Option<(i32, bool)>;

    /// The proof and disproof numbers a position not searched yet starts with, for its mover
    /// (df-pn+: a side well ahead is cheap to prove and dear to disprove).
    fn initial_numbers(&self, _pos: &Self::Pos) -> (u32, u32) {
        (1, 1)
    }

    /// A key that tells positions apart exactly (hashes collide; a proof must not).
    fn exact_key(&self, pos: &Self::Pos) -> u128;
}

/// What the search that found a proof did.
#[derive(Clone, Copy, Debug)]
pub struct SearchFigures {
    pub winner: Side,
    pub nodes: u64,
    pub table_hits: u64,
    pub ends: u64,
    pub time: std::time::Duration,
    /// The first attacker's win was disproven first.
    pub disproved_first: bool,
}

/// Searches `root` for a win of `attackers[0]`, then of `attackers[1]`, with a transposition
/// table of `2^log2` entries, and extracts the proof of the first one found (None when both
/// are disproven), with progress on stderr; on a thread with room for long lines.
pub fn search_and_extract<G: ProofGame + Copy + Send>(
    game: G,
    root: &G::Pos,
    attackers: [Side; 2],
    log2: u32,
) -> Result<Option<(ProofTree, SearchFigures)>, ExtractError> {
    let started = Instant::now();
    let mut disproved_first = false;
    for attacker in attackers {
        let found = on_deep_stack("the search", || {
            let t = Instant::now();
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
                    t.elapsed().as_secs_f64()
                )
            });
            let mut search = Dfpn::new(game, attacker, log2, progress);
            if !search.solve(root) {
                return Ok(None);
            }
            eprintln!("search: {attacker} wins; extracting the proof tree");
            let stats = search.stats;
            Ok(Some((
                tree::extract(&mut search, root, tree::Goal::Win)?,
                stats,
            )))
        })?;
        if let Some((tree, stats)) = found {
            let figures = SearchFigures {
                winner: attacker,
                nodes: stats.nodes,
                table_hits: stats.table_hits,
                ends: stats.ends,
                time: started.elapsed(),
                disproved_first,
            };
            return Ok(Some((tree, figures)));
        }
        eprintln!("search: {attacker}'s win disproven");
        disproved_first = true;
    }
    Ok(None)
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
