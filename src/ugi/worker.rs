//! The search thread: one long-lived worker that owns the [`Searcher`] and runs `go` and `perft`.
//!
//! The input loop never searches itself, so it can answer `isready`, `stop` and `quit` while a
//! search runs. Jobs reach the worker through a queue in the order the commands arrived, which
//! gives the documented semantics for free: options and `uginewgame` sent during a search apply
//! to the next one.
//!
//! The `busy` flag is the one source of truth for "a `go` or `perft` is running". It is set by the
//! input loop when it submits such a job and cleared by the worker while it still holds the lock
//! it wrote `bestmove` under. A GUI that has read `bestmove` and sends `go` at once therefore never
//! finds the engine still busy, and `stop` can wait for exactly that moment.

use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc::{self, Receiver, Sender};
use std::sync::{Arc, Condvar, Mutex, MutexGuard};
use std::thread::{self, JoinHandle};
use std::time::{Duration, Instant};

use super::options::EngineOptions;
use super::text;
use super::wire::{info_string, BestMove};
use super::Sink;
use crate::games::{AnyGame, Game, GameLine, MoveList};
use crate::search::{Info, Limits, Searcher};
use crate::sync::{lock, recover};
use crate::with_game;

/// Work for the search thread.
enum Job {
    Search {
        line: Box<GameLine<AnyGame>>,
        limits: Limits,
        /// When the `go` was read: the wait for this thread is a delay the time margin counts.
        queued: Instant,
    },
    Perft {
        position: Box<AnyGame>,
        depth: u32,
    },
    Options(Box<EngineOptions>),
    NewGame,
    /// Acknowledged once every earlier job is done (and the searcher exists): `isready`.
    Ping(Sender<()>),
    Quit,
}

/// What the input loop and the job thread share: the `busy` flag, its condition variable and
/// the stop flag. (The search's own per-search state is [`crate::search`]'s `SearchShared`.)
struct JobFlags {
    busy: Mutex<bool>,
    idle: Condvar,
    stop: AtomicBool,
}

impl JobFlags {
    fn busy(&self) -> MutexGuard<'_, bool> {
        lock(&self.busy)
    }
}

/// A `go` or `perft` is already running.
#[derive(Debug)]
pub struct Busy;

/// The input loop's handle on the one long-lived thread that runs `go` and `perft` jobs (not a
/// search thread of Lazy SMP: those are `search::worker::SearchThread`, started per search).
pub struct JobThread {
    jobs: Sender<Job>,
    shared: Arc<JobFlags>,
    thread: Option<JoinHandle<()>>,
}

impl JobThread {
    pub fn start(sink: Sink, options: EngineOptions) -> JobThread {
        let (jobs, queue) = mpsc::channel();
        let shared = Arc::new(JobFlags {
            busy: Mutex::new(false),
            idle: Condvar::new(),
            stop: AtomicBool::new(false),
        });
        let thread_shared = Arc::clone(&shared);
        let thread = thread::Builder::new()
            .name("otau-search".into())
            .spawn(move || run(queue, thread_shared, sink, options))
            .expect("spawning the search thread");
        JobThread {
            jobs,
            shared,
            thread: Some(thread),
        }
    }

    /// Sets the stop flag and wakes a worker waiting out `go infinite`.
    fn raise_stop(&self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(thread) = &self.thread {
            thread.thread().unpark();
        }
    }

    pub fn is_busy(&self) -> bool {
        *self.shared.busy()
    }

    fn submit_busy(&self, job: Job) -> Result<(), Busy> {
        let mut busy = self.shared.busy();
        if *busy {
            return Err(Busy);
        }
        self.shared.stop.store(false, Ordering::SeqCst);
        *busy = true;
        // The worker outlives every sender, so sending cannot fail while `self` exists.
        let _ = self.jobs.send(job);
        Ok(())
    }

    /// Starts a search of the line's current position; `bestmove` follows on the output.
    pub fn search(&self, line: GameLine<AnyGame>, limits: Limits) -> Result<(), Busy> {
        let queued = Instant::now();
        self.submit_busy(Job::Search {
            line: Box::new(line),
            limits: Limits {
                received: Some(queued),
                ..limits
            },
            queued,
        })
    }

    pub fn perft(&self, position: AnyGame, depth: u32) -> Result<(), Busy> {
        self.submit_busy(Job::Perft {
            position: Box::new(position),
            depth,
        })
    }

    /// Options (and the hidden tuning options) for the next search (queued behind a running one).
    pub fn set_options(&self, options: EngineOptions) {
        let _ = self.jobs.send(Job::Options(Box::new(options)));
    }

    pub fn new_game(&self) {
        let _ = self.jobs.send(Job::NewGame);
    }

