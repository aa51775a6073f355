//! The command line: errors are explained, subcommands work, options reach the games.

use std::path::Path;

use crate::support::arena::*;
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
    // A name past the bound (issue 27, item 3) is refused as on the command line.
    let long = header.replacen(
        r#""name":"a""#,
        &format!(r#""name":"{}""#, "a".repeat(65)),
        1,
    );
    std::fs::write(&path, format!("{long}\n")).unwrap();
    let (code, _, err) = arena(&["--resume", "r.jsonl", "-q"], &dir);
    assert_eq!(code, 1);
    assert!(
        err.contains("65 characters: a name holds at most 64"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 27, item 3: a name is at most 64 characters, visible, and not only spaces, on the
/// command line and in engines.json; the refusal names the bound without echoing the name (a
/// 65,536-character name ended every table with a formatting panic, exit 101).
#[test]
fn names_are_bounded_and_visible() {
    let dir = scratch("cli-names");
    let long = "x".repeat(65_536);
    let cases: &[(&str, &str)] = &[
        (&long, "65536 characters: a name holds at most 64"),
        ("   ", "empty or only spaces"),
        ("a\u{202e}b", "U+202E"),
        ("a\u{2066}b", "U+2066"),
        ("a\u{200b}b", "U+200B"),
        ("a\u{feff}b", "U+FEFF"),
        ("a\u{2028}b", "U+2028"),
        ("a\u{1b}[2Jb", "U+001B"),
    ];
    for (name, why) in cases {
        let mut args = ok_engine(name);
        args.extend(ok_engine("b"));
        args.extend(["--each", "depth=1", "-q"].map(String::from));
        let (code, _, err) = arena(&strs(&args), &dir);
        assert_eq!(code, 1, "{name:?}: {err}");
        assert!(err.contains(why) && err.len() < 1000, "{name:?}: {err}");
        assert!(!err.contains('\u{1b}'), "{err:?}");
    }
    // The program's file name, when no name= is given, is held to the same rule.
    let long_cmd = format!("cmd=/nonexistent/{}", "y".repeat(100));
    let (code, _, err) = arena(
        &[
            "--engine",
            &long_cmd,
            "--engine",
            "cmd=builtin:random",
            "--each",
            "depth=1",
        ],
        &dir,
    );
    assert_eq!(code, 1);
    assert!(err.contains("100 characters"), "{err}");
    std::fs::write(
        dir.join("engines.json"),
        format!(
            r#"[{{"name": "{long}", "command": "x"}}, {{"name": "b", "command": "{ARENA} fake-engine ok"}}]"#
        ),
    )
    .unwrap();
    let (code, _, err) = arena(
        &[
            "-engine",
            "conf=b",
            "-engine",
            "cmd=builtin:random",
            "-each",
            "depth=1",
        ],
        &dir,
    );
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("entry 1")
            && err.contains("field 'name': 65536 characters: a name holds at most 64")
            && err.len() < 1000,
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 27, item 3: names that the stderr log's file name used to write alike (`a b` and
/// `a_b` both `a_b.stderr.log`) each get their own log.
#[test]
fn two_names_never_share_a_stderr_log() {
    let dir = scratch("cli-log-names");
    let mut args = ok_engine("a b");
    args.extend(ok_engine("a_b"));
    args.extend(["--each", "depth=1", "--rounds", "1", "-q"].map(String::from));
    let (code, _, err) = arena(&strs(&args), &dir);
    assert_eq!(code, 0, "{err}");
    let logs = dir.join("otau-arena-logs");
    // Each engine is started the same number of times (the start-up check, then its games):
    // with a shared log, one file would hold every start and the other none.
    let starts = |file: &str| {
        let text = std::fs::read_to_string(logs.join(file)).unwrap_or_default();
        text.matches("--- pid").count()
    };
    let (spaced, plain) = (starts("a%20b.stderr.log"), starts("a_b.stderr.log"));
    assert!(spaced > 0 && spaced == plain, "{spaced} and {plain} starts");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 27, item 4: an input file that is `/dev/zero` (or a link to it) was read until memory
/// ran out, and a FIFO engines file with no writer hung for ever. Every input is read as a
/// regular file of bounded size, opened without waiting: each of these is refused at once,
/// naming the file and what it is.
#[test]
fn special_input_files_are_refused_by_name() {
    let dir = scratch("cli-special-inputs");
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.pgn")).unwrap();
    std::os::unix::fs::symlink("/dev/zero", dir.join("zero.epd")).unwrap();
    let fifo = std::ffi::CString::new(dir.join("engines.json").to_str().unwrap()).unwrap();
    assert_eq!(unsafe { libc::mkfifo(fifo.as_ptr(), 0o600) }, 0);
    let two = [
        "--engine",
        "cmd=builtin:random",
        "name=a",
        "--engine",
        "cmd=builtin:greedy",
        "name=b",
        "--each",
        "depth=1",
        "-q",
    ];
    let with =
        |more: &[&'static str]| -> Vec<&'static str> { two.iter().chain(more).copied().collect() };
    let cases: Vec<(Vec<&str>, &str)> = vec![
        (
            with(&["--openings", "file=/dev/zero", "format=epd"]),
            "opening file /dev/zero: a character device",
        ),
        (
            with(&["--openings", "file=zero.epd"]),
            "opening file zero.epd: a character device",
        ),
        (
            vec!["ratings", "zero.pgn"],
            "PGN file zero.pgn: a character device",
        ),
        (
            vec![
                "-engine",
                "conf=x",
                "-engine",
                "cmd=builtin:random",
                "-each",
                "depth=1",
            ],
            "engines file engines.json: a FIFO (named pipe)",
        ),
    ];
    for (args, want) in cases {
        let mut child = crate::support::command(ARENA)
            .args(&args)
            .current_dir(&dir)
            .stdin(std::process::Stdio::null())
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::piped())
            .spawn()
            .unwrap();
        // Not a timing margin: the refusal is immediate; the bound only keeps a regression from
        // hanging the test suite (or filling memory) for ever.
        let start = std::time::Instant::now();
        let status = loop {
            if let Some(status) = child.try_wait().unwrap() {
                break status;
            }
            if start.elapsed() > std::time::Duration::from_secs(120) {
                let _ = child.kill();
                let _ = child.wait();
                panic!("{args:?}: still running after 120 s");
            }
            std::thread::sleep(std::time::Duration::from_millis(20));
        };
        let mut err = String::new();
        std::io::Read::read_to_string(&mut child.stderr.take().unwrap(), &mut err).unwrap();
        assert_eq!(status.code(), Some(1), "{args:?}: {err}");
        assert!(err.contains(want), "{args:?}: {err}");
    }
    // A regular file of zeros without a line break (sparse: no disk used) is refused at its
    // first 64 MiB instead of being read whole as one line.
    let zeros = std::fs::File::create(dir.join("zeros.jsonl")).unwrap();
    zeros.set_len((64 << 20) + 10).unwrap();
    let (code, _, err) = arena(&["report", "zeros.jsonl", "--out", "r.html"], &dir);
    assert_eq!(code, 1, "{err}");
    assert!(
        err.contains("zeros.jsonl line 1: longer than 67108864 bytes"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// The run's header states each engine's limits in words (`tc=10/0.1` is 10 moves in 0.1 s,
/// which ran silently for someone who meant 10+0.1), and `--resume` says what it resumes and
/// how many games remain.
#[test]
fn the_header_states_the_limits_and_resume_what_remains() {
    let dir = scratch("cli-header");
    let (code, _, err) = arena(
        &[
            "--engine",
            "cmd=builtin:random",
            "tc=10/0.1",
            "--engine",
            "cmd=builtin:greedy",
            "depth=3",
            "--games",
            "4",
            "--seed",
            "5",
            "--out",
            "r.jsonl",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(
            "otau-arena: limits of random: tc=10/0.1 (10 moves in 0.1 s, again every 10 moves)"
        ),
        "{err}"
    );
    assert!(
        err.contains("otau-arena: limits of greedy: depth=3 (3 plies a move)"),
        "{err}"
    );
    // The header and the first game kept, as a run killed after its first game leaves them.
    let text = std::fs::read_to_string(dir.join("r.jsonl")).unwrap();
    let kept: Vec<&str> = text.lines().take(2).collect();
    std::fs::write(dir.join("cut.jsonl"), kept.join("\n") + "\n").unwrap();
    let (code, _, err) = arena(&["--resume", "cut.jsonl"], &dir);
    assert_eq!(code, 0, "{err}");
    assert!(
        err.contains(
            "otau-arena: resuming cut.jsonl: random, greedy on toguz-kumalak, seed 5: 1 of 4 \
             games recorded, 3 to play"
        ),
        "{err}"
    );
    assert!(
        err.contains("limits of random: tc=10/0.1 (10 moves"),
        "{err}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}
