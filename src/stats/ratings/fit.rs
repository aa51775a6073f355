//! The maximum-likelihood fit of the ratings model: the log-likelihood and its derivatives,
//! Newton steps solved by conjugate gradients on the sparse Hessian, and the fit's uncertainty
//! ([`Spread`]).

use std::collections::HashMap;

use super::pairings::{pair_key, Cell};
use super::{RatingError, LN10_400};

/// A fitted rating further than this (raw Elo) from an opponent it met, or a draw parameter past
/// it, means the likelihood has no maximum (odds of 10^25 to 1): the fit stops as diverged
/// instead of following the ratings to infinity.
pub(super) const DIVERGED_ELO: f64 = 10_000.0;

pub(super) struct Fit {
    /// `r_0..r_{n-1}, a, d` in raw Elo.
    pub(super) params: Vec<f64>,
    pub(super) spread: Spread,
}

/// The fit's uncertainty (the Laplace approximation: the inverse of the observed information,
/// ratings taken relative to their mean).
pub(super) enum Spread {
    /// Only draws: nothing measured.
    Unmeasured,
    /// The covariance of every parameter (fields up to [`super::FULL_COVARIANCE_PLAYERS`]).
    Full(Vec<Vec<f64>>),
    /// Larger fields: each rating's variance with every other parameter held at its fitted
    /// value (the inverse of its own information), and a pair's difference with the rest held
    /// (the inverse of the pair's 2x2 block); both understate the full figures a little, by the
    /// uncertainty of the opponents. The advantage's variance is exact (one sparse solve).
    Conditional {
        information: Vec<f64>,
        between: HashMap<(usize, usize), f64>,
        advantage: f64,
    },
}

impl Spread {
    /// The variance of parameter `k` (a rating, or `n` for the advantage).
    pub(super) fn variance(&self, k: usize) -> f64 {
        match self {
            Spread::Unmeasured => f64::NAN,
            Spread::Full(cov) => cov[k][k],
            Spread::Conditional {
                information,
                advantage,
                ..
            } => information.get(k).map_or(*advantage, |&info| 1.0 / info),
        }
    }

    /// The variance of the difference of ratings `i` and `j`.
    pub(super) fn difference_variance(&self, i: usize, j: usize) -> f64 {
        match self {
            Spread::Unmeasured => f64::NAN,
            Spread::Full(cov) => cov[i][i] + cov[j][j] - 2.0 * cov[i][j],
            Spread::Conditional {
                information,
                between,
                ..
            } => {
                let (a, b) = (information[i], information[j]);
                let w = between.get(&pair_key(i, j)).copied().unwrap_or(0.0);
                let det = a * b - w * w;
                if det > 0.0 {
                    (a + b - 2.0 * w) / det
                } else {
                    1.0 / a + 1.0 / b
                }
            }
        }
    }
}

pub(super) fn sigmoid(z: f64) -> f64 {
    1.0 / (1.0 + (-z).exp())
}

/// One cell's second derivatives of the log-likelihood in raw Elo: along
/// `u = r_south - r_north + a`, across to the draw parameter `d`, and along `d`.
#[derive(Clone, Copy, Default)]
pub(super) struct Curvature {
    uu: f64,
    ut: f64,
    tt: f64,
}

/// Log-likelihood, and with `derivatives` its gradient and each cell's curvature, in raw Elo
/// parameters. With `fit_draws` false the draw parameter is held where it is (0 when there are
/// no draws to fit it from). The Hessian is never formed: it is as sparse as the pairings.
pub(super) fn evaluate(
    cells: &[Cell],
    params: &[f64],
    n: usize,
    fit_draws: bool,
    derivatives: bool,
) -> (f64, Vec<f64>, Vec<Curvature>) {
    let m = n + 2;
    let mut ll = 0.0;
    let mut grad = vec![0.0; if derivatives { m } else { 0 }];
    let mut curvature = Vec::with_capacity(if derivatives { cells.len() } else { 0 });
    let t = LN10_400 * params[n + 1];
    let k = LN10_400;
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
        grad[c.south] += k * g_u;
        grad[c.north] -= k * g_u;
        grad[n] += k * g_u;
        if fit_draws {
            grad[n + 1] += k * g_t;
        }
        curvature.push(Curvature {
            uu: k * k * h_uu,
            ut: if fit_draws { k * k * h_ut } else { 0.0 },
            tt: if fit_draws { k * k * h_tt } else { 0.0 },
        });
    }
    (ll, grad, curvature)
}

