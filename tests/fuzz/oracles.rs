//! The properties the fuzzers check, shared by the libFuzzer targets (`tests/fuzz/fuzz_targets/`,
//! run by `scripts/fuzz.sh`) and the CI-sized randomized harness (`tests/fuzz_smoke.rs`), so the
//! long runs and CI attack the same code with the same oracle.
//!
//! Every oracle takes arbitrary bytes and panics only on a real defect: a panic inside the library,
//! a round trip that loses information, a parsed move the rules do not generate, an error message
//! that grows with the input.
#![allow(dead_code)]

use otau::arena::game::openings::random_walk;
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
        let tuzdiks = match &pos {
            AnyGame::Toguz(t) => Side::BOTH.iter().any(|&s| t.tuzdik(s).is_some()),
            _ => false,
        };
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

/// A position reached by a seeded random playout of at most `plies` moves from a game's start
/// (the arena's walk, `otau::arena::game::openings::random_walk`).
pub fn playout(variant: Variant, seed: u64, plies: usize) -> AnyGame {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    random_walk(&AnyGame::start(variant), plies, &mut rng)
        .position()
        .clone()
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

/// The longest a fuzzed UGI session may run before it counts as a hang: input ends after the last
/// byte, and the engine must then stop any search and return.
pub const UGI_HANG: std::time::Duration = std::time::Duration::from_secs(8);

/// Output bytes a UGI session may write: a constant per input line (a board, a perft listing, the
/// handshake) plus a search's info lines per `go`. Anything proportional to a line's length
/// (echoing a megabyte token, say) breaks it.
pub fn ugi_output_bound(input: &[u8]) -> usize {
    let lines = input.split(|&b| b == b'\n').count();
    let gos = input
        .split(|&b| b == b'\n')
        .filter(|l| l.windows(2).any(|w| w.eq_ignore_ascii_case(b"go")))
        .count();
    64 * 1024 + 8 * 1024 * lines + 256 * 1024 * gos
}

/// A writer that counts everything and keeps nothing past a cap.
#[derive(Clone, Default)]
pub struct CountingSink(pub std::sync::Arc<std::sync::Mutex<(usize, Vec<u8>)>>);

impl std::io::Write for CountingSink {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let mut g = otau::sync::lock(&self.0);
        g.0 += buf.len();
        let room = (1usize << 20).saturating_sub(g.1.len());
        g.1.extend_from_slice(&buf[..buf.len().min(room)]);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

/// Runs `otau::ugi::serve` on `input` as its whole standard input (then EOF), with `game` as the
/// default game. Returns the output, or panics on a hang.
pub fn run_ugi(game: Variant, input: Vec<u8>) -> (usize, Vec<u8>) {
    let sink = CountingSink::default();
    let out = sink.clone();
    let (done, finished) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let reader = std::io::BufReader::new(std::io::Cursor::new(input));
        let result = otau::ugi::serve(reader, out, game);
        let _ = done.send(result.map_err(|e| e.to_string()));
    });
    match finished.recv_timeout(UGI_HANG) {
        Ok(Ok(())) => {}
        Ok(Err(e)) => panic!("serve failed on an in-memory stream: {e}"),
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            panic!("hang: serve did not return {UGI_HANG:?} after its input ended")
        }
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
            panic!("serve panicked (its thread ended without a result)")
        }
    }
    let g = otau::sync::lock(&sink.0);
    (g.0, g.1.clone())
}

/// Hash sizes are the user's to choose up to the advertised maximum (32 GB, as Stockfish allows),
/// so inputs that set one are not run by the fuzzer: on this machine a large table is an
/// allocation failure by request, not a defect. The option's parsing is tested by the UGI tests,
/// and the oracle itself sets a 1 MB table.
pub fn sets_a_hash_size(input: &[u8]) -> bool {
    input.windows(4).any(|w| w.eq_ignore_ascii_case(b"hash"))
}

/// (c) The UGI command loop: an arbitrary byte stream as standard input (`data[0]` picks the
/// default game). The engine must not panic, must return once input ends (no hang, searches
/// stopped), must answer `bestmove` at most once per `go`, and must write bounded output.
pub fn ugi_session(data: &[u8]) {
    let Some((&pick, input)) = data.split_first() else {
        return;
    };
    if sets_a_hash_size(input) {
        return;
    }
    let all = Variant::all();
    let game = all[pick as usize % all.len()];
    // A 1 MB table: the default 64 MB, cleared for every session, would dominate the run time.
    let mut stream = b"setoption name Hash value 1\n".to_vec();
    stream.extend_from_slice(input);
    let (written, output) = run_ugi(game, stream);
    let bound = ugi_output_bound(input);
    assert!(
        written <= bound,
        "{written} bytes of output for {} bytes of input (bound {bound})",
        input.len()
    );
    let text = String::from_utf8_lossy(&output);
    assert!(
        output.len() < (1 << 20) || written == output.len(),
        "output kept in full"
    );
    let gos = input
        .split(|&b| b == b'\n')
        .filter(|l| {
            String::from_utf8_lossy(l)
                .split_ascii_whitespace()
                .next()
                .is_some_and(|w| w.eq_ignore_ascii_case("go"))
        })
        .count();
    let bestmoves = text.lines().filter(|l| l.starts_with("bestmove")).count();
    assert!(
        bestmoves <= gos,
        "{bestmoves} bestmove lines for {gos} go commands"
    );
}

