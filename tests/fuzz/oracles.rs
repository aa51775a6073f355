//! The properties the fuzzers check, shared by the libFuzzer targets (`tests/fuzz/fuzz_targets/`,
//! run by `scripts/fuzz.sh`) and the CI-sized randomized harness (`tests/fuzz_smoke.rs`), so the
//! long runs and CI attack the same code with the same oracle.
//!
//! Every oracle takes arbitrary bytes and panics only on a real defect: a panic inside the library,
//! a round trip that loses information, a parsed move the rules do not generate, an error message
//! that grows with the input.
#![allow(dead_code)]

use otau::games::{AnyGame, Game, GameLine, Move, Side, Variant};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Error messages echo at most a shortened token, so their length does not follow the input's.
pub const MAX_ERROR_LEN: usize = 400;

/// (a) The position-string parser: whatever the bytes, parsing returns a value or a bounded error;
/// a parsed position prints to a string that parses to the same position (and prints the same),
/// and the rules accept it: every generated move names, parses, records and plays cleanly.
pub fn position_string(data: &[u8]) {
    let text = String::from_utf8_lossy(data);
    let pos = match AnyGame::from_position(&text) {
        Ok(pos) => pos,
        Err(e) => {
            let message = e.to_string();
            assert!(
                message.len() <= MAX_ERROR_LEN,
                "error of {} bytes: {message}",
                message.len()
            );
            return;
        }
    };
    check_position(&pos);
}

/// The properties of one accepted position.
pub fn check_position(pos: &AnyGame) {
    let printed = pos.to_string();
    let again = AnyGame::from_position(&printed)
        .unwrap_or_else(|e| panic!("'{printed}' was printed but does not parse: {e}"));
    assert_eq!(&again, pos, "'{printed}' parses to another position");
    assert_eq!(again.to_string(), printed, "printing is not stable");
    assert_eq!(again.hash(), pos.hash());
    assert_eq!(again.repetition_key(), pos.repetition_key());
    let variant = pos.variant();
    assert_eq!(
        pos.board_stones() + pos.store(Side::South) + pos.store(Side::North),
        variant.total_stones(),
        "{printed}: stones not conserved"
    );
    let moves = pos.legal_moves();
    let fin = pos.final_result();
    assert_eq!(
        moves.is_empty(),
        fin.is_some(),
        "{printed}: no moves exactly when the position is final ({fin:?}, {moves:?})"
    );
    if let Some(fin) = fin {
        assert!(fin.south + fin.north <= variant.total_stones(), "{printed}");
    }
    for &mv in moves.iter() {
        let name = pos.move_name(mv);
        assert_eq!(pos.parse_move(&name), Ok(mv), "{printed}: '{name}'");
        let record = pos.record_name(mv);
        assert_eq!(
            pos.parse_move(&record),
            Ok(mv),
            "{printed}: record '{record}'"
        );
        let mut after = pos.clone();
        let effect = after.play(mv);
        let me = pos.side_to_move();
        // Stones sown into a tuzdik go to its owner's store without being a capture.
        let tuzdiks = pos.tuzdik(Side::South).is_some() || pos.tuzdik(Side::North).is_some();
        let gained = after.store(me) - pos.store(me);
        assert!(
            gained == effect.captured || (tuzdiks && gained > effect.captured),
            "{printed} {name}: the store gained {gained}, the capture was {}",
            effect.captured
        );
        assert!(
            after.store(me.other()) >= pos.store(me.other()),
            "{printed} {name}"
        );
        let text = after.to_string();
        let back = AnyGame::from_position(&text)
            .unwrap_or_else(|e| panic!("{printed} {name}: result '{text}' does not parse: {e}"));
        assert_eq!(back, after, "{printed} {name}");
        assert_eq!(
            after.board_stones() + after.store(Side::South) + after.store(Side::North),
            variant.total_stones(),
            "{printed} {name}: stones not conserved"
        );
    }
}

/// The games under attack: every game id.
pub fn variants() -> Vec<Variant> {
    Variant::all()
}

/// A position reached by a seeded random playout of at most `plies` moves from a game's start.
pub fn playout(variant: Variant, seed: u64, plies: usize) -> AnyGame {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut line = GameLine::new(AnyGame::start(variant));
    for _ in 0..plies {
        if line.is_over() {
            break;
        }
        let moves = line.position().legal_moves();
        if moves.is_empty() {
            break;
        }
        line.play(moves[rng.gen_range(0..moves.len())])
            .expect("generated moves are legal");
    }
    line.position().clone()
}

