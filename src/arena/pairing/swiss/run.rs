//! `--tournament swiss`: a run's rounds paired by the Dutch system, each round once the one
//! before has ended ([`SwissRun`], the arena's [`Pairing`]).
//!
//! - **Field**: the engines ranked at the start by rating where given (higher first), the
//!   others after them in command-line order; that order is the pairing numbers.
//! - **A round**: one game a pairing (as FIDE Swiss) or a game pair with colours swapped on the
//!   same opening (`games_per_round` 2), the pair scored as one match result (more points wins,
//!   level is a draw) with the first game's colour the round's colour. White is South, the side
//!   that moves first.
//! - **The bye**: an odd field's pairing-allocated bye scores `bye_points` (tenths; a win's
//!   points by the handbook's default).
//! - **Forfeits**: a game recorded unplayed (an engine never ready for it) is FIDE's forfeit:
//!   the winner scores a win, nobody when both were out; the round is not played (no colour,
//!   no encounter: the two may meet again). An encounter of two games is a forfeit only when
//!   neither was played.
//! - **Numbering**: games are numbered densely round after round (a round's games in board
//!   order, a pair's two games together), so game N is the same game at any concurrency; the
//!   pairings depend only on the results, and `--resume` replays them identically.
//! - **No valid pairing**: when the rules cannot pair a round (small fields over many rounds),
//!   the run ends there with its standings; [`SwissRun::stopped`] says why.

use serde_json::json;

use super::standings::{self, TieBreak};
use super::{pair_round, trf, Colour, Player, Points, Round, RoundPairing, Score, Tournament};
use crate::arena::pairing::{GameSet, GameSpec, Pairing, Recorded, Step};
use crate::games::{Outcome, Side};

/// What fixes a Swiss run.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Rules {
    /// Engine names in command-line order.
    pub names: Vec<String>,
    /// Engine ratings where given (command-line order).
    pub ratings: Vec<Option<u32>>,
    /// `--rounds`: rounds the Swiss has.
    pub rounds: u32,
    /// 1: one game a pairing; 2: a game pair, colours swapped.
    pub games_per_round: u32,
    /// The pairing-allocated bye's points, in tenths (10: a win's).
    pub bye_points: u32,
    /// `--tiebreaks`: the order ties in points are broken by.
    pub tiebreaks: Vec<TieBreak>,
}

impl Rules {
    /// Engine indices in pairing-number order.
    fn order(&self) -> Vec<usize> {
        let mut order: Vec<usize> = (0..self.names.len()).collect();
        order.sort_by_key(|&e| std::cmp::Reverse(self.ratings.get(e).copied().flatten()));
        order
    }

    /// The most games: every round with every engine paired.
    pub fn max_games(&self) -> u64 {
        u64::from(self.rounds) * (self.names.len() / 2) as u64 * u64::from(self.games_per_round)
    }
}

/// The round being played.
#[derive(Clone, Debug)]
struct Current {
    round: u32,
    /// Its first game's number.
    start: u64,
    pairing: RoundPairing,
    handed: Vec<bool>,
    /// Each game's result and whether it was unplayed (a forfeit).
    results: Vec<Option<(Outcome, bool)>>,
}

/// A Swiss run: the tournament so far and the round being played.
#[derive(Clone, Debug)]
pub struct SwissRun {
    rules: Rules,
    /// Players in pairing-number order; `engine[p]` is player p's engine.
    tournament: Tournament,
    engine: Vec<usize>,
    current: Option<Current>,
    /// Why the run ended before its last round.
    stopped: Option<String>,
    /// Games numbered so far (the rounds done).
    next_start: u64,
}

