//! `otau-arena report`: one self-contained HTML page about a run (inline CSS and SVG, nothing
//! fetched), readable offline and attachable to a mail or an issue. Its only script is the game
//! viewer a caller may append ([`ReportOptions::appendix`]).
//!
//! Sections: the summary text, a Swiss's standings and crosstable (`swiss`) or the pairing's
//! notes (a knockout's bracket), the rating table, the crosstable, the Elo (with its 95%
//! interval) as games accumulated, the SPRT's LLR path, the distribution of final stone margins, the
//! engines' figures and endings, and the list of games.

mod swiss;

use std::collections::BTreeMap;
use std::fmt::Write;

use super::elo::figure;
use super::game::GameStats;
use super::pentanomial::PairTracker;
use super::ratings::fit_pairings;
use super::summary::{summarize, MatchStats, Summary, SummaryOptions};
use super::svg::{escape, histogram_svg, LineChart, Series};
use super::tally::Tally;
use crate::games::{Outcome, Side};

/// What the page is about.
#[derive(Clone, Debug, Default)]
pub struct ReportOptions {
    /// Page heading (the results file's name, say).
    pub title: String,
    /// Player order, SPRT and rating settings, as for the summary.
    pub summary: SummaryOptions,
    /// HTML added as the page's last part, as it is (the game viewer, `crate::web::report`,
    /// made by a layer above this one).
    pub appendix: String,
    /// Sections of preformatted text after the summary, (heading, text): a knockout's bracket.
    pub notes: Vec<(String, String)>,
    /// The pairing's part of the summary event, (key, value) (`Pairing::summary_json` in the
    /// arena): a Swiss's (`swiss`) is drawn as its standings and crosstable, in place of the
    /// notes' text of them.
    pub pairing: Option<(String, serde_json::Value)>,
}

/// The most games the page lists (and its viewer holds): the first and the last half of them by
/// game number; a larger run's other games are in its records file (`otau-arena view`, PGN).
pub const LISTED_GAMES: usize = 1000;

/// The page for `games`, given in the order they finished: the charts replay them in that order
/// (the summary's figures do not depend on it).
pub fn render_html(games: &[GameStats], options: &ReportOptions) -> String {
    let summary = summarize(games, &options.summary);
    let fed: Result<(), std::convert::Infallible> = Ok(());
    render_summary_html(&summary, options, |add| {
        games.iter().for_each(add);
        fed
    })
    .unwrap_or_else(|e| match e {})
}

/// The page of a run whose `summary` is known (counted as its games ended), its games read once
/// by `games`, which hands them to its argument in the order they finished (from the records
/// file): memory does not grow with the games (the charts keep a bounded number of points, the
/// list at most [`LISTED_GAMES`]).
pub fn render_summary_html<E>(
    summary: &Summary,
    options: &ReportOptions,
    games: impl FnOnce(&mut dyn FnMut(&GameStats)) -> Result<(), E>,
) -> Result<String, E> {
    let mut charts = Charts::new(summary, options);
    games(&mut |g| charts.add(g))?;
    let title = if options.title.is_empty() {
        "otau arena report".to_string()
    } else {
        format!("otau arena report: {}", options.title)
    };
    let mut html = String::new();
    let _ = write!(
        html,
        "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>{}</title>\n<style>{}</style>\n</head>\n<body>\n<h1>{}</h1>\n",
        escape(&title),
        STYLE,
        escape(&title)
    );
    let _ = writeln!(
        html,
        "<p>{} games, {} players: {}.</p>",
        summary.games,
        summary.players.len(),
        escape(&summary.players.join(", "))
    );
    section(
        &mut html,
        "summary",
        "Summary",
        &format!("<pre>{}</pre>", escape(&summary.text())),
    );
    let swiss = match &options.pairing {
        Some((key, value)) if key == "swiss" => Some(swiss::swiss_html(value)),
        _ => None,
    };
    let notes = match &swiss {
        Some(body) => {
            section(&mut html, "swiss", "Swiss standings", body);
            &[][..]
        }
        None => &options.notes[..],
    };
    for (i, (heading, text)) in notes.iter().enumerate() {
        section(
            &mut html,
            &format!("note-{i}"),
            heading,
            &format!("<pre>{}</pre>", escape(text)),
        );
    }
    section(&mut html, "ratings", "Ratings", &ratings_html(summary));
    section(
        &mut html,
        "crosstable",
        "Crosstable",
        &format!(
            "<p class=\"note\">Rows by points; a cell is the row engine's points/games against the column's (its wins, draws and losses on hover).</p>\n{}",
            summary.crosstable.html()
        ),
    );
    section(
        &mut html,
        "elo-history",
        "Elo as games accumulated",
        &charts.elo.svg(summary),
    );
    section(
        &mut html,
        "sprt",
        "SPRT log-likelihood ratio",
        &sprt_svg(charts.sprt.as_ref(), summary),
    );
    section(
        &mut html,
        "margins",
        "Final stone margins",
        &margins_svg(charts.margins, &charts.margin_label),
    );
    section(&mut html, "engines", "Engines", &engines_html(summary));
    section(&mut html, "games", "Games", &games_html(charts.list));
    html.push_str(&options.appendix);
    html.push_str("</body>\n</html>\n");
    Ok(html)
}

