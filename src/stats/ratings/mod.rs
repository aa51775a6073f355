//! Ratings of many players from all their games: a joint maximum-likelihood fit of a
//! Bradley-Terry model with draws and a first-player advantage, as BayesElo fits it (Ordo's
//! table layout).
//!
//! The model (Rao-Kupper on the Elo scale, BayesElo's): with `F(x) = 1 / (1 + 10^(-x/400))`, a
//! game of South `i` against North `j` with `x = r_i - r_j + a` is
//! - a South win with probability `F(x - d)`,
//! - a North win with probability `F(-x - d)`,
//! - a draw otherwise,
//!
//! where `a` is the first-player advantage and `d >= 0` the draw parameter ("drawelo"). The
//! log-likelihood is concave in `(r, a, d)` (it is a sum of log-sum-exp terms in the exponents),
//! so Newton's method with a backtracking line search finds the one maximum. Each Newton step is
//! solved by conjugate gradients on the Hessian, which is as sparse as the pairings (who met
//! whom): a step costs passes over the pairings, so a field of 10,000 players fits in seconds
//! where a dense solve would take the cube of the players. Ratings are identified up to a common
//! shift: they are reported with mean 0.
//!
//! Raw model Elo is steeper than the Elo users read off a score when draws are common, so, like
//! BayesElo, ratings and the advantage are reported multiplied by `4·F(d)·(1 - F(d))`, the
//! factor that gives the model's expected-score curve the logistic slope at equal strength.
//! Intervals come from the inverse of the observed information (the Laplace approximation):
//! `±1.96·sigma`; past [`FULL_COVARIANCE_PLAYERS`] players each rating's from its own
//! information with the others held (the table says so). A prior of a few virtual draws per player (spread over its opponents and both
//! colours) keeps a player that won or lost every game at a finite rating.

use std::collections::HashSet;

use serde::{Deserialize, Serialize};

use super::elo::{count_sum, figure, normal_cdf, Wdl, Z95};
use super::game::GameStats;
use super::table::{Column, Layout, PrintedTable};

mod fit;
mod pairings;

use fit::{fit_joint, Spread};
pub use pairings::Pairings;
use pairings::{add_prior, both_colours, Cell};

const LN10_400: f64 = std::f64::consts::LN_10 / 400.0;

/// Fit settings.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingOptions {
    /// BayesElo's prior: virtual draws per player in total (2, BayesElo's default), spread over
    /// its opponents in proportion to the games played; 0 for the plain maximum-likelihood fit
    /// (as Ordo).
    pub prior_draws: f64,
}

impl RatingOptions {
    /// The prior as the table states it.
    pub fn describe(&self) -> String {
        if self.prior_draws > 0.0 {
            format!(
                "{} virtual draws per player{}",
                self.prior_draws,
                if self.prior_draws == 2.0 {
                    " (BayesElo's default)"
                } else {
                    " (BayesElo's prior)"
                }
            )
        } else {
            "none (plain maximum likelihood, as Ordo)".into()
        }
    }
}

impl Default for RatingOptions {
    fn default() -> Self {
        RatingOptions { prior_draws: 2.0 }
    }
}

/// Why no ratings could be fitted.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum RatingError {
    /// No rated game (games of a player against itself are not rated).
    NoGames,
    /// Some players never met any of the others, directly or through third players: their
    /// ratings cannot be compared. Each group is listed.
    Disconnected(Vec<Vec<String>>),
    /// The fit did not converge to finite values (only possible without a prior).
    Diverged,
}

impl std::fmt::Display for RatingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            RatingError::NoGames => write!(f, "no games to rate"),
            RatingError::Disconnected(groups) => write!(f, "{}", describe_groups(groups)),
            RatingError::Diverged => write!(
                f,
                "the ratings have no finite maximum-likelihood values (a player won or lost \
                 every game, or results separate the players): rate with a prior \
                 (--rating-prior 2, BayesElo's default)"
            ),
        }
    }
}

impl std::error::Error for RatingError {}

