//! The arena's results: its game records turned into the statistics' input (`src/stats`), and
//! the running standings the progress display, the rating interval and the SPRT read.
//!
//! All numbers come from `crate::stats`; this module only feeds it. A run keeps counts
//! (`stats::Tally`) and one bit a game (the set of games recorded), so memory does not grow with
//! the games; what needs each game (the report's charts and list, the PGN) reads the records file.

use std::collections::BTreeMap;

use crate::arena::game::adjudication::stones_held;
use crate::arena::records::{GameRecord, GameSet};
use crate::games::{AnyGame, Game, Outcome, Side};
use crate::stats::{
    self, MatchStats, MoveSummary, PairTracker, RatingOptions, SprtConfig, SprtStatus, SprtStop,
    SprtTest, Summary, SummaryOptions,
};

/// The statistics' summary of one arena game (the compact [`stats::GameStats`] a run keeps
/// instead of the record's moves).
pub fn game_stats(g: &GameRecord) -> stats::GameStats {
    // Stones decided the game: its totals. Otherwise (a fault) the stones each side held.
    let [south_total, north_total] = g.totals.unwrap_or_else(|| {
        AnyGame::from_position(&g.final_position)
            .map(|p| stones_held(&p))
            .unwrap_or([0, 0])
    });
    let mut moves = [MoveSummary::default(); 2];
    for (m, side) in g.moves.iter().zip(move_sides(g)) {
        let time_us = m.time_ms.unwrap_or(0) * 1000;
        moves[side.index()].record(time_us, m.depth, m.nodes);
        moves[side.index()].info_dropped += u64::from(m.info_dropped);
    }
    stats::GameStats {
        pair: g.pair,
        game: g.index + 1,
        south: g.south.clone(),
        north: g.north.clone(),
        outcome: g.result,
        termination: g.termination.kind.name().to_string(),
        plies: (g.opening.moves.len() + g.moves.len()) as u32,
        south_total,
        north_total,
        south_moves: moves[0],
        north_moves: moves[1],
    }
}

/// Who made each engine move of a record, by replaying it (Giuthi's extra moves break simple
/// alternation). A record that does not replay is read as alternating from there.
fn move_sides(g: &GameRecord) -> Vec<Side> {
    let mut sides = Vec::with_capacity(g.moves.len());
    let mut pos = AnyGame::from_position(&g.opening.start).ok();
    for token in &g.opening.moves {
        pos = pos.and_then(|mut p| {
            p.parse_move(token).ok().map(|mv| {
                p.play(mv);
                p
            })
        });
    }
    let mut next = pos.as_ref().map_or(Side::South, |p| p.side_to_move());
    for m in &g.moves {
        let side = pos.as_ref().map_or(next, |p| p.side_to_move());
        sides.push(side);
        next = side.other();
        pos = pos.and_then(|mut p| {
            p.parse_move(&m.mv).ok().map(|mv| {
                p.play(mv);
                p
            })
        });
    }
    sides
}

/// A game as a pairing whose next games depend on the results replays it (a knockout's bracket,
/// `crate::arena::pairing::Pairing::replay`): its engines, result and place.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KeptResult {
    /// The engine that played South.
    pub south: String,
    /// The engine that played North.
    pub north: String,
    /// The result.
    pub outcome: Outcome,
    /// Ended before its first move (`Termination::unplayed`).
    pub unplayed: bool,
    /// The round it was played in.
    pub round: u32,
    /// A knockout's encounter within its round (see [`crate::arena::records::GameRecord`]).
    pub encounter: Option<u32>,
}

/// The results so far, kept as the games end: counts ([`stats::Tally`]), never the games, so
/// memory does not grow with them (one bit a game for the set of games recorded; a run whose
/// pairing follows the results also keeps each game's result, which the pairing replays: a few
/// dozen bytes a game of a knockout's bracket, which holds at most its engines times its
/// encounter's games).
#[derive(Clone, Debug)]
pub struct Standings {
    players: Vec<String>,
    sprt: Option<SprtConfig>,
    sprt_test: SprtTest,
    rating: RatingOptions,
    /// The statistics of every game counted, each at its game number: summaries read them as
    /// in schedule order, so a run, its resumption and the merge of its shards compute the very
    /// same figures.
    tally: stats::Tally,
    /// The games counted.
    done: GameSet,
    /// Each game's result, by game number, for a pairing that follows the results (None for
    /// other runs).
    results: Option<BTreeMap<u64, KeptResult>>,
    /// Every game's statistics in the order they finished, only for a report that has no
    /// records file to read them from (see [`Self::keep_games`]).
    finished: Option<Vec<stats::GameStats>>,
    /// Head-to-head of the first two engines, fed in the order games finish, for the live line
    /// and the SPRT.
    first_pairing: Option<PairTracker>,
    /// Where the sequential test decided, the moment it did.
    sprt_stop: Option<SprtStop>,
}

