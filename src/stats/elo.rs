//! Elo from a score: the logistic conversion, the normal distribution, and the estimates
//! fastchess prints (Elo and normalized Elo with 95% intervals, likelihood of superiority).
//!
//! A match result is a sample of scores per unit (a game scoring 0, ½ or 1; or a game pair scoring
//! 0, ¼, ½, ¾ or 1 per game). The estimate is the sample mean; its interval is the normal
//! approximation `mean ± z·sqrt(var/N)`, mapped through the logistic curve. The same computation
//! serves the trinomial (per game) and pentanomial (per pair) views; only the values and the
//! number of games per unit differ.

use serde::{Deserialize, Serialize};

/// `z` of a two-sided 95% normal interval (the 97.5% quantile).
pub const Z95: f64 = 1.959_963_984_540_054;

/// `800 / ln 10`: normalized Elo per unit of the t-value `(score - ½) / sigma_per_game`.
pub const NELO_PER_T: f64 = 800.0 / std::f64::consts::LN_10;

/// Expected score of a player `elo` points stronger (logistic Elo).
pub fn elo_to_score(elo: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-elo / 400.0))
}

/// The Elo difference whose expected score is `score`; ±infinity at 0 and 1.
pub fn score_to_elo(score: f64) -> f64 {
    // `+ 0.0` turns the -0 of an even score into 0, which prints without a sign.
    -400.0 * (1.0 / score - 1.0).log10() + 0.0
}

/// Below it `erfc` is `1 - erf` by erf's Taylor series (erfc(1) ≈ 0.157 keeps all but a few
/// units in the last place of that difference); from it the continued fraction of `erfc`
/// converges in under 300 steps.
const SERIES_BELOW: f64 = 1.0;

/// The error function, to a few units in the last place: its Taylor series below
/// [`SERIES_BELOW`], `1 - erfc` above.
pub fn erf(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x.abs() < SERIES_BELOW {
        erf_series(x)
    } else {
        (1.0 - erfc(x.abs())).copysign(x)
    }
}

/// The complementary error function `1 - erf x`, to about 1e-15 relative over its whole range
/// (down to the smallest subnormal near x = 27): the lower tail of [`normal_cdf`] is computed
/// from it, and `1 - erf x` would keep no digit of it past x ≈ 6.
pub fn erfc(x: f64) -> f64 {
    if x.is_nan() {
        return f64::NAN;
    }
    if x >= SERIES_BELOW {
        exp_neg_square(x, 1.0) * erfc_scaled(x)
    } else if x > -SERIES_BELOW {
        1.0 - erf_series(x)
    } else {
        2.0 - erfc(-x)
    }
}

/// `erf x` for |x| < [`SERIES_BELOW`] by its Taylor series
/// `2/sqrt(pi) · sum (-1)^n x^(2n+1) / (n! (2n+1))`, whose terms there never exceed the first.
fn erf_series(x: f64) -> f64 {
    let x2 = x * x;
    let mut term = x; // (-1)^n x^(2n+1) / n!
    let mut sum = x;
    let mut n = 0.0;
    loop {
        n += 1.0;
        term *= -x2 / n;
        let add = term / (2.0 * n + 1.0);
        sum += add;
        if add.abs() <= 1e-17 * sum.abs() || n > 200.0 {
            break;
        }
    }
    sum * std::f64::consts::FRAC_2_SQRT_PI
}

/// `exp(x²)·erfc(x)` for x >= [`SERIES_BELOW`]: Laplace's continued fraction
/// `erfc x = exp(-x²)/sqrt(pi) · 1/(x + (1/2)/(x + 1/(x + (3/2)/(x + ...))))`, evaluated from
/// its far end. Every partial numerator and denominator is positive, so the backward evaluation
/// loses nothing to cancellation; the number of steps, 240/x² + 12, truncates it below 1e-16
/// relative (it needs about 180/x² + 6).
fn erfc_scaled(x: f64) -> f64 {
    let steps = (240.0 / (x * x)) as u32 + 12;
    let mut t = x;
    for k in (1..=steps).rev() {
        t = x + 0.5 * f64::from(k) / t;
    }
    1.0 / (std::f64::consts::PI.sqrt() * t)
}

