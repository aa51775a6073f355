//! Game pairs: the two games of one opening, colours swapped, counted as one sample.
//!
//! An opening can favour one side; playing it both ways cancels most of that bias, and the two
//! games' results are correlated. Treating the pair as the unit (score 0, ½, 1, 1½ or 2, i.e. the
//! five buckets LL, LD, WL+DD, WD, WW) gives the right variance, which is smaller than the
//! trinomial one when openings are unbalanced: that is why fastchess and fishtest use it.

use std::collections::HashMap;

use serde::{Deserialize, Serialize};

use super::elo::{count_sum, EloEstimate, Wdl};
use super::game::GameStats;
use crate::games::Side;

/// Pair counts from the first player's point of view. WL and DD both score 1 of 2 and share a
/// bucket; they are kept apart for the WL/DD ratio.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Pentanomial {
    /// Pairs lost twice (0 of 2 points).
    pub ll: u64,
    /// Pairs lost once and drawn once (½ of 2).
    pub ld: u64,
    /// Pairs won once and lost once (1 of 2).
    pub wl: u64,
    /// Pairs drawn twice (1 of 2).
    pub dd: u64,
    /// Pairs won once and drawn once (1½ of 2).
    pub wd: u64,
    /// Pairs won twice (2 of 2).
    pub ww: u64,
}

impl Pentanomial {
    /// From the five buckets `[LL, LD, WL+DD, WD, WW]`, with all of the middle bucket taken as
    /// WL+DD of unknown split (counted as DD: only the WL/DD ratio depends on it).
    pub fn from_buckets(b: [u64; 5]) -> Pentanomial {
        Pentanomial {
            ll: b[0],
            ld: b[1],
            wl: 0,
            dd: b[2],
            wd: b[3],
            ww: b[4],
        }
    }

    /// `[LL, LD, WL+DD, WD, WW]`, the order of `Ptnml(0-2)`.
    pub fn buckets(&self) -> [u64; 5] {
        [
            self.ll,
            self.ld,
            self.wl.saturating_add(self.dd),
            self.wd,
            self.ww,
        ]
    }

    /// Pairs counted (saturating).
    pub fn pairs(&self) -> u64 {
        count_sum(&self.buckets())
    }

    /// Counts one pair from the first player's two results (points 0, ½ or 1 each).
    pub fn add_pair(&mut self, a: f64, b: f64) {
        let twice = ((a + b) * 2.0).round() as u32;
        match twice {
            0 => self.ll += 1,
            1 => self.ld += 1,
            2 if a == 0.5 => self.dd += 1,
            2 => self.wl += 1,
            3 => self.wd += 1,
            _ => self.ww += 1,
        }
    }

    /// Adds another count's pairs (saturating).
    pub fn merge(&mut self, other: &Pentanomial) {
        for (mine, theirs) in [
            (&mut self.ll, other.ll),
            (&mut self.ld, other.ld),
            (&mut self.wl, other.wl),
            (&mut self.dd, other.dd),
            (&mut self.wd, other.wd),
            (&mut self.ww, other.ww),
        ] {
            *mine = mine.saturating_add(theirs);
        }
    }

    /// The same pairs seen from the second player.
    pub fn reversed(&self) -> Pentanomial {
        Pentanomial {
            ll: self.ww,
            ld: self.wd,
            wl: self.wl,
            dd: self.dd,
            wd: self.ld,
            ww: self.ll,
        }
    }

    /// The pentanomial estimate: each pair one sample of mean score 0, ¼, ½, ¾ or 1 per game.
    pub fn estimate(&self) -> Option<EloEstimate> {
        EloEstimate::from_distribution(&[0.0, 0.25, 0.5, 0.75, 1.0], &self.buckets(), 2)
    }

    /// Share of pairs that scored even (WL or DD), fastchess's pentanomial `DrawRatio`.
    pub fn draw_ratio(&self) -> f64 {
        self.wl.saturating_add(self.dd) as f64 / self.pairs() as f64
    }

    /// Pairs won (WW, WD) over pairs lost (LD, LL), fastchess's `PairsRatio`.
    pub fn pairs_ratio(&self) -> f64 {
        self.ww.saturating_add(self.wd) as f64 / self.ld.saturating_add(self.ll) as f64
    }

    /// Pairs of one win and one loss over pairs of two draws.
    pub fn wl_dd_ratio(&self) -> f64 {
        self.wl as f64 / self.dd as f64
    }

