//! The SPRT on simulated matches: it must accept H1 when the new engine is clearly stronger, H0
//! when it is not, keep its error rates near alpha and beta at the hypotheses themselves, and stop
//! after about the number of pairs Wald's approximation predicts.
//!
//! Pairs are drawn from an exact pentanomial distribution built from a game model with a draw
//! parameter, a first-player advantage and per-opening bias (so pairs are correlated as in real
//! matches), which lets the true Elo and normalized Elo be computed exactly.

use otau::stats::elo::{score_to_elo, NELO_PER_T};
use otau::stats::{SprtConfig, SprtDecision, SprtModel};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

const VALUES: [f64; 5] = [0.0, 0.25, 0.5, 0.75, 1.0];

fn logistic(x: f64) -> f64 {
    1.0 / (1.0 + 10f64.powf(-x / 400.0))
}

/// Pair-score distribution (LL..WW) when the new engine is `strength` raw Elo stronger:
/// draw parameter 150, South advantage 30, opening bias -80, 0 or +80 (weights ¼, ½, ¼).
fn pentanomial(strength: f64) -> [f64; 5] {
    let (draw, advantage) = (150.0, 30.0);
    let game = |x: f64| {
        let (w, l) = (logistic(x - draw), logistic(-x - draw));
        [l, 1.0 - w - l, w] // loss, draw, win of the engine with edge x
    };
    let mut p = [0.0; 5];
    for (bias, weight) in [(-80.0, 0.25), (0.0, 0.5), (80.0, 0.25)] {
        let as_south = game(strength + advantage + bias);
        let as_north = game(strength - advantage - bias);
        for (i, a) in as_south.iter().enumerate() {
            for (j, b) in as_north.iter().enumerate() {
                p[i + j] += weight * a * b;
            }
        }
    }
    p
}

fn moments(p: &[f64; 5]) -> (f64, f64) {
    let mean: f64 = VALUES.iter().zip(p).map(|(v, q)| v * q).sum();
    let var = VALUES
        .iter()
        .zip(p)
        .map(|(v, q)| q * (v - mean).powi(2))
        .sum();
    (mean, var)
}

/// The model strength whose true (logistic or normalized) Elo is `target`, by bisection.
fn strength_for(target: f64, model: SprtModel) -> f64 {
    let measure = |s: f64| {
        let (mean, var) = moments(&pentanomial(s));
        match model {
            SprtModel::Logistic => score_to_elo(mean),
            SprtModel::Normalized => (mean - 0.5) / (2.0 * var).sqrt() * NELO_PER_T,
        }
    };
    let (mut lo, mut hi) = (-400.0, 400.0);
    for _ in 0..100 {
        let mid = 0.5 * (lo + hi);
        if measure(mid) < target {
            lo = mid;
        } else {
            hi = mid;
        }
    }
    0.5 * (lo + hi)
}

struct SprtRunStats {
    h1_rate: f64,
    h0_rate: f64,
    mean_pairs: f64,
    /// Wald's approximation of the mean number of pairs, from the LLR drift per pair.
    wald_pairs: f64,
}