/// The first and the last `limit / 2` items by key (all when there are at most `limit`), kept
/// as they come in any order: the report's list of games and its viewer's games.
#[derive(Debug)]
pub struct Window<T> {
    limit: usize,
    low: std::collections::BinaryHeap<(u64, usize, Keyed<T>)>,
    high: std::collections::BinaryHeap<std::cmp::Reverse<(u64, usize, Keyed<T>)>>,
    seen: u64,
}

/// An item ordered by its key alone (the window sorts by key, then arrival).
#[derive(Debug)]
struct Keyed<T>(T);

impl<T> PartialEq for Keyed<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}
impl<T> Eq for Keyed<T> {}
impl<T> PartialOrd for Keyed<T> {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}
impl<T> Ord for Keyed<T> {
    fn cmp(&self, _: &Self) -> std::cmp::Ordering {
        std::cmp::Ordering::Equal
    }
}

impl<T> Window<T> {
    /// A window of at most `limit` items (at least 2).
    pub fn new(limit: usize) -> Window<T> {
        Window {
            limit: limit.max(2),
            low: Default::default(),
            high: Default::default(),
            seen: 0,
        }
    }

    /// Offers the `arrival`-th item, of key `key`.
    pub fn push(&mut self, key: u64, arrival: usize, item: T) {
        self.seen += 1;
        let half = self.limit / 2;
        let mut entry = (key, arrival, Keyed(item));
        // The smallest keys stay in `low`; what it lets go is offered to `high`.
        if self.low.len() < half {
            self.low.push(entry);
            return;
        }
        if self
            .low
            .peek()
            .is_some_and(|top| (top.0, top.1) > (key, arrival))
        {
            self.low.push(entry);
            entry = self.low.pop().expect("more than half");
        }
        self.high.push(std::cmp::Reverse(entry));
        if self.high.len() > self.limit - half {
            self.high.pop();
        }
    }

    /// The items kept, by key then arrival, each with its key and arrival, and how many were
    /// left out.
    pub fn into_sorted(self) -> (Vec<(u64, usize, T)>, u64) {
        let mut all: Vec<(u64, usize, T)> = self
            .low
            .into_iter()
            .chain(self.high.into_iter().map(|r| r.0))
            .map(|(k, a, Keyed(t))| (k, a, t))
            .collect();
        all.sort_by_key(|&(k, a, _)| (k, a));
        let left_out = self.seen - all.len() as u64;
        (all, left_out)
    }
}

/// What the page draws from each game, fed in the order the games finished.
struct Charts {
    elo: EloChart,
    sprt: Option<SprtPath>,
    /// Final margins by value, from the perspective `margin_side` names.
    margins: BTreeMap<i64, u64>,
    perspective: Option<String>,
    margin_label: String,
    list: Window<String>,
    /// Games fed so far.
    fed: usize,
}

impl Charts {
    fn new(summary: &Summary, options: &ReportOptions) -> Charts {
        let len = summary.games as usize;
        // Two engines: margins from the first's side; more: South's total minus North's.
        let (perspective, margin_label) = match summary.matches.as_slice() {
            [m] => (
                Some(m.first.clone()),
                format!("{}'s total minus the opponent's", m.first),
            ),
            _ => (None, "South's total minus North's".to_string()),
        };
        Charts {
            elo: EloChart::new(summary, options, len),
            sprt: SprtPath::new(summary, len),
            margins: BTreeMap::new(),
            perspective,
            margin_label,
            list: Window::new(LISTED_GAMES),
            fed: 0,
        }
    }

