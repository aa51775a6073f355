//! Everything the arena prints and stores about a run, computed from its games in one call.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use super::crosstable::Crosstable;
use super::diagnostics::{
    diagnostics_text, engine_diagnostics, termination_counts, EngineDiagnostics,
};
use super::elo::{EloEstimate, Wdl};
use super::game::GameStats;
use super::pentanomial::{PairTracker, Pentanomial};
use super::ratings::{fit_pairings, rating_input, Pairings, RatingOptions, RatingTable};
use super::sprt::{SprtConfig, SprtDecision, SprtStatus, SprtStop, SprtTest};
use crate::games::Side;
use crate::names::shown;

/// What to compute besides the always-present figures.
#[derive(Clone, Debug, Default)]
pub struct SummaryOptions {
    /// The engines in the order the user gave them (tables list them in this order; the
    /// head-to-head of `players[i]` and `players[j]`, `i < j`, is from `players[i]`'s side).
    /// Names found only in the games are appended in order of appearance.
    pub players: Vec<String>,
    /// The SPRT, always on the pentanomial counts of `players[0]` against `players[1]` (the
    /// first two engines), whatever else played.
    pub sprt: Option<SprtConfig>,
    /// Whether the run stopped on the test (sequential) or not (fixed-sample).
    pub sprt_test: SprtTest,
    /// Where a sequential test decided, if it did: the summary reports the decision, its LLR
    /// and its game count from that moment, not from the games that finished after it.
    pub sprt_stop: Option<SprtStop>,
    /// How the ratings are fitted.
    pub rating: RatingOptions,
}

/// The SPRT of a run as the summary reports it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtSummary {
    /// Whether the run stopped on the test (sequential) or not (fixed-sample).
    pub test: SprtTest,
    /// The verdict: a sequential test that decided reports its state at the decision; any
    /// other test its state over every recorded game.
    #[serde(flatten)]
    pub status: SprtStatus,
    /// Games of the run recorded when `status` held.
    pub games: u64,
    /// Pairs of the first two engines then.
    pub pairs: u64,
    /// Games recorded after the decision (in flight when it came): they count in every other
    /// figure, never in the decision.
    pub extra_games: u64,
    /// The test over every recorded game, when extra games changed its counts (for the record
    /// only).
    pub all_games: Option<SprtStatus>,
}

impl SprtSummary {
    /// The LLR line and the verdict, as the end-of-run text prints them.
    pub fn text(&self) -> String {
        let mut out = format!("{}\n", self.status.line());
        match self.test {
            SprtTest::Sequential => {
                out.push_str(&format!("SPRT: {}", self.status.decision.describe()));
                if self.status.decision.is_final() {
                    out.push_str(&format!(
                        " after {} games ({} pairs)",
                        self.games, self.pairs
                    ));
                }
                out.push('\n');
                if self.extra_games > 0 {
                    out.push_str(&format!(
                        "SPRT: {} more game(s) were in flight at the decision and finished after it{}; the decision stands\n",
                        self.extra_games,
                        self.all_games.map_or(String::new(), |a| format!(
                            " (LLR over all {} games: {:.2})",
                            self.games.saturating_add(self.extra_games),
                            a.llr
                        ))
                    ));
                }
            }
            SprtTest::FixedSample => {
                let verdict = match self.status.decision {
                    SprtDecision::Continue => "inconclusive (neither bound reached)",
                    d => d.describe(),
                };
                out.push_str(&format!(
                    "SPRT (fixed-sample verdict on all {} games, {} pairs; not a sequential test): {verdict}\n",
                    self.games, self.pairs
                ));
            }
        }
        out
    }
}

/// Two engines' results against each other.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct MatchStats {
    /// The player whose side the counts are from.
    pub first: String,
    /// Its opponent.
    pub second: String,
    /// All games, from `first`'s side.
    pub wdl: Wdl,
    /// Games with `first` as South, from its side.
    pub first_as_south: Wdl,
    /// Games with `first` as North, from its side.
    pub first_as_north: Wdl,
    /// Completed pairs, from `first`'s side.
    pub pentanomial: Pentanomial,
    /// Games whose partner game is missing (not in the pentanomial counts).
    pub unpaired_games: u64,
    /// Per-game estimate.
    pub trinomial: Option<EloEstimate>,
    /// Per-pair estimate (what fastchess prints when pairs are played).
    pub paired: Option<EloEstimate>,
}

