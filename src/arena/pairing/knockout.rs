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
//! ([`Bracket::replay`]).

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use serde::Serialize;

use crate::arena::pairing::schedule::{GameSpec, TournamentKind, MAX_GAMES};
use crate::games::{Outcome, Side};
use crate::names::shown;
use crate::stats::table::pad;

/// `--tiebreak-pairs` by default: two more pairs before the seeded draw.
pub const DEFAULT_TIEBREAK_PAIRS: u32 = 2;

/// The largest `--tiebreak-pairs`.
pub const MAX_TIEBREAK_PAIRS: u32 = 1000;

/// A knockout's values, checked on the command line's and on what `--resume` reads back: the
/// options a knockout cannot take are refused by name. `tiebreak_pairs` is given only for a
/// knockout.
pub fn check_values(
    kind: TournamentKind,
    engines: usize,
    rounds: u32,
    games: Option<u64>,
    tiebreak_pairs: Option<u32>,
    sprt: bool,
) -> Result<(), String> {
    if kind != TournamentKind::Knockout {
        return match tiebreak_pairs {
            Some(k) => Err(format!(
                "--tiebreak-pairs {k}: only for --tournament knockout (a round robin or gauntlet \
                 has no ties to break)"
            )),
            None => Ok(()),
        };
    }
    if engines < 2 {
        return Err(format!(
            "--tournament knockout: needs at least two engines (--engine ... twice; {engines} \
             given)"
        ));
    }
    if let Some(g) = games {
        return Err(format!(
            "--games {g}: a knockout's games are set by its bracket; give --rounds R for R game \
             pairs an encounter (and --tiebreak-pairs K for its ties)"
        ));
    }
    if sprt {
        return Err(
            "--sprt: not with --tournament knockout: a sequential test of the first two \
                    engines would stop the bracket part-way; test two engines in a match of \
                    their own"
                .into(),
        );
    }
    let k = tiebreak_pairs.unwrap_or(DEFAULT_TIEBREAK_PAIRS);
    if k > MAX_TIEBREAK_PAIRS {
        return Err(format!("--tiebreak-pairs {k}: 0..={MAX_TIEBREAK_PAIRS}"));
    }
    let most = (engines as u128 - 1) * (u128::from(rounds) + u128::from(k)) * 2;
    if rounds == 0 || most > u128::from(MAX_GAMES) {
        return Err(format!(
            "--rounds {rounds}: 1..={} for a knockout of {engines} engines with {k} tiebreak \
             pair(s) (at most 2^53 games)",
            (u128::from(MAX_GAMES) / ((engines as u128 - 1) * 2))
                .saturating_sub(u128::from(k))
                .min(u128::from(u32::MAX))
        ));
    }
    Ok(())
}

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
    /// The most games the bracket can take: every one of its `engines - 1` encounters with all
    /// its tiebreak pairs.
    pub fn max_games(&self) -> u64 {
        let encounters = self.names.len().saturating_sub(1) as u64;
        encounters
            .saturating_mul(u64::from(self.pairs) + u64::from(self.tiebreak_pairs))
            .saturating_mul(2)
    }

    /// The games of the bracket without tiebreaks: `engines - 1` encounters of `pairs` pairs.
    pub fn regular_games(&self) -> u64 {
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

/// What the bracket has for a worker.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Step {
    Game(GameSpec),
    /// Every game of the current wave is being played: the next depend on their results.
    Wait,
    /// The final is decided.
    Done,
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
pub fn seed_slots(size: usize) -> Vec<usize> {
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

    /// The bracket that `games` (index, South engine, North engine, result; ascending by index)
    /// make; an error names the first game that does not fit it (a records file that is not a
    /// knockout's, or was changed).
    pub fn replay(
        rules: Rules,
        games: impl IntoIterator<Item = (u64, usize, usize, Outcome)>,
    ) -> Result<Bracket, String> {
        Self::replay_placed(rules, games, |_| Ok(()))
    }

    /// [`Bracket::replay`], each game's place in the bracket (its [`GameSpec`]) shown to
    /// `check` before it is recorded: the records reader compares it with the round and
    /// encounter a game's record names.
    pub fn replay_placed(
        rules: Rules,
        games: impl IntoIterator<Item = (u64, usize, usize, Outcome)>,
        mut check: impl FnMut(&GameSpec) -> Result<(), String>,
    ) -> Result<Bracket, String> {
        let mut b = Bracket::new(rules);
        for (index, south, north, result) in games {
            if let Some(g) = index
                .checked_sub(b.wave_start)
                .and_then(|i| b.wave.get(i as usize))
            {
                check(&g.spec)?;
            }
            if index >= b.wave_start + b.wave.len() as u64 {
                let missing = b
                    .wave
                    .iter()
                    .find(|g| g.result.is_none())
                    .map_or(String::new(), |g| {
                        format!(": game {} before it is not recorded", g.spec.index + 1)
                    });
                return Err(format!(
                    "game {} does not fit the knockout bracket the earlier games make{missing}",
                    index + 1
                ));
            }
            b.record(index, south, north, result)?;
        }
        Ok(b)
    }

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

    pub fn is_done(&self) -> bool {
        self.champion().is_some()
    }

    /// The next game to hand out, in game order.
    pub fn next_game(&mut self) -> Step {
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
    pub fn record(
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
    pub fn games_left(&self) -> u64 {
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

    /// The bracket as text: a block per round, an encounter a line, then the champion.
    pub fn text(&self) -> String {
        use std::fmt::Write as _;
        let r = &self.rules;
        let mut out = format!(
            "Knockout: {} engines, {} pair(s) an encounter, ties: up to {} more pair(s), then a \
             draw seeded by --seed {}\n",
            r.names.len(),
            r.pairs,
            r.tiebreak_pairs,
            r.seed
        );
        let name =
            |i: Option<usize>| i.map_or("bye".to_string(), |i| shown(&r.names[i]).into_owned());
        let width = r
            .names
            .iter()
            .map(|n| shown(n).chars().count())
            .max()
            .unwrap_or(3)
            .max(3);
        for (k, round) in self.rounds.iter().enumerate() {
            let _ = writeln!(out, "{}", round_name(k, self.total_rounds()));
            for e in round {
                let [a, b] = e.seats;
                let score = match e.playing() {
                    Some(_) => format!(
                        "{} - {}",
                        points(e.half_points[0]),
                        points(e.half_points[1])
                    ),
                    None => String::new(),
                };
                let verdict = match e.winner {
                    Some((w, Decided::Bye)) => format!("{} goes on (bye)", shown(&r.names[w])),
                    Some((w, Decided::Games)) => format!("{} wins", shown(&r.names[w])),
                    Some((w, Decided::Tiebreak)) => format!(
                        "{} wins after {} tiebreak pair(s)",
                        shown(&r.names[w]),
                        e.tiebreak_played
                    ),
                    Some((w, Decided::Draw)) if e.tiebreak_played == 0 => {
                        format!("{} wins by the seeded draw (level)", shown(&r.names[w]))
                    }
                    Some((w, Decided::Draw)) => format!(
                        "{} wins by the seeded draw (level after {} tiebreak pair(s))",
                        shown(&r.names[w]),
                        e.tiebreak_played
                    ),
                    None => "not decided".to_string(),
                };
                out.push_str("  ");
                pad(&mut out, &name(a), width, false);
                let _ = write!(out, "  {score:^11}  ");
                pad(&mut out, &name(b), width, false);
                let _ = writeln!(out, "  {verdict}");
            }
        }
        match self.champion() {
            Some(c) => {
                let _ = writeln!(out, "Winner: {}", shown(&r.names[c]));
            }
            None => out.push_str("Winner: not decided yet\n"),
        }
        out
    }

    /// Rounds the whole bracket has: log2 of its size.
    fn total_rounds(&self) -> usize {
        self.rounds[0].len().trailing_zeros() as usize + 1
    }

    /// The bracket as JSON: the summary's `knockout` object.
    pub fn to_json(&self) -> serde_json::Value {
        let r = &self.rules;
        let name = |i: Option<usize>| i.map(|i| r.names[i].clone());
        let rounds: Vec<serde_json::Value> = self
            .rounds
            .iter()
            .map(|round| {
                round
                    .iter()
                    .map(|e| {
                        serde_json::json!({
                            "engines": [name(e.seats[0]), name(e.seats[1])],
                            "points": [
                                f64::from(e.half_points[0]) / 2.0,
                                f64::from(e.half_points[1]) / 2.0
                            ],
                            "pairs": e.pairs_played,
                            "tiebreak_pairs": e.tiebreak_played,
                            "winner": name(e.winner.map(|w| w.0)),
                            "decided": e.winner.map(|w| w.1),
                        })
                    })
                    .collect()
            })
            .collect();
        serde_json::json!({
            "pairs_per_encounter": r.pairs,
            "tiebreak_pairs": r.tiebreak_pairs,
            "rounds": rounds,
            "winner": name(self.champion()),
        })
    }
}

/// Salt of the tiebreak draws' generator (the openings use the same seed otherwise).
const DRAW_SALT: u64 = 0x6B0C_D0A7_D2A3_5EED;

/// `Final`, `Semi-final`, `Quarter-final`, or `Round k`.
fn round_name(k: usize, total: usize) -> String {
    match total - k {
        1 => "Final".into(),
        2 => "Semi-finals".into(),
        3 => "Quarter-finals".into(),
        _ => format!("Round {}", k + 1),
    }
}

/// Half-points as points: `2`, `2.5`.
fn points(half: u32) -> String {
    if half.is_multiple_of(2) {
        format!("{}", half / 2)
    } else {
        format!("{}.5", half / 2)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn rules(n: usize, pairs: u32, tiebreak_pairs: u32) -> Rules {
        Rules {
            names: (0..n).map(|i| format!("e{i}")).collect(),
            pairs,
            tiebreak_pairs,
            seed: 7,
        }
    }

    /// Plays the bracket out, `result` deciding each game from its spec; returns the games in
    /// the order handed out.
    fn play(b: &mut Bracket, result: impl Fn(&GameSpec) -> Outcome) -> Vec<GameSpec> {
        let mut games = Vec::new();
        loop {
            match b.next_game() {
                Step::Game(g) => games.push(g),
                Step::Wait => {
                    // A wave is complete only when every game is in: finish them all.
                    let wave: Vec<GameSpec> = games
                        .iter()
                        .filter(|g| g.index >= b.wave_start)
                        .copied()
                        .collect();
                    for g in wave {
                        b.record(g.index, g.south, g.north, result(&g)).unwrap();
                    }
                }
                Step::Done => return games,
            }
        }
    }

    /// The better seed (lower index) wins every game.
    fn seeds_win(g: &GameSpec) -> Outcome {
        if g.south < g.north {
            Outcome::Win(Side::South)
        } else {
            Outcome::Win(Side::North)
        }
    }

    #[test]
    fn options_a_knockout_cannot_take_are_named() {
        let ko = TournamentKind::Knockout;
        check_values(ko, 2, 1, None, Some(0), false).unwrap();
        let err = |r: Result<(), String>| r.unwrap_err();
        assert!(err(check_values(ko, 1, 1, None, None, false)).contains("at least two engines"));
        assert!(err(check_values(ko, 4, 1, Some(8), None, false)).starts_with("--games 8"));
        assert!(err(check_values(ko, 4, 1, None, None, true)).starts_with("--sprt"));
        assert!(err(check_values(ko, 4, 1, None, Some(1001), false))
            .starts_with("--tiebreak-pairs 1001: 0..=1000"));
        assert!(err(check_values(ko, 4, 0, None, None, false)).starts_with("--rounds 0"));
        check_values(ko, 3, u32::MAX, None, None, false).unwrap();
        assert!(err(check_values(
            TournamentKind::Roundrobin,
            4,
            1,
            None,
            Some(2),
            false
        ))
        .starts_with("--tiebreak-pairs 2: only for --tournament knockout"));
        check_values(TournamentKind::Gauntlet, 1, 1, Some(3), None, true).unwrap();
    }

    #[test]
    fn seeds_are_placed_as_in_a_standard_bracket() {
        assert_eq!(seed_slots(1), vec![1]);
        assert_eq!(seed_slots(2), vec![1, 2]);
        assert_eq!(seed_slots(4), vec![1, 4, 2, 3]);
        assert_eq!(seed_slots(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
        for size in [2, 4, 8, 16, 32] {
            let s = seed_slots(size);
            assert!(s.chunks(2).all(|c| c[0] + c[1] == size + 1), "{s:?}");
        }
    }

    #[test]
    fn byes_go_to_the_top_seeds() {
        // 5 engines in a bracket of 8: seeds 1, 2, 3 have byes; 4 plays 5.
        let b = Bracket::new(rules(5, 1, 0));
        let first: Vec<[Option<usize>; 2]> = b.rounds()[0].iter().map(|e| e.seats).collect();
        assert_eq!(
            first,
            vec![
                [Some(0), None],
                [Some(3), Some(4)],
                [Some(1), None],
                [Some(2), None]
            ]
        );
        assert_eq!(b.rounds()[0][0].winner, Some((0, Decided::Bye)));
        // 3 engines: seed 1 waits for the winner of 2 against 3.
        let b = Bracket::new(rules(3, 1, 0));
        assert_eq!(b.rounds()[0][0].seats, [Some(0), None]);
        assert_eq!(b.rounds()[0][1].seats, [Some(1), Some(2)]);
    }

    #[test]
    fn games_come_in_waves_numbered_densely() {
        for n in 2..=9 {
            let mut b = Bracket::new(rules(n, 2, 1));
            let games = play(&mut b, seeds_win);
            // Every encounter eliminates one engine: n - 1 encounters of 2 pairs, no ties.
            assert_eq!(games.len() as u64, b.rules().regular_games(), "{n} engines");
            assert!(games
                .iter()
                .enumerate()
                .all(|(i, g)| g.index == i as u64 && g.pair == i as u64 / 2));
            // Each pair: the same two engines, colours swapped, the better seed South first.
            for p in games.chunks(2) {
                assert_eq!((p[0].south, p[0].north), (p[1].north, p[1].south));
                assert!(p[0].south < p[0].north);
            }
            assert_eq!(b.champion(), Some(0));
            assert_eq!(b.games_left(), 0);
            assert_eq!(b.next_game(), Step::Done);
        }
    }

    #[test]
    fn the_next_round_waits_for_the_whole_wave() {
        let mut b = Bracket::new(rules(4, 1, 0));
        // Round one: 1-4 and 2-3, one pair each: four games, then nothing until they end.
        let Step::Game(g0) = b.next_game() else {
            panic!()
        };
        assert_eq!(
            (g0.round, g0.encounter, g0.south, g0.north),
            (0, Some(0), 0, 3)
        );
        for _ in 0..3 {
            assert!(matches!(b.next_game(), Step::Game(_)));
        }
        assert_eq!(b.next_game(), Step::Wait);
        assert_eq!(b.games_left(), 4 + 2);
        for (i, (s, n)) in [(0, 3), (3, 0), (1, 2), (2, 1)].into_iter().enumerate() {
            b.record(i as u64, s, n, Outcome::Draw)
                .unwrap_or_else(|e| panic!("{e}"));
        }
        // All level, no tiebreak pairs: seeded draws decide; the final follows.
        let Step::Game(f) = b.next_game() else {
            panic!()
        };
        assert_eq!((f.index, f.round, f.encounter), (4, 1, Some(0)));
        assert!(b.rounds()[0]
            .iter()
            .all(|e| matches!(e.winner, Some((_, Decided::Draw)))));
    }

    #[test]
    fn ties_take_tiebreak_pairs_then_a_seeded_draw() {
        // Every pair level (each engine wins as South): 2 regular pairs, 3 tiebreak pairs, draw.
        let south_wins = |_: &GameSpec| Outcome::Win(Side::South);
        let mut b = Bracket::new(rules(2, 2, 3));
        let games = play(&mut b, south_wins);
        assert_eq!(games.len(), 2 * (2 + 3));
        let e = &b.rounds()[0][0];
        assert_eq!((e.pairs_played, e.tiebreak_played), (5, 3));
        assert_eq!(e.half_points, [10, 10]);
        let (w, how) = e.winner.unwrap();
        assert_eq!(how, Decided::Draw);
        // The same seed draws the same winner; over seeds, both engines win some draws.
        let winners: Vec<usize> = (0..32)
            .map(|seed| {
                let mut b = Bracket::new(Rules {
                    seed,
                    ..rules(2, 2, 3)
                });
                play(&mut b, south_wins);
                b.champion().unwrap()
            })
            .collect();
        assert_eq!(winners[7], w);
        assert!(winners.contains(&0) && winners.contains(&1), "{winners:?}");
        // A tiebreak pair that breaks the tie ends the encounter there.
        let mut b = Bracket::new(rules(2, 1, 3));
        let games = play(&mut b, |g| {
            if g.index < 2 {
                Outcome::Draw
            } else {
                Outcome::Win(if g.south == 1 {
                    Side::South
                } else {
                    Side::North
                })
            }
        });
        assert_eq!(games.len(), 4);
        assert_eq!(b.rounds()[0][0].winner, Some((1, Decided::Tiebreak)));
        assert_eq!(b.rounds()[0][0].half_points, [2, 6]);
    }

    #[test]
    fn replay_rebuilds_the_bracket_and_refuses_what_does_not_fit() {
        let result = |g: &GameSpec| {
            if (g.index / 2).is_multiple_of(3) {
                Outcome::Draw
            } else {
                seeds_win(g)
            }
        };
        let mut full = Bracket::new(rules(5, 2, 2));
        let games = play(&mut full, result);
        let recorded = |upto: usize| {
            games[..upto]
                .iter()
                .map(|g| (g.index, g.south, g.north, result(g)))
        };
        let again = Bracket::replay(rules(5, 2, 2), recorded(games.len())).unwrap();
        assert_eq!(again.rounds(), full.rounds());
        assert_eq!(again.text(), full.text());
        assert_eq!(again.to_json(), full.to_json());
        // Replaying part of the games, then playing on, ends in the same bracket.
        for cut in 0..games.len() {
            let mut part = Bracket::replay(rules(5, 2, 2), recorded(cut)).unwrap();
            let rest = play(&mut part, result);
            assert_eq!(
                rest.first().map(|g| g.index),
                games.get(cut).map(|g| g.index)
            );
            assert_eq!(part.rounds(), full.rounds(), "cut at {cut}");
        }
        // A game beyond an incomplete wave, or with other engines, is refused.
        let g = games[2];
        let err = Bracket::replay(
            rules(5, 2, 2),
            [(g.index + 4, g.south, g.north, Outcome::Draw)],
        )
        .unwrap_err();
        assert!(
            err.contains("game 7 does not fit") && err.contains("game 1 before"),
            "{err}"
        );
        let err = Bracket::replay(rules(5, 2, 2), [(0, 1, 2, Outcome::Draw)]).unwrap_err();
        assert!(err.contains("game 1: played by e1 and e2"), "{err}");
    }

    #[test]
    fn the_bracket_text_and_json_name_every_encounter() {
        let mut b = Bracket::new(rules(3, 1, 0));
        play(&mut b, seeds_win);
        let text = b.text();
        assert!(text.contains("Semi-finals\n  e0"), "{text}");
        assert!(text.contains("e0 goes on (bye)"), "{text}");
        assert!(text.contains("e1 wins"), "{text}");
        assert!(text.ends_with("Winner: e0\n"), "{text}");
        let json = b.to_json();
        assert_eq!(json["winner"], "e0");
        assert_eq!(json["rounds"][0][0]["engines"][1], serde_json::Value::Null);
        assert_eq!(json["rounds"][0][0]["decided"], "bye");
        assert_eq!(json["rounds"][1][0]["points"][0], 2.0);
        assert_eq!(points(5), "2.5");
    }
}
