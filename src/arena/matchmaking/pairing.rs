//! What every tournament kind is to the rest of the arena: a [`Pairing`], as fastchess's
//! scheduler is a base class with `next()` that its round robin and gauntlet implement.
//!
//! The tournament's workers, the records reader, `--resume`, `merge`, the summary and the report
//! hold a `Box<dyn Pairing>` and never ask which kind it is: a fixed schedule
//! ([`crate::arena::matchmaking::schedule::FixedSchedule`]: round robin, gauntlet) and a
//! knockout's bracket ([`crate::arena::matchmaking::knockout::Bracket`]), whose next games depend
//! on the results, answer the same questions.

use crate::arena::records::GameSet;
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
    pub north: usize,
}

/// What a pairing has for a worker.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Step {
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
    pub index: u64,
    pub south: usize,
    pub north: usize,
    pub result: Outcome,
    pub round: u32,
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

    /// A game it handed out has ended with `result` (and is on its way to the records).
    fn record(&mut self, game: &GameSpec, result: Outcome);

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
}