impl MatchStats {
    /// The figures of a tracker's games, the Elo estimates included.
    pub fn from_tracker(t: &PairTracker) -> MatchStats {
        let wdl = t.wdl();
        let penta = t.pentanomial();
        MatchStats {
            first: t.first().to_string(),
            second: t.second().to_string(),
            wdl,
            first_as_south: t.first_as_south(),
            first_as_north: t.first_as_north(),
            pentanomial: penta,
            unpaired_games: t.unpaired_games() as u64,
            trinomial: wdl.estimate(),
            paired: penta.estimate(),
        }
    }

    /// The estimate to show: per pair when pairs are complete, per game otherwise.
    pub fn estimate(&self) -> Option<EloEstimate> {
        self.paired.or(self.trinomial)
    }

    /// One line: `a vs b: Elo x +/- y, Games: n, W-L-D: w-l-d, Points: p (s %)`.
    pub fn line(&self) -> String {
        let elo = self.estimate().map_or("Elo: n/a".to_string(), |e| {
            format!(
                "Elo: {} +/- {}",
                super::elo::figure(e.elo, 2),
                super::elo::figure(e.elo_error, 2)
            )
        });
        format!(
            "{} vs {}: {elo}, Games: {}, W-L-D: {}-{}-{}, Points: {:.1} ({} %)",
            self.first,
            self.second,
            self.wdl.games(),
            self.wdl.wins,
            self.wdl.losses,
            self.wdl.draws,
            self.wdl.points(),
            super::elo::figure(100.0 * self.wdl.score(), 2)
        )
    }

    /// fastchess's result block; `info` (time control, book...) goes in the parentheses.
    pub fn text(&self, info: Option<&str>) -> String {
        let (first, second) = (shown(&self.first), shown(&self.second));
        let mut out = match info {
            Some(info) => format!("Results of {first} vs {second} ({info}):\n"),
            None => format!("Results of {first} vs {second}:\n"),
        };
        let Some(estimate) = self.estimate() else {
            out.push_str("No games\n");
            return out;
        };
        let (draw_ratio, pairs_ratio) = if self.paired.is_some() {
            (
                self.pentanomial.draw_ratio(),
                Some(self.pentanomial.pairs_ratio()),
            )
        } else {
            (self.wdl.draw_ratio(), None)
        };
        out.push_str(&estimate.elo_line());
        out.push('\n');
        out.push_str(&estimate.los_line(draw_ratio, pairs_ratio));
        out.push('\n');
        out.push_str(&self.wdl.games_line());
        out.push('\n');
        out.push_str(&self.pentanomial.ptnml_line());
        out.push('\n');
        out
    }
}

/// cutechess-cli's lines (fastchess's `-output format=cutechess`), per game, not per pair, as
/// cutechess counts.
impl MatchStats {
    /// `Score of a vs b: W - L - D  [score] N`.
    pub fn cutechess_score_line(&self) -> String {
        format!(
            "Score of {} vs {}: {} - {} - {}  [{:.3}] {}",
            self.first,
            self.second,
            self.wdl.wins,
            self.wdl.losses,
            self.wdl.draws,
            self.wdl.score(),
            self.wdl.games()
        )
    }

    /// `Elo difference: x +/- y, LOS: z %, DrawRatio: w %`.
    pub fn cutechess_elo_line(&self) -> String {
        let Some(e) = self.trinomial else {
            return "Elo difference: n/a (no games)".to_string();
        };
        let los = if e.los.is_nan() {
            "n/a".to_string()
        } else {
            format!("{:.1} %", 100.0 * e.los)
        };
        format!(
            "Elo difference: {} +/- {}, LOS: {los}, DrawRatio: {:.1} %",
            super::elo::figure(e.elo, 1),
            super::elo::figure(e.elo_error, 1),
            100.0 * self.wdl.draw_ratio()
        )
    }
}

