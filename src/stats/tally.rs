//! The statistics of a run kept as counts, as fastchess keeps them: memory grows with the
//! engines and their pairings, never with the games.
//!
//! [`Tally`] takes the games one at a time, in any order, each with its place in the order the
//! direct computation ([`super::summarize`] over a list of games) would read it (the game's
//! number for a run), and gives the very same [`Summary`]: every figure of the summary is a sum
//! over games (won, drawn and lost games per ordered pairing, per engine and per ending; the
//! engines' move totals; the pentanomial pairs of each pairing), and the few things that depend
//! on the order (where a name first appears, which pairing met first: the rating fit's input
//! order) are kept as the smallest place seen. A game whose pair partner has not been counted
//! waits in its pairing's tracker (one entry per unfinished pair) until the partner comes.

use std::collections::{BTreeMap, HashMap};

use super::diagnostics::EngineDiagnostics;
use super::elo::Wdl;
use super::game::{GameStats, MoveSummary};
use super::pentanomial::PairTracker;
use super::ratings::Pairings;
use super::summary::{assemble, Summary, SummaryOptions};
use crate::games::{Outcome, Side};

/// Where a game stands in the order of the direct computation: its place, then the side (South
/// is read before North).
type Place = (u64, u8);

/// One engine's totals.
#[derive(Clone, Debug, Default)]
struct EngineCounts {
    wdl: Wdl,
    moves: MoveSummary,
    terminations: BTreeMap<String, Wdl>,
    /// The first place it appears, in any game.
    seen: Option<Place>,
    /// The first place it appears in a game against another engine (the rating fit's order).
    rated: Option<Place>,
}

/// The games of one ordered pairing (South, North).
#[derive(Clone, Copy, Debug)]
struct OrderedCounts {
    /// The first place they met so.
    first: u64,
    /// South wins, draws, North wins.
    results: [u64; 3],
}

/// A run's statistics as counts (see the module's documentation).
#[derive(Clone, Debug, Default)]
pub struct Tally {
    names: Vec<String>,
    index: HashMap<String, usize>,
    engines: Vec<EngineCounts>,
    /// By (South, North), engine numbers.
    ordered: HashMap<(usize, usize), OrderedCounts>,
    /// By (lower, higher) engine number: the head-to-head from the lower's side.
    heads: HashMap<(usize, usize), PairTracker>,
    /// Games of an engine against itself (no head-to-head, no rating).
    self_games: u64,
    terminations: BTreeMap<String, u64>,
    south: Wdl,
    games: u64,
}

impl Tally {
    /// No games yet.
    pub fn new() -> Tally {
        Tally::default()
    }

    fn engine(&mut self, name: &str, place: Place, rated: bool) -> usize {
        let k = match self.index.get(name) {
            Some(&k) => k,
            None => {
                self.names.push(name.to_string());
                self.engines.push(EngineCounts::default());
                self.index.insert(name.to_string(), self.names.len() - 1);
                self.names.len() - 1
            }
        };
        let e = &mut self.engines[k];
        e.seen = Some(e.seen.map_or(place, |p| p.min(place)));
        if rated {
            e.rated = Some(e.rated.map_or(place, |p| p.min(place)));
        }
        k
    }

    /// Counts `game`, whose place in the direct computation's order is `place` (a run: its game
    /// number). Each game is counted once: the caller keeps the set of games counted.
    pub fn add(&mut self, game: &GameStats, place: u64) {
        let rated = game.south != game.north;
        let s = self.engine(&game.south, (place, 0), rated);
        let n = self.engine(&game.north, (place, 1), rated);
        self.games += 1;
        self.south.add_points(game.points(Side::South));
        *self
            .terminations
            .entry(game.termination.clone())
            .or_insert(0) += 1;
        for (k, side) in [(s, Side::South), (n, Side::North)] {
            let e = &mut self.engines[k];
            let points = game.points(side);
            e.wdl.add_points(points);
            e.moves.merge(game.moves(side));
            match e.terminations.get_mut(&game.termination) {
                Some(w) => w.add_points(points),
                None => {
                    let mut w = Wdl::default();
                    w.add_points(points);
                    e.terminations.insert(game.termination.clone(), w);
                }
            }
        }
        if !rated {
            self.self_games += 1;
            return;
        }
        let cell = self.ordered.entry((s, n)).or_insert(OrderedCounts {
            first: place,
            results: [0; 3],
        });
        cell.first = cell.first.min(place);
        let bucket = match game.outcome {
            Outcome::Win(Side::South) => 0,
            Outcome::Draw => 1,
            Outcome::Win(Side::North) => 2,
        };
        cell.results[bucket] += 1;
        let key = (s.min(n), s.max(n));
        let names = &self.names;
        self.heads
            .entry(key)
            .or_insert_with(|| PairTracker::new(&names[key.0], &names[key.1]))
            .add(game);
    }

