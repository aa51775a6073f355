//! Running a whole schedule: worker threads play games concurrently, each keeping its engines
//! between games; the calling thread records every game the moment it ends.
//!
//! Faults never stop the run (unless `--no-recover`): the faulty engine loses the game and is
//! restarted for its next one; an engine that fails to start `max_start_failures` times in a row
//! is disqualified and its remaining games are forfeited instead of looping, and so is one that
//! crashes in `max_crashes` games in a row (a crash loop).

use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{channel, Sender};
use std::sync::Mutex;
use std::time::Duration;

use anyhow::{bail, Result};

use super::builtin;
use super::client::{EngineSession, Fault};
use super::config::{EngineConfig, RunConfig};
use super::interrupt;
use super::openings::{Opening, OpeningBook};
use super::process::{EngineIo, Guardian, LogBudget, Spawn, MAX_LOG_BYTES};
use super::progress::{Progress, ProgressMode};
use super::records::{
    Event, GameRecord, GameResult, OpeningRecord, RunHeader, Termination, TerminationKind, FORMAT,
};
use super::referee::{self, Adjudication, Waits};
use super::results::Standings;
use super::run_files::{self, RunFiles};
use super::schedule::{GameSpec, Schedule, Shard};
use crate::games::{Game, Side, Variant};

/// How to run (not part of the run's identity: may differ when resuming).
#[derive(Clone, Debug)]
pub struct RunOptions {
    pub concurrency: usize,
    pub shard: Option<Shard>,
    /// JSON-lines records.
    pub out: Option<PathBuf>,
    pub pgn: Option<PathBuf>,
    /// An existing PGN gets this run's games after what it holds (else it is refused).
    pub pgn_append: bool,
    /// The HTML report, written at the end of each session.
    pub report: Option<PathBuf>,
    /// Engine faults do not stop the run.
    pub recover: bool,
    pub progress: ProgressMode,
    /// Plain progress: the head-to-head results every this many games.
    pub rating_interval: u64,
    /// Engines' stderr logs go here.
    pub log_dir: PathBuf,
    /// PGN `Event` tag.
    pub event: String,
    /// Time an engine gets to exit after `quit` before it is killed.
    pub quit_grace: Duration,
    /// `--log-limit`: stderr bytes logged per engine in this run (all its processes).
    pub log_limit: u64,
    /// The rating table's prior (`--rating-prior`).
    pub rating: crate::stats::RatingOptions,
}

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            concurrency: 1,
            shard: None,
            out: None,
            pgn: None,
            pgn_append: false,
            report: None,
            recover: true,
            progress: ProgressMode::Quiet,
            rating_interval: 0,
            log_dir: PathBuf::from("otau-arena-logs"),
            event: "otau-arena".into(),
            quit_grace: Duration::from_millis(300),
            log_limit: MAX_LOG_BYTES,
            rating: crate::stats::RatingOptions::default(),
        }
    }
}

/// What a run produced.
#[derive(Debug)]
pub struct RunReport {
    pub header: RunHeader,
    /// Every game of this run's slice recorded so far (resumed ones included), by index.
    /// Every game of this run's slice recorded so far (resumed ones included).
    pub standings: Standings,
    /// Games of this slice still unplayed (interrupted or stopped).
    pub missing: u64,
    pub interrupted: bool,
    /// Why the run stopped early, if it did: a fault under `--no-recover`.
    pub stopped: Option<String>,
    /// The SPRT's decision, when it ended the run.
    pub sprt_decided: Option<String>,
    /// This session's cost: engine plies played, wall time, and the arena's own CPU time
    /// (all its threads, engines excluded).
    pub cost: Cost,
}

#[derive(Clone, Copy, Debug, Default)]
pub struct Cost {
    pub plies: u64,
    pub wall: Duration,
    pub arena_cpu: Duration,
}

