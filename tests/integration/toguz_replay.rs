//! Replays real PlayOK Toguz Kumalak games (a 300-game sample of the 2,398 in
//! `shared/data/toguz/playok-2024-2025.pgn`): every move legal, every landing digit, tuzdik mark
//! and store total as recorded, and every game that ended on the board ending the same way here.

use otau::games::{AnyGame, EndReason, Game, GameLine, Outcome, Side, Variant};

const SAMPLE: &str = include_str!("../data/playok-sample.pgn");

fn outcome(result: &str) -> Outcome {
    match result {
        "1-0" => Outcome::Win(Side::South),
        "0-1" => Outcome::Win(Side::North),
        "1/2-1/2" => Outcome::Draw,
        other => panic!("unexpected result {other}"),
    }
}

#[test]
fn playok_games_replay_exactly() {
    let games = otau::pgn::parse(SAMPLE).expect("sample parses");
    assert_eq!(games.len(), 300);
    let (mut plies, mut on_board, mut tuzdiks) = (0, 0, 0);
    for (i, game) in games.iter().enumerate() {
        let mut line = GameLine::new(AnyGame::start(Variant::TOGUZ));
        for (ply, token) in game.moves.iter().enumerate() {
            // The game must not have ended before its last recorded move.
            line.play_token(token).unwrap_or_else(|e| {
                panic!(
                    "game {i} ({:?}) ply {}: {token}: {e}",
                    game.tag("Event"),
                    ply + 1
                )
            });
            plies += 1;
        }
        let result = outcome(
            game.result
                .as_deref()
                .expect("every sample game has a result"),
        );
        let pos = line.position();
        // A tuzdik, once made, stays to the end: the tuzdiks on the final board are the moves that
        // made one.
        let AnyGame::Toguz(toguz) = pos else {
            unreachable!("a Toguz Kumalak line")
        };
        tuzdiks += Side::BOTH
            .iter()
            .filter(|&&s| toguz.tuzdik(s).is_some())
            .count();
        let zero = game.comments.iter().any(|c| c == "zero");
        let majority = pos.store(Side::South) > 81 || pos.store(Side::North) > 81;
        if zero || majority {
            on_board += 1;
            let fin = line
                .result()
                .unwrap_or_else(|| panic!("game {i} should be over: {pos}"));
            assert_eq!(fin.outcome, result, "game {i}: {pos}");
            let reason = if majority {
                EndReason::MajorityInStore
            } else {
                EndReason::NoMoves
            };
            assert_eq!(fin.reason, reason, "game {i}");
            if zero {
                // A stuck side: every stone is counted, the rest going to the row's owner.
                assert_eq!(fin.south + fin.north, 162);
            } else {
                // A majority win is scored by the stores as they stand.
                assert_eq!(
                    (fin.south, fin.north),
                    (pos.store(Side::South), pos.store(Side::North))
                );
            }
        } else {
            assert!(
                line.result().is_none(),
                "game {i} resigned but ended here: {pos}"
            );
        }
    }
    assert!(plies > 20_000, "{plies} plies");
    assert!(on_board >= 100, "{on_board} games ended on the board");
    assert!(tuzdiks >= 300, "{tuzdiks} tuzdiks");
    eprintln!("{plies} plies, {on_board} games ended on the board, {tuzdiks} tuzdiks");
}

#[test]
fn federation_names_round_trip_through_replay() {
    // The record name of every replayed move is what PlayOK wrote, minus the store suffix and in
    // lowercase: the writer and the reader agree.
    let games = otau::pgn::parse(SAMPLE).unwrap();
    for game in games.iter().take(50) {
        let mut line = GameLine::new(AnyGame::start(Variant::TOGUZ));
        for token in &game.moves {
            let mv = line.position().parse_move(token).unwrap();
            let name = line.position().record_name(mv);
            let expected = token.split('(').next().unwrap().to_ascii_lowercase();
            assert_eq!(name, expected);
            line.play(mv).unwrap();
        }
    }
}

/// The whole shared collection (2,398 games), when `../shared` is beside the checkout:
/// `cargo test --release --test integration toguz_replay:: -- --ignored`.
#[test]
#[ignore = "needs ../shared (the test data folder beside the checkout)"]
fn all_shared_games_replay() {
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/../shared/data/toguz/playok-2024-2025.pgn"
    );
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| {
        panic!(
            "{path}: {e}: this test needs ../shared, the project's shared test data folder, \
             checked out beside this repository (../shared/data/toguz/playok-2024-2025.pgn)"
        )
    });
    let games = otau::pgn::parse(&text).unwrap();
    assert_eq!(games.len(), 2398);
    for (i, game) in games.iter().enumerate() {
        let mut line = GameLine::new(AnyGame::start(Variant::TOGUZ));
        for token in &game.moves {
            line.play_token(token)
                .unwrap_or_else(|e| panic!("game {i}: {token}: {e}"));
        }
        if game.comments.iter().any(|c| c == "zero") {
            let fin = line.result().expect("zero game over");
            assert_eq!(
                fin.outcome,
                outcome(game.result.as_deref().unwrap()),
                "game {i}"
            );
        }
    }
}
