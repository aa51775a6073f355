//! The UGI profile, command by command, against the real binary through pipes
//! (`protocol/ugi.md`).

use crate::support::ugi::{errors, Engine, TIMEOUT};
use otau::games::{AnyGame, Game, GameLine, Variant};
use otau::ugi::wire::Query;

const TOGUZ_START: &str = "toguz-kumalak 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 -/- s 1";
/// South holds 82 of 162 stones: the game is over, p1 has won.
const TOGUZ_WON: &str = "toguz-kumalak 1,0,0,0,0,0,0,0,0/8,8,8,8,8,8,8,8,8 82/7 -/- n 30";

fn line_after(game: Variant, moves: &[&str]) -> GameLine<AnyGame> {
    let mut line = GameLine::new(AnyGame::start(game));
    for m in moves {
        line.play_token(m).unwrap();
    }
    line
}

#[test]
fn handshake_lists_every_option() {
    let mut e = Engine::start(&[]);
    e.send("ugi");
    let lines = e.expect("ugiok");
    assert_eq!(
        lines[0],
        format!("id name otau {}", env!("CARGO_PKG_VERSION"))
    );
    assert!(lines[1].starts_with("id author "));
    for name in [
        "Game",
        "Hash",
        "Threads",
        "Level",
        "Player",
        "Seed",
        "MoveOverhead",
    ] {
        let prefix = format!("option name {name} type ");
        assert!(
            lines.iter().any(|l| l.starts_with(&prefix)),
            "{name} missing: {lines:?}"
        );
    }
    let game = lines.iter().find(|l| l.contains("name Game")).unwrap();
    for id in Variant::main_ids() {
        assert!(game.contains(&format!(" var {id}")), "{game}");
    }
    // UCI-only tools.
    e.send("uci");
    let lines = e.expect("uciok");
    assert!(lines[0].starts_with("id name otau"));
    assert!(e.fence().is_empty());
}

#[test]
fn whitespace_line_ends_and_case_do_not_matter() {
    let mut e = Engine::start(&[]);
    e.send_raw(b"\n\r\n   \t \n  IsReady  \r\n");
    assert!(e.expect("readyok").is_empty());
    e.send_raw(b"POSITION   StartPos\tMOVES  1 \r\n");
    e.send_raw(b"QUERY  P1TURN\r\n");
    let (line, _) = e.until("response", |l| l.starts_with("response"));
    assert_eq!(line, "response false");
    e.send_raw(b"Go Depth 1\r\n");
    let (mv, _) = e.bestmove();
    assert!(line_after(Variant::TOGUZ, &["1"])
        .position()
        .parse_move(&mv)
        .is_ok());
}

#[test]
fn unknown_commands_and_tokens_are_noted_and_ignored() {
    let mut e = Engine::start(&[]);
    let lines = e.lines_of("xyzzy 1 2 3");
    assert_eq!(lines.len(), 1, "{lines:?}");
    assert!(lines[0].starts_with("info string error unknown command 'xyzzy'"));
    e.send("isready now please");
    let lines = e.expect("readyok");
    assert_eq!(
        lines,
        ["info string warning ignored unexpected tokens 'now' 'please'"]
    );
    let lines = e.lines_of("query weather");
    assert!(lines[0].contains("unknown query 'weather'"), "{lines:?}");
    // A flood of junk tokens gives one bounded note.
    let junk = vec!["junk"; 10_000].join(" ");
    let lines = e.lines_of(&format!("uginewgame {junk}"));
    assert_eq!(lines.len(), 1);
    assert!(lines[0].len() < 200 && lines[0].ends_with("and 9995 more"));
    assert_eq!(e.query(Query::Fen), TOGUZ_START);
}

/// Peak resident memory of a process in KiB (Linux).
fn peak_rss_kib(pid: u32) -> Option<u64> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    status
        .lines()
        .find_map(|l| l.strip_prefix("VmHWM:"))
        .and_then(|v| v.trim().trim_end_matches("kB").trim().parse().ok())
}