impl Cost {
    /// `N plies in X s (Y plies/s); arena CPU Z us/ply`.
    pub fn describe(&self) -> String {
        let secs = self.wall.as_secs_f64().max(1e-9);
        let per_ply = self.arena_cpu.as_secs_f64() * 1e6 / (self.plies.max(1) as f64);
        format!(
            "{} plies in {:.1} s ({:.0} plies/s); arena CPU {:.2} s, {:.1} us/ply",
            self.plies,
            secs,
            self.plies as f64 / secs,
            self.arena_cpu.as_secs_f64(),
            per_ply
        )
    }
}

/// CPU time of this process (every thread; children excluded).
fn own_cpu() -> Duration {
    // SAFETY: getrusage fills the zeroed struct it is given.
    let usage = unsafe {
        let mut u: libc::rusage = std::mem::zeroed();
        libc::getrusage(libc::RUSAGE_SELF, &mut u);
        u
    };
    let tv = |t: libc::timeval| Duration::new(t.tv_sec as u64, t.tv_usec as u32 * 1000);
    tv(usage.ru_utime) + tv(usage.ru_stime)
}

/// Starts a new run.
pub fn run(config: RunConfig, opts: &RunOptions) -> Result<RunReport> {
    // The start-up check of the engines (in check_config) comes last, after every check
    // that costs nothing.
    check_sprt_shard(&config, opts.shard)?;
    run_files::check_fresh(&config, opts)?;
    check_config(&config, opts)?;
    let scheduled = full_schedule(&config).len();
    let mut header = RunHeader {
        format: FORMAT,
        arena: env!("CARGO_PKG_VERSION").to_string(),
        config,
        scheduled,
        shard: opts.shard,
        outputs: None,
    };
    let files = run_files::open_fresh(&mut header, opts)?;
    let mut standings = new_standings(&header.config);
    standings.set_rating(opts.rating);
    execute(header, standings, files, opts)
}

/// Continues the run recorded in `path`: same configuration, schedule, openings, shard and
/// outputs; plays only the games not yet recorded, appending to the same file.
pub fn resume(path: &Path, opts: &RunOptions) -> Result<RunReport> {
    let (file, files, opts) = run_files::open_resume(path, opts, |h, opts| {
        check_sprt_shard(&h.config, h.shard)?;
        check_config(&h.config, opts)
    })?;
    let mut done = new_standings(&file.header.config);
    done.set_rating(opts.rating);
    // In the order the games finished: the SPRT finds the decision where the run found it.
    for index in &file.order {
        done.add(&file.games[index]);
    }
    execute(file.header, done, files, &opts)
}

/// Empty standings for a run's engines and SPRT.
pub fn new_standings(config: &RunConfig) -> Standings {
    Standings::new(config.engine_names(), config.sprt)
}

/// `--sprt` with `--shard` is refused: a sequential test's error rates hold only if it sees
/// every game as it finishes and stops at the first crossing; a shard sees a part of the games
/// and would stop on its own part, and a merge of such shards is no sequential test at all.
pub fn check_sprt_shard(config: &RunConfig, shard: Option<Shard>) -> Result<()> {
    if let (Some(_), Some(shard)) = (config.sprt, shard) {
        bail!(
            "--sprt cannot be combined with --shard {shard}: a sequential test must see every \
             game as it finishes to stop at the right one, and each shard would stop on its own \
             part of the results. Run the SPRT unsharded (use --concurrency for speed), or play \
             fixed-size shards without --sprt (--games N --shard k/n) and get a fixed-sample \
             verdict on the merged counts with: otau-arena merge PART.jsonl... --sprt elo0=A elo1=B"
        );
    }
    Ok(())
}

/// The configuration can be played, and every engine starts (before any file is written).
fn check_config(config: &RunConfig, opts: &RunOptions) -> Result<()> {
    config.check_values().map_err(anyhow::Error::msg)?;
    let variant: Variant = config.game.parse().map_err(anyhow::Error::msg)?;
    if crate::games::AnyGame::start(variant)
        .legal_moves()
        .is_empty()
    {
        bail!(
            "{} cannot be played yet (its rules are not in this build)",
            config.game
        );
    }
    if config.engines.len() < 2 {
        bail!("a run needs at least two engines (--engine ... twice)");
    }
    for e in &config.engines {
        e.check_text().map_err(anyhow::Error::msg)?;
    }
    let mut names: Vec<&str> = config.engines.iter().map(|e| e.name.as_str()).collect();
    names.sort();
    if let Some(w) = names.windows(2).find(|w| w[0] == w[1]) {
        bail!(
            "two engines are named '{}': give each a distinct name=",
            w[0]
        );
    }
    super::preflight::check_engines(config, &opts.log_dir, opts.log_limit)
        .map_err(anyhow::Error::msg)
}

