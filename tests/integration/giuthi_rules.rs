//! Giuthi rules through the public API and position strings: hand-worked positions for every
//! clause of `protocol/rules-giuthi.md`, the start position of all 36 board sizes, property tests
//! over random playouts, perft, and a differential test against a deliberately plain second
//! implementation (`tests/support/reference/giuthi.rs`) written from the rules text alone.
//!
//! Board notation in the comments: South's holes S1..SN and North's holes N1..NN, each numbered
//! from its owner's left; anticlockwise runs S1 -> SN -> N1 -> NN -> S1. The hole opposite Si is
//! N(N+1-i).

use crate::support::reference;

use reference::giuthi as giuthi_ref;

use otau::games::notation::MoveError;
use otau::games::{AnyGame, EndReason, Game, GameLine, Giuthi, Move, Outcome, Side, Variant};
use otau::perft::perft;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn pos(text: &str) -> Giuthi {
    match AnyGame::from_position(text) {
        Ok(AnyGame::Giuthi(g)) => g,
        other => panic!("{text}: {other:?}"),
    }
}

fn names(p: &Giuthi) -> Vec<String> {
    p.legal_moves().iter().map(|&m| p.move_name(m)).collect()
}

/// Plays a move token (checked legal) and returns the effect.
fn play(p: &mut Giuthi, token: &str) -> otau::games::MoveEffect {
    let mv = p
        .parse_move(token)
        .unwrap_or_else(|e| panic!("{p}: {token}: {e}"));
    assert!(
        p.legal_moves().contains(mv),
        "{p}: {token} parsed but not generated"
    );
    p.play(mv)
}

// ---------------------------------------------------------------------------------------------
// Hand-worked positions
// ---------------------------------------------------------------------------------------------

#[test]
fn relay_of_four_laps_in_both_directions_ends_in_a_chain_capture() {
    // S = 2,1,0,0,0  N = 3,0,1,2,0. South plays S1 clockwise (2 seeds):
    //  lap 1 (c): N5 0->1, N4 2->3            N4 was occupied: relay
    //  lap 2 (a): lift N4 (3): N5 1->2, S1 0->1, S2 1->2      S2 occupied: relay
    //  lap 3 (c): lift S2 (2): S1 1->2, N5 2->3               N5 occupied: relay
    //  lap 4 (a): lift N5 (3): S1 2->3, S2 0->1, S3 0->1      S3 was empty: the move ends
    // S3 is South's, seeds went into North's row: capture N3 (1) and the landed seed (1); the
    // chain goes on anticlockwise: S4 empty, N2 empty (+0, the chain continues), S5 empty,
    // N1 = 3 (+3), end of the row. Captured 5.
    let mut p = pos("giuthi-5x4 2,1,0,0,0/3,0,1,2,0 16/15 s 7");
    let e = play(&mut p, "1c");
    assert_eq!(e.captured, 5);
    assert_eq!(e.last, 2, "last seed on S3 (ring place 2)");
    assert!(!e.extra_move);
    assert_eq!(p.to_string(), "giuthi-5x4 3,1,0,0,0/0,0,0,0,0 21/15 n 7");
    // North has no seed left, South has a hole of 3: North's only move is the forced pass.
    assert_eq!(names(&p), ["pass"]);
}

#[test]
fn last_seed_on_own_side_with_an_empty_opposite_hole_captures_nothing() {
    // Same relay as above with N3 empty: it ends on S3 (after crossing), N3 holds nothing, so
    // nothing is captured (no chain either) and the turn passes.
    let mut p = pos("giuthi-5x4 2,1,0,0,0/3,0,0,2,0 17/15 s 7");
    let e = play(&mut p, "1c");
    assert_eq!((e.captured, e.extra_move, e.last), (0, false, 2));
    assert_eq!(p.to_string(), "giuthi-5x4 3,1,1,0,0/3,0,0,0,0 17/15 n 7");
}

