//! No wait or write without a deadline, every fault charged to the engine that caused it
//! (issue 14): engines that stop reading, crash behind a helper, crash in a loop while flooding
//! stderr; a paused arena; a closed output. Each test runs under a bound of its own, so a
//! regression fails instead of hanging.

use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::arena::*;
use otau::arena::config::{EngineConfig, RunConfig};
use otau::arena::matchmaking::tournament::{run, RunOptions};
use otau::arena::records::{GameRecord, RecordsFile, TerminationKind};
use otau::games::Side;

/// Runs `f` on a thread and fails the test when it has not returned within `limit` (a hang of
/// the arena is the defect these tests look for: it must fail, not block the test run). The
/// caller holds `SERIAL`, so a failed test releases it even if `f` stays blocked.
fn within<T: Send + 'static>(limit: Duration, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    let handle = std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    match rx.recv_timeout(limit) {
        Ok(v) => v,
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => {
            std::panic::resume_unwind(handle.join().unwrap_err())
        }
        Err(_) => panic!("no result within {limit:?}: the arena hangs"),
    }
}

/// Plays `config` in process; checks that the run completed and left no process behind.
fn play(name: &str, config: RunConfig, tag: &str, tweak: impl FnOnce(&mut RunOptions)) -> Played {
    let dir = scratch(name);
    let mut opts = RunOptions {
        out: Some(dir.join("r.jsonl")),
        log_dir: dir.join("logs"),
        ..RunOptions::default()
    };
    tweak(&mut opts);
    let started = Instant::now();
    let scheduled = otau::arena::matchmaking::tournament::full_schedule(&config).len() as u64;
    let report = run(config, &opts).expect("the match runs");
    let wall = started.elapsed();
    assert_eq!(report.missing, 0, "the match completes");
    assert_eq!(report.standings.len(), scheduled);
    let games = RecordsFile::read(&dir.join("r.jsonl")).unwrap().games;
    assert_eq!(
        wait_gone(tag, Duration::from_secs(10)),
        Vec::<String>::new(),
        "every engine process (and helper) is gone"
    );
    assert_eq!(
        zombie_children(),
        Vec::<String>::new(),
        "no zombie children"
    );
    Played {
        games: games.into_values().collect(),
        wall,
        dir,
    }
}

struct Played {
    games: Vec<GameRecord>,
    wall: Duration,
    dir: std::path::PathBuf,
}

impl Drop for Played {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.dir);
    }
}

fn bad_side(g: &GameRecord) -> Side {
    if g.south == "bad" {
        Side::South
    } else {
        Side::North
    }
}

fn kinds(games: &[GameRecord]) -> Vec<TerminationKind> {
    games.iter().map(|g| g.termination.kind).collect()
}

fn engine(tokens: &[String]) -> EngineConfig {
    otau::arena::config::EngineSpec::parse("--engine 1", tokens)
        .unwrap()
        .build(&Default::default(), 0)
        .unwrap()
}

#[test]
fn an_engine_that_stops_reading_mid_game_loses_by_stall_and_the_run_goes_on() {
    let _serial = otau::sync::lock(&SERIAL);
    let games = within(Duration::from_secs(60), || {
        let tag = tag("deaf");
        // The deaf engine answers every move without reading (it replays the game against the
        // `ok` mode), so the positions the arena writes pile up in its 4 KiB input pipe; seed 2
        // gives games long enough to fill it.
        let config = config(
            vec![
                fake("bad", "deaf", &tag, "depth=1 timeout=0.5"),
                fake("good", "ok", &tag, "depth=1"),
            ],
            1,
            2,
        );
        play("deaf", config, &tag, |_| {}).games.clone()
    });
    assert_eq!(kinds(&games), [TerminationKind::Stall; 2], "{games:?}");
    for g in &games {
        assert_eq!(g.termination.side, Some(bad_side(g)));
        assert!(
            g.termination.detail.contains("input not read") && g.termination.detail.contains("go"),
            "{g:?}"
        );
        // It played on until the pipe was full: well into the game.
        assert!(g.moves.len() > 20, "{g:?}");
    }
}