#[test]
fn a_line_of_several_megabytes_is_skipped_in_bounded_memory() {
    let mut e = Engine::start(&[]);
    e.send("setoption name Hash value 1");
    assert!(e.fence().is_empty());
    // `isready` starts reading the endgame tables in the background; a search waits for them, so
    // after it the memory is the engine's settled footprint.
    e.go("depth 1");
    let before = peak_rss_kib(e.pid());
    let mut long = b"position startpos moves ".to_vec();
    while long.len() < 8 << 20 {
        long.extend_from_slice(b"1 2 3 4 5 6 7 8 9 ");
    }
    long.push(b'\n');
    e.send_raw(&long);
    // And one without any newline at all for a while, then a newline.
    e.send_raw(&vec![b'x'; 3 << 20]);
    e.send_raw(b"\n");
    let lines = e.fence();
    assert_eq!(lines.len(), 2, "{lines:?}");
    for line in &lines {
        assert!(line.starts_with("info string error line of "), "{line}");
        assert!(line.contains("exceeds the limit"), "{line}");
    }
    assert_eq!(e.query(Query::Fen), TOGUZ_START);
    // 11 MB went in; the engine's peak memory grew by about the 1 MiB line buffer at most.
    if let (Some(before), Some(after)) = (before, peak_rss_kib(e.pid())) {
        assert!(
            after - before < 8 * 1024,
            "peak memory grew by {} KiB while skipping long lines",
            after - before
        );
    }
    let (mv, _) = e.go("depth 1");
    assert!(AnyGame::start(Variant::TOGUZ).parse_move(&mv).is_ok());
}

#[test]
fn end_of_input_exits_cleanly() {
    let mut e = Engine::start(&[]);
    e.send("isready");
    e.close_stdin();
    assert_eq!(e.rest(), ["readyok"]);
    let status = e.wait_exit(TIMEOUT).expect("otau did not exit at EOF");
    assert!(status.success());

    // EOF in the middle of an infinite search: the search stops, its bestmove is still written.
    let mut e = Engine::start(&[]);
    e.send("go infinite");
    e.close_stdin();
    let rest = e.rest();
    assert_eq!(rest.iter().filter(|l| l.starts_with("bestmove")).count(), 1);
    assert!(e.wait_exit(TIMEOUT).unwrap().success());
}

#[test]
fn quit_exits_at_once_even_during_a_search() {
    let mut e = Engine::start(&[]);
    e.send("go infinite");
    e.fence();
    e.send("quit");
    let status = e.wait_exit(TIMEOUT).expect("otau did not exit on quit");
    assert!(status.success());
}

#[test]
fn isready_is_answered_during_a_search_and_stop_ends_it() {
    let mut e = Engine::start(&[]);
    e.send("position startpos moves 5 5");
    e.send("go infinite");
    for _ in 0..3 {
        let before = e.fence();
        assert!(
            !before.iter().any(|l| l.starts_with("bestmove")),
            "bestmove under go infinite before stop: {before:?}"
        );
    }
    e.send("stop");
    let (mv, _) = e.bestmove();
    let line = line_after(Variant::TOGUZ, &["5", "5"]);
    assert!(line.position().parse_move(&mv).is_ok(), "{mv}");
    // Exactly one bestmove for that go, and stop while idle prints nothing.
    assert!(e.fence().is_empty());
    assert!(e.lines_of("stop").is_empty());

    // A deep finite search: isready answered whenever asked, one bestmove in all.
    e.send("go depth 99 nodes 1000000000000");
    let mut bestmoves = 0;
    for _ in 0..3 {
        bestmoves += e
            .fence()
            .iter()
            .filter(|l| l.starts_with("bestmove"))
            .count();
    }
    e.send("stop");
    bestmoves += e
        .fence()
        .iter()
        .filter(|l| l.starts_with("bestmove"))
        .count();
    assert_eq!(bestmoves, 1);
}

#[test]
fn go_while_searching_is_refused_and_later_searches_are_sound() {
    let mut e = Engine::start(&[]);
    e.send("go infinite");
    e.fence();
    let lines = e.lines_of("go depth 1");
    assert_eq!(
        errors(&lines),
        ["info string error go ignored: already searching (send stop first)"]
    );
    // position and setoption during the search: they apply to the next search.
    e.send("position startpos moves 1 2");
    e.send("setoption name Level value 3");
    e.send("setoption name Game value bestemshe");
    let lines = e.fence();
    assert!(errors(&lines).is_empty(), "{lines:?}");
    e.send("stop");
    let (mv, _) = e.bestmove();
    // The stopped search was of the toguz start position.
    assert!(AnyGame::start(Variant::TOGUZ).parse_move(&mv).is_ok());
    assert!(e.fence().is_empty(), "a second bestmove");
    // Game was set last, so the position is now bestemshe's start.
    assert_eq!(
        e.query(Query::Fen),
        AnyGame::start(Variant::BESTEMSHE).to_string()
    );
    e.send("position startpos moves 1 2");
    let (mv, _) = e.go("depth 2");
    let line = line_after(Variant::BESTEMSHE, &["1", "2"]);
    assert!(line.position().parse_move(&mv).is_ok(), "{mv}");
}

