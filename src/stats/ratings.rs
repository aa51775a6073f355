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
//! so Newton's method with a backtracking line search finds the one maximum. Ratings are
//! identified up to a common shift: they are reported with mean 0.
//!
//! Raw model Elo is steeper than the Elo users read off a score when draws are common, so, like
//! BayesElo, ratings and the advantage are reported multiplied by `4·F(d)·(1 - F(d))`, the
//! factor that gives the model's expected-score curve the logistic slope at equal strength.
//! Intervals come from the inverse of the observed information (the Laplace approximation):
//! `±1.96·sigma`. A prior of a few virtual draws per player (spread over its opponents and both
//! colours) keeps a player that won or lost every game at a finite rating.

use serde::{Deserialize, Serialize};

use super::elo::{figure, normal_cdf, Wdl, Z95};
use super::game::GameStats;
use super::table::{Column, Layout, PrintedTable};
use crate::games::{Outcome, Side};

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
            RatingError::Disconnected(groups) => {
                write!(f, "players form separate groups that never met:")?;
                for g in groups {
                    write!(f, " [{}]", g.join(", "))?;
                }
                Ok(())
            }
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

/// One player's line of the table.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct PlayerRating {
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

/// Game counts of South `i` against North `j`, real games plus virtual prior draws.
#[derive(Clone, Copy, Default)]
struct Cell {
    south: usize,
    north: usize,
    wins: f64,
    draws: f64,
    losses: f64,
}

