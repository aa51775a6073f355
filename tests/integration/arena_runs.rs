//! Whole runs: byte-identical records for depth-limited engines, resume after kill -9, and
//! merge(shards) == single run.

use std::path::Path;
use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::arena::*;
use otau::arena::matchmaking::merge;
use otau::arena::matchmaking::tournament::{run, RunOptions};
use otau::arena::pairing::schedule::Shard;
use otau::arena::records::RecordsFile;

fn arena(args: &[&str], dir: &Path) -> std::process::Output {
    crate::support::command(ARENA)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn engine_args(tag: &str) -> Vec<String> {
    let mut v = Vec::new();
    for name in ["a", "b", "c"] {
        v.push("--engine".to_string());
        v.push(format!("name={name}"));
        v.push(format!("cmd={ARENA}"));
        v.push(format!("args=fake-engine ok {tag}"));
    }
    v.extend(["--each", "depth=2", "--openings", "plies=6"].map(String::from));
    v
}

fn game_lines(path: &Path) -> Vec<String> {
    let mut lines: Vec<String> = std::fs::read_to_string(path)
        .unwrap()
        .lines()
        .filter(|l| l.starts_with("{\"event\":\"game\""))
        .map(String::from)
        .collect();
    lines.sort_by_key(|l| {
        let v: serde_json::Value = serde_json::from_str(l).unwrap();
        v["index"].as_u64().unwrap()
    });
    lines
}

#[test]
fn same_seed_same_bytes() {
    let _serial = otau::sync::lock(&SERIAL);
    let tag = tag("determinism");
    let dir = scratch("determinism");
    let mut outputs = Vec::new();
    for (run_no, concurrency) in [(1, "1"), (2, "1"), (3, "2")] {
        // The same command in a directory of its own (the header records the output names).
        let run_dir = dir.join(format!("run{run_no}"));
        std::fs::create_dir(&run_dir).unwrap();
        let mut args: Vec<String> = engine_args(&tag);
        args.extend(
            [
                "--rounds",
                "3",
                "--seed",
                "99",
                "--concurrency",
                concurrency,
                "--out",
                "r.jsonl",
                "--pgn",
                "r.pgn",
                "--quiet",
            ]
            .map(String::from),
        );
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = arena(&args, &run_dir);
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        outputs.push((
            std::fs::read(run_dir.join("r.jsonl")).unwrap(),
            std::fs::read(run_dir.join("r.pgn")).unwrap(),
            game_lines(&run_dir.join("r.jsonl")),
        ));
    }
    assert_eq!(outputs[0].0, outputs[1].0, "records byte-identical");
    assert_eq!(outputs[0].1, outputs[1].1, "PGN byte-identical");
    assert_eq!(outputs[0].2.len(), 18);
    // Concurrency changes only the order in which games are written to the records; the PGN
    // is in game order.
    assert_eq!(outputs[0].2, outputs[2].2);
    assert_eq!(
        outputs[0].1, outputs[2].1,
        "PGN in game order at concurrency 2"
    );
    assert_eq!(
        wait_gone(&tag, Duration::from_secs(10)),
        Vec::<String>::new()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn resume_after_kill_9_reproduces_the_run() {
    let _serial = otau::sync::lock(&SERIAL);
    let tag = tag("resume");
    let dir = scratch("resume");
    let mut base: Vec<String> = engine_args(&tag);
    base.extend(["--rounds", "12", "--seed", "5", "--quiet"].map(String::from));
    let with = |extra: &[&str]| -> Vec<String> {
        let mut v = base.clone();
        v.extend(extra.iter().map(|s| s.to_string()));
        v
    };
    // The uninterrupted run.
    let full = with(&["--out", "full.jsonl", "--pgn", "full.pgn"]);
    let o = arena(&full.iter().map(String::as_str).collect::<Vec<_>>(), &dir);
    assert!(o.status.success());
    // The same run, killed -9 once some games are recorded.
    let part = with(&[
        "--out",
        "part.jsonl",
        "--pgn",
        "part.pgn",
        "--concurrency",
        "2",
    ]);
    let recorded = kill_9_once_recorded(&part, &dir, &dir.join("part.jsonl"), 10);
    assert!(
        (10..72).contains(&recorded),
        "killed mid-run ({recorded} games)"
    );
    // The engines died with the arena (parent-death signal): no orphans.
    assert_eq!(
        wait_gone(&tag, Duration::from_secs(10)),
        Vec::<String>::new()
    );
    // The README's recipe and the interrupt hint: --resume alone restores every output.
    let o = arena(&["--resume", "part.jsonl", "--quiet"], &dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(
        game_lines(&dir.join("part.jsonl")),
        game_lines(&dir.join("full.jsonl"))
    );
    assert_eq!(
        std::fs::read(dir.join("part.pgn")).unwrap(),
        std::fs::read(dir.join("full.pgn")).unwrap(),
        "the resumed PGN equals the uninterrupted run's, byte for byte"
    );
    // Resuming a finished run plays nothing and adds no second summary.
    let o = arena(&["--resume", "part.jsonl", "--quiet"], &dir);
    assert!(o.status.success());
    assert_eq!(game_lines(&dir.join("part.jsonl")).len(), 72);
    let text = std::fs::read_to_string(dir.join("part.jsonl")).unwrap();
    assert_eq!(text.matches("\"event\":\"summary\"").count(), 1);
    let _ = std::fs::remove_dir_all(&dir);
}

/// `PR_SET_PDEATHSIG` reaches only the engine the arena started: a process the engine started
/// itself (here a wrapper script's background job that ignores end of input) survived a
/// `kill -9` of the arena until the arena's guardian process ended the engine's whole group.
#[test]
fn kill_9_leaves_no_process_an_engine_started() {
    let _serial = otau::sync::lock(&SERIAL);
    let tag = tag("guardian");
    let dir = scratch("guardian");
    let wrapper = format!(
        "args=-c '{ARENA} fake-engine ignore-quit {tag} </dev/null >/dev/null 2>&1 & \
         exec {ARENA} fake-engine ok {tag}'"
    );
    let mut child = crate::support::command(ARENA)
        .args(["--engine", "name=a", &format!("cmd={ARENA}")])
        .arg(format!("args=fake-engine ok {tag}"))
        .args(["--engine", "name=wrapped", "cmd=/bin/sh", &wrapper])
        .args([
            "--each",
            "depth=1",
            "--games",
            "100000",
            "--concurrency",
            "2",
        ])
        .args(["--quiet", "--out", "r.jsonl"])
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    let started = |p: &String| p.contains("ignore-quit");
    let until = Instant::now() + Duration::from_secs(20);
    while (recorded_games(&dir.join("r.jsonl")) < 4
        || tagged_processes(&tag).iter().filter(|p| started(p)).count() < 2)
        && Instant::now() < until
    {
        std::thread::sleep(Duration::from_millis(5));
    }
    assert!(
        tagged_processes(&tag).iter().any(started),
        "the wrapped engines' background jobs run"
    );
    child.kill().unwrap();
    child.wait().unwrap();
    assert_eq!(
        wait_gone(&tag, Duration::from_secs(10)),
        Vec::<String>::new()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn merged_shards_equal_the_single_run() {
    let _serial = otau::sync::lock(&SERIAL);
    let tag = tag("shards");
    let dir = scratch("shards");
    let config = config(
        vec![
            fake("a", "ok", &tag, "depth=1"),
            fake("b", "ok", &tag, "depth=1"),
            fake("c", "ok", &tag, "depth=1"),
        ],
        3,
        2024,
    );
    let opts = |name: &str, shard: Option<Shard>| RunOptions {
        out: Some(dir.join(name)),
        shard,
        log_dir: dir.join("logs"),
        concurrency: 2,
        ..RunOptions::default()
    };
    let single = run(config.clone(), &opts("single.jsonl", None)).unwrap();
    let mut parts = Vec::new();
    for k in 1..=3 {
        let name = format!("part{k}.jsonl");
        let report = run(config.clone(), &opts(&name, Some(Shard { k, n: 3 }))).unwrap();
        assert_eq!(report.missing, 0);
        assert!(report.standings.len() < single.standings.len());
        parts.push(dir.join(name));
    }
    let mut merged = merge::merge(&parts).unwrap();
    assert_eq!(merged.missing(), 0);
    let single_games = RecordsFile::read(&dir.join("single.jsonl")).unwrap().games;
    assert_eq!(merged.games().unwrap(), single_games);
    assert_eq!(single.standings.len(), single_games.len() as u64);
    // The same statistics, to the last digit.
    let json = |s: &otau::stats::Summary| serde_json::to_string(s).unwrap();
    assert_eq!(
        json(&merged.standings.summary()),
        json(&single.standings.summary())
    );
    let out = dir.join("merged.jsonl");
    merge::write_outputs(&mut merged, &parts, Some(&out), None, "otau-arena").unwrap();
    assert_eq!(
        game_lines(&dir.join("merged.jsonl")),
        game_lines(&dir.join("single.jsonl"))
    );
    // A file of another run is refused.
    let mut other = config.clone();
    other.seed += 1;
    run(other, &opts("other.jsonl", Some(Shard { k: 1, n: 3 }))).unwrap();
    parts.push(dir.join("other.jsonl"));
    assert!(merge::merge(&parts).is_err());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn ctrl_c_stops_cleanly_and_the_run_resumes() {
    let _serial = otau::sync::lock(&SERIAL);
    let tag = tag("sigint");
    let dir = scratch("sigint");
    let mut args: Vec<String> = Vec::new();
    // A slow engine (each of its games is lost on time after a 0.3 s think): games are
    // mid-think when Ctrl-C comes.
    for (name, mode) in [("a", "ok"), ("b", "ok"), ("slow", "late")] {
        args.extend([
            "--engine".to_string(),
            format!("name={name}"),
            format!("cmd={ARENA}"),
            format!("args=fake-engine {mode} {tag}"),
        ]);
    }
    args.extend(
        [
            "--each", "st=0.3", "--rounds", "3", "--seed", "8", "--out", "r.jsonl",
        ]
        .map(String::from),
    );
    args.extend(["--concurrency", "2"].map(String::from));
    let child = crate::support::command(ARENA)
        .args(&args)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Wait for the engines (a loaded machine may take seconds to start them).
    let until = Instant::now() + Duration::from_secs(60);
    while tagged_processes(&tag).is_empty() {
        assert!(Instant::now() < until, "engines running");
        std::thread::sleep(Duration::from_millis(20));
    }
    std::thread::sleep(Duration::from_millis(300));
    // SAFETY: a plain signal to our own child.
    unsafe {
        libc::kill(child.id() as i32, libc::SIGINT);
    }
    let started = Instant::now();
    let out = child.wait_with_output().unwrap();
    // `before < 18` below proves the run stopped early; this bound only catches a hang.
    assert!(started.elapsed() < Duration::from_secs(30), "prompt exit");
    assert_eq!(out.status.code(), Some(130));
    // The resume hint names the program as it was run, not a bare `otau-arena` that a fresh
    // clone does not have on its PATH.
    let program = std::fs::canonicalize(ARENA).unwrap();
    let hint = format!("continue with: {} --resume r.jsonl", program.display());
    let err = String::from_utf8_lossy(&out.stderr);
    assert!(err.contains(&hint), "{err}");
    assert_eq!(
        wait_gone(&tag, Duration::from_secs(10)),
        Vec::<String>::new()
    );
    let before = recorded_games(&dir.join("r.jsonl"));
    assert!(before < 18, "{before}");
    let o = arena(&["--resume", "r.jsonl", "--quiet"], &dir);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert_eq!(game_lines(&dir.join("r.jsonl")).len(), 18);
    assert_eq!(
        wait_gone(&tag, Duration::from_secs(10)),
        Vec::<String>::new()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 27 item 7: the records name each engine program by an absolute path, with its size and
/// modification time at the start; `--resume` from another directory starts the same program
/// (not that directory's `./eng`), and refuses, saying why, when the program was changed.
#[test]
fn resume_from_another_directory_starts_the_same_program() {
    use std::os::unix::fs::PermissionsExt;
    let dir = scratch("resume-program");
    let (a, b) = (dir.join("a"), dir.join("b"));
    std::fs::create_dir_all(&a).unwrap();
    std::fs::create_dir_all(&b).unwrap();
    std::fs::copy(ARENA, a.join("eng")).unwrap();
    // Another directory's ./eng: it leaves a mark if anything starts it.
    let wrong = b.join("eng");
    std::fs::write(
        &wrong,
        format!("#!/bin/sh\ntouch \"$(dirname \"$0\")/wrong-program-ran\"\nexec {ARENA} \"$@\"\n"),
    )
    .unwrap();
    std::fs::set_permissions(&wrong, std::fs::Permissions::from_mode(0o755)).unwrap();
    let mut args: Vec<String> = Vec::new();
    for name in ["x", "y"] {
        args.extend([
            "--engine".into(),
            format!("name={name}"),
            "cmd=./eng".into(),
        ]);
        args.push("args=fake-engine ok".into());
    }
    args.extend(
        [
            "--each", "depth=1", "--games", "4", "--out", "r.jsonl", "-q",
        ]
        .map(String::from),
    );
    let o = arena(&args.iter().map(String::as_str).collect::<Vec<_>>(), &a);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    let records = a.join("r.jsonl");
    let file = RecordsFile::read(&records).unwrap();
    let program = std::fs::canonicalize(a.join("eng")).unwrap();
    for e in &file.header.config.engines {
        assert!(Path::new(&e.cmd).is_absolute(), "{}", e.cmd);
        assert_eq!(std::fs::canonicalize(&e.cmd).unwrap(), program);
    }
    assert_eq!(file.header.programs.len(), 2, "path, size and time of each");
    assert_eq!(
        file.header.programs[0].size,
        std::fs::metadata(&program).unwrap().len()
    );
    // The last two games and the summary cut: a resume has games to play.
    let whole = std::fs::read_to_string(&records).unwrap();
    let cut: String = whole.lines().take(3).map(|l| format!("{l}\n")).collect();
    std::fs::write(&records, &cut).unwrap();
    let o = arena(&["--resume", "../a/r.jsonl", "-q"], &b);
    assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
    assert!(!b.join("wrong-program-ran").exists(), "b/eng was started");
    assert_eq!(game_lines(&records).len(), 4);

    // The program touched (another modification time), then replaced (another size): refused
    // before any engine starts, the records untouched.
    let when = std::fs::metadata(&program).unwrap().modified().unwrap();
    for change in ["touched", "replaced"] {
        std::fs::write(&records, &cut).unwrap();
        if change == "touched" {
            let f = std::fs::File::options().write(true).open(&program).unwrap();
            f.set_modified(when + Duration::from_secs(10)).unwrap();
        } else {
            let mut bytes = std::fs::read(&program).unwrap();
            bytes.push(0);
            std::fs::write(&program, bytes).unwrap();
        }
        let o = arena(&["--resume", "../a/r.jsonl", "-q"], &b);
        assert_eq!(o.status.code(), Some(1), "{change}");
        let err = String::from_utf8_lossy(&o.stderr);
        assert!(
            err.contains("engine 'x' started as")
                && err.contains(&program.display().to_string())
                && err.contains("would start a different program"),
            "{change}: {err}"
        );
        assert_eq!(std::fs::read_to_string(&records).unwrap(), cut, "{change}");
        assert!(!b.join("wrong-program-ran").exists());
    }
    let _ = std::fs::remove_dir_all(&dir);
}
