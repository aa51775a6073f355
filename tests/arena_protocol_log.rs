//! `--log`: the protocol log of a run (issue 18, item 5). Its bounds (the size limit, a full
//! device) are unit tests of `arena::engine::protocol_log`.

mod arena_support;

use std::path::Path;

use arena_support::*;

/// Two sound test engines at depth 1, one round, and `extra` arguments.
fn run(dir: &Path, extra: &[&str]) -> (i32, String, String) {
    let mut args = sound_engines_then(
        &["alpha", "beta"],
        &["--each", "depth=1", "--seed", "3", "--rounds", "1", "-q"],
    );
    args.extend(extra.iter().map(|s| s.to_string()));
    arena(&args.iter().map(String::as_str).collect::<Vec<_>>(), dir)
}

#[test]
fn every_line_is_logged_with_its_time_engine_and_direction() {
    let dir = scratch("protolog-lines");
    let (code, _, err) = run(&dir, &["--log", "file=p.log", "--out", "r.jsonl"]);
    assert_eq!(code, 0, "{err}");
    let log = std::fs::read_to_string(dir.join("p.log")).unwrap();
    let lines: Vec<&str> = log.lines().collect();
    for l in &lines {
        // [HH:MM:SS.uuuuuu] <thread> ---> engine : text
        let b = l.as_bytes();
        assert!(
            b[0] == b'[' && b[9] == b'.' && b[16] == b']' && l[17..].starts_with(" <"),
            "{l}"
        );
    }
    for (engine, dir_, text) in [
        ("alpha", "--->", "ugi"),
        ("alpha", "<---", "ugiok"),
        ("beta", "--->", "isready"),
        ("beta", "<---", "readyok"),
        ("alpha", "--->", "quit"),
    ] {
        let want = format!("{dir_} {engine} : {text}");
        assert!(lines.iter().any(|l| l.ends_with(&want)), "{want} in\n{log}");
    }
    let go = lines
        .iter()
        .filter(|l| l.contains("---> ") && l.contains(" : go "))
        .count();
    let best = lines
        .iter()
        .filter(|l| l.contains("<--- ") && l.contains(" : bestmove "))
        .count();
    assert!(go > 10 && go == best, "{go} go, {best} bestmove");
    let stamps: Vec<&str> = lines.iter().map(|l| &l[1..16]).collect();
    assert!(stamps.windows(2).all(|w| w[0] <= w[1]), "times in order");
    // The log is no part of the records: the same run without it records the same bytes.
    let (code, _, err) = run(&dir, &["--out", "plain.jsonl"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(
        std::fs::read(dir.join("r.jsonl")).unwrap(),
        std::fs::read(dir.join("plain.jsonl")).unwrap()
    );
    // A second run appends: the first one's lines are kept.
    let (code, _, err) = run(&dir, &["--log", "p.log"]);
    assert_eq!(code, 0, "{err}");
    let again = std::fs::read_to_string(dir.join("p.log")).unwrap();
    assert!(again.starts_with(&log) && again.len() > log.len());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn the_log_is_an_output_like_the_others() {
    let dir = scratch("protolog-collide");
    let (code, _, err) = run(&dir, &["--log", "r.jsonl", "--out", "r.jsonl"]);
    assert_eq!(code, 1);
    assert!(
        err.contains("--log r.jsonl") && err.contains("same file"),
        "{err}"
    );
    assert!(!dir.join("r.jsonl").exists(), "nothing written");
    std::fs::write(dir.join("book.txt"), "1 2\n").unwrap();
    let (code, _, err) = run(&dir, &["--openings", "file=book.txt", "--log", "book.txt"]);
    assert_eq!(code, 1);
    assert!(err.contains("the openings file"), "{err}");
    assert_eq!(std::fs::read(dir.join("book.txt")).unwrap(), b"1 2\n");
    // Resumed: the records file is an input.
    let (code, _, err) = run(&dir, &["--out", "r.jsonl"]);
    assert_eq!(code, 0, "{err}");
    let records = std::fs::read(dir.join("r.jsonl")).unwrap();
    let (code, _, err) = arena(&["--resume", "r.jsonl", "--log", "r.jsonl"], &dir);
    assert_eq!(code, 1);
    assert!(
        err.contains("--log r.jsonl") && err.contains("same file"),
        "{err}"
    );
    assert_eq!(std::fs::read(dir.join("r.jsonl")).unwrap(), records);
    // A FIFO without a reader is refused (waiting for one would be an unbounded wait), and the
    // start leaves nothing behind.
    let fifo = dir.join("p.fifo");
    let c = std::ffi::CString::new(fifo.to_str().unwrap()).unwrap();
    // SAFETY: a valid path.
    assert_eq!(unsafe { libc::mkfifo(c.as_ptr(), 0o600) }, 0);
    let (code, _, err) = run(&dir, &["--log", "p.fifo", "--out", "new.jsonl"]);
    assert_eq!(code, 1);
    assert!(err.contains("no reader"), "{err}");
    assert!(
        !dir.join("new.jsonl").exists(),
        "the start's records file is removed"
    );
    let (code, _, err) = run(&dir, &["--log", "."]);
    assert_eq!(code, 1);
    assert!(err.contains("is a directory"), "{err}");
    let (code, _, err) = run(&dir, &["--log-max", "0", "--log", "p.log"]);
    assert_eq!(code, 1);
    assert!(err.contains("--log-max"), "{err}");
    assert!(!dir.join("p.log").exists());
    let _ = std::fs::remove_dir_all(&dir);
}
