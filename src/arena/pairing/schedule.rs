//! Who plays whom, with which opening, in which order; and deterministic shards of that order.
//!
//! The schedule is a pure function of the run's configuration, so a resumed run, every shard and
//! a single run all agree on what game number N is. Games come in pairs: pair P plays opening P
//! twice, colours swapped (games 2P and 2P+1), which is what pentanomial statistics need.
//!
//! It is never built as a list: [`Schedule`] computes game N from N (its round, pairing and
//! colours), so a run of 10^8 games holds no more of its schedule than a run of ten.

use serde::{Deserialize, Serialize};

use crate::arena::config::RunConfig;
use crate::arena::pairing::GameSet;
use crate::arena::pairing::TournamentKind;
use crate::arena::pairing::{GameSpec, Pairing, Recorded, Step};
use crate::games::Outcome;

/// The most games a schedule may hold, `--games` or rounds times pairings: 2^53, so that every
/// game number in the records is exact in any JSON reader (many read numbers as doubles).
pub const MAX_GAMES: u64 = 1 << 53;

/// The engine pairings of one round, in order.
pub fn pairings(kind: TournamentKind, engines: usize) -> Vec<(usize, usize)> {
    match kind {
        TournamentKind::Roundrobin => (0..engines)
            .flat_map(|a| (a + 1..engines).map(move |b| (a, b)))
            .collect(),
        TournamentKind::Gauntlet => (1..engines).map(|b| (0, b)).collect(),
        // A knockout's pairings depend on its results: they come from its bracket.
        _ => Vec::new(),
    }
}

/// The whole schedule: `rounds` rounds of every pairing (each one pair of games), cut to
/// `games` (rounded up to a whole pair) when given. Round r plays the pairings in order, each as
/// one pair: game 2P with the lower-numbered engine as South, game 2P+1 with colours swapped.
///
/// Holds only the round's pairings (engines² at most), never the games.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Schedule {
    pairings: Vec<(usize, usize)>,
    /// Pairs in the whole schedule.
    pairs: u64,
}

impl Schedule {
    /// The schedule of `kind` for `engines` engines: `rounds` rounds of every pairing, cut to
    /// `games` (whole pairs) when given.
    pub fn new(kind: TournamentKind, engines: usize, rounds: u32, games: Option<u64>) -> Schedule {
        let pairings = pairings(kind, engines);
        let mut pairs = u64::from(rounds).saturating_mul(pairings.len() as u64);
        if let Some(g) = games {
            pairs = pairs.min(g.div_ceil(2));
        }
        Schedule { pairings, pairs }
    }

    /// Games in the whole schedule (all shards).
    pub fn len(&self) -> u64 {
        self.pairs.saturating_mul(2)
    }

    /// True when the schedule has no game (fewer than two engines).
    pub fn is_empty(&self) -> bool {
        self.pairs == 0
    }

    /// Pairs of games in the whole schedule.
    pub fn pairs(&self) -> u64 {
        self.pairs
    }

    /// Game number `index`, if the schedule has it.
    pub fn game(&self, index: u64) -> Option<GameSpec> {
        let pair = index / 2;
        if pair >= self.pairs || self.pairings.is_empty() {
            return None;
        }
        let per_round = self.pairings.len() as u64;
        let (a, b) = self.pairings[(pair % per_round) as usize];
        let (south, north) = if index.is_multiple_of(2) {
            (a, b)
        } else {
            (b, a)
        };
        Some(GameSpec {
            index,
            pair,
            round: (pair / per_round) as u32,
            encounter: None,
            south,
            north,
        })
    }

    /// The games of `shard`'s slice (every game without one), in game order.
    pub fn games(self, shard: Option<Shard>) -> impl Iterator<Item = GameSpec> + Send {
        let shard = shard.unwrap_or(Shard { k: 1, n: 1 });
        (u64::from(shard.k - 1)..self.pairs)
            .step_by(shard.n as usize)
            .flat_map(|p| [2 * p, 2 * p + 1])
            .filter_map(move |index| self.game(index))
    }

