//! `--tournament swiss` runs end to end beyond the pairing itself: forfeits (an engine never
//! ready for its game), `--tiebreaks` and `--bye-score` kept in the records for `--resume`, the
//! TRF rewritten by a resumed run (after a cut and after kill -9), and the note when
//! `--concurrency` exceeds a round's games.

use std::path::Path;
use std::time::Duration;

use otau::arena::pairing::swiss::trf;
use serde_json::Value;

use crate::support::arena::*;

fn strings(args: &[&str]) -> Vec<String> {
    args.iter().map(|s| s.to_string()).collect()
}

fn run_in(dir: &Path, args: &[String]) -> (i32, String, String) {
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    arena(&args, dir)
}

/// The records' game lines (parsed, by index) and the last summary.
fn read_records(path: &Path) -> (Vec<Value>, Option<Value>) {
    let mut games = Vec::new();
    let mut summary = None;
    for line in std::fs::read_to_string(path).unwrap().lines() {
        let v: Value = serde_json::from_str(line).unwrap();
        match v["event"].as_str() {
            Some("game") => games.push(v),
            Some("summary") => summary = Some(v),
            _ => {}
        }
    }
    games.sort_by_key(|g| g["index"].as_u64());
    (games, summary)
}

/// Each game's number, engines, result and whether it was unplayed.
fn outcomes(games: &[Value]) -> Vec<(u64, String, String, String, bool)> {
    games
        .iter()
        .map(|g| {
            (
                g["index"].as_u64().unwrap(),
                g["south"].as_str().unwrap().to_string(),
                g["north"].as_str().unwrap().to_string(),
                g["result"].as_str().unwrap().to_string(),
                g["termination"]["unplayed"].as_bool().unwrap_or(false),
            )
        })
        .collect()
}

/// A copy of `records`' first `keep` lines (the header and the first games) as `name` in a new
/// folder `dir/sub`, as a run killed there leaves it.
fn cut(dir: &Path, records: &str, sub: &str, keep: usize) -> std::path::PathBuf {
    let text = std::fs::read_to_string(dir.join(records)).unwrap();
    let head: String = text.lines().take(keep).map(|l| format!("{l}\n")).collect();
    let cut_dir = dir.join(sub);
    std::fs::create_dir(&cut_dir).unwrap();
    std::fs::write(cut_dir.join(records), head).unwrap();
    cut_dir
}

/// Every round's result code in the TRF's 001 lines.
fn trf_results(text: &str) -> Vec<Vec<char>> {
    text.split('\r')
        .filter(|l| l.starts_with("001"))
        .map(|l| {
            l.as_bytes()[91..]
                .chunks(10)
                .map(|c| c[7] as char)
                .collect()
        })
        .collect()
}

/// An engine that starts for the start-up check and then never answers `ugiok` again
/// (`fake-engine stall-restart`): its every game in a Swiss is a forfeit, recorded unplayed,
/// written `+`/`-` in the TRF, and no game played, so the same two engines are paired again the
/// next round (a played game would forbid the rematch and stop the run). A resumed run rebuilds
/// the same rounds and rewrites the TRF the header names.
#[test]
fn a_swiss_forfeit_is_recorded_unplayed_paired_as_fide_pairs_it_and_resumed_the_same() {
    let tag = tag("swiss-forfeit");
    let dir = scratch("swiss-forfeit");
    let args = strings(&[
        "--engine",
        "name=good",
        "cmd=builtin:greedy",
        "depth=1",
        "rating=2000",
        "--engine",
        "name=bad",
        &format!("cmd={ARENA}"),
        &format!("args=fake-engine stall-restart {tag}"),
        "depth=1",
        "--tournament",
        "swiss",
        "--rounds",
        "3",
        "--startup-timeout",
        "1",
        "--max-start-failures",
        "1",
        "--seed",
        "3",
        "--out",
        "r.jsonl",
        "--trf",
        "t.trf",
        "-q",
    ]);
    let (code, out, err) = run_in(&dir, &args);
    assert_eq!(code, 0, "{err}");
    assert!(!out.contains("Stopped"), "{out}");
    let (games, summary) = read_records(&dir.join("r.jsonl"));
    let full = outcomes(&games);
    assert_eq!(full.len(), 3, "{games:?}");
    for (_, south, north, result, unplayed) in &full {
        assert!(unplayed, "{games:?}");
        let good_won = (south == "good" && result == "1-0") || (north == "good" && result == "0-1");
        assert!(good_won, "{games:?}");
    }
    let text = std::fs::read_to_string(dir.join("t.trf")).unwrap();
    let t = trf::read(&text).unwrap();
    assert_eq!(t.rounds_done(), 3, "{text}");
    assert!(t.players.iter().all(|p| p.rounds.iter().all(|r| !r.played)));
    // good is pairing number 1 (its rating): three forfeits won, bad's three lost.
    assert_eq!(
        trf_results(&text),
        vec![vec!['+'; 3], vec!['-'; 3]],
        "{text}"
    );
    let swiss = &summary.unwrap()["swiss"];
    assert_eq!(swiss["standings"][0]["engine"], "good");
    assert_eq!(swiss["standings"][0]["points"], 3.0);
    assert_eq!(swiss["standings"][0]["rounds"][1]["forfeit"], true);

    // Resumed after the first game (as kill -9 leaves it): the same rounds, the TRF rewritten
    // where the header says, with no --trf given.
    let cut_dir = cut(&dir, "r.jsonl", "cut", 2);
    let (code, _, err) = arena(&["--resume", "r.jsonl", "-q"], &cut_dir);
    assert_eq!(code, 0, "{err}");
    let (games, _) = read_records(&cut_dir.join("r.jsonl"));
    assert_eq!(outcomes(&games), full);
    assert_eq!(
        std::fs::read_to_string(cut_dir.join("t.trf")).unwrap(),
        text
    );
    assert_eq!(
        wait_gone(&tag, Duration::from_secs(3)),
        Vec::<String>::new()
    );
    remove_markers(&tag);
    let _ = std::fs::remove_dir_all(&dir);
}