impl Standings {
    /// No games yet; `sprt` when the first two engines' head-to-head is a sequential test.
    pub fn new(players: Vec<String>, sprt: Option<SprtConfig>) -> Standings {
        let first_pairing =
            (players.len() >= 2).then(|| PairTracker::new(&players[0], &players[1]));
        Standings {
            players,
            sprt,
            sprt_test: SprtTest::Sequential,
            rating: RatingOptions::default(),
            tally: stats::Tally::new(),
            done: GameSet::new(),
            results: None,
            finished: None,
            first_pairing,
            sprt_stop: None,
        }
    }

    /// Keeps every game's statistics too: a run with a report and no records file (the one
    /// case where memory grows with the games, by their compact statistics).
    pub(crate) fn keep_games(&mut self) {
        self.finished.get_or_insert_with(Vec::new);
    }

    /// The games' statistics in the order they finished, if [`Self::keep_games`] kept them.
    pub(crate) fn kept_games(&self) -> Option<&[stats::GameStats]> {
        self.finished.as_deref()
    }

    /// Keeps each game's engines, result and place too, for a pairing that follows the results
    /// ([`Self::results`]).
    pub(crate) fn keep_results(&mut self) {
        self.results.get_or_insert_with(BTreeMap::new);
    }

    /// The rating fit's settings (`--rating-prior`).
    pub fn set_rating(&mut self, rating: RatingOptions) {
        self.rating = rating;
    }

    /// Reads the SPRT as a fixed-sample verdict on all games (`test`), or sets the test (a
    /// merge's `--sprt`): the games did not stop on it.
    pub fn set_fixed_sample_sprt(&mut self, config: Option<SprtConfig>) {
        if config.is_some() {
            self.sprt = config;
        }
        self.sprt_test = SprtTest::FixedSample;
        self.sprt_stop = None;
    }

    /// Counts a finished game (games must come in the order they finished: a sequential SPRT
    /// notes the game at which it first crosses a bound and never changes its decision after).
    pub fn add(&mut self, g: &GameRecord) {
        if !self.done.insert(g.index) {
            return;
        }
        let record = game_stats(g);
        let mut paired = false;
        if let Some(t) = self.first_pairing.as_mut() {
            let before = t.pentanomial().pairs();
            t.add(&record);
            paired = t.pentanomial().pairs() != before;
        }
        self.tally.add(&record, g.index);
        if let Some(games) = self.results.as_mut() {
            games.insert(
                g.index,
                KeptResult {
                    south: record.south.clone(),
                    north: record.north.clone(),
                    outcome: record.outcome,
                    unplayed: g.termination.unplayed,
                    round: g.round,
                    encounter: g.encounter,
                },
            );
        }
        if let Some(finished) = self.finished.as_mut() {
            finished.push(record);
        }
        if paired && self.sprt_stop.is_none() && self.sprt_test == SprtTest::Sequential {
            if let Some(status) = self.sprt_status() {
                if status.decision.is_final() {
                    self.sprt_stop = Some(SprtStop {
                        status,
                        games: self.len(),
                        pairs: self
                            .first_pairing
                            .as_ref()
                            .map_or(0, |t| t.pentanomial().pairs()),
                    });
                }
            }
        }
    }

    /// The games recorded.
    pub fn done(&self) -> &GameSet {
        &self.done
    }

    /// Whether game `index` was counted (a resumption skips it).
    pub fn contains(&self, index: u64) -> bool {
        self.done.contains(index)
    }

    /// The number of games counted.
    pub fn len(&self) -> u64 {
        self.done.len()
    }

    /// True before the first game is counted.
    pub fn is_empty(&self) -> bool {
        self.done.is_empty()
    }

