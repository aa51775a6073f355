//! Toguz Kumalak evaluation: stores difference plus tuned positional terms.
//!
//! The positional part is linear in [`features`], blended between an opening weight and an
//! endgame weight by the stones left on the board (a tuzdik is worth most early, when many stones
//! will still pass through it; stones on one's own row matter most late, when the player to move
//! running out of stones hands every stone left on the board to the row's owner).
//!
//! Terms, each "mine minus the opponent's" from the side to move's view:
//! - tuzdik owned, by its hole number (some holes collect far more passing stones than others);
//! - stones on each of one's own holes, by hole number;
//! - mobility (non-empty holes);
//! - the biggest capture the side to move can make now, and the biggest the opponent could make
//!   if it were their turn (threats of even captures);
//! - whether a tuzdik can be made now;
//! - a constant for having the move.

use super::{store_difference, Evaluate, Weights};
use crate::games::{Game, Side, Toguz, MAX_RING};

/// Per-hole terms are indexed so that a row's last hole is always slot 8 (7- and 5-hole boards
/// use the slots of the 9-hole board's last holes).
const SLOTS: usize = 9;

/// First of the tuzdik terms, one slot a hole (a row's last hole in slot 8).
pub const F_TUZDIK: usize = 0;
/// First of the own-row terms: stones in each hole, one slot a hole.
pub const F_ROW: usize = F_TUZDIK + SLOTS;
/// Non-empty holes, mine minus the opponent's.
pub const F_MOBILITY: usize = F_ROW + SLOTS;
/// The biggest capture the side to move can make now, in stones.
pub const F_THREAT_MINE: usize = F_MOBILITY + 1;
/// The biggest capture the opponent could make if it were their turn, negated.
pub const F_THREAT_THEIRS: usize = F_THREAT_MINE + 1;
/// Whether a tuzdik can be made now, mine minus the opponent's.
pub const F_TUZDIK_CHANCE: usize = F_THREAT_THEIRS + 1;
/// A constant for having the move.
pub const F_TEMPO: usize = F_TUZDIK_CHANCE + 1;
/// Number of linear terms; each has an opening and an endgame weight.
pub const FEATURES: usize = F_TEMPO + 1;

/// Names of the terms, for `eval` and the tuner's output.
pub const FEATURE_NAMES: [&str; FEATURES] = [
    "tuzdik-1",
    "tuzdik-2",
    "tuzdik-3",
    "tuzdik-4",
    "tuzdik-5",
    "tuzdik-6",
    "tuzdik-7",
    "tuzdik-8",
    "tuzdik-9",
    "row-1",
    "row-2",
    "row-3",
    "row-4",
    "row-5",
    "row-6",
    "row-7",
    "row-8",
    "row-9",
    "mobility",
    "threat-mine",
    "threat-theirs",
    "tuzdik-chance",
    "tempo",
];

/// Weights in centi-stones per unit of each term: `[opening, endgame]`. Fitted by `otau tune` on
/// the 2,398 PlayOK games of `../shared/data/toguz/playok-2024-2025.pgn` (2000 epochs from
/// hand-set weights); +99 Elo [+58, +143] over the hand-set weights in self-play (260 games,
/// 5000 nodes a move). Tuzdiks weigh many stones: the stones they will collect for the rest of
/// the game.
pub const WEIGHTS: [[i32; 2]; FEATURES] = [
    [294, 2243],  // tuzdik-1
    [242, 2127],  // tuzdik-2
    [550, 1528],  // tuzdik-3
    [-384, 1770], // tuzdik-4
    [3188, 2702], // tuzdik-5
    [2813, 2345], // tuzdik-6
    [2889, 2275], // tuzdik-7
    [2504, 1256], // tuzdik-8
    [0, 0],       // tuzdik-9
    [-17, -70],   // row-1
    [-157, 187],  // row-2
    [-121, 152],  // row-3
    [-142, 136],  // row-4
    [-89, 86],    // row-5
    [-130, 128],  // row-6
    [-150, 131],  // row-7
    [-84, 69],    // row-8
    [-87, 152],   // row-9
    [113, 825],   // mobility
    [3, 187],     // threat-mine
    [-28, 77],    // threat-theirs
    [450, -76],   // tuzdik-chance
    [37, -160],   // tempo
];