/// `exp(-scale·x²)` to a few units in the last place: x² is carried as the rounded product and
/// its exact rounding error (a fused multiply-add), since that error, up to x²·1e-16, would
/// otherwise reach the result multiplied by x² (4e-14 relative at x = 14).
fn exp_neg_square(x: f64, scale: f64) -> f64 {
    let square = x * x;
    let rounding = x.mul_add(x, -square);
    let e = (-scale * square).exp();
    if e == 0.0 {
        return 0.0;
    }
    e * (-scale * rounding).exp()
}

/// The standard normal distribution function Φ(z) = erfc(-z/√2)/2. In the lower tail the
/// Gaussian factor is taken from `z` itself, `exp(-z²/2)`: taken from `-z/√2` it would carry
/// that division's rounding multiplied by z²/2.
pub fn normal_cdf(z: f64) -> f64 {
    let x = -z / std::f64::consts::SQRT_2;
    if x >= SERIES_BELOW {
        0.5 * exp_neg_square(z, 0.5) * erfc_scaled(x)
    } else {
        0.5 * erfc(x)
    }
}

/// The standard normal quantile Φ⁻¹(p), by bisection on [`normal_cdf`] (exact to the last bits;
/// only called for a handful of values, never in a loop over games).
pub fn normal_quantile(p: f64) -> f64 {
    if !(0.0..=1.0).contains(&p) || p.is_nan() {
        return f64::NAN;
    }
    if p == 0.0 {
        return f64::NEG_INFINITY;
    }
    if p == 1.0 {
        return f64::INFINITY;
    }
    let (mut lo, mut hi) = (-40.0f64, 40.0f64);
    for _ in 0..200 {
        let mid = 0.5 * (lo + hi);
        if normal_cdf(mid) < p {
            lo = mid;
        } else {
            hi = mid;
        }
        if hi - lo < 1e-15 {
            break;
        }
    }
    0.5 * (lo + hi)
}

/// Mean and variance of a discrete distribution given as values and weights (counts or
/// probabilities; the weights are normalised here).
pub fn mean_variance(values: &[f64], weights: &[f64]) -> (f64, f64) {
    let total: f64 = weights.iter().sum();
    let mean = values.iter().zip(weights).map(|(a, w)| a * w).sum::<f64>() / total;
    let var = values
        .iter()
        .zip(weights)
        .map(|(a, w)| w * (a - mean) * (a - mean))
        .sum::<f64>()
        / total;
    (mean, var)
}

/// The largest count of games or game pairs the statistics take, 2^53: every count up to it is
/// exact as an `f64`, which every estimate computes in. Counts given by hand (`otau-arena sprt`)
/// are refused beyond it; counts of games played can never get near it.
pub const MAX_COUNT: u64 = 1 << 53;

/// The sum of counts, or `None` past [`MAX_COUNT`] (and never a wrapped sum): inputs are refused
/// with it before any figure is computed.
pub fn checked_total(counts: &[u64]) -> Option<u64> {
    counts
        .iter()
        .try_fold(0u64, |total, &c| total.checked_add(c))
        .filter(|&total| total <= MAX_COUNT)
}

/// The sum of counts where they were already checked (or are counts of games played): it
/// saturates rather than wraps, so a figure past the bound is never printed as a small one.
pub fn count_sum(counts: &[u64]) -> u64 {
    counts
        .iter()
        .fold(0u64, |total, &c| total.saturating_add(c))
}