    /// Waits until every queued job is done: `isready` when idle means "ready to search now".
    pub fn sync(&self) {
        let (ack, done) = mpsc::channel();
        if self.jobs.send(Job::Ping(ack)).is_ok() {
            let _ = done.recv();
        }
    }

    /// Asks a running search to stop and waits up to `wait` for its `bestmove`. Returns whether
    /// the worker is idle.
    pub fn stop(&self, wait: Duration) -> bool {
        self.raise_stop();
        let deadline = Instant::now() + wait;
        let mut busy = self.shared.busy();
        while *busy {
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return false;
            }
            busy = recover(self.shared.idle.wait_timeout(busy, left)).0;
        }
        true
    }

    /// Stops any search and ends the thread, waiting for it at most `wait` (a search that ignores
    /// `stop` is left behind rather than keeping the caller hostage).
    pub fn shutdown(mut self, wait: Duration) {
        self.raise_stop();
        let _ = self.jobs.send(Job::Quit);
        let deadline = Instant::now() + wait;
        if let Some(thread) = self.thread.take() {
            while !thread.is_finished() && Instant::now() < deadline {
                thread::sleep(Duration::from_millis(1));
            }
            if thread.is_finished() {
                let _ = thread.join();
            } else {
                eprintln!("otau: the search thread did not stop in time; leaving it behind");
            }
        }
    }
}

impl Drop for JobThread {
    fn drop(&mut self) {
        self.raise_stop();
        let _ = self.jobs.send(Job::Quit);
    }
}

/// The worker's state: the searcher is created on first use, so that a large hash table is
/// allocated after the handshake (UGI: nothing expensive before the first `isready`), and
/// recreated after a panic.
struct State {
    shared: Arc<JobFlags>,
    sink: Sink,
    options: EngineOptions,
    searcher: Option<Searcher>,
}

impl State {
    fn searcher(&mut self) -> &mut Searcher {
        let options = &self.options;
        self.searcher.get_or_insert_with(|| {
            let mut searcher = Searcher::new(options.search.clone());
            searcher.set_features(options.features);
            searcher.set_weights(options.weights.clone());
            searcher
        })
    }

    /// Writes the last lines of a `go`/`perft` and clears `busy` under one lock (see the module
    /// documentation for why).
    fn finish(&self, lines: &[String]) {
        let mut busy = self.shared.busy();
        for line in lines {
            self.sink.line(line);
        }
        *busy = false;
        self.shared.idle.notify_all();
    }
}

fn run(queue: Receiver<Job>, shared: Arc<JobFlags>, sink: Sink, options: EngineOptions) {
    let mut state = State {
        shared,
        sink,
        options,
        searcher: None,
    };
    while let Ok(job) = queue.recv() {
        match job {
            Job::Quit => break,
            Job::Ping(ack) => {
                guarded(&mut state, "creating the searcher", |s| {
                    s.searcher();
                });
                let _ = ack.send(());
            }
            Job::Options(options) => {
                state.options = *options;
                if state.searcher.is_some() {
                    guarded(&mut state, "applying options", |s| {
                        let options = s.options.clone();
                        let searcher = s.searcher();
                        searcher.set_options(options.search);
                        searcher.set_features(options.features);
                        searcher.set_weights(options.weights);
                    });
                }
            }
            Job::NewGame => {
                guarded(&mut state, "starting a new game", |s| {
                    s.searcher().new_game()
                });
            }
            Job::Search {
                line,
                limits,
                queued,
            } => {
                // Not before the searcher exists: making its table is no delay of the machine's.
                if let Some(searcher) = state.searcher.as_mut() {
                    searcher.note_delay(queued.elapsed());
                }
                let lines = search(&mut state, &line, &limits);
                state.finish(&lines);
            }
            Job::Perft { position, depth } => {
                let stop = Arc::clone(&state.shared);
                let sink = state.sink.clone();
                let lines = with_game!(&*position, g => perft(g, depth, &stop.stop, &sink));
                state.finish(&lines);
            }
        }
    }
}

/// Runs `f`, turning a panic into an error line and a fresh searcher: a bug in one search must
/// not take the engine (or the arena that hosts it in process) down.
fn guarded<T>(state: &mut State, what: &str, f: impl FnOnce(&mut State) -> T) -> Option<T> {
    match catch_unwind(AssertUnwindSafe(|| f(state))) {
        Ok(v) => Some(v),
        Err(panic) => {
            let why = panic
                .downcast_ref::<&str>()
                .map(|s| s.to_string())
                .or_else(|| panic.downcast_ref::<String>().cloned())
                .unwrap_or_else(|| "unknown panic".into());
            state.searcher = None;
            state.sink.line(&info_string(format!(
                "error internal failure while {what}: {}",
                crate::games::notation::shorten(&why)
            )));
            None
        }
    }
}

