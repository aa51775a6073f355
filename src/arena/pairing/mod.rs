//! What every tournament kind is to the rest of the arena: a [`Pairing`], as fastchess's
//! scheduler is a base class with `next()` that its round robin and gauntlet implement.
//!
//! The tournament's workers, the records reader, `--resume`, `merge`, the summary and the report
//! hold a `Box<dyn Pairing>` and never ask which kind it is: a fixed schedule
//! ([`schedule::FixedSchedule`]: round robin, gauntlet) and a
//! knockout's bracket ([`knockout::Bracket`]), whose next games depend
//! on the results, answer the same questions.
//!
//! # Where a new tournament kind goes
//!
//! A kind (a Swiss system, say) is one new file here implementing [`Pairing`], and one arm in
//! [`TournamentKind`] (`crate::arena::config`: its `--tournament` name and help) with its
//! construction in [`TournamentKind::pairing`] and its values' checks in
//! [`TournamentKind::check_values`] (and [`TournamentKind::check_shard`] if it cannot be split
//! into shards): matches the compiler checks for completeness. Nothing else in the arena names a
//! kind: the workers, the records, `--resume`, `merge`, the summary and the report only hold a
//! `Box<dyn Pairing>`. Its rules go in `protocol/arena.md`, a run of it in the tests
//! (`tests/integration/arena_knockout.rs` is the knockout's).

pub mod game_set;
pub mod knockout;
pub mod schedule;
pub mod swiss;

pub use crate::arena::config::TournamentKind;
pub use game_set::GameSet;

use crate::arena::config::RunConfig;
use schedule::Shard;

use crate::games::Outcome;

/// One scheduled game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameSpec {
    /// 0-based game number in the whole run.
    pub index: u64,
    /// Pair number: the opening index; games 2P and 2P+1.
    pub pair: u64,
    /// 0-based round.
    pub round: u32,
    /// A knockout's encounter: its place in the round's bracket, 0-based (None otherwise).
    pub encounter: Option<u32>,
    /// Engine indices.
    pub south: usize,
    /// Engine index of North.
    pub north: usize,
}

/// What a pairing has for a worker.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Step {
    /// A game that can be played now.
    Game(GameSpec),
    /// Every game that can be played now is being played: the next depend on their results.
    Wait,
    /// Nothing more to play.
    Done,
}

/// A game recorded before, as a pairing replays it: its number, engines and result, and the
/// place (round, encounter) its record names.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Recorded {
    /// 0-based game number in the whole run.
    pub index: u64,
    /// Engine index of South.
    pub south: usize,
    /// Engine index of North.
    pub north: usize,
    /// The game's result.
    pub result: Outcome,
    /// Ended before its first move (`Termination::unplayed`): a forfeit to a Swiss.
    pub unplayed: bool,
    /// 0-based round.
    pub round: u32,
    /// A knockout's encounter within the round (None otherwise).
    pub encounter: Option<u32>,
}

/// Who plays whom in a run, game by game: the one interface of every tournament kind (where a
/// new kind goes: [`crate::arena::matchmaking`]).
///
/// Game N must be the same game at any concurrency, in every shard and after any `--resume`:
/// a pairing is a pure function of the run's configuration and of the results it is told, in
/// game order.
pub trait Pairing: Send + std::fmt::Debug {
    /// The next game to hand out, in game order; recorded games are not handed out again.
    fn next(&mut self) -> Step;

    /// A game it handed out has ended with `result` (and is on its way to the records);
    /// `unplayed`: before its first move, an engine never ready for it (a Swiss's forfeit).
    fn record(&mut self, game: &GameSpec, result: Outcome, unplayed: bool);

    /// Whether its next games depend on the results: then the records reader and the standings
    /// keep each game's engines, place and result (a few dozen bytes a game) for
    /// [`Pairing::replay`]; otherwise the set of games recorded (one bit a game) is all it needs.
    fn follows_results(&self) -> bool;

    /// The games recorded before this session: `done` (every one), and, when it
    /// [`follows_results`](Pairing::follows_results), `games` in ascending game order. An error
    /// names the first game that does not fit (a records file of another run, or changed).
    fn replay(
        &mut self,
        done: &GameSet,
        games: &mut dyn Iterator<Item = Recorded>,
    ) -> Result<(), String>;

