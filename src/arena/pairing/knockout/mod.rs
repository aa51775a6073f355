//! `--tournament knockout`: a single-elimination bracket whose later rounds depend on the results
//! of earlier ones.
//!
//! - **Seeding**: the engines are seeded in the order given on the command line (the first is
//!   seed 1) into a bracket of the next power of two, in the standard placement (1 against B,
//!   2 against B-1, ...; seeds 1 and 2 can meet only in the final). A field that is not a power
//!   of two gives the top seeds a bye into the second round, as cutechess-cli's knockout does
//!   (cutechess-cli also shuffles the players it is not told to seed; here every engine is
//!   seeded, so a run is a function of its command line and `--seed`).
//! - **Encounters**: `--rounds R` game pairs (opening P twice, colours swapped; the better seed
//!   is South in the first game), all played; the engine with more points goes on.
//! - **Ties**: up to `--tiebreak-pairs K` further pairs, one at a time, until one engine leads
//!   on points; then a draw seeded by the run's `--seed` (and the encounter's place), so the
//!   same run always draws the same winner.
//!
//! Games are numbered densely in waves: a round's regular pairs in bracket order, then each
//! wave of tiebreak pairs (one pair for every encounter still tied), then the next round. A
//! wave's games are handed out only once the previous wave's results are all known, so game N
//! is the same game at any concurrency, and the bracket is a pure function of the results:
//! `--resume`, `merge` and the summary all rebuild it by replaying the recorded games
//! ([`Bracket::replay_games`]).

mod checks;
#[cfg(test)]
mod tests;
mod text;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

pub use checks::{
    check_numbers, check_shard, check_values, DEFAULT_TIEBREAK_PAIRS, MAX_TIEBREAK_PAIRS,
};

use crate::arena::config::RunConfig;
use crate::arena::pairing::GameSet;
use crate::arena::pairing::{GameSpec, Pairing, Recorded, Step};
use crate::games::{Outcome, Side};

/// What fixes a bracket: the field and the encounters' length.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Engine names in seed order (the command line's).
    pub names: Vec<String>,
    /// Game pairs an encounter plays (`--rounds`).
    pub pairs: u32,
    /// Tiebreak pairs at most before the seeded draw (`--tiebreak-pairs`).
    pub tiebreak_pairs: u32,
    /// The run's `--seed`: the seeded draws come from it.
    pub seed: u64,
}

impl Rules {
    /// A knockout run's rules: its engines in seed order, `--rounds` pairs an encounter, its
    /// tiebreak pairs and seed.
    pub fn of(config: &RunConfig) -> Rules {
        Rules {
            names: config.engine_names(),
            pairs: config.rounds,
            tiebreak_pairs: config.tiebreak_pairs.unwrap_or(DEFAULT_TIEBREAK_PAIRS),
            seed: config.seed,
        }
    }

    /// The most games the bracket can take: every one of its `engines - 1` encounters with all
    /// its tiebreak pairs.
    pub(crate) fn max_games(&self) -> u64 {
        let encounters = self.names.len().saturating_sub(1) as u64;
        encounters
            .saturating_mul(u64::from(self.pairs) + u64::from(self.tiebreak_pairs))
            .saturating_mul(2)
    }

    /// The games of the bracket without tiebreaks: `engines - 1` encounters of `pairs` pairs.
    pub(crate) fn regular_games(&self) -> u64 {
        (self.names.len().saturating_sub(1) as u64).saturating_mul(2 * u64::from(self.pairs))
    }
}

/// How an encounter was decided.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Decided {
    /// The other seat is empty: the engine goes on without playing.
    Bye,
    /// More points after the encounter's regular pairs.
    Games,
    /// More points after one or more tiebreak pairs.
    Tiebreak,
    /// Still level after every tiebreak pair: the seeded draw chose.
    Draw,
}

/// One encounter of the bracket.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Encounter {
    /// Engine indices: the better seed (lower index) first; None is a bye.
    pub seats: [Option<usize>; 2],
    /// Half-points of each seat.
    pub half_points: [u32; 2],
    /// Game pairs played to the end (regular and tiebreak).
    pub pairs_played: u32,
    /// Tiebreak pairs among them.
    pub tiebreak_played: u32,
    /// The engine that goes on, and how it was decided.
    pub winner: Option<(usize, Decided)>,
}

