//! `otau web`'s game without the browser: a person's moves, the engine's refereed answers,
//! undo, flip, analysis, engine faults, PGN, and the worker's published states.

use std::time::Duration;

use otau::arena::config::{EngineConfig, EngineSpec};
use otau::games::{AnyGame, GameLine, Side, Variant};
use otau::web::play::{Command, Mover, PlayGame, PlayWorker, Refused, Status};

const ARENA: &str = env!("CARGO_BIN_EXE_otau-arena");
const STARTUP: Duration = Duration::from_secs(10);

fn engine(tokens: &[&str]) -> EngineConfig {
    let tokens: Vec<String> = tokens.iter().map(|t| t.to_string()).collect();
    EngineSpec::parse("--engine 1", &tokens)
        .unwrap()
        .build(&EngineSpec::default(), 0)
        .unwrap()
}

fn otau(depth: u32) -> EngineConfig {
    engine(&["cmd=builtin:otau", &format!("depth={depth}")])
}

fn fake(mode: &str) -> EngineConfig {
    engine(&[
        &format!("name=fake-{mode}"),
        &format!("cmd={ARENA}"),
        &format!("args=fake-engine {mode}"),
        "depth=1",
    ])
}

/// The position after `tokens` from the start, computed by the rules alone.
fn after(variant: Variant, tokens: &[&str]) -> String {
    let mut line = GameLine::new(AnyGame::start(variant));
    for t in tokens {
        line.play_token(t).unwrap();
    }
    line.position().to_string()
}

/// The person plays `token`; the engine answers; the state's position is the rules' position
/// after the person's move and every engine reply.
fn person_then_engine(variant: Variant, token: &str) {
    let mut g = PlayGame::new(variant, vec![otau(2)], STARTUP);
    g.person_move(token).unwrap();
    assert!(g.engine_to_move(), "{variant}: the engine is to move");
    g.engine_turns();
    let s = g.state();
    assert_eq!(s.status, Status::PersonToMove, "{variant}");
    assert_eq!(s.moves[0].by, Mover::Person);
    assert!(s.moves.len() >= 2, "{variant}: the engine answered");
    assert!(s.moves[1..].iter().all(|m| m.by == Mover::Engine));
    let played: Vec<&str> = s.moves.iter().map(|m| m.mv.as_str()).collect();
    assert_eq!(s.position, after(variant, &played), "{variant}");
    assert_eq!(s.ply, played.len());
    let a = s.moves[1].analysis.as_ref().expect("the engine's search");
    // Modiar's solution answers at its own depth.
    assert!(a.depth.is_some(), "{variant}: the engine's depth reported");
    assert!(!a.pv.is_empty(), "{variant}: a principal variation");
    assert!(!s.legal.is_empty());
}

#[test]
fn a_person_move_is_answered_by_the_engine_in_every_game() {
    person_then_engine(Variant::TOGUZ, "7");
    // Giuthi: the direction is the person's choice.
    let giuthi = AnyGame::start(Variant::GIUTHI);
    let legal = otau::web::play::legal_moves(&giuthi);
    assert_eq!(legal.len(), 16, "8 holes, 2 directions each");
    assert!(legal.iter().any(|m| m.mv == "3c" && m.hole == Some(3)));
    person_then_engine(Variant::GIUTHI, "3c");
    person_then_engine(Variant::MODIAR, "2");
}

#[test]
fn illegal_person_moves_are_refused_and_change_nothing() {
    let mut g = PlayGame::new(Variant::GIUTHI, vec![otau(1)], STARTUP);
    for bad in ["3", "9a", "pass", "x"] {
        assert!(
            matches!(g.person_move(bad), Err(Refused::Illegal(_))),
            "{bad}"
        );
    }
    assert_eq!(g.state().ply, 0);
    assert_eq!(g.undo(), Err(Refused::NothingToUndo));
}

#[test]
fn undo_takes_back_to_the_persons_previous_turn() {
    let mut g = PlayGame::new(Variant::TOGUZ, vec![otau(1)], STARTUP);
    g.person_move("7").unwrap();
    g.engine_turns();
    let after_one = g.state().position;
    g.person_move(&g.state().legal[0].mv.clone()).unwrap();
    g.engine_turns();
    g.undo().unwrap();
    assert_eq!(g.state().position, after_one);
    assert_eq!(g.state().status, Status::PersonToMove);
    g.undo().unwrap();
    assert_eq!(
        g.state().position,
        AnyGame::start(Variant::TOGUZ).to_string()
    );
    assert_eq!(g.state().ply, 0);
}

#[test]
fn flip_gives_the_engine_the_move_and_new_game_restarts() {
    let mut g = PlayGame::new(Variant::MODIAR, vec![otau(1)], STARTUP);
    g.flip();
    assert_eq!(g.person(), Side::North);
    assert!(g.engine_to_move());
    g.engine_turns();
    let s = g.state();
    assert_eq!((s.ply, s.moves[0].by), (1, Mover::Engine));
    assert_eq!(s.to_move, Side::North);
    // Undo has no move of the person's to take back.
    assert_eq!(g.undo(), Err(Refused::NothingToUndo));
    g.new_game();
    assert_eq!(g.state().ply, 0);
    assert!(g.engine_to_move(), "the person stays North");
}

