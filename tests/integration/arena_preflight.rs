//! Before the first game every engine is started once and checked: a program that does not exist,
//! exits at once or never answers `ugi` stops the run with exit status 1, before any game and
//! before any file is written, naming the engine, its program and the reason (as cutechess-cli
//! and fastchess do). Before, `--engine cmd=./my-engnie` forfeited every game and exited 0.

use std::time::Duration;

use crate::support::arena::*;
use otau::arena::matchmaking::tournament::{run, RunOptions};

#[test]
fn a_misspelt_engine_stops_the_run_before_any_game() {
    let dir = scratch("preflight-cli");
    let ok = format!("cmd={ARENA}");
    let (code, out, err) = arena(
        &[
            "--engine",
            "cmd=./my-engnie",
            "--engine",
            &ok,
            "args=fake-engine ok",
            "--each",
            "depth=1",
            "--games",
            "200",
            "--out",
            "r.jsonl",
            "--pgn",
            "r.pgn",
            "-q",
        ],
        &dir,
    );
    assert_eq!(code, 1, "{out}\n{err}");
    // Shown even with -q: the engine, its program and the reason.
    assert!(
        err.contains("engine 'my-engnie' (program ./my-engnie): cannot start './my-engnie'"),
        "{err}"
    );
    assert!(err.contains("No such file or directory"), "{err}");
    assert!(err.contains("no game was played"), "{err}");
    assert!(out.is_empty(), "no results table: {out}");
    // Nothing written: the same command, corrected, can be run again as it is.
    assert!(!dir.join("r.jsonl").exists());
    assert!(!dir.join("r.pgn").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_failing_engine_is_named_with_its_reason() {
    let _serial = otau::sync::lock(&SERIAL);
    let tag = tag("preflight");
    let dir = scratch("preflight-lib");
    let mut config = config(
        vec![
            fake("good", "ok", &tag, "depth=1"),
            fake("crasher", "crash-start", &tag, "depth=1"),
            fake("staller", "stall-start", &tag, "depth=1"),
        ],
        1,
        3,
    );
    // Long enough for the sound engine to start on a loaded machine: the staller costs this.
    config.startup_timeout_ms = 2000;
    let opts = RunOptions {
        out: Some(dir.join("r.jsonl")),
        log_dir: dir.join("logs"),
        ..RunOptions::default()
    };
    let err = run(config, &opts)
        .expect_err("the run must not start")
        .to_string();
    assert!(
        err.starts_with("2 of 3 engines failed the start-up check"),
        "{err}"
    );
    let lines: Vec<&str> = err.lines().skip(1).map(str::trim).collect();
    assert_eq!(lines.len(), 2, "{err}");
    assert!(lines[0].starts_with("engine 'crasher' (program "), "{err}");
    assert!(lines[1].starts_with("engine 'staller' (program "), "{err}");
    assert!(lines[1].contains("no ugiok in time"), "{err}");
    assert!(lines[1].contains("2000 ms"), "{err}");
    assert!(!err.contains("'good'"), "{err}");
    assert!(!dir.join("r.jsonl").exists());
    // Every engine of the check is gone and reaped.
    assert_eq!(
        wait_gone(&tag, Duration::from_secs(10)),
        Vec::<String>::new()
    );
    assert_eq!(
        zombie_children(),
        Vec::<String>::new(),
        "no zombie children"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn an_engines_last_stderr_line_is_shown() {
    let dir = scratch("preflight-stderr");
    let (code, _, err) = arena(
        &[
            "--engine",
            "name=broken",
            "cmd=/bin/sh",
            "args=-c 'echo \"error: cannot open weights.bin\" >&2; exit 2'",
            "--engine",
            "cmd=builtin:random",
            "--each",
            "depth=1",
            "--log-dir",
            "logs",
            "-q",
        ],
        &dir,
    );
    assert_eq!(code, 1, "{err}");
    assert!(err.contains("engine 'broken' (program /bin/sh)"), "{err}");
    assert!(
        err.contains("its stderr ended: 'error: cannot open weights.bin'"),
        "{err}"
    );
    assert!(err.contains("(log: logs/broken.stderr.log)"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine that answers `setoption name Game` with an error would lose every game by an
/// illegal move: the start-up check stops the run, quoting its answer and saying what to do.
#[test]
fn an_engine_that_refuses_the_game_stops_the_run() {
    let dir = scratch("preflight-refuses-game");
    let cmd = format!("cmd={ARENA}");
    let (code, out, err) = arena(
        &[
            "--game",
            "giuthi",
            "--engine",
            "name=picky",
            &cmd,
            "args=fake-engine reject-game",
            "--engine",
            "cmd=builtin:random",
            "--each",
            "depth=1",
            "--out",
            "r.jsonl",
            "-q",
        ],
        &dir,
    );
    assert_eq!(code, 1, "{out}\n{err}");
    assert!(
        err.contains(
            "engine 'picky' (program ARENA): it answered 'setoption name Game value giuthi' \
             with 'info string error setoption: unknown game id 'giuthi'; nothing changed'"
                .replace("ARENA", ARENA)
                .as_str()
        ),
        "{err}"
    );
    assert!(err.contains("run a game it plays with --game"), "{err}");
    assert!(!dir.join("r.jsonl").exists());
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine that declares no `Game` option is never told the game: the start-up check warns,
/// saying what to do, and once it has lost 3 games in a row by an illegal move (it plays Toguz
/// Kumalak moves in a Giuthi run) its remaining games are forfeited, as after 3 crashes.
#[test]
fn an_engine_never_told_the_game_is_warned_and_stopped() {
    let dir = scratch("preflight-no-game");
    let cmd = format!("cmd={ARENA}");
    let (code, out, err) = arena(
        &[
            "--game",
            "giuthi",
            "--engine",
            "name=deaf-to-game",
            &cmd,
            "args=fake-engine no-game",
            "--engine",
            "cmd=builtin:random",
            "--each",
            "depth=1",
            "--games",
            "6",
            "--out",
            "r.jsonl",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{out}\n{err}");
    assert!(
        err.contains(
            "warning: engine 'deaf-to-game' declares no Game option, so it is never told that \
             this run plays giuthi"
        ),
        "{err}"
    );
    assert!(
        err.contains("follow 'setoption name Game value giuthi'"),
        "{err}"
    );
    let text = std::fs::read_to_string(dir.join("r.jsonl")).unwrap();
    let kinds: Vec<String> = text
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|v| v["event"] == "game")
        .map(|v| v["termination"]["kind"].as_str().unwrap().to_string())
        .collect();
    assert_eq!(
        kinds,
        [
            "illegal-move",
            "illegal-move",
            "illegal-move",
            "forfeit",
            "forfeit",
            "forfeit"
        ],
        "{text}"
    );
    assert!(
        text.contains("lost 3 games in a row by an illegal or malformed move"),
        "{text}"
    );
    assert!(
        (out.clone() + &err).contains("lost 3 games in a row by an illegal or malformed move"),
        "the notice is shown: {out}\n{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
