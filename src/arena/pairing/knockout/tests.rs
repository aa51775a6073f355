use super::*;

/// The bracket `games` make, replayed from a new one.
fn replay(rules: Rules, games: impl IntoIterator<Item = Recorded>) -> Result<Bracket, String> {
    let mut b = Bracket::new(rules);
    b.replay_games(games)?;
    Ok(b)
}

/// A game as its record names it, from its spec.
fn recorded(g: &GameSpec, result: Outcome) -> Recorded {
    Recorded {
        index: g.index,
        south: g.south,
        north: g.north,
        result,
        unplayed: false,
        round: g.round,
        encounter: g.encounter,
    }
}

fn rules(n: usize, pairs: u32, tiebreak_pairs: u32) -> Rules {
    Rules {
        names: (0..n).map(|i| format!("e{i}")).collect(),
        pairs,
        tiebreak_pairs,
        seed: 7,
    }
}

/// Plays the bracket out, `result` deciding each game from its spec; returns the games in
/// the order handed out.
fn play(b: &mut Bracket, result: impl Fn(&GameSpec) -> Outcome) -> Vec<GameSpec> {
    let mut games = Vec::new();
    loop {
        match b.next_game() {
            Step::Game(g) => games.push(g),
            Step::Wait => {
                // A wave is complete only when every game is in: finish them all.
                let wave: Vec<GameSpec> = games
                    .iter()
                    .filter(|g| g.index >= b.wave_start)
                    .copied()
                    .collect();
                for g in wave {
                    b.record_game(g.index, g.south, g.north, result(&g))
                        .unwrap();
                }
            }
            Step::Done => return games,
        }
    }
}

/// The better seed (lower index) wins every game.
fn seeds_win(g: &GameSpec) -> Outcome {
    if g.south < g.north {
        Outcome::Win(Side::South)
    } else {
        Outcome::Win(Side::North)
    }
}

#[test]
fn options_a_knockout_cannot_take_are_named() {
    check_numbers(2, 1, None, Some(0), false).unwrap();
    let err = |r: Result<(), String>| r.unwrap_err();
    assert!(err(check_numbers(1, 1, None, None, false)).contains("at least two engines"));
    assert!(err(check_numbers(4, 1, Some(8), None, false)).starts_with("--games 8"));
    assert!(err(check_numbers(4, 1, None, None, true)).starts_with("--sprt"));
    assert!(err(check_numbers(4, 1, None, Some(1001), false))
        .starts_with("--tiebreak-pairs 1001: 0..=1000"));
    assert!(err(check_numbers(4, 0, None, None, false)).starts_with("--rounds 0"));
    check_numbers(3, u32::MAX, None, None, false).unwrap();
    let shard = "1/2".parse().unwrap();
    assert!(err(check_shard(shard)).starts_with("--shard 1/2: a knockout cannot be split"));
}

#[test]
fn seeds_are_placed_as_in_a_standard_bracket() {
    assert_eq!(seed_slots(1), vec![1]);
    assert_eq!(seed_slots(2), vec![1, 2]);
    assert_eq!(seed_slots(4), vec![1, 4, 2, 3]);
    assert_eq!(seed_slots(8), vec![1, 8, 4, 5, 2, 7, 3, 6]);
    for size in [2, 4, 8, 16, 32] {
        let s = seed_slots(size);
        assert!(s.chunks(2).all(|c| c[0] + c[1] == size + 1), "{s:?}");
    }
}

#[test]
fn byes_go_to_the_top_seeds() {
    // 5 engines in a bracket of 8: seeds 1, 2, 3 have byes; 4 plays 5.
    let b = Bracket::new(rules(5, 1, 0));
    let first: Vec<[Option<usize>; 2]> = b.rounds()[0].iter().map(|e| e.seats).collect();
    assert_eq!(
        first,
        vec![
            [Some(0), None],
            [Some(3), Some(4)],
            [Some(1), None],
            [Some(2), None]
        ]
    );
    assert_eq!(b.rounds()[0][0].winner, Some((0, Decided::Bye)));
    // 3 engines: seed 1 waits for the winner of 2 against 3.
    let b = Bracket::new(rules(3, 1, 0));
    assert_eq!(b.rounds()[0][0].seats, [Some(0), None]);
    assert_eq!(b.rounds()[0][1].seats, [Some(1), Some(2)]);
}

#[test]
fn games_come_in_waves_numbered_densely() {
    for n in 2..=9 {
        let mut b = Bracket::new(rules(n, 2, 1));
        let games = play(&mut b, seeds_win);
        // Every encounter eliminates one engine: n - 1 encounters of 2 pairs, no ties.
        assert_eq!(games.len() as u64, b.rules().regular_games(), "{n} engines");
        assert!(games
            .iter()
            .enumerate()
            .all(|(i, g)| g.index == i as u64 && g.pair == i as u64 / 2));
        // Each pair: the same two engines, colours swapped, the better seed South first.
        for p in games.chunks(2) {
            assert_eq!((p[0].south, p[0].north), (p[1].north, p[1].south));
            assert!(p[0].south < p[0].north);
        }
        assert_eq!(b.champion(), Some(0));
        assert_eq!(b.games_left(), 0);
        assert_eq!(b.next_game(), Step::Done);
    }
}

