//! The pairing's properties on its own (the reference's verdicts are checked in
//! `tests/integration/arena_swiss.rs`).

use super::*;

fn field(n: usize, total_rounds: u32) -> Tournament {
    Tournament {
        players: (0..n)
            .map(|i| Player {
                name: format!("P{}", i + 1),
                rating: 2000 - i as u32,
                rounds: Vec::new(),
            })
            .collect(),
        total_rounds,
        points: Points::default(),
        initial_colour: Colour::White,
        forbidden: Vec::new(),
    }
}

/// Plays a paired round: `result(white, black)` is White's score.
fn play(t: &mut Tournament, pairing: &RoundPairing, mut result: impl FnMut(usize, usize) -> Score) {
    let flip = |s: Score| match s {
        Score::Win => Score::Loss,
        Score::Loss => Score::Win,
        Score::Draw => Score::Draw,
    };
    for &(white, black) in &pairing.pairs {
        let score = result(white, black);
        t.players[white].rounds.push(Round {
            opponent: Some(black),
            colour: Some(Colour::White),
            score,
            played: true,
            paired: true,
        });
        t.players[black].rounds.push(Round {
            opponent: Some(white),
            colour: Some(Colour::Black),
            score: flip(score),
            played: true,
            paired: true,
        });
    }
    if let Some(bye) = pairing.bye {
        t.players[bye].rounds.push(Round::pairing_bye());
    }
}

#[test]
fn round_one_pairs_top_half_against_bottom_half() {
    let t = field(8, 5);
    let p = pair_round(&t).unwrap();
    // 1-5, 2-6, 3-7, 4-8; pairing number 1 White, the colours alternating down the board.
    assert_eq!(p.pairs, vec![(0, 4), (5, 1), (2, 6), (7, 3)]);
    assert_eq!(p.bye, None);
}

#[test]
fn worked_example_round_two_transposes_for_colours() {
    // Round 1 as above, the higher number winning each game.
    let mut t = field(8, 5);
    let p = pair_round(&t).unwrap();
    play(&mut t, &p, |white, black| {
        if white < black {
            Score::Win
        } else {
            Score::Loss
        }
    });
    // Score group 1: 1 2 3 4 (1 and 3 had White, 2 and 4 Black). S1 = {1, 2}, S2 = {3, 4}:
    // 1-3 and 2-4 would give two players their second White; the transposition 1-4, 2-3 gives
    // everyone the other colour. The same in the group of 0: 5-8 and 6-7.
    let p = pair_round(&t).unwrap();
    assert_eq!(p.pairs, vec![(3, 0), (1, 2), (4, 7), (6, 5)]);
}

#[test]
fn odd_field_gives_the_bye_to_the_lowest() {
    let t = field(9, 5);
    let p = pair_round(&t).unwrap();
    assert_eq!(p.bye, Some(8));
    assert_eq!(p.pairs.len(), 4);
}

#[test]
fn an_absent_player_is_not_paired() {
    let mut t = field(9, 5);
    t.players[2].rounds.push(Round::absent(Score::Draw));
    let p = pair_round(&t).unwrap();
    assert_eq!(p.bye, None);
    assert!(p.pairs.iter().all(|&(w, b)| w != 2 && b != 2));
}

#[test]
fn trf_round_trips_and_pairs_the_same() {
    let mut t = field(7, 5);
    for _ in 0..2 {
        let p = pair_round(&t).unwrap();
        play(&mut t, &p, |white, black| {
            if white + black % 3 == 0 {
                Score::Draw
            } else {
                Score::Win
            }
        });
    }
    let text = trf::write(&t, "round trip");
    let back = trf::read(&text).unwrap();
    assert_eq!(back.players, t.players);
    assert_eq!(pair_round(&back), pair_round(&t));
}

/// A small deterministic generator for the property runs.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// Whole tournaments paired by the engine with random results and absences: no rematch, the
/// colour difference within 2 and never three of a colour in a row (before the last round,
/// where top scorers may meet regardless), the pairing-allocated bye at most once each.
#[test]
fn properties_hold_over_random_tournaments() {
    let mut rng = Lcg(7);
    let mut rounds_checked = 0;
    for _ in 0..60 {
        let n = 6 + rng.below(20) as usize;
        let total = 3 + rng.below(6) as u32;
        let mut t = field(n, total);
        for round in 0..total as usize {
            for player in &mut t.players {
                if rng.below(12) == 0 {
                    player.rounds.push(Round::absent(Score::Draw));
                }
            }
            let p = match pair_round(&t) {
                Ok(p) => p,
                Err(PairingError::NoValidPairing) => break,
                Err(e) => panic!("{e}"),
            };
            let mut seen = vec![0; n];
            for &(w, b) in &p.pairs {
                seen[w] += 1;
                seen[b] += 1;
                let met = t.players[w]
                    .rounds
                    .iter()
                    .any(|r| r.played && r.opponent == Some(b));
                assert!(!met, "rematch {w}-{b} in round {}", round + 1);
            }
            if let Some(bye) = p.bye {
                seen[bye] += 1;
                assert!(
                    t.players[bye]
                        .rounds
                        .iter()
                        .all(|r| !(r.paired && r.opponent.is_none())),
                    "second bye"
                );
            }
            for (id, player) in t.players.iter().enumerate() {
                let absent = player.rounds.len() > round;
                assert_eq!(
                    seen[id],
                    usize::from(!absent),
                    "player {id} in round {}",
                    round + 1
                );
            }
            let last = round + 1 == total as usize;
            play(&mut t, &p, |_, _| match rng.below(3) {
                0 => Score::Win,
                1 => Score::Draw,
                _ => Score::Loss,
            });
            if !last {
                for player in &t.players {
                    let colours: Vec<Colour> = player
                        .rounds
                        .iter()
                        .filter(|r| r.played)
                        .filter_map(|r| r.colour)
                        .collect();
                    let whites = colours.iter().filter(|&&c| c == Colour::White).count() as i64;
                    assert!(
                        (2 * whites - colours.len() as i64).abs() <= 2,
                        "colours {colours:?}"
                    );
                    assert!(
                        colours.windows(3).all(|w| w[0] != w[1] || w[1] != w[2]),
                        "{colours:?}"
                    );
                }
            }
            rounds_checked += 1;
        }
    }
    assert!(rounds_checked > 200, "{rounds_checked} rounds");
}