impl Encounter {
    fn new(a: Option<usize>, b: Option<usize>) -> Encounter {
        let seats = match (a, b) {
            (Some(x), Some(y)) if y < x => [Some(y), Some(x)],
            (None, y) => [y, None],
            _ => [a, b],
        };
        let winner = match seats {
            [Some(x), None] => Some((x, Decided::Bye)),
            _ => None,
        };
        Encounter {
            seats,
            half_points: [0, 0],
            pairs_played: 0,
            tiebreak_played: 0,
            winner,
        }
    }

    fn playing(&self) -> Option<[usize; 2]> {
        match self.seats {
            [Some(a), Some(b)] => Some([a, b]),
            _ => None,
        }
    }
}

/// A game of the current wave.
#[derive(Clone, Debug)]
struct WaveGame {
    spec: GameSpec,
    handed: bool,
    result: Option<Outcome>,
}

/// The bracket as the results so far make it, and the wave of games being played.
#[derive(Clone, Debug)]
pub struct Bracket {
    rules: Rules,
    /// Encounters by round (round 0 first); the last round is the one being played.
    rounds: Vec<Vec<Encounter>>,
    /// The games of the current wave, numbered from `wave_start`.
    wave: Vec<WaveGame>,
    wave_start: u64,
    /// Of the current wave: its games are tiebreak pairs.
    wave_is_tiebreak: bool,
}

/// The standard placement of seeds 1..=size (a power of two) in a bracket, slot by slot:
/// [1, 2] for 2, [1, 4, 2, 3] for 4, [1, 8, 4, 5, 2, 7, 3, 6] for 8: each first-round encounter's
/// seeds add up to size + 1, and the top two seeds are in different halves.
pub(crate) fn seed_slots(size: usize) -> Vec<usize> {
    let mut slots = vec![1];
    while slots.len() < size {
        let m = 2 * slots.len() + 1;
        slots = slots.iter().flat_map(|&s| [s, m - s]).collect();
    }
    slots
}

impl Bracket {
    /// The bracket before any game: round one seeded, its byes decided, its first wave ready.
    pub fn new(rules: Rules) -> Bracket {
        let n = rules.names.len();
        let size = n.max(2).next_power_of_two();
        let slots = seed_slots(size);
        let first: Vec<Encounter> = slots
            .chunks(2)
            .map(|s| {
                let seat = |rank: usize| (rank <= n).then(|| rank - 1);
                Encounter::new(seat(s[0]), seat(s[1]))
            })
            .collect();
        let mut b = Bracket {
            rules,
            rounds: vec![first],
            wave: Vec::new(),
            wave_start: 0,
            wave_is_tiebreak: false,
        };
        b.start_wave(false);
        b
    }

    /// Replays `games` (ascending by index), recorded before: each must be played where the
    /// bracket plays it (the round and encounter its record names), and fit the bracket the
    /// games before it make; an error names the first game that does not (a records file that
    /// is not a knockout's, or was changed).
    pub(crate) fn replay_games(
        &mut self,
        games: impl IntoIterator<Item = Recorded>,
    ) -> Result<(), String> {
        for g in games {
            if let Some(w) = g
                .index
                .checked_sub(self.wave_start)
                .and_then(|i| self.wave.get(i as usize))
            {
                let spec = w.spec;
                if (g.round, g.encounter) != (spec.round, spec.encounter) {
                    let place = |round: u32, e: Option<u32>| {
                        let e = e.map_or("no encounter".to_string(), |e| {
                            format!("encounter {}", e + 1)
                        });
                        format!("round {}, {e}", u64::from(round) + 1)
                    };
                    return Err(format!(
                        "game {} names {}, but the knockout bracket plays it in {}",
                        spec.index + 1,
                        place(g.round, g.encounter),
                        place(spec.round, spec.encounter)
                    ));
                }
            }
            if g.index >= self.wave_start + self.wave.len() as u64 {
                let missing = self
                    .wave
                    .iter()
                    .find(|w| w.result.is_none())
                    .map_or(String::new(), |w| {
                        format!(": game {} before it is not recorded", w.spec.index + 1)
                    });
                return Err(format!(
                    "game {} does not fit the knockout bracket the earlier games make{missing}",
                    g.index + 1
                ));
            }
            self.record_game(g.index, g.south, g.north, g.result)?;
        }
        Ok(())
    }