/// The schedule of the whole run (all shards), computed game by game (never listed).
pub fn full_schedule(config: &RunConfig) -> Schedule {
    Schedule::new(
        config.tournament,
        config.engines.len(),
        config.rounds,
        config.games,
    )
}

enum Msg {
    Game(Box<GameRecord>),
    Note(String),
}

/// Per-engine health, shared by the workers.
#[derive(Default)]
struct Health {
    failures_in_a_row: Vec<u32>,
    /// Games lost by a crash in a row (any phase).
    crashes_in_a_row: Vec<u32>,
    /// Why the engine's remaining games are forfeited, once they are.
    disqualified: Vec<Option<String>>,
    warned_options: Vec<bool>,
}

struct Shared<'a> {
    config: &'a RunConfig,
    variant: Variant,
    opts: &'a RunOptions,
    /// The games still to play, each with its opening.
    feed: Mutex<Feed>,
    health: Mutex<Health>,
    /// Set to stop handing out games (a fault under --no-recover).
    stop: AtomicBool,
}

/// Hands out the slice's unplayed games in game order, each with its opening: one lock for both,
/// so the openings are made in pair order and the book never has to go back. Holds the games
/// already recorded (their numbers) and the openings' state, nothing per game still to play.
struct Feed {
    games: Box<dyn Iterator<Item = GameSpec> + Send>,
    /// Numbers of the games recorded before this session, ascending; `done[skip..]` is still ahead.
    done: Vec<u64>,
    skip: usize,
    book: OpeningBook,
}

impl Feed {
    fn next(&mut self) -> Option<(GameSpec, Opening, Option<String>)> {
        let spec = loop {
            let spec = self.games.next()?;
            while self.done.get(self.skip).is_some_and(|&d| d < spec.index) {
                self.skip += 1;
            }
            if self.done.get(self.skip) != Some(&spec.index) {
                break spec;
            }
        };
        let opening = self.book.get(spec.pair);
        Some((spec, opening, self.book.take_note()))
    }
}

