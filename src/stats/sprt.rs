//! The generalized sequential probability ratio test (GSPRT), as fishtest and fastchess run it.
//!
//! H0: the Elo difference is `elo0`; H1: it is `elo1`. After each game (pair) the log-likelihood
//! ratio of the results under the two hypotheses is compared with Wald's bounds
//! `ln(beta / (1 - alpha))` and `ln((1 - beta) / alpha)`; the test stops at the first crossing.
//! "Generalized": the result distribution (how often each of LL..WW happens) is not known, so
//! under each hypothesis it is replaced by its maximum-likelihood estimate among the
//! distributions whose statistic equals the hypothesis:
//! - `logistic`: the expected score equals `1 / (1 + 10^(-elo/400))`;
//! - `normalized`: the t-value `(score - ½) / sigma` equals `nelo / (800 / ln 10)` (per game; for
//!   pairs the per-pair t-value is `sqrt 2` times that).
//!
//! The constrained maximum-likelihood distributions are those of M. Van den Bergh's notes
//! ("Comments on normalized Elo", "Support of MLE for multinomials"): `p_i = phat_i / (1 + x·phi_i)`
//! with `x` the root of the secular equation `sum phat_i·phi_i / (1 + x·phi_i) = 0`. Zero counts
//! are replaced by 0.001 first, as both reference tools do, so every likelihood stays finite.

use std::fmt;

use serde::{Deserialize, Serialize};

use crate::key_values::{KeyValueError, KeyValues};

use super::elo::{elo_to_score, mean_variance, Wdl, MAX_COUNT, NELO_PER_T};
use super::pentanomial::Pentanomial;

/// What `elo0` and `elo1` measure.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum SprtModel {
    /// Normalized Elo (fishtest's and fastchess's default): bounds that mean the same
    /// sensitivity whatever the draw rate.
    #[default]
    Normalized,
    /// Logistic Elo: the usual expected-score Elo.
    Logistic,
}

impl SprtModel {
    /// The name the `model=` setting and the summary use.
    pub fn name(self) -> &'static str {
        match self {
            SprtModel::Normalized => "normalized",
            SprtModel::Logistic => "logistic",
        }
    }
}

/// A malformed SPRT setting or count list.
#[derive(Clone, Debug, PartialEq)]
pub enum SprtError {
    /// The `key=value` list: a token not `key=value`, a key unknown, repeated or missing
    /// (`elo0=`, `elo1=`), a value not a finite number or no model; the error names the list.
    List(KeyValueError),
    /// `elo0` must be below `elo1`.
    BoundsOrder {
        /// The lower bound given.
        elo0: f64,
        /// The upper bound given.
        elo1: f64,
    },
    /// alpha and beta each in (0, 1) with alpha + beta < 1.
    ErrorRates {
        /// The alpha given.
        alpha: f64,
        /// The beta given.
        beta: f64,
    },
    /// Elo bounds beyond what the model can test (normalized: |nElo| < 200; logistic: < 1000).
    BoundsRange {
        /// The lower bound given.
        elo0: f64,
        /// The upper bound given.
        elo1: f64,
    },
    /// A count list of the wrong length or with a non-integer.
    Counts {
        /// What the list should be (the counts' names).
        expected: &'static str,
        /// The list as given.
        given: String,
    },
    /// Counts adding up to more than [`MAX_COUNT`] (the sum, exact).
    CountsTooLarge {
        /// The list as given.
        given: String,
        /// Their sum.
        total: u128,
    },
}

impl fmt::Display for SprtError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            SprtError::List(e) => write!(f, "{e}"),
            SprtError::BoundsOrder { elo0, elo1 } => {
                write!(f, "SPRT: elo0 ({elo0}) must be less than elo1 ({elo1})")
            }
            SprtError::ErrorRates { alpha, beta } => write!(
                f,
                "SPRT: alpha ({alpha}) and beta ({beta}) must lie in (0, 1) and add up to less than 1"
            ),
            SprtError::BoundsRange { elo0, elo1 } => write!(
                f,
                "SPRT: bounds [{elo0}, {elo1}] are out of range (|nElo| < 200 for normalized, |Elo| < 1000 for logistic)"
            ),
            SprtError::Counts { expected, given } => {
                write!(f, "expected counts {expected}, got '{given}'")
            }
            SprtError::CountsTooLarge { given, total } => write!(
                f,
                "counts '{given}' add up to {total}, more than the {MAX_COUNT} (2^53) the \
                 statistics take (beyond it an f64 no longer holds every count)"
            ),
        }
    }
}