    fn add(&mut self, g: &GameStats) {
        let i = self.fed;
        self.fed += 1;
        self.elo.add(i, g);
        if let Some(s) = self.sprt.as_mut() {
            s.add(i, g);
        }
        let side = self
            .perspective
            .as_deref()
            .and_then(|p| g.side_of(p))
            .unwrap_or(Side::South);
        *self.margins.entry(g.margin(side)).or_insert(0) += 1;
        self.list.push(g.game, i, game_row(i, g));
    }
}

const STYLE: &str = "body{font-family:sans-serif;margin:1.5em auto;max-width:1000px;color:#222}\
h1{font-size:1.5em}h2{font-size:1.2em;border-bottom:1px solid #ccc;padding-bottom:.2em}\
table{border-collapse:collapse;font-size:.9em}th,td{padding:.2em .6em;text-align:right}\
th{background:#f2f2f2}tr:nth-child(even) td{background:#fafafa}.name{text-align:left}\
pre{background:#f7f7f7;padding:.6em;overflow-x:auto}.note{color:#666}\
.scroll{max-height:32em;overflow-y:auto}svg.chart{max-width:100%;height:auto}\
table.crosstable td.self{background:#ddd}\
table.swiss-standings td.round{font-family:monospace}.stopped{font-weight:bold}";

fn section(html: &mut String, id: &str, heading: &str, body: &str) {
    let _ = write!(
        html,
        "<section id=\"{id}\">\n<h2>{}</h2>\n{body}\n</section>\n",
        escape(heading)
    );
}

fn ratings_html(summary: &Summary) -> String {
    let Some(table) = &summary.ratings else {
        return format!(
            "<p class=\"note\">No rating table: {}</p>",
            escape(summary.rating_error.as_deref().unwrap_or("no games"))
        );
    };
    let mut out = super::ratings::PLAYERS.html(&table.players);
    let _ = write!(
        out,
        "<p>First-player (South) advantage: {} &plusmn; {} Elo; South takes {}% of decisive games between equal players. Draw rate between equal players: {}%. South scored {}-{}-{} (W-D-L) over all games. Prior: {}.{}</p>",
        figure(table.first_player_advantage, 1),
        figure(table.first_player_advantage_error, 1),
        figure(100.0 * table.first_player_decisive_share, 1),
        figure(100.0 * table.draw_rate_equal, 1),
        summary.south.wins,
        summary.south.draws,
        summary.south.losses,
        escape(
            &super::ratings::RatingOptions {
                prior_draws: table.prior_draws
            }
            .describe()
        ),
        if table.draw_held {
            " The draw parameter was held at the share of draws (the games cannot determine it)."
        } else {
            ""
        }
    );
    out
}

/// Indices after which to sample a running figure: about `count` evenly spaced, and the last.
fn checkpoints(len: usize, count: usize) -> Vec<usize> {
    if len == 0 {
        return Vec::new();
    }
    let step = len.div_ceil(count).max(1);
    let mut out: Vec<usize> = (step - 1..len).step_by(step).collect();
    if out.last() != Some(&(len - 1)) {
        out.push(len - 1);
    }
    out
}

/// The first two engines of the run (the SPRT's and the two-engine chart's pairing).
fn first_two(summary: &Summary) -> Option<(&str, &str)> {
    match summary.players.as_slice() {
        [a, b, ..] => Some((a.as_str(), b.as_str())),
        _ => None,
    }
}

/// The Elo chart, fed game by game: two engines, their Elo (with the 95% interval's own ends,
/// asymmetric: the logistic curve stretches the side towards the nearer end of the score range)
/// at about 300 points; more, the joint ratings refitted at about 30 points of the run.
enum EloChart {
    HeadToHead {
        tracker: PairTracker,
        series: Series,
        marks: std::collections::VecDeque<usize>,
    },
    Joint {
        players: Vec<String>,
        rating: super::ratings::RatingOptions,
        tally: Tally,
        series: Vec<Series>,
        marks: std::collections::VecDeque<usize>,
    },
}