fn execute(
    header: RunHeader,
    mut standings: Standings,
    mut files: RunFiles,
    opts: &RunOptions,
) -> Result<RunReport> {
    let recorded_before = standings.len();
    interrupt::install();
    // Engines outside the arena's process: a guardian ends them (and what they started) even if
    // the arena is killed with -9. Dropped at the end of the run.
    let _guardian = header
        .config
        .engines
        .iter()
        .any(|e| e.builtin().is_none())
        .then(Guardian::start);
    let config = &header.config;
    let variant: Variant = config.game.parse().map_err(anyhow::Error::msg)?;
    let schedule = full_schedule(config);
    let slice_len = schedule.slice_len(opts.shard);
    let book =
        OpeningBook::new(&config.openings, variant, config.seed).map_err(anyhow::Error::msg)?;
    let feed = Feed {
        games: Box::new(schedule.games(opts.shard)),
        done: standings.indices().collect(),
        skip: 0,
        book,
    };
    let engines = config.engines.len();
    let shared = Shared {
        config,
        variant,
        opts,
        feed: Mutex::new(feed),
        health: Mutex::new(Health {
            failures_in_a_row: vec![0; engines],
            crashes_in_a_row: vec![0; engines],
            disqualified: vec![None; engines],
            warned_options: vec![false; engines],
        }),
        stop: AtomicBool::new(false),
    };
    let mut sprt_decided = sprt_decision(&standings);
    if sprt_decided.is_some() {
        // A resumed run whose SPRT had already decided: nothing more to play.
        shared.stop.store(true, Ordering::SeqCst);
    }
    let mut progress = Progress::new(opts.progress, slice_len, opts.rating_interval);
    progress.set_done(standings.len());
    let mut stopped = None;
    let started = std::time::Instant::now();
    let cpu_before = own_cpu();
    let mut plies = 0u64;
    let mut write_error = None;
    let workers = opts.concurrency.max(1);

    std::thread::scope(|scope| {
        let (tx, rx) = channel();
        for w in 0..workers {
            let tx = tx.clone();
            let shared = &shared;
            std::thread::Builder::new()
                .name(format!("arena worker {w}"))
                .spawn_scoped(scope, move || worker(shared, tx))
                .expect("spawn worker");
        }
        drop(tx);
        for msg in rx {
            match msg {
                Msg::Note(text) => {
                    if opts.progress != ProgressMode::Quiet {
                        progress.note(&text)
                    }
                }
                Msg::Game(g) => {
                    plies += g.moves.len() as u64;
                    if let Err(e) = files.record(&g) {
                        // Nothing recorded can be trusted any more: stop at once.
                        write_error.get_or_insert(e);
                        shared.stop.store(true, Ordering::SeqCst);
                        continue;
                    }
                    standings.add(&g);
                    let kind = g.termination.kind;
                    if !opts.recover && stops_without_recover(kind) && stopped.is_none() {
                        stopped = Some(format!(
                            "game {}: {} ({}); stopping (--no-recover)",
                            g.index + 1,
                            kind.name(),
                            g.termination.detail
                        ));
                        shared.stop.store(true, Ordering::SeqCst);
                    }
                    if sprt_decided.is_none() {
                        sprt_decided = sprt_decision(&standings);
                        if sprt_decided.is_some() {
                            shared.stop.store(true, Ordering::SeqCst);
                        }
                    }
                    progress.game_done(&g, &standings);
                }
            }
        }
    });
    progress.clear_live();
    if let Some(e) = write_error {
        return Err(e);
    }
    let interrupted = interrupt::requested();
    let missing = slice_len.saturating_sub(standings.len());
    // Once per state of the records: resuming a finished run adds no second summary.
    let changed = standings.len() > recorded_before || !files.summarized;
    if (missing == 0 || sprt_decided.is_some()) && changed {
        if let Some(w) = files.records.as_mut() {
            w.write(&Event::Summary(summary_json(&standings, &header)))?;
        }
    }
    let title = opts
        .out
        .as_ref()
        .map_or(String::new(), |p| p.display().to_string());
    files.finish(&standings, &title)?;
    Ok(RunReport {
        header,
        standings,
        missing,
        interrupted,
        cost: Cost {
            plies,
            wall: started.elapsed(),
            arena_cpu: own_cpu().saturating_sub(cpu_before),
        },
        stopped,
        sprt_decided,
    })
}

/// The SPRT's decision once it is final (H0 or H1 accepted), as it stood at the game that
/// crossed the bound.
fn sprt_decision(standings: &Standings) -> Option<String> {
    let stop = standings.sprt_stop()?;
    Some(format!(
        "{} ({}) after {} games",
        stop.status.decision.describe(),
        stop.status.line(),
        stop.games
    ))
}

/// The summary event: the statistics of every game recorded (`crate::stats::Summary`), and the
/// number of games scheduled.
pub fn summary_json(standings: &Standings, header: &RunHeader) -> serde_json::Value {
    let mut value = serde_json::to_value(standings.summary()).unwrap_or_default();
    if let Some(map) = value.as_object_mut() {
        map.insert("scheduled".into(), header.scheduled.into());
    }
    value
}