impl SwissRun {
    /// The run before any game: round 1 paired.
    pub fn new(rules: Rules) -> SwissRun {
        let engine = rules.order();
        let tournament = Tournament {
            players: engine
                .iter()
                .map(|&e| Player {
                    name: rules.names[e].clone(),
                    rating: rules.ratings.get(e).copied().flatten().unwrap_or(0),
                    rounds: Vec::new(),
                })
                .collect(),
            total_rounds: rules.rounds,
            points: Points {
                pairing_bye: rules.bye_points,
                ..Points::default()
            },
            initial_colour: Colour::White,
            forbidden: Vec::new(),
        };
        let mut run = SwissRun {
            rules,
            tournament,
            engine,
            current: None,
            stopped: None,
            next_start: 0,
        };
        run.start_round(0);
        run
    }

    /// What fixes the run (the records header holds it; a resumption checks it).
    pub fn rules(&self) -> &Rules {
        &self.rules
    }

    /// The tournament so far (players in pairing-number order).
    pub fn tournament(&self) -> &Tournament {
        &self.tournament
    }

    /// Why the run ended before its last round (no valid pairing), if it did.
    pub fn stopped(&self) -> Option<&str> {
        self.stopped.as_deref()
    }

    /// The tournament as a TRF (written after every round).
    pub fn trf_text(&self, event: &str) -> String {
        trf::write(&self.tournament, event)
    }

    fn start_round(&mut self, round: u32) {
        if round >= self.rules.rounds || self.engine.len() < 2 {
            self.current = None;
            return;
        }
        match pair_round(&self.tournament) {
            Ok(pairing) => {
                let games = pairing.pairs.len() * self.rules.games_per_round as usize;
                self.current = Some(Current {
                    round,
                    start: self.next_start,
                    pairing,
                    handed: vec![false; games],
                    results: vec![None; games],
                });
            }
            Err(e) => {
                self.stopped = Some(format!("round {}: {e}; the run ends here", round + 1));
                self.current = None;
            }
        }
    }

    /// Game `k` of the current round.
    fn spec(&self, c: &Current, k: usize) -> GameSpec {
        let per = self.rules.games_per_round as usize;
        let (white, black) = c.pairing.pairs[k / per];
        let (south, north) = if k.is_multiple_of(per) {
            (white, black)
        } else {
            (black, white)
        };
        let index = c.start + k as u64;
        GameSpec {
            index,
            pair: index / 2,
            round: c.round,
            encounter: Some((k / per) as u32),
            south: self.engine[south],
            north: self.engine[north],
        }
    }

    fn record_game(&mut self, g: &Recorded) -> Result<(), String> {
        let Some(c) = &self.current else {
            return Err(format!(
                "game {}: the Swiss run has no round to play",
                g.index + 1
            ));
        };
        let k = g
            .index
            .checked_sub(c.start)
            .filter(|&k| k < c.results.len() as u64)
            .ok_or_else(|| {
                format!(
                    "game {}: not a game of round {} (games {}..={})",
                    g.index + 1,
                    c.round + 1,
                    c.start + 1,
                    c.start + c.results.len() as u64
                )
            })? as usize;
        let spec = self.spec(c, k);
        if (spec.south, spec.north, spec.round, spec.encounter)
            != (g.south, g.north, g.round, g.encounter)
        {
            return Err(format!(
                "game {}: played by {} and {} (round {}), but the Swiss pairing has {} and {} \
                 there (round {}, board {})",
                g.index + 1,
                self.rules.names[g.south],
                self.rules.names[g.north],
                g.round + 1,
                self.rules.names[spec.south],
                self.rules.names[spec.north],
                spec.round + 1,
                k / self.rules.games_per_round as usize + 1
            ));
        }
        let c = self.current.as_mut().expect("checked");
        if c.results[k].is_none() {
            c.results[k] = Some((g.result, g.unplayed));
            c.handed[k] = true;
            if c.results.iter().all(Option::is_some) {
                self.end_round();
            }
        }
        Ok(())
    }

