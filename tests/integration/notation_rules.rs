//! The notation's shared rules, the same for every game (`protocol/notation.md`): a number has
//! one spelling (no leading zero), and every position a game reaches prints a string its parser
//! reads back, the full-move number included.

use crate::support::ugi::Engine;
use otau::games::notation::{MoveError, MAX_FULLMOVE};
use otau::games::{AnyGame, Game, Variant};
use otau::ugi::wire::Query;

#[test]
fn leading_zeros_are_malformed_in_every_game() {
    // Modiar and Giuthi used to read `01`, `001` and `01a` as hole 1, while Toguz Kumalak
    // refused `01`.
    for variant in Variant::all() {
        let pos = AnyGame::start(variant);
        for token in ["0", "00", "01", "001", "01a", "01c", "01A", "09x", "0001a"] {
            match pos.parse_move(token) {
                Err(MoveError::Malformed { .. }) => {}
                other => panic!("{variant} '{token}': {other:?}"),
            }
        }
        // A hole 0 is no hole, wherever it stands (Toguz Kumalak's landing digit included).
        if matches!(variant, Variant::Toguz { .. }) {
            for token in ["10", "30x", "10(9)"] {
                assert!(
                    matches!(pos.parse_move(token), Err(MoveError::Malformed { .. })),
                    "{variant} '{token}'"
                );
            }
        }
        // The plain spellings still work: every legal move's name parses back.
        for &mv in pos.legal_moves().iter() {
            assert_eq!(pos.parse_move(&pos.move_name(mv)), Ok(mv), "{variant}");
        }
    }
}

#[test]
fn game_ids_follow_the_same_rule() {
    assert_eq!(
        "giuthi-10x4".parse::<Variant>().unwrap().id(),
        "giuthi-10x4"
    );
    for bad in [
        "giuthi-08x8",
        "giuthi-8x08",
        "giuthi-+8x8",
        "giuthi-8x+8",
        "giuthi-8x 8",
    ] {
        assert!(bad.parse::<Variant>().is_err(), "{bad}");
    }
}

#[test]
fn the_largest_move_number_reads_back_after_a_move() {
    for variant in Variant::all() {
        let start = AnyGame::start(variant);
        // The start position with North to move and the largest move number.
        let text = start
            .to_string()
            .replace(" s 1", &format!(" n {MAX_FULLMOVE}"));
        let pos = AnyGame::from_position(&text).unwrap_or_else(|e| panic!("{text}: {e}"));
        assert_eq!(pos.fullmove(), MAX_FULLMOVE);
        // Every move of North (and, in Giuthi, a relay that keeps the move) and the reply: the
        // number stays at the largest one, and the string reads back.
        for &mv in pos.legal_moves().iter() {
            let mut after = pos.clone();
            after.play(mv);
            assert_eq!(after.fullmove(), MAX_FULLMOVE, "{variant}");
            let printed = after.to_string();
            let back =
                AnyGame::from_position(&printed).unwrap_or_else(|e| panic!("{printed}: {e}"));
            assert_eq!(back.to_string(), printed);
        }
    }
}

#[test]
fn the_engine_reads_back_the_position_it_prints() {
    // `position fen ... n 999999999 moves 1`, then `query fen`: the engine printed move number
    // 1000000000, which its own parser refused.
    let mut engine = Engine::start(&[]);
    engine.send("ugi");
    engine.expect("ugiok");
    let fen = "toguz-kumalak 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 -/- n 999999999";
    assert!(engine
        .lines_of(&format!("position fen {fen} moves 1"))
        .is_empty());
    let printed = engine.query(Query::Fen);
    assert!(printed.ends_with(" s 999999999"), "{printed}");
    assert!(engine
        .lines_of(&format!("position fen {printed}"))
        .is_empty());
    assert_eq!(engine.query(Query::Fen), printed);
    engine.send("quit");
}