/// An Elo estimate from a sample of per-unit scores, as fastchess computes and prints it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct EloEstimate {
    /// Units in the sample: games (trinomial) or game pairs (pentanomial).
    pub samples: u64,
    /// Mean score per game, 0..1.
    #[serde(deserialize_with = "crate::stats::f64_or_null")]
    pub score: f64,
    /// Variance of one unit's score (per game for trinomial, per pair's mean for pentanomial).
    #[serde(deserialize_with = "crate::stats::f64_or_null")]
    pub variance: f64,
    /// Logistic Elo difference of the mean score.
    #[serde(deserialize_with = "crate::stats::f64_or_null")]
    pub elo: f64,
    /// Half-width of the 95% interval of `elo` (the Elo of the score interval's ends, halved).
    #[serde(deserialize_with = "crate::stats::f64_or_null")]
    pub elo_error: f64,
    /// Normalized Elo: the t-value `(score - ½) / sigma_per_game` times `800 / ln 10`.
    #[serde(deserialize_with = "crate::stats::f64_or_null")]
    pub nelo: f64,
    /// Half-width of the 95% interval of `nelo`.
    #[serde(deserialize_with = "crate::stats::f64_or_null")]
    pub nelo_error: f64,
    /// Likelihood of superiority: the normal-approximation probability that the true score
    /// exceeds ½, 0..1.
    #[serde(deserialize_with = "crate::stats::f64_or_null")]
    pub los: f64,
}

impl EloEstimate {
    /// The estimate from unit scores `values` seen `counts` times, where one unit is
    /// `games_per_unit` games (1 for single games, 2 for pairs). `None` for an empty sample.
    pub fn from_distribution(values: &[f64], counts: &[u64], games_per_unit: u32) -> Option<Self> {
        let samples = count_sum(counts);
        if samples == 0 {
            return None;
        }
        let weights: Vec<f64> = counts.iter().map(|&c| c as f64).collect();
        let (score, variance) = mean_variance(values, &weights);
        let n = samples as f64;
        let sigma_mean = (variance / n).sqrt();
        let elo = score_to_elo(score);
        let (elo_error, nelo, nelo_error, los) = if variance > 0.0 {
            // The score interval clamped to the possible scores: an end at 0 or 1 is an infinite
            // Elo, so a one-sided interval has an infinite error (fastchess takes the logarithm
            // of a negative number there and prints nan).
            let upper = (score + Z95 * sigma_mean).min(1.0);
            let lower = (score - Z95 * sigma_mean).max(0.0);
            let sigma_per_game = (games_per_unit as f64 * variance).sqrt();
            (
                (score_to_elo(upper) - score_to_elo(lower)) / 2.0,
                (score - 0.5) / sigma_per_game * NELO_PER_T,
                Z95 * sigma_mean / sigma_per_game * NELO_PER_T,
                normal_cdf((score - 0.5) / sigma_mean),
            )
        } else if score == 0.5 {
            // Every unit even (all draws, or all pairs 1-1): the Elo and its error are 0, as in
            // fastchess; nElo and LOS divide 0 by 0 and are undefined.
            (0.0, f64::NAN, f64::NAN, f64::NAN)
        } else {
            // Every unit the same one-sided result (all wins, say): infinite Elo and nElo, the
            // sign certain (LOS 0 or 1, as fastchess), and no spread to give an error from.
            let up = score > 0.5;
            let inf = if up { f64::INFINITY } else { f64::NEG_INFINITY };
            (f64::NAN, inf, f64::NAN, if up { 1.0 } else { 0.0 })
        };
        Some(EloEstimate {
            samples,
            score,
            variance,
            elo,
            elo_error,
            nelo,
            nelo_error,
            los,
        })
    }

    /// The ends of the 95% Elo interval: the Elo of the score interval's ends (clamped to the
    /// possible scores), so the interval is as asymmetric as the logistic curve makes it; the
    /// printed `+/-` is half its width. Both ends are the Elo itself when there is no spread.
    pub fn elo_interval(&self) -> (f64, f64) {
        let half = Z95 * (self.variance / self.samples as f64).sqrt();
        (
            score_to_elo((self.score - half).max(0.0)),
            score_to_elo((self.score + half).min(1.0)),
        )
    }

    /// `Elo: x +/- y, nElo: x +/- y`, two decimals, as fastchess prints it (non-finite
    /// figures as [`figure`] writes them).
    pub fn elo_line(&self) -> String {
        format!(
            "Elo: {} +/- {}, nElo: {} +/- {}",
            figure(self.elo, 2),
            figure(self.elo_error, 2),
            figure(self.nelo, 2),
            figure(self.nelo_error, 2)
        )
    }

