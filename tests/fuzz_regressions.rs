//! Defects the fuzzers found (`scripts/fuzz.sh`), one test each, written out so the failure reads
//! without a fuzzer. The raw inputs are also kept in `tests/fuzz/regressions/` and replayed by
//! `tests/fuzz_smoke.rs`.

use otau::games::{AnyGame, Game, Variant};

/// Error messages must not grow with the input (a GUI or arena log gets one short line).
const BOUND: usize = 400;

#[test]
fn an_unknown_game_id_of_megabytes_gives_a_short_error() {
    // Found by the `position` target: the game id was echoed whole.
    let id = "x".repeat(1 << 20);
    let err = AnyGame::from_position(&format!("{id} 1/1 0/0 s 1")).unwrap_err();
    assert!(
        err.to_string().len() < BOUND,
        "{} bytes",
        err.to_string().len()
    );
    assert_eq!(err.field, "game id");
    let err = id.parse::<Variant>().unwrap_err();
    assert!(err.to_string().len() < BOUND);
    assert!(err.to_string().contains("xxx..."), "{err}");
}

#[test]
fn a_giuthi_hole_number_of_thousands_of_digits_gives_a_short_error() {
    // Found by the `move_token` target: the "needs a direction" hint repeated the digits twice.
    let pos = AnyGame::start(Variant::GIUTHI);
    let err = pos.parse_move(&"1".repeat(10_000)).unwrap_err();
    assert!(
        err.to_string().len() < BOUND,
        "{} bytes",
        err.to_string().len()
    );
    assert!(err.to_string().contains("needs a direction"), "{err}");
}