    /// Games in `shard`'s slice (the whole schedule without one).
    pub(crate) fn slice_len(&self, shard: Option<Shard>) -> u64 {
        let Some(s) = shard else { return self.len() };
        let (n, k) = (u64::from(s.n), u64::from(s.k - 1));
        let pairs = if self.pairs > k {
            (self.pairs - k).div_ceil(n)
        } else {
            0
        };
        2 * pairs
    }
}

/// `--rounds` and `--games` within what a schedule can number: at least one game, at most
/// [`MAX_GAMES`], and `--games` no more than 2^32-1 rounds hold (rounds are 32-bit numbers in the
/// records). Refused with the range instead of cut short.
pub(crate) fn check_size(
    kind: TournamentKind,
    engines: usize,
    rounds: u32,
    games: Option<u64>,
) -> Result<(), String> {
    let n = engines as u64;
    let per_round = match kind {
        TournamentKind::Roundrobin => n * n.saturating_sub(1) / 2,
        TournamentKind::Gauntlet => n.saturating_sub(1),
        // Not a fixed schedule: checked by its own kind.
        _ => return Ok(()),
    };
    if per_round == 0 {
        // Fewer than two engines: refused as such where the engines are checked.
        return Ok(());
    }
    match games {
        Some(g) => {
            let max = MAX_GAMES.min((2 * per_round).saturating_mul(u32::MAX.into()));
            if !(1..=max).contains(&g) {
                return Err(format!(
                    "--games {g}: 1..={max} with {engines} engines ({per_round} pairing(s) a \
                     round, at most {} rounds, at most 2^53 games)",
                    u32::MAX
                ));
            }
        }
        None => {
            let total = u64::from(rounds).saturating_mul(2 * per_round);
            if rounds == 0 || total > MAX_GAMES {
                return Err(format!(
                    "--rounds {rounds}: 1..={} with {engines} engines ({per_round} pairing(s) a \
                     round, at most 2^53 games)",
                    (MAX_GAMES / (2 * per_round).max(1)).min(u32::MAX.into())
                ));
            }
        }
    }
    Ok(())
}

/// A round robin's or gauntlet's values: [`check_size`], and no option of another kind.
pub fn check_values(config: &RunConfig) -> Result<(), String> {
    check_size(
        config.tournament,
        config.engines.len(),
        config.rounds,
        config.games,
    )?;
    match config.tiebreak_pairs {
        Some(k) => Err(format!(
            "--tiebreak-pairs {k}: only for --tournament knockout (a round robin or gauntlet \
             has no ties to break)"
        )),
        None => Ok(()),
    }
}

/// A round robin or gauntlet as it is played: its [`Schedule`]'s slice (`--shard`) in game
/// order, less the games recorded. Its games never depend on results: the games recorded (one
/// bit each) are all it keeps.
#[derive(Debug)]
pub(crate) struct FixedSchedule {
    schedule: Schedule,
    shard: Option<Shard>,
    /// The next game number to look at.
    next: u64,
    /// The games recorded (before this session, and in it).
    done: GameSet,
}

impl FixedSchedule {
    pub fn new(config: &RunConfig, shard: Option<Shard>) -> FixedSchedule {
        let schedule = Schedule::new(
            config.tournament,
            config.engines.len(),
            config.rounds,
            config.games,
        );
        FixedSchedule::of(schedule, shard)
    }

    /// `shard`'s slice of `schedule` (all of it without one), nothing recorded yet.
    pub fn of(schedule: Schedule, shard: Option<Shard>) -> FixedSchedule {
        let first_pair = shard.map_or(0, |s| u64::from(s.k - 1));
        FixedSchedule {
            schedule,
            shard,
            next: 2 * first_pair,
            done: GameSet::new(),
        }
    }
}