#[test]
fn clockwise_chain_crosses_an_empty_opposite_hole_to_the_end_of_the_row() {
    // S = 0,0,0,0,2  N = 2,3,2,0,1. South plays S5 anticlockwise:
    //  lap 1 (a): N1 2->3, N2 3->4                     N2 occupied: relay
    //  lap 2 (c): lift N2 (4): N1 3->4, S5 0->1, S4 0->1, S3 0->1   S3 was empty: end
    // Crossed, S3's opposite N3 holds 2: capture 2 + 1. Chain clockwise: S2 empty, N4 empty (+0),
    // S1 empty, N5 = 1 (+1), end of the row. Captured 4.
    let mut p = pos("giuthi-5x4 0,0,0,0,2/2,3,2,0,1 15/15 s 20");
    let e = play(&mut p, "5a");
    assert_eq!((e.captured, e.extra_move, e.last), (4, false, 2));
    assert_eq!(p.to_string(), "giuthi-5x4 0,0,0,1,1/4,0,0,0,0 19/15 n 20");
}

#[test]
fn chain_stops_at_the_first_own_hole_that_is_not_empty() {
    // As above with one seed in S1: the chain takes N4 (+0) past the empty S2, then stops at S1,
    // so N5's seed stays.
    let mut p = pos("giuthi-5x4 1,0,0,0,2/2,3,2,0,1 15/14 s 20");
    let e = play(&mut p, "5a");
    assert_eq!(e.captured, 3);
    assert_eq!(p.to_string(), "giuthi-5x4 1,0,0,1,1/4,0,0,0,1 18/14 n 20");
}

#[test]
fn north_captures_along_its_own_row() {
    // The mirror image of the clockwise chain, played by North: N5 anticlockwise runs into S1,
    // S2, relays back clockwise into N5, N4, N3; captures S3 (2) + 1, chain N2 (S4 empty, +0),
    // N1 (S5 = 1). Turn passes to South and the full-move number grows after North's move.
    let mut p = pos("giuthi-5x4 2,3,2,0,1/0,0,0,0,2 15/15 n 20");
    let e = play(&mut p, "5a");
    assert_eq!((e.captured, e.last), (4, 7));
    assert_eq!(p.to_string(), "giuthi-5x4 4,0,0,0,0/0,0,0,1,1 15/19 s 21");
}

#[test]
fn landing_on_the_opponents_side_passes_the_turn_without_capture() {
    // S5 anticlockwise (3 seeds): N1 1->2, N2 0->1, N3 0->1. N3 was empty and is North's.
    let mut p = pos("giuthi-5x4 0,0,0,0,3/1,0,0,0,0 18/18 s 13");
    let e = play(&mut p, "5a");
    assert_eq!((e.captured, e.extra_move, e.last), (0, false, 7));
    assert_eq!(p.to_string(), "giuthi-5x4 0,0,0,0,0/2,1,1,0,0 18/18 n 13");
}

#[test]
fn extra_move_keeps_the_side_and_the_full_move_number() {
    // North N1 anticlockwise (2): N2 1->2, N3 1->2 (occupied: relay), lift N3 (2) clockwise:
    // N2 2->3, N1 0->1. N1 was empty, on North's side, and no seed left North's row: North
    // moves again, and the full-move number stays.
    let mut p = pos("giuthi-5x4 0,0,0,0,0/2,1,1,0,0 18/18 n 13");
    let e = play(&mut p, "1a");
    assert!(e.extra_move);
    assert_eq!((e.captured, e.last), (0, 5));
    assert_eq!(p.to_string(), "giuthi-5x4 0,0,0,0,0/1,3,0,0,0 18/18 n 13");
    assert_eq!(p.side_to_move(), Side::North);
    // The next North move is an ordinary one: N2 clockwise (3): N1 1->2, S5 0->1, S4 0->1.
    let e = play(&mut p, "2c");
    assert!(!e.extra_move);
    assert_eq!(p.to_string(), "giuthi-5x4 0,0,0,1,1/2,0,0,0,0 18/18 s 14");
}