    /// Scores the finished round into the tournament and pairs the next.
    fn end_round(&mut self) {
        let Some(c) = self.current.take() else { return };
        let per = self.rules.games_per_round as usize;
        for (board, &(white, black)) in c.pairing.pairs.iter().enumerate() {
            // White's and Black's half-points over the board's games (White is South in the
            // first); the encounter is played if any of its games was.
            let mut half = [0; 2];
            let mut played = false;
            for k in 0..per {
                let white_side = if k == 0 { Side::South } else { Side::North };
                let (outcome, unplayed) =
                    c.results[board * per + k].unwrap_or((Outcome::Draw, false));
                played |= !unplayed;
                match outcome {
                    Outcome::Win(side) if side == white_side => half[0] += 2,
                    Outcome::Win(_) => half[1] += 2,
                    // An unplayed game without a winner: both engines were out.
                    Outcome::Draw if unplayed => {}
                    Outcome::Draw => {
                        half[0] += 1;
                        half[1] += 1;
                    }
                }
            }
            let (white_score, black_score) = match half[0].cmp(&half[1]) {
                std::cmp::Ordering::Greater => (Score::Win, Score::Loss),
                std::cmp::Ordering::Less => (Score::Loss, Score::Win),
                // A forfeit level on points (both out): both lose it, as a double forfeit.
                std::cmp::Ordering::Equal if !played => (Score::Loss, Score::Loss),
                std::cmp::Ordering::Equal => (Score::Draw, Score::Draw),
            };
            // A forfeit keeps the colours paired (the TRF writes them) but is no game played:
            // neither the colour history nor the encounters count it.
            let game = |opponent: usize, colour: Colour, score: Score| Round {
                opponent: Some(opponent),
                colour: Some(colour),
                score,
                played,
                paired: true,
            };
            self.tournament.players[white]
                .rounds
                .push(game(black, Colour::White, white_score));
            self.tournament.players[black]
                .rounds
                .push(game(white, Colour::Black, black_score));
        }
        if let Some(bye) = c.pairing.bye {
            self.tournament.players[bye]
                .rounds
                .push(Round::pairing_bye());
        }
        self.next_start = c.start + c.results.len() as u64;
        self.start_round(c.round + 1);
    }

    /// The standings with the crosstable (engine names).
    pub fn standings_text(&self) -> String {
        let names: Vec<String> = self
            .tournament
            .players
            .iter()
            .map(|p| p.name.clone())
            .collect();
        standings::table(&self.tournament, &self.rules.tiebreaks, &names)
    }

    /// Rounds finished.
    pub fn rounds_done(&self) -> usize {
        self.tournament.rounds_done()
    }

    fn to_json(&self) -> serde_json::Value {
        let t = &self.tournament;
        let rows = standings::standings(t, &self.rules.tiebreaks);
        let standings: Vec<serde_json::Value> = rows
            .iter()
            .map(|row| {
                let mut tiebreaks = serde_json::Map::new();
                for (tb, v) in self.rules.tiebreaks.iter().zip(&row.values) {
                    let value = if *tb == TieBreak::SonnebornBerger {
                        *v as f64 / 100.0
                    } else if matches!(tb, TieBreak::Wins | TieBreak::RoundsWon) {
                        *v as f64
                    } else {
                        *v as f64 / 10.0
                    };
                    tiebreaks.insert(tb.name().to_string(), json!(value));
                }
                let rounds: Vec<serde_json::Value> = t.players[row.player]
                    .rounds
                    .iter()
                    .map(|r| {
                        json!({
                            "opponent": r.opponent.map(|o| self.rules.names[self.engine[o]].clone()),
                            "colour": r.colour.map(|c| if c == Colour::White { "white" } else { "black" }),
                            "result": match r.score { Score::Win => 1.0, Score::Draw => 0.5, Score::Loss => 0.0 },
                            "bye": r.opponent.is_none() && r.paired,
                            "forfeit": r.opponent.is_some() && !r.played,
                            // Over the board (false for a forfeit, the bye, an absence).
                            "played": r.played,
                        })
                    })
                    .collect();
                json!({
                    "engine": self.rules.names[self.engine[row.player]],
                    "pairing_number": row.player + 1,
                    "points": f64::from(row.points) / 10.0,
                    "tiebreaks": tiebreaks,
                    "rounds": rounds,
                })
            })
            .collect();
        json!({
            "system": "FIDE Dutch system, C.04.3 (2025 edition)",
            "rounds": self.rules.rounds,
            "rounds_done": self.rounds_done(),
            "games_per_round": self.rules.games_per_round,
            "bye_points": f64::from(self.rules.bye_points) / 10.0,
            "stopped": self.stopped,
            // The tie-breaks in the order they rank (the rows' `tiebreaks` object has no order).
            "tiebreaks": self.rules.tiebreaks.iter().map(|tb| tb.name()).collect::<Vec<_>>(),
            "standings": standings,
        })
    }
}