impl EloChart {
    fn new(summary: &Summary, options: &ReportOptions, len: usize) -> EloChart {
        if let [m] = summary.matches.as_slice() {
            return EloChart::HeadToHead {
                tracker: PairTracker::new(&m.first, &m.second),
                series: Series {
                    name: format!("{} vs {}", m.first, m.second),
                    ..Series::default()
                },
                marks: checkpoints(len, 300).into(),
            };
        }
        EloChart::Joint {
            players: summary.players.clone(),
            rating: options.summary.rating,
            tally: Tally::new(),
            series: summary
                .players
                .iter()
                .map(|p| Series {
                    name: p.clone(),
                    ..Series::default()
                })
                .collect(),
            marks: checkpoints(len, 30).into(),
        }
    }

    /// The `i`-th game to finish.
    fn add(&mut self, i: usize, g: &GameStats) {
        match self {
            EloChart::HeadToHead {
                tracker,
                series,
                marks,
            } => {
                tracker.add(g);
                if marks.front() == Some(&i) {
                    marks.pop_front();
                    if let Some(e) = MatchStats::from_tracker(tracker).estimate() {
                        let x = (i + 1) as f64;
                        series.points.push((x, e.elo));
                        let (low, high) = e.elo_interval();
                        series.band.push((x, low, high));
                    }
                }
            }
            EloChart::Joint {
                players,
                rating,
                tally,
                series,
                marks,
            } => {
                // Refit on the games so far, as the games finished (each at its place).
                tally.add(g, i as u64);
                if marks.front() != Some(&i) {
                    return;
                }
                marks.pop_front();
                let Ok(table) = fit_pairings(&tally.pairings(players), rating, &mut |_| {}) else {
                    return;
                };
                for p in &table.players {
                    if let Some(s) = series.iter_mut().find(|s| s.name == p.name) {
                        let x = (i + 1) as f64;
                        s.points.push((x, p.rating));
                        s.band.push((x, p.rating - p.error, p.rating + p.error));
                    }
                }
            }
        }
    }

    fn svg(self, summary: &Summary) -> String {
        match self {
            EloChart::HeadToHead { series, .. } => {
                let m = &summary.matches[0];
                let infinite = series.points.iter().filter(|p| !p.1.is_finite()).count();
                if infinite == series.points.len() {
                    // A perfect score from the first game on: the Elo is infinite at every point.
                    return format!(
                        "<p class=\"note\">The Elo of {} was infinite throughout ({}): nothing finite to plot.</p>",
                        escape(&m.first),
                        escape(&m.wdl.games_line())
                    );
                }
                let chart = LineChart {
                    x_label: "games (in the order they finished)".into(),
                    y_label: format!("Elo of {} (95% band)", m.first),
                    series: vec![series],
                    rules: vec![(0.0, "0".into())],
                };
                let note = if infinite > 0 {
                    format!(
                        "\n<p class=\"note\">{infinite} point(s) with an infinite Elo (a perfect score so far) are left out.</p>"
                    )
                } else {
                    String::new()
                };
                chart.svg("Elo as games accumulated") + &note
            }
            EloChart::Joint { series, .. } => LineChart {
                x_label: "games (in the order they finished)".into(),
                y_label: "rating (95% band)".into(),
                series,
                rules: vec![],
            }
            .svg("Ratings as games accumulated"),
        }
    }
}

/// The most points of the SPRT's path: a longer test is drawn at the first pair completed at or
/// after each of this many evenly spaced games.
const SPRT_POINTS: u64 = 4096;

/// The SPRT's log-likelihood ratio after each pair of the first two engines completed.
struct SprtPath {
    config: super::sprt::SprtConfig,
    tracker: PairTracker,
    pairs: u64,
    path: Vec<(f64, f64)>,
    /// A long test: the games at which to draw its next point.
    marks: Option<std::collections::VecDeque<usize>>,
}

impl SprtPath {
    fn new(summary: &Summary, len: usize) -> Option<SprtPath> {
        let (Some(sprt), Some((first, second))) = (&summary.sprt, first_two(summary)) else {
            return None;
        };
        let all_pairs = summary
            .matches
            .iter()
            .find(|m| m.first == first && m.second == second)
            .map_or(0, |m| m.pentanomial.pairs());
        Some(SprtPath {
            config: sprt.status.config,
            tracker: PairTracker::new(first, second),
            pairs: 0,
            path: vec![(0.0, 0.0)],
            marks: (all_pairs > SPRT_POINTS).then(|| checkpoints(len, SPRT_POINTS as usize).into()),
        })
    }

