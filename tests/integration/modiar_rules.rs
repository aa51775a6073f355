//! Modiar rules: hand-worked positions for every clause, notation, properties, and perft checked
//! against a deliberately simple second implementation written here from the rules text.

use otau::games::notation::MoveError;
use otau::games::{AnyGame, EndReason, Game, GameLine, Modiar, Move, Outcome, Side, Variant};
use otau::perft::perft;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::support::reference;
use reference::modiar::Simple;

fn pos(text: &str) -> Modiar {
    match AnyGame::from_position(text).unwrap_or_else(|e| panic!("{text}: {e}")) {
        AnyGame::Modiar(m) => m,
        other => panic!("not modiar: {other}"),
    }
}

/// Plays a hole number and returns the captured count and the new position string.
fn after(text: &str, hole: usize) -> (u32, String) {
    let mut p = pos(text);
    let mv = p.parse_move(&hole.to_string()).unwrap();
    let effect = p.play(mv);
    (effect.captured, p.to_string())
}

fn illegal_reason(text: &str, token: &str) -> String {
    match pos(text).parse_move(token) {
        Err(MoveError::Illegal { why, .. }) => why,
        other => panic!("{text} {token}: expected illegal, got {other:?}"),
    }
}

/// A random consistent position: 42 stones split among holes and even piles.
fn random_position(rng: &mut ChaCha8Rng) -> Modiar {
    let board: u32 = 2 * rng.gen_range(0..=21);
    let mut holes = [0u32; 6];
    for _ in 0..board {
        holes[rng.gen_range(0..6)] += 1;
    }
    let south_pile = 2 * rng.gen_range(0..=(42 - board) / 2);
    let north_pile = 42 - board - south_pile;
    let side = if rng.gen_bool(0.5) { 's' } else { 'n' };
    let text = format!(
        "modiar {},{},{}/{},{},{} {south_pile}/{north_pile} {side} {}",
        holes[0],
        holes[1],
        holes[2],
        holes[3],
        holes[4],
        holes[5],
        rng.gen_range(2..60)
    );
    pos(&text)
}

// ---------------------------------------------------------------------------------------------
// Notation

#[test]
fn start_position_round_trips_and_carries_the_first_move_flag() {
    let start = Modiar::start(Variant::MODIAR);
    assert_eq!(start.to_string(), "modiar 7,7,7/7,7,7 0/0 s 1");
    assert_eq!(pos("modiar 7,7,7/7,7,7 0/0 s 1"), start);
    assert!(start.is_first_move());
    // The same board later in the game: no first-move rule, a different hash, the same
    // repetition key (holes, piles and side to move).
    let later = pos("modiar 7,7,7/7,7,7 0/0 s 2");
    assert!(!later.is_first_move());
    assert_ne!(start.hash(), later.hash());
    assert_eq!(start.repetition_key(), later.repetition_key());
    assert!(!pos("modiar 7,7,7/7,7,7 0/0 n 1").is_first_move());
}

#[test]
fn bad_positions_name_the_field() {
    let cases = [
        ("modiar 7,7,7/7,7,6 0/0 s 1", "stones"),
        ("modiar 7,7,7/7,7,7 2/0 s 1", "stones"),
        ("modiar 7,7,7/7,7,4 3/0 s 1", "stores"),
        ("modiar 7,7,7/7,7,7 -/- 0/0 s 1", "position"),
        ("modiar 7,7,7/7,7 0/0 s 1", "north holes"),
        ("modiar 7,7,7/7,7,7 0/0 x 1", "side to move"),
    ];
    for (text, field) in cases {
        let err = AnyGame::from_position(text).unwrap_err();
        assert_eq!(err.field, field, "{text}: {err}");
    }
}