/// Separate groups in one short line whatever their number: how many, the largest, the sizes
/// of the others and a few names of the next largest (names shortened).
fn describe_groups(groups: &[Vec<String>]) -> String {
    let players: usize = groups.iter().map(Vec::len).sum();
    let mut by_size: Vec<&Vec<String>> = groups.iter().collect();
    by_size.sort_by_key(|g| std::cmp::Reverse(g.len()));
    let mut out = format!(
        "the players form {} groups that never met, directly or through other players, so \
         their ratings cannot be compared: the largest group has {} of the {players} players",
        groups.len(),
        by_size[0].len()
    );
    if let Some(next) = by_size.get(1) {
        let (smallest, others) = (by_size[by_size.len() - 1].len(), by_size.len() - 1);
        if others == 1 {
            out.push_str(&format!(", the other {}", next.len()));
        } else if smallest == next.len() {
            out.push_str(&format!(", the other {others} groups {smallest} each"));
        } else {
            out.push_str(&format!(
                ", the other {others} groups {smallest} to {}",
                next.len()
            ));
        }
        const SHOWN: usize = 4;
        let mut names: Vec<String> = next
            .iter()
            .take(SHOWN)
            .map(|n| crate::games::notation::shorten(n))
            .collect();
        if next.len() > SHOWN {
            names.push(format!("and {} more", next.len() - SHOWN));
        }
        out.push_str(&format!(
            " (the {} group: {})",
            if others == 1 { "other" } else { "next largest" },
            names.join(", ")
        ));
    }
    out
}

/// One player's line of the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerRating {
    /// The player's name.
    pub name: String,
    /// Rating relative to the pool mean (0), in logistic-equivalent Elo.
    #[serde(deserialize_with = "crate::stats::f64_or_null")]
    pub rating: f64,
    /// Half-width of the 95% interval of `rating` (relative to the pool mean).
    #[serde(deserialize_with = "crate::stats::f64_or_null")]
    pub error: f64,
    /// Real games (no virtual draws).
    pub wdl: Wdl,
    /// Mean rating of the opponents, game-weighted.
    #[serde(deserialize_with = "crate::stats::f64_or_null")]
    pub opponents: f64,
    /// Confidence (0..1) that this player is stronger than the next one down the table; `None`
    /// for the last.
    pub cfs_next: Option<f64>,
}

/// The fitted ratings of every player and the pool-wide parameters.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RatingTable {
    /// Best first.
    pub players: Vec<PlayerRating>,
    /// First-player (South) advantage in logistic-equivalent Elo, and its 95% half-width.
    #[serde(deserialize_with = "crate::stats::f64_or_null")]
    pub first_player_advantage: f64,
    /// Half-width of the 95% interval of `first_player_advantage`.
    #[serde(deserialize_with = "crate::stats::f64_or_null")]
    pub first_player_advantage_error: f64,
    /// Share of decisive games South wins between equal players, 0..1.
    #[serde(deserialize_with = "crate::stats::f64_or_null")]
    pub first_player_decisive_share: f64,
    /// Draw rate between equal players (with the first-player advantage), 0..1.
    #[serde(deserialize_with = "crate::stats::f64_or_null")]
    pub draw_rate_equal: f64,
    /// The raw model parameters (BayesElo units): draw parameter and advantage.
    #[serde(deserialize_with = "crate::stats::f64_or_null")]
    pub draw_elo: f64,
    /// The first-player advantage in the model's raw units (BayesElo).
    #[serde(deserialize_with = "crate::stats::f64_or_null")]
    pub advantage_elo_raw: f64,
    /// The factor raw model Elo is multiplied by for display.
    #[serde(deserialize_with = "crate::stats::f64_or_null")]
    pub scale: f64,
    /// Real games rated.
    pub games: u64,
    /// The prior the fit used ([`RatingOptions::prior_draws`]).
    #[serde(default)]
    pub prior_draws: f64,
    /// The games could not determine the draw parameter (separable results): it was held at
    /// the share of draws between equals instead of fitted.
    #[serde(default)]
    pub draw_held: bool,
    /// A field past [`FULL_COVARIANCE_PLAYERS`]: each error is the rating's own, with the other
    /// ratings held at their values (and CFS from each pair's own information).
    #[serde(default)]
    pub errors_held: bool,
}

impl RatingTable {
    /// A table like Ordo's.
    pub fn text(&self) -> String {
        let mut out = PLAYERS.text(&self.players);
        out.push_str(&format!(
            "\nFirst-player (South) advantage = {} +/- {} (South takes {} % of decisive games between equals)\n",
            figure(self.first_player_advantage, 1),
            figure(self.first_player_advantage_error, 1),
            figure(100.0 * self.first_player_decisive_share, 1)
        ));
        out.push_str(&format!(
            "Draw rate (equal opponents) = {} %\n",
            figure(100.0 * self.draw_rate_equal, 1)
        ));
        if self.draw_held {
            out.push_str(
                "Draw parameter held at the share of draws: the games cannot determine it \
                 (no decisive game went against the rating order)\n",
            );
        }
        if self.errors_held {
            out.push_str(&format!(
                "Errors of {} players: each rating's own, with the others held at their values \
                 (the full covariance is computed up to {FULL_COVARIANCE_PLAYERS} players)\n",
                self.players.len()
            ));
        }
        out.push_str(&format!(
            "Prior: {}\n",
            RatingOptions {
                prior_draws: self.prior_draws
            }
            .describe()
        ));
        out
    }
}

