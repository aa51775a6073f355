use super::*;

fn rules(n: usize, rounds: u32, per: u32) -> Rules {
    Rules {
        names: (0..n).map(|i| format!("e{i}")).collect(),
        ratings: vec![None; n],
        rounds,
        games_per_round: per,
        bye_points: 10,
        tiebreaks: TieBreak::DEFAULT.to_vec(),
    }
}

/// Plays a whole run at `concurrency`, the lower engine index winning (draws between
/// neighbours): the games in the order they were recorded.
fn play(run: &mut SwissRun, concurrency: usize) -> Vec<(GameSpec, Outcome)> {
    let mut out = Vec::new();
    let mut running: Vec<GameSpec> = Vec::new();
    loop {
        while running.len() < concurrency {
            match run.next() {
                Step::Game(g) => running.push(g),
                Step::Wait | Step::Done => break,
            }
        }
        // Finish the last handed game first: a different order of results than handed.
        let Some(g) = running.pop() else { break };
        let result = if g.south.abs_diff(g.north) == 1 {
            Outcome::Draw
        } else if g.south < g.north {
            Outcome::Win(Side::South)
        } else {
            Outcome::Win(Side::North)
        };
        run.record(&g, result, false);
        out.push((g, result));
    }
    out
}

#[test]
fn a_run_plays_every_round_numbered_densely() {
    let mut run = SwissRun::new(rules(9, 5, 1));
    assert_eq!(run.len(), 20);
    let mut games = play(&mut run, 3);
    games.sort_by_key(|(g, _)| g.index);
    assert_eq!(games.len(), 20);
    assert!(games
        .iter()
        .enumerate()
        .all(|(i, (g, _))| g.index == i as u64 && g.pair == i as u64 / 2));
    assert_eq!(run.next(), Step::Done);
    assert_eq!(run.games_left(), 0);
    assert_eq!(run.rounds_done(), 5);
    // Five byes to five different engines.
    let byes: Vec<usize> = run
        .tournament()
        .players
        .iter()
        .enumerate()
        .filter(|(_, p)| p.rounds.iter().any(|r| r.paired && r.opponent.is_none()))
        .map(|(i, _)| i)
        .collect();
    assert_eq!(byes.len(), 5);
    let text = run.standings_text();
    assert!(text.starts_with("Rank"), "{text}");
    assert!(run.summary_json().is_some());
}

#[test]
fn the_same_results_make_the_same_pairings_at_any_concurrency_and_after_replay() {
    let mut one = SwissRun::new(rules(12, 6, 2));
    let mut games_one = play(&mut one, 1);
    let mut many = SwissRun::new(rules(12, 6, 2));
    let mut games_many = play(&mut many, 5);
    games_one.sort_by_key(|(g, _)| g.index);
    games_many.sort_by_key(|(g, _)| g.index);
    assert_eq!(games_one, games_many);
    assert_eq!(games_one.len(), 6 * 6 * 2);
    // A game pair: the same engines, colours swapped, one opening.
    for pair in games_one.chunks(2) {
        assert_eq!(
            (pair[0].0.south, pair[0].0.north),
            (pair[1].0.north, pair[1].0.south)
        );
        assert_eq!(pair[0].0.pair, pair[1].0.pair);
    }
    let mut replayed = SwissRun::new(rules(12, 6, 2));
    let recorded: Vec<Recorded> = games_one
        .iter()
        .map(|(g, r)| Recorded {
            index: g.index,
            south: g.south,
            north: g.north,
            result: *r,
            unplayed: false,
            round: g.round,
            encounter: g.encounter,
        })
        .collect();
    replayed
        .replay(&GameSet::default(), &mut recorded.clone().into_iter())
        .unwrap();
    assert_eq!(replayed.tournament(), one.tournament());
    assert_eq!(replayed.next(), Step::Done);
    // A record that does not fit is refused by name.
    let mut other = SwissRun::new(rules(12, 6, 2));
    let mut wrong = recorded[0];
    wrong.north = (wrong.north + 1) % 12;
    if wrong.north == wrong.south {
        wrong.north = (wrong.north + 1) % 12;
    }
    let err = other
        .replay(&GameSet::default(), &mut std::iter::once(wrong))
        .unwrap_err();
    assert!(err.contains("Swiss pairing has"), "{err}");
}