    /// The games' results, by game number, ascending (a pairing that follows the results
    /// replays them); none unless [`Self::keep_results`] was called before they were added.
    pub fn results(&self) -> impl Iterator<Item = (u64, &KeptResult)> + '_ {
        self.results.iter().flatten().map(|(&i, r)| (i, r))
    }

    /// The counts every figure is computed from (a crosstable reads its ordered pairings).
    pub fn tally(&self) -> &stats::Tally {
        &self.tally
    }

    /// What a summary needs besides the counts: the players, the SPRT and rating settings.
    pub fn options(&self) -> SummaryOptions {
        SummaryOptions {
            players: self.players.clone(),
            sprt: self.sprt,
            sprt_test: self.sprt_test,
            sprt_stop: self.sprt_stop,
            rating: self.rating,
        }
    }

    /// Everything: the head-to-head blocks, SPRT, rating table, diagnostics, terminations.
    pub fn summary(&self) -> Summary {
        self.tally.summary(&self.options())
    }

    /// The SPRT on the first two engines' pairs so far, if one is configured.
    pub(crate) fn sprt_status(&self) -> Option<SprtStatus> {
        let config = self.sprt?;
        Some(config.status(&self.first_pairing.as_ref()?.pentanomial()))
    }

    /// Where the sequential test decided, if it has.
    pub fn sprt_stop(&self) -> Option<SprtStop> {
        self.sprt_stop
    }

    /// The `--ratinginterval` block: fastchess's block for the first two engines (with the LLR
    /// under `--sprt`), then one line per other pairing.
    pub fn interval_text(&self) -> String {
        let trackers = self.tally.pair_trackers(&self.players);
        let matches: Vec<MatchStats> = trackers.iter().map(MatchStats::from_tracker).collect();
        let sprt = self.sprt_status();
        stats::summary::interval_text(&matches, &self.players, sprt.as_ref())
    }

    /// The first two engines' results so far, in the order games finished (cutechess's
    /// `Score of` line after each game).
    pub(crate) fn first_match(&self) -> Option<MatchStats> {
        self.first_pairing.as_ref().map(MatchStats::from_tracker)
    }

    /// One line for the live display, counting every finished game. Two engines: their score and
    /// Elo (the error bar `n/a` until two pairs with some spread give it a meaning: one pair, or
    /// pairs all alike, have no variance, and `+/- 0.0` read as certainty), and the SPRT. More
    /// engines: the leader on points and every engine's points out of its games, by points (the
    /// first pairing alone said nothing of a round robin of four).
    pub fn headline(&self) -> String {
        if self.players.len() > 2 {
            return self.points_line();
        }
        let Some(t) = &self.first_pairing else {
            return String::new();
        };
        let wdl = t.wdl();
        let mut line = format!(
            "{} vs {}: W {} L {} D {} ({}%)",
            t.first(),
            t.second(),
            wdl.wins,
            wdl.losses,
            wdl.draws,
            stats::elo::figure(100.0 * wdl.score(), 1)
        );
        if let Some(e) = t.pentanomial().estimate().or_else(|| wdl.estimate()) {
            let elo = if e.elo.is_finite() {
                format!("{:+.1}", e.elo)
            } else {
                stats::elo::figure(e.elo, 1)
            };
            let meaningful =
                t.pentanomial().pairs() >= 2 && e.elo_error.is_finite() && e.elo_error > 0.0;
            let error = if meaningful {
                stats::elo::figure(e.elo_error, 1)
            } else {
                "n/a".to_string()
            };
            line.push_str(&format!(" Elo {elo} +/- {error}"));
        }
        if let Some(s) = self.sprt_status() {
            line.push_str(&format!(
                " LLR {:.2} [{:.2}, {:.2}]",
                s.llr, s.lower, s.upper
            ));
        }
        line
    }

    /// Every engine's points out of its finished games, the leader (or the engines tied for
    /// first) named first: `leader a; a 5.5/8, b 4/8, c 2.5/8 (12 games)`.
    fn points_line(&self) -> String {
        let mut table: Vec<(&str, f64, u64)> =
            self.players.iter().map(|p| (p.as_str(), 0.0, 0)).collect();
        for (name, wdl) in self.tally.points() {
            if let Some(row) = table.iter_mut().find(|r| r.0 == name) {
                row.1 += wdl.points();
                row.2 += wdl.games();
            }
        }
        // By points, then by fewer games (the same points from fewer games is the better score).
        table.sort_by(|a, b| b.1.total_cmp(&a.1).then(a.2.cmp(&b.2)));
        let best = table.first().map_or(0.0, |r| r.1);
        let leaders: Vec<&str> = table.iter().filter(|r| r.1 == best).map(|r| r.0).collect();
        let lead = if self.is_empty() {
            "no game finished yet".to_string()
        } else if leaders.len() == 1 {
            format!("leader {}", leaders[0])
        } else {
            format!("tied for first: {}", leaders.join(", "))
        };
        let rows: Vec<String> = table
            .iter()
            .map(|(name, points, games)| format!("{name} {points}/{games}"))
            .collect();
        let n = self.len();
        let games = if n == 1 { "game" } else { "games" };
        format!("{lead}; {} ({n} {games})", rows.join(", "))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::records::{OpeningRecord, Termination, TerminationKind};
    use crate::games::Outcome;
    use crate::stats::{SprtDecision, SprtModel};

    /// Game `index` of pair `index / 2`: `a` is South in even games; `a_points` is a's result.
    fn game(index: u64, a_points: f64) -> GameRecord {
        let a_south = index.is_multiple_of(2);
        let south_wins = (a_points == 1.0) == a_south;
        GameRecord {
            index,
            pair: index / 2,
            round: 0,
            encounter: None,
            game: "toguz-kumalak".into(),
            south: if a_south { "a" } else { "b" }.into(),
            north: if a_south { "b" } else { "a" }.into(),
            opening: OpeningRecord {
                start: String::new(),
                moves: Vec::new(),
            },
            moves: Vec::new(),
            final_position: String::new(),
            result: if a_points == 0.5 {
                Outcome::Draw
            } else if south_wins {
                Outcome::Win(Side::South)
            } else {
                Outcome::Win(Side::North)
            },
            termination: Termination::of(TerminationKind::Rules),
            totals: Some([81, 81]),
        }
    }

    fn config() -> SprtConfig {
        SprtConfig::new(0.0, 100.0, 0.05, 0.05, SprtModel::Logistic).unwrap()
    }

    /// The first game at which the LLR of `a` winning every pair reaches the upper bound.
    fn crossing() -> u64 {
        let mut s = Standings::new(vec!["a".into(), "b".into()], Some(config()));
        (0..)
            .find(|&i| {
                s.add(&game(i, 1.0));
                s.sprt_status().unwrap().decision.is_final()
            })
            .unwrap()
            + 1
    }

    /// Issue 16, item 1: games in flight when the test decides finish after it; they are counted
    /// as extra games and pull the LLR back under the bound, but the decision, its LLR and its
    /// game count stay those of the crossing, in the text and the stored summary alike.
    #[test]
    fn the_decision_is_kept_from_the_crossing_game() {
        let n = crossing();
        let mut s = Standings::new(vec!["a".into(), "b".into()], Some(config()));
        for i in 0..n {
            s.add(&game(i, 1.0));
        }
        let stop = s.sprt_stop().expect("decided at the crossing");
        assert_eq!(stop.games, n);
        assert_eq!(stop.status.decision, SprtDecision::AcceptH1);
        // Six games that were in flight: three pairs lost by a.
        for i in n..n + 6 {
            s.add(&game(i, 0.0));
        }
        assert_eq!(
            s.sprt_status().unwrap().decision,
            SprtDecision::Continue,
            "the extra games move the LLR back under the bound"
        );
        assert_eq!(s.sprt_stop(), Some(stop), "the decision never changes");
        let summary = s.summary();
        let sprt = summary.sprt.as_ref().unwrap();
        assert_eq!(sprt.status, stop.status);
        assert_eq!((sprt.games, sprt.pairs, sprt.extra_games), (n, n / 2, 6));
        assert!(sprt.all_games.unwrap().llr < stop.status.llr);
        let text = summary.text();
        assert!(
            text.contains(&format!(
                "SPRT: H1 accepted (LLR reached the upper bound) after {n} games"
            )),
            "{text}"
        );
        assert!(text.contains("6 more game(s) were in flight"), "{text}");
        // The stored summary says the same.
        let json = serde_json::to_value(&summary).unwrap();
        assert_eq!(json["sprt"]["decision"], "accept-h1");
        assert_eq!(json["sprt"]["games"], n);
        assert_eq!(json["sprt"]["test"], "sequential");
        // Fed again in the same order (a resumption), the same stop is found.
        let mut again = Standings::new(vec!["a".into(), "b".into()], Some(config()));
        for i in 0..n + 6 {
            again.add(&game(i, if i < n { 1.0 } else { 0.0 }));
        }
        assert_eq!(again.sprt_stop(), Some(stop));
    }

    /// A fixed-sample verdict (merged shards) has no stop: the LLR of every game decides, and
    /// the text names it.
    #[test]
    fn fixed_sample_verdict_is_named() {
        let n = crossing();
        let mut s = Standings::new(vec!["a".into(), "b".into()], Some(config()));
        s.set_fixed_sample_sprt(None);
        for i in 0..n + 6 {
            s.add(&game(i, if i < n { 1.0 } else { 0.0 }));
        }
        assert_eq!(s.sprt_stop(), None);
        let summary = s.summary();
        let sprt = summary.sprt.as_ref().unwrap();
        assert_eq!(sprt.test, SprtTest::FixedSample);
        assert_eq!(sprt.games, n + 6);
        let text = summary.text();
        assert!(
            text.contains(&format!(
                "SPRT (fixed-sample verdict on all {} games, {} pairs; not a sequential test): inconclusive",
                n + 6,
                (n + 6) / 2
            )),
            "{text}"
        );
    }

    /// Issue 29 item 3: an error bar is `n/a` until two pairs with some spread give it a
    /// meaning (a pairing at 1-1 showed `+/- 0.0`), and then a number.
    #[test]
    fn the_headline_error_bar_is_na_until_it_means_something() {
        let mut s = Standings::new(vec!["a".into(), "b".into()], None);
        s.add(&game(0, 1.0));
        s.add(&game(1, 0.0));
        assert_eq!(s.headline(), "a vs b: W 1 L 1 D 0 (50.0%) Elo +0.0 +/- n/a");
        // Two pairs all alike: still no spread.
        s.add(&game(2, 1.0));
        s.add(&game(3, 0.0));
        assert!(s.headline().ends_with("+/- n/a"), "{}", s.headline());
        s.add(&game(4, 1.0));
        s.add(&game(5, 1.0));
        let line = s.headline();
        let error = line.rsplit("+/- ").next().unwrap();
        assert!(error.parse::<f64>().is_ok_and(|e| e > 0.0), "{line}");
    }

    /// Issue 29 item 3: with more than two engines the headline is the leader and every engine's
    /// points out of every finished game (it was the first pairing alone).
    #[test]
    fn the_headline_of_n_engines_is_the_leader_and_the_table() {
        let players: Vec<String> = ["a", "b", "c", "d"].map(String::from).to_vec();
        let mut s = Standings::new(players, None);
        assert_eq!(
            s.headline(),
            "no game finished yet; a 0/0, b 0/0, c 0/0, d 0/0 (0 games)"
        );
        let named = |i: u64, south: &str, north: &str, result: Outcome| {
            let mut g = game(i, 1.0);
            g.south = south.into();
            g.north = north.into();
            g.result = result;
            g
        };
        s.add(&named(0, "a", "b", Outcome::Draw));
        assert_eq!(
            s.headline(),
            "tied for first: a, b; a 0.5/1, b 0.5/1, c 0/0, d 0/0 (1 game)"
        );
        // Finished out of order: every game counts, not only the unbroken run from game 1.
        s.add(&named(3, "c", "d", Outcome::Win(Side::South)));
        s.add(&named(5, "c", "a", Outcome::Win(Side::South)));
        assert_eq!(
            s.headline(),
            "leader c; c 2/2, b 0.5/1, a 0.5/2, d 0/1 (3 games)"
        );
    }

    #[test]
    fn interval_block_is_short_and_has_no_nan() {
        let mut s = Standings::new(vec!["a".into(), "b".into(), "c".into()], Some(config()));
        for i in 0..4 {
            s.add(&game(i, 1.0));
        }
        // c against b: c wins every game (degenerate: b's Elo is -inf).
        for i in 4..8 {
            let mut g = game(i, 1.0);
            for name in [&mut g.south, &mut g.north] {
                if name == "a" {
                    *name = "c".into();
                }
            }
            s.add(&g);
        }
        let text = s.interval_text();
        assert!(!text.contains("NaN") && !text.contains("nan"), "{text}");
        assert!(!s.headline().contains("NaN"), "{}", s.headline());
        let fresh = Standings::new(vec!["a".into(), "b".into()], Some(config()));
        assert_eq!(
            fresh.headline(),
            "a vs b: W 0 L 0 D 0 (n/a%) LLR 0.00 [-2.94, 2.94]"
        );
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 1 + 5 + 1 + 1 + 1, "{text}");
        assert!(lines[1].starts_with("Results of a vs b:"), "{text}");
        assert!(lines[6].starts_with("LLR: "), "{text}");
        assert!(
            lines[7].starts_with("b vs c: Elo: -inf +/- n/a, Games: 4, W-L-D: 0-4-0"),
            "{text}"
        );
    }
}