/// A plausible GUI session for [`ugi_session`] (first byte: the default game): handshake, options, positions with moves from a
/// random game, searches of every kind, queries and extras, in a random order and case.
pub fn random_ugi_script(rng: &mut ChaCha8Rng, pick: u8) -> Vec<u8> {
    let all = Variant::all();
    let variant = all[pick as usize % all.len()];
    let mut line = GameLine::new(AnyGame::start(variant));
    let mut names = Vec::new();
    for _ in 0..rng.gen_range(0..30) {
        if line.is_over() {
            break;
        }
        let moves = line.position().legal_moves();
        let mv = moves[rng.gen_range(0..moves.len())];
        names.push(line.position().move_name(mv));
        line.play(mv).unwrap();
    }
    let fen = AnyGame::start(variant).to_string();
    let commands = [
        "ugi".to_string(),
        "uci".to_string(),
        "isready".to_string(),
        format!("setoption name Game value {variant}"),
        "setoption name Level value 3".to_string(),
        "setoption name Threads value 1".to_string(),
        "setoption name MoveOverhead value 10".to_string(),
        "setoption name Player value random".to_string(),
        "uginewgame".to_string(),
        format!("position startpos moves {}", names.join(" ")),
        format!("position fen {fen} moves {}", names.join(" ")),
        "go depth 2".to_string(),
        "go nodes 500".to_string(),
        "go movetime 5".to_string(),
        "go p1time 100 p2time 100 p1inc 1 p2inc 1 movestogo 5".to_string(),
        "go infinite".to_string(),
        "stop".to_string(),
        "query p1turn".to_string(),
        "query gameover".to_string(),
        "query result".to_string(),
        "query fen".to_string(),
        "query moves".to_string(),
        format!(
            "query islegal {}",
            names.first().map_or("1", |s| s.as_str())
        ),
        "query score".to_string(),
        "d".to_string(),
        "perft 2".to_string(),
        "eval".to_string(),
        "quit".to_string(),
    ];
    let mut out = Vec::new();
    out.push(pick);
    for _ in 0..rng.gen_range(3..12) {
        let mut c = commands[rng.gen_range(0..commands.len())].clone();
        if rng.gen_bool(0.1) {
            c = c.to_ascii_uppercase();
        }
        out.extend_from_slice(c.as_bytes());
        out.extend_from_slice(if rng.gen_bool(0.1) {
            &b"\r\n"[..]
        } else {
            &b"\n"[..]
        });
    }
    out
}

/// How long the arena side waits for each reply of a fuzzed engine.
const ENGINE_WAIT: std::time::Duration = std::time::Duration::from_millis(30);