#[test]
fn move_tokens() {
    let p = Modiar::start(Variant::MODIAR);
    assert_eq!(p.parse_move("3").unwrap(), Move::hole(2));
    for bad in ["0", "4", "", "a", "33", "-1", "1x"] {
        assert!(
            matches!(p.parse_move(bad), Err(MoveError::Malformed { .. })),
            "{bad}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Hand-worked positions, one per rule clause

#[test]
fn first_move_captures_nothing() {
    // Hole 1 holds 7: one back into hole 1, five round the ring, the seventh into hole 1 again,
    // which then holds 2, but the first move of the game captures nothing.
    let (captured, text) = after("modiar 7,7,7/7,7,7 0/0 s 1", 1);
    assert_eq!(captured, 0);
    assert_eq!(text, "modiar 2,8,8/8,8,8 0/0 n 1");
    // The same move later in the game takes those 2 (North's hole 3 before it holds 8: stop).
    let (captured, text) = after("modiar 7,7,7/7,7,7 0/0 s 2", 1);
    assert_eq!(captured, 2);
    assert_eq!(text, "modiar 0,8,8/8,8,8 2/0 n 2");
}

#[test]
fn sowing_laps_the_ring_origin_included() {
    // North's hole 3 with 13 stones: one back, then 2 full laps (12), every hole +2, origin +3.
    let (captured, text) = after("modiar 1,1,1/1,1,13 10/14 n 8", 3);
    // Last stone lands on North's hole 3 (the origin) which holds 3: no capture.
    assert_eq!(captured, 0);
    assert_eq!(text, "modiar 3,3,3/3,3,3 10/14 s 9");
}

#[test]
fn capture_chain_runs_backwards_across_both_rows() {
    // South hole 1 (4): holes S1=1, S2=6, S3=4, N1=2. The last stone makes N1 2: captured; then
    // S3 (4, South's own) and S2 (6); S1 holds 1: stop. 12 stones.
    let (captured, text) = after("modiar 4,5,3/1,3,6 10/10 s 5", 1);
    assert_eq!(captured, 12);
    assert_eq!(text, "modiar 1,0,0/0,3,6 22/10 n 5");
}

#[test]
fn capture_chain_wraps_past_the_origin() {
    // South hole 2 (8): a full lap (+1 everywhere) and 2 more: origin S2 = 2, last on S3 = 4.
    // Backwards: S3 4, S2 2, S1 4, N3 6 captured; N2 holds 1: stop. 16 stones.
    let (captured, text) = after("modiar 3,8,2/2,0,5 12/10 s 7", 2);
    assert_eq!(captured, 16);
    assert_eq!(text, "modiar 0,0,0/3,1,0 28/10 n 7");
}

#[test]
fn odd_counts_and_eight_are_not_captured() {
    // South hole 3 (2): S3 = 1, N1 = 8: last stone makes 8, not 2, 4 or 6.
    let (captured, _) = after("modiar 0,0,2/7,1,0 16/16 s 3", 3);
    assert_eq!(captured, 0);
    // ... and 3 is odd.
    let (captured, _) = after("modiar 0,0,2/2,2,2 16/18 s 3", 3);
    assert_eq!(captured, 0);
}

#[test]
fn single_stones_and_empty_holes_cannot_be_played() {
    let text = "modiar 1,0,5/3,3,2 14/14 s 4";
    assert!(illegal_reason(text, "1").contains("single stone"));
    assert!(illegal_reason(text, "2").contains("empty"));
    assert_eq!(pos(text).legal_moves().as_slice(), &[Move::hole(2)]);
}

#[test]
fn grand_slam_is_illegal() {
    // Hole 3 (2): S3 = 1, N1 = 2, captured, and North's row is then empty.
    let text = "modiar 1,4,2/1,0,0 18/16 s 9";
    assert!(illegal_reason(text, "3").contains("grand slam"));
    assert_eq!(pos(text).legal_moves().as_slice(), &[Move::hole(1)]);
    // When every movable hole would be a grand slam, there is no legal move: the game ends and
    // each player adds their own row (South 20 + 3, North 18 + 1).
    let p = pos("modiar 1,0,2/1,0,0 20/18 s 12");
    assert!(p.legal_moves().is_empty());
    let fin = p.final_result().unwrap();
    assert_eq!(
        (fin.south, fin.north, fin.reason),
        (23, 19, EndReason::NoMoves)
    );
    assert_eq!(fin.outcome, Outcome::Win(Side::South));
    assert!(illegal_reason("modiar 1,0,2/1,0,0 20/18 s 12", "3").contains("game is over"));
}

#[test]
fn an_empty_row_must_be_fed() {
    // North's row is empty. Hole 1 (2) captures South's own 2 on hole 2 and leaves North empty;
    // hole 3 (5) feeds North. Feeding is compulsory.
    let text = "modiar 2,1,5/0,0,0 18/16 s 20";
    assert!(illegal_reason(text, "1").contains("feeding"));
    assert_eq!(pos(text).legal_moves().as_slice(), &[Move::hole(2)]);
    // When no move can feed, any legal move goes: South's row is empty and North's hole 1 (3)
    // stays on North's side.
    let p = pos("modiar 0,0,0/3,1,0 28/10 n 7");
    assert_eq!(p.legal_moves().as_slice(), &[Move::hole(0)]);
    let (_, text) = after("modiar 0,0,0/3,1,0 28/10 n 7", 1);
    assert_eq!(text, "modiar 0,0,0/1,2,1 28/10 s 8");
    // Then South has no move: North keeps its 4.
    let fin = pos(&text).final_result().unwrap();
    assert_eq!((fin.south, fin.north), (28, 14));
}

#[test]
fn no_legal_move_ends_the_game_with_own_rows() {
    let p = pos("modiar 1,1,0/4,0,0 18/18 s 15");
    let fin = p.final_result().unwrap();
    assert_eq!((fin.south, fin.north), (20, 22));
    assert_eq!(fin.outcome, Outcome::Win(Side::North));
    let draw = pos("modiar 1,1,1/0,3,0 18/18 s 15").final_result().unwrap();
    assert_eq!(draw.outcome, Outcome::Draw);
    assert_eq!((draw.south, draw.north), (21, 21));
}

/// A sequence of capture-free moves from `p` back to `p` (depth-first, at most `depth` plies).
fn find_cycle(p: &Modiar, at: &Modiar, depth: usize, path: &mut Vec<Move>) -> bool {
    if !path.is_empty() && at.repetition_key() == p.repetition_key() {
        return true;
    }
    if path.len() == depth {
        return false;
    }
    for &mv in at.legal_moves().iter() {
        let mut next = *at;
        if next.play(mv).captured > 0 {
            continue;
        }
        path.push(mv);
        if find_cycle(p, &next, depth, path) {
            return true;
        }
        path.pop();
    }
    false
}

#[test]
fn third_repetition_ends_the_game_with_own_rows() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..10_000 {
        let start = random_position(&mut rng);
        let mut cycle = Vec::new();
        if !find_cycle(&start, &start, 8, &mut cycle) {
            continue;
        }
        let mut line = GameLine::new(start);
        for round in 0..2 {
            for (i, &mv) in cycle.iter().enumerate() {
                assert!(!line.is_over(), "over early in round {round} at {i}");
                line.play(mv).unwrap();
            }
        }
        // The start has now occurred three times.
        let fin = line.result().expect("third occurrence ends the game");
        assert_eq!(fin.reason, EndReason::Repetition);
        assert_eq!(line.position().repetition_key(), start.repetition_key());
        let rows = |s: Side| start.row(s).iter().map(|&x| x as u32).sum::<u32>();
        assert_eq!(fin.south, start.store(Side::South) + rows(Side::South));
        assert_eq!(fin.north, start.store(Side::North) + rows(Side::North));
        assert!(matches!(
            line.play(cycle[0]),
            Err(otau::games::IllegalMove::GameOver(_))
        ));
        return;
    }
    panic!("no capture-free cycle found");
}

// ---------------------------------------------------------------------------------------------
// Properties and differential checks

#[test]
fn random_games_conserve_stones_and_round_trip() {
    let mut rng = ChaCha8Rng::seed_from_u64(1);
    for game in 0..300 {
        let mut p = if game % 3 == 0 {
            Modiar::start(Variant::MODIAR)
        } else {
            random_position(&mut rng)
        };
        for _ in 0..150 {
            let text = p.to_string();
            let parsed = pos(&text);
            assert_eq!(parsed, p, "{text}");
            assert_eq!(parsed.hash(), p.hash());
            assert_eq!(
                p.board_stones() + p.store(Side::South) + p.store(Side::North),
                42,
                "{text}"
            );
            // Legal moves agree with the simple implementation, position by position.
            let simple = Simple::from(&p);
            let expected: Vec<(usize, Simple)> = simple.moves();
            let moves = p.legal_moves();
            assert_eq!(
                moves.iter().map(|m| m.index()).collect::<Vec<_>>(),
                expected.iter().map(|(h, _)| *h).collect::<Vec<_>>(),
                "{text}"
            );
            for (mv, (_, s)) in moves.iter().zip(&expected) {
                let mut child = p;
                let effect = child.play(*mv);
                assert_eq!(Simple::from(&child), *s, "{text} move {}", mv.index() + 1);
                assert_eq!(
                    effect.captured,
                    child.store(p.side_to_move()) - p.store(p.side_to_move())
                );
                assert!(p.parse_move(&(mv.index() + 1).to_string()).is_ok());
            }
            if moves.is_empty() {
                assert!(p.final_result().is_some());
                break;
            }
            assert!(p.final_result().is_none());
            p.play(moves[rng.gen_range(0..moves.len())]);
        }
    }
}

#[test]
fn undo_round_trips() {
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut line = GameLine::new(Modiar::start(Variant::MODIAR));
    let mut seen = vec![*line.position()];
    while !line.is_over() && seen.len() < 60 {
        let moves = line.position().legal_moves();
        line.play(moves[rng.gen_range(0..moves.len())]).unwrap();
        seen.push(*line.position());
    }
    while line.undo().is_some() {
        seen.pop();
        assert_eq!(line.position(), seen.last().unwrap());
    }
    assert!(line.position().is_first_move());
}

/// Perft from the start: the counts of this implementation, each confirmed by the simple one.
const START_PERFT: [u64; 12] = [
    3, 9, 26, 72, 187, 522, 1364, 3477, 8685, 21169, 51294, 122453,
];

#[test]
fn perft_from_the_start() {
    let start = Modiar::start(Variant::MODIAR);
    let simple = Simple::from(&start);
    for (d, &expected) in START_PERFT.iter().enumerate() {
        let depth = d as u32 + 1;
        assert_eq!(perft(&start, depth), expected, "depth {depth}");
        if depth <= 10 {
            assert_eq!(simple.perft(depth), expected, "simple, depth {depth}");
        }
    }
}

#[test]
fn perft_differential_over_random_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for _ in 0..200 {
        let p = random_position(&mut rng);
        let simple = Simple::from(&p);
        for depth in 1..=4 {
            assert_eq!(perft(&p, depth), simple.perft(depth), "{p} depth {depth}");
        }
    }
}