fn run(config: &SprtConfig, true_elo: f64, runs: u64, seed: u64) -> SprtRunStats {
    let p = pentanomial(strength_for(true_elo, config.model));
    let mut cumulative = [0.0; 5];
    let mut acc = 0.0;
    for (c, q) in cumulative.iter_mut().zip(p) {
        acc += q;
        *c = acc;
    }
    let (mut h1, mut h0, mut total_pairs) = (0u64, 0u64, 0u64);
    for run in 0..runs {
        let mut rng = ChaCha8Rng::seed_from_u64(seed * 1_000_003 + run);
        let mut counts = [0u64; 5];
        let mut pairs = 0u64;
        loop {
            let u: f64 = rng.gen();
            let k = cumulative.iter().position(|&c| u < c).unwrap_or(4);
            counts[k] += 1;
            pairs += 1;
            match config.decide(config.llr_counts(&counts)) {
                SprtDecision::AcceptH1 => {
                    h1 += 1;
                    break;
                }
                SprtDecision::AcceptH0 => {
                    h0 += 1;
                    break;
                }
                SprtDecision::Continue => assert!(pairs < 200_000, "no decision"),
            }
        }
        total_pairs += pairs;
    }
    // Wald: E[N] = (P(H1)·upper + P(H0)·lower) / drift, with the acceptance probabilities
    // taken from the simulation and the drift computed exactly from the true distribution.
    let drift = config.llr_per_unit(&VALUES, &p);
    let (ph1, ph0) = (h1 as f64 / runs as f64, h0 as f64 / runs as f64);
    SprtRunStats {
        h1_rate: ph1,
        h0_rate: ph0,
        mean_pairs: total_pairs as f64 / runs as f64,
        wald_pairs: (ph1 * config.upper_bound() + ph0 * config.lower_bound()) / drift,
    }
}

fn check(model: SprtModel, elo1: f64, strong: f64) {
    let config = SprtConfig::new(0.0, elo1, 0.05, 0.05, model).unwrap();
    let runs = 200;
    // A clear gain: H1 nearly always.
    let o = run(&config, strong, runs, 1);
    assert!(o.h1_rate >= 0.99, "{model:?} strong: H1 rate {}", o.h1_rate);
    assert_within_wald(&o, model, "strong");
    // No gain at all (true Elo 0 = elo0): H0, except for the alpha = 5% of false alarms.
    let o = run(&config, 0.0, runs, 2);
    assert!(o.h0_rate >= 0.90, "{model:?} none: H0 rate {}", o.h0_rate);
    assert_within_wald(&o, model, "none");
    // At elo1 the false H0 rate is beta = 5% (with binomial slack).
    let o = run(&config, elo1, runs, 4);
    assert!(
        o.h0_rate <= 0.10,
        "{model:?} at elo1: false H0 rate {}",
        o.h0_rate
    );
    assert_within_wald(&o, model, "elo1");
}

/// The mean sample size is Wald's prediction plus the overshoot past the bound (the LLR jumps
/// over it by part of a step): never less than 0.9 of it, and not much more.
fn assert_within_wald(o: &SprtRunStats, model: SprtModel, case: &str) {
    let ratio = o.mean_pairs / o.wald_pairs;
    eprintln!(
        "{model:?} {case}: H1 {:.3}, H0 {:.3}, {:.0} pairs on average (Wald {:.0})",
        o.h1_rate, o.h0_rate, o.mean_pairs, o.wald_pairs
    );
    assert!(
        (0.9..=1.3).contains(&ratio),
        "{model:?} {case}: {} pairs on average, Wald predicts {}",
        o.mean_pairs,
        o.wald_pairs
    );
}

#[test]
fn logistic_sprt_decides_correctly_within_the_expected_games() {
    check(SprtModel::Logistic, 10.0, 30.0);
}

#[test]
fn normalized_sprt_decides_correctly_within_the_expected_games() {
    check(SprtModel::Normalized, 15.0, 45.0);
}

/// The model builds the distribution it claims: a stronger engine scores more, and the first
/// player's advantage cancels within a pair at equal strength.
#[test]
fn simulation_model_is_sound() {
    let even = pentanomial(0.0);
    assert!((even.iter().sum::<f64>() - 1.0).abs() < 1e-12);
    assert!((moments(&even).0 - 0.5).abs() < 1e-12);
    assert!((even[0] - even[4]).abs() < 1e-12 && (even[1] - even[3]).abs() < 1e-12);
    let s = strength_for(10.0, SprtModel::Logistic);
    assert!((score_to_elo(moments(&pentanomial(s)).0) - 10.0).abs() < 1e-6);
    assert!(
        s > 10.0,
        "raw model Elo is steeper than logistic Elo with draws: {s}"
    );
}