#[test]
fn trf_reads_point_systems_and_forbidden_pairs_and_refuses_what_it_does_not_read() {
    let mut t = field(4, 3);
    t.points.win = 30;
    t.points.draw = 10;
    t.points.pairing_bye = 30;
    t.forbidden.push((0, 2));
    let text = trf::write(&t, "points");
    assert!(text.contains("BBW  3.0\r") && text.contains("BBD  1.0\r") && !text.contains("BBU"));
    let back = trf::read(&text).unwrap();
    assert_eq!((back.points, &back.forbidden), (t.points, &t.forbidden));
    // The forbidden pair is not paired: 1-3 would be round 1's first board.
    let p = pair_round(&back).unwrap();
    assert!(
        !p.pairs.contains(&(0, 2)) && !p.pairs.contains(&(2, 0)),
        "{p:?}"
    );
    // TRF-2026's point line.
    let with_162 = format!(
        "162  W 3.0    D 1.0    P 1.0\r{}",
        trf::write(&field(4, 3), "x")
    );
    let read = trf::read(&with_162).unwrap();
    assert_eq!(
        (read.points.win, read.points.draw, read.points.pairing_bye),
        (30, 10, 10)
    );
    for refused in ["XXA 0001  1.0", "240 F   1 0001", "XXC rank"] {
        let text = format!("{refused}\r{}", trf::write(&field(4, 3), "x"));
        assert!(trf::read(&text).is_err(), "{refused}");
    }
    // Pairing needs the number of rounds and a round left.
    let no_rounds = trf::write(&field(4, 3), "x").replace("XXR 3\r", "");
    assert!(trf::next_round(&no_rounds).unwrap_err().contains("XXR"));
}

#[test]
fn standings_order_by_points_then_the_tie_breaks_asked() {
    use standings::{standings, TieBreak};
    let mut t = field(4, 2);
    let game = |t: &mut Tournament, w: usize, b: usize, s: Score| {
        play(
            t,
            &RoundPairing {
                pairs: vec![(w, b)],
                bye: None,
            },
            |_, _| s,
        )
    };
    // Round 1: 1 beats 3, 2 draws 4; round 2: 1 draws 2, 3 beats 4.
    game(&mut t, 0, 2, Score::Win);
    game(&mut t, 1, 3, Score::Draw);
    game(&mut t, 0, 1, Score::Draw);
    game(&mut t, 2, 3, Score::Win);
    let order = [
        TieBreak::SonnebornBerger,
        TieBreak::Buchholz,
        TieBreak::BuchholzCut1,
    ];
    let rows = standings(&t, &order);
    let players: Vec<usize> = rows.iter().map(|r| r.player).collect();
    assert_eq!(players, vec![0, 1, 2, 3]);
    assert_eq!(rows[0].points, 15);
    // SB in hundredths: 1.0 (beat 3) + 0.5 (drew 2); Buchholz 1.0 + 1.0; cut-1 1.0.
    assert_eq!(rows[0].values, vec![150, 20, 10]);
    assert_eq!(rows[1].values, vec![100, 20, 15]);
    // Wins first: 3 (one win) before 2 (none).
    let rows = standings(&t, &[TieBreak::Wins]);
    assert_eq!(
        rows.iter().map(|r| r.player).collect::<Vec<_>>(),
        vec![0, 2, 1, 3]
    );
    assert_eq!(
        TieBreak::parse_list("wins,buchholz").unwrap(),
        vec![TieBreak::Wins, TieBreak::Buchholz]
    );
    assert_eq!(
        TieBreak::parse_list("BH-C1,bh,sb,de,won,win").unwrap(),
        vec![
            TieBreak::BuchholzCut1,
            TieBreak::Buchholz,
            TieBreak::SonnebornBerger,
            TieBreak::DirectEncounter,
            TieBreak::Wins,
            TieBreak::RoundsWon
        ]
    );
    assert_eq!(
        TieBreak::parse_list("bh,median").unwrap_err(),
        "--tiebreaks bh,median: unknown tie-break \"median\"; the valid ones: bh-c1 \
         (buchholz-cut1), bh (buchholz), sb (sonneborn-berger), de (direct-encounter), won \
         (wins), win (rounds-won)"
    );
    assert!(TieBreak::parse_list("bh,BH").unwrap_err().contains("twice"));
    assert!(TieBreak::parse_list("").is_err());
    let table = standings::table(
        &t,
        &order,
        &["a".into(), "b".into(), "c".into(), "d".into()],
    );
    assert!(table.contains("  3w1"), "{table}");
}