/// One worker: takes games off the queue until it is empty, the run stops, or Ctrl-C.
fn worker(shared: &Shared<'_>, tx: Sender<Msg>) {
    let engines = shared.config.engines.len();
    let mut sessions: Vec<Option<EngineSession>> = (0..engines).map(|_| None).collect();
    let mut last_used = vec![0u64; engines];
    let mut clock = 0u64;
    loop {
        if interrupt::requested() || shared.stop.load(Ordering::SeqCst) {
            break;
        }
        let Some((spec, opening, note)) =
            shared.feed.lock().unwrap_or_else(|e| e.into_inner()).next()
        else {
            break;
        };
        if let Some(note) = note {
            let _ = tx.send(Msg::Note(note));
        }
        clock += 1;
        last_used[spec.south] = clock;
        last_used[spec.north] = clock;
        evict(
            &mut sessions,
            &last_used,
            [spec.south, spec.north],
            shared.opts.quit_grace,
        );
        match play_scheduled(shared, &spec, &opening, &mut sessions, &tx) {
            // A game that ended as Ctrl-C came may have ended *because* of it (its engines were
            // killed): it is dropped, and a resumed run plays it again.
            Some(_) if interrupt::requested() => break,
            Some(record) => {
                count_crashes(shared, &spec, &record, &tx);
                if !shared.opts.recover && stops_without_recover(record.termination.kind) {
                    // Before the next game is taken: --no-recover plays no game after a fault.
                    shared.stop.store(true, Ordering::SeqCst);
                }
                if tx.send(Msg::Game(Box::new(record))).is_err() {
                    break;
                }
            }
            None => break, // interrupted: the game is dropped unrecorded
        }
    }
    for s in sessions.iter_mut() {
        if let Some(s) = s.take() {
            s.shutdown(shared.opts.quit_grace);
        }
    }
}

/// Engines kept alive per worker beyond the two playing.
const KEEP_IDLE: usize = 2;

fn evict(
    sessions: &mut [Option<EngineSession>],
    last_used: &[u64],
    playing: [usize; 2],
    grace: Duration,
) {
    let mut idle: Vec<usize> = (0..sessions.len())
        .filter(|&i| sessions[i].is_some() && !playing.contains(&i))
        .collect();
    if idle.len() <= KEEP_IDLE {
        return;
    }
    idle.sort_by_key(|&i| last_used[i]);
    for &i in &idle[..idle.len() - KEEP_IDLE] {
        if let Some(s) = sessions[i].take() {
            s.shutdown(grace);
        }
    }
}