    /// Games counted.
    pub fn games(&self) -> u64 {
        self.games
    }

    /// Every engine's points and games, in the order they first appeared.
    pub fn points(&self) -> impl Iterator<Item = (&str, Wdl)> + '_ {
        self.names
            .iter()
            .zip(&self.engines)
            .map(|(n, e)| (n.as_str(), e.wdl))
    }

    /// Games of `south` (as South) against `north`, from South's side: wins, draws, losses.
    pub fn ordered(&self, south: &str, north: &str) -> Wdl {
        let (Some(&s), Some(&n)) = (self.index.get(south), self.index.get(north)) else {
            return Wdl::default();
        };
        self.ordered.get(&(s, n)).map_or(Wdl::default(), |c| Wdl {
            wins: c.results[0],
            draws: c.results[1],
            losses: c.results[2],
        })
    }

    /// `given`, then every other engine in the order it first appeared (as
    /// [`super::summary::player_order`] of the games).
    pub fn player_order(&self, given: &[String]) -> Vec<String> {
        let mut others: Vec<(Place, &String)> = self
            .names
            .iter()
            .zip(&self.engines)
            .filter(|(n, _)| !given.contains(n))
            .map(|(n, e)| (e.seen.unwrap_or((u64::MAX, 0)), n))
            .collect();
        others.sort();
        let mut players = given.to_vec();
        players.extend(others.into_iter().map(|(_, n)| n.clone()));
        players
    }

    /// The head-to-head of every pairing that played among `players` (every engine counted must
    /// be among them), in `players` order, each from the side of the engine listed first.
    pub fn pair_trackers(&self, players: &[String]) -> Vec<PairTracker> {
        let position = |k: usize| players.iter().position(|p| *p == self.names[k]);
        let mut out: Vec<((usize, usize), PairTracker)> = self
            .heads
            .iter()
            .filter_map(|(&(a, b), t)| {
                let (pa, pb) = (position(a)?, position(b)?);
                Some(if pa < pb {
                    ((pa, pb), t.clone())
                } else {
                    ((pb, pa), t.reversed())
                })
            })
            .collect();
        out.sort_by_key(|(k, _)| *k);
        out.into_iter().map(|(_, t)| t).collect()
    }

    /// The rating fit's input, as [`super::fit_ratings`] builds it from the games: the engines
    /// of `players` that met another one, in that order, and the ordered pairings in the order
    /// they first met.
    pub fn pairings(&self, players: &[String]) -> Pairings {
        let mut pairings = Pairings::new();
        for p in players {
            if let Some(&k) = self.index.get(p) {
                if self.engines[k].rated.is_some() {
                    pairings.add_player(p);
                }
            }
        }
        self.add_to(&mut pairings);
        pairings
    }

    /// Adds the games counted to `pairings` as [`Pairings::add`] of each game in order would:
    /// the engines in the order they first met another one, then the ordered pairings in the
    /// order they first met (a file's games after those of the files before it).
    pub fn add_to(&self, pairings: &mut Pairings) {
        let mut rated: Vec<(Place, &String)> = self
            .names
            .iter()
            .zip(&self.engines)
            .filter_map(|(n, e)| Some((e.rated?, n)))
            .collect();
        rated.sort();
        for (_, name) in rated {
            pairings.add_player(name);
        }
        let mut cells: Vec<(&(usize, usize), &OrderedCounts)> = self.ordered.iter().collect();
        cells.sort_by_key(|(_, c)| c.first);
        for (&(s, n), c) in cells {
            pairings.add_counts(&self.names[s], &self.names[n], c.results);
        }
        pairings.self_games = pairings.self_games.saturating_add(self.self_games);
    }

    /// The engines' figures in `players` order (engines with no game included).
    pub fn engine_diagnostics(&self, players: &[String]) -> Vec<EngineDiagnostics> {
        players
            .iter()
            .map(|p| {
                let mut d = EngineDiagnostics::new(p);
                if let Some(&k) = self.index.get(p) {
                    let e = &self.engines[k];
                    d.wdl = e.wdl;
                    d.moves = e.moves;
                    d.terminations = e.terminations.clone();
                }
                d.average_depth = d.moves.average_depth();
                d.nodes_per_second = d.moves.nodes_per_second();
                d.average_time_ms = d.moves.average_time_ms();
                d
            })
            .collect()
    }

    /// The summary of every game counted: equal to [`super::summarize`] of the same games.
    pub fn summary(&self, options: &SummaryOptions) -> Summary {
        let players = self.player_order(&options.players);
        let trackers = self.pair_trackers(&players);
        let pairings = self.pairings(&players);
        assemble(
            &players,
            &trackers,
            self.south,
            &pairings,
            self.engine_diagnostics(&players),
            self.terminations.clone(),
            self.games,
            options,
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::{summarize, SprtConfig, SprtModel};
    use rand::seq::SliceRandom;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    /// Games of pairs `2k, 2k+1` among `players` (the pair's two games the same engines with
    /// colours swapped), some left without their partner, with search figures and endings.
    fn games(players: &[&str], n: u64, seed: u64) -> Vec<GameStats> {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut out = Vec::new();
        for pair in 0..n / 2 {
            let a = players[rng.gen_range(0..players.len())];
            let b = players[rng.gen_range(0..players.len())];
            for (i, (south, north)) in [(a, b), (b, a)].into_iter().enumerate() {
                if i == 1 && rng.gen_bool(0.1) {
                    continue; // its partner never finished
                }
                let outcome = match rng.gen_range(0..3) {
                    0 => Outcome::Win(Side::South),
                    1 => Outcome::Draw,
                    _ => Outcome::Win(Side::North),
                };
                let mut moves = MoveSummary::default();
                for _ in 0..rng.gen_range(0..5) {
                    moves.record(rng.gen_range(0..5000), Some(rng.gen_range(1..9)), None);
                }
                out.push(GameStats {
                    pair,
                    game: 2 * pair + i as u64 + 1,
                    south: south.into(),
                    north: north.into(),
                    outcome,
                    termination: ["rules", "time-loss", "max-plies"][rng.gen_range(0..3)].into(),
                    plies: rng.gen_range(1..200),
                    south_total: rng.gen_range(0..162),
                    north_total: rng.gen_range(0..162),
                    south_moves: moves,
                    north_moves: MoveSummary::default(),
                });
            }
        }
        out
    }

    fn json(s: &Summary) -> String {
        serde_json::to_string(s).unwrap()
    }

    /// The counts give the summary of the games themselves, whatever order they are counted in,
    /// with names beyond the given ones, games of an engine against itself, pending games.
    #[test]
    fn counts_give_the_summary_of_the_games() {
        for (players, given) in [
            (vec!["a", "b"], vec!["a", "b"]),
            (vec!["a", "b", "c", "d"], vec!["c", "a"]),
            (vec!["x", "y", "z"], vec![]),
        ] {
            let all = games(&players, 301, players.len() as u64);
            let options = SummaryOptions {
                players: given.iter().map(|s| s.to_string()).collect(),
                sprt: Some(SprtConfig::new(0.0, 10.0, 0.05, 0.05, SprtModel::Logistic).unwrap()),
                ..Default::default()
            };
            let direct = summarize(&all, &options);
            let mut shuffled: Vec<(u64, &GameStats)> =
                all.iter().enumerate().map(|(i, g)| (i as u64, g)).collect();
            shuffled.shuffle(&mut ChaCha8Rng::seed_from_u64(7));
            let mut tally = Tally::new();
            for (place, g) in shuffled {
                tally.add(g, place);
            }
            assert_eq!(json(&tally.summary(&options)), json(&direct), "{players:?}");
            assert!(direct.matches.iter().any(|m| m.unpaired_games > 0));
        }
    }

    #[test]
    fn a_reversed_tracker_is_the_tracker_of_the_other_side() {
        let all = games(&["a", "b"], 60, 3);
        let (mut ab, mut ba) = (PairTracker::new("a", "b"), PairTracker::new("b", "a"));
        for g in &all {
            ab.add(g);
            ba.add(g);
        }
        let m = |t: &PairTracker| serde_json::to_string(&super::super::MatchStats::from_tracker(t));
        assert_eq!(m(&ab.reversed()).unwrap(), m(&ba).unwrap());
    }
}
