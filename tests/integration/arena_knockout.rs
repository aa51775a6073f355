//! `--tournament knockout` end to end: brackets of 2 to 5 engines (byes included) checked
//! against their own game records, ties broken by tiebreak pairs and the seeded draw, resume
//! after kill -9 and after a cut at every kind of place, the same bytes from the same seed, and
//! the options a knockout refuses.

use std::collections::BTreeMap;
use std::path::Path;
use std::time::Duration;

use crate::support::arena::*;
use serde_json::Value;

/// `--engine` arguments for built-in engines of different strengths, `n` of them, in seed order.
fn builtin_engines(n: usize) -> Vec<String> {
    let all = [
        ["name=o3", "cmd=builtin:otau", "depth=3"],
        ["name=o1", "cmd=builtin:otau", "depth=1"],
        ["name=greedy", "cmd=builtin:greedy", "depth=1"],
        ["name=o2", "cmd=builtin:otau", "depth=2"],
        ["name=random", "cmd=builtin:random", "depth=1"],
    ];
    let mut v = Vec::new();
    for e in &all[..n] {
        v.push("--engine".to_string());
        v.extend(e.iter().map(|s| s.to_string()));
    }
    v
}

/// `--engine` arguments for `fake-engine ok` engines (a hash of the position picks the move: two
/// of them play every pair level, each winning or drawing the same game as South).
fn fake_engines(names: &[&str], tag: &str) -> Vec<String> {
    let mut v = Vec::new();
    for name in names {
        v.extend([
            "--engine".to_string(),
            format!("name={name}"),
            format!("cmd={ARENA}"),
            format!("args=fake-engine ok {tag}"),
            "depth=1".to_string(),
        ]);
    }
    v
}

fn run_in(dir: &Path, args: &[String]) -> (i32, String, String) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    arena(&args, dir)
}

fn with(mut base: Vec<String>, extra: &[&str]) -> Vec<String> {
    base.extend(extra.iter().map(|s| s.to_string()));
    base
}

/// The records' events: the game lines (by index) and the last summary.
fn read_records(path: &Path) -> (BTreeMap<u64, Value>, Option<Value>) {
    let mut games = BTreeMap::new();
    let mut summary = None;
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        match v["event"].as_str() {
            Some("game") => {
                games.insert(v["index"].as_u64().unwrap(), v);
            }
            Some("summary") => summary = Some(v),
            _ => {}
        }
    }
    (games, summary)
}

fn game_lines(path: &Path) -> Vec<String> {
    let mut lines: Vec<(u64, String)> = std::fs::read_to_string(path)
        .unwrap_or_default()
        .lines()
        .filter(|l| l.starts_with("{\"event\":\"game\""))
        .map(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            (v["index"].as_u64().unwrap(), l.to_string())
        })
        .collect();
    lines.sort();
    lines.into_iter().map(|(_, l)| l).collect()
}

/// Points of `name` in a game record.
fn points(g: &Value, name: &str) -> f64 {
    let south = g["south"] == name;
    match g["result"].as_str().unwrap() {
        "1-0" => f64::from(u8::from(south)),
        "0-1" => f64::from(u8::from(!south)),
        _ => 0.5,
    }
}