/// Fits the ratings of the players named in `players` (other names in the games are added in
/// order of appearance; players with no games are left out).
pub fn fit_ratings(
    games: &[GameStats],
    players: &[String],
    options: &RatingOptions,
) -> Result<RatingTable, RatingError> {
    let mut names: Vec<String> = Vec::new();
    let index_of = |names: &mut Vec<String>, name: &str| -> usize {
        names.iter().position(|n| n == name).unwrap_or_else(|| {
            names.push(name.to_string());
            names.len() - 1
        })
    };
    for p in players {
        if games.iter().any(|g| g.south == *p || g.north == *p) {
            index_of(&mut names, p);
        }
    }
    let mut counts = vec![[0u64; 3]; 0];
    let mut pairs: Vec<(usize, usize)> = Vec::new();
    for g in games {
        let i = index_of(&mut names, &g.south);
        let j = index_of(&mut names, &g.north);
        if i == j {
            continue; // A player against itself carries no information about ratings.
        }
        let k = match pairs.iter().position(|&p| p == (i, j)) {
            Some(k) => k,
            None => {
                pairs.push((i, j));
                counts.push([0; 3]);
                pairs.len() - 1
            }
        };
        match g.outcome {
            Outcome::Win(Side::South) => counts[k][0] += 1,
            Outcome::Draw => counts[k][1] += 1,
            Outcome::Win(Side::North) => counts[k][2] += 1,
        }
    }
    let n = names.len();
    if pairs.is_empty() {
        return Err(RatingError::NoGames);
    }
    check_connected(&names, &pairs)?;

    let mut cells: Vec<Cell> = pairs
        .iter()
        .zip(&counts)
        .map(|(&(i, j), c)| Cell {
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

    let (fit, draw_held) = fit_joint(&cells, n)?;
    let (r, a, d) = (&fit.params[..n], fit.params[n], fit.params[n + 1]);
    let f = |x: f64| 1.0 / (1.0 + 10f64.powf(-x / 400.0));
    let scale = 4.0 * f(d) * (1.0 - f(d));
    let cov = &fit.covariance;
    // NaN stays NaN (only draws: nothing measured); `max` alone would turn it into 0.
    let sd = |k: usize| {
        if cov[k][k].is_nan() {
            f64::NAN
        } else {
            cov[k][k].max(0.0).sqrt()
        }
    };

    // Real-game records and opponents.
    let mut wdl = vec![Wdl::default(); n];
    let mut opp_sum = vec![0.0; n];
    for (&(i, j), c) in pairs.iter().zip(&counts) {
        let games_ij = (c[0] + c[1] + c[2]) as f64;
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
                let var = cov[i][i] + cov[j][j] - 2.0 * cov[i][j];
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
        games: counts.iter().flatten().sum(),
        prior_draws: options.prior_draws,
        draw_held,
    })
}

/// BayesElo's prior (`CCondensedResults::AddPrior`): each player gives `prior / 2` virtual draws,
/// spread over its opponents in proportion to the games it played against each and split evenly
/// between the two colours. A player also takes part in the virtual draws its opponents give, so
/// in a balanced pool each player has `prior` virtual draws in all (2 by default): in a round
/// robin half its own, half from its opponents; in a two-player match one per colour.
fn add_prior(cells: &mut [Cell], n: usize, prior: f64) {
    if prior <= 0.0 {
        return;
    }
    // Real games of each player, and of each pair of players (both colours).
    let mut games = vec![0.0; n];
    let mut between: Vec<((usize, usize), f64)> = Vec::new();
    for c in cells.iter() {
        let g = c.wins + c.draws + c.losses;
        games[c.south] += g;
        games[c.north] += g;
        let key = (c.south.min(c.north), c.south.max(c.north));
        match between.iter_mut().find(|(k, _)| *k == key) {
            Some((_, total)) => *total += g,
            None => between.push((key, g)),
        }
    }
    // Each cell (one colour of one pair) gets a quarter of the prior of each of its two players,
    // weighted by the share of that player's games the pair's games are.
    for c in cells.iter_mut() {
        let key = (c.south.min(c.north), c.south.max(c.north));
        let g = between
            .iter()
            .find(|(k, _)| *k == key)
            .map_or(0.0, |(_, t)| *t);
        c.draws += prior / 4.0 * g * (1.0 / games[c.south] + 1.0 / games[c.north]);
    }
}

/// Adds the empty colour of every pair that met with one colour only, so the prior reaches both.
fn both_colours(cells: &mut Vec<Cell>) {
    let missing: Vec<(usize, usize)> = cells
        .iter()
        .map(|c| (c.north, c.south))
        .filter(|&(s, t)| !cells.iter().any(|c| c.south == s && c.north == t))
        .collect();
    for (south, north) in missing {
        cells.push(Cell {
            south,
            north,
            ..Cell::default()
        });
    }
}

fn check_connected(names: &[String], pairs: &[(usize, usize)]) -> Result<(), RatingError> {
    let n = names.len();
    let mut group: Vec<usize> = (0..n).collect();
    fn root(group: &mut [usize], mut x: usize) -> usize {
        while group[x] != x {
            group[x] = group[group[x]];
            x = group[x];
        }
        x
    }
    for &(i, j) in pairs {
        let (a, b) = (root(&mut group, i), root(&mut group, j));
        group[a] = b;
    }
    let mut groups: Vec<(usize, Vec<String>)> = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let g = root(&mut group, i);
        match groups.iter_mut().find(|(r, _)| *r == g) {
            Some((_, members)) => members.push(name.clone()),
            None => groups.push((g, vec![name.clone()])),
        }
    }
    if groups.len() > 1 {
        return Err(RatingError::Disconnected(
            groups.into_iter().map(|(_, m)| m).collect(),
        ));
    }
    Ok(())
}

struct Fit {
    /// `r_0..r_{n-1}, a, d` in raw Elo.
    params: Vec<f64>,
    /// Covariance of the parameters, ratings taken relative to their mean.
    covariance: Vec<Vec<f64>>,
}

fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// Log-likelihood, and with `derivatives` its gradient and Hessian, in raw Elo parameters.
/// With `fit_draws` false the draw parameter is held where it is (0 when there are no draws to
/// fit it from).
fn evaluate(
    cells: &[Cell],
    params: &[f64],
    n: usize,
    fit_draws: bool,
    derivatives: bool,
) -> (f64, Vec<f64>, Vec<Vec<f64>>) {
    let m = n + 2;
    let mut ll = 0.0;
    let mut grad = vec![0.0; if derivatives { m } else { 0 }];
    let mut hess =
        vec![vec![0.0; if derivatives { m } else { 0 }]; if derivatives { m } else { 0 }];
    let t = LN10_400 * params[n + 1];
    for c in cells {
        let u = LN10_400 * (params[c.south] - params[c.north] + params[n]);
        // ln P(South win) = ln s(u - t), ln P(North win) = ln s(-u - t),
        // ln P(draw) = ln(e^2t - 1) + u - ln(e^u + e^t) - ln(1 + e^(t+u)).
        let (sw, sl) = (sigmoid(u - t), sigmoid(-u - t));
        let log_sigmoid = |z: f64| -> f64 {
            if z > 0.0 {
                -(-z).exp().ln_1p()
            } else {
                z - z.exp().ln_1p()
            }
        };
        ll += c.wins * log_sigmoid(u - t) + c.losses * log_sigmoid(-u - t);
        if c.draws > 0.0 {
            // P(draw) = (e^2t - 1) s(u - t) s(-u - t), in logs to stay accurate for any u.
            ll += c.draws * ((2.0 * t).exp_m1().ln() + log_sigmoid(u - t) + log_sigmoid(-u - t));
        }
        if !derivatives {
            continue;
        }
        let qw = sw * (1.0 - sw);
        let ql = sl * (1.0 - sl);
        let (mut g_u, mut g_t, mut h_uu, mut h_ut, mut h_tt) = (0.0, 0.0, 0.0, 0.0, 0.0);
        // South wins: d/du ln s(u - t) = 1 - sw, d/dt = -(1 - sw).
        g_u += c.wins * (1.0 - sw);
        g_t -= c.wins * (1.0 - sw);
        h_uu -= c.wins * qw;
        h_ut += c.wins * qw;
        h_tt -= c.wins * qw;
        // North wins: d/du ln s(-u - t) = -(1 - sl), d/dt = -(1 - sl).
        g_u -= c.losses * (1.0 - sl);
        g_t -= c.losses * (1.0 - sl);
        h_uu -= c.losses * ql;
        h_ut -= c.losses * ql;
        h_tt -= c.losses * ql;
        if c.draws > 0.0 {
            let e2t = (2.0 * t).exp();
            let em1 = (2.0 * t).exp_m1();
            g_u += c.draws * ((1.0 - sw) - (1.0 - sl));
            g_t += c.draws * (2.0 * e2t / em1 - (1.0 - sw) - (1.0 - sl));
            h_uu -= c.draws * (qw + ql);
            h_ut += c.draws * (qw - ql);
            h_tt -= c.draws * (qw + ql + 4.0 * e2t / (em1 * em1));
        }
        // Chain rule: u = k(r_i - r_j + a), t = k d.
        let k = LN10_400;
        let e_u = [(c.south, 1.0), (c.north, -1.0), (n, 1.0)];
        for &(x, sx) in &e_u {
            grad[x] += k * sx * g_u;
            for &(y, sy) in &e_u {
                hess[x][y] += k * k * sx * sy * h_uu;
            }
            if fit_draws {
                hess[x][n + 1] += k * k * sx * h_ut;
                hess[n + 1][x] += k * k * sx * h_ut;
            }
        }
        if fit_draws {
            grad[n + 1] += k * g_t;
            hess[n + 1][n + 1] += k * k * h_tt;
        }
    }
    if derivatives && !fit_draws {
        hess[n + 1][n + 1] = -1.0; // The fixed parameter: a decoupled dummy row.
    }
    (ll, grad, hess)
}