/// The negated Hessian `A` with the shift direction pinned: `A + lambda·v vᵀ`, `v` 1 on the
/// ratings (all ratings up by one leave the likelihood unchanged, so `A v = 0`), applied without
/// forming it, in one pass over the cells. With the draw parameter held, its row is a decoupled
/// 1.
pub(super) struct System<'a> {
    cells: &'a [Cell],
    curvature: &'a [Curvature],
    n: usize,
    fit_draws: bool,
    lambda: f64,
    /// The diagonal of `A` (without the pin).
    diagonal: Vec<f64>,
}

impl<'a> System<'a> {
    fn new(cells: &'a [Cell], curvature: &'a [Curvature], n: usize, fit_draws: bool) -> Self {
        let mut diagonal = vec![0.0; n + 2];
        for (c, h) in cells.iter().zip(curvature) {
            diagonal[c.south] -= h.uu;
            diagonal[c.north] -= h.uu;
            diagonal[n] -= h.uu;
            diagonal[n + 1] -= h.tt;
        }
        if !fit_draws {
            diagonal[n + 1] = 1.0;
        }
        let lambda = diagonal[..n].iter().sum::<f64>() / n as f64;
        System {
            cells,
            curvature,
            n,
            fit_draws,
            lambda,
            diagonal,
        }
    }

    fn apply(&self, x: &[f64], out: &mut [f64]) {
        let n = self.n;
        out.iter_mut().for_each(|o| *o = 0.0);
        for (c, h) in self.cells.iter().zip(self.curvature) {
            let du = x[c.south] - x[c.north] + x[n];
            let dt = x[n + 1];
            let yu = -(h.uu * du + h.ut * dt);
            out[c.south] += yu;
            out[c.north] -= yu;
            out[n] += yu;
            out[n + 1] -= h.ut * du + h.tt * dt;
        }
        if !self.fit_draws {
            out[n + 1] = x[n + 1];
        }
        let shift = self.lambda * x[..n].iter().sum::<f64>();
        out[..n].iter_mut().for_each(|o| *o += shift);
    }

    /// Solves the system by conjugate gradients with the diagonal as preconditioner: each step
    /// one pass over the cells. Returns the solution and the steps taken.
    fn solve(&self, b: &[f64]) -> (Vec<f64>, usize) {
        let m = b.len();
        let precondition: Vec<f64> = self
            .diagonal
            .iter()
            .enumerate()
            .map(|(k, &d)| {
                let d = if k < self.n { d + self.lambda } else { d };
                if d > 0.0 && d.is_finite() {
                    1.0 / d
                } else {
                    1.0
                }
            })
            .collect();
        let dot = |a: &[f64], b: &[f64]| a.iter().zip(b).map(|(x, y)| x * y).sum::<f64>();
        let mut x = vec![0.0; m];
        let mut r = b.to_vec();
        let b_norm = dot(b, b).sqrt();
        if b_norm == 0.0 || !b_norm.is_finite() {
            return (x, 0);
        }
        let mut z: Vec<f64> = r.iter().zip(&precondition).map(|(r, p)| r * p).collect();
        let mut p = z.clone();
        let mut rz = dot(&r, &z);
        let mut ap = vec![0.0; m];
        let limit = 10 * m + 100;
        for step in 1..=limit {
            self.apply(&p, &mut ap);
            let pap = dot(&p, &ap);
            if pap <= 0.0 || !pap.is_finite() {
                return (x, step);
            }
            let alpha = rz / pap;
            x.iter_mut().zip(&p).for_each(|(x, p)| *x += alpha * p);
            r.iter_mut().zip(&ap).for_each(|(r, a)| *r -= alpha * a);
            if dot(&r, &r).sqrt() <= 1e-11 * b_norm {
                return (x, step);
            }
            z.iter_mut()
                .zip(r.iter().zip(&precondition))
                .for_each(|(z, (r, p))| *z = r * p);
            let rz_next = dot(&r, &z);
            let beta = rz_next / rz;
            rz = rz_next;
            p.iter_mut().zip(&z).for_each(|(p, z)| *p = z + beta * *p);
        }
        (x, limit)
    }

    /// The matrix itself, for the full covariance of a small field.
    fn dense(&self) -> Vec<Vec<f64>> {
        let (n, m) = (self.n, self.n + 2);
        let mut a = vec![vec![self.lambda; m]; m];
        for row in a.iter_mut() {
            row[n] = 0.0;
            row[n + 1] = 0.0;
        }
        a[n] = vec![0.0; m];
        a[n + 1] = vec![0.0; m];
        for (c, h) in self.cells.iter().zip(self.curvature) {
            let e_u = [(c.south, 1.0), (c.north, -1.0), (n, 1.0)];
            for &(x, sx) in &e_u {
                for &(y, sy) in &e_u {
                    a[x][y] -= sx * sy * h.uu;
                }
                a[x][n + 1] -= sx * h.ut;
                a[n + 1][x] -= sx * h.ut;
            }
            a[n + 1][n + 1] -= h.tt;
        }
        if !self.fit_draws {
            a[n + 1][n + 1] = 1.0;
        }
        a
    }
}