impl Pairing for FixedSchedule {
    /// [`Schedule::games`] of the slice, game by game, skipping the games recorded.
    fn next(&mut self) -> Step {
        let step = self.shard.map_or(1, |s| u64::from(s.n));
        loop {
            let index = self.next;
            let Some(spec) = self.schedule.game(index) else {
                return Step::Done;
            };
            self.next = if index.is_multiple_of(2) {
                index + 1
            } else {
                2 * (index / 2 + step)
            };
            if !self.done.contains(index) {
                return Step::Game(spec);
            }
        }
    }

    fn record(&mut self, game: &GameSpec, _: Outcome, _: bool) {
        self.done.insert(game.index);
    }

    fn follows_results(&self) -> bool {
        false
    }

    fn replay(
        &mut self,
        done: &GameSet,
        _: &mut dyn Iterator<Item = Recorded>,
    ) -> Result<(), String> {
        self.done = done.clone();
        Ok(())
    }

    fn misplaced(&self, _: u32, encounter: Option<u32>) -> Option<String> {
        encounter.map(|e| {
            format!(
                "names knockout encounter {} but the run is no knockout",
                e + 1
            )
        })
    }

    fn len(&self) -> u64 {
        self.schedule.len()
    }

    fn planned(&self) -> u64 {
        self.schedule.slice_len(self.shard)
    }

    fn games_left(&self) -> u64 {
        self.planned().saturating_sub(self.done.len())
    }

    fn size_text(&self) -> String {
        format!("{} games", self.len())
    }

    fn notes(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    fn summary_json(&self) -> Option<(&'static str, serde_json::Value)> {
        None
    }
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
    /// This shard's number, 1-based (`k` of `k/n`).
    pub k: u32,
    /// The number of shards.
    pub n: u32,
}

impl Shard {
    /// Whether pair `pair` is this shard's.
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