/// The joint fit. The draw parameter is fitted with the ratings, except when the games cannot
/// determine it: when no decisive game went against the order of the fitted ratings (a player
/// that won every game; more generally separable results), the likelihood keeps rising as the
/// ratings spread apart and the draw parameter grows with them, never reaching a maximum. The
/// fit is then repeated with the draw parameter held at the value the share of draws (virtual
/// ones included) gives between equal players, and the table says so; the prior's draws then
/// keep the ratings finite.
fn fit_joint(cells: &[Cell], n: usize) -> Result<(Fit, bool), RatingError> {
    match maximise(cells, n, false) {
        Err(RatingError::Diverged) if cells.iter().any(|c| c.draws > 0.0) => {
            maximise(cells, n, true).map(|fit| (fit, true))
        }
        other => other.map(|fit| (fit, false)),
    }
}

/// Newton's method with backtracking on the concave log-likelihood, ratings pinned to mean 0;
/// with `hold_draw` the draw parameter stays at its start value.
fn maximise(cells: &[Cell], n: usize, hold_draw: bool) -> Result<Fit, RatingError> {
    let m = n + 2;
    let (mut decisive, mut draws) = (0.0, 0.0);
    for c in cells {
        decisive += c.wins + c.losses;
        draws += c.draws;
    }
    let fit_draws = draws > 0.0 && !hold_draw;
    let mut params = vec![0.0; m];
    if decisive == 0.0 {
        // Only draws: every rating equal, the draw parameter unbounded. Nothing to measure.
        params[n + 1] = f64::INFINITY;
        return Ok(Fit {
            params,
            covariance: vec![vec![f64::NAN; m]; m],
        });
    }
    if draws > 0.0 {
        // Start from (or hold at) the draw rate of equal players: P(draw) = 2F(d) - 1.
        let rate = draws / (draws + decisive);
        params[n + 1] = (400.0 * ((1.0 + rate) / (1.0 - rate)).log10()).max(1.0);
    }
    // The shift direction (all ratings up by one) leaves the likelihood unchanged; adding
    // `lambda · v vᵀ` to the negated Hessian pins it without moving the optimum.
    let v: Vec<f64> = (0..m).map(|k| if k < n { 1.0 } else { 0.0 }).collect();
    let (mut ll, mut grad, mut hess) = evaluate(cells, &params, n, fit_draws, true);
    let mut converged = false;
    for _ in 0..200 {
        let lambda = (0..n).map(|k| -hess[k][k]).sum::<f64>() / n as f64;
        let a = negated_with_pin(&hess, &v, lambda);
        let Some(step) = solve(&a, &grad) else {
            return Err(RatingError::Diverged);
        };
        let mut size = 1.0;
        let mut accepted = false;
        for _ in 0..60 {
            let trial: Vec<f64> = params
                .iter()
                .zip(&step)
                .map(|(p, s)| p + size * s)
                .collect();
            if !fit_draws || trial[n + 1] > 0.0 {
                let (trial_ll, _, _) = evaluate(cells, &trial, n, fit_draws, false);
                if trial_ll.is_finite() && trial_ll >= ll - 1e-12 * ll.abs() {
                    params = trial;
                    accepted = true;
                    break;
                }
            }
            size *= 0.5;
        }
        let largest = step.iter().fold(0.0f64, |acc, s| acc.max((s * size).abs()));
        (ll, grad, hess) = evaluate(cells, &params, n, fit_draws, true);
        if !accepted || largest < 1e-9 {
            converged = true;
            break;
        }
    }
    if !converged || params.iter().any(|p| !p.is_finite()) {
        return Err(RatingError::Diverged);
    }
    // Mean 0 (the pinned steps keep it there; this removes rounding drift).
    let mean = params[..n].iter().sum::<f64>() / n as f64;
    params[..n].iter_mut().for_each(|r| *r -= mean);
    // Covariance: (A + lambda v vᵀ)^-1 = A⁺ + v vᵀ / (lambda |v|⁴) for A v = 0.
    let lambda = (0..n).map(|k| -hess[k][k]).sum::<f64>() / n as f64;
    let a = negated_with_pin(&hess, &v, lambda);
    let mut covariance = invert(&a).ok_or(RatingError::Diverged)?;
    for (x, row) in covariance.iter_mut().enumerate() {
        for (y, value) in row.iter_mut().enumerate() {
            *value -= v[x] * v[y] / (lambda * (n * n) as f64);
        }
    }
    if !fit_draws {
        covariance[n + 1] = vec![0.0; m];
        for row in covariance.iter_mut() {
            row[n + 1] = 0.0;
        }
    }
    Ok(Fit { params, covariance })
}

