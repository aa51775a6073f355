//! Whole games through the protocol: two `otau` processes play every game id against each other,
//! refereed move by move by the library's own rules (`GameLine`).

use crate::support::ugi::Engine;
use otau::games::{AnyGame, Game, GameLine, Side, Variant};
use otau::ugi::wire::Query;

/// No game of any id comes near this under its own end rules (repetition included).
const MAX_PLIES: usize = 5000;

fn setup(engine: &mut Engine, options: &[&str]) {
    engine.send("ugi");
    engine.expect("ugiok");
    for option in options {
        engine.send(&format!("setoption name {option}"));
    }
    assert!(engine.fence().is_empty());
}

/// Plays one game of `variant`; returns the number of plies.
fn play(variant: Variant, p1: &mut Engine, p2: &mut Engine, go: &str) -> usize {
    for e in [&mut *p1, &mut *p2] {
        e.send(&format!("setoption name Game value {variant}"));
        e.send("uginewgame");
        assert!(e.fence().is_empty());
    }
    let mut line = GameLine::new(AnyGame::start(variant));
    let mut names: Vec<String> = Vec::new();
    while !line.is_over() {
        assert!(
            names.len() < MAX_PLIES,
            "{variant}: no end after {MAX_PLIES} plies"
        );
        let pos = line.position().clone();
        let mover = if pos.side_to_move() == Side::South {
            &mut *p1
        } else {
            &mut *p2
        };
        mover.send(&format!("position startpos moves {}", names.join(" ")));
        if names.len().is_multiple_of(8) {
            assert_eq!(
                mover.query(Query::Fen),
                pos.to_string(),
                "{variant} ply {}",
                names.len()
            );
            let p1turn = pos.side_to_move() == Side::South;
            assert_eq!(mover.query(Query::P1Turn), p1turn.to_string());
            assert_eq!(mover.query(Query::GameOver), "false");
        }
        let (token, before) = mover.go(go);
        let mv = pos
            .parse_move(&token)
            .unwrap_or_else(|e| panic!("{variant} ply {}: {e}", names.len()));
        let moves = pos.legal_moves();
        if moves.len() == 1 && moves[0].is_pass() {
            assert_eq!(token, "pass");
            assert!(before.iter().any(|l| l.contains("only legal move is pass")));
        }
        line.play(mv)
            .unwrap_or_else(|e| panic!("{variant} ply {}: {e}", names.len()));
        names.push(token);
    }
    let fin = line.result().unwrap();
    for e in [&mut *p1, &mut *p2] {
        e.send(&format!("position startpos moves {}", names.join(" ")));
        assert_eq!(e.query(Query::GameOver), "true", "{variant}");
        assert_eq!(e.query(Query::Result), fin.outcome.ugi(), "{variant}");
        assert_eq!(
            e.query(Query::Score),
            format!("{}/{}", fin.south, fin.north)
        );
        assert_eq!(e.query(Query::Moves), "none");
        let (mv, _) = e.go("depth 1");
        assert_eq!(mv, "none", "{variant}");
    }
    names.len()
}

/// The `go` kinds the games cycle through, so every kind drives whole games.
const GO_KINDS: [&str; 5] = [
    "depth 2",
    "nodes 300",
    "p1time 400 p2time 400 p1inc 5 p2inc 5",
    "movetime 3",
    "depth 1 nodes 200",
];

/// Plays `variants` between two engines set up with `a_options` and `b_options`, alternating
/// colours and `go` kinds; returns `id:plies` per game.
fn tournament(variants: &[Variant], a_options: &[&str], b_options: &[&str]) -> Vec<String> {
    let mut a = Engine::start(&[]);
    let mut b = Engine::start(&[]);
    setup(&mut a, a_options);
    setup(&mut b, b_options);
    let mut played = Vec::new();
    for (i, &variant) in variants.iter().enumerate() {
        let go = GO_KINDS[i % GO_KINDS.len()];
        let started = std::time::Instant::now();
        let plies = if i % 2 == 0 {
            play(variant, &mut a, &mut b, go)
        } else {
            play(variant, &mut b, &mut a, go)
        };
        eprintln!("{variant}: {plies} plies, go {go}, {:?}", started.elapsed());
        played.push(format!("{variant}:{plies}"));
    }
    played
}

/// Every one of the 40 game ids, played to its end through the protocol by the two baseline
/// players (which answer `go` at once), so the test stays fast whatever the search costs.
#[test]
fn every_game_id_is_played_to_the_end_through_the_protocol() {
    let all = Variant::all();
    let played = tournament(
        &all,
        &["Hash value 1", "Player value random", "Seed value 7"],
        &["Hash value 1", "Player value greedy"],
    );
    assert_eq!(played.len(), 40, "{played:?}");
}

/// The real search against the random player in every game family, through every `go` kind.
#[test]
fn the_search_plays_every_family_through_the_protocol() {
    let families = [
        Variant::TOGUZ,
        Variant::TOGUZ7,
        Variant::BESTEMSHE,
        Variant::Giuthi { holes: 6, seeds: 4 },
        Variant::MODIAR,
        Variant::Giuthi { holes: 5, seeds: 5 },
    ];
    tournament(
        &families,
        &["Hash value 4", "Player value search"],
        &["Hash value 4", "Player value random", "Seed value 7"],
    );
}

/// The real search in all 40 game ids (minutes: run with `--ignored`).
#[test]
#[ignore]
fn the_search_plays_every_game_id_through_the_protocol() {
    tournament(
        &Variant::all(),
        &["Hash value 4", "Player value search"],
        &["Hash value 4", "Player value random", "Seed value 7"],
    );
}
