//! Running a whole schedule: worker threads play games concurrently, each keeping its engines
//! between games; the calling thread records every game the moment it ends.
//!
//! Faults never stop the run (unless `--no-recover`): the faulty engine loses the game and is
//! restarted for its next one; an engine that fails to start `max_start_failures` times in a row
//! is disqualified and its remaining games are forfeited instead of looping, and so is one that
//! crashes in `max_crashes` games in a row (a crash loop).
//!
//! One concern a file: this one starts and resumes runs; [`report`] (what a run produced; how to
//! run is [`crate::arena::matchmaking::run_options`]), [`checks`] (the configuration checks before any file is written), [`feed`] (the
//! games still to play), [`worker`] (a game in named steps), [`pool`] (a worker's engines),
//! [`health`] (start failures, crash loops, disqualification), [`forfeit`] (games lost before
//! they are played), [`recording`] (the recording thread's state), [`cost`] (CPU accounting).

mod checks;
mod cost;
mod feed;
mod forfeit;
mod health;
mod pool;
mod recording;
mod report;
mod shared;
mod worker;

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::channel;
use std::sync::{Condvar, Mutex};

use anyhow::{bail, Result};

pub use checks::check_sprt_shard;
pub use cost::Cost;
pub use report::RunReport;
// Where they were before the split, for the callers.
pub use crate::arena::engine::process::log_file;
pub use crate::arena::matchmaking::run_options::RunOptions;

use crate::arena::config::programs;
use crate::arena::config::RunConfig;
use crate::arena::engine::process::Guardian;
use crate::arena::game::openings::OpeningBook;
use crate::arena::matchmaking::run_files::{self, RunFiles};
use crate::arena::output::progress::{Progress, ProgressMode};
use crate::arena::pairing::schedule::Shard;
use crate::arena::pairing::{Pairing, Recorded};
use crate::arena::records::standings::Standings;
use crate::arena::records::{Event, RunHeader, FORMAT};
use crate::arena::system::console;
use crate::arena::system::files::Named;
use crate::arena::system::interrupt;
use crate::games::Variant;
use checks::check_config;
use cost::own_cpu;
use feed::Feed;
use health::Health;
use recording::{sprt_decision, Recording};
use shared::{Msg, RunState};