#[test]
fn a_70_kb_option_to_an_engine_that_reads_nothing_stalls_within_the_startup_timeout() {
    let _serial = otau::sync::lock(&SERIAL);
    let (error, wall, tag) = within(Duration::from_secs(30), || {
        let tag = tag("deaf-start");
        let mut deaf = fake("bad", "deaf-start", &tag, "depth=1");
        deaf.options.push(("Book".into(), "x".repeat(70_000)));
        let config = config(vec![deaf, fake("good", "ok", &tag, "depth=1")], 1, 5);
        let dir = scratch("deaf-start");
        let opts = RunOptions {
            out: Some(dir.join("r.jsonl")),
            log_dir: dir.join("logs"),
            ..RunOptions::default()
        };
        let started = Instant::now();
        // The start-up check before the first game meets the stall: the run stops there.
        let error = run(config, &opts).expect_err("the start-up check fails");
        let _ = std::fs::remove_dir_all(&dir);
        (format!("{error:#}"), started.elapsed(), tag)
    });
    assert!(
        error.contains("engine 'bad'")
            && error.contains("input not read")
            && error.contains("setoption"),
        "{error}"
    );
    assert!(!error.contains("engine 'good'"), "{error}");
    // Within the 1 s start-up timeout (not forever).
    assert!(wall < Duration::from_secs(10), "{wall:?}");
    assert_eq!(
        wait_gone(&tag, Duration::from_secs(10)),
        Vec::<String>::new()
    );
    assert_eq!(
        zombie_children(),
        Vec::<String>::new(),
        "no zombie children"
    );
}

#[test]
fn a_crash_behind_a_helper_that_holds_the_pipes_is_a_crash_seen_at_once() {
    let _serial = otau::sync::lock(&SERIAL);
    let (games, wall) = within(Duration::from_secs(40), || {
        let tag = tag("wrapped");
        // A wrapper script: a helper in the background holding stdin, stdout and stderr, and the
        // engine exec'd in the shell's place; the engine crashes at its third go.
        let script =
            format!("{ARENA} fake-engine helper {tag} & exec {ARENA} fake-engine crash-mid {tag}");
        let wrapped = engine(&[
            "name=bad".into(),
            "cmd=/bin/sh".into(),
            format!("args=-c '{script}'"),
            "depth=1".into(),
            "timeout=30".into(),
        ]);
        let config = config(vec![wrapped, fake("good", "ok", &tag, "depth=1")], 1, 11);
        let p = play("wrapped", config, &tag, |_| {});
        (p.games.clone(), p.wall)
    });
    assert_eq!(kinds(&games), [TerminationKind::Crash; 2], "{games:?}");
    for g in &games {
        assert_eq!(g.termination.side, Some(bad_side(g)));
        assert!(g.termination.detail.contains("exited with code 1"), "{g:?}");
    }
    // Not the 30 s move timeout (twice): the exit itself was seen.
    assert!(wall < Duration::from_secs(10), "{wall:?}");
}

#[test]
fn a_crash_loop_is_forfeited_and_its_stderr_flood_capped_per_run() {
    let _serial = otau::sync::lock(&SERIAL);
    let tag = tag("crash-flood");
    let config = config(
        vec![
            fake("bad", "crash-flood", &tag, "depth=1"),
            fake("good", "ok", &tag, "depth=1"),
        ],
        3,
        11,
    );
    let limit = 256 * 1024;
    let p = play("crash-flood", config, &tag, |o| o.log_limit = limit);
    use TerminationKind::*;
    // Three crashes in a row (--max-crashes 3), then the remaining games are forfeited.
    assert_eq!(
        kinds(&p.games),
        [Crash, Crash, Crash, Forfeit, Forfeit, Forfeit]
    );
    for g in &p.games[3..] {
        assert_eq!(g.termination.side, Some(bad_side(g)));
        let d = &g.termination.detail;
        assert!(
            d.contains("bad crashed in 3 games in a row") && d.contains("exited with code 4"),
            "{d}"
        );
    }
    // Each process wrote 1 MiB to stderr; the engine's log holds the run's limit and one note.
    let log = p.dir.join("logs").join("bad.stderr.log");
    let size = std::fs::metadata(&log).unwrap().len();
    assert!(size > limit && size < limit + 1024, "{size}");
    let text = std::fs::read_to_string(&log).unwrap();
    assert_eq!(text.matches("log limit").count(), 1);
}