/// One `go`: the lines still to write after the search (final info, `bestmove`).
fn search(state: &mut State, line: &GameLine<AnyGame>, limits: &Limits) -> Vec<String> {
    let pos = line.position();
    if let Some(fin) = line.result() {
        return vec![
            info_string(format!("game over: {}", text::final_text(&fin))),
            text::no_search_info(),
            BestMove::of("none").to_string(),
        ];
    }
    let moves = pos.legal_moves();
    if moves.is_empty() {
        // Only a broken rules implementation gets here: the game is not over yet nobody can move.
        return vec![
            info_string("error no legal moves but the game is not over"),
            text::no_search_info(),
            BestMove::of("none").to_string(),
        ];
    }
    if moves.len() == 1 && moves[0].is_pass() {
        return vec![
            info_string("the only legal move is pass"),
            text::no_search_info(),
            BestMove::of(pos.move_name(moves[0])).to_string(),
        ];
    }
    // Two reports that differ only in the time taken say nothing new: the first is enough.
    let same = |a: &Info, b: &Info| {
        (a.depth, a.seldepth, a.score, a.nodes, &a.pv)
            == (b.depth, b.seldepth, b.score, b.nodes, &b.pv)
    };
    let shared = Arc::clone(&state.shared);
    let sink = state.sink.clone();
    let mut last: Option<Info> = None;
    let report = guarded(state, "searching", |s| {
        s.searcher()
            .search(line, limits, &shared.stop, &mut |info: &Info| {
                if !last.as_ref().is_some_and(|l| same(l, info)) {
                    sink.line(&text::info_line(pos, info));
                    last = Some(info.clone());
                }
            })
    });
    if limits.infinite {
        // UCI/UGI: under `go infinite` no `bestmove` before `stop`, even when the search has
        // nothing left to do (a proven result, a tiny game).
        while !shared.stop.load(Ordering::SeqCst) {
            thread::park_timeout(Duration::from_millis(50));
        }
    }
    let mut lines = Vec::new();
    let best = match &report {
        Some(report) => {
            for w in &report.warnings {
                lines.push(info_string(format!("warning {w}")));
            }
            // The final info line, unless the search's last report already said the same.
            if !last.as_ref().is_some_and(|l| same(l, &report.info)) {
                lines.push(text::info_line(pos, &report.info));
            }
            report.best
        }
        None => {
            lines.push(text::no_search_info());
            None
        }
    };
    let best = match best {
        Some(mv) if moves.contains(mv) => mv,
        other => {
            let why = match other {
                Some(mv) => format!("an illegal move ({})", pos.move_name(mv)),
                None => "no move".to_string(),
            };
            lines.insert(
                0,
                info_string(format!(
                    "error the search returned {why}; playing the first legal move"
                )),
            );
            moves[0]
        }
    };
    lines.push(BestMove::of(pos.move_name(best)).to_string());
    lines
}

/// `perft <depth>`: leaf counts per root move, streamed as each is done, then `nodes <total>`.
/// Stops within a few milliseconds when `stop` is set.
fn perft<G: Game>(pos: &G, depth: u32, stop: &AtomicBool, sink: &Sink) -> Vec<String> {
    let started = Instant::now();
    if depth == 0 {
        return vec!["nodes 1".to_string()];
    }
    let roots = pos.legal_moves();
    let mut total = 0u64;
    for (done, &mv) in roots.iter().enumerate() {
        let mut child = pos.clone();
        child.play(mv);
        let Some(count) = stoppable_perft(&child, depth - 1, stop) else {
            return vec![info_string(format!(
                "perft stopped after {done} of {} root moves",
                roots.len()
            ))];
        };
        sink.line(&format!("{} {count}", pos.move_name(mv)));
        total += count;
    }
    let elapsed = started.elapsed();
    vec![
        info_string(format!(
            "perft depth {depth} time {} nps {}",
            elapsed.as_millis(),
            (total as f64 / elapsed.as_secs_f64().max(1e-6)) as u64
        )),
        format!("nodes {total}"),
    ]
}

/// [`crate::perft::perft`] split into sub-trees of at most [`PERFT_CHUNK`] plies, checking `stop`
/// between them (None when stopped): even a 20-move game's chunk takes milliseconds.
fn stoppable_perft<G: Game>(pos: &G, depth: u32, stop: &AtomicBool) -> Option<u64> {
    if stop.load(Ordering::Relaxed) {
        return None;
    }
    if depth <= PERFT_CHUNK {
        return Some(crate::perft::perft(pos, depth));
    }
    let mut moves = MoveList::new();
    pos.generate_moves(&mut moves);
    let mut total = 0;
    for &mv in moves.iter() {
        let mut child = pos.clone();
        child.play(mv);
        total += stoppable_perft(&child, depth - 1, stop)?;
    }
    Some(total)
}

const PERFT_CHUNK: u32 = 5;