#[test]
fn analysis_searches_the_persons_position() {
    let mut g = PlayGame::new(Variant::TOGUZ, vec![otau(2)], STARTUP);
    g.set_analysis(true);
    assert!(g.wants_analysis());
    g.engine_turns();
    let s = g.state();
    let a = s.analysis.expect("analysis of the start");
    let best = a.best.expect("a suggestion");
    assert!(s.legal.iter().any(|m| m.mv == best), "{best} is legal");
    assert_eq!(a.depth, Some(2));
    assert_eq!(s.ply, 0, "a suggestion is never played");
    g.set_analysis(false);
    assert!(g.state().analysis.is_none());
}

#[test]
fn an_illegal_engine_move_ends_the_game_and_undo_restarts_the_engine() {
    let mut g = PlayGame::new(Variant::TOGUZ, vec![fake("illegal")], STARTUP);
    g.person_move("1").unwrap();
    g.engine_turns();
    assert_eq!(g.state().ply, 2, "first a legal move");
    g.person_move(&g.state().legal[0].mv.clone()).unwrap();
    g.engine_turns();
    let s = g.state();
    assert_eq!(s.status, Status::Over);
    assert_eq!(s.result.as_deref(), Some("1-0"), "the person wins");
    let t = s.termination.unwrap();
    assert!(t.starts_with("illegal-move: "), "{t}");
    assert_eq!(s.ply, 3, "the illegal move is not played");
    assert!(g.pgn().contains("[Termination \"rules infraction\"]"));
    assert_eq!(g.person_move("1"), Err(Refused::GameOver));
    // Undo: the engine is started afresh and plays (its first move of a process is legal).
    g.undo().unwrap();
    g.person_move(&g.state().legal[0].mv.clone()).unwrap();
    g.engine_turns();
    let s = g.state();
    assert_eq!((s.status, s.ply), (Status::PersonToMove, 4), "{s:?}");
}

#[test]
fn engine_crashes_and_stalls_end_the_game_within_their_deadlines() {
    let mut g = PlayGame::new(
        Variant::TOGUZ,
        vec![engine(&[
            &format!("cmd={ARENA}"),
            "args=fake-engine no-answer",
            "st=0.2",
            "timemargin=100",
        ])],
        STARTUP,
    );
    let started = std::time::Instant::now();
    g.person_move("1").unwrap();
    g.engine_turns();
    let t = g.state().termination.unwrap();
    assert!(t.starts_with("time-loss: "), "{t}");
    // The termination proves the deadline held; this bound only catches a hang (a loaded
    // machine may delay the answer by seconds, never by a minute).
    assert!(started.elapsed() < Duration::from_secs(60));
    let mut g = PlayGame::new(Variant::TOGUZ, vec![fake("crash-start")], STARTUP);
    g.person_move("1").unwrap();
    g.engine_turns();
    let t = g.state().termination.unwrap();
    assert!(t.starts_with("crash: "), "{t}");
}

#[test]
fn pgn_through_the_arenas_writer() {
    let mut g = PlayGame::new(Variant::GIUTHI, vec![otau(1)], STARTUP);
    g.person_move("3c").unwrap();
    g.engine_turns();
    let text = g.pgn();
    let games = otau::pgn::parse(&text).unwrap();
    assert_eq!(games.len(), 1);
    let p = &games[0];
    assert_eq!(p.tag("White"), Some("person"));
    assert_eq!(p.tag("Black"), Some("otau"));
    assert_eq!(p.tag("Variant"), Some("giuthi"));
    assert_eq!(p.result.as_deref(), Some("*"), "unfinished");
    assert_eq!(p.moves.len(), g.state().ply);
}

/// The first state is published before the worker's thread runs: a page asking at once gets
/// the game (on a loaded machine it once got an empty answer).
#[test]
fn the_first_state_is_there_when_the_worker_starts() {
    let w = PlayWorker::start(PlayGame::new(Variant::TOGUZ, vec![otau(1)], STARTUP));
    let (generation, json) = w.state();
    assert!(generation >= 1, "{generation}");
    assert!(json.contains("\"status\":\"person-to-move\""), "{json}");
}