/// cutechess-cli's SPRT line: `SPRT: llr x (p%), lbound l, ubound u[ - H1 was accepted]`.
pub fn cutechess_sprt_line(s: &SprtStatus) -> String {
    let share = if s.llr >= 0.0 { s.upper } else { -s.lower };
    let mut line = format!(
        "SPRT: llr {:.3} ({:.1}%), lbound {:.2}, ubound {:.2}",
        s.llr,
        100.0 * s.llr / share,
        s.lower,
        s.upper
    );
    match s.decision {
        SprtDecision::AcceptH0 => line.push_str(" - H0 was accepted"),
        SprtDecision::AcceptH1 => line.push_str(" - H1 was accepted"),
        SprtDecision::Continue => {}
    }
    line
}

/// The line above the end-of-run text's crosstable.
pub const CROSSTABLE_HEADING: &str =
    "Crosstable (rows by points; a cell is the row's points/games against the column):";

/// The whole run.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Summary {
    /// Games counted.
    pub games: u64,
    /// The engines, in the order the user gave them, then the others as they appeared.
    pub players: Vec<String>,
    /// Every pairing that played, in `players` order.
    pub matches: Vec<MatchStats>,
    /// South's results over all games (the first-player advantage as counted).
    pub south: Wdl,
    /// The SPRT of the first two engines, if one was asked for.
    pub sprt: Option<SprtSummary>,
    /// The joint rating fit, or why there is none.
    pub ratings: Option<RatingTable>,
    /// Why there are no ratings, when there are none.
    pub rating_error: Option<String>,
    /// Each engine's figures over all its games.
    pub engines: Vec<EngineDiagnostics>,
    /// Games by why they ended (the termination names of [`super::game::GameStats`]).
    pub terminations: BTreeMap<String, u64>,
    /// Engines by engines, from `matches` (empty in summaries written before it).
    #[serde(default)]
    pub crosstable: Crosstable,
}

/// Player names: the given order, then any others in order of appearance.
pub fn player_order(games: &[GameStats], given: &[String]) -> Vec<String> {
    let mut players: Vec<String> = given.to_vec();
    for g in games {
        for side in Side::BOTH {
            let name = g.player(side);
            if !players.iter().any(|p| p == name) {
                players.push(name.to_string());
            }
        }
    }
    players
}

/// The trackers of every pairing that played, in `players` order.
pub fn pair_trackers(games: &[GameStats], players: &[String]) -> Vec<PairTracker> {
    let index = |name: &str| players.iter().position(|p| p == name);
    let mut trackers: Vec<PairTracker> = Vec::new();
    let mut keys: Vec<(usize, usize)> = Vec::new();
    for g in games {
        let (Some(s), Some(n)) = (index(&g.south), index(&g.north)) else {
            continue;
        };
        if s == n {
            continue;
        }
        let key = (s.min(n), s.max(n));
        let k = match keys.iter().position(|&x| x == key) {
            Some(k) => k,
            None => {
                keys.push(key);
                trackers.push(PairTracker::new(&players[key.0], &players[key.1]));
                keys.len() - 1
            }
        };
        trackers[k].add(g);
    }
    let mut order: Vec<usize> = (0..keys.len()).collect();
    order.sort_by_key(|&k| keys[k]);
    order.into_iter().map(|k| trackers[k].clone()).collect()
}

/// Computes the summary of `games` from the games themselves (a run keeps counts instead,
/// [`super::Tally`], which gives the same summary).
pub fn summarize(games: &[GameStats], options: &SummaryOptions) -> Summary {
    let players = player_order(games, &options.players);
    let mut south = Wdl::default();
    for g in games {
        south.add_points(g.points(Side::South));
    }
    assemble(
        &players,
        &pair_trackers(games, &players),
        south,
        &rating_input(games, &players),
        engine_diagnostics(games, &players),
        termination_counts(games),
        games.len() as u64,
        options,
    )
}

