//! CI-sized randomized attack on every input parser: the same oracles as the libFuzzer targets
//! (`tests/fuzz/oracles.rs`, long runs by `scripts/fuzz.sh`), fed by a seeded ChaCha generator
//! with random bytes and mutations of valid inputs, plus every input a fuzzer ever found
//! (`tests/fuzz/regressions/`). A few seconds in release mode; the seed is fixed so a failure
//! reproduces, and `OTAU_SMOKE_SEED` tries another.

use crate::oracles;

use otau::games::{AnyGame, Game};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn rng(salt: u64) -> ChaCha8Rng {
    let seed = std::env::var("OTAU_SMOKE_SEED")
        .ok()
        .and_then(|s| s.parse::<u64>().ok())
        .unwrap_or(0x07a0);
    ChaCha8Rng::seed_from_u64(seed ^ salt)
}

fn random_bytes(rng: &mut ChaCha8Rng, max: usize) -> Vec<u8> {
    let len = rng.gen_range(0..=max);
    // Mostly printable ASCII, like a confused user; sometimes anything.
    if rng.gen_bool(0.7) {
        (0..len).map(|_| rng.gen_range(b' '..=b'~')).collect()
    } else {
        (0..len).map(|_| rng.gen()).collect()
    }
}

#[test]
fn position_parser_survives_random_and_mutated_strings() {
    let mut rng = rng(1);
    let mut buf = Vec::new();
    let mut accepted = 0;
    for i in 0..30_000 {
        if i % 10 == 0 {
            oracles::position_string(&random_bytes(&mut rng, 120));
            continue;
        }
        let base = oracles::random_position_string(&mut rng);
        oracles::mutate(&mut rng, base.as_bytes(), &mut buf);
        oracles::position_string(&buf);
        accepted += AnyGame::from_position(&String::from_utf8_lossy(&buf)).is_ok() as usize;
    }
    // Mutations keep a share of the strings valid, so the round trip itself is exercised (fewer
    // since numbers with a leading zero are refused: 477 of these 27,000).
    assert!(accepted > 400, "only {accepted} mutated strings parsed");
}

#[test]
fn every_game_start_and_playout_round_trips() {
    let mut rng = rng(2);
    for variant in oracles::variants() {
        for plies in [0usize, 1, 2, 5, 20, 60, 200] {
            oracles::check_position(&oracles::playout(variant, rng.gen(), plies));
        }
    }
}

#[test]
fn move_parsers_of_every_game_accept_only_legal_moves() {
    let mut rng = rng(3);
    let mut buf = Vec::new();
    for variant in oracles::variants() {
        for _ in 0..15 {
            let plies = rng.gen_range(0..150);
            let pos = oracles::playout(variant, rng.gen(), plies);
            for _ in 0..60 {
                let token = oracles::random_token(&mut rng, &pos);
                oracles::check_token(&pos, &token);
            }
            oracles::check_token(&pos, &String::from_utf8_lossy(&random_bytes(&mut rng, 12)));
            // A multi-kilobyte token costs one bounded error.
            let long = "7".repeat(rng.gen_range(1..5000));
            oracles::check_token(&pos, &long);
        }
    }
    for _ in 0..3000 {
        let mut input = random_bytes(&mut rng, 24);
        if rng.gen_bool(0.5) {
            oracles::mutate(&mut rng, &input.clone(), &mut buf);
            input = buf.clone();
        }
        oracles::move_token(&input);
    }
}

#[test]
fn every_legal_move_of_random_games_parses_by_both_names() {
    // The positive half of the move-parser property: no legal move is ever refused.
    let mut rng = rng(4);
    for variant in oracles::variants() {
        let pos = oracles::playout(variant, rng.gen(), rng.gen_range(0..80));
        for &mv in pos.legal_moves().iter() {
            assert_eq!(pos.parse_move(&pos.move_name(mv)), Ok(mv), "{pos}");
            assert_eq!(pos.parse_move(&pos.record_name(mv)), Ok(mv), "{pos}");
        }
    }
}

#[test]
fn random_command_streams_into_serve() {
    // Plausible sessions, their mutations, and raw bytes: no panic, no hang once input ends, at
    // most one bestmove per go, output bounded by a constant per line.
    let mut rng = rng(5);
    let mut buf = Vec::new();
    for i in 0..100 {
        let pick: u8 = rng.gen();
        let script = oracles::random_ugi_script(&mut rng, pick);
        let input = match i % 3 {
            0 => script,
            1 => {
                oracles::mutate(&mut rng, &script, &mut buf);
                buf.clone()
            }
            _ => {
                let mut raw = vec![pick];
                raw.extend(random_bytes(&mut rng, 200));
                raw
            }
        };
        if !oracles::sets_a_hash_size(&input) {
            oracles::ugi_session(&input);
        }
    }
}

#[test]
fn a_long_line_and_a_flood_of_junk_into_serve() {
    // A 3 MB line (past the 1 MiB line limit) and a thousand junk lines cost bounded output and
    // leave the engine answering.
    let mut input = b"position startpos moves ".to_vec();
    input.extend(std::iter::repeat_n(b'1', 3 << 20));
    input.extend_from_slice(b"\n");
    for _ in 0..1000 {
        input.extend_from_slice(b"xyzzy plugh\n");
    }
    input.extend_from_slice(b"isready\n");
    let (written, output) = oracles::run_ugi(otau::games::Variant::TOGUZ, input);
    assert!(written < 1 << 20, "{written} bytes");
    assert!(String::from_utf8_lossy(&output).ends_with("readyok\n"));
}

#[test]
fn scripted_engine_output_into_the_arena_client() {
    // Plausible engine replies, their mutations and raw bytes: the arena's client and referee do
    // not panic, every wait ends by its deadline, and what they keep is bounded.
    let mut rng = rng(6);
    let mut buf = Vec::new();
    for i in 0..60 {
        let pick: u8 = rng.gen();
        let script = oracles::random_engine_script(&mut rng, pick);
        let input = match i % 3 {
            0 => script,
            1 => {
                oracles::mutate(&mut rng, &script, &mut buf);
                buf.clone()
            }
            _ => {
                let mut raw = vec![pick];
                raw.extend(random_bytes(&mut rng, 300));
                raw
            }
        };
        oracles::engine_output(&input);
    }
}

/// Every input the fuzzers found, replayed through the oracle of the target that found it (file
/// names start with the target's name).
#[test]
fn fuzzer_findings_stay_fixed() {
    let dir = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/fuzz/regressions");
    let mut replayed = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        let data = std::fs::read(&path).unwrap();
        let target = name.split_once('-').map_or(name.as_str(), |(t, _)| t);
        match target {
            "position" => oracles::position_string(&data),
            "move_token" => oracles::move_token(&data),
            "ugi" => oracles::ugi_session(&data),
            "engine_output" => oracles::engine_output(&data),
            _ => continue,
        }
        replayed += 1;
    }
    assert!(replayed > 0, "no regression inputs in {}", dir.display());
}