impl std::error::Error for SprtError {}

/// Where the test stands.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SprtDecision {
    /// Neither bound reached: play on.
    Continue,
    /// LLR at or below the lower bound: no gain of `elo1` (H0 accepted).
    AcceptH0,
    /// LLR at or above the upper bound: the gain is there (H1 accepted).
    AcceptH1,
}

impl SprtDecision {
    /// Whether the test has decided: nothing more to play.
    pub fn is_final(self) -> bool {
        self != SprtDecision::Continue
    }

    /// The decision in words, for the printed summary.
    pub fn describe(self) -> &'static str {
        match self {
            SprtDecision::Continue => "continue (neither bound reached)",
            SprtDecision::AcceptH0 => "H0 accepted (LLR reached the lower bound)",
            SprtDecision::AcceptH1 => "H1 accepted (LLR reached the upper bound)",
        }
    }
}

/// An SPRT: hypotheses, error rates and model.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtConfig {
    /// The Elo difference H0 says (usually 0: no gain), in the units of `model`.
    pub elo0: f64,
    /// The Elo difference H1 says (the gain looked for); above `elo0`.
    pub elo1: f64,
    /// Probability of accepting H1 when H0 holds.
    pub alpha: f64,
    /// Probability of accepting H0 when H1 holds.
    pub beta: f64,
    /// What `elo0` and `elo1` measure.
    pub model: SprtModel,
}

impl SprtConfig {
    /// A checked configuration.
    pub fn new(
        elo0: f64,
        elo1: f64,
        alpha: f64,
        beta: f64,
        model: SprtModel,
    ) -> Result<SprtConfig, SprtError> {
        if elo0 >= elo1 || elo0.is_nan() || elo1.is_nan() {
            return Err(SprtError::BoundsOrder { elo0, elo1 });
        }
        if !(alpha > 0.0 && alpha < 1.0 && beta > 0.0 && beta < 1.0 && alpha + beta < 1.0) {
            return Err(SprtError::ErrorRates { alpha, beta });
        }
        let limit = match model {
            SprtModel::Normalized => 200.0,
            SprtModel::Logistic => 1000.0,
        };
        if elo0.abs() >= limit || elo1.abs() >= limit {
            return Err(SprtError::BoundsRange { elo0, elo1 });
        }
        Ok(SprtConfig {
            elo0,
            elo1,
            alpha,
            beta,
            model,
        })
    }

    /// From `key=value` tokens, the list `list` (`--sprt`, the `sprt` calculator's keys):
    /// `elo0=A elo1=B [alpha=0.05] [beta=0.05] [model=normalized|logistic]`, each key once.
    pub fn parse<S: AsRef<str>>(list: &str, tokens: &[S]) -> Result<SprtConfig, SprtError> {
        let models = [SprtModel::Normalized, SprtModel::Logistic].map(|m| (m.name(), m));
        let finite = |v: &str| {
            v.trim()
                .parse::<f64>()
                .ok()
                .filter(|v| v.is_finite())
                .ok_or_else(|| "a finite number".to_string())
        };
        let read = || -> Result<_, KeyValueError> {
            let kv = KeyValues::parse(list, tokens.iter().map(|t| t.as_ref().trim()))?
                .only(&["elo0", "elo1", "alpha", "beta", "model"])?
                .once(&[])?;
            let elo0 = kv.required("elo0", kv.parsed("elo0", finite)?)?;
            let elo1 = kv.required("elo1", kv.parsed("elo1", finite)?)?;
            let alpha = kv.parsed("alpha", finite)?.unwrap_or(0.05);
            let beta = kv.parsed("beta", finite)?.unwrap_or(0.05);
            let model = kv.choice("model", &models)?.unwrap_or_default();
            Ok((elo0, elo1, alpha, beta, model))
        };
        let (elo0, elo1, alpha, beta, model) = read().map_err(SprtError::List)?;
        SprtConfig::new(elo0, elo1, alpha, beta, model)
    }

    /// Wald's lower bound `ln(beta / (1 - alpha))`: accept H0 at or below it.
    pub fn lower_bound(&self) -> f64 {
        (self.beta / (1.0 - self.alpha)).ln()
    }

