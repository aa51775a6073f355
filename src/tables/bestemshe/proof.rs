//! Bestemshe's proof file: the shared proof tree ([`crate::tables::proof_search::tree`]) of
//! the winner's moves with the rules and tables it is a proof over, and the thin calls that
//! check, extract and follow it for Bestemshe.

use std::collections::HashMap;
use std::path::Path;

use super::{Bestemshe, Rules, TableProbe};
use crate::games::{Game, Move, Side, Toguz};
use crate::tables::file::{self, Kind, Problem};
use crate::tables::proof_search::dfpn::Dfpn;
use crate::tables::proof_search::tree::{self, Goal, ProofTree};

pub use crate::tables::proof_search::tree::{ExtractError, ProofStats, VerifyError};

/// A proof tree from a root: who wins it and the winner's moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    pub rules: Rules,
    /// The stones on the board up to which the endgame tables the leaves lean on reach.
    pub table_stones: u8,
    pub winner: Side,
    /// The winner's moves (holes 0..5), depth first.
    pub moves: Vec<u8>,
}

impl Proof {
    fn tree(&self) -> ProofTree {
        ProofTree {
            goal: Goal::Win,
            winner: self.winner,
            moves: self.moves.clone(),
        }
    }
}

/// A position exactly (hashes collide; a proof must not): 10 holes of 6 bits, the stores, the
/// side to move.
pub fn exact_key(pos: &Toguz) -> u128 {
    let mut k = 0u128;
    for side in Side::BOTH {
        for &x in pos.row(side) {
            k = k << 6 | x as u128;
        }
    }
    k = k << 8 | pos.store(Side::South) as u128;
    k = k << 8 | pos.store(Side::North) as u128;
    k << 1 | (pos.side_to_move() == Side::North) as u128
}

/// Replays `proof` from `root` under its rules with `tables`: every move legal, every leaf won
/// by the winner, no line coming back to itself, the whole file used.
pub fn verify(
    proof: &Proof,
    root: &Toguz,
    tables: &dyn TableProbe,
    progress: &mut dyn FnMut(&ProofStats),
) -> Result<ProofStats, VerifyError> {
    verify_recording(proof, root, tables, progress, None)
}

/// [`verify`], also recording the winner's move at every position of the tree where they are
/// to move (what the engine plays from the proof).
pub fn verify_recording(
    proof: &Proof,
    root: &Toguz,
    tables: &dyn TableProbe,
    progress: &mut dyn FnMut(&ProofStats),
    record: Option<&mut HashMap<u128, u8>>,
) -> Result<ProofStats, VerifyError> {
    let game = Bestemshe::new(proof.rules, tables);
    tree::verify(&game, &proof.tree(), root, progress, record)
}

/// Builds the proof tree of the search's attacker's win from `root` out of its proven entries,
/// searching again where an entry was lost (overwritten in the table).
pub fn extract(
    search: &mut Dfpn<Bestemshe>,
    root: &Toguz,
    table_stones: u8,
) -> Result<Proof, ExtractError> {
    let tree = tree::extract(search, root, Goal::Win)?;
    Ok(Proof {
        rules: search.game().rules,
        table_stones,
        winner: tree.winner,
        moves: tree.moves,
    })
}

/// The proof's first line: the winner's moves as the file gives them, the loser's first legal
/// move at each of their turns, up to the first leaf (the end of the game or a table position).
pub fn first_line(proof: &Proof, root: &Toguz, tables: &dyn TableProbe) -> Vec<Move> {
    tree::first_line(&Bestemshe::new(proof.rules, tables), &proof.tree(), root)
}

/// Writes a proof in the shared table file format (kind [`Kind::BestemsheProof`]; parameters:
/// the rules, the tables' stones, the winner).
pub fn save(proof: &Proof, path: &Path) -> Result<(), file::Error> {
    let params = [
        proof.rules.byte(),
        proof.table_stones,
        proof.winner.index() as u8,
    ];
    file::write(path, Kind::BestemsheProof, params, &proof.moves)
}

/// Reads a proof written by [`save`].
pub fn load(path: &Path) -> Result<Proof, file::Error> {
    let ([rules, table_stones, winner], moves) = file::read(path, Kind::BestemsheProof)?;
    let bad = |why: String| file::Error::new(path, Problem::Header(why));
    let rules = Rules::of(rules).ok_or_else(|| bad(format!("rules {rules}: 0 or 1")))?;
    let winner = match winner {
        0 => Side::South,
        1 => Side::North,
        w => return Err(bad(format!("winner {w}: 0 (south) or 1 (north)"))),
    };
    if let Some(&hole) = moves.iter().find(|&&h| h >= 5) {
        return Err(bad(format!("a move to hole {}: Bestemshe has 5", hole + 1)));
    }
    Ok(Proof {
        rules,
        table_stones,
        winner,
        moves,
    })
}
