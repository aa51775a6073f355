//! Perft: counts the leaf nodes of the move tree to a fixed depth. Positions are judged by the
//! position alone (no repetition), every move is a ply (Giuthi's extra moves and passes too).

use crate::games::{Game, Move, MoveList};

/// The deepest perft accepted. No tree that deep can be counted anyway, and the recursion goes as
/// deep as asked along a line whose moves cycle (lone stones chasing each other round the ring):
/// the limit keeps the stack bounded whatever depth a user or a GUI asks for.
pub const MAX_DEPTH: u32 = 128;

/// Leaf count at `depth` plies. Counts the moves at the last ply instead of playing or even
/// listing them ([`Game::move_count`]).
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    match depth {
        0 => return 1,
        1 => return pos.move_count() as u64,
        _ => {}
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let mut nodes = 0;
    for &mv in moves.iter() {
        let mut child = pos.clone();
        child.play(mv);
        // The last ply's count without another call: a call per leaf parent costs more than
        // counting its moves.
        nodes += if depth == 2 {
            child.move_count() as u64
        } else {
            perft(&child, depth - 1)
        };
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