/// Plays one scheduled game (or forfeits it); None when interrupted.
fn play_scheduled(
    shared: &Shared<'_>,
    spec: &GameSpec,
    opening: &Opening,
    sessions: &mut [Option<EngineSession>],
    tx: &Sender<Msg>,
) -> Option<GameRecord> {
    let config = shared.config;
    let seats = [spec.south, spec.north];
    let mut record = GameRecord {
        index: spec.index,
        pair: spec.pair,
        round: spec.round,
        game: config.game.clone(),
        south: config.engines[spec.south].name.clone(),
        north: config.engines[spec.north].name.clone(),
        opening: OpeningRecord {
            start: opening.start.to_string(),
            moves: opening.move_names(),
        },
        moves: Vec::new(),
        final_position: opening.line().position().to_string(),
        result: GameResult::Draw,
        termination: Termination::of(TerminationKind::Forfeit),
        totals: None,
    };
    let lose = |record: &mut GameRecord, side: Side, kind: TerminationKind, detail: String| {
        record.result = GameResult::win_for(side.other());
        record.termination = Termination::fault(kind, side, detail);
    };

    // Forfeits: engines disqualified for failing to start or crashing too often.
    {
        let health = shared.health.lock().unwrap_or_else(|e| e.into_inner());
        let out: Vec<(Side, &String)> = Side::BOTH
            .into_iter()
            .filter_map(|s| Some((s, health.disqualified[seats[s.index()]].as_ref()?)))
            .collect();
        match out.as_slice() {
            [] => {}
            [(side, why)] => {
                let detail = format!("{} {why}", record.engine(*side));
                lose(&mut record, *side, TerminationKind::Forfeit, detail);
                return Some(record);
            }
            _ => {
                record.termination.detail = format!(
                    "both engines are out: {} {}; {} {}",
                    record.south, out[0].1, record.north, out[1].1
                );
                return Some(record);
            }
        }
    }

    // Start engines as needed, then a new game for both.
    let timeout = Duration::from_millis(config.startup_timeout_ms);
    for side in Side::BOTH {
        let e = seats[side.index()];
        if sessions[e].is_none() {
            match start_engine(shared, e, tx) {
                Ok(s) => {
                    let mut h = shared.health.lock().unwrap_or_else(|e| e.into_inner());
                    h.failures_in_a_row[e] = 0;
                    sessions[e] = Some(s);
                }
                Err(Fault::Interrupted) => return None,
                Err(f) => {
                    let mut h = shared.health.lock().unwrap_or_else(|e| e.into_inner());
                    h.failures_in_a_row[e] += 1;
                    if h.failures_in_a_row[e] >= config.max_start_failures
                        && h.disqualified[e].is_none()
                    {
                        h.disqualified[e] = Some("failed to start too often".into());
                        let _ = tx.send(Msg::Note(format!(
                            "engine {} failed to start {} times in a row ({f}): its remaining \
                             games are forfeited",
                            config.engines[e].name, h.failures_in_a_row[e]
                        )));
                    }
                    let kind = fault_kind(&f);
                    lose(&mut record, side, kind, format!("at start-up: {f}"));
                    return Some(record);
                }
            }
        }
    }
    for side in Side::BOTH {
        let e = seats[side.index()];
        let session = sessions[e].as_mut().expect("started above");
        if let Err(f) = session.new_game(timeout) {
            if f == Fault::Interrupted {
                return None;
            }
            if let Some(s) = sessions[e].take() {
                s.shutdown(Duration::ZERO);
            }
            lose(
                &mut record,
                side,
                fault_kind(&f),
                format!("at new game: {f}"),
            );
            return Some(record);
        }
    }

    let [south, north] = pick_two(sessions, spec.south, spec.north);
    let limits = [
        &config.engines[spec.south].limits,
        &config.engines[spec.north].limits,
    ];
    let adjudication = Adjudication {
        max_plies: config.max_plies,
        decided_score: config.adjudicate_decided,
    };
    let waits = Waits {
        drain: Duration::from_millis(500),
        ping: timeout,
    };
    let end = referee::play(opening, [south, north], limits, adjudication, waits).ok()?;
    for side in Side::BOTH {
        if end.faulted[side.index()] {
            if let Some(s) = sessions[seats[side.index()]].take() {
                s.shutdown(Duration::ZERO);
            }
        }
    }
    record.moves = end.moves;
    record.final_position = end.final_position;
    record.result = end.result;
    record.termination = end.termination;
    record.totals = end.totals;
    Some(record)
}

/// The crash-loop rule: an engine that lost `max_crashes` games in a row by a crash (at start-up,
/// at a new game or in play) has its remaining games forfeited, as fastchess does, so a broken
/// engine is not restarted for every game of a long run; the note names the engine and its last
/// exit status. A game it finishes without crashing starts the count again.
fn count_crashes(shared: &Shared<'_>, spec: &GameSpec, record: &GameRecord, tx: &Sender<Msg>) {
    if record.termination.kind == TerminationKind::Forfeit {
        return;
    }
    let max = shared.config.max_crashes;
    let mut h = shared.health.lock().unwrap_or_else(|e| e.into_inner());
    for side in Side::BOTH {
        let e = [spec.south, spec.north][side.index()];
        let crashed = record.termination.kind == TerminationKind::Crash
            && record.termination.side == Some(side);
        if !crashed {
            h.crashes_in_a_row[e] = 0;
            continue;
        }
        h.crashes_in_a_row[e] += 1;
        let count = h.crashes_in_a_row[e];
        if count >= max && h.disqualified[e].is_none() {
            let why = format!(
                "crashed in {count} games in a row (last: {})",
                record.termination.detail
            );
            let _ = tx.send(Msg::Note(format!(
                "engine {} {why}: its remaining games are forfeited (--max-crashes {max})",
                shared.config.engines[e].name
            )));
            h.disqualified[e] = Some(why);
        }
    }
}