#[test]
fn ratings_set_the_pairing_numbers() {
    let mut r = rules(4, 1, 1);
    r.ratings = vec![None, Some(1500), Some(2500), None];
    let mut run = SwissRun::new(r);
    // Pairing numbers: e2 (2500), e1 (1500), e0, e3: 1-3 and 4-2 in round 1.
    let Step::Game(first) = run.next() else {
        panic!()
    };
    assert_eq!((first.south, first.north), (2, 0));
    let Step::Game(second) = run.next() else {
        panic!()
    };
    assert_eq!((second.south, second.north), (3, 1));
}

#[test]
fn a_field_that_cannot_be_paired_stops_with_the_reason() {
    // Three engines, three rounds: round 3 would need a rematch or a second bye.
    let mut run = SwissRun::new(rules(3, 4, 1));
    let games = play(&mut run, 1);
    assert!(games.len() < 4);
    let why = run.stopped().expect("stopped");
    assert!(why.contains("no pairing"), "{why}");
    assert!(run.notes()[0].1.contains("Stopped"));
}

/// Plays every game `run` hands out, one at a time, South winning unplayed (North never
/// ready): the games handed out.
fn forfeit_all(run: &mut SwissRun) -> Vec<GameSpec> {
    let mut games = Vec::new();
    while let Step::Game(g) = run.next() {
        run.record(&g, Outcome::Win(Side::South), true);
        games.push(g);
    }
    games
}

#[test]
fn a_forfeit_is_no_game_played_and_the_trf_writes_it_as_plus_and_minus() {
    // Two engines, three rounds: played, round 2 would be a rematch (the run stops there);
    // forfeited, the engines are paired again every round.
    let mut played = SwissRun::new(rules(2, 3, 1));
    assert_eq!(play(&mut played, 1).len(), 1);
    assert!(played.stopped().is_some());
    let mut run = SwissRun::new(rules(2, 3, 1));
    let games = forfeit_all(&mut run);
    assert_eq!(games.len(), 3);
    assert_eq!(run.stopped(), None);
    assert_eq!(run.rounds_done(), 3);
    for player in &run.tournament().players {
        assert!(player.rounds.iter().all(|r| !r.played && r.paired));
    }
    let trf = run.trf_text("t");
    let lines: Vec<&str> = trf.split('\r').filter(|l| l.starts_with("001")).collect();
    assert_eq!(lines.len(), 2);
    for line in &lines {
        let results: Vec<char> = line.as_bytes()[91..]
            .chunks(10)
            .map(|c| c[7] as char)
            .collect();
        assert_eq!(results.len(), 3, "{line}");
        assert!(results.iter().all(|&c| c == '+' || c == '-'), "{line}");
    }
    // The TRF reads back as the same tournament.
    let back = trf::read(&trf).unwrap();
    assert_eq!(back.players, run.tournament().players);
    let json = run.summary_json().unwrap().1;
    assert_eq!(json["standings"][0]["rounds"][0]["forfeit"], true);
    assert_eq!(json["standings"][0]["rounds"][0]["played"], false);
}

#[test]
fn an_encounter_is_a_forfeit_only_if_none_of_its_games_was_played() {
    // A game pair: the first game forfeited, the second played: a played encounter.
    let mut run = SwissRun::new(rules(2, 2, 2));
    let Step::Game(first) = run.next() else {
        panic!()
    };
    let Step::Game(second) = run.next() else {
        panic!()
    };
    run.record(&first, Outcome::Win(Side::South), true);
    run.record(&second, Outcome::Win(Side::South), false);
    let rounds = &run.tournament().players[0].rounds;
    assert!(rounds[0].played && rounds[0].score == Score::Draw);
    // Played: no rematch in round 2.
    assert!(run.stopped().is_some());
    // Both engines out (unplayed, no winner): both lose by forfeit.
    let mut run = SwissRun::new(rules(2, 1, 1));
    let Step::Game(g) = run.next() else { panic!() };
    run.record(&g, Outcome::Draw, true);
    for p in &run.tournament().players {
        assert_eq!(p.rounds[0].score, Score::Loss);
        assert!(!p.rounds[0].played);
    }
}