#[test]
fn extra_move_is_not_a_capture_even_with_seeds_opposite() {
    // S1 anticlockwise (2): S2 0->1, S3 0->1: ends on South's side without crossing, so N3's 4
    // seeds stay: an extra move. South then has no hole of two while North has one: the extra
    // move is a forced pass, and South's pass keeps the full-move number.
    let mut p = pos("giuthi-5x4 2,0,0,0,0/0,0,4,0,0 17/17 s 3");
    let e = play(&mut p, "1a");
    assert_eq!((e.captured, e.extra_move), (0, true));
    assert_eq!(p.to_string(), "giuthi-5x4 0,1,1,0,0/0,0,4,0,0 17/17 s 3");
    assert_eq!(names(&p), ["pass"]);
    play(&mut p, "pass");
    assert_eq!(p.to_string(), "giuthi-5x4 0,1,1,0,0/0,0,4,0,0 17/17 n 3");
}

#[test]
fn forced_pass_and_resumption() {
    let mut p = pos("giuthi-5x4 0,0,0,0,3/1,0,0,0,0 18/18 n 12");
    assert_eq!(names(&p), ["pass"]);
    assert!(p.final_result().is_none());
    assert!(matches!(p.parse_move("1a"), Err(MoveError::Illegal { .. })));
    let e = play(&mut p, "PASS");
    assert_eq!(e, otau::games::MoveEffect::default());
    // North passed: South to move, next full move.
    assert_eq!(p.to_string(), "giuthi-5x4 0,0,0,0,3/1,0,0,0,0 18/18 s 13");
    let err = p.parse_move("pass").unwrap_err();
    assert!(matches!(err, MoveError::Illegal { .. }), "{err}");
    assert_eq!(names(&p), ["5a", "5c"]);
    // S5 anticlockwise gives North a hole of two: North plays again normally.
    play(&mut p, "5a");
    assert_eq!(names(&p), ["1a", "1c"]);
}

#[test]
fn game_ends_when_neither_side_has_a_hole_of_two() {
    // S5 clockwise (3): S4, S3, S2 get one each; S2 was empty and no seed crossed: an extra move,
    // but now no hole anywhere holds two seeds. South scores 18 + 3, North 18 + 1.
    let mut p = pos("giuthi-5x4 0,0,0,0,3/1,0,0,0,0 18/18 s 13");
    let e = play(&mut p, "5c");
    assert!(e.extra_move);
    assert_eq!(p.to_string(), "giuthi-5x4 0,1,1,1,0/1,0,0,0,0 18/18 s 13");
    assert!(p.legal_moves().is_empty());
    let fin = p.final_result().unwrap();
    assert_eq!(
        (fin.outcome, fin.south, fin.north, fin.reason),
        (Outcome::Win(Side::South), 21, 19, EndReason::Blocked)
    );
    assert!(matches!(p.parse_move("2a"), Err(MoveError::Illegal { .. })));
    assert!(matches!(
        p.parse_move("pass"),
        Err(MoveError::Illegal { .. })
    ));
    // Equal totals are a draw; one-seed holes never move.
    let p = pos("giuthi-5x4 1,0,0,0,0/0,0,0,0,1 19/19 n 40");
    let fin = p.final_result().unwrap();
    assert_eq!((fin.outcome, fin.south, fin.north), (Outcome::Draw, 20, 20));
}

