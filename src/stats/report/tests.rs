//! The HTML report's tests: sections, charts, the game list's window.

use super::*;
use crate::stats::game::MoveSummary;
use crate::stats::sprt::{SprtConfig, SprtModel};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

fn simulated(players: &[&str], pairs: u64, seed: u64) -> Vec<GameStats> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut games = Vec::new();
    for pair in 0..pairs {
        let a = players[(pair as usize) % players.len()];
        let b = players[(pair as usize + 1) % players.len()];
        for (south, north) in [(a, b), (b, a)] {
            let u: f64 = rng.gen();
            let (outcome, s, n) = if u < 0.45 {
                (Outcome::Win(Side::South), 90 + rng.gen_range(0..20), 60)
            } else if u < 0.9 {
                (Outcome::Win(Side::North), 70, 82 + rng.gen_range(0..20))
            } else {
                (Outcome::Draw, 81, 81)
            };
            let mut moves = MoveSummary::default();
            moves.record(1500, Some(5), Some(30_000));
            games.push(GameStats {
                pair,
                game: 0,
                south: south.into(),
                north: north.into(),
                outcome,
                termination: if u < 0.05 {
                    "time-loss".into()
                } else {
                    "rules".into()
                },
                plies: 60,
                south_total: s,
                north_total: n,
                south_moves: moves,
                north_moves: moves,
            });
        }
    }
    games
}

/// Checks that every non-void element is closed in order: a small well-formedness check
/// for the subset of HTML the report writes.
fn assert_balanced(html: &str) {
    const VOID: [&str; 1] = ["meta"];
    let mut stack: Vec<String> = Vec::new();
    let mut rest = html;
    while let Some(start) = rest.find('<') {
        let end = rest[start..].find('>').expect("unclosed tag") + start;
        let tag = &rest[start + 1..end];
        rest = &rest[end + 1..];
        if tag.starts_with('!') {
            continue;
        }
        let self_closing = tag.ends_with('/');
        let name: String = tag
            .trim_start_matches('/')
            .chars()
            .take_while(|c| c.is_ascii_alphanumeric())
            .collect();
        if tag.starts_with('/') {
            assert_eq!(
                stack.pop().as_deref(),
                Some(name.as_str()),
                "mismatched </{name}>"
            );
        } else if !self_closing && !VOID.contains(&name.as_str()) {
            stack.push(name);
        }
    }
    assert!(stack.is_empty(), "unclosed: {stack:?}");
}

#[test]
fn two_engine_report_has_every_section() {
    let games = simulated(&["new <b>", "old"], 150, 3);
    let options = ReportOptions {
        title: "run.jsonl".into(),
        summary: SummaryOptions {
            players: vec!["new <b>".into(), "old".into()],
            sprt: Some(SprtConfig::new(0.0, 10.0, 0.05, 0.05, SprtModel::Normalized).unwrap()),
            ..Default::default()
        },
        appendix: String::new(),
        notes: vec![("Knockout <1>".into(), "a & b".into())],
        pairing: None,
    };
    let html = render_html(&games, &options);
    assert!(html.starts_with("<!DOCTYPE html>"));
    for id in [
        "summary",
        "note-0",
        "ratings",
        "crosstable",
        "elo-history",
        "sprt",
        "margins",
        "engines",
        "games",
    ] {
        assert!(
            html.contains(&format!("<section id=\"{id}\">")),
            "missing {id}"
        );
    }
    // Self-contained: nothing to load.
    for needle in [
        "http:", "https:", "<script", "src=", "<link", "@import", "url(",
    ] {
        assert!(!html.contains(needle), "found {needle}");
    }
    assert!(html.contains("<h2>Knockout &lt;1&gt;</h2>\n<pre>a &amp; b</pre>"));
    assert!(!html.contains("new <b>"), "unescaped name");
    assert!(html.contains("new &lt;b&gt;"));
    assert!(!html.contains("NaN"));
    assert!(html.contains("LLR: "));
    assert!(html.contains("H1 "));
    assert_eq!(html.matches("<svg").count(), 3);
    // One table row per game plus the header.
    let games_section = &html[html.find("<section id=\"games\">").unwrap()..];
    assert_eq!(
        games_section.matches("<tr>").count() + games_section.matches("<tr data-game=").count(),
        300 + 1
    );
    // Endings by kind: the simulated time losses are North's (they come with South wins).
    let engines_section = &html[html.find("<section id=\"engines\">").unwrap()..];
    assert!(
        engines_section.contains("time-loss "),
        "no time-loss ending listed"
    );
    assert_balanced(&html);
}

