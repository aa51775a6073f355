//! Search: the engine behind `go`. This is the stable interface the UGI front end and the arena's
//! built-in players call.
//!
//! A [`Searcher`] owns the transposition table and options and runs one search at a time on the
//! caller's thread (helper threads for `threads > 1` are its own); the caller stops it through the
//! shared `stop` flag and receives progress through a callback.
//!
//! Module map: [`worker`] is the alpha-beta search of one thread, [`features`] its switches
//! (which techniques are on), [`tt`] the shared transposition table, [`repetition`] the game's
//! repetition rule inside the tree, [`time`] the time budget, [`level`] the strength ladder,
//! [`baseline`] the random and greedy players, [`bench`] the fixed benchmark. Matches between
//! configurations are the arena's (`crate::cli::selfplay`).

pub mod baseline;
pub mod bench;
pub mod features;
pub mod level;
pub mod repetition;
pub mod time;
pub mod tt;
pub mod worker;

use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

use crate::eval::{Evaluate, Weights};
use crate::games::{AnyGame, GameLine, Move};
use crate::sync::lock;
use crate::tables::Probe;

pub use features::Features;
pub use worker::{MATE, MATE_BOUND, TABLE_WIN};

use level::Strength;
use time::Budget;
use tt::TranspositionTable;
use worker::{Completed, SearchShared, SearchThread};

/// Depth of a search given no limit at all (and not `infinite`).
pub const DEFAULT_DEPTH: u32 = 10;
/// Deepest iteration a search ever starts.
pub const MAX_DEPTH: u32 = (worker::MAX_PLY - 8) as u32;
/// Stack of each helper thread: the search keeps a few positions per ply on the stack.
const HELPER_STACK: usize = 16 << 20;

/// Which player answers `go`: the real search, or one of the baseline sparring partners.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Player {
    /// The alpha-beta search, at the strength [`Options::level`] sets.
    #[default]
    Search,
    /// A uniformly random legal move from a generator seeded by [`Options::seed`].
    Random,
    /// The move with the best immediate capture (ties: first in move order).
    Greedy,
}

impl std::str::FromStr for Player {
    type Err = String;
    fn from_str(s: &str) -> Result<Self, String> {
        match s.to_ascii_lowercase().as_str() {
            "search" | "otau" => Ok(Player::Search),
            "random" => Ok(Player::Random),
            "greedy" => Ok(Player::Greedy),
            _ => Err(format!("unknown player '{s}' (search, random, greedy)")),
        }
    }
}

/// Engine options, as set by UGI `setoption` or the arena's `option.X=` keys.
#[derive(Clone, Debug)]
pub struct Options {
    /// Transposition table size in MiB.
    pub hash_mb: usize,
    /// Search threads (Lazy SMP); above 1 the result varies from run to run.
    pub threads: usize,
    /// Strength ladder 1..=MAX_LEVEL; MAX_LEVEL is full strength.
    pub level: u32,
    /// Which player answers `go`.
    pub player: Player,
    /// Seeds the random player (and any randomness the search uses).
    pub seed: u64,
    /// Time kept back per move for communication delays.
    pub move_overhead: Duration,
}

/// The full-strength level, the top of the ladder.
pub const MAX_LEVEL: u32 = 20;

impl Default for Options {
    fn default() -> Self {
        Options {
            hash_mb: 64,
            threads: 1,
            level: MAX_LEVEL,
            player: Player::Search,
            seed: 0,
            move_overhead: Duration::from_millis(10),
        }
    }
}

/// The mover's clock, as given by `go p1time .. p2time ..`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Time left on the mover's clock.
    pub remaining: Duration,
    /// Time added after each move.
    pub increment: Duration,
    /// Moves until the next time control, if the clock has one.
    pub moves_to_go: Option<u32>,
}

/// Limits of one search; the first one reached ends it. All `None` and not infinite means a
/// sensible default (depth-limited).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    /// Deepest iteration to complete, in plies.
    pub depth: Option<u32>,
    /// Nodes to search at most, all threads together.
    pub nodes: Option<u64>,
    /// Time to spend on this move (the margin for delays comes off it).
    pub movetime: Option<Duration>,
    /// The mover's clock, from which the search budgets its own time.
    pub clock: Option<Clock>,
    /// Search until `stop`, whatever the other limits say.
    pub infinite: bool,
    /// When the `go` was read. A move's time counts from here, as Stockfish counts it from its
    /// `go`: on a loaded machine the search thread can start tens of milliseconds later, and that
    /// wait must come out of the move's time, not be added to it (it lost games on time at
    /// `st=0.1` at load 8). None: from the start of the search.
    pub received: Option<Instant>,
}