    /// What fixes the bracket: its field in seed order, its encounters' length, its seed.
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// Encounters by round.
    pub fn rounds(&self) -> &[Vec<Encounter>] {
        &self.rounds
    }

    /// The champion, once the final is decided.
    pub fn champion(&self) -> Option<usize> {
        let last = self.rounds.last()?;
        match last.as_slice() {
            [final_] => final_.winner.map(|(w, _)| w),
            _ => None,
        }
    }

    pub(crate) fn is_done(&self) -> bool {
        self.champion().is_some()
    }

    /// The next game to hand out, in game order.
    pub(crate) fn next_game(&mut self) -> Step {
        if self.is_done() {
            return Step::Done;
        }
        match self
            .wave
            .iter_mut()
            .find(|g| !g.handed && g.result.is_none())
        {
            Some(g) => {
                g.handed = true;
                Step::Game(g.spec)
            }
            None => Step::Wait,
        }
    }

    /// A finished game of the current wave (engines checked against the bracket's); the next
    /// wave starts once the wave is complete. A game recorded twice counts once.
    pub(crate) fn record_game(
        &mut self,
        index: u64,
        south: usize,
        north: usize,
        result: Outcome,
    ) -> Result<(), String> {
        let at = index
            .checked_sub(self.wave_start)
            .filter(|&i| i < self.wave.len() as u64)
            .ok_or_else(|| {
                format!(
                    "game {}: not among the games the knockout is playing (games {}..={})",
                    index + 1,
                    self.wave_start + 1,
                    self.wave_start + self.wave.len() as u64
                )
            })? as usize;
        let g = &mut self.wave[at];
        if (g.spec.south, g.spec.north) != (south, north) {
            return Err(format!(
                "game {}: played by {} and {}, but the knockout bracket has {} and {} there",
                index + 1,
                self.rules.names[south],
                self.rules.names[north],
                self.rules.names[g.spec.south],
                self.rules.names[g.spec.north]
            ));
        }
        if g.result.is_none() {
            g.result = Some(result);
            if self.wave.iter().all(|g| g.result.is_some()) {
                self.end_wave();
            }
        }
        Ok(())
    }

    /// Games still to play at least: the current wave's unfinished games and the regular pairs
    /// of every encounter not yet begun (tiebreaks may add more). Zero once the final is decided.
    pub(crate) fn games_left(&self) -> u64 {
        if self.is_done() {
            return 0;
        }
        let unfinished = self.wave.iter().filter(|g| g.result.is_none()).count() as u64;
        let real = self.rules.names.len().saturating_sub(1) as u64;
        let begun = self
            .rounds
            .iter()
            .flatten()
            .filter(|e| e.playing().is_some())
            .count() as u64;
        unfinished + real.saturating_sub(begun) * 2 * u64::from(self.rules.pairs)
    }

    /// Starts the current round's next wave: every encounter's regular pairs, or one tiebreak
    /// pair for each encounter still level.
    fn start_wave(&mut self, tiebreak: bool) {
        let round = self.rounds.len() - 1;
        let start = self.wave_start;
        let mut wave = Vec::new();
        for (e, enc) in self.rounds[round].iter().enumerate() {
            let (Some([a, b]), None) = (enc.playing(), enc.winner) else {
                continue;
            };
            let pairs = if tiebreak { 1 } else { self.rules.pairs };
            for _ in 0..pairs {
                for (south, north) in [(a, b), (b, a)] {
                    let index = start + wave.len() as u64;
                    wave.push(WaveGame {
                        spec: GameSpec {
                            index,
                            pair: index / 2,
                            round: round as u32,
                            encounter: Some(e as u32),
                            south,
                            north,
                        },
                        handed: false,
                        result: None,
                    });
                }
            }
        }
        self.wave = wave;
        self.wave_is_tiebreak = tiebreak;
    }