/// The joint fit. The draw parameter is fitted with the ratings, except when the games cannot
/// determine it: when no decisive game went against the order of the fitted ratings (a player
/// that won every game; more generally separable results), the likelihood keeps rising as the
/// ratings spread apart and the draw parameter grows with them, never reaching a maximum. The
/// fit is then repeated with the draw parameter held at the value the share of draws (virtual
/// ones included) gives between equal players, and the table says so; the prior's draws then
/// keep the ratings finite.
pub(super) fn fit_joint(
    cells: &[Cell],
    n: usize,
    full: bool,
    progress: &mut dyn FnMut(&str),
) -> Result<(Fit, bool), RatingError> {
    match maximise(cells, n, false, full, progress) {
        Err(RatingError::Diverged) if cells.iter().any(|c| c.draws > 0.0) => {
            progress("the draw parameter has no maximum: fitting again with it held");
            maximise(cells, n, true, full, progress).map(|fit| (fit, true))
        }
        other => other.map(|fit| (fit, false)),
    }
}

/// Newton's method with backtracking on the concave log-likelihood, ratings pinned to mean 0;
/// with `hold_draw` the draw parameter stays at its start value; `full`: the full covariance
/// (else [`Spread::Conditional`]). Each Newton step is solved by
/// conjugate gradients on the sparse Hessian ([`System`]), so a step costs passes over the
/// pairings, never the cube of the players; it converges to the same maximum as a dense solve.
pub(super) fn maximise(
    cells: &[Cell],
    n: usize,
    hold_draw: bool,
    full: bool,
    progress: &mut dyn FnMut(&str),
) -> Result<Fit, RatingError> {
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
            spread: Spread::Unmeasured,
        });
    }
    if draws > 0.0 {
        // Start from (or hold at) the draw rate of equal players: P(draw) = 2F(d) - 1.
        let rate = draws / (draws + decisive);
        params[n + 1] = (400.0 * ((1.0 + rate) / (1.0 - rate)).log10()).max(1.0);
    }
    let (mut ll, mut grad, mut curvature) = evaluate(cells, &params, n, fit_draws, true);
    let mut converged = false;
    for iteration in 1..=200 {
        let system = System::new(cells, &curvature, n, fit_draws);
        let (step, inner) = system.solve(&grad);
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
        (ll, grad, curvature) = evaluate(cells, &params, n, fit_draws, true);
        progress(&format!(
            "fit step {iteration}: log-likelihood {ll:.6}, largest change {largest:.3e} Elo \
             ({inner} inner steps)"
        ));
        let runaway = params[n + 1].abs() > DIVERGED_ELO
            || cells
                .iter()
                .any(|c| (params[c.south] - params[c.north] + params[n]).abs() > DIVERGED_ELO);
        if runaway {
            return Err(RatingError::Diverged);
        }
        if !accepted || largest < 1e-9 {
            converged = true;
            break;
        }
    }
    if !converged || params.iter().any(|p| !p.is_finite()) {
        return Err(RatingError::Diverged);
    }
    // Mean 0 (the pinned steps keep it near there; this removes the drift).
    let mean = params[..n].iter().sum::<f64>() / n as f64;
    params[..n].iter_mut().for_each(|r| *r -= mean);
    let system = System::new(cells, &curvature, n, fit_draws);
    let spread = if full {
        // (A + lambda v vᵀ)^-1 = A⁺ + v vᵀ / (lambda |v|⁴) for A v = 0.
        let mut covariance = invert(&system.dense()).ok_or(RatingError::Diverged)?;
        for row in covariance[..n].iter_mut() {
            for value in row[..n].iter_mut() {
                *value -= 1.0 / (system.lambda * (n * n) as f64);
            }
        }
        Spread::Full(covariance)
    } else {
        progress("errors: each rating's with the others held (a large field)");
        let mut between: HashMap<(usize, usize), f64> = HashMap::new();
        for (c, h) in cells.iter().zip(&curvature) {
            *between.entry(pair_key(c.south, c.north)).or_insert(0.0) -= h.uu;
        }
        // The advantage's column of the inverse: v has no advantage entry, so it is exact.
        let mut unit = vec![0.0; m];
        unit[n] = 1.0;
        let (column, _) = system.solve(&unit);
        Spread::Conditional {
            information: system.diagonal[..n].to_vec(),
            between,
            advantage: column[n],
        }
    };
    Ok(Fit { params, spread })
}

pub(super) fn invert(a: &[Vec<f64>]) -> Option<Vec<Vec<f64>>> {
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
pub(super) fn eliminate(aug: &mut [Vec<f64>], m: usize) -> Option<()> {
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