/// The arena binary playing `late` (600 ms a move, allowed 1 s + 300 ms) against `ok` in two
/// short games, in a process group of its own (signals to it reach nothing else).
fn late_match(name: &str, tag: &str) -> (std::process::Child, std::path::PathBuf) {
    let dir = scratch(name);
    let child = crate::support::command(ARENA)
        .args([
            "--engine",
            "name=late",
            &format!("cmd={ARENA}"),
            &format!("args=fake-engine late {tag}"),
            "st=1",
            "timemargin=300",
            "--engine",
            "name=ok",
            &format!("cmd={ARENA}"),
            &format!("args=fake-engine ok {tag}"),
            "depth=1",
            "--max-plies",
            "8",
            "--seed",
            "3",
            "--quiet",
            "--out",
        ])
        .arg(dir.join("r.jsonl"))
        .arg("--log-dir")
        .arg(dir.join("logs"))
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .process_group(0)
        .spawn()
        .unwrap();
    (child, dir)
}

use std::os::unix::process::CommandExt;

fn signal(pid: u32, sig: i32) {
    // SAFETY: kill has no memory-safety preconditions.
    unsafe {
        libc::kill(pid as i32, sig);
    }
}

fn assert_no_time_loss(dir: &Path) {
    let games = RecordsFile::read(&dir.join("r.jsonl")).unwrap().games;
    assert_eq!(games.len(), 2);
    for g in games.values() {
        assert_eq!(g.termination.kind, TerminationKind::MaxPlies, "{g:?}");
    }
}

/// Waits for `late`'s first think in the run (its stderr log says `go 1` as it begins: the game
/// is under way), however long a loaded machine takes to get there.
fn await_first_think(dir: &Path) {
    let log = dir.join("logs/late.stderr.log");
    assert!(
        poll_until(Duration::from_secs(60), || has_line(
            &log,
            "fake-engine: go 1"
        )),
        "late's first think (`fake-engine: go 1` in {}) not within 60 s",
        log.display()
    );
}

/// Waits for process `pid` to be stopped (state `T`).
fn await_stopped(pid: u32, what: &str) {
    assert!(
        poll_until(Duration::from_secs(30), || state(pid) == Some('T')),
        "{what} ({pid}) not stopped within 30 s: state {:?}",
        state(pid)
    );
}

/// How long the arena is kept stopped: longer than `late`'s think and its whole allowance (1 s +
/// 300 ms) together, so a stop charged to the thinking engine would lose it the game. This is the
/// length of the stimulus, not a wait for something to happen: a loaded machine can only make the
/// stop longer, which makes the test no weaker.
const STOP: Duration = Duration::from_millis(1500);

#[test]
fn a_stop_the_arena_cannot_catch_is_charged_to_nobody() {
    let _serial = otau::sync::lock(&SERIAL);
    within(Duration::from_secs(120), || {
        let tag = tag("sigstop");
        let (mut arena, dir) = late_match("sigstop", &tag);
        // During `late`'s think: it has just begun its 600 ms (the arena waits for its move).
        await_first_think(&dir);
        signal(arena.id(), libc::SIGSTOP);
        await_stopped(arena.id(), "the arena");
        std::thread::sleep(STOP);
        signal(arena.id(), libc::SIGCONT);
        assert!(arena.wait().unwrap().success());
        assert_no_time_loss(&dir);
        assert_eq!(
            wait_gone(&tag, Duration::from_secs(10)),
            Vec::<String>::new()
        );
        let _ = std::fs::remove_dir_all(&dir);
    });
}

