//! The baseline players that ignore search: sparring partners for testing a new bot.
//!
//! Both are pure functions of the game so far (and the seed), so a game between them replays
//! identically, whichever process or restart plays each move.

use crate::games::{mix64, Game, Move};

/// A uniformly random legal move. The choice depends on the seed and on every position of the
/// game so far (their repetition keys), so two games reaching the same position by different
/// paths diverge, while a replayed game repeats.
pub fn random<G: Game>(pos: &G, history: &[u64], seed: u64) -> Option<Move> {
    let moves = pos.legal_moves();
    if moves.is_empty() {
        return None;
    }
    let mut h = mix64(seed ^ 0x5241_4e44_4f4d_0001);
    for &key in history {
        h = mix64(h ^ key);
    }
    h = mix64(h ^ pos.hash());
    // Multiply-shift: unbiased enough for at most twenty moves.
    let pick = ((h as u128 * moves.len() as u128) >> 64) as usize;
    Some(moves[pick])
}

/// The move that wins the most stones at once: the mover's store gain minus the opponent's (a
/// sowing can feed the opponent's tuzdik), ties to the first in move order. A move that ends the
/// game with a win comes first of all.
pub fn greedy<G: Game>(pos: &G) -> Option<Move> {
    let me = pos.side_to_move();
    let mut best: Option<(i64, Move)> = None;
    for &mv in pos.legal_moves().iter() {
        let mut child = pos.clone();
        child.play(mv);
        let gain = (child.store(me) as i64 - pos.store(me) as i64)
            - (child.store(me.other()) as i64 - pos.store(me.other()) as i64);
        let wins = child
            .final_result()
            .is_some_and(|f| f.outcome == crate::games::Outcome::Win(me));
        let value = gain + if wins { 1 << 20 } else { 0 };
        if best.is_none_or(|(b, _)| value > b) {
            best = Some((value, mv));
        }
    }
    best.map(|(_, mv)| mv)
}