/// (b) The move parser of every game. The bytes choose a game (`data[0]`), a playout seed
/// (`data[1..9]`) and length (`data[9]`), and the rest is the token. A token that parses names a
/// generated move; an error is bounded and says malformed or illegal consistently with the
/// position; the referee (`GameLine::play_token`) agrees with the parser.
pub fn move_token(data: &[u8]) {
    // Indexing all game ids keeps saved inputs meaning the same game as games are added.
    let all = Variant::all();
    let Some((&pick, rest)) = data.split_first() else {
        return;
    };
    let variant = all[pick as usize % all.len()];
    if !variants().contains(&variant) {
        return;
    }
    let mut seed = [0u8; 8];
    let take = rest.len().min(8);
    seed[..take].copy_from_slice(&rest[..take]);
    let rest = &rest[take..];
    let (plies, token) = match rest.split_first() {
        Some((&p, t)) => (p as usize, t),
        None => (0, &[][..]),
    };
    let pos = playout(variant, u64::from_le_bytes(seed), plies);
    check_token(&pos, &String::from_utf8_lossy(token));
}

/// The move-parser properties of one token in one position.
pub fn check_token(pos: &AnyGame, token: &str) {
    let legal = pos.legal_moves();
    match pos.parse_move(token) {
        Ok(mv) => {
            assert!(
                legal.contains(mv),
                "{pos}: '{token}' parsed as {mv:?}, not a legal move ({legal:?})"
            );
            // The parsed move's own name means the same move.
            assert_eq!(pos.parse_move(&pos.move_name(mv)), Ok(mv), "{pos}");
        }
        Err(e) => {
            let message = e.to_string();
            assert!(
                message.len() <= MAX_ERROR_LEN,
                "error of {} bytes",
                message.len()
            );
        }
    }
    let mut line = GameLine::new(pos.clone());
    let referee = line.play_token(token).map(|(mv, _)| mv);
    match (pos.parse_move(token), referee) {
        (Ok(a), Ok(b)) => assert_eq!(a, b),
        (Err(_), Err(_)) => {}
        (a, b) => panic!("{pos}: '{token}': parser says {a:?}, referee says {b:?}"),
    }
}

/// Byte-level mutations of a valid string, the way a fuzzer would: flips, deletions, insertions of
/// the notation's own separators and digits, duplications and splices.
pub fn mutate(rng: &mut ChaCha8Rng, base: &[u8], out: &mut Vec<u8>) {
    const INTERESTING: &[&[u8]] = &[
        b" ",
        b"/",
        b",",
        b"-",
        b"0",
        b"1",
        b"9",
        b"99",
        b"255",
        b"256",
        b"999999999",
        b"4294967296",
        b"s",
        b"n",
        b"x",
        b"a",
        b"c",
        b"(",
        b")",
        b"pass",
        b"\t",
        b"\n",
        b"\xff",
        b"\xc3\xa9",
        b"toguz-kumalak",
        b"giuthi-10x9",
        b"modiar",
        b"bestemshe",
    ];
    out.clear();
    out.extend_from_slice(base);
    for _ in 0..rng.gen_range(1..=4) {
        let at = if out.is_empty() {
            0
        } else {
            rng.gen_range(0..=out.len())
        };
        match rng.gen_range(0..6) {
            0 if at < out.len() => out[at] ^= 1 << rng.gen_range(0..8),
            1 if at < out.len() => {
                let end = rng.gen_range(at..=out.len().min(at + 8));
                out.drain(at..end);
            }
            2 => {
                let piece = INTERESTING[rng.gen_range(0..INTERESTING.len())];
                out.splice(at..at, piece.iter().copied());
            }
            3 if at < out.len() => out[at] = rng.gen(),
            4 if !out.is_empty() => {
                let from = rng.gen_range(0..out.len());
                let end = rng.gen_range(from..=out.len().min(from + 12));
                let piece: Vec<u8> = out[from..end].to_vec();
                out.splice(at..at, piece);
            }
            _ => out.truncate(at),
        }
    }
}

/// A random legal position string of any game, from a seeded playout.
pub fn random_position_string(rng: &mut ChaCha8Rng) -> String {
    let variants = variants();
    let variant = variants[rng.gen_range(0..variants.len())];
    let plies = rng.gen_range(0..120);
    playout(variant, rng.gen(), plies).to_string()
}

/// A random move token: a generated move's name or record name, or junk around one.
pub fn random_token(rng: &mut ChaCha8Rng, pos: &AnyGame) -> String {
    let moves = pos.legal_moves();
    let name = if moves.is_empty() || rng.gen_bool(0.2) {
        [
            "1", "9", "10", "pass", "1a", "3c", "76", "36x", "87(10)", "0", "",
        ][rng.gen_range(0..11)]
        .to_string()
    } else {
        let mv: Move = moves[rng.gen_range(0..moves.len())];
        if rng.gen_bool(0.5) {
            pos.move_name(mv)
        } else {
            pos.record_name(mv)
        }
    };
    if rng.gen_bool(0.5) {
        return name;
    }
    let mut out = Vec::new();
    mutate(rng, name.as_bytes(), &mut out);
    String::from_utf8_lossy(&out).into_owned()
}