/// The `*-restart` fake engines' markers of this test (one per arena process).
fn remove_markers(tag: &str) {
    for entry in std::fs::read_dir(std::env::temp_dir()).unwrap().flatten() {
        if entry.file_name().to_string_lossy().ends_with(tag) {
            let _ = std::fs::remove_file(entry.path());
        }
    }
}

/// Five built-in engines (a bye every round), with `extra`.
fn five(extra: &[&str]) -> Vec<String> {
    let mut args = Vec::new();
    for (name, cmd) in [
        ("name=r1", "cmd=builtin:random"),
        ("name=g1", "cmd=builtin:greedy"),
        ("name=g2", "cmd=builtin:greedy"),
        ("name=o1", "cmd=builtin:otau"),
        ("name=o2", "cmd=builtin:otau"),
    ] {
        args.extend(["--engine", name, cmd]);
    }
    args.extend(["--each", "depth=1", "--tournament", "swiss", "--seed", "4"]);
    args.extend(extra);
    strings(&args)
}

/// `--tiebreaks` (FIDE's abbreviations) and `--bye-score` are kept in the records' header: the
/// standings show the tie-breaks in the order given (text and JSON), the bye scores what was
/// asked (and the TRF says so), and `--resume` ranks and scores the same.
#[test]
fn tiebreaks_and_the_bye_score_are_kept_for_resume_and_shown_in_their_order() {
    let dir = scratch("swiss-tiebreaks");
    let args = five(&[
        "--rounds",
        "3",
        "--tiebreaks",
        "WON,sb,bh",
        "--bye-score",
        "0.5",
        "--out",
        "r.jsonl",
        "--trf",
        "t.trf",
        "-q",
    ]);
    let (code, out, err) = run_in(&dir, &args);
    assert_eq!(code, 0, "{err}");
    let header: Value = serde_json::from_str(
        std::fs::read_to_string(dir.join("r.jsonl"))
            .unwrap()
            .lines()
            .next()
            .unwrap(),
    )
    .unwrap();
    assert_eq!(
        header["config"]["swiss"],
        serde_json::json!({"tiebreaks": ["wins", "sonneborn-berger", "buchholz"], "bye_score": "draw"})
    );
    let (_, summary) = read_records(&dir.join("r.jsonl"));
    let swiss = summary.unwrap()["swiss"].clone();
    assert_eq!(
        swiss["tiebreaks"],
        serde_json::json!(["wins", "sonneborn-berger", "buchholz"])
    );
    assert_eq!(swiss["bye_points"], 0.5);
    for row in swiss["standings"].as_array().unwrap() {
        let names: Vec<&String> = row["tiebreaks"].as_object().unwrap().keys().collect();
        assert_eq!(names.len(), 3, "{row}");
    }
    // Each round: two games (two points) and a bye of half a point.
    let total: f64 = swiss["standings"]
        .as_array()
        .unwrap()
        .iter()
        .map(|r| r["points"].as_f64().unwrap())
        .sum();
    assert_eq!(total, 3.0 * 2.5);
    let heading = out.lines().find(|l| l.contains("Rank")).unwrap();
    let at = |s: &str| heading.find(s).unwrap_or_else(|| panic!("{s}: {heading}"));
    assert!(at("Wins") < at("SB") && at("SB") < at("Buch"), "{heading}");
    let text = std::fs::read_to_string(dir.join("t.trf")).unwrap();
    assert!(text.contains("BBU  0.5\r"), "{text}");

    let cut_dir = cut(&dir, "r.jsonl", "cut", 3);
    let (code, _, err) = arena(&["--resume", "r.jsonl", "-q"], &cut_dir);
    assert_eq!(code, 0, "{err}");
    let (_, resumed) = read_records(&cut_dir.join("r.jsonl"));
    assert_eq!(resumed.unwrap()["swiss"], swiss);
    assert_eq!(
        std::fs::read_to_string(cut_dir.join("t.trf")).unwrap(),
        text
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn swiss_options_out_of_place_or_unknown_are_refused_by_name() {
    let dir = scratch("swiss-refusals");
    let (code, _, err) = run_in(&dir, &five(&["--rounds", "1", "--tiebreaks", "bh,median"]));
    assert_ne!(code, 0);
    assert!(
        err.contains(
            "--tiebreaks bh,median: unknown tie-break \"median\"; the valid ones: bh-c1 \
             (buchholz-cut1), bh (buchholz), sb (sonneborn-berger), de (direct-encounter), won \
             (wins), win (rounds-won)"
        ),
        "{err}"
    );
    let (code, _, err) = run_in(&dir, &five(&["--rounds", "1", "--bye-score", "2"]));
    assert_ne!(code, 0);
    assert!(
        err.contains("1 (a win's, the default), 0.5 (a draw's) or 0"),
        "{err}"
    );
    let mut not_swiss = five(&["--rounds", "1", "--tiebreaks", "bh"]);
    let at = not_swiss.iter().position(|a| a == "swiss").unwrap();
    not_swiss[at] = "roundrobin".into();
    let (code, _, err) = run_in(&dir, &not_swiss);
    assert_ne!(code, 0);
    assert!(
        err.contains("--tiebreaks: only for --tournament swiss"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Five engines: two games a round. More workers than that wait, and the run says so once.
#[test]
fn a_swiss_with_more_workers_than_a_round_has_games_says_so_once() {
    let dir = scratch("swiss-concurrency");
    let (code, _, err) = run_in(&dir, &five(&["--rounds", "2", "--concurrency", "4"]));
    assert_eq!(code, 0, "{err}");
    let note = "--concurrency 4 is more than the 2 game(s) of a round: the other workers wait";
    assert_eq!(err.matches(note).count(), 1, "{err}");
    let (code, _, err) = run_in(&dir, &five(&["--rounds", "2", "--concurrency", "2"]));
    assert_eq!(code, 0, "{err}");
    assert!(!err.contains("--concurrency"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Killed -9 part-way at concurrency 2, the Swiss resumed (no --trf given) ends with the TRF
/// and standings of the uninterrupted run.
#[test]
fn a_swiss_resumed_after_kill_9_rewrites_its_trf_as_the_uninterrupted_run() {
    let _serial = otau::sync::lock(&SERIAL);
    let tag = tag("swiss-kill");
    let dir = scratch("swiss-kill");
    let mut base = Vec::new();
    for name in ["a", "b", "c", "d", "e", "f"] {
        base.extend(strings(&[
            "--engine",
            &format!("name={name}"),
            &format!("cmd={ARENA}"),
            &format!("args=fake-engine ok {tag}"),
            "depth=1",
        ]));
    }
    base.extend(strings(&[
        "--tournament",
        "swiss",
        "--rounds",
        "3",
        "--seed",
        "8",
        "-q",
    ]));
    let with = |extra: &[&str]| {
        let mut v = base.clone();
        v.extend(strings(extra));
        v
    };
    let (code, _, err) = run_in(&dir, &with(&["--out", "full.jsonl", "--trf", "full.trf"]));
    assert_eq!(code, 0, "{err}");
    let (full_games, full_summary) = read_records(&dir.join("full.jsonl"));
    assert_eq!(full_games.len(), 9);
    let part = with(&[
        "--out",
        "part.jsonl",
        "--trf",
        "part.trf",
        "--concurrency",
        "2",
    ]);
    let recorded = kill_9_once_recorded(&part, &dir, &dir.join("part.jsonl"), 3);
    assert!(recorded >= 3, "{recorded}");
    assert_eq!(
        wait_gone(&tag, Duration::from_secs(3)),
        Vec::<String>::new()
    );
    let _ = std::fs::remove_file(dir.join("part.trf"));
    let (code, _, err) = arena(&["--resume", "part.jsonl", "-q"], &dir);
    assert_eq!(code, 0, "{err}");
    let (games, summary) = read_records(&dir.join("part.jsonl"));
    assert_eq!(outcomes(&games), outcomes(&full_games));
    assert_eq!(summary.unwrap()["swiss"], full_summary.unwrap()["swiss"]);
    assert_eq!(
        std::fs::read_to_string(dir.join("part.trf")).unwrap(),
        std::fs::read_to_string(dir.join("full.trf")).unwrap()
    );
    // A different --trf on resume is refused: the run writes where it began.
    let (code, _, err) = arena(&["--resume", "part.jsonl", "--trf", "x.trf", "-q"], &dir);
    assert_ne!(code, 0);
    assert!(err.contains("--trf x.trf: the run recorded in"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