    /// Wald's upper bound `ln((1 - beta) / alpha)`: accept H1 at or above it.
    pub fn upper_bound(&self) -> f64 {
        ((1.0 - self.beta) / self.alpha).ln()
    }

    /// The LLR of game-pair counts.
    pub fn llr_pentanomial(&self, penta: &Pentanomial) -> f64 {
        self.llr_counts(&penta.buckets())
    }

    /// The LLR of single-game counts (when games are not paired).
    pub fn llr_trinomial(&self, wdl: &Wdl) -> f64 {
        self.llr_counts(&[wdl.losses, wdl.draws, wdl.wins])
    }

    /// The LLR of counts in ascending score order: `[L, D, W]` or `[LL, LD, WL+DD, WD, WW]`.
    pub fn llr_counts(&self, counts: &[u64]) -> f64 {
        if counts.iter().all(|&c| c == 0) {
            return 0.0;
        }
        let weights: Vec<f64> = counts.iter().map(|&c| c as f64).collect();
        let (n, values, phat) = results_to_pdf(&weights);
        n * self.llr_per_unit(&values, &phat)
    }

    /// The LLR per sample unit for a result distribution `phat` over `values` (equally spaced
    /// on 0..1): the mean LLR increment per game (pair) when `phat` is the true distribution,
    /// the drift of the LLR random walk.
    pub fn llr_per_unit(&self, values: &[f64], phat: &[f64]) -> f64 {
        let hypotheses = match self.model {
            SprtModel::Logistic => {
                let (s0, s1) = (elo_to_score(self.elo0), elo_to_score(self.elo1));
                mle_expected(values, phat, s0).zip(mle_expected(values, phat, s1))
            }
            SprtModel::Normalized => {
                // Per-unit t-value: a pair's mean has sigma_pair = sigma_game / sqrt 2.
                let scale = if values.len() == 5 {
                    std::f64::consts::SQRT_2
                } else {
                    1.0
                };
                let (t0, t1) = (
                    scale * self.elo0 / NELO_PER_T,
                    scale * self.elo1 / NELO_PER_T,
                );
                mle_t_value(values, phat, 0.5, t0).zip(mle_t_value(values, phat, 0.5, t1))
            }
        };
        match hypotheses {
            Some((p0, p1)) => phat
                .iter()
                .zip(p0.iter().zip(&p1))
                .map(|(ph, (a, b))| ph * (b.ln() - a.ln()))
                .sum(),
            None => f64::NAN,
        }
    }

    /// The decision for an LLR.
    pub fn decide(&self, llr: f64) -> SprtDecision {
        if llr >= self.upper_bound() {
            SprtDecision::AcceptH1
        } else if llr <= self.lower_bound() {
            SprtDecision::AcceptH0
        } else {
            SprtDecision::Continue
        }
    }

    /// The test's state after the given pairs.
    pub fn status(&self, penta: &Pentanomial) -> SprtStatus {
        self.status_of(self.llr_pentanomial(penta))
    }

    /// The test's state after the given (unpaired) games.
    pub fn status_trinomial(&self, wdl: &Wdl) -> SprtStatus {
        self.status_of(self.llr_trinomial(wdl))
    }

    fn status_of(&self, llr: f64) -> SprtStatus {
        SprtStatus {
            config: *self,
            lower: self.lower_bound(),
            upper: self.upper_bound(),
            llr,
            decision: self.decide(llr),
        }
    }
}

/// How a test's verdict was reached.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SprtTest {
    /// Checked after every game in the order the games finished, the run stopping at the first
    /// crossing of a bound: Wald's sequential test, whose error rates are `alpha` and `beta`.
    #[default]
    Sequential,
    /// Computed once on a set of games that did not stop on it (merged fixed-size shards): the
    /// LLR of all their counts against the same bounds. A likelihood ratio at or above
    /// `(1 - beta) / alpha` has probability at most `alpha / (1 - beta)` under H0 whatever the
    /// number of games (Markov's inequality: its mean under H0 is 1), and symmetrically for H0,
    /// so an accepted hypothesis keeps about its error bound; in between the verdict is
    /// inconclusive.
    FixedSample,
}

/// The moment a sequential test decided: its state when the LLR first crossed a bound.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtStop {
    /// The test's state at that moment.
    pub status: SprtStatus,
    /// Games of the run recorded at that moment (the crossing game included).
    pub games: u64,
    /// Pairs of the first two engines then.
    pub pairs: u64,
}