/// A score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centi-stones: 100 = one stone. Beyond ±10000 (from `TABLE_WIN` = 20000 less the plies to
    /// reach the tables): a win or loss proven by endgame tables, whose distance is unknown.
    Cp(i32),
    /// Plies to a proven win (negative: to a proven loss).
    Mate(i32),
}

impl Score {
    /// Converts an internal search score (mate scores are `MATE - plies`).
    pub fn from_internal(score: i32) -> Score {
        if score > MATE_BOUND {
            Score::Mate(MATE - score)
        } else if score < -MATE_BOUND {
            Score::Mate(-(MATE + score))
        } else {
            Score::Cp(score)
        }
    }
}

impl std::fmt::Display for Score {
    /// UGI form: `cp 35` or `mate 7` / `mate -4`.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Score::Cp(cp) => write!(f, "cp {cp}"),
            Score::Mate(plies) => write!(f, "mate {plies}"),
        }
    }
}

/// Progress of a search, reported after each completed iteration and once at the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    /// Plies of the last completed iteration.
    pub depth: u32,
    /// Deepest ply reached, quiescence included.
    pub seldepth: u32,
    /// The score of the best move.
    pub score: Score,
    /// Nodes searched so far, all threads together.
    pub nodes: u64,
    /// Time since the search started.
    pub elapsed: Duration,
    /// Transposition table use in permille.
    pub hashfull: u32,
    /// The principal variation, the best move first.
    pub pv: Vec<Move>,
}

/// The result of a search: the move to play (None when the game is over) and the last info.
#[derive(Clone, Debug)]
pub struct SearchReport {
    /// The move to play; `None` when the game is over.
    pub best: Option<Move>,
    /// The last progress report.
    pub info: Info,
    /// Things the search could not do as asked and worked around (a helper thread that could not
    /// be started), for the front end to pass on (`info string warning ...`).
    pub warnings: Vec<String>,
}

/// Owns the engine state that persists between searches: options, the transposition table, the
/// delays observed lately.
pub struct Searcher {
    options: Options,
    table: TranspositionTable,
    features: Features,
    weights: Weights,
    lag: time::LagMeter,
}

impl Searcher {
    /// A searcher with its transposition table allocated (`options.hash_mb` MiB for the real
    /// search, the smallest for the baseline players).
    pub fn new(options: Options) -> Self {
        let table = Self::table_for(&options);
        Searcher {
            options,
            table,
            features: Features::default(),
            weights: Weights::default(),
            lag: time::LagMeter::default(),
        }
    }

    /// The options in use.
    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Applies new options (resizing the table when `hash_mb` changed).
    pub fn set_options(&mut self, options: Options) {
        if options.hash_mb != self.options.hash_mb || options.player != self.options.player {
            self.table = Self::table_for(&options);
        }
        self.options = options;
    }

    /// The baseline players never read the table: they get the smallest one, so that a dozen
    /// `random` sparring partners do not hold `Hash` MiB each.
    fn table_for(options: &Options) -> TranspositionTable {
        match options.player {
            Player::Search => TranspositionTable::new(options.hash_mb),
            Player::Random | Player::Greedy => TranspositionTable::new(1),
        }
    }

    /// The search techniques in use (all on by default; for measuring what each is worth).
    pub fn features(&self) -> Features {
        self.features
    }

    /// Turns search techniques on or off, for the searches to come.
    pub fn set_features(&mut self, features: Features) {
        self.features = features;
    }

    /// The evaluation weights in use (the tuned ones unless set; for comparing weight sets).
    pub fn weights(&self) -> &Weights {
        &self.weights
    }

    /// Replaces the evaluation weights, for the searches to come.
    pub fn set_weights(&mut self, weights: Weights) {
        self.weights = weights;
    }

    /// Notes a delay the front end observed (how long a `go` waited for the search thread), for
    /// the time margin of the searches to come.
    pub fn note_delay(&mut self, delay: Duration) {
        self.lag.record(delay);
    }

    /// The time kept back from every time limit: `MoveOverhead` and the margin for the delays
    /// observed lately.
    fn overhead(&self) -> Duration {
        self.options.move_overhead + self.lag.margin()
    }

    /// Forgets everything learnt in the previous game.
    pub fn new_game(&mut self) {
        self.table.clear();
    }