    /// `LOS: x %, DrawRatio: y %[, PairsRatio: z]`, as fastchess prints it.
    pub fn los_line(&self, draw_ratio: f64, pairs_ratio: Option<f64>) -> String {
        let los = if self.los.is_nan() {
            "n/a".to_string()
        } else {
            format!("{:.2} %", 100.0 * self.los)
        };
        let mut line = format!("LOS: {los}, DrawRatio: {:.2} %", 100.0 * draw_ratio);
        if let Some(ratio) = pairs_ratio {
            line.push_str(&format!(", PairsRatio: {}", figure(ratio, 2)));
        }
        line
    }
}

/// A figure with `digits` decimals, or `inf` / `-inf` when it is infinite and `n/a` when it is
/// undefined (NaN): the one convention for every printed statistic, so that a degenerate result
/// never prints as a certainty (`0.00`) or as a platform's `NaN`.
pub fn figure(x: f64, digits: usize) -> String {
    if x.is_nan() {
        "n/a".into()
    } else if x == f64::INFINITY {
        "inf".into()
    } else if x == f64::NEG_INFINITY {
        "-inf".into()
    } else {
        // `+ 0.0` turns a -0 into 0, which prints without a sign.
        format!("{:.digits$}", x + 0.0)
    }
}

/// Games of one player (or one side) won, drawn and lost.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Wdl {
    /// Games won.
    pub wins: u64,
    /// Games drawn.
    pub draws: u64,
    /// Games lost.
    pub losses: u64,
}

impl Wdl {
    /// Games counted (saturating).
    pub fn games(&self) -> u64 {
        count_sum(&[self.wins, self.draws, self.losses])
    }

    /// Points: a win 1, a draw ½.
    pub fn points(&self) -> f64 {
        self.wins as f64 + 0.5 * self.draws as f64
    }

    /// Mean score per game, 0..1 (NaN with no games).
    pub fn score(&self) -> f64 {
        self.points() / self.games() as f64
    }

    /// Share of games drawn, 0..1 (NaN with no games).
    pub fn draw_ratio(&self) -> f64 {
        self.draws as f64 / self.games() as f64
    }

    /// The same games seen from the opponent.
    pub fn reversed(&self) -> Wdl {
        Wdl {
            wins: self.losses,
            draws: self.draws,
            losses: self.wins,
        }
    }

    /// Counts one game scoring `points` (0, ½ or 1).
    pub fn add_points(&mut self, points: f64) {
        if points > 0.75 {
            self.wins += 1;
        } else if points < 0.25 {
            self.losses += 1;
        } else {
            self.draws += 1;
        }
    }

    /// Adds another count's games (saturating).
    pub fn merge(&mut self, other: &Wdl) {
        self.wins = self.wins.saturating_add(other.wins);
        self.draws = self.draws.saturating_add(other.draws);
        self.losses = self.losses.saturating_add(other.losses);
    }

    /// The trinomial estimate: each game an independent sample of 0, ½ or 1.
    pub fn estimate(&self) -> Option<EloEstimate> {
        EloEstimate::from_distribution(&[0.0, 0.5, 1.0], &[self.losses, self.draws, self.wins], 1)
    }