#[test]
fn second_occurrence_of_holes_and_side_is_a_draw() {
    // S = 3,1,0,0,1  N = 1,0,1,0,0.
    // South S1 clockwise (3): N5, N4 0->1, N3 1->2 (relay); lift N3 (2) anticlockwise: N4 1->2,
    // N5 1->2 (relay); lift N5 (2) clockwise: N4 2->3, N3 0->1: ends on North's side.
    // North N4 anticlockwise (3): N5 0->1, S1 0->1, S2 1->2 (relay); lift S2 (2) clockwise:
    // S1 1->2, N5 1->2 (relay); lift N5 (2) anticlockwise: S1 2->3, S2 0->1: ends on South's side.
    // The holes and the side to move are those of the start: the game ends in a draw.
    let start = pos("giuthi-5x4 3,1,0,0,1/1,0,1,0,0 16/17 s 1");
    let mut line = GameLine::new(start);
    line.play_token("1c").unwrap();
    assert_eq!(
        line.position().to_string(),
        "giuthi-5x4 0,1,0,0,1/1,0,1,3,0 16/17 n 1"
    );
    assert!(!line.is_over());
    line.play_token("4a").unwrap();
    assert_eq!(
        line.position().to_string(),
        "giuthi-5x4 3,1,0,0,1/1,0,1,0,0 16/17 s 2"
    );
    assert!(
        line.position().final_result().is_none(),
        "not over by the position alone"
    );
    let fin = line.result().expect("repetition ends the game");
    assert_eq!(
        (fin.outcome, fin.reason, fin.south, fin.north),
        (Outcome::Draw, EndReason::Repetition, 16, 17)
    );
    assert!(line.play_token("1c").is_err());
    // Undo reopens the game.
    line.undo();
    assert!(!line.is_over());
}

#[test]
fn repetition_compares_holes_and_side_only() {
    let a = pos("giuthi-5x4 3,1,0,0,1/1,0,1,0,0 16/17 s 1");
    let b = pos("giuthi-5x4 3,1,0,0,1/1,0,1,0,0 17/16 s 9");
    let c = pos("giuthi-5x4 3,1,0,0,1/1,0,1,0,0 16/17 n 1");
    assert_eq!(a.repetition_key(), b.repetition_key());
    assert_ne!(a.hash(), b.hash(), "the piles are part of the full hash");
    assert_ne!(a.repetition_key(), c.repetition_key());
    assert_ne!(a.hash(), c.hash());
    assert_eq!(a.repetition_limit(), 2);
}

/// The relay of N4 clockwise here returns to its own starting state after 100 laps. Found by an
/// exhaustive search of every board of 2..20 seeds on 5 holes a row, every hole and direction:
/// only 16-seed boards have non-ending sowings (200 of them); 6 holes a row with up to 16 seeds
/// have none. Laps (c = clockwise, a = anticlockwise):
///  lap 1 (c): N3 1->2, N2 8->9 (relay); lap 2 (a): lift N2 (9): N3..N5, S1..S5, N1 ... and so on
/// until the 100th lap leaves the board as it was with N4 about to be lifted clockwise again.
const NON_ENDING: &str = "giuthi-5x4 0,0,0,0,0/2,8,1,2,3 12/12 n 10";

#[test]
fn a_move_that_never_ends_is_not_legal() {
    let p = pos(NON_ENDING);
    let legal = names(&p);
    // N3 holds a single seed; every other sowing of North's ends.
    assert_eq!(legal, ["1a", "1c", "2a", "2c", "4a", "5a", "5c"]);
    let plain = giuthi_ref::Pos::parse(NON_ENDING);
    assert_eq!(legal, plain.legal(), "the plain implementation agrees");
    assert_eq!(
        plain.cycle("4c"),
        Some((0, 100)),
        "no lead-in, 100 laps a cycle"
    );
    let err = p.parse_move("4c").unwrap_err();
    assert!(
        matches!(&err, MoveError::Illegal { why, .. } if why.contains("never ends")),
        "{err}"
    );
    // The same board in the other 5-hole sizes (piles absorb the rest) has the same cycle.
    for seeds in 5..=9 {
        let rest = 10 * seeds - 16;
        let text = format!(
            "giuthi-5x{seeds} 0,0,0,0,0/2,8,1,2,3 {}/{} n 10",
            rest / 2,
            rest - rest / 2
        );
        assert!(!names(&pos(&text)).contains(&"4c".to_string()), "{text}");
    }
    // Seen from South's side (the rows swapped), it is South's S4 clockwise.
    let p = pos("giuthi-5x4 2,8,1,2,3/0,0,0,0,0 12/12 s 10");
    assert!(!names(&p).contains(&"4c".to_string()));
    assert!(p.parse_move("4c").is_err());
}