    /// `Ptnml(0-2): [LL, LD, WL+DD, WD, WW], WL/DD Ratio: x` as fastchess prints it.
    pub fn ptnml_line(&self) -> String {
        let b = self.buckets();
        format!(
            "Ptnml(0-2): [{}, {}, {}, {}, {}], WL/DD Ratio: {}",
            b[0],
            b[1],
            b[2],
            b[3],
            b[4],
            super::elo::figure(self.wl_dd_ratio(), 2)
        )
    }
}

/// Head-to-head counts of two players, fed game by game: all games (trinomial), each colour, and
/// the pairs completed so far. A game whose partner has not finished is counted in the trinomial
/// figures at once and in the pentanomial ones when its partner arrives; a pair never completed
/// (a run cut short) stays out of the pentanomial figures, as in fastchess.
#[derive(Clone, Debug)]
pub struct PairTracker {
    first: String,
    second: String,
    wdl: Wdl,
    as_south: Wdl,
    as_north: Wdl,
    penta: Pentanomial,
    /// Games waiting for their partner, by pair: (the first player was South, its points).
    open: HashMap<u64, Vec<(bool, f64)>>,
}

impl PairTracker {
    /// A tracker of the games between `first` and `second`, counted from `first`'s side.
    pub fn new(first: &str, second: &str) -> PairTracker {
        PairTracker {
            first: first.to_string(),
            second: second.to_string(),
            wdl: Wdl::default(),
            as_south: Wdl::default(),
            as_north: Wdl::default(),
            penta: Pentanomial::default(),
            open: HashMap::new(),
        }
    }

    /// The player whose side the counts are from.
    pub fn first(&self) -> &str {
        &self.first
    }

    /// Its opponent.
    pub fn second(&self) -> &str {
        &self.second
    }

    /// Counts `game` if it is between the two players; returns whether it was. A pair is
    /// completed by a game of the same pair id with the colours the other way round.
    pub fn add(&mut self, game: &GameStats) -> bool {
        let first_side = if game.south == self.first && game.north == self.second {
            Side::South
        } else if game.north == self.first && game.south == self.second {
            Side::North
        } else {
            return false;
        };
        let points = game.points(first_side);
        let first_south = first_side == Side::South;
        self.wdl.add_points(points);
        if first_south {
            self.as_south.add_points(points);
        } else {
            self.as_north.add_points(points);
        }
        let waiting = self.open.entry(game.pair).or_default();
        if let Some(i) = waiting.iter().position(|&(south, _)| south != first_south) {
            let (_, partner) = waiting.swap_remove(i);
            if waiting.is_empty() {
                self.open.remove(&game.pair);
            }
            self.penta.add_pair(partner, points);
        } else {
            waiting.push((first_south, points));
        }
        true
    }

    /// All games, from the first player's point of view.
    pub fn wdl(&self) -> Wdl {
        self.wdl
    }

    /// Games the first player played as South.
    pub fn first_as_south(&self) -> Wdl {
        self.as_south
    }

    /// Games the first player played as North.
    pub fn first_as_north(&self) -> Wdl {
        self.as_north
    }

    /// Completed pairs, from the first player's point of view.
    pub fn pentanomial(&self) -> Pentanomial {
        self.penta
    }

    /// Games still waiting for their partner.
    pub fn unpaired_games(&self) -> usize {
        self.open.values().map(Vec::len).sum()
    }