    /// Searches the current position of `line` within `limits`, until `stop` is set.
    ///
    /// `on_info` sees every completed iteration and, once more, the final figures. With one
    /// thread and only depth or node limits, the result and every info (except times) are the
    /// same on every run.
    pub fn search(
        &mut self,
        line: &GameLine<AnyGame>,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchReport {
        if line.is_over() {
            let report = self.no_move(Instant::now());
            on_info(&report.info);
            return report;
        }
        crate::with_game!(line.position(), g => {
            self.search_position(g, line.keys(), limits, stop, on_info)
        })
    }

    /// [`Searcher::search`] for a position of a known game: `history` holds the repetition keys of
    /// the game's positions so far, `pos`'s own last (as [`GameLine::keys`] gives them).
    pub fn search_position<G: Evaluate + Probe>(
        &mut self,
        pos: &G,
        history: &[u64],
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> SearchReport {
        let started = limits.received.unwrap_or_else(Instant::now);
        let key = pos.repetition_key();
        let repeated = history.iter().filter(|&&k| k == key).count().max(1);
        let over = pos.final_result().is_some() || repeated >= pos.repetition_limit();
        if over || pos.legal_moves().is_empty() {
            let report = self.no_move(started);
            on_info(&report.info);
            return report;
        }
        let report = {
            match self.options.player {
                Player::Search => {
                    let tables = self.features.tables && tables_for_search(pos, limits, stop);
                    // A solved game's move may depend on the game so far (Modiar's repetition
                    // rule): its search gets the move's soft budget at most.
                    let budget = Budget::new(limits, self.overhead(), false);
                    let deadline = budget.soft.or(budget.hard).map(|d| started + d);
                    let solved = tables.then(|| pos.solved_after(history, deadline));
                    let mut report = match solved.flatten() {
                        Some(solved) => Self::solved_report(&solved, started),
                        None => {
                            self.search_game(pos, history, limits, stop, on_info, started, tables)
                        }
                    };
                    if self.features.tables && !tables {
                        report.warnings.push(format!(
                            "the tables of {} are still being read; this search went without them",
                            pos.variant()
                        ));
                    }
                    // A table file refused on the way in is said, by name, once.
                    if self.features.tables {
                        report.warnings.extend(crate::tables::take_problems());
                    }
                    report
                }
                Player::Random | Player::Greedy => {
                    let best = if self.options.player == Player::Random {
                        baseline::random(pos, history, self.options.seed)
                    } else {
                        baseline::greedy(pos)
                    };
                    SearchReport {
                        best,
                        info: Info {
                            depth: 1,
                            seldepth: 1,
                            score: Score::Cp(pos.evaluate_with(&self.weights)),
                            nodes: pos.legal_moves().len() as u64,
                            elapsed: started.elapsed(),
                            hashfull: 0,
                            pv: best.into_iter().collect(),
                        },
                        warnings: Vec::new(),
                    }
                }
            }
        };
        if limits.infinite {
            // `go infinite` answers only after `stop`, however early the search ran out of work.
            while !stop.load(Ordering::Relaxed) {
                std::thread::sleep(Duration::from_millis(1));
            }
        }
        let mut report = report;
        report.info.elapsed = started.elapsed();
        on_info(&report.info);
        report
    }

    /// The report for a solved position: the table's move and result, no search.
    fn solved_report(solved: &crate::tables::Solved, started: Instant) -> SearchReport {
        let score = match solved.decided {
            Some(decided) => Score::Cp(decided.sign() * TABLE_WIN),
            None => Score::Cp(100 * solved.margin),
        };
        let mut pv = solved.pv.clone();
        if pv.first() != Some(&solved.best) {
            pv = vec![solved.best];
        }
        SearchReport {
            best: Some(solved.best),
            info: Info {
                depth: pv.len() as u32,
                seldepth: pv.len() as u32,
                score,
                nodes: 0,
                elapsed: started.elapsed(),
                hashfull: 0,
                pv,
            },
            warnings: Vec::new(),
        }
    }

    /// The report for a game that is over.
    fn no_move(&self, started: Instant) -> SearchReport {
        SearchReport {
            best: None,
            info: Info {
                depth: 0,
                seldepth: 0,
                score: Score::Cp(0),
                nodes: 0,
                elapsed: started.elapsed(),
                hashfull: self.table.hashfull(),
                pv: Vec::new(),
            },
            warnings: Vec::new(),
        }
    }

    /// The search proper; `tables`: whether it uses the game's tables (ready, and wanted).
    #[allow(clippy::too_many_arguments)]
    fn search_game<G: Evaluate + Probe>(
        &mut self,
        root: &G,
        history: &[u64],
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
        started: Instant,
        tables: bool,
    ) -> SearchReport {
        let legal = root.legal_moves();
        let strength = Strength::of_level(self.options.level);
        let budget = Budget::new(limits, self.overhead(), legal.len() == 1);
        let max_nodes = match (limits.nodes, strength.max_nodes_for(limits, &budget)) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        };
        let unlimited = limits.depth.is_none()
            && max_nodes.is_none()
            && budget.hard.is_none()
            && !limits.infinite;
        let max_depth = limits
            .depth
            .unwrap_or(if unlimited { DEFAULT_DEPTH } else { MAX_DEPTH })
            .clamp(1, MAX_DEPTH);
        let threads = self.options.threads.clamp(1, 256);
        self.table.new_search();
        let table = &self.table;
        let node_counts: Vec<AtomicU64> = (0..threads).map(|_| AtomicU64::new(0)).collect();
        let internal_stop = AtomicBool::new(false);
        let shared = SearchShared {
            tt: table,
            external_stop: stop,
            internal_stop: &internal_stop,
            started,
            deadline: budget.hard.map(|d| started + d),
            lag_kept: self.lag.margin(),
            main_lag_us: AtomicU64::new(0),
            max_nodes,
            node_counts: &node_counts,
            // One answer for the whole search: tables that finish loading halfway through are
            // left for the next one (the search treats a root inside the tables differently).
            features: Features {
                tables,
                ..self.features
            },
            weights: self.weights.clone(),
            noise: strength.noise,
            seed: self.options.seed,
        };
        let info_of = |done: &Completed, nodes: u64| Info {
            depth: done.depth,
            seldepth: done.seldepth.max(done.depth),
            score: Score::from_internal(done.score),
            nodes,
            elapsed: started.elapsed(),
            hashfull: table.hashfull(),
            pv: done.pv.clone(),
        };
        let soft = budget.soft;
        let timed = budget.hard.is_some();
        let mut warnings = Vec::new();
        let done = std::thread::scope(|scope| {
            // A helper that cannot be started (threads or address space exhausted: `Threads=256`
            // under `ulimit -v`) is done without: the search goes on with the threads it has.
            // Panicking here instead would leave the started helpers searching forever, since
            // only the main thread ends them, and `go depth 5` would never answer.
            let mut helpers = Vec::with_capacity(threads - 1);
            for id in 1..threads {
                let shared = &shared;
                let spawned = std::thread::Builder::new()
                    .stack_size(HELPER_STACK)
                    .spawn_scoped(scope, move || {
                        SearchThread::new(shared, id, root, history).iterate(
                            root,
                            MAX_DEPTH,
                            |_, _| true,
                        )
                    });
                match spawned {
                    Ok(h) => helpers.push(h),
                    Err(e) => {
                        warnings.push(format!(
                            "could not start search thread {} of {threads} ({e}); searching with {id}",
                            id + 1
                        ));
                        break;
                    }
                }
            }
            // However the main thread leaves this scope (a panic in its search included), the
            // helpers are told to end: the scope waits for them, and they end only when told.
            let _end_helpers = SetOnDrop(&internal_stop);
            let mut main = SearchThread::new(&shared, 0, root, history);
            let done = main.iterate(root, max_depth, |done, _| {
                on_info(&info_of(done, shared.total_nodes()));
                let elapsed = started.elapsed() + shared.lag_extra();
                let soft_spent = soft.is_some_and(|s| elapsed >= s.mul_f64(time::ITERATION_SHARE));
                if stop.load(Ordering::Relaxed) || soft_spent {
                    return false;
                }
                // A proven result needs no deeper search when the clock is what limits us.
                let proven = done.score.abs() > MATE_BOUND
                    && done.depth as i32 >= MATE - done.score.abs() + 2;
                !(proven && timed)
            });
            internal_stop.store(true, Ordering::Relaxed);
            // A helper that completed a deeper iteration than the main thread (odd helpers search
            // one ply ahead) has the better-founded move, as in Stockfish's choice of the best
            // thread; depth limits still bound what is reported.
            let mut best = done;
            for helper in helpers {
                if let Ok(h) = helper.join() {
                    if h.depth > best.depth && h.depth <= max_depth && !h.pv.is_empty() {
                        best = h;
                    }
                }
            }
            best
        });
        let best = done.pv.first().copied().or_else(|| legal.first().copied());
        // A search that ends past its deadline was held back after its last look at the clock
        // (the gap between looks does not see it): by as much as it overran. Taken before a
        // level's pace, which waits on purpose.
        if let Some(deadline) = shared.deadline {
            self.lag
                .record(Instant::now().saturating_duration_since(deadline));
        }
        if let Some(pace) = strength.pace_for(limits, &budget, shared.total_nodes()) {
            wait_until(started + pace, stop);
        }
        let mut info = info_of(&done, shared.total_nodes());
        if info.pv.is_empty() {
            info.pv = best.into_iter().collect();
        }
        self.lag.record(shared.main_lag());
        SearchReport {
            best,
            info,
            warnings,
        }
    }
}

/// Waits until `deadline` or `stop`, whichever comes first (a level's pace under a clock), in
/// steps short enough that `stop` is answered within a few milliseconds.
fn wait_until(deadline: Instant, stop: &AtomicBool) {
    const STEP: Duration = Duration::from_millis(2);
    while !stop.load(Ordering::Relaxed) {
        let Some(left) = deadline.checked_duration_since(Instant::now()) else {
            return;
        };
        std::thread::sleep(left.min(STEP));
    }
}

/// Sets its flag when dropped (on every way out of a scope).
struct SetOnDrop<'a>(&'a AtomicBool);