/// Checks the summary's bracket against the game records it was made from: every real
/// encounter's points are the sum of its games, its winner the engine with more points (or a
/// seeded draw of a level score), each round's engines the winners of the round before, byes
/// only for the top seeds of the first round. Returns the champion.
fn check_bracket(games: &BTreeMap<u64, Value>, ko: &Value, names: &[&str]) -> String {
    let rounds = ko["rounds"].as_array().unwrap();
    let size = names.len().next_power_of_two();
    assert_eq!(rounds.len(), size.trailing_zeros() as usize, "{ko}");
    let seed = |v: &Value| names.iter().position(|n| v == n).unwrap();
    let mut real = 0;
    let mut going_on: Vec<Value> = Vec::new();
    for (r, round) in rounds.iter().enumerate() {
        let encounters = round.as_array().unwrap();
        assert_eq!(encounters.len(), size >> (r + 1));
        let mut winners = Vec::new();
        for (e, enc) in encounters.iter().enumerate() {
            let [a, b] = [&enc["engines"][0], &enc["engines"][1]];
            if r > 0 {
                // The winners of encounters 2e and 2e+1, the better seed first.
                let mut pair = [going_on[2 * e].clone(), going_on[2 * e + 1].clone()];
                pair.sort_by_key(|v| seed(v));
                assert_eq!([a.clone(), b.clone()], pair, "round {r} encounter {e}");
            }
            if b.is_null() {
                assert_eq!(r, 0, "byes only in the first round");
                assert_eq!(enc["decided"], "bye");
                let s = seed(a);
                assert!(s < size - names.len(), "a bye for seed {}", s + 1);
                winners.push(a.clone());
                continue;
            }
            real += 1;
            let (a, b) = (a.as_str().unwrap(), b.as_str().unwrap());
            let mine: Vec<&Value> = games
                .values()
                .filter(|g| g["round"] == r && g["encounter"] == e)
                .collect();
            assert!(mine.iter().all(|g| {
                (g["south"] == a && g["north"] == b) || (g["south"] == b && g["north"] == a)
            }));
            assert_eq!(mine.len() as u64, 2 * enc["pairs"].as_u64().unwrap());
            let pa: f64 = mine.iter().map(|g| points(g, a)).sum();
            let pb: f64 = mine.iter().map(|g| points(g, b)).sum();
            assert_eq!(enc["points"], serde_json::json!([pa, pb]), "{enc}");
            let winner = enc["winner"].as_str().unwrap();
            if pa != pb {
                assert_eq!(winner, if pa > pb { a } else { b });
                assert!(enc["decided"] == "games" || enc["decided"] == "tiebreak");
            } else {
                assert_eq!(enc["decided"], "draw");
            }
            winners.push(Value::from(winner));
        }
        going_on = winners;
    }
    assert_eq!(
        real,
        names.len() - 1,
        "every encounter eliminates one engine"
    );
    assert_eq!(going_on.len(), 1);
    assert_eq!(ko["winner"], going_on[0]);
    going_on[0].as_str().unwrap().to_string()
}

#[test]
fn brackets_of_two_to_five_engines_follow_their_games() {
    let all = ["o3", "o1", "greedy", "o2", "random"];
    for n in 2..=5 {
        let dir = scratch(&format!("ko-{n}"));
        let args = with(
            builtin_engines(n),
            &[
                "--tournament",
                "knockout",
                "--rounds",
                "2",
                "--seed",
                "11",
                "--openings",
                "plies=4",
                "--concurrency",
                "2",
                "--out",
                "k.jsonl",
                "--report",
                "k.html",
                "--quiet",
            ],
        );
        let (code, out, err) = run_in(&dir, &args);
        assert_eq!(code, 0, "{n} engines: {err}");
        let (games, summary) = read_records(&dir.join("k.jsonl"));
        let summary = summary.expect("a finished knockout ends with its summary");
        let names = &all[..n];
        let champion = check_bracket(&games, &summary["knockout"], names);
        // Games numbered densely from 0, every one with its encounter.
        assert!(games.keys().copied().eq(0..games.len() as u64));
        assert!(games.values().all(|g| g["encounter"].is_u64()));
        // The statistics are over every game of the bracket.
        assert_eq!(summary["games"], games.len() as u64, "{n} engines");
        // The text, the HTML report and `merge` show the bracket.
        assert!(out.contains(&format!("Winner: {champion}\n")), "{out}");
        let html = std::fs::read_to_string(dir.join("k.html")).unwrap();
        assert!(html.contains("Knockout bracket"));
        let (code, merged, err) = arena(&["merge", "k.jsonl"], &dir);
        assert_eq!(code, 0, "{err}");
        assert!(
            merged.contains(&format!("Winner: {champion}\n")),
            "{merged}"
        );
        assert!(!err.contains("in none of the files"), "{err}");
        if n == 3 || n == 5 {
            assert!(out.contains("goes on (bye)"), "{out}");
        }
        let _ = std::fs::remove_dir_all(&dir);
    }
}

