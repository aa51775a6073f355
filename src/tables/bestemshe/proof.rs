//! Bestemshe's proof file: the shared proof tree ([`crate::tables::proof_search::tree`]) of
//! the winner's moves with the rules and tables it is a proof over, and the thin calls that
//! check, extract and follow it for Bestemshe.

use std::collections::HashMap;
use std::path::Path;

use super::{Bestemshe, Rules, TableProbe};
use crate::games::{Move, Side, Toguz};
use crate::tables::proof_search::dfpn::Dfpn;
use crate::tables::proof_search::tree::{self, Goal, ProofTree};
use crate::tables::storage::file_format::{self, Kind, Problem, RestsOn};

pub use crate::tables::proof_search::tree::{ExtractError, ProofStats, VerifyError};

/// A proof tree from a root: who wins it and the winner's moves.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Proof {
    /// The rules the proof holds under.
    pub rules: Rules,
    /// The stones on the board up to which the endgame tables the leaves lean on reach.
    pub table_stones: u8,
    /// The side the proof shows wins.
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
    crate::tables::proof_search::packed_key(pos, 6)
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
/// the rules, the tables' stones, the winner; the payload: the table file it rests on
/// ([`RestsOn`]), then the winner's moves).
pub fn save(proof: &Proof, rests_on: &RestsOn, path: &Path) -> Result<(), file_format::Error> {
    let params = [
        proof.rules.byte(),
        proof.table_stones,
        proof.winner.index() as u8,
    ];
    let mut payload = RestsOn::encode(std::slice::from_ref(rests_on));
    payload.extend_from_slice(&proof.moves);
    file_format::write(path, Kind::BestemsheProof, params, &payload)
}

/// Reads a proof of a win written by [`save`] and the table it rests on (a file of a draw is
/// refused as such).
pub fn load(path: &Path) -> Result<(Proof, RestsOn), file_format::Error> {
    match load_saved(path)? {
        (Saved::Win(p), rests_on) => Ok((p, rests_on)),
        (Saved::Draw(_), _) => Err(file_format::Error::new(
            path,
            Problem::Header("a proof of a draw, not of a win".into()),
        )),
    }
}

/// A proof of a draw from the start: each side's proof that it holds the draw.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DrawProof {
    /// The rules the proof holds under.
    pub rules: Rules,
    /// The stones on the board up to which the endgame tables the leaves lean on reach.
    pub table_stones: u8,
    /// The two proofs ([`Goal::Hold`]), one for each side.
    pub holds: Vec<ProofTree>,
}

/// What a Bestemshe proof file holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Saved {
    /// The start is won (by the proof's winner).
    Win(Proof),
    /// The start is a draw.
    Draw(DrawProof),
}

/// The winner byte of a file that holds a draw.
const DRAW: u8 = 2;

/// Writes a proof of a draw (kind [`Kind::BestemsheProof`], winner byte 2; the payload: the
/// table file it rests on ([`RestsOn`]), then the two trees in the shared layout of
/// [`tree::encode`]).
pub fn save_draw(
    proof: &DrawProof,
    rests_on: &RestsOn,
    path: &Path,
) -> Result<(), file_format::Error> {
    let params = [proof.rules.byte(), proof.table_stones, DRAW];
    let mut payload = RestsOn::encode(std::slice::from_ref(rests_on));
    payload.extend_from_slice(&tree::encode(&proof.holds));
    file_format::write(path, Kind::BestemsheProof, params, &payload)
}

/// Reads a proof written by [`save`] or [`save_draw`], and the table file it rests on.
pub fn load_saved(path: &Path) -> Result<(Saved, RestsOn), file_format::Error> {
    let ([rules, table_stones, winner], payload) = file_format::read(path, Kind::BestemsheProof)?;
    let bad = |why: String| file_format::Error::new(path, Problem::Header(why));
    let rules = Rules::of(rules).ok_or_else(|| bad(format!("rules {rules}: 0 or 1")))?;
    let (mut tables, moves) = RestsOn::decode(&payload).map_err(bad)?;
    if tables.len() != 1 {
        return Err(bad(format!(
            "a Bestemshe proof rests on one table file, this one names {}",
            tables.len()
        )));
    }
    let rests_on = tables.remove(0);
    let winner = match winner {
        0 => Side::South,
        1 => Side::North,
        DRAW => {
            let holds = tree::decode(moves, 2).map_err(bad)?;
            let sides: Vec<Side> = holds.iter().map(|t| t.winner).collect();
            if holds.iter().any(|t| t.goal != Goal::Hold) || sides[0] == sides[1] {
                return Err(bad("a draw needs each side's proof that it holds it".into()));
            }
            let draw = DrawProof {
                rules,
                table_stones,
                holds,
            };
            return Ok((Saved::Draw(draw), rests_on));
        }
        w => {
            return Err(bad(format!(
                "winner {w}: 0 (south), 1 (north) or 2 (a draw)"
            )))
        }
    };
    if let Some(&hole) = moves.iter().find(|&&h| h >= 5) {
        return Err(bad(format!("a move to hole {}: Bestemshe has 5", hole + 1)));
    }
    let proof = Proof {
        rules,
        table_stones,
        winner,
        moves: moves.to_vec(),
    };
    Ok((Saved::Win(proof), rests_on))
}

/// Replays each proof of a draw from `root` with `tables` ([`tree::verify`]); a failure names
/// the side whose proof that it holds the draw failed.
pub fn verify_draw(
    proof: &DrawProof,
    root: &Toguz,
    tables: &dyn TableProbe,
) -> Result<Vec<ProofStats>, (Side, VerifyError)> {
    let game = Bestemshe::new(proof.rules, tables);
    proof
        .holds
        .iter()
        .map(|t| tree::verify(&game, t, root, &mut |_| {}, None).map_err(|e| (t.winner, e)))
        .collect()
}
