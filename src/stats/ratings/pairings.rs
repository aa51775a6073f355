//! The games a fit reads ([`Pairings`]: counts per ordered pair of players, memory that grows
//! with the pairings, never with the games) and the virtual draws of the prior.

use std::collections::{HashMap, HashSet};

use crate::games::{Outcome, Side};
use crate::stats::elo::count_sum;

/// The games a fit reads, aggregated as they arrive: the players, numbered in order of first
/// appearance, and for each ordered pair (South, North) that met its wins, draws and losses.
/// Memory grows with the players and the pairings, never with the games, so a file of any
/// number of games streams through ([`Pairings::add`] per game, then [`fit_pairings`]).
#[derive(Clone, Debug, Default)]
pub struct Pairings {
    pub(super) names: Vec<String>,
    index: HashMap<String, usize>,
    /// `(south, north, [South wins, draws, North wins])`, in order of first meeting.
    pub(super) counts: Vec<(usize, usize, [u64; 3])>,
    slot: HashMap<(usize, usize), usize>,
    /// Games of a player against itself: they say nothing about ratings and are left out.
    pub self_games: u64,
}

impl Pairings {
    /// No games yet.
    pub fn new() -> Pairings {
        Pairings::default()
    }

    pub(super) fn player(&mut self, name: &str) -> usize {
        if let Some(&i) = self.index.get(name) {
            return i;
        }
        self.names.push(name.to_string());
        self.index.insert(name.to_string(), self.names.len() - 1);
        self.names.len() - 1
    }

    /// Counts one game of `south` against `north`.
    pub fn add(&mut self, south: &str, north: &str, outcome: Outcome) {
        let mut results = [0; 3];
        results[match outcome {
            Outcome::Win(Side::South) => 0,
            Outcome::Draw => 1,
            Outcome::Win(Side::North) => 2,
        }] = 1;
        self.add_counts(south, north, results);
    }

    /// Counts the games of `south` against `north` at once: `[South wins, draws, North wins]`
    /// (a run's counts per ordered pairing, `stats::Tally`).
    pub fn add_counts(&mut self, south: &str, north: &str, results: [u64; 3]) {
        if south == north {
            self.self_games = self.self_games.saturating_add(count_sum(&results));
            return;
        }
        let key = (self.player(south), self.player(north));
        let k = *self.slot.entry(key).or_insert_with(|| {
            self.counts.push((key.0, key.1, [0; 3]));
            self.counts.len() - 1
        });
        for (count, add) in self.counts[k].2.iter_mut().zip(results) {
            *count = count.saturating_add(add);
        }
    }

    /// Numbers `name` now if it is new (the fit lists players in the order they are numbered).
    pub fn add_player(&mut self, name: &str) {
        self.player(name);
    }

    /// Games counted (a player against itself not included).
    pub fn games(&self) -> u64 {
        self.counts
            .iter()
            .fold(0u64, |t, (_, _, c)| t.saturating_add(count_sum(c)))
    }

    /// Players seen so far.
    pub fn players(&self) -> usize {
        self.names.len()
    }

    /// Ordered pairs (South, North) that met.
    pub fn pairings(&self) -> usize {
        self.counts.len()
    }

    /// The groups of players that met, directly or through others (each a list of player
    /// numbers, in order of first appearance; groups in the order of their first player).
    pub(super) fn groups(&self) -> Vec<Vec<usize>> {
        let n = self.names.len();
        let mut parent: Vec<usize> = (0..n).collect();
        fn root(parent: &mut [usize], mut x: usize) -> usize {
            while parent[x] != x {
                parent[x] = parent[parent[x]];
                x = parent[x];
            }
            x
        }
        for &(i, j, _) in &self.counts {
            let (a, b) = (root(&mut parent, i), root(&mut parent, j));
            parent[a.max(b)] = a.min(b);
        }
        let mut group_of: HashMap<usize, usize> = HashMap::new();
        let mut groups: Vec<Vec<usize>> = Vec::new();
        for i in 0..n {
            let r = root(&mut parent, i);
            let g = *group_of.entry(r).or_insert_with(|| {
                groups.push(Vec::new());
                groups.len() - 1
            });
            groups[g].push(i);
        }
        groups
    }

    /// The players of the largest group that met (the first of equal ones) and their games
    /// only, with how many groups were left out: the way to rate a field whose players did not
    /// all meet.
    pub fn largest_group(&self) -> (Pairings, usize) {
        let groups = self.groups();
        let Some(largest) = groups
            .iter()
            .max_by(|a, b| a.len().cmp(&b.len()).then(std::cmp::Ordering::Greater))
        else {
            return (self.clone(), 0);
        };
        let mut keep = vec![false; self.names.len()];
        largest.iter().for_each(|&i| keep[i] = true);
        let mut out = Pairings {
            self_games: self.self_games,
            ..Pairings::default()
        };
        for &(i, j, c) in &self.counts {
            if keep[i] {
                let key = (out.player(&self.names[i]), out.player(&self.names[j]));
                out.slot.insert(key, out.counts.len());
                out.counts.push((key.0, key.1, c));
            }
        }
        (out, groups.len() - 1)
    }
}

/// Game counts of South `i` against North `j`, real games plus virtual prior draws.
#[derive(Clone, Copy, Default)]
pub(super) struct Cell {
    pub(super) south: usize,
    pub(super) north: usize,
    pub(super) wins: f64,
    pub(super) draws: f64,
    pub(super) losses: f64,
}

/// Unordered key of a pair of players.
pub(super) fn pair_key(i: usize, j: usize) -> (usize, usize) {
    (i.min(j), i.max(j))
}

/// BayesElo's prior (`CCondensedResults::AddPrior`): each player gives `prior / 2` virtual draws,
/// spread over its opponents in proportion to the games it played against each and split evenly
/// between the two colours. A player also takes part in the virtual draws its opponents give, so
/// in a balanced pool each player has `prior` virtual draws in all (2 by default): in a round
/// robin half its own, half from its opponents; in a two-player match one per colour.
pub(super) fn add_prior(cells: &mut [Cell], n: usize, prior: f64) {
    if prior <= 0.0 {
        return;
    }
    // Real games of each player, and of each pair of players (both colours).
    let mut games = vec![0.0; n];
    let mut between: HashMap<(usize, usize), f64> = HashMap::new();
    for c in cells.iter() {
        let g = c.wins + c.draws + c.losses;
        games[c.south] += g;
        games[c.north] += g;
        *between.entry(pair_key(c.south, c.north)).or_insert(0.0) += g;
    }
    // Each cell (one colour of one pair) gets a quarter of the prior of each of its two players,
    // weighted by the share of that player's games the pair's games are.
    for c in cells.iter_mut() {
        let g = between[&pair_key(c.south, c.north)];
        c.draws += prior / 4.0 * g * (1.0 / games[c.south] + 1.0 / games[c.north]);
    }
}

/// Adds the empty colour of every pair that met with one colour only, so the prior reaches both.
pub(super) fn both_colours(cells: &mut Vec<Cell>) {
    let present: HashSet<(usize, usize)> = cells.iter().map(|c| (c.south, c.north)).collect();
    let missing: Vec<(usize, usize)> = cells
        .iter()
        .map(|c| (c.north, c.south))
        .filter(|key| !present.contains(key))
        .collect();
    for (south, north) in missing {
        cells.push(Cell {
            south,
            north,
            ..Cell::default()
        });
    }
}
