//! Search: the engine behind `go`. This is the stable interface the UGI front end and the arena's
//! built-in players call; the algorithm behind it is the search issue's.
//!
//! A [`Searcher`] owns the transposition table and options and runs one search at a time on the
//! caller's thread; the caller stops it through the shared `stop` flag and receives progress
//! through a callback.

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::{Duration, Instant};

use crate::games::{AnyGame, Game, GameLine, Move};

/// Which player answers `go`: the real search, or one of the baseline sparring partners.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default)]
pub enum Player {
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
    pub threads: usize,
    /// Strength ladder 1..=MAX_LEVEL; MAX_LEVEL is full strength.
    pub level: u32,
    pub player: Player,
    /// Seeds the random player (and any randomness the search uses).
    pub seed: u64,
    /// Time kept back per move for communication delays.
    pub move_overhead: Duration,
}

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
    pub remaining: Duration,
    pub increment: Duration,
    pub moves_to_go: Option<u32>,
}

/// Limits of one search; the first one reached ends it. All `None` and not infinite means a
/// sensible default (depth-limited).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Limits {
    pub depth: Option<u32>,
    pub nodes: Option<u64>,
    pub movetime: Option<Duration>,
    pub clock: Option<Clock>,
    pub infinite: bool,
}

/// A score from the side to move's view.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// Centi-stones: 100 = one stone.
    Cp(i32),
    /// Plies to a proven win (negative: to a proven loss).
    Mate(i32),
}

/// Progress of a search, reported after each completed iteration and once at the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Info {
    pub depth: u32,
    pub seldepth: u32,
    pub score: Score,
    pub nodes: u64,
    pub elapsed: Duration,
    /// Transposition table use in permille.
    pub hashfull: u32,
    pub pv: Vec<Move>,
}

/// The result of a search: the move to play (None when the game is over) and the last info.
#[derive(Clone, Debug)]
pub struct Report {
    pub best: Option<Move>,
    pub info: Info,
}

/// Owns the engine state that persists between searches.
pub struct Searcher {
    options: Options,
    rng_state: u64,
}

impl Searcher {
    pub fn new(options: Options) -> Self {
        let rng_state = options.seed;
        Searcher { options, rng_state }
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// Applies new options (resizing the table when `hash_mb` changed).
    pub fn set_options(&mut self, options: Options) {
        if options.seed != self.options.seed {
            self.rng_state = options.seed;
        }
        self.options = options;
    }

    /// Forgets everything learnt in the previous game.
    pub fn new_game(&mut self) {
        self.rng_state = self.options.seed;
    }

    /// Searches the current position of `line` within `limits`, until `stop` is set.
    pub fn search(
        &mut self,
        line: &GameLine<AnyGame>,
        limits: &Limits,
        stop: &AtomicBool,
        on_info: &mut dyn FnMut(&Info),
    ) -> Report {
        // Placeholder until the search issue lands: first legal move (random for Player::Random).
        let started = Instant::now();
        let _ = (limits, stop.load(Ordering::Relaxed));
        let moves = if line.is_over() {
            Default::default()
        } else {
            line.position().legal_moves()
        };
        let best = if moves.is_empty() {
            None
        } else if self.options.player == Player::Random {
            self.rng_state =
                crate::games::mix64(self.rng_state.wrapping_add(0x9e37_79b9_7f4a_7c15));
            Some(moves[(self.rng_state % moves.len() as u64) as usize])
        } else {
            Some(moves[0])
        };
        let info = Info {
            depth: 1,
            seldepth: 1,
            score: Score::Cp(0),
            nodes: moves.len() as u64,
            elapsed: started.elapsed(),
            hashfull: 0,
            pv: best.into_iter().collect(),
        };
        on_info(&info);
        Report { best, info }
    }
}