/// The state of an SPRT, for printing and the JSON summary.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct SprtStatus {
    /// The test.
    pub config: SprtConfig,
    /// Wald's lower bound: accept H0 at or below it.
    #[serde(deserialize_with = "crate::stats::f64_or_null")]
    pub lower: f64,
    /// Wald's upper bound: accept H1 at or above it.
    #[serde(deserialize_with = "crate::stats::f64_or_null")]
    pub upper: f64,
    /// The log-likelihood ratio of the counts so far.
    #[serde(deserialize_with = "crate::stats::f64_or_null")]
    pub llr: f64,
    /// What the LLR says against the bounds.
    pub decision: SprtDecision,
}

impl SprtStatus {
    /// `LLR: x (lower, upper) [elo0, elo1]` as fastchess prints it.
    pub fn line(&self) -> String {
        format!(
            "LLR: {:.2} ({:.2}, {:.2}) [{:.2}, {:.2}]",
            self.llr, self.lower, self.upper, self.config.elo0, self.config.elo1
        )
    }
}

/// Regularised distribution of counts: zeros become 0.001 (fishtest, fastchess). Returns the
/// (regularised) sample size, the values `i / (k - 1)` and the frequencies.
fn results_to_pdf(counts: &[f64]) -> (f64, Vec<f64>, Vec<f64>) {
    let regular: Vec<f64> = counts
        .iter()
        .map(|&c| if c == 0.0 { 1e-3 } else { c })
        .collect();
    let n: f64 = regular.iter().sum();
    let k = counts.len();
    let values = (0..k).map(|i| i as f64 / (k - 1) as f64).collect();
    (n, values, regular.iter().map(|c| c / n).collect())
}

/// The root of `sum p_i a_i / (1 + x a_i) = 0` between the poles `-1/max a` and `-1/min a`,
/// where the function falls from +inf to -inf: Newton steps, bisection when a step leaves the
/// bracket. `None` when the `a_i` do not have both signs (no root).
fn secular(a: &[f64], p: &[f64]) -> Option<f64> {
    let max = a.iter().cloned().fold(f64::NEG_INFINITY, f64::max);
    let min = a.iter().cloned().fold(f64::INFINITY, f64::min);
    if !(max > 0.0 && min < 0.0) {
        return None;
    }
    let (mut lo, mut hi) = (-1.0 / max, -1.0 / min);
    let mut x = 0.0;
    for _ in 0..200 {
        let (mut f, mut df) = (0.0, 0.0);
        for (ai, pi) in a.iter().zip(p) {
            let q = 1.0 + x * ai;
            f += pi * ai / q;
            df -= pi * ai * ai / (q * q);
        }
        if f == 0.0 {
            return Some(x);
        }
        if f > 0.0 {
            lo = x;
        } else {
            hi = x;
        }
        let mut next = x - f / df;
        if !(next > lo && next < hi) {
            next = 0.5 * (lo + hi);
        }
        if (next - x).abs() <= 1e-15 * x.abs().max(1.0) {
            return Some(next);
        }
        x = next;
    }
    Some(x)
}

/// The distribution closest in likelihood to `phat` whose mean is `s`.
fn mle_expected(values: &[f64], phat: &[f64], s: f64) -> Option<Vec<f64>> {
    let shifted: Vec<f64> = values.iter().map(|a| a - s).collect();
    let x = secular(&shifted, phat)?;
    Some(
        phat.iter()
            .zip(&shifted)
            .map(|(p, a)| p / (1.0 + x * a))
            .collect(),
    )
}