#[test]
fn every_go_kind_gives_exactly_one_legal_bestmove() {
    let mut e = Engine::start(&[]);
    e.send("uginewgame");
    let line = line_after(Variant::TOGUZ, &["3", "7", "1"]);
    for go in [
        "depth 2",
        "nodes 500",
        "movetime 50",
        "p1time 2000 p2time 2000",
        "p1time 2000 p2time 3000 p1inc 10 p2inc 20 movestogo 7",
        "wtime 2000 btime 2000 winc 5 binc 5",
        "depth 3 nodes 1000 movetime 100",
        "",
    ] {
        e.send("position startpos moves 3 7 1");
        let (mv, before) = e.go(go);
        assert!(
            line.position()
                .parse_move(&mv)
                .is_ok_and(|m| line.position().is_legal(m)),
            "go {go}: bestmove {mv}"
        );
        let last_info = before
            .iter()
            .rev()
            .find(|l| l.starts_with("info "))
            .unwrap();
        for key in [" nodes ", " nps ", " time "] {
            assert!(last_info.contains(key), "go {go}: final info '{last_info}'");
        }
        assert!(e.fence().is_empty(), "go {go}: more than one bestmove");
    }
    // The opponent's clock alone: a warning, still a move.
    e.send("position startpos moves 3 7 1");
    let (_, before) = e.go("p1time 1000");
    assert!(before
        .iter()
        .any(|l| l.starts_with("info string warning") && l.contains("p2time")));
    // Bad go values: an error, no search.
    let lines = e.lines_of("go depth deep");
    assert!(errors(&lines)[0].contains("'deep'"), "{lines:?}");
}

#[test]
fn finished_game_gives_bestmove_none() {
    let mut e = Engine::start(&[]);
    e.send(&format!("position fen {TOGUZ_WON}"));
    assert_eq!(e.query(Query::GameOver), "true");
    assert_eq!(e.query(Query::Result), "p1win");
    let fin = GameLine::new(AnyGame::from_position(TOGUZ_WON).unwrap())
        .result()
        .unwrap();
    assert_eq!(
        e.query(Query::Score),
        format!("{}/{}", fin.south, fin.north)
    );
    assert_eq!(e.query(Query::Moves), "none");
    assert_eq!(e.query(Query::IsLegal("1")), "false");
    let (mv, before) = e.go("depth 5");
    assert_eq!(mv, "none");
    assert!(before
        .iter()
        .any(|l| l.starts_with("info string game over: p1win")));
    // Moves after the end are refused and the position kept.
    let lines = e.lines_of(&format!("position fen {TOGUZ_WON} moves 1"));
    assert!(errors(&lines)[0].contains("the game is over"), "{lines:?}");
}

#[test]
fn queries_follow_the_rules() {
    let mut e = Engine::start(&[]);
    assert_eq!(e.query(Query::P1Turn), "true");
    assert_eq!(e.query(Query::GameOver), "false");
    assert_eq!(e.query(Query::Result), "none");
    assert_eq!(e.query(Query::Fen), TOGUZ_START);
    assert_eq!(e.query(Query::Moves), "1 2 3 4 5 6 7 8 9");
    assert_eq!(e.query(Query::Score), "0/0");
    e.send("position startpos moves 9 7 5");
    let line = line_after(Variant::TOGUZ, &["9", "7", "5"]);
    let pos = line.position();
    assert_eq!(e.query(Query::P1Turn), "false");
    assert_eq!(e.query(Query::Fen), pos.to_string());
    let names: Vec<String> = pos
        .legal_moves()
        .iter()
        .map(|&m| pos.move_name(m))
        .collect();
    assert_eq!(e.query(Query::Moves), names.join(" "));
    assert_eq!(
        e.query(Query::Score),
        format!(
            "{}/{}",
            pos.store(otau::games::Side::South),
            pos.store(otau::games::Side::North)
        )
    );
    for token in ["1", "9", "0", "10", "x", "99"] {
        let want = pos.parse_move(token).is_ok_and(|m| pos.is_legal(m));
        assert_eq!(e.query(Query::IsLegal(token)), want.to_string(), "{token}");
    }
}

