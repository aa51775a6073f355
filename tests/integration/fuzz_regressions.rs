//! Defects the fuzzers found (`scripts/fuzz.sh`), one test each, written out so the failure reads
//! without a fuzzer. The raw inputs are also kept in `tests/fuzz/regressions/` and replayed by
//! `tests/integration/fuzz_smoke.rs`.

use crate::oracles;

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

/// A position whose lone stones chase each other round the ring for ever (no capture, no end).
const CYCLING: &str = "toguz-kumalak 1,0,0,0,1,0,0,0,0/1,0,0,0,1,0,0,0,0 79/79 -/- s 10";

#[test]
fn perft_of_a_huge_depth_is_refused_not_a_stack_overflow() {
    // Found in review while fuzzing the UGI loop: `perft 1000000` in a cycling position recursed a
    // million plies deep along the first line and aborted the engine (stack overflow).
    let input = format!("position fen {CYCLING}\nperft 1000000\nperft 4294967295\nisready\n");
    let (_, output) = oracles::run_ugi(Variant::TOGUZ, input.into_bytes());
    let text = String::from_utf8_lossy(&output);
    assert!(
        text.contains("perft: depth 1000000 exceeds the maximum of 128"),
        "{text}"
    );
    assert!(text.ends_with("readyok\n"), "{text}");
    // The deepest accepted perft in that position is stoppable and bounded in stack.
    let input = format!(
        "position fen {CYCLING}\nperft {}\nstop\nisready\n",
        otau::perft::MAX_DEPTH
    );
    let (_, output) = oracles::run_ugi(Variant::TOGUZ, input.into_bytes());
    assert!(String::from_utf8_lossy(&output).ends_with("readyok\n"));
}

#[test]
fn the_perft_command_line_refuses_a_huge_depth() {
    let out = crate::support::otau()
        .args(["perft", "--depth", "100000", "--position", CYCLING])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2), "a usage error, not a crash");
    assert!(String::from_utf8_lossy(&out.stderr).contains("128"));
}

#[test]
fn a_stop_is_honoured_within_the_first_iteration_on_large_giuthi_boards() {
    // Found by the `ugi` target: on giuthi-10x8 the first iteration (which ignored stop, time and
    // node limits so that the move played was searched) took 258,000 nodes of quiescence: 0.3 s
    // natively, past the 5 s stop wait under load. `go nodes 500` searched 258,000 nodes. Now the
    // first iteration waits only up to 20,000 nodes.
    use otau::games::GameLine;
    use otau::search::{Limits, Options, Searcher};
    use std::sync::atomic::AtomicBool;
    let line = GameLine::new(AnyGame::start(Variant::Giuthi {
        holes: 10,
        seeds: 8,
    }));
    let mut searcher = Searcher::new(Options {
        hash_mb: 1,
        ..Options::default()
    });
    let stopped = AtomicBool::new(true);
    let infinite = Limits {
        infinite: true,
        ..Limits::default()
    };
    let report = searcher.search(&line, &infinite, &stopped, &mut |_| {});
    assert!(line.position().is_legal(report.best.unwrap()));
    assert!(
        report.info.nodes <= 20_000 + 256,
        "{} nodes",
        report.info.nodes
    );
    let few = Limits {
        nodes: Some(500),
        ..Limits::default()
    };
    let report = searcher.search(&line, &few, &AtomicBool::new(false), &mut |_| {});
    assert!(line.position().is_legal(report.best.unwrap()));
    assert!(
        report.info.nodes <= 20_000 + 256,
        "{} nodes",
        report.info.nodes
    );
}