impl Drop for SetOnDrop<'_> {
    fn drop(&mut self) {
        self.0.store(true, Ordering::Relaxed);
    }
}

/// Whether a search of `pos` under `limits` uses the game's tables (Modiar's solution, the Toguz
/// endgame tables), which may still be loading: reading them takes up to seconds, a first build
/// of Modiar's about 10 s.
///
/// - Ready: yes.
/// - A search on a clock (`movetime`, `p1time`...) never waits: it goes without them, and their
///   loading is started on a thread of its own for the moves to come. No move is late because of
///   a table.
/// - Any other search (depth, nodes, infinite: no time limit to exceed) waits for them, so that
///   such a search gives the same move on every run, cold cache or warm; `stop` ends the wait
///   at once (and the search goes without them).
fn tables_for_search<G: Evaluate + Probe>(pos: &G, limits: &Limits, stop: &AtomicBool) -> bool {
    if limits.movetime.is_some() || limits.clock.is_some() {
        return prepare_tables_in_background(pos) == TablesReadiness::Ready;
    }
    wait_for_tables(pos, stop)
}

/// Waits for `pos`'s game's tables (reading them on a thread of its own, or here when no thread
/// can be started), for a move that has no clock to exceed: an untimed search, or the engine's
/// move against a person at a terminal, who would otherwise get a weaker first move than the
/// game's solution gives. `stop` ends the wait at once. Whether the tables are ready.
pub fn wait_for_tables<G: Evaluate + Probe>(pos: &G, stop: &AtomicBool) -> bool {
    loop {
        match prepare_tables_in_background(pos) {
            TablesReadiness::Ready => return true,
            TablesReadiness::Loading if stop.load(Ordering::Relaxed) => return false,
            TablesReadiness::Loading => std::thread::sleep(Duration::from_millis(1)),
            TablesReadiness::NoThread => {
                // No thread to read them on: read them here (there is no clock to run out).
                pos.prepare_tables();
                return true;
            }
            // The reading thread ended without them (it panicked): not waited for again.
            TablesReadiness::Failed => return false,
        }
    }
}

