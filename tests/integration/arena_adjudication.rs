//! Adjudication end to end: `--resign`, `--draw`, `--maxmoves` and `--adjudicate tables`, each
//! with its own termination kind in the records and `adjudication` in the PGN, played by fake
//! engines that report chosen scores (`otau-arena fake-engine winning|losing|mated|no-score|bounds`).

use std::path::Path;

use crate::support::arena::{arena, bestemshe_tables, scratch, ARENA};
use otau::games::{AnyGame, Game, Outcome};
use otau::tables::Probe;
use serde_json::Value;

/// Two games (one round, colours swapped) between fake engines `a` and `b` with `extra`
/// options, from the start position; the game records (exit code 0 asserted).
fn play(dir: &Path, game: &str, a: &str, b: &str, extra: &[&str]) -> Vec<Value> {
    let _ = std::fs::remove_file(dir.join("r.jsonl"));
    let _ = std::fs::remove_file(dir.join("r.pgn"));
    let mut args: Vec<String> = Vec::new();
    for (name, mode) in [("a", a), ("b", b)] {
        args.extend([
            "--engine".into(),
            format!("name={name}"),
            format!("cmd={ARENA}"),
            format!("args=fake-engine {mode}"),
        ]);
    }
    args.extend(
        [
            "--game",
            game,
            "--each",
            "depth=1",
            "--openings",
            "plies=0",
            "--rounds",
            "1",
            "--out",
            "r.jsonl",
            "--pgn",
            "r.pgn",
            "-q",
        ]
        .map(String::from),
    );
    args.extend(extra.iter().map(|s| s.to_string()));
    let argv: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = arena(&argv, dir);
    assert_eq!(code, 0, "{out}\n{err}");
    std::fs::read_to_string(dir.join("r.jsonl"))
        .unwrap()
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .filter(|v| v["event"] == "game")
        .collect()
}

fn kind(g: &Value) -> &str {
    g["termination"]["kind"].as_str().unwrap()
}

fn plies(g: &Value) -> usize {
    g["moves"].as_array().unwrap().len()
}

/// The PGN result of engine `name` winning game `g`.
fn win_for(g: &Value, name: &str) -> &'static str {
    if g["south"] == name {
        "1-0"
    } else {
        "0-1"
    }
}