#[test]
fn long_relays_that_end_are_legal() {
    // The longest relays met in thousands of random games: 101 and 111 laps, beyond the lap
    // where the engine starts looking for a repeated state, so the cycle search runs and must not
    // mistake them for non-ending moves.
    for (text, name, laps) in [
        (
            "giuthi 13,13,25,5,3,2,5,11/1,1,4,12,1,7,11,5 2/7 n 6",
            "6a",
            101,
        ),
        (
            "giuthi-10x9 17,3,7,16,16,16,5,4,7,17/5,18,4,19,0,0,1,7,15,1 0/2 n 2",
            "8c",
            111,
        ),
    ] {
        assert_eq!(
            giuthi_ref::Pos::parse(text).laps(name),
            Some(laps),
            "{text} {name}"
        );
        assert!(
            names(&pos(text)).contains(&name.to_string()),
            "{text} {name}"
        );
        reference::compare_giuthi(text);
    }
}

// ---------------------------------------------------------------------------------------------
// Start positions and notation
// ---------------------------------------------------------------------------------------------

#[test]
fn every_board_size_starts_right() {
    let mut sizes = 0;
    for holes in 5..=10u8 {
        for seeds in 4..=9u8 {
            sizes += 1;
            let variant = Variant::Giuthi { holes, seeds };
            let id = if (holes, seeds) == (8, 8) {
                "giuthi".to_string()
            } else {
                format!("giuthi-{holes}x{seeds}")
            };
            let row = vec![seeds.to_string(); holes as usize].join(",");
            let text = format!("{id} {row}/{row} 0/0 s 1");
            let start = Giuthi::start(variant);
            assert_eq!(start.to_string(), text);
            assert_eq!(pos(&text), start);
            assert_eq!(AnyGame::start(variant).to_string(), text);
            assert_eq!(start.variant(), variant);
            assert_eq!(start.board_stones(), variant.total_stones());
            assert!(start.final_result().is_none());
            let expected: Vec<String> = (1..=holes)
                .flat_map(|h| [format!("{h}a"), format!("{h}c")])
                .collect();
            assert_eq!(names(&start), expected, "{id}");
            assert_eq!(
                names(&start),
                giuthi_ref::Pos::parse(&text).legal(),
                "{id}: every first move's relay ends"
            );
        }
    }
    assert_eq!(sizes, 36);
    assert_eq!(
        Giuthi::start(Variant::GIUTHI).to_string(),
        "giuthi 8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8 0/0 s 1"
    );
}

#[test]
fn opening_move_of_the_standard_board() {
    // 1a from the start: S2..S8 and N1 get one seed each; N1 (8) was occupied: relay back
    // clockwise from N1 with 9 seeds, and so on. Checked against the plain implementation.
    let start = Giuthi::start(Variant::GIUTHI);
    for mv in start.legal_moves().iter() {
        let name = start.move_name(*mv);
        let mut ours = start;
        let effect = ours.play(*mv);
        let theirs = giuthi_ref::Pos::parse(&start.to_string()).play(&name);
        assert_eq!(ours.to_string(), theirs.pos.to_text(), "{name}");
        assert_eq!(effect.captured, theirs.captured, "{name}");
    }
}