#[test]
fn the_worker_publishes_the_persons_move_and_the_answer() {
    let w = PlayWorker::start(PlayGame::new(Variant::TOGUZ, vec![otau(2)], STARTUP));
    let (mut seen, json) = w.wait_newer(0, STARTUP);
    assert!(json.contains("\"status\":\"person-to-move\""), "{json}");
    w.send(Command::Move("7".into())).unwrap();
    let mut v = serde_json::Value::Null;
    for _ in 0..10 {
        let (g, json) = w.wait_newer(seen, STARTUP);
        seen = g;
        v = serde_json::from_str(&json).unwrap();
        if v["ply"] == 2 {
            break;
        }
    }
    assert_eq!(v["ply"], 2, "{v}");
    let mv = v["moves"][1]["move"].as_str().unwrap();
    assert_eq!(v["position"], after(Variant::TOGUZ, &["7", mv]));
    assert!(w.pgn().contains("1. 76 "), "{}", w.pgn());
    w.send(Command::Move("0".into())).unwrap();
    let (_, json) = w.wait_newer(seen, STARTUP);
    assert!(json.contains("\"notice\":\"illegal move"), "{json}");
}

/// The page's requests can do only what its buttons do: a POST without the page's token, a
/// command that is none, an engine not on the command line, a path naming a file: all refused,
/// the game unchanged.
#[test]
fn requests_cannot_reach_beyond_the_game() {
    use crate::support::browser::{get, post};
    use otau::web::play_page::PlaySite;
    let worker = PlayWorker::start(PlayGame::new(Variant::TOGUZ, vec![otau(1)], STARTUP));
    let server = PlaySite::serve(worker, "127.0.0.1:0".parse().unwrap()).unwrap();
    let url = server.url();
    let (_, page) = get(&url);
    let token = page
        .split("data-token=\"")
        .nth(1)
        .and_then(|t| t.split('"').next())
        .expect("the page's token")
        .to_string();
    assert_eq!(token.len(), 32);
    let before = get(&format!("{url}state")).1;
    for (path, body) in [
        ("move", r#"{"value":"7"}"#.to_string()),
        ("move", r#"{"token":"0123","value":"7"}"#.to_string()),
        (
            "engine",
            format!(r#"{{"token":"{token}","value":"cmd=/bin/sh"}}"#),
        ),
        ("run", format!(r#"{{"token":"{token}","value":"/bin/sh"}}"#)),
        (
            "move",
            format!(r#"{{"token":"{token}","value":"{}"}}"#, "7".repeat(17)),
        ),
    ] {
        let (status, why) = post(&format!("{url}{path}"), &body);
        assert_eq!(status, 400, "{path} {body}: {why}");
    }
    for path in [
        "../Cargo.toml",
        "etc/passwd",
        "state/../Cargo.toml",
        "src/web/play.rs",
    ] {
        assert_eq!(get(&format!("{url}{path}")).0, 404, "{path}");
    }
    // An engine index beyond the command line's is refused by the game.
    let (status, _) = post(
        &format!("{url}engine"),
        &format!(r#"{{"token":"{token}","value":3}}"#),
    );
    assert_eq!(status, 200);
    let deadline = std::time::Instant::now() + STARTUP;
    let state = loop {
        let s = get(&format!("{url}state")).1;
        if s.contains("notice") || std::time::Instant::now() > deadline {
            break s;
        }
        std::thread::sleep(Duration::from_millis(20));
    };
    assert!(
        state.contains("\"notice\":\"no engine 3 on the command line\""),
        "{state}"
    );
    let strip = |s: &str| s.replace(r#","notice":"no engine 3 on the command line""#, "");
    assert_eq!(strip(&state), before, "the game is unchanged");
    // The page's own token plays.
    let (status, _) = post(
        &format!("{url}move"),
        &format!(r#"{{"token":"{token}","value":"7"}}"#),
    );
    assert_eq!(status, 200);
}

/// While the engine thinks, commands wait in a queue of 8; more are refused as busy at once.
#[test]
fn a_full_queue_is_busy_not_a_wait() {
    use otau::web::play::Busy;
    let slow = engine(&["cmd=builtin:otau", "st=0.5"]);
    let w = PlayWorker::start(PlayGame::new(Variant::TOGUZ, vec![slow], STARTUP));
    w.wait_newer(0, STARTUP);
    // No send waits: a send that waited for room would succeed in the end, so none would be
    // busy. (No clock here: a loaded machine may pause this thread for any time.)
    let sent: Vec<Result<(), Busy>> = (0..12).map(|_| w.send(Command::Move("7".into()))).collect();
    let busy = sent.iter().filter(|r| r.is_err()).count();
    assert!((3..=4).contains(&busy), "{busy} busy of 12: {sent:?}");
}

/// The page's engine choice: another engine of the command line, in a new game.
#[test]
fn choosing_another_engine_starts_a_new_game_against_it() {
    let mut g = PlayGame::new(Variant::TOGUZ, vec![otau(1), fake("ok")], STARTUP);
    g.person_move("7").unwrap();
    g.engine_turns();
    g.set_engine(1).unwrap();
    let s = g.state();
    assert_eq!((s.engine, s.ply), (1, 0));
    g.person_move("7").unwrap();
    g.engine_turns();
    assert!(g.pgn().contains("[Black \"fake-ok\"]"), "{}", g.pgn());
    assert_eq!(g.set_engine(2), Err(Refused::NoSuchEngine(2)));
}
