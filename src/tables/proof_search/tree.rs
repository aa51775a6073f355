//! A proof that anyone can re-check: the winner's moves of a proof tree, in depth-first order,
//! and the verifier that replays them with the rules.
//!
//! The tree is implicit. At a node where the winner is to move, the file holds the move they
//! play (one byte, the move's code); where the loser is to move, every legal move is followed,
//! in move order, and the file holds nothing. A node is a leaf, with nothing in the file, when
//! the rules or the endgame tables decide it with the winner winning ([`ProofGame::decided`]),
//! or when the same position was proven earlier in the file (a transposition: the tree is a
//! DAG). A position is counted as proven only once its whole subtree has been checked, so no
//! proof can lean on itself, and a line that comes back to a position on itself is refused: the
//! proof never rests on what the rules do with endless play. Extraction and verification apply
//! these rules in the same order, so the file needs no markers.

use std::collections::{HashMap, HashSet};
use std::fmt;

use super::dfpn::Dfpn;
use super::ProofGame;
use crate::games::{Game, Move, Side};

/// A proof tree from a root: who wins it and the winner's moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofTree {
    pub winner: Side,
    /// The winner's moves ([`Move::code`]), depth first.
    pub moves: Vec<u8>,
}

/// What went wrong checking a proof.
#[derive(Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// A move of the file is not legal where it is played.
    IllegalMove { position: String, code: u8 },
    /// The file ends before the tree does.
    Truncated { position: String },
    /// Bytes are left after the tree.
    TrailingMoves { left: usize },
    /// A leaf the rules or tables decide the other way.
    WrongLeaf { position: String, result: i32 },
    /// A line comes back to a position on itself.
    Cycle { position: String },
}

impl fmt::Display for VerifyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            VerifyError::IllegalMove { position, code } => {
                write!(f, "move code {code} is not a legal move in {position}")
            }
            VerifyError::Truncated { position } => {
                write!(f, "the proof ends before the tree does, at {position}")
            }
            VerifyError::TrailingMoves { left } => {
                write!(f, "{left} moves are left after the proof tree")
            }
            VerifyError::WrongLeaf { position, result } => write!(
                f,
                "{position} is decided {} for the side to move, against the proof",
                match result {
                    1 => "won",
                    -1 => "lost",
                    _ => "drawn",
                }
            ),
            VerifyError::Cycle { position } => {
                write!(f, "the proof comes back to {position} on its own line")
            }
        }
    }
}

impl std::error::Error for VerifyError {}

/// What a verification checked.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ProofStats {
    /// Positions of the tree with a move of the file (the winner to move).
    pub winner_nodes: u64,
    /// Positions where every move was followed (the loser to move).
    pub loser_nodes: u64,
    /// Leaves decided by the end of the game.
    pub ends: u64,
    /// Leaves decided by the endgame tables.
    pub table_leaves: u64,
    /// Leaves proven earlier in the file.
    pub transpositions: u64,
    /// Longest line, in plies.
    pub depth: u32,
}

/// Replays `proof` from `root` in `game`: every move legal, every leaf won by the winner, no
/// line coming back to itself, the whole file used. With `record`, also keeps the winner's move
/// at every position of the tree where they are to move (what an engine plays from the proof),
/// by [`ProofGame::exact_key`].
pub fn verify<G: ProofGame>(
    game: &G,
    proof: &ProofTree,
    root: &G::Pos,
    progress: &mut dyn FnMut(&ProofStats),
    record: Option<&mut HashMap<u128, u8>>,
) -> Result<ProofStats, VerifyError> {
    let mut v = Verifier {
        game,
        proof,
        at: 0,
        done: HashSet::new(),
        path: HashSet::new(),
        stats: ProofStats::default(),
        progress,
        record,
    };
    v.node(root, 0)?;
    if v.at != proof.moves.len() {
        return Err(VerifyError::TrailingMoves {
            left: proof.moves.len() - v.at,
        });
    }
    Ok(v.stats)
}

struct Verifier<'a, G: ProofGame> {
    game: &'a G,
    proof: &'a ProofTree,
    at: usize,
    done: HashSet<u128>,
    path: HashSet<u128>,
    stats: ProofStats,
    progress: &'a mut dyn FnMut(&ProofStats),
    record: Option<&'a mut HashMap<u128, u8>>,
}

impl<G: ProofGame> Verifier<'_, G> {
    fn node(&mut self, pos: &G::Pos, ply: u32) -> Result<(), VerifyError> {
        self.stats.depth = self.stats.depth.max(ply);
        let winner_to_move = pos.side_to_move() == self.proof.winner;
        let expected = if winner_to_move { 1 } else { -1 };
        if let Some((result, by_table)) = self.game.decided(pos) {
            if result != expected {
                return Err(VerifyError::WrongLeaf {
                    position: pos.to_string(),
                    result,
                });
            }
            if by_table {
                self.stats.table_leaves += 1;
            } else {
                self.stats.ends += 1;
            }
            return Ok(());
        }
        let key = self.game.exact_key(pos);
        if self.done.contains(&key) {
            self.stats.transpositions += 1;
            return Ok(());
        }
        if !self.path.insert(key) {
            return Err(VerifyError::Cycle {
                position: pos.to_string(),
            });
        }
        if winner_to_move {
            let Some(&code) = self.proof.moves.get(self.at) else {
                return Err(VerifyError::Truncated {
                    position: pos.to_string(),
                });
            };
            self.at += 1;
            let mv = Move::from_code(code);
            if !pos.legal_moves().contains(mv) {
                return Err(VerifyError::IllegalMove {
                    position: pos.to_string(),
                    code,
                });
            }
            let mut child = *pos;
            child.play(mv);
            self.stats.winner_nodes += 1;
            if let Some(record) = self.record.as_deref_mut() {
                record.insert(key, code);
            }
            self.node(&child, ply + 1)?;
        } else {
            self.stats.loser_nodes += 1;
            for &mv in pos.legal_moves().iter() {
                let mut child = *pos;
                child.play(mv);
                self.node(&child, ply + 1)?;
            }
        }
        self.path.remove(&key);
        self.done.insert(key);
        if self.done.len().is_multiple_of(1 << 20) {
            (self.progress)(&self.stats);
        }
        Ok(())
    }
}