/// The distribution closest in likelihood to `phat` whose t-value `(mean - reference) / sigma`
/// is `t`: a fixed-point iteration from the uniform distribution, each step a secular equation.
fn mle_t_value(values: &[f64], phat: &[f64], reference: f64, t: f64) -> Option<Vec<f64>> {
    let n = values.len();
    let mut p = vec![1.0 / n as f64; n];
    for _ in 0..100 {
        let (mu, var) = mean_variance(values, &p);
        let sigma = var.sqrt();
        let phi: Vec<f64> = values
            .iter()
            .map(|a| a - reference - t * sigma * (1.0 + ((mu - a) / sigma).powi(2)) / 2.0)
            .collect();
        let x = secular(&phi, phat)?;
        let next: Vec<f64> = phat
            .iter()
            .zip(&phi)
            .map(|(ph, f)| ph / (1.0 + x * f))
            .collect();
        let change = next
            .iter()
            .zip(&p)
            .map(|(a, b)| (a - b).abs())
            .fold(0.0, f64::max);
        p = next;
        if change < 1e-12 {
            break;
        }
    }
    Some(p)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stats::elo::checked_total;

    fn config(elo0: f64, elo1: f64, model: SprtModel) -> SprtConfig {
        SprtConfig::new(elo0, elo1, 0.05, 0.05, model).unwrap()
    }

    #[test]
    fn wald_bounds() {
        let c = config(0.0, 5.0, SprtModel::Normalized);
        // ln(0.05 / 0.95) = -2.944438979...
        assert!((c.lower_bound() + 2.944_438_979_166_44).abs() < 1e-12);
        assert!((c.upper_bound() - 2.944_438_979_166_44).abs() < 1e-12);
        let c = SprtConfig::new(0.0, 5.0, 0.05, 0.1, SprtModel::Logistic).unwrap();
        assert!((c.lower_bound() - (0.1f64 / 0.95).ln()).abs() < 1e-15);
        assert!((c.upper_bound() - (0.9f64 / 0.05).ln()).abs() < 1e-15);
    }

    /// Final LLRs of Stockfish tests as fishtest printed them in the commit messages (fishtest
    /// shows logistic bounds in braces, normalized ones in angle brackets).
    #[test]
    fn matches_fishtest_published_llr() {
        use SprtModel::*;
        let cases: [([u64; 5], f64, f64, SprtModel, f64); 12] = [
            ([17, 253, 1042, 337, 39], -0.5, 1.5, Logistic, 2.96),
            ([11, 407, 3238, 513, 11], 0.25, 1.75, Logistic, 2.93),
            ([424, 2948, 5832, 3045, 460], -1.0, 3.0, Logistic, 2.94),
            ([1284, 17437, 55536, 18085, 1292], 0.0, 2.0, Logistic, 2.94),
            ([115, 2196, 11328, 2317, 136], -0.25, 1.25, Logistic, 2.94),
            ([14, 1030, 14318, 1163, 19], 0.25, 1.25, Logistic, 2.93),
            (
                [2002, 72968, 180891, 74129, 2034],
                0.0,
                2.0,
                Normalized,
                3.22,
            ),
            ([24, 7350, 23669, 7717, 28], 0.5, 2.5, Normalized, 2.94),
            ([2, 1925, 6607, 2176, 2], 0.0, 2.0, Normalized, 2.94),
            ([5, 2968, 10474, 3253, 5], 0.5, 2.5, Normalized, 2.96),
            ([55, 2567, 5961, 2723, 102], 0.0, 2.5, Normalized, 2.94),
            ([6, 1821, 5079, 2025, 21], 0.5, 3.0, Normalized, 2.94),
        ];
        for (counts, elo0, elo1, model, published) in cases {
            let llr = config(elo0, elo1, model).llr_pentanomial(&Pentanomial::from_buckets(counts));
            assert!(
                (llr - published).abs() <= 0.005 + 1e-9,
                "{counts:?} {model:?} [{elo0}, {elo1}]: {llr} vs {published}"
            );
        }
    }

    #[test]
    fn mle_distributions_meet_their_constraints() {
        let values = [0.0, 0.25, 0.5, 0.75, 1.0];
        let phat = [0.05, 0.2, 0.45, 0.22, 0.08];
        let p = mle_expected(&values, &phat, 0.48).unwrap();
        let (mu, _) = mean_variance(&values, &p);
        assert!((mu - 0.48).abs() < 1e-12);
        assert!((p.iter().sum::<f64>() - 1.0).abs() < 1e-12);
        let p = mle_t_value(&values, &phat, 0.5, 0.03).unwrap();
        let (mu, var) = mean_variance(&values, &p);
        assert!(((mu - 0.5) / var.sqrt() - 0.03).abs() < 1e-9);
        // At its own statistic the MLE is the empirical distribution: zero LLR against itself.
        let (s, _) = mean_variance(&values, &phat);
        let own = mle_expected(&values, &phat, s).unwrap();
        for (a, b) in own.iter().zip(&phat) {
            assert!((a - b).abs() < 1e-12);
        }
    }

    /// For small Elo differences the exact LLR is close to the closed form
    /// `N/2 · ln(sum p (a - s0)² / sum p (a - s1)²)` (fishtest's `LLR_alt`).
    #[test]
    fn llr_agrees_with_the_variance_ratio_approximation() {
        let counts = [30u64, 260, 520, 290, 40];
        let c = config(0.0, 5.0, SprtModel::Logistic);
        let exact = c.llr_counts(&counts);
        let weights: Vec<f64> = counts.iter().map(|&x| x as f64).collect();
        let (n, values, phat) = results_to_pdf(&weights);
        let r = |s: f64| -> f64 {
            values
                .iter()
                .zip(&phat)
                .map(|(a, p)| p * (a - s) * (a - s))
                .sum()
        };
        let approx = n / 2.0 * (r(elo_to_score(0.0)) / r(elo_to_score(5.0))).ln();
        assert!(
            (exact - approx).abs() < 0.01 * approx.abs(),
            "{exact} {approx}"
        );
    }

    #[test]
    fn symmetric_results_favour_neither_hypothesis_beyond_the_midpoint() {
        // Even results against symmetric hypotheses [-5, 5]: the LLR is zero.
        let c = config(-5.0, 5.0, SprtModel::Logistic);
        let llr = c.llr_counts(&[40, 250, 500, 250, 40]);
        assert!(llr.abs() < 1e-9, "{llr}");
        let c = config(-5.0, 5.0, SprtModel::Normalized);
        assert!(c.llr_counts(&[40, 250, 500, 250, 40]).abs() < 1e-9);
        assert_eq!(c.llr_counts(&[0, 0, 0, 0, 0]), 0.0);
    }

    #[test]
    fn parses_the_arena_arguments() {
        let parse = |tokens: &[&str]| SprtConfig::parse("--sprt", tokens);
        let c = parse(&[
            "elo0=0",
            "elo1=5",
            "alpha=0.05",
            "beta=0.1",
            "model=logistic",
        ])
        .unwrap();
        assert_eq!(
            c,
            SprtConfig::new(0.0, 5.0, 0.05, 0.1, SprtModel::Logistic).unwrap()
        );
        let c = parse(&["elo1=2", "elo0=-1.5"]).unwrap();
        assert_eq!(
            (c.elo0, c.alpha, c.beta, c.model),
            (-1.5, 0.05, 0.05, SprtModel::Normalized)
        );
        assert!(matches!(
            parse(&["elo0=5", "elo1=0"]),
            Err(SprtError::BoundsOrder { .. })
        ));
        assert!(matches!(
            parse(&["elo0=0", "elo1=1", "alpha=0.6", "beta=0.5"]),
            Err(SprtError::ErrorRates { .. })
        ));
        assert!(matches!(
            parse(&["elo0=0", "elo1=300"]),
            Err(SprtError::BoundsRange { .. })
        ));
        let e = |tokens: &[&str]| parse(tokens).unwrap_err().to_string();
        assert_eq!(e(&["elo0=0"]), "--sprt: elo1= is missing");
        assert_eq!(e(&["elo0=0", "elo1=x"]), "--sprt elo1=x: a finite number");
        assert_eq!(
            e(&["elo0=0", "elo1=inf"]),
            "--sprt elo1=inf: a finite number"
        );
        assert_eq!(
            e(&["elo0=0", "elo1=1", "model=bayes"]),
            "--sprt model=bayes: one of normalized, logistic"
        );
        assert_eq!(
            e(&["elo0=0", "elo1=1", "gamma=2"]),
            "--sprt: unknown key 'gamma' (keys: elo0, elo1, alpha, beta, model)"
        );
        assert_eq!(e(&["elo0=0", "elo1"]), "--sprt: 'elo1' is not key=value");
        assert_eq!(
            e(&["elo0=0", "elo1=5", "elo1=10"]),
            "--sprt: elo1= is given twice ('elo1=5', then 'elo1=10'): give each key once"
        );
    }

    /// Sums inside the statistics saturate instead of wrapping (the calculator refuses such
    /// counts before: `cli::sprt`).
    #[test]
    fn sums_saturate_instead_of_wrapping() {
        let p = Pentanomial::from_buckets([u64::MAX, 0, 0, 0, u64::MAX]);
        assert_eq!(p.pairs(), u64::MAX);
        assert_eq!(checked_total(&[u64::MAX, 1]), None);
    }
}