#[test]
fn a_level_encounter_goes_to_tiebreak_pairs_then_to_the_seeded_draw() {
    let _serial = otau::sync::lock(&SERIAL);
    let tag = tag("ko-draw");
    let dir = scratch("ko-draw");
    let mut winners = Vec::new();
    for (i, (seed, tiebreak)) in [("1", "2"), ("1", "2"), ("2", "0"), ("3", "0"), ("4", "0")]
        .into_iter()
        .enumerate()
    {
        let run_dir = dir.join(format!("run{i}"));
        std::fs::create_dir(&run_dir).unwrap();
        let args = with(
            fake_engines(&["a", "b"], &tag),
            &[
                "--tournament",
                "knockout",
                "--rounds",
                "3",
                "--tiebreak-pairs",
                tiebreak,
                "--seed",
                seed,
                "--out",
                "k.jsonl",
                "--quiet",
            ],
        );
        let (code, out, err) = run_in(&run_dir, &args);
        assert_eq!(code, 0, "{err}");
        let (games, summary) = read_records(&run_dir.join("k.jsonl"));
        let ko = &summary.unwrap()["knockout"];
        let enc = &ko["rounds"][0][0];
        let k: u64 = tiebreak.parse().unwrap();
        assert_eq!(
            games.len() as u64,
            2 * (3 + k),
            "3 pairs and {k} tiebreak pairs"
        );
        assert_eq!(enc["pairs"], 3 + k);
        assert_eq!(enc["tiebreak_pairs"], k);
        assert_eq!(enc["decided"], "draw");
        assert_eq!(enc["points"][0], enc["points"][1]);
        check_bracket(&games, ko, &["a", "b"]);
        assert!(out.contains("by the seeded draw"), "{out}");
        winners.push(ko["winner"].as_str().unwrap().to_string());
    }
    // The same seed draws the same engine; these seeds draw each engine at least once.
    assert_eq!(winners[0], winners[1]);
    assert!(
        winners.iter().any(|w| w == "a") && winners.iter().any(|w| w == "b"),
        "{winners:?}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The knockout of the resume tests: fake engines a, b, c (two of them play every pair level)
/// and two built-in ones, seeded so that b meets c in the first round and the winner meets a:
/// level encounters (tiebreak waves, seeded draws) beside decided ones in the same round.
fn resume_args(tag: &str) -> Vec<String> {
    let fake = |name: &str| fake_engines(&[name], tag);
    let mut v = fake("a");
    v.extend(
        ["--engine", "name=o1", "cmd=builtin:otau", "depth=1"]
            .iter()
            .chain(&["--engine", "name=greedy", "cmd=builtin:greedy", "depth=1"])
            .map(|s| s.to_string()),
    );
    v.extend(fake("b"));
    v.extend(fake("c"));
    with(
        v,
        &[
            "--tournament",
            "knockout",
            "--rounds",
            "3",
            "--tiebreak-pairs",
            "2",
            "--seed",
            "21",
            "--openings",
            "plies=6",
            "--quiet",
        ],
    )
}

#[test]
fn a_knockout_resumed_after_kill_9_or_any_cut_ends_as_the_uninterrupted_one() {
    let _serial = otau::sync::lock(&SERIAL);
    let tag = tag("ko-resume");
    let dir = scratch("ko-resume");
    let base = resume_args(&tag);
    let (code, out, err) = run_in(
        &dir,
        &with(base.clone(), &["--out", "full.jsonl", "--pgn", "full.pgn"]),
    );
    assert_eq!(code, 0, "{err}");
    let full = game_lines(&dir.join("full.jsonl"));
    let (_, summary) = read_records(&dir.join("full.jsonl"));
    let full_bracket = summary.unwrap()["knockout"].clone();
    let full_text = &out[out.find("Knockout:").unwrap()..];
    let full_pgn = std::fs::read(dir.join("full.pgn")).unwrap();
    // The bracket holds tiebreaks: a cut can fall inside a tiebreak wave too.
    assert!(
        full_bracket.to_string().contains("\"tiebreak_pairs\":1")
            || full_bracket.to_string().contains("\"tiebreak_pairs\":2")
    );
    // Killed -9 at concurrency 2 once some games are recorded.
    let part = with(
        base.clone(),
        &[
            "--out",
            "part.jsonl",
            "--pgn",
            "part.pgn",
            "--concurrency",
            "2",
        ],
    );
    let recorded = kill_9_once_recorded(&part, &dir, &dir.join("part.jsonl"), 6);
    assert!(
        (6..full.len()).contains(&recorded),
        "killed mid-run ({recorded} of {} games)",
        full.len()
    );
    assert_eq!(
        wait_gone(&tag, Duration::from_secs(10)),
        Vec::<String>::new()
    );
    let (code, out, err) = arena(&["--resume", "part.jsonl", "--quiet"], &dir);
    assert_eq!(code, 0, "{err}");
    assert_eq!(game_lines(&dir.join("part.jsonl")), full);
    let (_, summary) = read_records(&dir.join("part.jsonl"));
    assert_eq!(summary.unwrap()["knockout"], full_bracket);
    assert_eq!(&out[out.find("Knockout:").unwrap()..], full_text);
    assert_eq!(std::fs::read(dir.join("part.pgn")).unwrap(), full_pgn);
    // Cut after every few games (the header and the first games in the order they finished):
    // resuming each plays the rest of the same bracket.
    let text = std::fs::read_to_string(dir.join("full.jsonl")).unwrap();
    let lines: Vec<&str> = text.lines().collect();
    for keep in (1..lines.len() - 1).step_by(4) {
        let cut_dir = dir.join(format!("cut{keep}"));
        std::fs::create_dir(&cut_dir).unwrap();
        let head: String = lines[..keep].iter().map(|l| format!("{l}\n")).collect();
        let head = head.replace("full.pgn", "cut.pgn");
        std::fs::write(cut_dir.join("full.jsonl"), head).unwrap();
        let (code, _, err) = arena(&["--resume", "full.jsonl", "--quiet"], &cut_dir);
        assert_eq!(code, 0, "cut after {keep} lines: {err}");
        assert_eq!(game_lines(&cut_dir.join("full.jsonl")), full, "cut {keep}");
        assert_eq!(std::fs::read(cut_dir.join("cut.pgn")).unwrap(), full_pgn);
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_same_seed_gives_the_same_bytes() {
    let dir = scratch("ko-bytes");
    let mut outputs = Vec::new();
    for (i, concurrency) in ["1", "1", "2"].into_iter().enumerate() {
        let run_dir = dir.join(format!("run{i}"));
        std::fs::create_dir(&run_dir).unwrap();
        let args = with(
            builtin_engines(5),
            &[
                "--tournament",
                "knockout",
                "--rounds",
                "2",
                "--seed",
                "5",
                "--concurrency",
                concurrency,
                "--out",
                "k.jsonl",
                "--pgn",
                "k.pgn",
                "--quiet",
            ],
        );
        let (code, out, err) = run_in(&run_dir, &args);
        assert_eq!(code, 0, "{err}");
        outputs.push((
            std::fs::read(run_dir.join("k.jsonl")).unwrap(),
            std::fs::read(run_dir.join("k.pgn")).unwrap(),
            game_lines(&run_dir.join("k.jsonl")),
            out,
        ));
    }
    assert_eq!(outputs[0].0, outputs[1].0, "records byte for byte");
    assert_eq!(outputs[0].1, outputs[1].1, "PGN byte for byte");
    assert_eq!(outputs[0].3, outputs[1].3, "the printed results");
    // At concurrency 2 only the order the games finish in may differ.
    assert_eq!(outputs[0].2, outputs[2].2);
    assert_eq!(outputs[0].1, outputs[2].1, "PGN in game order");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn options_a_knockout_cannot_take_are_refused_by_name() {
    let dir = scratch("ko-refused");
    let ko = |extra: &[&str]| {
        let mut v = builtin_engines(3);
        v.extend(["--tournament", "knockout"].map(String::from));
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    for (args, want) in [
        (
            ko(&["--shard", "1/2"]),
            "--shard 1/2: a knockout cannot be split",
        ),
        (
            ko(&["--sprt", "elo0=0", "elo1=10"]),
            "--sprt: not with --tournament knockout",
        ),
        (ko(&["--games", "12"]), "--games 12: a knockout's games"),
        (
            ko(&["--tiebreak-pairs", "1001"]),
            "--tiebreak-pairs 1001: 0..=1000",
        ),
        (
            with(builtin_engines(3), &["--tiebreak-pairs", "1"]),
            "--tiebreak-pairs 1: only for --tournament knockout",
        ),
        (
            with(builtin_engines(1), &["--tournament", "knockout"]),
            "--tournament knockout: needs at least two engines",
        ),
    ] {
        let (code, _, err) = run_in(&dir, &args);
        assert_eq!(code, 1, "{args:?}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}