    fn add(&mut self, i: usize, g: &GameStats) {
        self.tracker.add(g);
        let penta = self.tracker.pentanomial();
        if penta.pairs() == self.pairs {
            return;
        }
        self.pairs = penta.pairs();
        if let Some(marks) = self.marks.as_mut() {
            if marks.front().is_none_or(|&m| i < m) {
                return;
            }
            while marks.front().is_some_and(|&m| m <= i) {
                marks.pop_front();
            }
        }
        self.path
            .push(((i + 1) as f64, self.config.llr_pentanomial(&penta)));
    }
}

fn sprt_svg(path: Option<&SprtPath>, summary: &Summary) -> String {
    let (Some(sprt), Some(path)) = (&summary.sprt, path) else {
        return "<p class=\"note\">No SPRT in this run.</p>".into();
    };
    let status = &sprt.status;
    let config = status.config;
    let chart = LineChart {
        x_label: "games (in the order they finished)".into(),
        y_label: "LLR".into(),
        series: vec![Series {
            name: format!("{} [{}, {}]", config.model.name(), config.elo0, config.elo1),
            points: path.path.clone(),
            band: vec![],
        }],
        rules: vec![
            (status.upper, format!("H1 {:.2}", status.upper)),
            (status.lower, format!("H0 {:.2}", status.lower)),
        ],
    };
    format!(
        "{}\n<pre>{}</pre>",
        chart.svg("SPRT log-likelihood ratio"),
        escape(&sprt.text())
    )
}

fn margins_svg(bins: BTreeMap<i64, u64>, label: &str) -> String {
    let bins: Vec<(i64, u64)> = bins.into_iter().collect();
    histogram_svg(
        "Final stone margins",
        &bins,
        &format!("final margin ({label})"),
        "games",
    )
}

fn engines_html(summary: &Summary) -> String {
    let mut out = super::diagnostics::ENGINES.html(&summary.engines);
    out.push_str("<p>Games by ending: ");
    let ends: Vec<String> = summary
        .terminations
        .iter()
        .map(|(k, n)| format!("{} {n}", escape(k)))
        .collect();
    out.push_str(&ends.join(", "));
    out.push_str(".</p>");
    out
}

/// One game's row of the list: `finished` is its place in the order the games finished, 0-based.
fn game_row(finished: usize, g: &GameStats) -> String {
    let result = match g.outcome {
        Outcome::Draw => "&frac12;-&frac12;",
        decided => decided.pgn(),
    };
    format!(
        "<tr data-game=\"{}\"><td>{}</td><td>{}</td><td>{}</td><td class=\"name\">{}</td><td class=\"name\">{}</td><td>{result}</td><td>{}&ndash;{}</td><td>{}</td><td class=\"name\">{}</td></tr>\n",
        g.game,
        g.game,
        finished + 1,
        g.pair,
        escape(&g.south),
        escape(&g.north),
        g.south_total,
        g.north_total,
        g.plies,
        escape(&g.termination)
    )
}

fn games_html(list: Window<String>) -> String {
    let mut out = String::from(
        "<div class=\"scroll\"><table>\n<tr><th>#</th><th>Finished</th><th>Pair</th><th class=\"name\">South</th><th class=\"name\">North</th><th>Result</th><th>Totals</th><th>Plies</th><th class=\"name\">Ending</th></tr>\n",
    );
    // In game order, by the number the viewer and every other page give the game, with the
    // place each finished in (the order the charts replay); a long run's first and last games.
    let (rows, left_out) = list.into_sorted();
    let half = rows.len() / 2;
    for (k, (_, _, row)) in rows.iter().enumerate() {
        if left_out > 0 && k == half {
            let _ = writeln!(
                out,
                "<tr class=\"omitted\"><td colspan=\"9\" class=\"name\">{left_out} more games, not listed here (the page lists the first and the last {half} by number): the records file holds them all (otau-arena view shows each)</td></tr>"
            );
        }
        out.push_str(row);
    }
    out.push_str("</table></div>");
    out
}

#[cfg(test)]
mod tests;