    /// `Games: N, Wins: .., Losses: .., Draws: .., Points: .. (..%)` as fastchess prints it.
    pub fn games_line(&self) -> String {
        format!(
            "Games: {}, Wins: {}, Losses: {}, Draws: {}, Points: {:.1} ({} %)",
            self.games(),
            self.wins,
            self.losses,
            self.draws,
            self.points(),
            figure(100.0 * self.score(), 2)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: f64, b: f64, tol: f64) -> bool {
        (a - b).abs() <= tol
    }

    #[test]
    fn erf_matches_tabulated_values() {
        // Abramowitz & Stegun table 7.1 and standard values.
        let table = [
            (0.0, 0.0),
            (0.1, 0.112_462_916_018_284_9),
            (0.5, 0.520_499_877_813_046_5),
            (1.0, 0.842_700_792_949_714_9),
            (2.0, 0.995_322_265_018_952_7),
            (2.5, 0.999_593_047_982_555),
            (3.0, 0.999_977_909_503_001_4),
            (4.0, 0.999_999_984_582_742_1),
        ];
        for (x, e) in table {
            assert!(close(erf(x), e, 1e-13), "erf({x}) = {} not {e}", erf(x));
            assert!(close(erf(-x), -e, 1e-13));
        }
        // The tail must keep its relative precision: erfc(5) = 1.5374597944280349e-12.
        assert!(close(1.0 - erf(5.0), 1.537_459_794_428_035e-12, 1e-16));
        assert!(close(erfc(5.0), 1.537_459_794_428_035e-12, 1e-26));
    }

    /// `erfc` and Φ keep their relative precision in the lower tail. The references are
    /// mpmath's at 40 digits (`mpmath.erfc(x)`, `mpmath.ncdf(z)`), independent of this code;
    /// `1 - erf` and Python's `math.erfc(-z/sqrt(2))/2` are off from z = -5 and z = -10.
    #[test]
    fn erfc_and_normal_cdf_keep_the_tail_digits() {
        let relative = |got: f64, want: f64| ((got - want) / want).abs();
        let erfc_table = [
            (-1.0, 1.842_700_792_949_715),
            (0.5, 0.479_500_122_186_953_5),
            (1.0, 0.157_299_207_050_285_13),
            (2.0, 0.004_677_734_981_047_266),
            (10.0, 2.088_487_583_762_545e-45),
            (26.0, 5.663_192_408_856_143e-296),
        ];
        for (x, want) in erfc_table {
            assert!(relative(erfc(x), want) < 1e-14, "erfc({x}) = {:e}", erfc(x));
        }
        let cdf_table = [
            (-1.0, 0.158_655_253_931_457_05),
            (-5.0, 2.866_515_718_791_939e-7),
            (-10.0, 7.619_853_024_160_525e-24),
            (-20.0, 2.753_624_118_606_233_7e-89),
            (-37.0, 5.725_571_222_524_577e-300),
        ];
        for (z, want) in cdf_table {
            let got = normal_cdf(z);
            assert!(relative(got, want) < 1e-14, "normal_cdf({z}) = {got:e}");
            assert!(close(normal_cdf(-z), 1.0 - want, 2e-16));
        }
        assert_eq!(erfc(f64::INFINITY), 0.0);
        assert_eq!(erfc(f64::NEG_INFINITY), 2.0);
        assert_eq!(normal_cdf(-1e200), 0.0);
        assert!(erfc(f64::NAN).is_nan() && normal_cdf(f64::NAN).is_nan());
    }

    #[test]
    fn normal_quantile_inverts_cdf() {
        assert!(close(normal_quantile(0.975), Z95, 1e-12));
        assert!(close(normal_quantile(0.5), 0.0, 1e-14));
        assert!(close(
            normal_quantile(0.05),
            -1.644_853_626_951_472_2,
            1e-12
        ));
        assert!(close(normal_cdf(1.0), 0.841_344_746_068_542_9, 1e-14));
    }

    #[test]
    fn logistic_elo_by_hand() {
        // 75% is 400·log10(3) = 190.848...; 10^(-1/4)...
        assert!(close(score_to_elo(0.75), 400.0 * 3f64.log10(), 1e-9));
        assert!(close(score_to_elo(0.5), 0.0, 1e-12));
        assert!(close(elo_to_score(400.0), 10.0 / 11.0, 1e-15));
        for elo in [-300.0, -7.5, 0.0, 12.0, 250.0] {
            assert!(close(score_to_elo(elo_to_score(elo)), elo, 1e-9));
        }
        assert_eq!(score_to_elo(1.0), f64::INFINITY);
        assert_eq!(score_to_elo(0.0), f64::NEG_INFINITY);
    }

    #[test]
    fn trinomial_worked_by_hand() {
        // 60 wins, 20 draws, 20 losses: score 0.7; variance
        // 0.6·0.3² + 0.2·0.2² + 0.2·0.7² = 0.054 + 0.008 + 0.098 = 0.16, sigma 0.4;
        // standard error 0.4/10 = 0.04; interval 0.7 ± 1.96·0.04.
        let wdl = Wdl {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        let e = wdl.estimate().unwrap();
        assert!(close(e.score, 0.7, 1e-15));
        assert!(close(e.variance, 0.16, 1e-15));
        assert!(close(e.elo, 400.0 * (7.0f64 / 3.0).log10(), 1e-9));
        let hi = score_to_elo(0.7 + Z95 * 0.04);
        let lo = score_to_elo(0.7 - Z95 * 0.04);
        assert!(close(e.elo_error, (hi - lo) / 2.0, 1e-9));
        // The interval is asymmetric: further above the estimate than below it.
        let (below, above) = e.elo_interval();
        assert!(close(below, lo, 1e-9) && close(above, hi, 1e-9));
        assert!(above - e.elo > e.elo - below);
        // nElo: (0.7 - 0.5)/0.4 · 800/ln 10 = 0.5 · 347.4355855 = 173.7177928.
        assert!(close(e.nelo, 0.5 * NELO_PER_T, 1e-9));
        assert!(close(e.nelo_error, Z95 * 0.1 * NELO_PER_T, 1e-9));
        // LOS = Φ(0.2 / 0.04) = Φ(5).
        assert!(close(e.los, 0.999_999_713_348_428, 1e-12));
        assert_eq!(
            wdl.games_line(),
            "Games: 100, Wins: 60, Losses: 20, Draws: 20, Points: 70.0 (70.00 %)"
        );
    }

    /// The convention for degenerate samples (protocol/statistics.md, "Degenerate results"):
    /// fastchess's figure where it is finite, `inf` or `n/a` where it is not.
    #[test]
    fn degenerate_samples_follow_the_documented_convention() {
        let wdl = |wins, draws, losses| Wdl {
            wins,
            draws,
            losses,
        };
        let all_draws = wdl(0, 100, 0).estimate().unwrap();
        assert_eq!((all_draws.elo, all_draws.elo_error), (0.0, 0.0));
        assert!(all_draws.nelo.is_nan() && all_draws.nelo_error.is_nan() && all_draws.los.is_nan());
        assert_eq!(
            all_draws.elo_line(),
            "Elo: 0.00 +/- 0.00, nElo: n/a +/- n/a"
        );
        assert_eq!(
            all_draws.los_line(1.0, None),
            "LOS: n/a, DrawRatio: 100.00 %"
        );
        let all_wins = wdl(10, 0, 0).estimate().unwrap();
        assert_eq!(all_wins.elo, f64::INFINITY);
        assert_eq!(all_wins.nelo, f64::INFINITY);
        assert_eq!(all_wins.los, 1.0);
        assert_eq!(all_wins.elo_line(), "Elo: inf +/- n/a, nElo: inf +/- n/a");
        let all_losses = wdl(0, 0, 7).estimate().unwrap();
        assert_eq!(
            all_losses.elo_line(),
            "Elo: -inf +/- n/a, nElo: -inf +/- n/a"
        );
        assert_eq!(all_losses.los, 0.0);
        // One-sided but spread (9 wins, 1 draw): the score interval reaches 1, so the Elo error
        // is infinite; nElo's interval is linear in the score and stays finite.
        let nearly = wdl(9, 1, 0).estimate().unwrap();
        assert!(nearly.elo.is_finite());
        assert_eq!(nearly.elo_error, f64::INFINITY);
        assert!(nearly.nelo.is_finite() && nearly.nelo_error.is_finite());
        assert!(nearly.elo_line().contains(" +/- inf, nElo: "));
        assert!(Wdl::default().estimate().is_none());
        assert_eq!(figure(f64::NAN, 2), "n/a");
        assert_eq!(figure(-0.0, 2), "0.00");
        assert_eq!(figure(f64::NEG_INFINITY, 1), "-inf");
    }
}