    /// The schedule as it was built before it was made lazy (a list of every game): the lazy
    /// schedule must give exactly these games, so old records resume and merge unchanged.
    fn listed(
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
                        encounter: None,
                        south,
                        north,
                    });
                }
                pair += 1;
            }
        }
        out
    }

    fn all(kind: TournamentKind, engines: usize, rounds: u32, games: Option<u64>) -> Vec<GameSpec> {
        let s = Schedule::new(kind, engines, rounds, games);
        let v: Vec<GameSpec> = s.clone().games(None).collect();
        assert_eq!(v.len() as u64, s.len());
        v
    }

    #[test]
    fn round_robin_pairs_swap_colours() {
        let s = all(TournamentKind::Roundrobin, 3, 2, None);
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
        let s = all(TournamentKind::Gauntlet, 4, 10, Some(7));
        assert_eq!(s.len(), 8, "rounded up to whole pairs");
        assert!(s.iter().all(|g| g.south == 0 || g.north == 0));
        assert_eq!(rounds_for_games(TournamentKind::Gauntlet, 4, 7), 2);
    }

    #[test]
    fn the_lazy_schedule_is_the_listed_one() {
        for kind in [TournamentKind::Roundrobin, TournamentKind::Gauntlet] {
            for engines in [2, 3, 5] {
                for rounds in [1, 2, 7] {
                    for games in [None, Some(1), Some(6), Some(13), Some(1000)] {
                        let want = listed(kind, engines, rounds, games);
                        assert_eq!(all(kind, engines, rounds, games), want);
                        let s = Schedule::new(kind, engines, rounds, games);
                        for n in 1..=4 {
                            let mut union = Vec::new();
                            for k in 1..=n {
                                let shard = Shard { k, n };
                                let slice: Vec<GameSpec> = s.clone().games(Some(shard)).collect();
                                assert_eq!(slice.len() as u64, s.slice_len(Some(shard)));
                                assert!(slice.iter().all(|g| shard.contains(g.pair)));
                                union.extend(slice);
                            }
                            union.sort_by_key(|g| g.index);
                            assert_eq!(union, want, "{kind:?} {engines} {rounds} {games:?} /{n}");
                        }
                        assert_eq!(s.game(want.len() as u64), None);
                    }
                }
            }
        }
    }

    /// As a pairing, the schedule hands out its slice's games in order less those recorded
    /// (before the session, or in it), never waits, and counts what is left.
    #[test]
    fn the_fixed_schedule_hands_out_the_slice_less_the_recorded_games() {
        let s = Schedule::new(TournamentKind::Roundrobin, 4, 3, Some(31));
        for shard in [None, Some(Shard { k: 2, n: 3 })] {
            let slice: Vec<GameSpec> = s.clone().games(shard).collect();
            let mut done = GameSet::new();
            for g in slice.iter().step_by(3) {
                done.insert(g.index);
            }
            let mut p = FixedSchedule::of(s.clone(), shard);
            assert!(!p.follows_results());
            p.replay(&done, &mut std::iter::empty()).unwrap();
            assert_eq!(p.planned(), slice.len() as u64);
            assert_eq!(
                p.games_left(),
                (slice.len() - slice.len().div_ceil(3)) as u64
            );
            let mut handed = Vec::new();
            while let Step::Game(g) = p.next() {
                p.record(&g, Outcome::Draw, false);
                handed.push(g);
            }
            assert_eq!(p.next(), Step::Done);
            let want: Vec<GameSpec> = slice
                .iter()
                .filter(|g| !done.contains(g.index))
                .copied()
                .collect();
            assert_eq!(handed, want, "{shard:?}");
            assert_eq!(p.games_left(), 0);
            assert_eq!((p.len(), p.size_text().as_str()), (32, "32 games"));
            assert!(p.misplaced(0, Some(1)).unwrap().contains("no knockout"));
            assert_eq!(p.misplaced(2, None), None);
        }
    }

    #[test]
    fn a_huge_schedule_costs_nothing() {
        // 10^12 games of a 20-engine round robin: game numbers near the end are computed, not
        // listed (the listed schedule of --games 10^8 took 4 GB).
        const N: u64 = 1_000_000_000_000;
        let s = Schedule::new(TournamentKind::Roundrobin, 20, u32::MAX, Some(N));
        assert_eq!(s.len(), N);
        let last = s.game(N - 1).unwrap();
        assert_eq!(last.pair, N / 2 - 1);
        assert_eq!(u64::from(last.round), (N / 2 - 1) / 190);
        // Pair 499,999,999,999 is pairing 69 of its round (3 against 19: engine 0 has pairings
        // 0..=18, 1 has 19..=36, 2 has 37..=53, 3 has 54..=69), an odd game: colours swapped.
        assert_eq!((last.south, last.north), (19, 3));
        assert_eq!(s.game(N), None);
        let shard = Some(Shard { k: 3, n: 1000 });
        assert_eq!(s.clone().games(shard).next().unwrap().pair, 2);
        assert_eq!(s.slice_len(shard), 2 * (N / 2 - 2).div_ceil(1000));
    }

    #[test]
    fn sizes_out_of_range_are_refused() {
        let rr = TournamentKind::Roundrobin;
        check_size(rr, 2, 1, Some(MAX_GAMES)).unwrap_err();
        check_size(rr, 2, 1, Some(2 * u64::from(u32::MAX))).unwrap();
        // 2 engines: 2^32-1 rounds of one pair hold 8,589,934,590 games; 10^12 used to be cut
        // to that silently.
        let err = check_size(rr, 2, 1, Some(1_000_000_000_000)).unwrap_err();
        assert!(err.contains("1..=8589934590"), "{err}");
        assert!(check_size(rr, 2, 1, Some(0)).unwrap_err().contains("1..="));
        assert!(check_size(rr, 2, 0, None)
            .unwrap_err()
            .contains("--rounds 0"));
        check_size(rr, 20, u32::MAX, None).unwrap();
        check_size(rr, 2, 1, Some(MAX_GAMES - 1)).unwrap_err();
        check_size(rr, 200_000, 1, Some(MAX_GAMES)).unwrap();
        let err = check_size(rr, 200_000, u32::MAX, None).unwrap_err();
        assert!(err.contains("1..=225181"), "{err}");
        // One engine has no pairing: that is said elsewhere, not as a range of --games.
        check_size(rr, 1, 1, Some(10)).unwrap();
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