/// Starts a new run.
pub fn run(config: RunConfig, opts: &RunOptions) -> Result<RunReport> {
    // The start-up check of the engines (in check_config) comes last, after every check
    // that costs nothing.
    check_sprt_shard(&config, opts.shard)?;
    run_files::check_fresh(&config, opts)?;
    check_config(&config, opts)?;
    let mut config = config;
    programs::pin_paths(&mut config.engines);
    let scheduled = full_schedule(&config).len();
    let mut header = RunHeader {
        format: FORMAT,
        arena: env!("CARGO_PKG_VERSION").to_string(),
        programs: programs::stamps(&config),
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
    let mut done: Option<Standings> = None;
    let (file, files, opts) = run_files::open_resume(
        path,
        opts,
        |h, g| {
            done.get_or_insert_with(|| new_standings(&h.config)).add(g);
        },
        |h, opts| {
            check_sprt_shard(&h.config, h.shard)?;
            // The values first (a hand-edited name is refused as such), then the programs, before
            // check_config starts any engine.
            for e in &h.config.engines {
                e.check_text().map_err(anyhow::Error::msg)?;
            }
            programs::check_same(&h.config, &h.programs, path)?;
            if h.programs.is_empty() {
                programs::warn_unpinned(&h.config, path);
            }
            check_config(&h.config, opts)
        },
    )?;
    // Fed in the order the games finished: the SPRT finds the decision where the run found it.
    let mut done = done.unwrap_or_else(|| new_standings(&file.header.config));
    done.set_rating(opts.rating);
    if opts.progress != ProgressMode::Quiet {
        let config = &file.header.config;
        // As the progress counts it (a knockout's size without its tiebreaks).
        let slice = config.tournament.pairing(config, opts.shard).planned();
        let recorded = done.len();
        console::err(format_args!(
            "otau-arena: resuming {}: {} on {}, seed {}{}: {recorded} of {slice} games \
             recorded, {} to play\n{}\n",
            path.display(),
            config.engine_names().join(", "),
            config.game,
            config.seed,
            opts.shard.map_or(String::new(), |s| format!(", shard {s}")),
            slice.saturating_sub(recorded),
            indent(&limits_text(config)),
        ));
    }
    execute(file.header, done, files, &opts)
}

/// Empty standings for a run's engines and SPRT.
pub fn new_standings(config: &RunConfig) -> Standings {
    let mut standings = Standings::new(config.engine_names(), config.sprt);
    if full_schedule(config).follows_results() {
        standings.keep_results();
    }
    standings
}

/// The run's pairing, whole (all shards) and before any game: its size (a knockout's: the most
/// games its bracket can take), computed, never listed.
pub fn full_schedule(config: &RunConfig) -> Box<dyn Pairing> {
    config.tournament.pairing(config, None)
}

/// Each engine's limits in words, for the run's header (one line when all engines share them,
/// as `--each` gives): `limits: tc=10/0.1 (10 moves in 0.1 s, again every 10 moves)`.
pub fn limits_text(config: &RunConfig) -> String {
    let explained: Vec<String> = config
        .engines
        .iter()
        .map(
            |e| match crate::arena::engine::sandbox::enforcement(&e.confine) {
                held if held.is_empty() => e.limits.explain(),
                held => format!("{}; {held}", e.limits.explain()),
            },
        )
        .collect();
    if explained.windows(2).all(|w| w[0] == w[1]) {
        return format!("limits: {}", explained.first().map_or("", String::as_str));
    }
    let lines: Vec<String> = config
        .engines
        .iter()
        .zip(&explained)
        .map(|(e, x)| format!("limits of {}: {x}", e.name))
        .collect();
    lines.join("\n")
}

/// The run's size for the user: `48 games`, or a knockout's `knockout, 8 to 16 games` (without
/// and with every tiebreak pair).
pub fn size_text(config: &RunConfig) -> String {
    full_schedule(config).size_text()
}

/// The run's pairing (of `shard`'s slice) as the games in `standings` leave it: the one way it
/// is rebuilt, for a resumed run, its end, the summary and `merge`. An error names a game that
/// does not fit it.
pub fn pairing(
    config: &RunConfig,
    shard: Option<Shard>,
    standings: &Standings,
) -> Result<Box<dyn Pairing>> {
    let mut pairing = config.tournament.pairing(config, shard);
    let engine = |name: &str| config.engines.iter().position(|e| e.name == name);
    let mut games = Vec::new();
    for (index, kept) in standings.results() {
        // The records reader checked every name against the run's engines.
        let (Some(south), Some(north)) = (engine(&kept.south), engine(&kept.north)) else {
            bail!("game {}: an engine that is not in the run", index + 1);
        };
        games.push(Recorded {
            index,
            south,
            north,
            result: kept.outcome,
            unplayed: kept.unplayed,
            round: kept.round,
            encounter: kept.encounter,
        });
    }
    pairing
        .replay(standings.done(), &mut games.into_iter())
        .map_err(|e| anyhow::anyhow!("the records of this run: {e}"))?;
    Ok(pairing)
}

/// Plays the slice's unrecorded games of the run in `header` (new or resumed), `standings`
/// holding what is recorded already, then completes the outputs.
fn execute(
    header: RunHeader,
    standings: Standings,
    files: RunFiles,
    opts: &RunOptions,
) -> Result<RunReport> {
    let recorded_before = standings.len();
    let mut standings = standings;
    if files.report.is_some() && files.records.is_none() {
        // No records file to read the report's games from: they are kept.
        standings.keep_games();
    }
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
    let pairing = pairing(config, opts.shard, &standings)?;
    let slice_len = pairing.planned();
    let mut shared = share(config, opts, pairing)?;
    shared.protocol_log = files.protocol_log.clone();
    let mut progress =
        Progress::new(opts.progress, slice_len, opts.rating_interval).with_format(opts.output);
    progress.set_done(standings.len());
    let mut rec = Recording {
        opts,
        files,
        sprt_decided: sprt_decision(&standings),
        standings,
        progress,
        plies: 0,
        stopped: None,
        write_error: None,
    };
    if rec.sprt_decided.is_some() {
        // A resumed run whose SPRT had already decided: nothing more to play.
        shared.stop.store(true, Ordering::SeqCst);
    }
    let started = std::time::Instant::now();
    let cpu_before = own_cpu();
    rec.show_standings(false);
    play_all(&shared, &mut rec);
    rec.show_standings(true);
    let session = SessionStart {
        recorded_before,
        started,
        cpu_before,
    };
    complete(rec, header, opts, session)
}

/// The state the workers share for the slice's games still to play (those `pairing`, rebuilt
/// from the games recorded, hands out).
fn share<'a>(
    config: &'a RunConfig,
    opts: &'a RunOptions,
    pairing: Box<dyn Pairing>,
) -> Result<RunState<'a>> {
    let variant: Variant = config.game.parse().map_err(anyhow::Error::msg)?;
    let book =
        OpeningBook::new(&config.openings, variant, config.seed).map_err(anyhow::Error::msg)?;
    if let Some(most) = pairing.most_at_once() {
        if opts.concurrency as u64 > most {
            eprintln!(
                "otau-arena: note: --concurrency {} is more than the {most} game(s) of a round: \
                 the other workers wait (each round is paired when the one before ends)",
                opts.concurrency
            );
        }
    }
    let mut feed = Feed::new(pairing, book);
    feed.show_live(opts.live.clone());
    if let Some(p) = &opts.trf {
        feed.write_trf(Named::new("--trf", p), &opts.event)?;
    }
    if config.adjudication.tables {
        // Read (Toguz) or build (Modiar, ~10 s) the tables now, before the first game: the
        // referee only probes tables that are ready, and no game's clock waits on them.
        crate::tables::Probe::prepare_tables(&crate::games::AnyGame::start(variant));
        // A table file that is there but refused would adjudicate nothing, in silence.
        let problems = crate::tables::take_problems();
        anyhow::ensure!(
            problems.is_empty(),
            "--adjudicate tables: {}",
            problems.join("; ")
        );
    }
    Ok(RunState {
        config,
        variant,
        opts,
        feed: Mutex::new(feed),
        feed_changed: Condvar::new(),
        health: Mutex::new(Health::new(config.engines.len())),
        cpu: Mutex::new(vec![Default::default(); config.engines.len()]),
        stop: AtomicBool::new(false),
        protocol_log: None,
    })
}