fn negated_with_pin(hess: &[Vec<f64>], v: &[f64], lambda: f64) -> Vec<Vec<f64>> {
    hess.iter()
        .enumerate()
        .map(|(x, row)| {
            row.iter()
                .enumerate()
                .map(|(y, h)| -h + lambda * v[x] * v[y])
                .collect()
        })
        .collect()
}

/// Solves `a · x = b` by Gaussian elimination with partial pivoting; `None` if singular.
fn solve(a: &[Vec<f64>], b: &[f64]) -> Option<Vec<f64>> {
    let m = b.len();
    let mut aug: Vec<Vec<f64>> = a
        .iter()
        .zip(b)
        .map(|(row, &bi)| {
            let mut r = row.clone();
            r.push(bi);
            r
        })
        .collect();
    eliminate(&mut aug, m)?;
    Some(aug.iter().map(|r| r[m]).collect())
}

fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
    let m = a.len();
    let mut aug: Vec<Vec<f64>> = a
        .iter()
        .enumerate()
        .map(|(x, row)| {
            let mut r = row.clone();
            r.extend((0..m).map(|y| if x == y { 1.0 } else { 0.0 }));
            r
        })
        .collect();
    eliminate(&mut aug, m)?;
    Some(aug.into_iter().map(|r| r[m..].to_vec()).collect())
}