    /// Scores the finished wave, decides what it decides, and starts the next wave (a tiebreak
    /// wave, or the next round) unless the final is decided.
    fn end_wave(&mut self) {
        let round = self.rounds.len() - 1;
        let wave = std::mem::take(&mut self.wave);
        self.wave_start += wave.len() as u64;
        let encounters = &mut self.rounds[round];
        for g in &wave {
            let e = &mut encounters[g.spec.encounter.unwrap_or(0) as usize];
            let south_seat = usize::from(e.seats[0] != Some(g.spec.south));
            let (south, north) = match g.result.unwrap_or(Outcome::Draw) {
                Outcome::Win(Side::South) => (2, 0),
                Outcome::Win(Side::North) => (0, 2),
                Outcome::Draw => (1, 1),
            };
            e.half_points[south_seat] += south;
            e.half_points[1 - south_seat] += north;
        }
        let mut level = false;
        for (i, e) in encounters.iter_mut().enumerate() {
            let Some([a, b]) = e.playing() else { continue };
            if e.winner.is_some() {
                continue;
            }
            let pairs = wave
                .iter()
                .filter(|g| g.spec.encounter == Some(i as u32))
                .count() as u32
                / 2;
            e.pairs_played += pairs;
            if self.wave_is_tiebreak {
                e.tiebreak_played += pairs;
            }
            let how = if e.tiebreak_played > 0 {
                Decided::Tiebreak
            } else {
                Decided::Games
            };
            let [pa, pb] = e.half_points;
            if pa != pb {
                e.winner = Some((if pa > pb { a } else { b }, how));
            } else if e.tiebreak_played < self.rules.tiebreak_pairs {
                level = true;
            } else {
                let mut rng = ChaCha8Rng::seed_from_u64(self.rules.seed ^ DRAW_SALT);
                rng.set_stream(((round as u64) << 32) | i as u64);
                let w = if rng.gen_bool(0.5) { a } else { b };
                e.winner = Some((w, Decided::Draw));
            }
        }
        if level {
            self.start_wave(true);
            return;
        }
        if encounters.len() > 1 {
            let winners: Vec<Option<usize>> =
                encounters.iter().map(|e| e.winner.map(|w| w.0)).collect();
            let next = winners
                .chunks(2)
                .map(|w| Encounter::new(w[0], w[1]))
                .collect();
            self.rounds.push(next);
            self.start_wave(false);
        }
    }
}

/// Salt of the tiebreak draws' generator (the openings use the same seed otherwise).
const DRAW_SALT: u64 = 0x6B0C_D0A7_D2A3_5EED;

impl Pairing for Bracket {
    fn next(&mut self) -> Step {
        self.next_game()
    }

    fn record(&mut self, game: &GameSpec, result: Outcome, _: bool) {
        // The bracket handed this very game out: it fits.
        let _ = self.record_game(game.index, game.south, game.north, result);
    }

    fn follows_results(&self) -> bool {
        true
    }

    fn replay(
        &mut self,
        _: &GameSet,
        games: &mut dyn Iterator<Item = Recorded>,
    ) -> Result<(), String> {
        self.replay_games(games)
    }

    /// An encounter the bracket has: its size is the engines rounded up to a power of two (byes
    /// fill it), each round half the encounters of the one before.
    fn misplaced(&self, round: u32, encounter: Option<u32>) -> Option<String> {
        let Some(e) = encounter else {
            return Some("names no knockout encounter".to_string());
        };
        let engines = self.rules.names.len();
        let size = engines.max(2).next_power_of_two() as u64;
        let rounds = size.trailing_zeros();
        let encounters = (round < rounds).then(|| size >> (round + 1));
        match encounters {
            Some(n) if u64::from(e) < n => None,
            Some(n) => Some(format!(
                "names encounter {} of round {}, which has {n} encounter(s) in this knockout of \
                 {engines} engines",
                u64::from(e) + 1,
                round + 1,
            )),
            None => Some(format!(
                "names round {}, but this knockout of {engines} engines has {rounds} round(s)",
                u64::from(round) + 1,
            )),
        }
    }

    fn len(&self) -> u64 {
        self.rules.max_games()
    }

    fn planned(&self) -> u64 {
        self.rules.regular_games()
    }

    fn games_left(&self) -> u64 {
        Bracket::games_left(self)
    }

    /// Without and with every tiebreak pair.
    fn size_text(&self) -> String {
        format!(
            "knockout, {} to {} games",
            self.rules.regular_games(),
            self.rules.max_games()
        )
    }

    fn notes(&self) -> Vec<(String, String)> {
        vec![("Knockout bracket".to_string(), self.text())]
    }

    fn summary_json(&self) -> Option<(&'static str, serde_json::Value)> {
        Some(("knockout", self.to_json()))
    }
}