#[test]
fn positions_accept_federation_notation_and_reject_bad_input() {
    let mut e = Engine::start(&[]);
    // Federation notation (origin, landing hole, x for a tuzdik, (store) after a capture)
    // from the same start as plain hole numbers.
    let plain = line_after(Variant::TOGUZ, &["1", "7", "3"]);
    let mut federation = Vec::new();
    let mut pos = AnyGame::start(Variant::TOGUZ);
    for &mv in plain.moves() {
        federation.push(pos.record_name(mv));
        pos.play(mv);
    }
    e.send(&format!("position startpos moves {}", federation.join(" ")));
    assert_eq!(e.query(Query::Fen), plain.position().to_string());

    let before = e.query(Query::Fen);
    for (command, needle) in [
        ("position startpos moves 1 7 0", "move 3 '0'"),
        ("position startpos moves 1 7 3 q", "move 4 'q'"),
        ("position startpos moves 11", "move 1 '11'"),
        ("position startpos moves 18", "move 1 '18'"),
        ("position fen chess 1/1 0/0 s 1", "game id"),
        ("position fen modiar 7,7,7/7,7 0/0 s 1", "north holes"),
        (
            "position fen toguz-kumalak 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 -/- s",
            "position",
        ),
        ("position startpos extra", "'extra'"),
        ("position", "startpos"),
    ] {
        let lines = e.lines_of(command);
        let errs = errors(&lines);
        assert_eq!(errs.len(), 1, "{command}: {lines:?}");
        assert!(errs[0].contains(needle), "{command}: {}", errs[0]);
        assert_eq!(
            e.query(Query::Fen),
            before,
            "{command} changed the position"
        );
    }
    // A position string with moves.
    let start = AnyGame::from_position(TOGUZ_START).unwrap();
    let mut line = GameLine::new(start);
    line.play_token("4").unwrap();
    line.play_token("6").unwrap();
    e.send(&format!("position fen {TOGUZ_START} moves 4 6"));
    assert_eq!(e.query(Query::Fen), line.position().to_string());
}

#[test]
fn resent_move_lists_are_applied_incrementally_and_correctly() {
    let mut e = Engine::start(&[]);
    // Play a long random game in the library and send its growing move list each ply, as GUIs
    // do; jump back and sideways now and then (not an extension: replayed from the start).
    let mut line = GameLine::new(AnyGame::start(Variant::TOGUZ));
    let mut names = Vec::new();
    let mut k = 7usize;
    while !line.is_over() && names.len() < 150 {
        let pos = line.position().clone();
        let moves = pos.legal_moves();
        k = (k * 31 + 17) % 1009;
        let mv = moves[k % moves.len()];
        names.push(pos.move_name(mv));
        line.play(mv).unwrap();
        e.send(&format!("position startpos moves {}", names.join(" ")));
        if names.len().is_multiple_of(10) {
            assert_eq!(e.query(Query::Fen), line.position().to_string());
            // A takeback then forward again.
            e.send(&format!(
                "position startpos moves {}",
                names[..names.len() - 3].join(" ")
            ));
            e.send(&format!("position startpos moves {}", names.join(" ")));
            // An extension with an illegal move: refused, nothing changed.
            let lines = e.lines_of(&format!("position startpos moves {} 0", names.join(" ")));
            assert_eq!(errors(&lines).len(), 1);
            assert_eq!(e.query(Query::Fen), line.position().to_string());
        }
    }
    assert_eq!(e.query(Query::Fen), line.position().to_string());
    // The same list from another game id is not an extension.
    e.send("setoption name Game value toguz-kumalak-7");
    e.send("position startpos moves 1");
    assert_eq!(
        e.query(Query::Fen),
        line_after(Variant::TOGUZ7, &["1"]).position().to_string()
    );
}

#[test]
fn setoption_errors_change_nothing() {
    let mut e = Engine::start(&[]);
    for (command, needle) in [
        ("setoption name Hash value 0", "bad value '0' for Hash"),
        (
            "setoption name Threads value many",
            "bad value 'many' for Threads",
        ),
        ("setoption name Level value 21", "1..20"),
        ("setoption name Player value alphazero", "unknown player"),
        ("setoption name Seed value -1", "Seed"),
        ("setoption name MoveOverhead value 99999", "MoveOverhead"),
        ("setoption name Game value chess", "unknown game id 'chess'"),
        (
            "setoption name Ponder value true",
            "unknown option 'Ponder'",
        ),
        ("setoption name Hash", "needs a value"),
        ("setoption Hash 4", "setoption name"),
    ] {
        let lines = e.lines_of(command);
        let errs = errors(&lines);
        assert_eq!(errs.len(), 1, "{command}: {lines:?}");
        assert!(errs[0].contains(needle), "{command}: {}", errs[0]);
    }
    assert_eq!(e.query(Query::Fen), TOGUZ_START);
    // Valid settings, names in any case and with spaces.
    for command in [
        "setoption name hash value 8",
        "setoption name Move Overhead value 0",
        "setoption name PLAYER value greedy",
        "setoption name Seed value 12345",
        "setoption name Level value 1",
        "setoption name Threads value 1",
    ] {
        assert!(e.lines_of(command).is_empty(), "{command}");
    }
    let (mv, _) = e.go("depth 1");
    assert!(AnyGame::start(Variant::TOGUZ).parse_move(&mv).is_ok());
}