/// Gauss-Jordan elimination of the left `m` columns to the identity.
fn eliminate(aug: &mut [Vec<f64>], m: usize) -> Option<()> {
    let scale = aug
        .iter()
        .flat_map(|r| r[..m].iter())
        .fold(0.0f64, |acc, x| acc.max(x.abs()));
    for col in 0..m {
        let pivot = (col..m).max_by(|&x, &y| aug[x][col].abs().total_cmp(&aug[y][col].abs()))?;
        let magnitude = aug[pivot][col].abs();
        if magnitude <= 1e-14 * scale || magnitude.is_nan() {
            return None;
        }
        aug.swap(col, pivot);
        let p = aug[col][col];
        aug[col].iter_mut().for_each(|x| *x /= p);
        let pivot_row = aug[col].clone();
        for (row, r) in aug.iter_mut().enumerate() {
            if row != col && r[col] != 0.0 {
                let factor = r[col];
                r.iter_mut()
                    .zip(&pivot_row)
                    .for_each(|(x, pv)| *x -= factor * pv);
            }
        }
    }
    Some(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::game::MoveSummary;
    use rand::{Rng, SeedableRng};
    use rand_chacha::ChaCha8Rng;

    fn game(south: &str, north: &str, outcome: Outcome) -> GameStats {
        GameStats {
            pair: 0,
            game: 0,
            south: south.into(),
            north: north.into(),
            outcome,
            termination: "rules".into(),
            plies: 1,
            south_total: 0,
            north_total: 0,
            south_moves: MoveSummary::default(),
            north_moves: MoveSummary::default(),
        }
    }

    fn games(south: &str, north: &str, wins: usize, draws: usize, losses: usize) -> Vec<GameStats> {
        let mut out = Vec::new();
        out.extend((0..wins).map(|_| game(south, north, Outcome::Win(Side::South))));
        out.extend((0..draws).map(|_| game(south, north, Outcome::Draw)));
        out.extend((0..losses).map(|_| game(south, north, Outcome::Win(Side::North))));
        out
    }

    const NO_PRIOR: RatingOptions = RatingOptions { prior_draws: 0.0 };

    fn logit_elo(p: f64) -> f64 {
        400.0 * (p / (1.0 - p)).log10()
    }

    /// No draws: the model is plain Bradley-Terry with an advantage, and with the two colour
    /// settings it is saturated: F(D + a) = 0.75 (A as South), F(D - a) = 0.5 (A as North), so
    /// D = a = L(0.75) / 2 = 95.42 with L the Elo of a score.
    #[test]
    fn two_players_without_draws_by_hand() {
        let mut all = games("A", "B", 75, 0, 25);
        all.extend(games("B", "A", 50, 0, 50));
        let t = fit_ratings(&all, &[], &NO_PRIOR).unwrap();
        let half = logit_elo(0.75) / 2.0;
        assert_eq!(t.scale, 1.0);
        assert_eq!(t.players[0].name, "A");
        assert!((t.players[0].rating - half / 2.0).abs() < 1e-6, "{t:?}");
        assert!((t.players[1].rating + half / 2.0).abs() < 1e-6);
        assert!((t.first_player_advantage - half).abs() < 1e-6);
        assert_eq!(t.draw_rate_equal, 0.0);
        assert_eq!(
            t.players[0].wdl,
            Wdl {
                wins: 125,
                draws: 0,
                losses: 75
            }
        );
        // Fisher information of (D, a), k = ln 10 / 400: A as South contributes
        // 100·k²·0.75·0.25 along (1, 1), A as North 100·k²·0.5·0.5 along (-1, 1), so
        // I = 100k²·[[0.4375, -0.0625], [-0.0625, 0.4375]] and var D = 0.4375 / det.
        let k = LN10_400;
        let det = 0.4375f64 * 0.4375 - 0.0625 * 0.0625;
        let var_d = 0.4375 / det / (100.0 * k * k);
        // Each rating is ±D/2, so its sigma is half of D's.
        let expected = Z95 * var_d.sqrt() / 2.0;
        assert!(
            (t.players[0].error - expected).abs() < 1e-6 * expected,
            "{} {expected}",
            t.players[0].error
        );
    }

    /// Equal players, no colour bias, 40% draws: d solves 2F(d) - 1 = 0.4.
    #[test]
    fn draw_parameter_by_hand() {
        let mut all = games("A", "B", 30, 40, 30);
        all.extend(games("B", "A", 30, 40, 30));
        let t = fit_ratings(&all, &[], &NO_PRIOR).unwrap();
        assert!(
            (t.draw_elo - 400.0 * (1.4f64 / 0.6).log10()).abs() < 1e-6,
            "{t:?}"
        );
        assert!(t.players[0].rating.abs() < 1e-9);
        assert!(t.first_player_advantage.abs() < 1e-9);
        assert!((t.draw_rate_equal - 0.4).abs() < 1e-9);
        assert!((t.first_player_decisive_share - 0.5).abs() < 1e-9);
        assert!((t.players[0].cfs_next.unwrap() - 0.5).abs() < 1e-9);
    }

    /// Games drawn from the model itself with known ratings: the fit recovers them, and the
    /// 95% intervals hold the truth about 95% of the time over many seeds.
    #[test]
    fn recovers_known_ratings_from_simulated_games() {
        let truth = [-150.0, -30.0, 60.0, 120.0];
        let (advantage, draw) = (40.0, 120.0);
        let names = ["w", "x", "y", "z"].map(String::from);
        let f = |x: f64| 1.0 / (1.0 + 10f64.powf(-x / 400.0));
        let (mut inside, mut total) = (0, 0);
        for seed in 0..20 {
            let mut rng = ChaCha8Rng::seed_from_u64(seed);
            let mut all = Vec::new();
            for i in 0..4 {
                for j in 0..4 {
                    if i == j {
                        continue;
                    }
                    let x = truth[i] - truth[j] + advantage;
                    for _ in 0..250 {
                        let u: f64 = rng.gen();
                        let outcome = if u < f(x - draw) {
                            Outcome::Win(Side::South)
                        } else if u < f(x - draw) + f(-x - draw) {
                            Outcome::Win(Side::North)
                        } else {
                            Outcome::Draw
                        };
                        all.push(game(&names[i], &names[j], outcome));
                    }
                }
            }
            let t = fit_ratings(&all, &names, &NO_PRIOR).unwrap();
            assert_eq!(t.games, 3000);
            let order: Vec<&str> = t.players.iter().map(|p| p.name.as_str()).collect();
            assert_eq!(order, ["z", "y", "x", "w"], "seed {seed}");
            for p in &t.players {
                let i = names.iter().position(|n| *n == p.name).unwrap();
                let raw = p.rating / t.scale;
                let raw_error = p.error / t.scale;
                assert!(
                    (raw - truth[i]).abs() < 2.0 * raw_error,
                    "seed {seed}: {p:?}"
                );
                total += 1;
                inside += usize::from((raw - truth[i]).abs() <= raw_error);
            }
            let raw_adv = t.first_player_advantage / t.scale;
            assert!((raw_adv - advantage).abs() < 2.0 * t.first_player_advantage_error / t.scale);
            assert!(
                (t.draw_elo - draw).abs() < 15.0,
                "seed {seed}: {}",
                t.draw_elo
            );
        }
        let coverage = inside as f64 / total as f64;
        assert!((0.85..=1.0).contains(&coverage), "coverage {coverage}");
    }

    #[test]
    fn prior_keeps_a_perfect_score_finite() {
        let mut all = games("A", "B", 10, 0, 0);
        all.extend(games("B", "A", 0, 0, 10));
        all.extend(games("B", "C", 5, 0, 5));
        all.extend(games("C", "B", 5, 0, 5));
        let t = fit_ratings(&all, &[], &RatingOptions::default()).unwrap();
        let a = &t.players[0];
        assert_eq!(a.name, "A");
        assert!(a.rating.is_finite() && a.rating > 200.0, "{a:?}");
        assert!(a.error.is_finite());
        // Without the prior the rating of A is unbounded.
        assert_eq!(
            fit_ratings(&all, &[], &NO_PRIOR),
            Err(RatingError::Diverged)
        );
    }

    /// `tests/data/roundrobin-240.pgn` with BayesElo's default prior: within 1 Elo of the
    /// ratings BayesElo gives (`tests/data/ratings_reference.md`: L3 200, L2 65, L1 57,
    /// greedy -323); without the prior, within 1 of the plain maximum-likelihood fit given there
    /// (210.2, 70.4, 61.4, -342.0; advantage 94.1, draw rate 2.05 %) and of Ordo's ratings.
    #[test]
    fn round_robin_matches_bayeselo_and_ordo() {
        let text = include_str!("../../tests/data/roundrobin-240.pgn");
        let (all, unfinished) =
            crate::stats::game::from_pgn(&crate::pgn::parse(text).unwrap()).unwrap();
        assert_eq!((all.len(), unfinished), (240, 0));
        let rating =
            |t: &RatingTable, name: &str| t.players.iter().find(|p| p.name == name).unwrap().rating;
        let t = fit_ratings(&all, &[], &RatingOptions::default()).unwrap();
        for (name, bayeselo) in [
            ("L3", 200.0),
            ("L2", 65.0),
            ("L1", 57.0),
            ("greedy", -323.0),
        ] {
            let r = rating(&t, name);
            assert!(
                (r - bayeselo).abs() <= 1.0,
                "{name}: {r} vs BayesElo {bayeselo}\n{}",
                t.text()
            );
        }
        assert!(t
            .text()
            .contains("Prior: 2 virtual draws per player (BayesElo's default)"));
        let t = fit_ratings(&all, &[], &NO_PRIOR).unwrap();
        for (name, ml, ordo) in [
            ("L3", 210.2, 210.4),
            ("L2", 70.4, 70.4),
            ("L1", 61.4, 61.8),
            ("greedy", -342.0, -342.6),
        ] {
            let r = rating(&t, name);
            assert!(
                (r - ml).abs() <= 0.1,
                "{name}: {r} vs ML {ml}\n{}",
                t.text()
            );
            assert!((r - ordo).abs() <= 1.0, "{name}: {r} vs Ordo {ordo}");
        }
        assert!(
            (t.first_player_advantage - 94.1).abs() <= 0.1,
            "{}",
            t.text()
        );
        assert!(
            (100.0 * t.draw_rate_equal - 2.05).abs() <= 0.01,
            "{}",
            t.text()
        );
        assert!(t
            .text()
            .contains("Prior: none (plain maximum likelihood, as Ordo)"));
    }

    /// Two engines, one winning every game: the prior's virtual draws keep both ratings finite
    /// (BayesElo's prior: one virtual draw per colour between them).
    #[test]
    fn two_engine_perfect_score_has_a_table() {
        let mut all = games("A", "B", 20, 0, 0);
        all.extend(games("B", "A", 0, 0, 20));
        let t = fit_ratings(&all, &[], &RatingOptions::default()).unwrap();
        let (a, b) = (&t.players[0], &t.players[1]);
        assert_eq!((a.name.as_str(), b.name.as_str()), ("A", "B"));
        assert!(a.rating.is_finite() && a.rating > 200.0, "{}", t.text());
        assert!((a.rating + b.rating).abs() < 1e-6);
        assert!(a.error.is_finite() && a.error > 0.0);
        assert!(t.first_player_advantage.abs() < 1e-6, "{}", t.text());
        assert!(!t.text().contains("NaN"));
        assert_eq!(
            fit_ratings(&all, &[], &NO_PRIOR),
            Err(RatingError::Diverged)
        );
    }

    #[test]
    fn separate_groups_are_reported() {
        let mut all = games("A", "B", 3, 1, 2);
        all.extend(games("C", "D", 1, 1, 1));
        let err = fit_ratings(&all, &[], &RatingOptions::default()).unwrap_err();
        assert_eq!(
            err,
            RatingError::Disconnected(vec![
                vec!["A".to_string(), "B".to_string()],
                vec!["C".to_string(), "D".to_string()]
            ])
        );
        assert!(err.to_string().contains("[A, B] [C, D]"));
        assert_eq!(
            fit_ratings(&[], &[], &RatingOptions::default()),
            Err(RatingError::NoGames)
        );
    }

    #[test]
    fn only_draws_gives_equal_ratings() {
        let all = games("A", "B", 0, 5, 0);
        for options in [NO_PRIOR, RatingOptions::default()] {
            let t = fit_ratings(&all, &[], &options).unwrap();
            assert!(t.players.iter().all(|p| p.rating == 0.0));
            let text = t.text();
            assert!(
                text.contains("Draw rate (equal opponents) = 100.0 %"),
                "{text}"
            );
            // Degenerate figures by the convention: n/a, never NaN.
            assert!(!text.contains("NaN"), "{text}");
            assert!(text.contains("advantage = 0.0 +/- n/a"), "{text}");
            assert!(t.players.iter().all(|p| p.error.is_nan()), "{text}");
        }
    }

    #[test]
    fn table_text_looks_like_ordo() {
        let mut all = games("strong", "weak", 60, 20, 20);
        all.extend(games("weak", "strong", 20, 20, 60));
        all.extend(games("mid", "weak", 40, 20, 40));
        all.extend(games("weak", "mid", 30, 20, 50));
        let t = fit_ratings(&all, &[], &RatingOptions::default()).unwrap();
        let text = t.text();
        let lines: Vec<&str> = text.lines().collect();
        assert!(
            lines[0].contains("PLAYER")
                && lines[0].contains("RATING")
                && lines[0].contains("CFS(%)")
        );
        assert!(lines[1].trim_start().starts_with("1 strong"), "{text}");
        assert!(lines[3].trim_start().starts_with("3 weak"), "{text}");
        assert!(text.contains("First-player (South) advantage = "), "{text}");
        // Points and games are the real ones, not the virtual draws.
        assert_eq!(t.players[0].wdl.games(), 200);
        assert_eq!(t.games, 400);
    }
}