/// Runs the workers, recording each game they send as it comes, until they are all done.
fn play_all(shared: &RunState<'_>, rec: &mut Recording<'_>) {
    let workers = shared.opts.concurrency.max(1);
    std::thread::scope(|scope| {
        let (tx, rx) = channel();
        for w in 0..workers {
            let tx = tx.clone();
            std::thread::Builder::new()
                .name(format!("arena worker {w}"))
                .spawn_scoped(scope, move || worker::worker(shared, tx))
                .expect("spawn worker");
        }
        drop(tx);
        for msg in rx {
            match msg {
                Msg::Note(text) => rec.note(&text),
                Msg::Game(g) => rec.game(&g, &shared.stop),
            }
        }
    });
    // Each engine's CPU, where its control group measured it (`sandbox::cpu`).
    let cpu = crate::sync::lock(&shared.cpu);
    for (e, used) in shared.config.engines.iter().zip(cpu.iter()) {
        if used.measured > 0 {
            rec.note(&crate::arena::engine::sandbox::cpu::summary_line(
                &e.name, used,
            ));
        }
    }
}

/// Where this session of the run started (games recorded, clock, CPU time), for its end.
struct SessionStart {
    /// Games recorded before it started.
    recorded_before: u64,
    started: std::time::Instant,
    /// The arena's CPU time when it started.
    cpu_before: std::time::Duration,
}

/// Ends the session: the summary event once the slice is complete (or the SPRT decided), the
/// finished outputs, and the report.
fn complete(
    rec: Recording<'_>,
    header: RunHeader,
    opts: &RunOptions,
    session: SessionStart,
) -> Result<RunReport> {
    let Recording {
        mut files,
        standings,
        mut progress,
        plies,
        stopped,
        sprt_decided,
        write_error,
        ..
    } = rec;
    progress.clear_live();
    if let Some(e) = write_error {
        return Err(e);
    }
    let interrupted = interrupt::requested();
    // The pairing as recorded, and the games it needs at least to be complete.
    let pairing = pairing(&header.config, opts.shard, &standings)?;
    let missing = pairing.games_left();
    // Once per state of the records: resuming a finished run adds no second summary.
    let changed = standings.len() > session.recorded_before || !files.summarized;
    if (missing == 0 || sprt_decided.is_some()) && changed {
        if let Some(w) = files.records.as_mut() {
            w.write(&Event::Summary(summary_json(&standings, &header)))?;
        }
    }
    let title = opts
        .out
        .as_ref()
        .map_or(String::new(), |p| p.display().to_string());
    let (notes, part) = (pairing.notes(), pairing.summary_json());
    files.finish(&standings, &title, notes, part, opts.report_viewer)?;
    Ok(RunReport {
        header,
        standings,
        missing,
        interrupted,
        cost: Cost {
            plies,
            wall: session.started.elapsed(),
            arena_cpu: own_cpu().saturating_sub(session.cpu_before),
        },
        stopped,
        sprt_decided,
        pairing,
    })
}

/// The summary event: the statistics of every game recorded (`crate::stats::Summary`), the
/// number of games scheduled (a knockout's: the most its bracket can take), and the pairing's
/// part (a knockout's bracket).
pub(crate) fn summary_json(standings: &Standings, header: &RunHeader) -> serde_json::Value {
    let mut value = serde_json::to_value(standings.summary()).unwrap_or_default();
    if let Some(map) = value.as_object_mut() {
        map.insert("scheduled".into(), header.scheduled.into());
        let part = pairing(&header.config, header.shard, standings).map(|p| p.summary_json());
        if let Ok(Some((key, json))) = part {
            map.insert(key.into(), json);
        }
    }
    value
}

/// `otau-arena: ` before every line of `text`, for the header's lines.
pub fn indent(text: &str) -> String {
    text.lines()
        .map(|l| format!("otau-arena: {l}"))
        .collect::<Vec<_>>()
        .join("\n")
}