/// The players' table, best first, as the text (Ordo's headings) and the report print it.
pub const PLAYERS: PrintedTable<PlayerRating> = PrintedTable {
    columns: &[
        Column {
            text: "#",
            html: "#",
            layout: Layout::Right(4),
            gap: "",
            cell: |rank, _| Some((rank + 1).to_string()),
        },
        Column {
            text: "PLAYER",
            html: "Player",
            layout: Layout::Name { min: 6 },
            gap: " ",
            cell: |_, p| Some(p.name.clone()),
        },
        Column {
            text: "RATING",
            html: "Rating",
            layout: Layout::Right(7),
            gap: " : ",
            cell: |_, p| Some(figure(p.rating, 1)),
        },
        Column {
            text: "ERROR",
            html: "&plusmn; 95%",
            layout: Layout::Right(6),
            gap: " ",
            cell: |_, p| Some(figure(p.error, 1)),
        },
        Column {
            text: "POINTS",
            html: "Points",
            layout: Layout::Right(8),
            gap: " ",
            cell: |_, p| Some(format!("{:.1}", p.wdl.points())),
        },
        Column {
            text: "PLAYED",
            html: "Games",
            layout: Layout::Right(6),
            gap: " ",
            cell: |_, p| Some(p.wdl.games().to_string()),
        },
        Column {
            text: "(%)",
            html: "Score %",
            layout: Layout::Right(6),
            gap: " ",
            cell: |_, p| Some(figure(100.0 * p.wdl.score(), 1)),
        },
        Column {
            text: "W",
            html: "W",
            layout: Layout::Right(6),
            gap: " ",
            cell: |_, p| Some(p.wdl.wins.to_string()),
        },
        Column {
            text: "D",
            html: "D",
            layout: Layout::Right(6),
            gap: " ",
            cell: |_, p| Some(p.wdl.draws.to_string()),
        },
        Column {
            text: "L",
            html: "L",
            layout: Layout::Right(6),
            gap: " ",
            cell: |_, p| Some(p.wdl.losses.to_string()),
        },
        Column {
            text: "D(%)",
            html: "Draw %",
            layout: Layout::Right(6),
            gap: " ",
            cell: |_, p| Some(figure(100.0 * p.wdl.draw_ratio(), 1)),
        },
        Column {
            text: "OPPO",
            html: "Opponents",
            layout: Layout::Right(7),
            gap: " ",
            cell: |_, p| Some(figure(p.opponents, 1)),
        },
        Column {
            text: "CFS(%)",
            html: "CFS next %",
            layout: Layout::Right(6),
            gap: " ",
            cell: |_, p| p.cfs_next.map(|c| figure(100.0 * c, 0)),
        },
    ],
    missing: "---",
};

/// Fields of up to this many players get the full covariance of the fit (a dense inverse, whose
/// cost grows as the cube of the players: about 0.1 s here); larger ones get each player's
/// error with the other parameters held at their fitted values ([`Spread::Conditional`]).
pub const FULL_COVARIANCE_PLAYERS: usize = 400;

/// Fits the ratings of the players named in `players` (other names in the games are added in
/// order of appearance; players with no games are left out).
pub fn fit_ratings(
    games: &[GameStats],
    players: &[String],
    options: &RatingOptions,
) -> Result<RatingTable, RatingError> {
    fit_pairings(&rating_input(games, players), options, &mut |_| {})
}

/// The fit's input from a list of games: the players of `players` that met another one, in that
/// order (others in order of appearance), then every game in the order given.
pub fn rating_input(games: &[GameStats], players: &[String]) -> Pairings {
    let mut pairings = Pairings::new();
    let present: HashSet<&str> = games
        .iter()
        .filter(|g| g.south != g.north)
        .flat_map(|g| [g.south.as_str(), g.north.as_str()])
        .collect();
    for p in players {
        if present.contains(p.as_str()) {
            pairings.player(p);
        }
    }
    for g in games {
        pairings.add(&g.south, &g.north, g.outcome);
    }
    pairings
}

