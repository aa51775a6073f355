//! Differential test of every game: the fast rules against the plain second implementations of
//! `tests/support/reference/` (written from `protocol/` alone), on positions from random games and on
//! random positions. For each position the two must agree on the legal moves, the end and its
//! totals, and the position every legal move leads to.
//!
//! `OTAU_DIFF_POSITIONS` sets the positions per game (default 5,000, a CI-sized run);
//! `scripts/diff-test.sh` runs it with 100,000 and more in release mode.

use crate::support::reference;

use otau::games::{AnyGame, Game, GameLine, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn positions_per_game() -> usize {
    std::env::var("OTAU_DIFF_POSITIONS")
        .ok()
        .and_then(|s| s.replace('_', "").parse().ok())
        .unwrap_or(5_000)
}

fn seed(salt: u64) -> ChaCha8Rng {
    let base = std::env::var("OTAU_DIFF_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(0xd1ff);
    ChaCha8Rng::seed_from_u64(base ^ salt)
}

/// Runs `compare` on `budget` positions: half along random games played from the start of the
/// boards `variants` (through [`GameLine`], so repetition ends games as it does in play), half
/// from `random`. Returns (positions, moves compared).
fn run(
    rng: &mut ChaCha8Rng,
    budget: usize,
    variants: &[Variant],
    mut random: impl FnMut(&mut ChaCha8Rng) -> AnyGame,
    mut compare: impl FnMut(&AnyGame) -> usize,
) -> (usize, usize) {
    let mut positions = 0;
    let mut moves = 0;
    while positions < budget / 2 {
        let variant = variants[rng.gen_range(0..variants.len())];
        let mut line = GameLine::new(AnyGame::start(variant));
        while positions < budget / 2 {
            moves += compare(line.position());
            positions += 1;
            if line.is_over() {
                break;
            }
            let legal = line.position().legal_moves();
            line.play(legal[rng.gen_range(0..legal.len())]).unwrap();
        }
    }
    while positions < budget {
        moves += compare(&random(rng));
        positions += 1;
    }
    (positions, moves)
}

#[test]
fn toguz_kumalak_agrees_with_the_plain_rules() {
    let budget = positions_per_game();
    let mut rng = seed(1);
    let boards = [Variant::TOGUZ, Variant::TOGUZ7, Variant::BESTEMSHE];
    let (positions, moves) = run(
        &mut rng,
        budget,
        &boards,
        |rng| {
            let variant = boards[rng.gen_range(0..boards.len())];
            reference::random_toguz_position(rng, variant)
        },
        reference::compare_toguz,
    );
    eprintln!("toguz-kumalak (9, 7, 5 holes): {positions} positions, {moves} moves agree");
    assert!(positions >= budget && moves > positions);
}

#[test]
fn giuthi_agrees_with_the_plain_rules() {
    let budget = positions_per_game();
    let mut rng = seed(2);
    // The standard board and every other size.
    let mut boards = vec![Variant::GIUTHI; 35];
    boards.extend(
        Variant::all()
            .into_iter()
            .filter(|v| matches!(v, Variant::Giuthi { .. })),
    );
    let (positions, moves) = run(
        &mut rng,
        budget,
        &boards,
        |rng| AnyGame::from_position(&reference::random_giuthi_position(rng)).unwrap(),
        |pos| {
            reference::compare_giuthi(&pos.to_string());
            pos.legal_moves().len()
        },
    );
    eprintln!("giuthi (all 36 boards): {positions} positions, {moves} moves agree");
    assert!(positions >= budget && moves > positions / 2);
}

#[test]
fn modiar_agrees_with_the_plain_rules() {
    let budget = positions_per_game();
    let mut rng = seed(3);
    let (positions, moves) = run(
        &mut rng,
        budget,
        &[Variant::MODIAR],
        |rng| AnyGame::Modiar(reference::random_modiar_position(rng)),
        |pos| match pos {
            AnyGame::Modiar(m) => reference::compare_modiar(m),
            other => panic!("{other}"),
        },
    );
    eprintln!("modiar: {positions} positions, {moves} moves agree");
    assert!(positions >= budget && moves > positions);
}
