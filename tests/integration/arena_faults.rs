//! Real misbehaving engines (the hidden `otau-arena fake-engine <mode>`) against a sound one:
//! each fault ends in its named termination, the match completes, and no process is left.

use std::time::Duration;

use crate::support::arena::*;
use otau::arena::matchmaking::tournament::{run, RunOptions};
use otau::arena::records::{GameRecord, RecordsFile, TerminationKind};
use otau::cli::arena::fake_engine::{first_start_marker, FakeMode};
use otau::games::Side;

/// Plays `rounds` rounds of `mode` (under `limits`) against a sound engine; returns the games.
fn match_against(mode: &str, limits: &str, rounds: u32) -> Vec<GameRecord> {
    let _serial = otau::sync::lock(&SERIAL);
    let tag = tag(mode);
    let dir = scratch(mode);
    let config = config(
        vec![
            fake("bad", mode, &tag, limits),
            // The sound engine is never timed: a loaded machine cannot make it lose on time.
            fake("good", "ok", &tag, "depth=1"),
        ],
        rounds,
        11,
    );
    let opts = RunOptions {
        out: Some(dir.join("r.jsonl")),
        log_dir: dir.join("logs"),
        ..RunOptions::default()
    };
    let report = run(config, &opts).expect("the match runs");
    for m in [FakeMode::CrashRestart, FakeMode::StallRestart] {
        let _ = std::fs::remove_file(first_start_marker(m, &tag, std::process::id()));
    }
    assert_eq!(report.missing, 0, "the match completes");
    assert_eq!(report.standings.len() as u32, 2 * rounds);
    let games = RecordsFile::read(&dir.join("r.jsonl")).unwrap().games;
    // Every engine process (and helper) is gone and reaped.
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
    games.into_values().collect()
}

fn bad_side(g: &GameRecord) -> Side {
    if g.south == "bad" {
        Side::South
    } else {
        Side::North
    }
}

/// Each game lost by "bad" with `kind`.
fn assert_all(games: &[GameRecord], kind: TerminationKind) {
    for g in games {
        assert_eq!(g.termination.kind, kind, "{g:?}");
        assert_eq!(g.termination.side, Some(bad_side(g)), "{g:?}");
        assert_eq!(g.result.half_points(bad_side(g)), 0);
    }
}

/// An engine that passed the start-up check (`tests/integration/arena_preflight.rs` has those that do not)
/// and then fails every restart.
#[test]
fn crash_at_start_is_lost_then_forfeited() {
    let games = match_against("crash-restart", "depth=1", 3);
    let kinds: Vec<_> = games.iter().map(|g| g.termination.kind).collect();
    use TerminationKind::*;
    assert_eq!(kinds, [Crash, Crash, Crash, Forfeit, Forfeit, Forfeit]);
    assert!(games[0].termination.detail.contains("start-up"));
    assert!(games.iter().all(|g| g.result.half_points(bad_side(g)) == 0));
}

#[test]
fn stall_at_start_is_named() {
    let games = match_against("stall-restart", "depth=1", 2);
    let kinds: Vec<_> = games.iter().map(|g| g.termination.kind).collect();
    use TerminationKind::*;
    assert_eq!(kinds, [Stall, Stall, Stall, Forfeit]);
}

#[test]
fn crash_mid_game_loses_and_the_engine_is_restarted() {
    let games = match_against("crash-mid", "depth=1", 2);
    // Three crashes in a row are a crash loop (--max-crashes 3): the fourth game is forfeited.
    assert_all(&games[..3], TerminationKind::Crash);
    assert_eq!(games[3].termination.kind, TerminationKind::Forfeit);
    assert!(games[3]
        .termination
        .detail
        .contains("crashed in 3 games in a row (last: exited"));
    // The crash-loop notice names the engine's last stderr line and its log, as the game does.
    assert!(
        games[3]
            .termination
            .detail
            .contains("; its stderr ended: 'fake-engine: out of memory in search' (log: "),
        "{:?}",
        games[3]
    );
    for g in &games[..3] {
        // Two moves by the bad engine, then the crash on its third go (a fresh process each game).
        let bad_moves = g
            .moves
            .iter()
            .enumerate()
            .filter(|(i, _)| (i % 2 == 0) == (bad_side(g) == Side::South))
            .count();
        assert_eq!(bad_moves, 2, "{g:?}");
        assert!(g.termination.detail.contains("exited with code 1"), "{g:?}");
        // The game names the engine's last stderr line and its log file, as the start-up check
        // does.
        assert!(
            g.termination
                .detail
                .contains("; its stderr ended: 'fake-engine: out of memory in search' (log: "),
            "{g:?}"
        );
        assert!(g.termination.detail.ends_with("bad.stderr.log)"), "{g:?}");
    }
}

/// The closed pipe came 300 ms before the exit status: the crash still reads as the exit it
/// was (on a loaded machine the two arrive in either order).
#[test]
fn a_crash_reads_the_same_when_the_exit_comes_after_the_closed_pipe() {
    let games = match_against("crash-slow-exit", "depth=1", 1);
    assert_all(&games, TerminationKind::Crash);
    for g in &games {
        assert!(
            g.termination
                .detail
                .contains("exited with code 1 while waiting for bestmove"),
            "{g:?}"
        );
    }
}

#[test]
fn never_answering_loses_on_time() {
    let games = match_against("no-answer", "st=0.1 timemargin=50", 2);
    assert_all(&games, TerminationKind::TimeLoss);
    assert!(games.iter().all(|g| g.moves.len() <= 1));
}

#[test]
fn late_moves_lose_and_never_leak_into_the_next_game() {
    let games = match_against("late", "st=0.15 timemargin=20", 2);
    assert_all(&games, TerminationKind::TimeLoss);
    // Had a late bestmove been taken for a later go, a game would have gone on past the bad
    // engine's first move.
    assert!(games.iter().all(|g| g.moves.len() <= 1), "{games:?}");
}

/// Three games lost in a row by an illegal move stop the engine as three crashes do
/// (`--max-crashes 3`): an engine that plays another game than the run's would otherwise lose
/// every game of a long run the same way.
#[test]
fn illegal_move_loses() {
    let games = match_against("illegal", "depth=1", 2);
    assert_all(&games[..3], TerminationKind::IllegalMove);
    assert!(games[..3]
        .iter()
        .all(|g| g.termination.detail.contains("illegal")
            || g.termination.detail.contains("malformed")));
    assert_eq!(games[3].termination.kind, TerminationKind::Forfeit);
    assert!(
        games[3]
            .termination
            .detail
            .contains("lost 3 games in a row by an illegal or malformed move (last: "),
        "{:?}",
        games[3]
    );
}

#[test]
fn garbage_is_survived_and_an_unreadable_move_loses() {
    let games = match_against("garbage", "depth=1", 2);
    assert_all(&games[..3], TerminationKind::IllegalMove);
    assert!(
        games[..3]
            .iter()
            .all(|g| g.termination.detail.contains("malformed")),
        "{games:?}"
    );
    assert_eq!(games[3].termination.kind, TerminationKind::Forfeit);
}

#[test]
fn output_flood_loses_on_time_without_exhausting_the_arena() {
    let games = match_against("flood", "st=0.2", 2);
    assert_all(&games, TerminationKind::TimeLoss);
}

#[test]
fn ignoring_quit_still_leaves_nothing_behind() {
    let games = match_against("ignore-quit", "depth=1", 2);
    assert!(games
        .iter()
        .all(|g| g.termination.kind == TerminationKind::Rules));
}
