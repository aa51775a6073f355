//! A proof that anyone can re-check: the prover's moves of a proof tree, in depth-first order,
//! and the verifier that replays them with the rules.
//!
//! A proof shows one of two [`Goal`]s for its prover from the root: a win, or at least a draw
//! (the opponent cannot win). The tree is implicit. At a node where the prover is to move, the
//! file holds the move they play (one byte, the move's code); where the opponent is to move,
//! every legal move is followed, in move order, and the file holds nothing. A node is a leaf,
//! with nothing in the file, when the rules or the endgame tables decide it the goal's way
//! ([`ProofGame::decided`]), or when the same position was proven earlier in the file (a
//! transposition: the tree is a DAG). A position is counted as proven only once its whole
//! subtree has been checked, so no proof can lean on itself.
//!
//! Repetition. A win never rests on it: a line that comes back to a position on itself is
//! refused. A draw may, for games whose rule ends the game drawn at a position's second
//! occurrence (Giuthi): the root is the game's start, so a line from it is the whole game, and a
//! position met again on it is a draw by the rules. Such a subtree leans on its line, though,
//! so it is reused as a transposition only when every repetition in it goes back to a position
//! within it (at or below its root): then it holds whatever came before. Extraction and
//! verification apply these rules in the same order, so the file needs no markers.

use std::collections::{HashMap, HashSet};
use std::fmt;

use super::dfpn::Dfpn;
use super::ProofGame;
use crate::games::{Game, Move, Side};
use crate::tables::Decided;

/// What a proof shows for its prover.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// The prover wins.
    Win,
    /// The prover does not lose: a draw at worst, by repetition at a position's second
    /// occurrence if need be.
    Hold,
}

impl Goal {
    /// What the prover does, as the solve commands print it.
    pub fn words(self) -> &'static str {
        match self {
            Goal::Win => "wins",
            Goal::Hold => "holds the draw",
        }
    }

    /// Whether a leaf's result (for its side to move) is the goal's for the prover.
    fn met_by(self, result: Decided, prover_to_move: bool) -> bool {
        let result = if prover_to_move {
            result
        } else {
            result.for_other()
        };
        match self {
            Goal::Win => result == Decided::Win,
            Goal::Hold => result >= Decided::Draw,
        }
    }
}

/// A proof tree from a root: what it shows for whom, and the prover's moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProofTree {
    /// What the tree shows: a win, or a hold of the draw.
    pub goal: Goal,
    /// The side the goal is shown for (the winner of a win).
    pub winner: Side,
    /// The prover's moves ([`Move::code`]), depth first.
    pub moves: Vec<u8>,
}

/// The line depth a subtree's repetitions go back to, when none does.
const NO_REPETITION: u32 = u32::MAX;

/// What went wrong checking a proof.
#[derive(Debug, PartialEq, Eq)]
pub enum VerifyError {
    /// A move of the file is not legal where it is played.
    IllegalMove {
        /// The position string where it is played.
        position: String,
        /// The move's [`Move::code`].
        code: u8,
    },
    /// The file ends before the tree does.
    Truncated {
        /// The position string whose move is missing.
        position: String,
    },
    /// Bytes are left after the tree.
    TrailingMoves {
        /// How many.
        left: usize,
    },
    /// A leaf the rules or tables decide the other way.
    WrongLeaf {
        /// The leaf's position string.
        position: String,
        /// Its result, for the side to move.
        result: Decided,
    },
    /// A line comes back to a position on itself.
    Cycle {
        /// The position string met twice.
        position: String,
    },
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
                "{position} is decided {result} for the side to move, against the proof"
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
    /// Leaves where the line comes back to a position on itself (a draw; only in a proof
    /// that the prover holds the draw).
    pub repetitions: u64,
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
        path: HashMap::new(),
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
    /// The positions of the current line, with their depth.
    path: HashMap<u128, u32>,
    stats: ProofStats,
    progress: &'a mut dyn FnMut(&ProofStats),
    record: Option<&'a mut HashMap<u128, u8>>,
}