#[test]
fn ctrl_z_pauses_the_engines_too_and_sigcont_resumes_the_match() {
    let _serial = otau::sync::lock(&SERIAL);
    within(Duration::from_secs(120), || {
        let tag = tag("sigtstp");
        let (mut arena, dir) = late_match("sigtstp", &tag);
        await_first_think(&dir);
        // The game's two engines. The arena's own command line carries the tag too, and so does
        // its guardian (a fork); the start-up check's engines, which get no `go`, may still be
        // ending: wait until only the game's two are left.
        let engines = || -> Vec<u32> {
            run_processes(&tag, arena.id())
                .into_iter()
                .filter(|&p| !matches!(state(p), None | Some('Z' | 'X')))
                .collect()
        };
        let mut found = Vec::new();
        assert!(
            poll_until(Duration::from_secs(60), || {
                found = engines();
                found.len() == 2
            }),
            "two engines running (late thinking) not within 60 s: {found:?}"
        );
        let engines = found;
        signal(arena.id(), libc::SIGTSTP);
        // The arena stops its engines' groups, then itself.
        let all_stopped =
            || state(arena.id()) == Some('T') && engines.iter().all(|&p| state(p) == Some('T'));
        let stopped = poll_until(Duration::from_secs(30), all_stopped);
        let states: Vec<_> = engines.iter().map(|&p| state(p)).collect();
        assert!(
            stopped,
            "arena and both engines stopped, not within 30 s: arena {:?}, engines {states:?}",
            state(arena.id())
        );
        // The match stays paused for longer than a move's allowance (see `STOP`).
        std::thread::sleep(STOP);
        signal(arena.id(), libc::SIGCONT);
        assert!(arena.wait().unwrap().success());
        assert_no_time_loss(&dir);
        assert_eq!(
            wait_gone(&tag, Duration::from_secs(10)),
            Vec::<String>::new()
        );
        let _ = std::fs::remove_dir_all(&dir);
    });
}

#[test]
fn a_closed_output_ends_the_run_like_ctrl_c() {
    let _serial = otau::sync::lock(&SERIAL);
    within(Duration::from_secs(60), || {
        let tag = tag("epipe");
        let dir = scratch("epipe");
        // `otau-arena ... 2>&1 | head -1`: stdout and stderr are one pipe, whose reader goes
        // away after the first line of progress.
        let (reader, writer) = std::io::pipe().unwrap();
        let mut arena = crate::support::command(ARENA)
            .args([
                "--engine",
                "name=a",
                &format!("cmd={ARENA}"),
                &format!("args=fake-engine ok {tag}"),
                "depth=1",
                "--engine",
                "name=b",
                &format!("cmd={ARENA}"),
                &format!("args=fake-engine ok {tag}"),
                "depth=1",
                "--rounds",
                "200",
                "--seed",
                "1",
                "--out",
            ])
            .arg(dir.join("r.jsonl"))
            .arg("--log-dir")
            .arg(dir.join("logs"))
            .stdout(writer.try_clone().unwrap())
            .stderr(writer)
            .process_group(0)
            .spawn()
            .unwrap();
        let mut lines = BufReader::new(reader);
        let mut seen = String::new();
        while !seen.starts_with("Finished game") {
            seen.clear();
            assert!(lines.read_line(&mut seen).unwrap() > 0, "no progress line");
        }
        drop(lines);
        let status = arena.wait().unwrap();
        // As Ctrl-C: exit status 130, not a panic (101).
        assert_eq!(status.code(), Some(130), "{status:?}");
        let records = RecordsFile::read(&dir.join("r.jsonl")).unwrap();
        assert!(!records.games.is_empty() && records.games.len() < 400);
        assert_eq!(
            wait_gone(&tag, Duration::from_secs(10)),
            Vec::<String>::new()
        );
        let _ = std::fs::remove_dir_all(&dir);
    });
}