impl Pairing for SwissRun {
    fn next(&mut self) -> Step {
        let Some(c) = &self.current else {
            return Step::Done;
        };
        match (0..c.handed.len()).find(|&k| !c.handed[k] && c.results[k].is_none()) {
            Some(k) => {
                let spec = self.spec(c, k);
                self.current.as_mut().expect("a round").handed[k] = true;
                Step::Game(spec)
            }
            None => Step::Wait,
        }
    }

    fn record(&mut self, game: &GameSpec, result: Outcome, unplayed: bool) {
        let recorded = Recorded {
            index: game.index,
            south: game.south,
            north: game.north,
            result,
            unplayed,
            round: game.round,
            encounter: game.encounter,
        };
        // The run handed this very game out: it fits.
        let _ = self.record_game(&recorded);
    }

    fn follows_results(&self) -> bool {
        true
    }

    fn most_at_once(&self) -> Option<u64> {
        Some((self.rules.names.len() / 2) as u64 * u64::from(self.rules.games_per_round))
    }

    fn rounds_done(&self) -> Option<usize> {
        Some(self.tournament.rounds_done())
    }

    fn trf(&self, event: &str) -> Option<String> {
        Some(self.trf_text(event))
    }

    fn replay(
        &mut self,
        _: &GameSet,
        games: &mut dyn Iterator<Item = Recorded>,
    ) -> Result<(), String> {
        for g in games {
            self.record_game(&g)?;
        }
        Ok(())
    }

    fn misplaced(&self, round: u32, encounter: Option<u32>) -> Option<String> {
        let boards = (self.rules.names.len() / 2) as u64;
        match encounter {
            None => Some("names no Swiss board".to_string()),
            Some(_) if round >= self.rules.rounds => Some(format!(
                "names round {}, but this Swiss has {} round(s)",
                u64::from(round) + 1,
                self.rules.rounds
            )),
            Some(e) if u64::from(e) >= boards => Some(format!(
                "names board {} of a Swiss of {} engines ({boards} boards)",
                u64::from(e) + 1,
                self.rules.names.len()
            )),
            Some(_) => None,
        }
    }

    fn len(&self) -> u64 {
        self.rules.max_games()
    }

    fn planned(&self) -> u64 {
        self.rules.max_games()
    }

    fn games_left(&self) -> u64 {
        let Some(c) = &self.current else { return 0 };
        let unfinished = c.results.iter().filter(|r| r.is_none()).count() as u64;
        let per_round = (self.rules.names.len() / 2) as u64 * u64::from(self.rules.games_per_round);
        unfinished + u64::from(self.rules.rounds - c.round - 1) * per_round
    }

    fn size_text(&self) -> String {
        let form = if self.rules.games_per_round == 2 {
            "game pairs"
        } else {
            "single games"
        };
        format!(
            "Swiss (FIDE Dutch), {} rounds of {form}, {} games",
            self.rules.rounds,
            self.rules.max_games()
        )
    }

    fn notes(&self) -> Vec<(String, String)> {
        let mut text = self.standings_text();
        if let Some(why) = &self.stopped {
            text.push_str(&format!("\nStopped: {why}\n"));
        }
        vec![("Swiss standings".to_string(), text)]
    }

    fn summary_json(&self) -> Option<(&'static str, serde_json::Value)> {
        Some(("swiss", self.to_json()))
    }
}

#[cfg(test)]
#[path = "run_tests.rs"]
mod tests;
