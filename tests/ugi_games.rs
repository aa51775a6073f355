//! Whole games through the protocol: two `otau` processes play every game id against each other,
//! refereed move by move by the library's own rules (`GameLine`).

mod ugi_support;

use otau::games::{AnyGame, Game, GameLine, Side, Variant};
use ugi_support::Engine;

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
                mover.query("fen"),
                pos.to_string(),
                "{variant} ply {}",
                names.len()
            );
            let p1turn = pos.side_to_move() == Side::South;
            assert_eq!(mover.query("p1turn"), p1turn.to_string());
            assert_eq!(mover.query("gameover"), "false");
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
        assert_eq!(e.query("gameover"), "true", "{variant}");
        assert_eq!(e.query("result"), fin.outcome.ugi(), "{variant}");
        assert_eq!(e.query("score"), format!("{}/{}", fin.south, fin.north));
        assert_eq!(e.query("moves"), "none");
        let (mv, _) = e.go("depth 1");
        assert_eq!(mv, "none", "{variant}");
    }
    names.len()
}

#[test]
fn two_engines_play_every_game_id_to_the_end() {
    let mut search = Engine::start(&[]);
    let mut random = Engine::start(&[]);
    setup(&mut search, &["Hash value 4", "Player value search"]);
    setup(
        &mut random,
        &["Hash value 4", "Player value random", "Seed value 7"],
    );
    let kinds = [
        "depth 2",
        "nodes 300",
        "p1time 400 p2time 400 p1inc 5 p2inc 5",
        "movetime 3",
        "depth 1 nodes 200",
    ];
    let mut played = Vec::new();
    let mut not_ready = Vec::new();
    for (i, variant) in Variant::all().into_iter().enumerate() {
        let start = AnyGame::start(variant);
        if start.legal_moves().is_empty() && start.final_result().is_none() {
            // The rules of this family are not in the library yet (placeholder).
            not_ready.push(variant.to_string());
            continue;
        }
        let go = kinds[i % kinds.len()];
        let plies = if i % 2 == 0 {
            play(variant, &mut search, &mut random, go)
        } else {
            play(variant, &mut random, &mut search, go)
        };
        played.push(format!("{variant}:{plies}"));
    }
    eprintln!("played {played:?}; rules not implemented yet: {not_ready:?}");
    assert!(played.len() >= 3, "{played:?}");
}
