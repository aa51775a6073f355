//! A worker: takes games off the feed and plays each with engines from its [`Pool`], in named
//! steps (forfeit, start, new game, play).

use std::sync::atomic::Ordering;
use std::sync::mpsc::Sender;
use std::time::Duration;

use crate::arena::config::RunConfig;
use crate::arena::engine::client::{EngineSession, Fault};
use crate::arena::engine::process::log_file;
use crate::arena::game::openings::Opening;
use crate::arena::matchmaking::referee::{self, Adjudication, Waits};
use crate::arena::matchmaking::tournament::feed::Next;
use crate::arena::matchmaking::tournament::forfeit::{self, fault_kind, lose};
use crate::arena::matchmaking::tournament::pool::{start_engine, Pool};
use crate::arena::matchmaking::tournament::shared::{Msg, RunState};
use crate::arena::pairing::GameSpec;
use crate::arena::records::{GameRecord, OpeningRecord, Termination, TerminationKind};
use crate::arena::system::interrupt;
use crate::games::{Outcome, Side};
use crate::sync::{lock, recover};

/// One worker: takes games off the queue until it is empty, the run stops, or Ctrl-C.
pub(super) fn worker(shared: &RunState<'_>, tx: Sender<Msg>) {
    let mut pool = Pool::new(shared.config.engines.len(), shared.opts.quit_grace);
    loop {
        if interrupt::requested() || shared.stop.load(Ordering::SeqCst) {
            break;
        }
        let Some((spec, opening, note)) = next_game(shared) else {
            break;
        };
        if let Some(note) = note {
            let _ = tx.send(Msg::Note(note));
        }
        let seats = [spec.south, spec.north];
        pool.seat(seats);
        match play_scheduled(shared, &spec, &opening, &mut pool, &tx) {
            // A game that ended as Ctrl-C came may have ended *because* of it (its engines were
            // killed): it is dropped, and a resumed run plays it again.
            Some(_) if interrupt::requested() => break,
            Some(record) => {
                let notes = lock(&shared.health).count_crashes(shared.config, seats, &record);
                for note in notes {
                    let _ = tx.send(Msg::Note(note));
                }
                if !shared.opts.recover && stops_without_recover(record.termination.kind) {
                    // Before the next game is taken: --no-recover plays no game after a fault.
                    shared.stop.store(true, Ordering::SeqCst);
                }
                let (result, unplayed) = (record.result, record.termination.unplayed);
                // Sent before the feed learns the result: the pairing's next games made from it
                // (a knockout's next wave) can then never be recorded before this game.
                if tx.send(Msg::Game(Box::new(record))).is_err() {
                    break;
                }
                lock(&shared.feed).finished(&spec, result, unplayed);
                shared.feed_changed.notify_all();
            }
            None => break, // interrupted: the game is dropped unrecorded
        }
    }
    shared.feed_changed.notify_all();
    pool.shutdown();
}

/// How long a worker waits for the pairing's next games (a knockout's next wave) before it looks at Ctrl-C and the stop
/// flag again.
const WAIT_STEP: Duration = Duration::from_millis(100);

/// The next game to play, or None when there is none (or the run stops). While the pairing's
/// next games depend on games other workers are playing, waits for them in steps of
/// [`WAIT_STEP`], never past Ctrl-C or a stop.
fn next_game(shared: &RunState<'_>) -> Option<(GameSpec, Opening, Option<String>)> {
    let mut feed = lock(&shared.feed);
    loop {
        match feed.next() {
            Next::Game(spec, opening, note) => return Some((spec, opening, note)),
            Next::Done => return None,
            Next::Wait => {
                if interrupt::requested() || shared.stop.load(Ordering::SeqCst) {
                    return None;
                }
                feed = recover(shared.feed_changed.wait_timeout(feed, WAIT_STEP)).0;
            }
        }
    }
}

/// The faults `--no-recover` stops the run at.
pub(super) fn stops_without_recover(kind: TerminationKind) -> bool {
    matches!(kind, TerminationKind::Crash | TerminationKind::Stall)
}

/// Why a game ended before its first move.
enum Unready {
    /// An engine lost it (the record says how).
    Lost,
    /// Ctrl-C: the game is dropped.
    Interrupted,
}

/// Plays one scheduled game (or forfeits it); None when interrupted.
fn play_scheduled(
    shared: &RunState<'_>,
    spec: &GameSpec,
    opening: &Opening,
    pool: &mut Pool,
    tx: &Sender<Msg>,
) -> Option<GameRecord> {
    let seats = [spec.south, spec.north];
    let mut record = unplayed(shared.config, spec, opening);
    if forfeit::disqualified(&lock(&shared.health), seats, &mut record) {
        return Some(record);
    }
    let ready = start_missing(shared, seats, pool, tx, &mut record)
        .and_then(|()| new_games(shared, seats, pool, &mut record));
    match ready {
        Ok(()) => {}
        Err(Unready::Lost) => return Some(record),
        Err(Unready::Interrupted) => return None,
    }
    play_out(shared, spec, opening, pool, &mut record)?;
    for e in seats {
        if shared.config.engines[e].restart {
            pool.retire(e);
        }
    }
    Some(record)
}