/// Where a game's tables are, for [`prepare_tables_in_background`]: ready, loading or not to be
/// had (the tables themselves are `tables::toguz::Tables` and `tables::modiar::ModiarTable`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum TablesReadiness {
    /// Read (or known to be missing), or the game has none: use them now.
    Ready,
    /// A thread is reading or building them.
    Loading,
    /// No thread could be started to read them.
    NoThread,
    /// The thread that read them ended without them.
    Failed,
}

/// Starts reading `pos`'s game's tables on a thread of its own, once per game in this process
/// (later calls only report), and says where they are.
pub fn prepare_tables_in_background<G: Evaluate + Probe>(pos: &G) -> TablesReadiness {
    use std::sync::Mutex;
    use std::thread::JoinHandle;
    /// Games whose tables a thread is reading or has read, with that thread.
    static STARTED: Mutex<Vec<(crate::games::Variant, JoinHandle<()>)>> = Mutex::new(Vec::new());
    if pos.tables_ready() {
        return TablesReadiness::Ready;
    }
    let variant = pos.variant();
    let mut started = lock(&STARTED);
    if let Some((_, thread)) = started.iter().find(|(v, _)| *v == variant) {
        return match (thread.is_finished(), pos.tables_ready()) {
            (_, true) => TablesReadiness::Ready,
            (false, false) => TablesReadiness::Loading,
            (true, false) => TablesReadiness::Failed,
        };
    }
    // The tables are the game's (its board size), whatever the position.
    let spawned = std::thread::Builder::new()
        .name("otau-tables".into())
        .spawn(move || AnyGame::start(variant).prepare_tables());
    match spawned {
        Ok(thread) => {
            started.push((variant, thread));
            TablesReadiness::Loading
        }
        Err(_) => TablesReadiness::NoThread,
    }
}