    /// Why a recorded game's place (its round and encounter) cannot be in this run, if it
    /// cannot; checked on every records line.
    fn misplaced(&self, round: u32, encounter: Option<u32>) -> Option<String>;

    /// Games in the whole run (all shards): the records header's `scheduled`, the most it can
    /// take.
    fn len(&self) -> u64;

    /// True when the run has no game (too few engines).
    fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The games of its slice the progress counts (a knockout: without tiebreaks, since the
    /// most would mislead more).
    fn planned(&self) -> u64;

    /// Games still to play at least for its slice to be complete, given what it was told.
    fn games_left(&self) -> u64;

    /// The run's size for the user: `48 games`, `knockout, 8 to 16 games`.
    fn size_text(&self) -> String;

    /// Sections of text after the summary and in the HTML report, (heading, text): a
    /// knockout's bracket. None for a fixed schedule.
    fn notes(&self) -> Vec<(String, String)>;

    /// Its part of the summary event, (key, value): a knockout's `knockout` bracket.
    fn summary_json(&self) -> Option<(&'static str, serde_json::Value)>;

    /// The most games it can hand out at once, when its rounds hold fewer than the run (a
    /// Swiss's round: the next is paired when it ends); None when any worker may get a game.
    fn most_at_once(&self) -> Option<u64> {
        None
    }

    /// How many rounds are complete, for a kind that writes a FIDE TRF (`--trf`, a Swiss):
    /// asked after every result, so that the TRF is made only when a round completes.
    fn rounds_done(&self) -> Option<usize> {
        None
    }

    /// The tournament as a FIDE TRF (`event` its name), for a kind that writes one.
    fn trf(&self, _event: &str) -> Option<String> {
        None
    }
}

impl TournamentKind {
    /// The run's pairing, before any game is recorded: the one place each kind is built.
    /// `shard` is the slice this process plays (a kind that cannot be split refuses it in
    /// [`TournamentKind::check_shard`] first).
    pub fn pairing(self, config: &RunConfig, shard: Option<Shard>) -> Box<dyn Pairing> {
        match self {
            TournamentKind::Roundrobin | TournamentKind::Gauntlet => {
                Box::new(schedule::FixedSchedule::new(config, shard))
            }
            TournamentKind::Knockout => {
                Box::new(knockout::Bracket::new(knockout::Rules::of(config)))
            }
            TournamentKind::Swiss => Box::new(swiss::SwissRun::new(swiss::Rules::of(config))),
        }
    }

    /// The kind's values in range, and the options it cannot take refused by name: checked on
    /// the command line's and on what `--resume` reads back.
    pub fn check_values(self, config: &RunConfig) -> Result<(), String> {
        match self {
            TournamentKind::Roundrobin | TournamentKind::Gauntlet => schedule::check_values(config),
            TournamentKind::Knockout => knockout::check_values(config),
            TournamentKind::Swiss => swiss::check_values(config),
        }
    }

    /// `--shard`, refused by a kind whose games cannot be split.
    pub fn check_shard(self, shard: Shard) -> Result<(), String> {
        match self {
            TournamentKind::Knockout => knockout::check_shard(shard),
            TournamentKind::Swiss => swiss::check_shard(shard),
            _ => Ok(()),
        }
    }
}

/// The numbers a knockout's and a Swiss's `check_numbers` read (engines, `--rounds`, `--games`,
/// `--tiebreak-pairs`, whether `--sprt` is given), unpacked from the configuration in this one
/// place.
pub type NumbersCheck = fn(usize, u32, Option<u64>, Option<u32>, bool) -> Result<(), String>;

/// `check` on the configuration's numbers: a bracket kind's `check_values`.
pub fn check_numbers_of(config: &RunConfig, check: NumbersCheck) -> Result<(), String> {
    check(
        config.engines.len(),
        config.rounds,
        config.games,
        config.tiebreak_pairs,
        config.sprt.is_some(),
    )
}

/// A run's values: the configuration's own ([`RunConfig::check_values`]) and its tournament
/// kind's, checked on the command line's and on what `--resume` reads back.
pub fn check(config: &RunConfig) -> Result<(), String> {
    config.check_values()?;
    config.tournament.check_values(config)
}