    /// The same games from the second player's side: what a tracker of (`second`, `first`) fed
    /// the same games holds.
    pub fn reversed(&self) -> PairTracker {
        let flip = |w: Wdl| Wdl {
            wins: w.losses,
            draws: w.draws,
            losses: w.wins,
        };
        PairTracker {
            first: self.second.clone(),
            second: self.first.clone(),
            wdl: flip(self.wdl),
            as_south: flip(self.as_north),
            as_north: flip(self.as_south),
            penta: self.penta.reversed(),
            open: self
                .open
                .iter()
                .map(|(&pair, games)| {
                    let games = games.iter().map(|&(south, p)| (!south, 1.0 - p)).collect();
                    (pair, games)
                })
                .collect(),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Outcome;
    use crate::stats::game::test_game as game;

    #[test]
    fn pairs_are_bucketed_by_total_points() {
        use Outcome::*;
        use Side::*;
        let mut t = PairTracker::new("a", "b");
        // Pair 0: a wins both (WW). Pair 1: a wins as South, loses as North (WL).
        // Pair 2: two draws (DD). Pair 3: a draws then loses (LD). Pair 4: unfinished.
        let games = [
            game(0, "a", "b", Win(South)),
            game(1, "a", "b", Win(South)),
            game(0, "b", "a", Win(North)),
            game(2, "a", "b", Draw),
            game(1, "b", "a", Win(South)),
            game(3, "b", "a", Draw),
            game(2, "b", "a", Draw),
            game(3, "a", "b", Win(North)),
            game(4, "a", "b", Win(South)),
            game(9, "c", "b", Win(South)),
        ];
        let counted = games.iter().filter(|g| t.add(g)).count();
        assert_eq!(counted, 9);
        let p = t.pentanomial();
        assert_eq!(
            p,
            Pentanomial {
                ll: 0,
                ld: 1,
                wl: 1,
                dd: 1,
                wd: 0,
                ww: 1
            }
        );
        assert_eq!(p.buckets(), [0, 1, 2, 0, 1]);
        assert_eq!(t.unpaired_games(), 1);
        assert_eq!(
            t.wdl(),
            Wdl {
                wins: 4,
                draws: 3,
                losses: 2
            }
        );
        assert_eq!(t.first_as_south().games(), 5);
        assert_eq!(p.reversed().reversed(), p);
        assert_eq!(p.reversed().buckets(), [1, 0, 2, 1, 0]);
    }

    #[test]
    fn same_colour_twice_does_not_make_a_pair() {
        use Outcome::*;
        use Side::*;
        let mut t = PairTracker::new("a", "b");
        t.add(&game(7, "a", "b", Win(South)));
        t.add(&game(7, "a", "b", Win(South)));
        assert_eq!(t.pentanomial().pairs(), 0);
        t.add(&game(7, "b", "a", Draw));
        assert_eq!(t.pentanomial().buckets(), [0, 0, 0, 1, 0]);
        assert_eq!(t.unpaired_games(), 1);
    }

    /// fastchess output quoted in a public release note (Dual 0.3.2):
    /// `Elo: 52.08 +/- 14.57, nElo: 75.87 +/- 20.90`, `LOS: 100.00 %, DrawRatio: 41.81 %,
    /// PairsRatio: 2.15` for `Ptnml(0-2): [16, 82, 222, 150, 61]`; and
    /// `Elo: 11.10 +/- 21.86, nElo: 12.92 +/- 25.38`, `LOS: 84.08 %, DrawRatio: 42.78 %,
    /// PairsRatio: 1.12` for `[49, 48, 154, 49, 60]`.
    #[test]
    fn matches_fastchess_published_output() {
        let cases = [
            (
                [16, 82, 222, 150, 61],
                (52.08, 14.57, 75.87, 20.90, 100.00, 41.81, 2.15),
            ),
            (
                [49, 48, 154, 49, 60],
                (11.10, 21.86, 12.92, 25.38, 84.08, 42.78, 1.12),
            ),
        ];
        for (buckets, (elo, err, nelo, nerr, los, draw, pairs)) in cases {
            let p = Pentanomial::from_buckets(buckets);
            let e = p.estimate().unwrap();
            let r2 = |x: f64| format!("{x:.2}");
            assert_eq!(r2(e.elo), r2(elo), "{buckets:?}");
            assert_eq!(r2(e.elo_error), r2(err), "{buckets:?}");
            assert_eq!(r2(e.nelo), r2(nelo), "{buckets:?}");
            assert_eq!(r2(e.nelo_error), r2(nerr), "{buckets:?}");
            assert_eq!(r2(100.0 * e.los), r2(los), "{buckets:?}");
            assert_eq!(r2(100.0 * p.draw_ratio()), r2(draw), "{buckets:?}");
            assert_eq!(r2(p.pairs_ratio()), r2(pairs), "{buckets:?}");
        }
    }

    #[test]
    fn pentanomial_worked_by_hand() {
        // 10 pairs: 2 LD, 4 even, 4 WD. Mean (2·0.25 + 4·0.5 + 4·0.75)/10 = 0.55;
        // variance (2·0.3² + 4·0.05² + 4·0.2²)/10 = (0.18 + 0.01 + 0.16)/10 = 0.035.
        let p = Pentanomial::from_buckets([0, 2, 4, 4, 0]);
        let e = p.estimate().unwrap();
        assert!((e.score - 0.55).abs() < 1e-15);
        assert!((e.variance - 0.035).abs() < 1e-15);
        // nElo uses the per-game sigma sqrt(2 · 0.035).
        let expected = 0.05 / (0.07f64).sqrt() * crate::stats::elo::NELO_PER_T;
        assert!((e.nelo - expected).abs() < 1e-9);
    }
}