#[test]
fn move_tokens() {
    let p = Giuthi::start(Variant::GIUTHI);
    let a = Move::directed(2, otau::games::Direction::Anticlockwise);
    let c = Move::directed(7, otau::games::Direction::Clockwise);
    assert_eq!(p.parse_move("3a"), Ok(a));
    assert_eq!(p.parse_move("3A"), Ok(a));
    assert_eq!(p.parse_move("8c"), Ok(c));
    assert_eq!(p.parse_move("8C"), Ok(c));
    assert_eq!(p.move_name(a), "3a");
    assert_eq!(p.move_name(c), "8c");
    assert_eq!(p.move_name(Move::PASS), "pass");
    for mv in p.legal_moves().iter() {
        assert_eq!(p.parse_move(&p.move_name(*mv)), Ok(*mv));
    }
    for bad in [
        "", "a", "c", "3", "3x", "3ac", "3 a", " 3a", "0a", "08c", "9a", "10c", "-3a", "+3a",
        "pas", "passs", "3a;", "٣a",
    ] {
        let err = p.parse_move(bad).unwrap_err();
        assert!(matches!(err, MoveError::Malformed { .. }), "{bad:?}: {err}");
    }
    let err = p.parse_move("3").unwrap_err().to_string();
    assert!(err.contains("3a") && err.contains("3c"), "{err}");
    let err = p.parse_move("9a").unwrap_err().to_string();
    assert!(err.contains("1..8"), "{err}");
    // Legal shape, illegal here.
    for (text, token) in [
        ("giuthi 8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8 0/0 s 1", "pass"),
        ("giuthi 1,0,8,8,8,8,8,8/8,8,8,8,8,8,8,23 0/0 s 1", "1a"),
        ("giuthi 1,0,8,8,8,8,8,8/8,8,8,8,8,8,8,23 0/0 s 1", "2c"),
        ("giuthi 1,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0 63/63 s 30", "1a"),
    ] {
        let err = pos(text).parse_move(token).unwrap_err();
        assert!(
            matches!(err, MoveError::Illegal { .. }),
            "{text} {token}: {err}"
        );
    }
    let err = pos("giuthi 1,0,0,0,0,0,0,0/1,0,0,0,0,0,0,0 63/63 s 30")
        .parse_move("1a")
        .unwrap_err()
        .to_string();
    assert!(err.contains("over"), "{err}");
    let err = pos("giuthi 1,0,8,8,8,8,8,8/8,8,8,8,8,8,8,23 0/0 s 1")
        .parse_move("1a")
        .unwrap_err()
        .to_string();
    assert!(err.contains("holds 1 seed"), "{err}");
}

#[test]
fn position_strings_are_checked() {
    let cases = [
        (
            "giuthi 8,8,8,8,8,8,8,8/8,8,8,8,8,8,8 0/0 s 1",
            "north holes",
        ),
        (
            "giuthi 8,8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8 0/0 s 1",
            "south holes",
        ),
        ("giuthi 8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8 1/0 s 1", "stones"),
        ("giuthi 8,8,8,8,8,8,8,7/8,8,8,8,8,8,8,8 0/0 s 1", "stones"),
        (
            "giuthi 8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8 0/0 -/- s 1",
            "position",
        ),
        (
            "giuthi 8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8 0/0 x 1",
            "side to move",
        ),
        (
            "giuthi 8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8 0/0 s 0",
            "full-move number",
        ),
        ("giuthi-4x8 8,8,8,8/8,8,8,8 0/0 s 1", "game id"),
        ("giuthi-5x4 4,4,4,4,4/4,4,4,4,4 0/0/0 s 1", "stores"),
        ("giuthi-5x4 300,4,4,4,4/4,4,4,4,4 0/0 s 1", "south holes"),
    ];
    for (text, field) in cases {
        let err = AnyGame::from_position(text).unwrap_err();
        assert_eq!(err.field, field, "{text}: {err}");
    }
    // Case-insensitive id and side letter; the canonical form is written back.
    let p = AnyGame::from_position("GIUTHI-6X4 4,4,4,4,4,4/4,4,4,4,4,4 0/0 N 3").unwrap();
    assert_eq!(p.to_string(), "giuthi-6x4 4,4,4,4,4,4/4,4,4,4,4,4 0/0 n 3");
    // Everything in the piles, nothing on the board: a finished game, still a valid position.
    let p = pos("giuthi-5x4 0,0,0,0,0/0,0,0,0,0 25/15 s 30");
    assert_eq!(p.final_result().unwrap().outcome, Outcome::Win(Side::South));
}