#[test]
fn multi_engine_report_plots_ratings() {
    let games = simulated(&["a", "b", "c", "d"], 120, 9);
    let html = render_html(&games, &ReportOptions::default());
    assert!(html.contains("<title>otau arena report</title>"));
    assert!(html.contains("No SPRT in this run."));
    assert!(html.contains("Ratings as games accumulated"));
    assert!(html.contains("South&#39;s total minus North&#39;s"));
    assert_balanced(&html);
    let empty = render_html(&[], &ReportOptions::default());
    assert!(empty.contains("No rating table"));
    assert_balanced(&empty);
}

fn decided(south: &str, north: &str, winner: Side, pair: u64) -> GameStats {
    GameStats {
        pair,
        game: 0,
        south: south.into(),
        north: north.into(),
        outcome: Outcome::Win(winner),
        termination: "rules".into(),
        plies: 40,
        south_total: 90,
        north_total: 70,
        south_moves: MoveSummary::default(),
        north_moves: MoveSummary::default(),
    }
}

/// Issue 16, item 9: the Elo band is the interval's own ends, wider above a winning score.
#[test]
fn elo_band_is_asymmetric() {
    // "a" wins 3 games in 4.
    let games: Vec<GameStats> = (0..80)
        .map(|i| {
            let (s, n) = if i % 2 == 0 { ("a", "b") } else { ("b", "a") };
            let a_side = if i % 2 == 0 { Side::South } else { Side::North };
            let winner = if i % 4 == 3 { a_side.other() } else { a_side };
            decided(s, n, winner, i / 2)
        })
        .collect();
    let summary = summarize(&games, &SummaryOptions::default());
    let mut chart = EloChart::new(&summary, &ReportOptions::default(), games.len());
    for (i, g) in games.iter().enumerate() {
        chart.add(i, g);
    }
    let EloChart::HeadToHead { series, .. } = chart else {
        panic!("two engines: a head-to-head chart");
    };
    let (x, elo) = *series.points.last().unwrap();
    let &(bx, low, high) = series.band.last().unwrap();
    assert_eq!(x, bx);
    assert!(high - elo > elo - low + 1.0, "{low} {elo} {high}");
}

/// Issue 16, item 9: a 40-0 run's Elo chart is a note that says why, not an empty frame.
#[test]
fn perfect_score_elo_chart_is_a_note() {
    let games: Vec<GameStats> = (0..40)
        .map(|i| {
            if i % 2 == 0 {
                decided("a", "b", Side::South, i / 2)
            } else {
                decided("b", "a", Side::North, i / 2)
            }
        })
        .collect();
    let html = render_html(&games, &ReportOptions::default());
    let elo = &html[html.find("<section id=\"elo-history\">").unwrap()..];
    let elo = &elo[..elo.find("</section>").unwrap()];
    assert!(!elo.contains("<svg"), "{elo}");
    assert!(elo.contains("infinite throughout"), "{elo}");
    assert!(elo.contains("Games: 40, Wins: 40"), "{elo}");
    assert!(!html.contains("NaN"));
    assert_balanced(&html);
}

#[test]
fn checkpoints_end_at_the_last_game() {
    assert_eq!(checkpoints(10, 4), vec![2, 5, 8, 9]);
    assert_eq!(checkpoints(3, 300), vec![0, 1, 2]);
    assert!(checkpoints(0, 5).is_empty());
}
