//! The ratings' tests: fits checked by hand, against BayesElo and Ordo, and on simulated and
//! large sparse fields.

use super::*;
use crate::games::{Outcome, Side};
use crate::stats::game::test_game as game;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn games(south: &str, north: &str, wins: usize, draws: usize, losses: usize) -> Vec<GameStats> {
    let mut out = Vec::new();
    out.extend((0..wins).map(|_| game(0, south, north, Outcome::Win(Side::South))));
    out.extend((0..draws).map(|_| game(0, south, north, Outcome::Draw)));
    out.extend((0..losses).map(|_| game(0, south, north, Outcome::Win(Side::North))));
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
                    all.push(game(0, &names[i], &names[j], outcome));
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
    let text = include_str!("../../../tests/data/roundrobin-240.pgn");
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
    assert_eq!(
        err.to_string(),
        "the players form 2 groups that never met, directly or through other players, so \
             their ratings cannot be compared: the largest group has 2 of the 4 players, the \
             other 2 (the other group: C, D)"
    );
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
        lines[0].contains("PLAYER") && lines[0].contains("RATING") && lines[0].contains("CFS(%)")
    );
    assert!(lines[1].trim_start().starts_with("1 strong"), "{text}");
    assert!(lines[3].trim_start().starts_with("3 weak"), "{text}");
    assert!(text.contains("First-player (South) advantage = "), "{text}");
    // Points and games are the real ones, not the virtual draws.
    assert_eq!(t.players[0].wdl.games(), 200);
    assert_eq!(t.games, 400);
}

/// A tree of players, each child having played its parent only (4 games a colour, the same
/// score with both colours): with no cycle and no colour bias, the maximum-likelihood
/// ratings are known exactly: a child is its parent plus the Elo of its score, the
/// advantage 0. Fields of `players` with children attached at random (`chain`: each to the
/// one before).
fn tree_field(players: usize, chain: bool) -> (Vec<GameStats>, Vec<f64>) {
    let mut rng = ChaCha8Rng::seed_from_u64(27);
    let patterns = [(3, 1), (1, 3), (2, 1), (1, 2), (1, 1)];
    let mut truth = vec![0.0; players];
    let mut all = Vec::new();
    for child in 1..players {
        let parent = if chain {
            child - 1
        } else {
            rng.gen_range(0..child)
        };
        let (w, l) = patterns[rng.gen_range(0..patterns.len())];
        truth[child] = truth[parent] + logit_elo(w as f64 / (w + l) as f64);
        let (c, p) = (format!("p{child}"), format!("p{parent}"));
        all.extend(games(&c, &p, w, 0, l));
        all.extend(games(&p, &c, l, 0, w));
    }
    let mean = truth.iter().sum::<f64>() / players as f64;
    truth.iter_mut().for_each(|t| *t -= mean);
    (all, truth)
}

/// Issue 27, item 5: large sparse fields (a random tree of 3,000 players, past the full
/// covariance, and a chain of 1,000, the worst conditioned field) reach the exact
/// maximum-likelihood ratings; the errors are each rating's own and the table says so.
#[test]
fn large_sparse_fields_reach_their_exact_ratings() {
    for (players, chain, tolerance) in [(3000, false, 1e-6), (1000, true, 1e-4)] {
        let (all, truth) = tree_field(players, chain);
        let mut steps = 0;
        let mut pairings = Pairings::new();
        for g in &all {
            pairings.add(&g.south, &g.north, g.outcome);
        }
        assert_eq!(pairings.pairings(), 2 * (players - 1));
        let t = fit_pairings(&pairings, &NO_PRIOR, &mut |_| steps += 1).unwrap();
        assert!(steps > 0, "progress is reported");
        assert_eq!(t.players.len(), players);
        assert!(
            t.first_player_advantage.abs() < 1e-6,
            "{}",
            t.first_player_advantage
        );
        for p in &t.players {
            let i: usize = p.name[1..].parse().unwrap();
            assert!(
                (p.rating - truth[i]).abs() < tolerance,
                "{players} players, chain {chain}: {} {} vs {}",
                p.name,
                p.rating,
                truth[i]
            );
            assert!(p.error.is_finite() && p.error > 0.0, "{p:?}");
        }
        assert!(t.errors_held);
        assert!(t.text().contains(&format!("Errors of {players} players")));
        assert!(t.first_player_advantage_error > 0.0);
    }
}

/// The errors of a large field (each rating's own, the others held) against the full
/// covariance on one simulated field of 150 players: the ratings are the same, and the held
/// errors are a little smaller, never larger (`statistics.md` states the measured ratio).
#[test]
fn held_errors_are_close_to_the_full_ones() {
    let mut rng = ChaCha8Rng::seed_from_u64(7);
    let players = 150;
    let truth: Vec<f64> = (0..players).map(|_| rng.gen_range(-300.0..300.0)).collect();
    let f = |x: f64| 1.0 / (1.0 + 10f64.powf(-x / 400.0));
    let mut pairings = Pairings::new();
    for k in 0..3000 {
        let (i, j) = if k < players - 1 {
            (k + 1, rng.gen_range(0..=k))
        } else {
            let i = rng.gen_range(0..players);
            (i, (i + rng.gen_range(1..players)) % players)
        };
        let x = truth[i] - truth[j] + 30.0;
        let u: f64 = rng.gen();
        let outcome = if u < f(x - 100.0) {
            Outcome::Win(Side::South)
        } else if u < f(x - 100.0) + f(-x - 100.0) {
            Outcome::Win(Side::North)
        } else {
            Outcome::Draw
        };
        pairings.add(&format!("p{i}"), &format!("p{j}"), outcome);
    }
    let options = RatingOptions::default();
    let full = fit_pairings_with(&pairings, &options, usize::MAX, &mut |_| {}).unwrap();
    let held = fit_pairings_with(&pairings, &options, 0, &mut |_| {}).unwrap();
    assert!(!full.errors_held && held.errors_held);
    let (mut low, mut high) = (f64::MAX, 0.0f64);
    for (a, b) in full.players.iter().zip(&held.players) {
        assert_eq!(a.name, b.name);
        assert!((a.rating - b.rating).abs() < 1e-9);
        let ratio = b.error / a.error;
        low = low.min(ratio);
        high = high.max(ratio);
    }
    eprintln!("held/full error ratio {low:.3}..{high:.3}");
    assert!(low > 0.95 && high <= 1.0 + 1e-9, "{low} {high}");
    assert!(
        (full.first_player_advantage_error - held.first_player_advantage_error).abs()
            < 1e-6 * full.first_player_advantage_error
    );
}