/// The faults `--no-recover` stops the run at.
fn stops_without_recover(kind: TerminationKind) -> bool {
    matches!(kind, TerminationKind::Crash | TerminationKind::Stall)
}

fn fault_kind(f: &Fault) -> TerminationKind {
    match f {
        Fault::Stall(_) => TerminationKind::Stall,
        _ => TerminationKind::Crash,
    }
}

/// Two distinct sessions mutably, by engine index.
fn pick_two(sessions: &mut [Option<EngineSession>], a: usize, b: usize) -> [&mut EngineSession; 2] {
    assert_ne!(a, b, "an engine cannot play itself");
    let (lo, hi) = (a.min(b), a.max(b));
    let (left, right) = sessions.split_at_mut(hi);
    let low = left[lo].as_mut().expect("started");
    let high = right[0].as_mut().expect("started");
    if a < b {
        [low, high]
    } else {
        [high, low]
    }
}

/// Spawns (or starts in process), handshakes and configures engine `e`.
fn start_engine(shared: &Shared<'_>, e: usize, tx: &Sender<Msg>) -> Result<EngineSession, Fault> {
    let cfg: &EngineConfig = &shared.config.engines[e];
    let timeout = Duration::from_millis(shared.config.startup_timeout_ms);
    let mut preset: Vec<(String, String)> = Vec::new();
    let io = match cfg.builtin() {
        Some(Ok(b)) => {
            for (n, v) in builtin::player_options(b) {
                preset.push((n.into(), v.into()));
            }
            // UGI spin options are signed 64-bit: keep the seed below 2^63.
            let seed = crate::games::mix64(shared.config.seed ^ (e as u64 + 1)) >> 1;
            preset.push(("Seed".into(), seed.to_string()));
            builtin::start(b, shared.variant)
                .map_err(|err| Fault::Crash(format!("cannot start {}: {err}", cfg.cmd)))?
        }
        _ => {
            let log = log_file(&shared.opts.log_dir, &cfg.name);
            EngineIo::spawn_logged(
                &Spawn {
                    program: &cfg.cmd,
                    args: &cfg.args,
                    dir: cfg.dir.as_deref(),
                    log: Some(&log),
                },
                // One budget per engine log for the run, start-up check included.
                LogBudget::shared(&log, shared.opts.log_limit),
            )
            .map_err(|err| Fault::Crash(format!("cannot start '{}': {err}", cfg.cmd)))?
        }
    };
    let mut s = EngineSession::handshake(io, timeout)?;
    if s.has_option("Game") {
        s.set_option("Game", &shared.config.game)?;
    }
    for (n, v) in &preset {
        s.set_option(n, v)?;
    }
    let mut unknown = Vec::new();
    for (n, v) in &cfg.options {
        let hidden = cfg.builtin().is_some() && builtin::takes_hidden_option(n);
        if !s.has_option(n) && !hidden {
            unknown.push(n.clone());
        }
        s.set_option(n, v)?;
    }
    if !unknown.is_empty() {
        let mut h = shared.health.lock().unwrap_or_else(|e| e.into_inner());
        if !h.warned_options[e] {
            h.warned_options[e] = true;
            let _ = tx.send(Msg::Note(format!(
                "engine {} does not advertise option(s) {} (sent anyway)",
                cfg.name,
                unknown.join(", ")
            )));
        }
    }
    s.fence(timeout)?;
    Ok(s)
}

/// The stderr log of the engine named `name` (checked writable before the first game).
pub fn log_file(dir: &Path, name: &str) -> PathBuf {
    dir.join(format!("{}.stderr.log", file_safe(name)))
}

/// An engine name as a file name: letters, digits, `-`, `_`, `.`; anything else becomes `_`.
fn file_safe(name: &str) -> String {
    let s: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || "-_.".contains(c) {
                c
            } else {
                '_'
            }
        })
        .collect();
    if s.is_empty() || s.starts_with('.') {
        format!("engine{s}")
    } else {
        s
    }
}