/// What one side could do if it were to move: its biggest immediate capture and whether it could
/// make a tuzdik.
#[derive(Clone, Copy, Default, Debug, PartialEq, Eq)]
pub struct Threats {
    /// Stones the biggest capture takes (a tuzdik counts as 3); 0 when none.
    pub best_capture: i32,
    /// Whether some move makes a tuzdik.
    pub tuzdik: bool,
}

/// Computes a side's immediate captures from the landing arithmetic of sowing (no move is played):
/// `k` stones from ring place `from` end on place `from + k - 1` (one further for a single stone),
/// which receives `(k - 1) / ring + 1` of them. Checked against real play by the tests below.
pub fn threats(pos: &Toguz, side: Side) -> Threats {
    threats_on(&EvalBoard::of(pos), side)
}

/// What the evaluation reads of a position, gathered once (not a board type of `games`): the ring of holes, the tuzdiks as hole
/// numbers (0 = none), the stones on the board.
struct EvalBoard {
    places: [u8; MAX_RING],
    n: usize,
    /// Tuzdik hole numbers by side index.
    tuzdik: [usize; 2],
    has_tuzdik: bool,
    stones: i32,
}

impl EvalBoard {
    #[inline]
    fn of(pos: &Toguz) -> EvalBoard {
        let n = pos.holes();
        let mut places = [0u8; MAX_RING];
        places[..n].copy_from_slice(pos.row(Side::South));
        places[n..2 * n].copy_from_slice(pos.row(Side::North));
        let hole = |s| pos.tuzdik(s).map_or(0, |h| h as usize);
        EvalBoard {
            places,
            n,
            tuzdik: [hole(Side::South), hole(Side::North)],
            has_tuzdik: pos.variant().has_tuzdik(),
            stones: places.iter().map(|&x| x as i32).sum(),
        }
    }
}

#[inline]
fn threats_on(b: &EvalBoard, side: Side) -> Threats {
    let n = b.n;
    let ring = 2 * n;
    let base = side.index() * n;
    let their_base = side.other().index() * n;
    let mine = b.tuzdik[side.index()];
    let theirs = b.tuzdik[side.other().index()];
    let can_make = b.has_tuzdik && mine == 0;
    let mut out = Threats::default();
    // Branch-free over the holes (the outcome of each test is unpredictable, and this runs twice
    // at every evaluated node): each hole's capture is computed and masked to zero if it fails.
    for i in 0..n {
        let k = b.places[base + i] as usize;
        let from = base + i;
        // Divisions are slow next to the rest of this loop: only holes of over a lap need them.
        let (last, drops) = if k <= ring {
            let last = from + k - (k > 1) as usize;
            (if last >= ring { last - ring } else { last }, 1)
        } else {
            ((from + k - 1) % ring, (k - 1) / ring + 1)
        };
        let hole = last.wrapping_sub(their_base).wrapping_add(1);
        let lands = k != 0 && hole.wrapping_sub(1) < n && mine != hole;
        let count = b.places[last] as usize + drops;
        let capture = lands && count.is_multiple_of(2);
        out.best_capture = out.best_capture.max(count as i32 * capture as i32);
        let tuzdik = lands && count == 3 && can_make && hole != n && theirs != hole;
        out.tuzdik |= tuzdik;
        out.best_capture = out.best_capture.max(3 * tuzdik as i32);
    }
    out
}

/// The linear terms of a position from the side to move's view (before phase blending).
pub fn features(pos: &Toguz) -> [i32; FEATURES] {
    features_of(&EvalBoard::of(pos), pos.side_to_move())
}

#[inline]
fn features_of(b: &EvalBoard, me: Side) -> [i32; FEATURES] {
    let mut f = [0i32; FEATURES];
    let n = b.n;
    let offset = SLOTS - n;
    let opp = me.other();
    if b.tuzdik[me.index()] != 0 {
        f[F_TUZDIK + offset + b.tuzdik[me.index()] - 1] += 1;
    }
    if b.tuzdik[opp.index()] != 0 {
        f[F_TUZDIK + offset + b.tuzdik[opp.index()] - 1] -= 1;
    }
    let mine = &b.places[me.index() * n..me.index() * n + n];
    let theirs = &b.places[opp.index() * n..opp.index() * n + n];
    let mut mobility = 0;
    for i in 0..n {
        f[F_ROW + offset + i] = mine[i] as i32 - theirs[i] as i32;
        mobility += (mine[i] > 0) as i32 - (theirs[i] > 0) as i32;
    }
    f[F_MOBILITY] = mobility;
    let t_me = threats_on(b, me);
    let t_opp = threats_on(b, opp);
    f[F_THREAT_MINE] = t_me.best_capture;
    f[F_THREAT_THEIRS] = -t_opp.best_capture;
    f[F_TUZDIK_CHANCE] = t_me.tuzdik as i32 - t_opp.tuzdik as i32;
    f[F_TEMPO] = 1;
    f
}