/// The record of game `spec` before a move is played: its players and opening, and (until a
/// step below sets them) no moves, a draw, and a forfeit.
fn unplayed(config: &RunConfig, spec: &GameSpec, opening: &Opening) -> GameRecord {
    GameRecord {
        index: spec.index,
        pair: spec.pair,
        round: spec.round,
        encounter: spec.encounter,
        game: config.game.clone(),
        south: config.engines[spec.south].name.clone(),
        north: config.engines[spec.north].name.clone(),
        opening: OpeningRecord {
            start: opening.start.to_string(),
            moves: opening.move_names(),
        },
        moves: Vec::new(),
        final_position: opening.line().position().to_string(),
        result: Outcome::Draw,
        termination: Termination::of(TerminationKind::Forfeit),
        totals: None,
    }
}

/// Starts the engines of `seats` that are not running; one that fails loses the game, and its
/// start failures are counted.
fn start_missing(
    shared: &RunState<'_>,
    seats: [usize; 2],
    pool: &mut Pool,
    tx: &Sender<Msg>,
    record: &mut GameRecord,
) -> Result<(), Unready> {
    for side in Side::BOTH {
        let e = seats[side.index()];
        if pool.has(e) {
            continue;
        }
        match start_engine(shared, e, tx) {
            Ok(s) => {
                lock(&shared.health).started(e);
                pool.put(e, s);
            }
            Err(Fault::Interrupted) => return Err(Unready::Interrupted),
            Err(f) => {
                let note = lock(&shared.health).start_failed(shared.config, e, &f);
                if let Some(note) = note {
                    let _ = tx.send(Msg::Note(note));
                }
                lose(record, side, fault_kind(&f), format!("at start-up: {f}"));
                return Err(Unready::Lost);
            }
        }
    }
    Ok(())
}

/// A new game for both engines; one that fails loses the game and is ended.
fn new_games(
    shared: &RunState<'_>,
    seats: [usize; 2],
    pool: &mut Pool,
    record: &mut GameRecord,
) -> Result<(), Unready> {
    let timeout = Duration::from_millis(shared.config.startup_timeout_ms);
    for side in Side::BOTH {
        let e = seats[side.index()];
        if let Err(f) = pool.get(e).new_game(timeout) {
            if f == Fault::Interrupted {
                return Err(Unready::Interrupted);
            }
            pool.discard(e);
            lose(record, side, fault_kind(&f), format!("at new game: {f}"));
            return Err(Unready::Lost);
        }
    }
    Ok(())
}

/// Plays the game out under the referee and records how it ended; an engine that faulted is
/// ended. None when interrupted.
fn play_out(
    shared: &RunState<'_>,
    spec: &GameSpec,
    opening: &Opening,
    pool: &mut Pool,
    record: &mut GameRecord,
) -> Option<()> {
    let config = shared.config;
    let limits = [
        &config.engines[spec.south].limits,
        &config.engines[spec.north].limits,
    ];
    let adjudication = Adjudication {
        max_plies: config.max_plies,
        decided_score: config.adjudicate_decided,
        rules: config.adjudication,
    };
    let waits = Waits {
        drain: Duration::from_millis(500),
        ping: Duration::from_millis(config.startup_timeout_ms),
    };
    let live = shared.opts.live.as_deref().map(|w| (w, spec.index));
    if let Some((watch, index)) = live {
        let names = [&record.south, &record.north].map(String::as_str);
        watch.game_started(index, names, &opening.line(), &record.opening.moves);
    }
    let confine = [
        &config.engines[spec.south].confine,
        &config.engines[spec.north].confine,
    ];
    let players = pool.pair(spec.south, spec.north);
    let played = referee::play(opening, players, limits, confine, adjudication, waits, live);
    let Ok(end) = played else {
        if let Some((watch, index)) = live {
            watch.dropped(index);
        }
        return None;
    };
    {
        let mut cpu = lock(&shared.cpu);
        for (e, used) in [spec.south, spec.north].into_iter().zip(&end.cpu) {
            cpu[e].add(used);
        }
    }
    let mut termination = end.termination;
    for side in Side::BOTH {
        if end.faulted[side.index()] {
            let e = [spec.south, spec.north][side.index()];
            if termination.kind == TerminationKind::Crash && termination.side == Some(side) {
                termination.detail += &crash_detail(shared, e, pool.get(e));
            }
            pool.discard(e);
        }
    }
    record.moves = end.moves;
    record.final_position = end.final_position;
    record.result = end.result;
    record.termination = termination;
    record.totals = end.totals;
    Some(())
}

/// What a crash in a game adds to its detail (and so to the game line and the crash-loop
/// notice): the engine's last stderr line and its log file, as the start-up check names them.
/// Nothing for a built-in player, which has no process.
fn crash_detail(shared: &RunState<'_>, e: usize, session: &EngineSession) -> String {
    let cfg = &shared.config.engines[e];
    if cfg.builtin().is_some() {
        return String::new();
    }
    let path = log_file(&shared.opts.log_dir, &cfg.name);
    let mut text = String::new();
    if let Some(last) = session
        .pid()
        .and_then(|pid| crate::arena::engine::preflight::last_stderr_line(&path, pid))
    {
        text.push_str(&format!("; its stderr ended: '{last}'"));
    }
    text.push_str(&format!(" (log: {})", path.display()));
    text
}