// ---------------------------------------------------------------------------------------------
// Perft
// ---------------------------------------------------------------------------------------------

/// Values from this implementation, confirmed by the plain one (see `perft_matches_reference`).
/// Extra moves and passes are plies.
const PERFT: &[(&str, &[u64])] = &[
    ("giuthi", &[16, 220, 2736, 32016, 369684]),
    ("giuthi-6x4", &[12, 112, 840, 5850, 38564, 249218]),
    ("giuthi-10x9", &[20, 356, 5588, 84420]),
];

#[test]
fn perft_from_the_start() {
    for &(id, counts) in PERFT {
        let start = AnyGame::start(id.parse().unwrap());
        for (depth, &expected) in counts.iter().enumerate() {
            let got = otau::with_game!(&start, g => perft(g, depth as u32 + 1));
            assert_eq!(got, expected, "{id} depth {}", depth + 1);
        }
    }
}

#[test]
fn perft_matches_reference() {
    for &(id, counts) in PERFT {
        let text = AnyGame::start(id.parse().unwrap()).to_string();
        let start = giuthi_ref::Pos::parse(&text);
        let depth = counts.len().min(4);
        assert_eq!(
            start.perft(depth as u32),
            counts[depth - 1],
            "{id} depth {depth}"
        );
    }
}

#[test]
fn perft_from_middle_game_positions_matches_reference() {
    let mut rng = ChaCha8Rng::seed_from_u64(11);
    for round in 0..12 {
        let variant = reference::random_giuthi_variant(&mut rng);
        let mut p = Giuthi::start(variant);
        let plies = rng.gen_range(4..40);
        for _ in 0..plies {
            let moves = p.legal_moves();
            if moves.is_empty() {
                break;
            }
            p.play(moves[rng.gen_range(0..moves.len())]);
        }
        let depth = if round % 3 == 0 { 4 } else { 3 };
        let text = p.to_string();
        assert_eq!(
            perft(&p, depth),
            giuthi_ref::Pos::parse(&text).perft(depth),
            "{text} depth {depth}"
        );
    }
}

// ---------------------------------------------------------------------------------------------
// Properties over random playouts
// ---------------------------------------------------------------------------------------------

