//! `otau-arena --check` and `otau check` hold an engine to a run's standards: the engine runs in
//! its own process group under the guardian, nothing it started survives the check (nor a
//! `kill -9` of the checker), and an engine that does not speak UGI gets one verdict within the
//! handshake timeout.

use std::process::Stdio;
use std::time::{Duration, Instant};

use crate::support::arena::*;

const OTAU: &str = env!("CARGO_BIN_EXE_otau");

/// A shell engine that echoes its input like `cat` (no UGI at all) and first starts a helper
/// that would sleep for 5 minutes. Both command lines carry `tag`.
fn echo_engine_with_helper(tag: &str) -> Vec<String> {
    vec![
        "/bin/sh".into(),
        "-c".into(),
        format!(
            "/bin/sh -c 'sleep 300; true {tag}' & while read -r l; do echo \"$l\"; done; : {tag}"
        ),
    ]
}

#[test]
fn cat_gets_one_verdict_within_the_handshake_timeout() {
    let started = Instant::now();
    let out = crate::support::command(ARENA)
        .args(["--check-timeout", "0.5", "--check", "/bin/cat"])
        .output()
        .unwrap();
    let elapsed = started.elapsed();
    let text = String::from_utf8_lossy(&out.stdout);
    assert_eq!(out.status.code(), Some(1), "{text}");
    let fails: Vec<&str> = text.lines().filter(|l| l.starts_with("FAIL")).collect();
    assert_eq!(fails.len(), 1, "one verdict:\n{text}");
    assert!(fails[0].contains("handshake"), "{text}");
    // Readable: says what was awaited, for how long, and what the engine wrote instead.
    assert!(
        fails[0].contains("no 'ugiok' within 500 ms (the engine wrote 1 other line: 'ugi')"),
        "{text}"
    );
    assert!(text.contains("check stopped: no UGI handshake"), "{text}");
    assert!(!text.contains("no a "), "{text}");
    // A bound against a hang, not a speed test: every item timed out in turn before (over 70 s
    // at this timeout; 2 min 22 s at the default).
    assert!(elapsed < Duration::from_secs(20), "{elapsed:?}");
}

#[test]
fn nothing_the_engine_started_survives_the_check() {
    let _serial = otau::sync::lock(&SERIAL);
    for front_end in ["otau-arena", "otau"] {
        let tag = tag(&format!("check-end-{front_end}"));
        let engine = echo_engine_with_helper(&tag);
        let mut cmd = if front_end == "otau" {
            let mut c = crate::support::command(OTAU);
            c.args(["check", "--timeout", "0.3", "--"]);
            c
        } else {
            let mut c = crate::support::command(ARENA);
            c.args(["--check-timeout", "0.3", "--check"]);
            c
        };
        let out = cmd.args(&engine).output().unwrap();
        assert_eq!(out.status.code(), Some(1), "{front_end}");
        assert_eq!(
            wait_gone(&tag, Duration::from_secs(10)),
            Vec::<String>::new(),
            "{front_end}: the engine's helper outlived the check"
        );
    }
}

#[test]
fn kill_9_of_the_check_leaves_no_process() {
    let _serial = otau::sync::lock(&SERIAL);
    let tag = tag("check-kill9");
    let mut arena = crate::support::command(ARENA)
        .args(["--check-timeout", "60", "--check"])
        .args(echo_engine_with_helper(&tag))
        .stdout(Stdio::null())
        .spawn()
        .unwrap();
    // The engine and its helper are running (the arena's own command line carries the tag too).
    let running = || {
        let p = tagged_processes(&tag);
        let engine = p.iter().any(|l| l.contains("while read"));
        let helper = p
            .iter()
            .any(|l| l.contains("sleep 300") && !l.contains("while read"));
        engine && helper
    };
    let until = Instant::now() + Duration::from_secs(10);
    while !running() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(running(), "{:?}", tagged_processes(&tag));
    arena.kill().unwrap(); // SIGKILL
    arena.wait().unwrap();
    assert_eq!(
        wait_gone(&tag, Duration::from_secs(10)),
        Vec::<String>::new(),
        "left after kill -9 of otau-arena --check"
    );
}
