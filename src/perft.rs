//! Perft: counts the leaf nodes of the move tree to a fixed depth. Positions are judged by the
//! position alone (no repetition), every move is a ply (Giuthi's extra moves and passes too).

use crate::games::{Game, Move, MoveList};

/// Leaf count at `depth` plies. Counts the moves at the last ply instead of playing them.
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &mv in moves.iter() {
        let mut child = pos.clone();
        child.play(mv);
        nodes += perft(&child, depth - 1);
    }
    nodes
}

/// Perft split by root move, in move-generation order.
pub fn divide<G: Game>(pos: &G, depth: u32) -> Vec<(Move, u64)> {
    pos.legal_moves()
        .iter()
        .map(|&mv| {
            let mut child = pos.clone();
            child.play(mv);
            (
                mv,
                if depth == 0 {
                    1
                } else {
                    perft(&child, depth - 1)
                },
            )
        })
        .collect()
}