/// (d) The arena's reading of engine output. `data[0]` picks the game; the rest, split at `0xFF`
/// bytes, are the engine's replies: each line the arena sends is answered with the next reply
/// (any bytes, any number of lines, or none), and when the replies run out the engine closes its
/// output. The arena's UGI client (`otau::arena::engine::client`) runs a handshake, a new game and up to
/// eight moves refereed as `otau::arena::matchmaking::referee` does (`GameLine::play_token` on the `bestmove`
/// token). It must not panic, every wait must end by its deadline, and what it keeps of the
/// engine's words is bounded.
pub fn engine_output(data: &[u8]) {
    use otau::arena::engine::client::{
        EngineSession, ThinkError, MAX_INFO_DEPTH, MAX_INFO_MATE, MAX_INFO_NODES, MAX_SCORE_CP,
    };
    use otau::arena::engine::process::{EngineIo, MAX_LINE};
    use otau::ugi::wire::{GoCommand, PositionLine, ScoreKind, Start};
    use std::io::{BufRead, Write};
    use std::time::{Duration, Instant};

    let Some((&pick, script)) = data.split_first() else {
        return;
    };
    let all = Variant::all();
    let variant = all[pick as usize % all.len()];
    let replies: Vec<Vec<u8>> = script.split(|&b| b == 0xFF).map(<[u8]>::to_vec).collect();
    let io = EngineIo::in_process("fuzzed", move |input, mut output| {
        let mut replies = replies.into_iter();
        for line in input.split(b'\n') {
            if line.is_err() {
                return;
            }
            let Some(reply) = replies.next() else {
                return; // out of words: the engine closes its output
            };
            if output
                .write_all(&reply)
                .and_then(|_| output.flush())
                .is_err()
            {
                return;
            }
        }
    })
    .expect("pipes");
    let slack = Duration::from_secs(2);
    let timed = |what: &str, started: Instant, allowed: Duration| {
        assert!(
            started.elapsed() < allowed + slack,
            "{what} took {:?} (allowed {allowed:?})",
            started.elapsed()
        );
    };
    let t = Instant::now();
    let handshake = EngineSession::handshake(io, ENGINE_WAIT, Default::default());
    timed("handshake", t, ENGINE_WAIT);
    let Ok(mut session) = handshake else {
        return;
    };
    if let Some(name) = &session.id_name {
        assert!(name.len() <= MAX_LINE, "id name of {} bytes", name.len());
    }
    assert!(session.options.iter().all(|o| o.len() <= MAX_LINE));
    let t = Instant::now();
    let fenced = session.new_game(ENGINE_WAIT);
    timed("new game", t, ENGINE_WAIT);
    if fenced.is_err() {
        session.shutdown(Duration::ZERO);
        return;
    }
    let mut line = GameLine::new(AnyGame::start(variant));
    let mut names: Vec<String> = Vec::new();
    let go = GoCommand {
        depth: Some(1),
        ..GoCommand::default()
    };
    for _ in 0..8 {
        if line.is_over() {
            break;
        }
        let t = Instant::now();
        let mut position = PositionLine::new(&Start::StartPos);
        for name in &names {
            position.push(name);
        }
        let thought = session.think(&position, &go, ENGINE_WAIT);
        timed("think", t, ENGINE_WAIT);
        match thought {
            Ok(th) => {
                assert!(
                    th.elapsed <= t.elapsed(),
                    "think time measured past its return"
                );
                assert!(
                    th.token.len() <= MAX_LINE,
                    "token of {} bytes",
                    th.token.len()
                );
                assert!(
                    !th.token.contains(|c: char| c.is_ascii_whitespace()),
                    "token {:?}",
                    th.token
                );
                if let Some((kind, value)) = th.info.score {
                    let v = value.unsigned_abs();
                    match kind {
                        ScoreKind::Cp => assert!(v <= MAX_SCORE_CP.into(), "cp {value}"),
                        ScoreKind::Mate => {
                            assert!((1..=MAX_INFO_MATE.into()).contains(&v), "mate {value}")
                        }
                    }
                }
                // Out-of-range search figures never reach a record.
                assert!(th.info.depth.is_none_or(|d| d <= MAX_INFO_DEPTH));
                assert!(th.info.nodes.is_none_or(|n| n <= MAX_INFO_NODES));
                let pos = line.position().clone();
                match line.play_token(&th.token) {
                    Ok((mv, _)) => {
                        assert!(pos.legal_moves().contains(mv));
                        names.push(pos.move_name(mv));
                    }
                    Err(_) => break, // an illegal move loses: the game is over
                }
            }
            Err(ThinkError::Late(_)) => {
                let t = Instant::now();
                session.stop_and_drain(ENGINE_WAIT);
                timed("stop and drain", t, ENGINE_WAIT);
                let t = Instant::now();
                let _ = session.fence(ENGINE_WAIT);
                timed("fence", t, ENGINE_WAIT);
                break;
            }
            Err(ThinkError::Fault(_)) => break,
        }
    }
    let t = Instant::now();
    session.shutdown(Duration::ZERO);
    timed("shutdown", t, Duration::from_millis(200));
}

/// A plausible engine script for [`engine_output`]: replies to the handshake, the fence and each
/// think, with info lines, a legal or illegal bestmove, junk, long lines and missing replies.
pub fn random_engine_script(rng: &mut ChaCha8Rng, pick: u8) -> Vec<u8> {
    let all = Variant::all();
    let variant = all[pick as usize % all.len()];
    let mut line = GameLine::new(AnyGame::start(variant));
    let mut out = vec![pick];
    let reply = |out: &mut Vec<u8>, text: &str| {
        out.extend_from_slice(text.as_bytes());
        out.push(0xFF);
    };
    reply(
        &mut out,
        "id name fuzzy engine\nid author nobody\noption name Hash type spin default 1 min 1 max 9\n\
         option name Move Overhead type spin default 0\nugiok\n",
    );
    reply(&mut out, ""); // uginewgame
    reply(&mut out, "readyok\n");
    for _ in 0..8 {
        if line.is_over() {
            break;
        }
        let moves = line.position().legal_moves();
        let mv = moves[rng.gen_range(0..moves.len())];
        let name = line.position().move_name(mv);
        reply(&mut out, ""); // position
        let info = match rng.gen_range(0..5) {
            0 => format!(
                "info depth 3 seldepth 5 score cp {} nodes 1234 nps 99 pv {name}\n",
                rng.gen_range(-500..500)
            ),
            1 => "info depth x score mate -3 nodes -1 string hello depth 9\n".to_string(),
            3 => format!(
                "info depth {} score mate {} nodes {}\n",
                rng.gen::<u32>(),
                rng.gen::<i64>(),
                rng.gen::<u64>()
            ),
            2 => format!("info {}\n", "9".repeat(rng.gen_range(1..40_000))),
            _ => String::new(),
        };
        let best = match rng.gen_range(0..10) {
            0 => "bestmove\n".to_string(),
            1 => "bestmove 99z\n".to_string(),
            2 => "garbage\n".to_string(),
            _ => format!("bestmove {name} ponder 1\n"),
        };
        reply(&mut out, &format!("{info}{best}"));
        line.play(mv).unwrap();
    }
    out
}