impl<G: ProofGame> Verifier<'_, G> {
    /// Checks the subtree of `pos`, at depth `ply`; returns the least depth of the line its
    /// repetitions go back to ([`NO_REPETITION`] if none).
    fn node(&mut self, pos: &G::Pos, ply: u32) -> Result<u32, VerifyError> {
        self.stats.depth = self.stats.depth.max(ply);
        let prover_to_move = pos.side_to_move() == self.proof.winner;
        if let Some((result, by_table)) = self.game.decided(pos) {
            if !self.proof.goal.met_by(result, prover_to_move) {
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
            return Ok(NO_REPETITION);
        }
        let key = self.game.exact_key(pos);
        if self.done.contains(&key) {
            self.stats.transpositions += 1;
            return Ok(NO_REPETITION);
        }
        if let Some(&at) = self.path.get(&key) {
            if self.proof.goal == Goal::Win {
                return Err(VerifyError::Cycle {
                    position: pos.to_string(),
                });
            }
            self.stats.repetitions += 1;
            return Ok(at);
        }
        self.path.insert(key, ply);
        let back = if prover_to_move {
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
            self.node(&child, ply + 1)?
        } else {
            self.stats.loser_nodes += 1;
            let mut back = NO_REPETITION;
            for &mv in pos.legal_moves().iter() {
                let mut child = *pos;
                child.play(mv);
                back = back.min(self.node(&child, ply + 1)?);
            }
            back
        };
        self.path.remove(&key);
        if back >= ply {
            self.done.insert(key);
            if self.done.len().is_multiple_of(1 << 20) {
                (self.progress)(&self.stats);
            }
        }
        Ok(back)
    }
}

/// Why a proof could not be extracted.
#[derive(Debug, PartialEq, Eq)]
pub enum ExtractError {
    /// The search's proofs and re-searches up to the given depth found no acyclic proof tree.
    NotProven {
        /// The root's position string.
        position: String,
    },
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

/// Builds the proof tree of `goal` from `root` out of the search's settled entries, searching
/// again where an entry was lost (overwritten in the table) or does not hold on this line: a
/// win of the search's attacker, or a draw held by its defender (the attacker's win disproven).
pub fn extract<G: ProofGame>(
    search: &mut Dfpn<G>,
    root: &G::Pos,
    goal: Goal,
) -> Result<ProofTree, ExtractError> {
    let winner = match goal {
        Goal::Win => search.attacker(),
        Goal::Hold => search.attacker().other(),
    };
    let mut x = Extractor {
        prover: search,
        goal,
        winner,
        moves: Vec::new(),
        done: HashSet::new(),
        done_log: Vec::new(),
        path: HashMap::new(),
        line: Vec::new(),
    };
    if x.node(root, 0).is_none() {
        return Err(ExtractError::NotProven {
            position: root.to_string(),
        });
    }
    Ok(ProofTree {
        goal,
        winner,
        moves: x.moves,
    })
}

struct Extractor<'p, 't, G: ProofGame> {
    prover: &'p mut Dfpn<'t, G>,
    goal: Goal,
    winner: Side,
    moves: Vec<u8>,
    done: HashSet<u128>,
    /// The order positions were marked proven, to undo a failed subtree's marks.
    done_log: Vec<u128>,
    path: HashMap<u128, u32>,
    /// The hashes of the current line's positions, in order, for the search's re-searches.
    line: Vec<u64>,
}

impl<G: ProofGame> Extractor<'_, '_, G> {
    /// Emits the subtree of `pos` at depth `ply` (as [`verify`] will read it) and returns the
    /// least depth its repetitions go back to; None, with nothing emitted, when no proof of the
    /// goal is found there.
    fn node(&mut self, pos: &G::Pos, ply: u32) -> Option<u32> {
        let prover_to_move = pos.side_to_move() == self.winner;
        if let Some((result, _)) = self.prover.game().decided(pos) {
            return self
                .goal
                .met_by(result, prover_to_move)
                .then_some(NO_REPETITION);
        }
        let key = self.prover.game().exact_key(pos);
        if self.done.contains(&key) {
            return Some(NO_REPETITION);
        }
        if let Some(&at) = self.path.get(&key) {
            return (self.goal == Goal::Hold).then_some(at);
        }
        if !self.is_proven(pos) {
            return None;
        }
        self.path.insert(key, ply);
        self.line.push(pos.hash());
        let (moves_len, log_len) = (self.moves.len(), self.done_log.len());
        let back = if prover_to_move {
            // A move back into the line first when a draw is the goal (the smallest proof),
            // then the search's move, then the others.
            let mut order: Vec<_> = pos.legal_moves().iter().copied().collect();
            let best = self.prover.best_move(pos);
            let game = self.prover.game();
            let repeats = |m: Move| {
                let mut child = *pos;
                child.play(m);
                self.goal == Goal::Hold && self.path.contains_key(&game.exact_key(&child))
            };
            order.sort_by_key(|&m| (!repeats(m), Some(m) != best, m.code()));
            order.into_iter().find_map(|mv| {
                let mut child = *pos;
                child.play(mv);
                self.moves.push(mv.code());
                let back = self.node(&child, ply + 1);
                if back.is_none() {
                    self.undo(moves_len, log_len);
                }
                back
            })
        } else {
            let mut back = Some(NO_REPETITION);
            for &mv in pos.legal_moves().iter() {
                let mut child = *pos;
                child.play(mv);
                match self.node(&child, ply + 1) {
                    Some(b) => back = back.map(|a| a.min(b)),
                    None => {
                        back = None;
                        break;
                    }
                }
            }
            back
        };
        self.path.remove(&key);
        self.line.pop();
        match back {
            Some(b) if b >= ply => {
                self.done.insert(key);
                self.done_log.push(key);
            }
            Some(_) => {}
            None => self.undo(moves_len, log_len),
        }
        back
    }