#[test]
fn resign_ends_the_losers_games_on_its_nth_scored_move() {
    let dir = scratch("adj-resign");
    let games = play(
        &dir,
        "toguz-kumalak",
        "winning",
        "losing",
        &["--resign", "movecount=3", "score=500"],
    );
    assert_eq!(games.len(), 2);
    for g in &games {
        assert_eq!(kind(g), "resign", "{g}");
        assert_eq!(g["result"], win_for(g, "a"), "{g}");
        // b's third move: ply 6 when b plays South, ply 6 too when North (b moves second).
        let expected = if g["south"] == "b" { 5 } else { 6 };
        assert_eq!(plies(g), expected, "{g}");
    }
    // A mate against the mover counts as beyond any bound.
    let games = play(
        &dir,
        "toguz-kumalak",
        "ok",
        "mated",
        &["--resign", "movecount=2", "score=100000"],
    );
    assert!(games
        .iter()
        .all(|g| kind(g) == "resign" && g["result"] == win_for(g, "a")));
    let pgn = std::fs::read_to_string(dir.join("r.pgn")).unwrap();
    assert_eq!(
        pgn.matches("[Termination \"adjudication\"]").count(),
        2,
        "{pgn}"
    );
    assert!(pgn.contains("{resign: "), "{pgn}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn twosided_resign_needs_the_winner_to_agree() {
    let dir = scratch("adj-twosided");
    let resign = ["--resign", "movecount=2", "score=500", "twosided=true"];
    // Both think they are losing: no one agrees to win, the games go on to the end.
    let games = play(&dir, "toguz-kumalak", "losing", "losing", &resign);
    assert!(games.iter().all(|g| kind(g) != "resign"), "{games:?}");
    let games = play(&dir, "toguz-kumalak", "winning", "losing", &resign);
    assert!(games
        .iter()
        .all(|g| kind(g) == "resign" && g["result"] == win_for(g, "a")));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn engines_without_scores_are_never_adjudicated_by_score() {
    let dir = scratch("adj-noscore");
    let every = [
        "--resign",
        "movecount=1",
        "score=1",
        "twosided=true",
        "--draw",
        "movenumber=0",
        "movecount=1",
        "score=100000",
    ];
    for (a, b) in [("no-score", "no-score"), ("winning", "no-score")] {
        let games = play(&dir, "toguz-kumalak", a, b, &every);
        assert!(
            games
                .iter()
                .all(|g| kind(g) == "rules" || kind(g) == "decided-score"),
            "{a} vs {b}: {games:?}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// An engine whose last score of a move is a bound (`cp -5000 lowerbound`, `cp 0 upperbound`)
/// has said no score: it is never resigned or drawn by it, and the records and PGN keep the
/// bound as a bound.
#[test]
fn bounds_are_recorded_as_bounds_and_never_adjudicated() {
    let dir = scratch("adj-bounds");
    let every = [
        "--resign",
        "movecount=1",
        "score=500",
        "--draw",
        "movenumber=0",
        "movecount=1",
        "score=5000",
    ];
    for (a, b) in [
        ("bounds", "winning"),
        ("bounds", "ok"),
        ("bounds", "bounds"),
    ] {
        let games = play(&dir, "toguz-kumalak", a, b, &every);
        assert_eq!(games.len(), 2);
        for g in &games {
            assert!(
                kind(g) == "rules" || kind(g) == "decided-score",
                "{a} vs {b}: {g}"
            );
        }
        let scores: Vec<&str> = games
            .iter()
            .flat_map(|g| g["moves"].as_array().unwrap())
            .filter_map(|m| m["score"].as_str())
            .collect();
        assert!(scores.contains(&"cp -5000 lowerbound"), "{scores:?}");
        assert!(scores.contains(&"cp 0 upperbound"), "{scores:?}");
        let pgn = std::fs::read_to_string(dir.join("r.pgn")).unwrap();
        assert!(pgn.contains("{>=-50.00/1"), "{pgn}");
        assert!(pgn.contains("{<=+0.00/1"), "{pgn}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn draw_after_move_n_once_both_scores_stay_small() {
    let dir = scratch("adj-draw");
    // `ok` reports `score cp 0`; full moves 1..=5 do not count, 6 and 7 do.
    let games = play(
        &dir,
        "toguz-kumalak",
        "ok",
        "ok",
        &["--draw", "movenumber=5", "movecount=2", "score=10"],
    );
    for g in &games {
        assert_eq!(kind(g), "draw-adjudication", "{g}");
        assert_eq!(g["result"], "1/2-1/2");
        assert_eq!(plies(g), 14, "{g}");
    }
    // Scores beyond the bound never draw.
    let games = play(
        &dir,
        "toguz-kumalak",
        "winning",
        "ok",
        &["--draw", "movenumber=0", "movecount=1", "score=999"],
    );
    assert!(games.iter().all(|g| kind(g) != "draw-adjudication"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn maxmoves_draws_after_n_full_moves() {
    let dir = scratch("adj-maxmoves");
    let games = play(&dir, "toguz-kumalak", "ok", "ok", &["--maxmoves", "6"]);
    for g in &games {
        assert_eq!(kind(g), "max-moves", "{g}");
        assert_eq!(g["result"], "1/2-1/2");
        assert_eq!(plies(g), 12, "{g}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn adjudication_values_out_of_range_are_refused() {
    let dir = scratch("adj-values");
    let engines = [
        "--engine",
        "name=a",
        &format!("cmd={ARENA}"),
        "args=fake-engine ok",
        "--engine",
        "name=b",
        &format!("cmd={ARENA}"),
        "args=fake-engine ok",
        "--each",
        "depth=1",
    ]
    .map(String::from);
    for (extra, says) in [
        (
            vec!["--resign", "movecount=0", "score=5"],
            "--resign movecount=0: a whole number in 1..=",
        ),
        (
            vec!["--draw", "movenumber=1", "movecount=1", "score=100001"],
            "--draw score=100001: a whole number in 0..=100000",
        ),
        (vec!["--draw", "movecount=1"], "--draw: give movenumber=N"),
        (
            vec!["--maxmoves", "2", "--openings", "plies=4"],
            "--maxmoves 2: leaves no move to the engines after 4-ply openings (give 3..=",
        ),
        (vec!["--adjudicate", "maybe"], "maybe"),
    ] {
        let mut args: Vec<&str> = engines.iter().map(String::as_str).collect();
        args.extend(extra.iter());
        let (code, _, err) = arena(&args, &dir);
        assert_ne!(code, 0, "{extra:?}");
        assert!(err.contains(says), "{extra:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tables_end_a_modiar_game_at_once_with_the_exact_result() {
    // The run's cache folder holds the table (built once per run) and is the one the arena reads,
    // so the run only loads it; this process reads it too, for the start's exact result below.
    crate::support::cache_dir();
    otau::tables::modiar::ModiarTable::get();
    let dir = scratch("adj-tables");
    let games = play(&dir, "modiar", "ok", "ok", &["--adjudicate", "tables"]);
    assert_eq!(games.len(), 2);
    let start = AnyGame::start(otau::games::Variant::MODIAR);
    let decided = start
        .solved()
        .unwrap()
        .decided
        .expect("Modiar's start is decided");
    let exact = decided.outcome(start.side_to_move());
    for g in &games {
        assert_eq!(kind(g), "tables", "{g}");
        assert_eq!(plies(g), 0, "{g}");
        assert_eq!(g["result"], exact.pgn(), "{g}");
    }
    // Without it (the default) the same engines play the games out.
    let games = play(&dir, "modiar", "ok", "ok", &[]);
    assert!(games.iter().all(|g| kind(g) != "tables" && plies(g) > 0));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn tables_end_a_toguz_game_once_its_endgame_tables_decide_it() {
    let dir = scratch("adj-toguz-tables");
    // Bestemshe (2x5) up to 8 stones on the board: built in a few ms.
    let tables = bestemshe_tables(&dir);
    let mut args: Vec<String> = Vec::new();
    for name in ["a", "b"] {
        args.extend([
            "--engine".into(),
            format!("name={name}"),
            format!("cmd={ARENA}"),
            "args=fake-engine ok".into(),
        ]);
    }
    args.extend(
        "--game bestemshe --each depth=1 --rounds 4 --seed 3 --adjudicate tables --out r.jsonl -q"
            .split(' ')
            .map(String::from),
    );
    let run = crate::support::command(ARENA)
        .args(&args)
        .env(otau::tables::CACHE_DIR_ENV, &tables)
        .current_dir(&dir)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    assert!(run.status.success(), "{run:?}");
    let file = otau::tables::toguz::Tables::load(&tables.join("bestemshe.table")).unwrap();
    let mut by_tables = 0;
    for line in std::fs::read_to_string(dir.join("r.jsonl"))
        .unwrap()
        .lines()
    {
        let g: Value = serde_json::from_str(line).unwrap();
        if g["event"] != "game" || kind(&g) != "tables" {
            continue;
        }
        by_tables += 1;
        let end = AnyGame::from_position(g["final_position"].as_str().unwrap()).unwrap();
        let AnyGame::Toguz(pos) = &end else {
            panic!("{end:?}")
        };
        // The exact result: the mover's store plus what the tables say it secures.
        let b = file
            .probe(pos)
            .expect("the final position is in the tables");
        let me = pos.side_to_move();
        let (low, high) = (2 * (pos.store(me) + b.low), 2 * (pos.store(me) + b.high));
        let total = end.variant().total_stones();
        let exact = if low > total {
            Outcome::Win(me)
        } else if high < total {
            Outcome::Win(me.other())
        } else {
            assert_eq!((low, high), (total, total), "{g}: not decided");
            Outcome::Draw
        };
        assert_eq!(g["result"], exact.pgn(), "{g}");
    }
    assert!(by_tables > 0, "no game reached the tables");
    let _ = std::fs::remove_dir_all(&dir);
}