#[test]
fn random_playouts_keep_every_invariant() {
    let mut rng = ChaCha8Rng::seed_from_u64(2024);
    let mut endings = [0usize; 2];
    for game in 0..300 {
        let variant = if game % 3 == 0 {
            Variant::GIUTHI
        } else {
            reference::random_giuthi_variant(&mut rng)
        };
        let total = variant.total_stones();
        let mut line = GameLine::new(Giuthi::start(variant));
        let mut plies = 0;
        while !line.is_over() {
            let p = *line.position();
            let text = p.to_string();
            let back = pos(&text);
            assert_eq!(back, p, "{text} round-trips");
            assert_eq!(back.hash(), p.hash());
            assert_eq!(back.repetition_key(), p.repetition_key());
            assert_eq!(
                p.board_stones() + p.store(Side::South) + p.store(Side::North),
                total,
                "{text}: seeds conserved"
            );
            let moves = p.legal_moves();
            assert!(!moves.is_empty(), "{text}: not over, so something to play");
            assert!(p.final_result().is_none());
            for &mv in moves.iter() {
                assert_eq!(p.parse_move(&p.move_name(mv)), Ok(mv), "{text}");
            }
            let mv = moves[rng.gen_range(0..moves.len())];
            let me = p.side_to_move();
            let effect = line.play(mv).unwrap();
            let after = line.position();
            assert_eq!(
                after.store(me),
                p.store(me) + effect.captured,
                "{text} {}",
                p.move_name(mv)
            );
            assert_eq!(after.store(me.other()), p.store(me.other()));
            let expected_side = if effect.extra_move { me } else { me.other() };
            assert_eq!(after.side_to_move(), expected_side);
            let expected_fullmove = p.fullmove() + (me == Side::North && !effect.extra_move) as u32;
            assert_eq!(after.fullmove(), expected_fullmove);
            if mv.is_pass() {
                assert!(
                    p.row(me).iter().all(|&x| x < 2),
                    "{text}: pass only when forced"
                );
            }
            plies += 1;
            assert!(plies < 100_000, "{text}: the game does not end");
        }
        let fin = line.result().unwrap();
        let expected = match fin.reason {
            EndReason::Repetition => Outcome::Draw,
            _ => Outcome::by_totals(fin.south, fin.north),
        };
        assert_eq!(fin.outcome, expected);
        let last = line.position();
        match fin.reason {
            EndReason::Blocked => {
                endings[0] += 1;
                assert!(Side::BOTH
                    .iter()
                    .all(|&s| last.row(s).iter().all(|&x| x < 2)));
                assert_eq!(fin.south + fin.north, total);
            }
            EndReason::Repetition => {
                endings[1] += 1;
                let key = last.repetition_key();
                assert_eq!(line.keys().iter().filter(|&&k| k == key).count(), 2);
                assert_eq!(fin.outcome, Outcome::Draw);
            }
            other => panic!("unexpected end {other:?}"),
        }
        // Replaying the recorded moves by name gives the same game.
        let mut replay = GameLine::new(*line.start());
        for &mv in line.moves() {
            let name = replay.position().move_name(mv);
            replay.play_token(&name).unwrap();
        }
        assert_eq!(replay.position(), line.position());
        assert_eq!(replay.result(), line.result());
    }
    assert!(
        endings[0] > 0 && endings[1] > 0,
        "both endings seen: {endings:?}"
    );
}

// ---------------------------------------------------------------------------------------------
// Differential test against the plain implementation
// ---------------------------------------------------------------------------------------------

#[test]
fn differential_random_positions() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    for _ in 0..4000 {
        reference::compare_giuthi(&reference::random_giuthi_position(&mut rng));
    }
}

#[test]
fn differential_positions_from_random_games() {
    let mut rng = ChaCha8Rng::seed_from_u64(99);
    let mut positions = 0;
    for _ in 0..150 {
        let mut p = Giuthi::start(reference::random_giuthi_variant(&mut rng));
        loop {
            reference::compare_giuthi(&p.to_string());
            positions += 1;
            let moves = p.legal_moves();
            if moves.is_empty() || positions % 400 == 0 {
                break;
            }
            p.play(moves[rng.gen_range(0..moves.len())]);
        }
    }
    assert!(positions > 2000);
}

#[test]
fn differential_non_ending_boards() {
    // Every 5-hole board of the cycle family above, in every rotation and reflection, with either
    // side to move: the two implementations agree on which moves never end.
    let boards: [[u32; 10]; 5] = [
        [0, 0, 0, 0, 0, 2, 8, 1, 2, 3],
        [0, 0, 0, 0, 0, 2, 9, 2, 0, 3],
        [0, 0, 0, 0, 0, 3, 0, 2, 9, 2],
        [0, 0, 0, 0, 0, 3, 2, 1, 8, 2],
        [0, 0, 0, 0, 2, 8, 1, 2, 3, 0],
    ];
    let mut non_ending = 0;
    for board in boards {
        for shift in 0..10 {
            for mirror in [false, true] {
                let mut b = [0u32; 10];
                for (i, &x) in board.iter().enumerate() {
                    let j = (i + shift) % 10;
                    b[if mirror { 9 - j } else { j }] = x;
                }
                for side in ['s', 'n'] {
                    let text = format!(
                        "giuthi-5x4 {}/{} 12/12 {side} 4",
                        reference::row_text(&b[..5]),
                        reference::row_text(&b[5..])
                    );
                    non_ending += reference::compare_giuthi(&text);
                }
            }
        }
    }
    assert!(non_ending >= 20, "found {non_ending} non-ending moves");
}