    fn undo(&mut self, moves_len: usize, log_len: usize) {
        self.moves.truncate(moves_len);
        for key in self.done_log.drain(log_len..) {
            self.done.remove(&key);
        }
    }

    /// Whether the search holds (or finds again) that the goal is the prover's at `pos`.
    fn is_proven(&mut self, pos: &G::Pos) -> bool {
        let prover_to_move = pos.side_to_move() == self.winner;
        match self.prover.known(pos) {
            Some(mover_gets_its_way) => mover_gets_its_way == prover_to_move,
            None => {
                let line = std::mem::take(&mut self.line);
                let won = self.prover.solve_after(&line, pos);
                self.line = line;
                // Out of budget: not proven here.
                won == Some(self.prover.attacker() == self.winner)
            }
        }
    }
}

/// Proof trees as files keep them, one after the other: a byte `winner | hold << 1` (winner 0
/// South, 1 North; hold 1 for [`Goal::Hold`]), the moves' count (4 bytes, little-endian), the
/// moves.
pub fn encode(trees: &[ProofTree]) -> Vec<u8> {
    let mut payload = Vec::new();
    for t in trees {
        payload.push(t.winner.index() as u8 | ((t.goal == Goal::Hold) as u8) << 1);
        payload.extend_from_slice(&(t.moves.len() as u32).to_le_bytes());
        payload.extend_from_slice(&t.moves);
    }
    payload
}

/// The `count` trees [`encode`] wrote, or what is wrong with them.
pub fn decode(payload: &[u8], count: usize) -> Result<Vec<ProofTree>, String> {
    let mut trees = Vec::new();
    let mut at = 0;
    for i in 1..=count {
        let head = payload
            .get(at..at + 5)
            .ok_or_else(|| format!("tree {i} of {count} is missing"))?;
        let flags = head[0];
        let len = u32::from_le_bytes([head[1], head[2], head[3], head[4]]) as usize;
        if flags > 3 {
            return Err(format!("tree {i}: flags {flags}: 0..=3"));
        }
        at += 5;
        let moves = payload
            .get(at..at + len)
            .ok_or_else(|| format!("tree {i}: {len} moves, past the file's end"))?;
        at += len;
        trees.push(ProofTree {
            goal: if flags & 2 != 0 {
                Goal::Hold
            } else {
                Goal::Win
            },
            winner: if flags & 1 != 0 {
                Side::North
            } else {
                Side::South
            },
            moves: moves.to_vec(),
        });
    }
    if at != payload.len() {
        return Err(format!("{} bytes after the trees", payload.len() - at));
    }
    Ok(trees)
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