/// Fits the ratings of the aggregated games. `progress` hears of each step of a long fit (one
/// line each), for a command to show.
pub fn fit_pairings(
    pairings: &Pairings,
    options: &RatingOptions,
    progress: &mut dyn FnMut(&str),
) -> Result<RatingTable, RatingError> {
    fit_pairings_with(pairings, options, FULL_COVARIANCE_PLAYERS, progress)
}

/// [`fit_pairings`] with the full covariance computed up to `full_covariance_players` players
/// (tests compare the two kinds of errors on one field).
fn fit_pairings_with(
    pairings: &Pairings,
    options: &RatingOptions,
    full_covariance_players: usize,
    progress: &mut dyn FnMut(&str),
) -> Result<RatingTable, RatingError> {
    let names = &pairings.names;
    let counts = &pairings.counts;
    let n = names.len();
    if counts.is_empty() {
        return Err(RatingError::NoGames);
    }
    let groups = pairings.groups();
    if groups.len() > 1 {
        return Err(RatingError::Disconnected(
            groups
                .into_iter()
                .map(|g| g.into_iter().map(|i| names[i].clone()).collect())
                .collect(),
        ));
    }

    let mut cells: Vec<Cell> = counts
        .iter()
        .map(|&(i, j, c)| Cell {
            south: i,
            north: j,
            wins: c[0] as f64,
            draws: c[1] as f64,
            losses: c[2] as f64,
        })
        .collect();
    if options.prior_draws > 0.0 {
        both_colours(&mut cells);
        add_prior(&mut cells, n, options.prior_draws);
    }

    let full = n <= full_covariance_players;
    let (fit, draw_held) = fit_joint(&cells, n, full, progress)?;
    let (r, a, d) = (&fit.params[..n], fit.params[n], fit.params[n + 1]);
    let f = |x: f64| 1.0 / (1.0 + 10f64.powf(-x / 400.0));
    let scale = 4.0 * f(d) * (1.0 - f(d));
    let spread = &fit.spread;
    // NaN stays NaN (only draws: nothing measured); `max` alone would turn it into 0.
    let sd = |k: usize| {
        let v = spread.variance(k);
        if v.is_nan() {
            f64::NAN
        } else {
            v.max(0.0).sqrt()
        }
    };

    // Real-game records and opponents.
    let mut wdl = vec![Wdl::default(); n];
    let mut opp_sum = vec![0.0; n];
    for &(i, j, c) in counts {
        let games_ij = count_sum(&c) as f64;
        wdl[i].merge(&Wdl {
            wins: c[0],
            draws: c[1],
            losses: c[2],
        });
        wdl[j].merge(&Wdl {
            wins: c[2],
            draws: c[1],
            losses: c[0],
        });
        opp_sum[i] += games_ij * r[j] * scale;
        opp_sum[j] += games_ij * r[i] * scale;
    }
    let mut order: Vec<usize> = (0..n).collect();
    order.sort_by(|&x, &y| r[y].total_cmp(&r[x]).then(x.cmp(&y)));
    let players = order
        .iter()
        .enumerate()
        .map(|(rank, &i)| {
            let cfs_next = order.get(rank + 1).map(|&j| {
                let var = spread.difference_variance(i, j);
                if var > 0.0 {
                    normal_cdf((r[i] - r[j]) / var.sqrt())
                } else if var.is_nan() {
                    f64::NAN // No spread to measure (only draws): undefined.
                } else {
                    0.5
                }
            });
            PlayerRating {
                name: names[i].clone(),
                rating: r[i] * scale,
                error: Z95 * sd(i) * scale,
                wdl: wdl[i],
                opponents: opp_sum[i] / wdl[i].games() as f64,
                cfs_next,
            }
        })
        .collect();
    let (pw, pl) = (f(a - d), f(-a - d));
    Ok(RatingTable {
        players,
        first_player_advantage: a * scale,
        first_player_advantage_error: Z95 * sd(n) * scale,
        first_player_decisive_share: pw / (pw + pl),
        draw_rate_equal: (1.0 - pw - pl).max(0.0),
        draw_elo: d,
        advantage_elo_raw: a,
        scale,
        games: pairings.games(),
        prior_draws: options.prior_draws,
        draw_held,
        errors_held: matches!(spread, Spread::Conditional { .. }),
    })
}

#[cfg(test)]
mod tests;