#[test]
fn the_next_round_waits_for_the_whole_wave() {
    let mut b = Bracket::new(rules(4, 1, 0));
    // Round one: 1-4 and 2-3, one pair each: four games, then nothing until they end.
    let Step::Game(g0) = b.next_game() else {
        panic!()
    };
    assert_eq!(
        (g0.round, g0.encounter, g0.south, g0.north),
        (0, Some(0), 0, 3)
    );
    for _ in 0..3 {
        assert!(matches!(b.next_game(), Step::Game(_)));
    }
    assert_eq!(b.next_game(), Step::Wait);
    assert_eq!(b.games_left(), 4 + 2);
    for (i, (s, n)) in [(0, 3), (3, 0), (1, 2), (2, 1)].into_iter().enumerate() {
        b.record_game(i as u64, s, n, Outcome::Draw)
            .unwrap_or_else(|e| panic!("{e}"));
    }
    // All level, no tiebreak pairs: seeded draws decide; the final follows.
    let Step::Game(f) = b.next_game() else {
        panic!()
    };
    assert_eq!((f.index, f.round, f.encounter), (4, 1, Some(0)));
    assert!(b.rounds()[0]
        .iter()
        .all(|e| matches!(e.winner, Some((_, Decided::Draw)))));
}

#[test]
fn ties_take_tiebreak_pairs_then_a_seeded_draw() {
    // Every pair level (each engine wins as South): 2 regular pairs, 3 tiebreak pairs, draw.
    let south_wins = |_: &GameSpec| Outcome::Win(Side::South);
    let mut b = Bracket::new(rules(2, 2, 3));
    let games = play(&mut b, south_wins);
    assert_eq!(games.len(), 2 * (2 + 3));
    let e = &b.rounds()[0][0];
    assert_eq!((e.pairs_played, e.tiebreak_played), (5, 3));
    assert_eq!(e.half_points, [10, 10]);
    let (w, how) = e.winner.unwrap();
    assert_eq!(how, Decided::Draw);
    // The same seed draws the same winner; over seeds, both engines win some draws.
    let winners: Vec<usize> = (0..32)
        .map(|seed| {
            let mut b = Bracket::new(Rules {
                seed,
                ..rules(2, 2, 3)
            });
            play(&mut b, south_wins);
            b.champion().unwrap()
        })
        .collect();
    assert_eq!(winners[7], w);
    assert!(winners.contains(&0) && winners.contains(&1), "{winners:?}");
    // A tiebreak pair that breaks the tie ends the encounter there.
    let mut b = Bracket::new(rules(2, 1, 3));
    let games = play(&mut b, |g| {
        if g.index < 2 {
            Outcome::Draw
        } else {
            Outcome::Win(if g.south == 1 {
                Side::South
            } else {
                Side::North
            })
        }
    });
    assert_eq!(games.len(), 4);
    assert_eq!(b.rounds()[0][0].winner, Some((1, Decided::Tiebreak)));
    assert_eq!(b.rounds()[0][0].half_points, [2, 6]);
}

#[test]
fn replay_rebuilds_the_bracket_and_refuses_what_does_not_fit() {
    let result = |g: &GameSpec| {
        if (g.index / 2).is_multiple_of(3) {
            Outcome::Draw
        } else {
            seeds_win(g)
        }
    };
    let mut full = Bracket::new(rules(5, 2, 2));
    let games = play(&mut full, result);
    let upto = |n: usize| games[..n].iter().map(|g| recorded(g, result(g)));
    let again = replay(rules(5, 2, 2), upto(games.len())).unwrap();
    assert_eq!(again.rounds(), full.rounds());
    assert_eq!(again.text(), full.text());
    assert_eq!(again.to_json(), full.to_json());
    // Replaying part of the games, then playing on, ends in the same bracket.
    for cut in 0..games.len() {
        let mut part = replay(rules(5, 2, 2), upto(cut)).unwrap();
        let rest = play(&mut part, result);
        assert_eq!(
            rest.first().map(|g| g.index),
            games.get(cut).map(|g| g.index)
        );
        assert_eq!(part.rounds(), full.rounds(), "cut at {cut}");
    }
    // A game beyond an incomplete wave, or with other engines, or in another place, is refused.
    let g = games[2];
    let beyond = Recorded {
        index: g.index + 4,
        ..recorded(&g, Outcome::Draw)
    };
    let err = replay(rules(5, 2, 2), [beyond]).unwrap_err();
    assert!(
        err.contains("game 7 does not fit") && err.contains("game 1 before"),
        "{err}"
    );
    let others = Recorded {
        south: 1,
        north: 2,
        ..recorded(&games[0], Outcome::Draw)
    };
    let err = replay(rules(5, 2, 2), [others]).unwrap_err();
    assert!(err.contains("game 1: played by e1 and e2"), "{err}");
    let elsewhere = Recorded {
        encounter: Some(0),
        ..recorded(&games[0], Outcome::Draw)
    };
    let err = replay(rules(5, 2, 2), [elsewhere]).unwrap_err();
    assert_eq!(
        err,
        "game 1 names round 1, encounter 1, but the knockout bracket plays it in round 1, \
         encounter 2"
    );
}

#[test]
fn the_bracket_text_and_json_name_every_encounter() {
    let mut b = Bracket::new(rules(3, 1, 0));
    play(&mut b, seeds_win);
    let text = b.text();
    assert!(text.contains("Semi-finals\n  e0"), "{text}");
    assert!(text.contains("e0 goes on (bye)"), "{text}");
    assert!(text.contains("e1 wins"), "{text}");
    assert!(text.ends_with("Winner: e0\n"), "{text}");
    let json = b.to_json();
    assert_eq!(json["winner"], "e0");
    assert_eq!(json["rounds"][0][0]["engines"][1], serde_json::Value::Null);
    assert_eq!(json["rounds"][0][0]["decided"], "bye");
    assert_eq!(json["rounds"][1][0]["points"][0], 2.0);
    assert_eq!(text::points(5), "2.5");
}