/// Blends the terms with `weights` by game phase: `stones on board / all stones` of the opening
/// weight plus the rest of the endgame weight. Returns centi-stones.
#[inline]
pub fn positional(pos: &Toguz, f: &[i32; FEATURES], weights: &[[i32; 2]; FEATURES]) -> i32 {
    blend(
        pos.variant().total_stones() as i32,
        pos.board_stones() as i32,
        f,
        weights,
    )
}

#[inline]
fn blend(total: i32, board: i32, f: &[i32; FEATURES], weights: &[[i32; 2]; FEATURES]) -> i32 {
    let (mut opening, mut endgame) = (0i32, 0i32);
    for i in 0..FEATURES {
        opening += weights[i][0] * f[i];
        endgame += weights[i][1] * f[i];
    }
    (opening * board + endgame * (total - board)) / total
}

impl Evaluate for Toguz {
    #[inline]
    fn evaluate_with(&self, weights: &Weights) -> i32 {
        let b = EvalBoard::of(self);
        let f = features_of(&b, self.side_to_move());
        let total = 2 * (b.n * b.n) as i32;
        store_difference(self) + blend(total, b.stones, &f, &weights.toguz)
    }

    fn explain(&self) -> Vec<(&'static str, i32)> {
        let f = features(self);
        let mut terms = vec![("stores", store_difference(self))];
        for i in 0..FEATURES {
            let mut one = [0; FEATURES];
            one[i] = f[i];
            let value = positional(self, &one, &WEIGHTS);
            if value != 0 {
                terms.push((FEATURE_NAMES[i], value));
            }
        }
        terms.push(("total", self.evaluate()));
        terms
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::{AnyGame, Move, Variant};

    fn toguz(text: &str) -> Toguz {
        match AnyGame::from_position(text).unwrap() {
            AnyGame::Toguz(t) => t,
            _ => unreachable!(),
        }
    }

    /// The landing arithmetic agrees with real play for every move of many random positions.
    #[test]
    fn threats_match_play() {
        use rand::{Rng, SeedableRng};
        let mut rng = rand_chacha::ChaCha8Rng::seed_from_u64(7);
        for variant in [Variant::TOGUZ, Variant::TOGUZ7, Variant::BESTEMSHE] {
            for _ in 0..300 {
                let mut pos = Toguz::start(variant);
                let plies = rng.gen_range(0..80);
                for _ in 0..plies {
                    let moves = pos.legal_moves();
                    if moves.is_empty() {
                        break;
                    }
                    pos.play(moves[rng.gen_range(0..moves.len())]);
                }
                if pos.legal_moves().is_empty() {
                    continue;
                }
                let me = pos.side_to_move();
                let mut best = 0;
                let mut tuzdik = false;
                for &mv in pos.legal_moves().iter() {
                    let mut child = pos;
                    let e = child.play(mv);
                    if e.captured > 0 {
                        best = best.max(e.captured as i32);
                    }
                    tuzdik |= pos.makes_tuzdik(mv);
                }
                let t = threats(&pos, me);
                assert_eq!((t.best_capture, t.tuzdik), (best, tuzdik), "{pos}");
                let _ = Move::PASS;
            }
        }
    }

    #[test]
    fn start_is_balanced_and_terms_sum() {
        let start = Toguz::start(Variant::TOGUZ);
        let terms = start.explain();
        let total = terms.last().unwrap().1;
        let sum: i32 = terms[..terms.len() - 1].iter().map(|t| t.1).sum();
        // Blending rounds each term separately, so allow one centi-stone per term.
        assert!((total - sum).abs() <= terms.len() as i32, "{terms:?}");
        let p = toguz("toguz-kumalak 9,9,9,9,9,9,9,1,10/10,10,10,10,10,10,0,9,9 10/0 -/- n 1");
        assert!(
            p.evaluate() < -500,
            "North is a capture down: {}",
            p.evaluate()
        );
    }
}