/// The summary from its parts, however they were counted: the pairings' trackers in `players`
/// order, South's results, the rating fit's input, the engines' figures, the endings.
#[allow(clippy::too_many_arguments)]
pub(crate) fn assemble(
    players: &[String],
    trackers: &[PairTracker],
    south: Wdl,
    pairings: &Pairings,
    engines: Vec<EngineDiagnostics>,
    terminations: BTreeMap<String, u64>,
    games: u64,
    options: &SummaryOptions,
) -> Summary {
    let matches: Vec<MatchStats> = trackers.iter().map(MatchStats::from_tracker).collect();
    let sprt = options
        .sprt
        .map(|config| sprt_summary(&config, options, &matches, players, games));
    let (ratings, rating_error) = match fit_pairings(pairings, &options.rating, &mut |_| {}) {
        Ok(table) => (Some(table), None),
        Err(e) => (None, Some(e.to_string())),
    };
    let crosstable = Crosstable::from_matches(players, &matches);
    Summary {
        games,
        players: players.to_vec(),
        crosstable,
        matches,
        south,
        sprt,
        ratings,
        rating_error,
        engines,
        terminations,
    }
}

/// The block printed every `--ratinginterval` games: fastchess's result block for the first two
/// engines (and the LLR line of the test, when there is one), then one line per other pairing
/// that played, between rules.
pub fn interval_text(
    matches: &[MatchStats],
    players: &[String],
    sprt: Option<&SprtStatus>,
) -> String {
    let rule = "-".repeat(50);
    let mut out = format!("{rule}\n");
    let first =
        |m: &&MatchStats| players.len() >= 2 && m.first == players[0] && m.second == players[1];
    if let Some(m) = matches.iter().find(first) {
        out.push_str(&m.text(None));
    }
    if let Some(s) = sprt {
        out.push_str(&s.line());
        out.push('\n');
    }
    for m in matches.iter().filter(|m| !first(m)) {
        out.push_str(&m.line());
        out.push('\n');
    }
    out.push_str(&rule);
    out.push('\n');
    out
}

/// The SPRT of `players[0]` against `players[1]` (none of their pairs: LLR 0).
fn sprt_summary(
    config: &SprtConfig,
    options: &SummaryOptions,
    matches: &[MatchStats],
    players: &[String],
    games: u64,
) -> SprtSummary {
    let penta = match players {
        [a, b, ..] => matches
            .iter()
            .find(|m| m.first == *a && m.second == *b)
            .map(|m| m.pentanomial)
            .unwrap_or_default(),
        _ => Pentanomial::default(),
    };
    let all = config.status(&penta);
    match options
        .sprt_stop
        .filter(|_| options.sprt_test == SprtTest::Sequential)
    {
        Some(stop) => SprtSummary {
            test: SprtTest::Sequential,
            status: stop.status,
            games: stop.games,
            pairs: stop.pairs,
            extra_games: games.saturating_sub(stop.games),
            all_games: (penta.pairs() != stop.pairs).then_some(all),
        },
        None => SprtSummary {
            test: options.sprt_test,
            status: all,
            games,
            pairs: penta.pairs(),
            extra_games: 0,
            all_games: None,
        },
    }
}

impl Summary {
    /// The end-of-run text: each pairing's block, the SPRT, the rating table, the engines'
    /// figures and the terminations.
    pub fn text(&self) -> String {
        let rule = "-".repeat(50);
        let mut out = String::new();
        for m in &self.matches {
            out.push_str(&rule);
            out.push('\n');
            out.push_str(&m.text(None));
        }
        if let Some(s) = &self.sprt {
            if let [a, b, _, ..] = self.players.as_slice() {
                // Among several pairings, say which one the test is on.
                out.push_str(&format!("SPRT on {a} vs {b}:\n"));
            }
            out.push_str(&s.text());
        }
        if !self.matches.is_empty() {
            out.push_str(&rule);
            out.push('\n');
        }
        out.push_str(&self.tail_text());
        out
    }

