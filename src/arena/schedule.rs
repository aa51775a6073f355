//! Who plays whom, with which opening, in which order; and deterministic shards of that order.
//!
//! The schedule is a pure function of the run's configuration, so a resumed run, every shard and
//! a single run all agree on what game number N is. Games come in pairs: pair P plays opening P
//! twice, colours swapped (games 2P and 2P+1), which is what pentanomial statistics need.

use serde::{Deserialize, Serialize};

/// How engines are paired.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize, clap::ValueEnum)]
#[serde(rename_all = "lowercase")]
pub enum TournamentKind {
    /// Every engine against every other.
    #[default]
    Roundrobin,
    /// The first engine against each of the others.
    Gauntlet,
}

/// One scheduled game.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct GameSpec {
    /// 0-based game number in the whole run.
    pub index: u64,
    /// Pair number: the opening index; games 2P and 2P+1.
    pub pair: u64,
    /// 0-based round.
    pub round: u32,
    /// Engine indices.
    pub south: usize,
    pub north: usize,
}

/// The engine pairings of one round, in order.
pub fn pairings(kind: TournamentKind, engines: usize) -> Vec<(usize, usize)> {
    match kind {
        TournamentKind::Roundrobin => (0..engines)
            .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
            .collect(),
        TournamentKind::Gauntlet => (1..engines).map(|b| (0, b)).collect(),
    }
}

/// The whole schedule: `rounds` rounds of every pairing (each one pair of games), cut to
/// `games` (rounded up to a whole pair) when given.
pub fn schedule(
    kind: TournamentKind,
    engines: usize,
    rounds: u32,
    games: Option<u64>,
) -> Vec<GameSpec> {
    let pairs = pairings(kind, engines);
    let mut out = Vec::new();
    let mut pair = 0u64;
    'rounds: for round in 0..rounds {
        for &(a, b) in &pairs {
            if games.is_some_and(|g| 2 * pair >= g) {
                break 'rounds;
            }
            for (south, north) in [(a, b), (b, a)] {
                out.push(GameSpec {
                    index: out.len() as u64,
                    pair,
                    round,
                    south,
                    north,
                });
            }
            pair += 1;
        }
    }
    out
}

/// Rounds needed so the schedule holds at least `games` games.
pub fn rounds_for_games(kind: TournamentKind, engines: usize, games: u64) -> u32 {
    let per_round = 2 * pairings(kind, engines).len() as u64;
    games.div_ceil(per_round.max(1)).min(u32::MAX as u64) as u32
}

/// `--shard k/n`: pairs P with P mod n == k-1 (whole pairs, so each shard's pentanomial counts
/// are complete and merging shards gives the single run's statistics).
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize, Deserialize)]
pub struct Shard {
    pub k: u32,
    pub n: u32,
}

impl Shard {
    pub fn contains(&self, pair: u64) -> bool {
        pair % self.n as u64 == (self.k - 1) as u64
    }
}

impl std::str::FromStr for Shard {
    type Err = String;
    fn from_str(s: &str) -> Result<Shard, String> {
        let bad = || format!("bad shard '{s}': expected k/n with 1 <= k <= n, e.g. 2/8");
        let (k, n) = s.split_once('/').ok_or_else(bad)?;
        let (k, n): (u32, u32) = (k.parse().map_err(|_| bad())?, n.parse().map_err(|_| bad())?);
        if k == 0 || n == 0 || k > n {
            return Err(bad());
        }
        Ok(Shard { k, n })
    }
}

impl std::fmt::Display for Shard {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{}/{}", self.k, self.n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_robin_pairs_swap_colours() {
        let s = schedule(TournamentKind::Roundrobin, 3, 2, None);
        assert_eq!(s.len(), 2 * 3 * 2);
        assert_eq!((s[0].south, s[0].north, s[0].pair), (0, 1, 0));
        assert_eq!((s[1].south, s[1].north, s[1].pair), (1, 0, 0));
        assert_eq!((s[2].south, s[2].north), (0, 2));
        assert_eq!((s[6].round, s[6].pair), (1, 3));
        assert!(s
            .iter()
            .enumerate()
            .all(|(i, g)| g.index == i as u64 && g.pair == i as u64 / 2));
    }

    #[test]
    fn gauntlet_and_game_cut() {
        let s = schedule(TournamentKind::Gauntlet, 4, 10, Some(7));
        assert_eq!(s.len(), 8, "rounded up to whole pairs");
        assert!(s.iter().all(|g| g.south == 0 || g.north == 0));
        assert_eq!(rounds_for_games(TournamentKind::Gauntlet, 4, 7), 2);
    }

    #[test]
    fn shards_partition_the_pairs() {
        let shards: Vec<Shard> = (1..=3).map(|k| format!("{k}/3").parse().unwrap()).collect();
        for pair in 0..30 {
            assert_eq!(shards.iter().filter(|s| s.contains(pair)).count(), 1);
        }
        for bad in ["0/3", "4/3", "1", "a/b", "1/0"] {
            assert!(bad.parse::<Shard>().is_err(), "{bad}");
        }
    }
}