#[test]
fn every_game_id_is_accepted_and_the_command_line_sets_the_default() {
    let mut e = Engine::start(&[]);
    for v in Variant::all() {
        assert!(e
            .lines_of(&format!("setoption name Game value {v}"))
            .is_empty());
        e.send("uginewgame");
        e.send("position startpos");
        assert_eq!(e.query(Query::Fen), AnyGame::start(v).to_string(), "{v}");
    }
    let mut e = Engine::start(&["--game", "bestemshe"]);
    e.send("ugi");
    let lines = e.expect("ugiok");
    assert!(lines
        .iter()
        .any(|l| l.starts_with("option name Game type combo default bestemshe ")));
    assert_eq!(
        e.query(Query::Fen),
        AnyGame::start(Variant::BESTEMSHE).to_string()
    );
}

#[test]
fn new_game_resets_the_position() {
    let mut e = Engine::start(&[]);
    e.send("position startpos moves 1 2 3");
    assert_ne!(e.query(Query::Fen), TOGUZ_START);
    e.send("uginewgame");
    assert_eq!(e.query(Query::Fen), TOGUZ_START);
    e.send("ucinewgame");
    e.send("position startpos moves 1");
    let (mv, _) = e.go("depth 1");
    assert!(line_after(Variant::TOGUZ, &["1"])
        .position()
        .parse_move(&mv)
        .is_ok());
}

#[test]
fn extras_perft_display_eval() {
    let mut e = Engine::start(&[]);
    e.send("position startpos moves 1 2");
    e.send("perft 3");
    let (total, lines) = e.until("nodes", |l| l.starts_with("nodes "));
    let line = line_after(Variant::TOGUZ, &["1", "2"]);
    let expected = otau::perft::perft(line.position(), 3);
    assert_eq!(total, format!("nodes {expected}"));
    let per_move: u64 = lines
        .iter()
        .filter(|l| !l.starts_with("info"))
        .map(|l| l.split(' ').nth(1).unwrap().parse::<u64>().unwrap())
        .sum();
    assert_eq!(per_move, expected);
    assert!(e.lines_of("perft x")[0].contains("'x'"));

    let board = e.lines_of("d");
    assert!(board
        .iter()
        .any(|l| l == &format!("fen: {}", line.position())));
    assert!(board.iter().any(|l| l.contains("North store")));

    let eval = e.lines_of("eval");
    assert!(eval.last().unwrap().starts_with("total cp "), "{eval:?}");

    // perft can be stopped like a search.
    e.send("position startpos");
    e.send("perft 12");
    e.fence();
    e.send("stop");
    let lines = e.fence();
    assert!(
        lines.iter().any(|l| l.contains("perft stopped")),
        "{lines:?}"
    );
    assert!(!lines.iter().any(|l| l.starts_with("nodes")));
}

#[test]
fn a_forced_pass_is_answered_at_once() {
    // South has no hole with two seeds, North has one: South's only move is the pass.
    let fen = "giuthi-5x4 1,1,1,0,0/2,0,0,0,0 20/15 s 5";
    let pos = AnyGame::from_position(fen).unwrap();
    let moves = pos.legal_moves();
    assert!(moves.len() == 1 && moves[0].is_pass(), "{moves:?}");
    let mut e = Engine::start(&[]);
    e.send(&format!("position fen {fen}"));
    assert_eq!(e.query(Query::Moves), "pass");
    assert_eq!(e.query(Query::IsLegal("PASS")), "true");
    assert_eq!(e.query(Query::IsLegal("1a")), "false");
    let (mv, before) = e.go("infinite");
    assert_eq!(mv, "pass");
    assert!(before.contains(&"info string the only legal move is pass".to_string()));
    assert!(e.fence().is_empty());
    e.send(&format!("position fen {fen} moves pass"));
    assert_eq!(e.query(Query::P1Turn), "false");
}