    /// [`Summary::text`] with cutechess-cli's lines for each pairing and the SPRT (fastchess's
    /// `-output format=cutechess`); the rating table and the rest as in `text`.
    pub fn cutechess_text(&self) -> String {
        let mut out = String::new();
        for m in &self.matches {
            out.push_str(&m.cutechess_score_line());
            out.push('\n');
            out.push_str(&m.cutechess_elo_line());
            out.push('\n');
        }
        if let Some(s) = &self.sprt {
            out.push_str(&cutechess_sprt_line(&s.status));
            out.push('\n');
        }
        out.push_str(&self.tail_text());
        out
    }

    /// The rating table, the engines' figures and the terminations.
    fn tail_text(&self) -> String {
        let mut out = String::new();
        match (&self.ratings, &self.rating_error) {
            (Some(table), _) => {
                out.push('\n');
                out.push_str(&table.text());
            }
            (None, Some(e)) => out.push_str(&format!("\nNo rating table: {e}\n")),
            (None, None) => {}
        }
        // Two engines' crosstable says what their result block above says.
        if self.crosstable.rows.len() > 2 {
            out.push_str(&format!("\n{CROSSTABLE_HEADING}\n"));
            out.push_str(&self.crosstable.text());
        }
        out.push('\n');
        out.push_str(&diagnostics_text(&self.engines));
        let ends: Vec<String> = self
            .terminations
            .iter()
            .map(|(k, n)| format!("{k} {n}"))
            .collect();
        out.push_str(&format!(
            "\nGames: {}, South {}-{}-{} (W-D-L), endings: {}\n",
            self.games,
            self.south.wins,
            self.south.draws,
            self.south.losses,
            ends.join(", ")
        ));
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Outcome;
    use crate::stats::game::test_game as game;
    use crate::stats::sprt::SprtModel;

    #[test]
    fn two_engine_summary_prints_fastchess_block() {
        use Outcome::*;
        use Side::*;
        // 16 pairs built to give Ptnml [1, 2, 10, 2, 1] (6 WL, 4 DD) for "new".
        let mut games = Vec::new();
        let mut pair = 0;
        let mut push = |a: Outcome, b: Outcome, n: usize| {
            for _ in 0..n {
                games.push(game(pair, "new", "old", a));
                games.push(game(pair, "old", "new", b));
                pair += 1;
            }
        };
        push(Win(North), Win(South), 1); // LL
        push(Draw, Win(South), 2); // LD
        push(Win(South), Win(South), 6); // WL
        push(Draw, Draw, 4); // DD
        push(Win(South), Draw, 2); // WD
        push(Win(South), Win(North), 1); // WW
        let options = SummaryOptions {
            players: vec!["new".into(), "old".into()],
            sprt: Some(SprtConfig::new(0.0, 10.0, 0.05, 0.05, SprtModel::Logistic).unwrap()),
            ..Default::default()
        };
        let s = summarize(&games, &options);
        assert_eq!(s.games, 32);
        assert_eq!(s.matches.len(), 1);
        let m = &s.matches[0];
        assert_eq!(m.pentanomial.buckets(), [1, 2, 10, 2, 1]);
        assert_eq!(
            m.wdl,
            Wdl {
                wins: 10,
                draws: 12,
                losses: 10
            }
        );
        let text = s.text();
        assert!(text.contains("Results of new vs old:\nElo: "), "{text}");
        assert!(
            text.contains("Games: 32, Wins: 10, Losses: 10, Draws: 12, Points: 16.0 (50.00 %)"),
            "{text}"
        );
        assert!(
            text.contains("Ptnml(0-2): [1, 2, 10, 2, 1], WL/DD Ratio: 1.50"),
            "{text}"
        );
        assert!(
            text.contains("DrawRatio: 62.50 %, PairsRatio: 1.00"),
            "{text}"
        );
        assert!(text.contains("LLR: "), "{text}");
        assert!(text.contains("First-player (South) advantage"), "{text}");
        let south_wins = games.iter().filter(|g| g.outcome == Win(South)).count() as u64;
        assert_eq!(s.south.wins, south_wins);
        // JSON round trip (the arena stores the summary).
        let json = serde_json::to_string(&s).unwrap();
        let back: Summary = serde_json::from_str(&json).unwrap();
        assert_eq!(back.matches[0].pentanomial, m.pentanomial);
        assert_eq!(back.south, s.south);
    }

    #[test]
    fn round_robin_lists_every_pairing_in_player_order() {
        use Outcome::*;
        use Side::*;
        let games = vec![
            game(0, "c", "a", Win(South)),
            game(0, "a", "c", Win(North)),
            game(1, "b", "c", Draw),
            game(1, "c", "b", Win(South)),
            game(2, "a", "b", Win(South)),
            game(2, "b", "a", Win(South)),
        ];
        let s = summarize(
            &games,
            &SummaryOptions {
                players: vec!["a".into(), "b".into(), "c".into()],
                ..Default::default()
            },
        );
        let pairs: Vec<(&str, &str)> = s
            .matches
            .iter()
            .map(|m| (m.first.as_str(), m.second.as_str()))
            .collect();
        assert_eq!(pairs, [("a", "b"), ("a", "c"), ("b", "c")]);
        assert_eq!(s.matches[1].pentanomial.buckets(), [1, 0, 0, 0, 0]);
        assert!(s.sprt.is_none());
        assert_eq!(s.ratings.as_ref().unwrap().players[0].name, "c");
        assert_eq!(s.engines.len(), 3);
    }

    /// Issue 16, item 5: the SPRT is the first two engines' head-to-head even when other
    /// pairings played first (a shard of a round robin) or they have not met at all.
    #[test]
    fn sprt_is_always_engines_zero_and_one() {
        use Outcome::*;
        use Side::*;
        let config = SprtConfig::new(0.0, 50.0, 0.05, 0.05, SprtModel::Logistic).unwrap();
        let options = SummaryOptions {
            players: vec!["L1".into(), "L2".into(), "greedy".into()],
            sprt: Some(config),
            ..Default::default()
        };
        // L1 crushes greedy (played first), and only draws with L2.
        let mut games = Vec::new();
        for pair in 0..10 {
            games.push(game(pair, "L1", "greedy", Win(South)));
            games.push(game(pair, "greedy", "L1", Win(North)));
        }
        let s = summarize(&games, &options);
        let sprt = s.sprt.as_ref().unwrap();
        assert_eq!(
            (sprt.pairs, sprt.status.llr),
            (0, 0.0),
            "no L1-L2 pairs yet"
        );
        for pair in 10..14 {
            games.push(game(pair, "L1", "L2", Draw));
            games.push(game(pair, "L2", "L1", Draw));
        }
        let s = summarize(&games, &options);
        let sprt = s.sprt.as_ref().unwrap();
        assert_eq!(sprt.pairs, 4);
        assert_eq!(
            sprt.status.llr,
            config.llr_pentanomial(&Pentanomial::from_buckets([0, 0, 4, 0, 0]))
        );
        assert_eq!(s.matches[0].first, "L1");
        assert_eq!(s.matches[0].second, "L2");
        assert!(
            s.text().contains("SPRT on L1 vs L2:\nLLR: "),
            "{}",
            s.text()
        );
    }

    /// A perfect score makes the Elo infinite; JSON holds it as null and must still read back.
    #[test]
    fn summary_with_infinite_elo_reads_back_from_json() {
        use Outcome::*;
        use Side::*;
        let games = vec![game(0, "a", "b", Win(South)), game(0, "b", "a", Win(North))];
        let s = summarize(&games, &SummaryOptions::default());
        assert_eq!(s.matches[0].trinomial.unwrap().elo, f64::INFINITY);
        let json = serde_json::to_string(&s).unwrap();
        assert!(json.contains("\"elo\":null"), "{json}");
        let back: Summary = serde_json::from_str(&json).unwrap();
        assert!(back.matches[0].trinomial.unwrap().elo.is_nan());
        assert_eq!(back.matches[0].wdl, s.matches[0].wdl);
    }
}
