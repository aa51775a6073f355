//! Toguz Kumalak family: perft, properties over random playouts, and a differential test against
//! a deliberately plain second implementation written from `protocol/rules-toguz-kumalak.md`.

use crate::support::reference;

use reference::toguz::Plain;

use otau::games::{AnyGame, Game, GameLine, Move, Side, Variant};
use otau::perft::perft;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

#[test]
fn perft_from_the_start() {
    // Confirmed by two independent implementations (issue 2).
    let expected = [9u64, 73, 613, 5199, 43184, 360035, 3003052];
    let start = AnyGame::start(Variant::TOGUZ);
    for (depth, &count) in expected.iter().enumerate() {
        assert_eq!(
            perft(&start, depth as u32 + 1),
            count,
            "depth {}",
            depth + 1
        );
    }
}

#[test]
fn perft_smaller_boards_match_the_reference() {
    for variant in [Variant::TOGUZ7, Variant::BESTEMSHE] {
        let start = AnyGame::start(variant);
        let reference = Plain::start(variant.holes());
        for depth in 1..=6 {
            assert_eq!(
                perft(&start, depth),
                reference.perft(depth),
                "{variant} depth {depth}"
            );
        }
    }
}

/// Random playouts of every Toguz variant: the fast rules agree with the plain ones move by move,
/// stones are conserved, position strings round-trip, and the hash is a function of the position.
#[test]
fn random_playouts_agree_with_the_plain_rules() {
    let mut rng = ChaCha8Rng::seed_from_u64(2);
    let mut checked = 0;
    for variant in [Variant::TOGUZ, Variant::TOGUZ7, Variant::BESTEMSHE] {
        for _ in 0..300 {
            let mut line = GameLine::new(AnyGame::start(variant));
            let mut plain = Plain::start(variant.holes());
            while !line.is_over() {
                let pos = line.position().clone();
                let moves: Vec<usize> = pos.legal_moves().iter().map(|m| m.index()).collect();
                assert_eq!(moves, plain.moves(), "{pos}");
                // Perft's bulk count of the last ply agrees with the listed moves.
                assert_eq!(pos.move_count(), moves.len(), "{pos}");
                let text = pos.to_string();
                let reparsed = AnyGame::from_position(&text).unwrap();
                assert_eq!(reparsed, pos);
                assert_eq!(reparsed.hash(), pos.hash());
                assert_eq!(
                    pos.board_stones() + pos.store(Side::South) + pos.store(Side::North),
                    variant.total_stones()
                );
                let hole = moves[rng.gen_range(0..moves.len())];
                line.play(Move::hole(hole)).unwrap();
                plain.play(hole);
                let now = Plain::from(line.position());
                assert_eq!(
                    (now.holes.clone(), now.stores, now.tuzdik),
                    (plain.holes.clone(), plain.stores, plain.tuzdik)
                );
                checked += 1;
            }
            let fin = line.result().unwrap();
            if fin.reason != otau::games::EndReason::Repetition {
                assert!(plain.over());
            }
        }
    }
    assert!(checked > 50_000, "{checked}");
}

#[test]
fn hashes_separate_positions() {
    // Distinct positions of random games get distinct hashes (no collisions in ~100k).
    let mut rng = ChaCha8Rng::seed_from_u64(3);
    let mut seen = std::collections::HashMap::new();
    for _ in 0..1000 {
        let mut pos = AnyGame::start(Variant::TOGUZ);
        while pos.final_result().is_none() {
            let text = pos.to_string();
            let key = text.rsplit_once(' ').unwrap().0.to_string(); // full-move number aside
            if let Some(other) = seen.insert(pos.hash(), key.clone()) {
                assert_eq!(other, key, "hash collision");
            }
            let moves = pos.legal_moves();
            pos.play(moves[rng.gen_range(0..moves.len())]);
        }
    }
}

#[test]
fn third_repetition_is_a_draw() {
    // Lone stones chase each other round the ring; some random playouts recur without a capture.
    // Such a game ends as a draw on the third occurrence of a position, never before.
    let start =
        AnyGame::from_position("toguz-kumalak 1,0,0,0,1,0,0,0,0/1,0,0,0,1,0,0,0,0 79/79 -/- s 10")
            .unwrap();
    let mut rng = ChaCha8Rng::seed_from_u64(4);
    let mut repetitions = 0;
    for _ in 0..200 {
        let mut line = GameLine::new(start.clone());
        while !line.is_over() {
            let moves = line.position().legal_moves();
            line.play(moves[rng.gen_range(0..moves.len())]).unwrap();
        }
        let keys = line.keys();
        for end in 1..keys.len() {
            let k = keys[end - 1];
            assert!(
                keys[..end - 1].iter().filter(|&&x| x == k).count() < 2,
                "a third occurrence was missed"
            );
        }
        let fin = line.result().unwrap();
        if fin.reason == otau::games::EndReason::Repetition {
            repetitions += 1;
            assert_eq!(fin.outcome, otau::games::Outcome::Draw);
            let last = *keys.last().unwrap();
            assert_eq!(keys.iter().filter(|&&k| k == last).count(), 3);
        }
    }
    assert!(repetitions > 0, "no playout repeated");
}
