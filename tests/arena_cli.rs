//! The command line: errors are explained, subcommands work, options reach the games.

mod arena_support;

use std::path::Path;

use arena_support::*;
use otau::arena::records::{RecordsFile, TerminationKind};

fn ok_engine(name: &str) -> Vec<String> {
    vec![
        "--engine".into(),
        format!("name={name}"),
        format!("cmd={ARENA}"),
        "args=fake-engine ok".into(),
    ]
}

/// Two games between two sound test engines, recorded in `dir/r.jsonl`.
fn two_games_into_r_jsonl(dir: &Path) {
    let mut args = ok_engine("a");
    args.extend(ok_engine("b"));
    args.extend(
        [
            "--each", "depth=1", "--rounds", "2", "--out", "r.jsonl", "-q",
        ]
        .map(String::from),
    );
    assert_eq!(arena(&strs(&args), dir).0, 0);
}

fn strs(v: &[String]) -> Vec<&str> {
    v.iter().map(String::as_str).collect()
}

#[test]
fn bad_arguments_are_explained() {
    let dir = scratch("cli-errors");
    let cases: &[(&[&str], &str)] = &[
        (&["--engine", "cmd=x"], "no limit"),
        (&["--engine", "cmd=x", "depth=1"], "at least two engines"),
        (
            &[
                "--engine", "cmd=x", "depth=1", "--engine", "cmd=x", "depth=1",
            ],
            // Renamed as fastchess renames a twin (then the program x is not found).
            "two engines are named 'x': this one is 'x_2'",
        ),
        (
            &[
                "--engine", "cmd=x", "depth=1", "--engine", "cmd=y", "depth=1", "--game", "chess",
            ],
            "unknown game id",
        ),
        (
            &[
                "--engine", "cmd=x", "depth=1", "--engine", "cmd=y", "tc=fast",
            ],
            "bad time control",
        ),
        (
            &[
                "--engine",
                "cmd=x",
                "depth=1",
                "--engine",
                "cmd=y",
                "depth=1",
                "--openings",
                "plies=x",
            ],
            "--openings",
        ),
        (
            &[
                "--engine", "cmd=x", "depth=1", "--engine", "cmd=y", "depth=1", "--sprt", "elo0=5",
                "elo1=1",
            ],
            "--sprt",
        ),
        (
            &[
                "--engine", "cmd=x", "depth=1", "--engine", "cmd=y", "depth=1", "--shard", "4/3",
            ],
            "shard",
        ),
        (&["--resume", "missing.jsonl"], "missing.jsonl"),
    ];
    for (args, expected) in cases {
        let (code, _, err) = arena(args, &dir);
        assert_ne!(code, 0, "{args:?}");
        assert!(err.contains(expected), "{args:?}: {err}");
    }
    let (code, out, _) = arena(&["--help"], &dir);
    assert_eq!(code, 0);
    assert!(out.contains("Examples:") && out.contains("--resume"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn existing_records_are_never_overwritten() {
    let dir = scratch("cli-exists");
    std::fs::write(dir.join("r.jsonl"), "precious\n").unwrap();
    let mut args = ok_engine("a");
    args.extend(ok_engine("b"));
    args.extend(["--each", "depth=1", "--out", "r.jsonl"].map(String::from));
    let (code, _, err) = arena(&strs(&args), &dir);
    assert_eq!(code, 1);
    assert!(err.contains("--resume"), "{err}");
    assert_eq!(
        std::fs::read_to_string(dir.join("r.jsonl")).unwrap(),
        "precious\n"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn clocks_max_plies_and_opening_files_reach_the_games() {
    let dir = scratch("cli-options");
    std::fs::write(dir.join("book.txt"), "# two openings\n1. 87 2\n3 4 5\n").unwrap();
    let mut args = ok_engine("a");
    args.extend(ok_engine("b"));
    args.extend(
        [
            "--each",
            "tc=5+0.1",
            "--rounds",
            "3",
            "--max-plies",
            "20",
            "--openings",
            "file=book.txt",
            "--out",
            "r.jsonl",
            "--pgn",
            "r.pgn",
            "--seed",
            "3",
        ]
        .map(String::from),
    );
    let (code, out, err) = arena(&strs(&args), &dir);
    assert_eq!(code, 0, "{err}");
    assert!(out.contains("Results of a vs b"), "{out}");
    assert!(
        err.contains("openings repeat"),
        "the 2-line book is used up: {err}"
    );
    let file = RecordsFile::read(&dir.join("r.jsonl")).unwrap();
    assert_eq!(file.games.len(), 6);
    for g in file.games.values() {
        assert_eq!(g.termination.kind, TerminationKind::MaxPlies);
        assert_eq!(g.opening.moves.len() + g.moves.len(), 20);
        assert!(
            g.moves.iter().all(|m| m.time_ms.is_some()),
            "timed games record times"
        );
        let t = g.totals.unwrap();
        assert_eq!(t[0] + t[1], 162);
    }
    let openings: Vec<_> = file
        .games
        .values()
        .map(|g| g.opening.moves.clone())
        .collect();
    assert_eq!(openings[0], ["8", "2"]);
    assert_eq!(openings[2], ["3", "4", "5"]);
    assert_eq!(openings[4], ["8", "2"]);
    let pgn = std::fs::read_to_string(dir.join("r.pgn")).unwrap();
    assert_eq!(pgn.matches("[Termination \"normal\"]").count(), 6);
    assert!(pgn.contains("1. 87 22"), "federation notation: {pgn}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn no_recover_stops_at_the_first_crash() {
    let dir = scratch("cli-norecover");
    let mut args = ok_engine("a");
    args.extend(
        [
            "--engine",
            "name=b",
            &format!("cmd={ARENA}"),
            "args=fake-engine crash-mid",
        ]
        .map(String::from),
    );
    args.extend(
        [
            "--each",
            "depth=1",
            "--rounds",
            "5",
            "--no-recover",
            "--out",
            "r.jsonl",
            "-q",
        ]
        .map(String::from),
    );
    let (code, _, err) = arena(&strs(&args), &dir);
    assert_eq!(code, 2, "{err}");
    assert!(err.contains("--no-recover"), "{err}");
    let file = RecordsFile::read(&dir.join("r.jsonl")).unwrap();
    assert_eq!(file.games.len(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn sprt_calculator_and_report() {
    let dir = scratch("cli-sprt");
    let (code, out, err) = arena(
        &["sprt", "--penta", "1,2,10,2,1", "elo0=0", "elo1=10"],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        out.contains("Ptnml(0-2): [1, 2, 10, 2, 1]") && out.contains("LLR"),
        "{out}"
    );
    two_games_into_r_jsonl(&dir);
    let (code, _, err) = arena(&["report", "r.jsonl", "--out", "page.html"], &dir);
    assert_eq!(code, 0, "{err}");
    let html = std::fs::read_to_string(dir.join("page.html")).unwrap();
    assert!(html.starts_with("<!DOCTYPE html>") && html.contains("r.jsonl"));
    let (code, out, _) = arena(&["merge", "r.jsonl"], &dir);
    assert_eq!(code, 0);
    assert!(out.contains("Results of a vs b"));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn every_game_is_refereed() {
    let dir = scratch("cli-games");
    for game in [
        "toguz-kumalak-7",
        "bestemshe",
        "giuthi",
        "giuthi-6x4",
        "modiar",
    ] {
        let mut args = ok_engine("a");
        args.extend(ok_engine("b"));
        let out = format!("{game}.jsonl");
        args.extend(
            [
                "--each", "depth=1", "--rounds", "2", "--game", game, "--out", &out, "--pgn",
                "g.pgn", "-q",
            ]
            .map(String::from),
        );
        let (code, _, err) = arena(&strs(&args), &dir);
        assert_eq!(code, 0, "{game}: {err}");
        let file = RecordsFile::read(&dir.join(&out)).unwrap();
        assert_eq!(file.games.len(), 4);
        for g in file.games.values() {
            assert_eq!(g.game, game);
            assert!(
                matches!(
                    g.termination.kind,
                    TerminationKind::Rules | TerminationKind::DecidedScore
                ),
                "{game}: {g:?}"
            );
        }
        let pgn = std::fs::read_to_string(dir.join("g.pgn")).unwrap();
        assert!(pgn.contains(&format!("[Variant \"{game}\"]")));
        let _ = std::fs::remove_file(dir.join("g.pgn"));
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn built_in_players_play_in_process_and_reproducibly() {
    let dir = scratch("cli-builtin");
    let mut bytes = Vec::new();
    for run in 0..2 {
        let out = format!("b{run}.jsonl");
        let args = [
            "--engine",
            "cmd=builtin:random",
            "--engine",
            "cmd=builtin:greedy",
            "--engine",
            "name=otau",
            "cmd=builtin:otau",
            "option.Level=3",
            "--each",
            "depth=2",
            "--rounds",
            "2",
            "--seed",
            "4",
            "--out",
            &out,
            "-q",
        ];
        let (code, stdout, err) = arena(&args, &dir);
        assert_eq!(code, 0, "{err}");
        assert!(stdout.contains("Results of random vs greedy"), "{stdout}");
        let file = RecordsFile::read(&dir.join(&out)).unwrap();
        assert_eq!(file.games.len(), 12);
        assert!(file
            .games
            .values()
            .all(|g| g.termination.kind == TerminationKind::Rules));
        bytes.push(std::fs::read(dir.join(&out)).unwrap());
    }
    assert_eq!(bytes[0], bytes[1], "same seed, same records");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn check_reports_protocol_compliance() {
    let dir = scratch("cli-check");
    let (code, out, err) = arena(&["--check", env!("CARGO_BIN_EXE_otau")], &dir);
    assert_eq!(code, 0, "{out}{err}");
    assert!(out.contains("COMPLIANT") && out.contains("PASS"), "{out}");
    // The fake engine answers no queries: named failures, exit 1.
    let args = [
        "--check-timeout",
        "0.3",
        "--check",
        ARENA,
        "fake-engine",
        "ok",
    ];
    let (code, out, _) = arena(&args, &dir);
    assert_eq!(code, 1);
    assert!(
        out.contains("FAIL") && out.contains("NOT COMPLIANT"),
        "{out}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// `--resume` reads the engines back from the records file: a name or option value with a line
/// break (a hand-edited or hostile file) is refused as on the command line, before any engine
/// starts.
#[test]
fn resume_refuses_control_characters_from_the_file() {
    let dir = scratch("cli-resume-control");
    two_games_into_r_jsonl(&dir);
    let path = dir.join("r.jsonl");
    let text = std::fs::read_to_string(&path).unwrap();
    let header = text.lines().next().unwrap();
    assert!(header.contains(r#""name":"a""#), "{header}");
    let hostile = header.replacen(r#""name":"a""#, r#""name":"a\nquit""#, 1);
    // Only the header: the run would resume from its first game.
    std::fs::write(&path, format!("{hostile}\n")).unwrap();
    let (code, _, err) = arena(&["--resume", "r.jsonl", "-q"], &dir);
    assert_ne!(code, 0);
    assert!(err.contains("control characters"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