/// Why a proof could not be extracted.
#[derive(Debug, PartialEq, Eq)]
pub enum ExtractError {
    /// The search's proofs and re-searches up to the given depth found no acyclic proof tree.
    NotProven { position: String },
}

impl fmt::Display for ExtractError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExtractError::NotProven { position } => write!(
                f,
                "no proof tree found below {position} (the search's proofs were lost or cycle)"
            ),
        }
    }
}

impl std::error::Error for ExtractError {}

/// Builds the proof tree of the search's attacker's win from `root` out of its proven entries,
/// searching again where an entry was lost (overwritten in the table).
pub fn extract<G: ProofGame>(
    search: &mut Dfpn<G>,
    root: &G::Pos,
) -> Result<ProofTree, ExtractError> {
    let winner = search.attacker();
    let mut x = Extractor {
        prover: search,
        winner,
        moves: Vec::new(),
        done: HashSet::new(),
        done_log: Vec::new(),
        path: HashSet::new(),
    };
    if !x.node(root) {
        return Err(ExtractError::NotProven {
            position: root.to_string(),
        });
    }
    Ok(ProofTree {
        winner,
        moves: x.moves,
    })
}

struct Extractor<'p, 't, G: ProofGame> {
    prover: &'p mut Dfpn<'t, G>,
    winner: Side,
    moves: Vec<u8>,
    done: HashSet<u128>,
    /// The order positions were marked proven, to undo a failed subtree's marks.
    done_log: Vec<u128>,
    path: HashSet<u128>,
}

impl<G: ProofGame> Extractor<'_, '_, G> {
    /// Emits the subtree of `pos` (as [`verify`] will read it); false, with nothing emitted,
    /// when no proof of the winner's result is found there.
    fn node(&mut self, pos: &G::Pos) -> bool {
        let winner_to_move = pos.side_to_move() == self.winner;
        let expected = if winner_to_move { 1 } else { -1 };
        if let Some((result, _)) = self.prover.game().decided(pos) {
            return result == expected;
        }
        let key = self.prover.game().exact_key(pos);
        if self.done.contains(&key) {
            return true;
        }
        if self.path.contains(&key) {
            return false;
        }
        if !self.is_proven(pos) {
            return false;
        }
        self.path.insert(key);
        let (moves_len, log_len) = (self.moves.len(), self.done_log.len());
        let ok = if winner_to_move {
            // The table's move first, then the others.
            let mut order: Vec<_> = pos.legal_moves().iter().copied().collect();
            if let Some(best) = self.prover.best_move(pos) {
                order.sort_by_key(|&m| (m != best, m.code()));
            }
            order.into_iter().any(|mv| {
                let mut child = *pos;
                child.play(mv);
                self.moves.push(mv.code());
                if self.node(&child) {
                    true
                } else {
                    self.undo(moves_len, log_len);
                    false
                }
            })
        } else {
            pos.legal_moves().iter().all(|&mv| {
                let mut child = *pos;
                child.play(mv);
                self.node(&child)
            })
        };
        self.path.remove(&key);
        if ok {
            self.done.insert(key);
            self.done_log.push(key);
        } else {
            self.undo(moves_len, log_len);
        }
        ok
    }

    fn undo(&mut self, moves_len: usize, log_len: usize) {
        self.moves.truncate(moves_len);
        for key in self.done_log.drain(log_len..) {
            self.done.remove(&key);
        }
    }

    /// Whether the search holds (or finds again) the proof that the winner wins at `pos`.
    fn is_proven(&mut self, pos: &G::Pos) -> bool {
        let attacker_to_move = pos.side_to_move() == self.winner;
        match self.prover.known(pos) {
            Some(mover_wins) => mover_wins == attacker_to_move,
            None => self.prover.solve(pos),
        }
    }
}

/// The proof's first line: the winner's moves as the file gives them, the loser's first legal
/// move at each of their turns, up to the first leaf (the end of the game or a table position).
pub fn first_line<G: ProofGame>(game: &G, proof: &ProofTree, root: &G::Pos) -> Vec<Move> {
    let mut line = Vec::new();
    let mut pos = *root;
    let mut at = 0;
    while game.decided(&pos).is_none() {
        let mv = if pos.side_to_move() == proof.winner {
            let Some(&code) = proof.moves.get(at) else {
                break;
            };
            at += 1;
            Move::from_code(code)
        } else {
            match pos.legal_moves().iter().next() {
                Some(&mv) => mv,
                None => break,
            }
        };
        if !pos.legal_moves().contains(mv) {
            break;
        }
        line.push(mv);
        pos.play(mv);
    }
    line
}
