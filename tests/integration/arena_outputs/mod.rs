//! No command line destroys a result: output collisions, special files, the records lock, every
//! output resumed, I/O errors that name their file, records hygiene (issue 15).

use std::os::unix::fs::FileTypeExt;
use std::os::unix::process::CommandExt;
use std::path::Path;
use std::process::{Command, Output, Stdio};
use std::time::{Duration, Instant};

use crate::support::arena::*;

mod reading_back;

fn arena(args: &[&str], dir: &Path) -> Output {
    crate::support::command(ARENA)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap()
}

fn stderr(o: &Output) -> String {
    String::from_utf8_lossy(&o.stderr).into_owned()
}

/// Two sound test engines at depth 1 (deterministic records), and `extra` arguments.
fn run_args(extra: &[&str]) -> Vec<String> {
    let mut v = Vec::new();
    for name in ["a", "b"] {
        v.extend([
            "--engine".to_string(),
            format!("name={name}"),
            format!("cmd={ARENA}"),
            "args=fake-engine ok".to_string(),
        ]);
    }
    v.extend(
        ["--each", "depth=1", "--seed", "3", "-q"]
            .iter()
            .chain(extra)
            .map(|s| s.to_string()),
    );
    v
}

fn run_in(dir: &Path, extra: &[&str]) -> Output {
    let args = run_args(extra);
    arena(&args.iter().map(String::as_str).collect::<Vec<_>>(), dir)
}

fn read(path: &Path) -> Vec<u8> {
    std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn count(path: &Path, what: &str) -> usize {
    String::from_utf8_lossy(&read(path)).matches(what).count()
}

/// Item 1: every output is compared with the other outputs and the inputs (by device and inode
/// where the file exists, through links); a collision is refused before anything is written.
#[test]
fn colliding_outputs_are_refused_before_anything_is_written() {
    let dir = scratch("out-collide");
    let o = run_in(&dir, &["--out", "run.jsonl", "--pgn", "run.jsonl"]);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("--pgn run.jsonl") && err.contains("--out run.jsonl"),
        "{err}"
    );
    assert!(!dir.join("run.jsonl").exists(), "nothing written");

    assert!(run_in(&dir, &["--rounds", "1", "--out", "r.jsonl"])
        .status
        .success());
    let before = read(&dir.join("r.jsonl"));
    std::os::unix::fs::symlink("r.jsonl", dir.join("link.pgn")).unwrap();
    let cases: &[&[&str]] = &[
        &["report", "r.jsonl", "--out", "r.jsonl"],
        &["merge", "r.jsonl", "--pgn", "r.jsonl"],
        &["merge", "r.jsonl", "--pgn", "link.pgn"],
        &["merge", "r.jsonl", "--out", "m.jsonl", "--pgn", "m.jsonl"],
        &["merge", "r.jsonl", "--out", "./r.jsonl"],
        &["--resume", "r.jsonl", "--pgn", "r.jsonl"],
        &["--resume", "link.pgn", "--pgn", "r.jsonl"],
    ];
    for args in cases {
        let o = arena(args, &dir);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains("same file") || err.contains("--resume goes on writing"),
            "{args:?}: {err}"
        );
        assert_eq!(
            read(&dir.join("r.jsonl")),
            before,
            "{args:?} left r.jsonl alone"
        );
        assert!(!dir.join("m.jsonl").exists());
    }
    // An engine's stderr log is an output too.
    let o = run_in(&dir, &["--log-dir", ".", "--out", "a.stderr.log"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("engine log"), "{}", stderr(&o));
    // An engine program given by path is an input (appending a PGN to it would break it).
    std::fs::copy(ARENA, dir.join("eng")).unwrap();
    let program = read(&dir.join("eng"));
    let mut args: Vec<String> = Vec::new();
    for name in ["a", "b"] {
        args.extend([
            "--engine".into(),
            format!("name={name}"),
            "cmd=./eng".into(),
            "args=fake-engine ok".into(),
        ]);
    }
    args.extend(["--each", "depth=1", "--pgn", "eng", "--pgn-append"].map(String::from));
    let o = arena(&args.iter().map(String::as_str).collect::<Vec<_>>(), &dir);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("the engine program"), "{}", stderr(&o));
    assert!(
        read(&dir.join("eng")) == program,
        "the program is untouched"
    );
    // The openings file is an input.
    std::fs::write(dir.join("book.txt"), "1 2\n").unwrap();
    let o = run_in(&dir, &["--openings", "file=book.txt", "--pgn", "book.txt"]);
    assert_eq!(o.status.code(), Some(1));
    assert_eq!(read(&dir.join("book.txt")), b"1 2\n");
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 2: FIFOs, devices and /dev/stdout are written directly; a symlink stays a link.
#[test]
fn special_files_are_written_in_place() {
    let dir = scratch("out-special");
    // A FIFO with a reader: the PGN streams through it, and it stays a FIFO.
    let fifo = dir.join("games.fifo");
    assert!(Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .unwrap()
        .success());
    let reader = {
        let fifo = fifo.clone();
        std::thread::spawn(move || std::fs::read_to_string(fifo).unwrap())
    };
    // Let the reader open its end first (opening for writing never waits for one).
    let until = Instant::now() + Duration::from_secs(5);
    let mut o = run_in(&dir, &["--pgn", "games.fifo"]);
    while !o.status.success() && Instant::now() < until {
        std::thread::sleep(Duration::from_millis(20));
        o = run_in(&dir, &["--pgn", "games.fifo"]);
    }
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(reader.join().unwrap().matches("[Event ").count(), 2);
    assert!(std::fs::metadata(&fifo).unwrap().file_type().is_fifo());

    // A FIFO nobody reads: refused, and the records file the start created is removed.
    let o = run_in(&dir, &["--out", "r.jsonl", "--pgn", "games.fifo"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("no reader"), "{}", stderr(&o));
    assert!(
        !dir.join("r.jsonl").exists(),
        "a failed start leaves nothing"
    );

    // A device: as root, a rename would have replaced the system's /dev/null.
    let o = run_in(&dir, &["--pgn", "/dev/null", "--report", "/dev/null"]);
    assert_eq!(o.status.code(), Some(1), "two outputs, one file");
    let o = run_in(&dir, &["--pgn", "/dev/null"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert!(std::fs::metadata("/dev/null")
        .unwrap()
        .file_type()
        .is_char_device());
    // /dev/stdout: the games come out on standard output.
    let o = run_in(&dir, &["--pgn", "/dev/stdout"]);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(
        String::from_utf8_lossy(&o.stdout)
            .matches("[Event ")
            .count(),
        2
    );

    // Symlinks are followed and stay links (a dangling one too: its target is created).
    std::os::unix::fs::symlink("real.pgn", dir.join("link.pgn")).unwrap();
    std::os::unix::fs::symlink("page.html", dir.join("link.html")).unwrap();
    let o = run_in(&dir, &["--pgn", "link.pgn", "--report", "link.html"]);
    assert!(o.status.success(), "{}", stderr(&o));
    for (link, real) in [("link.pgn", "real.pgn"), ("link.html", "page.html")] {
        let m = std::fs::symlink_metadata(dir.join(link)).unwrap();
        assert!(m.file_type().is_symlink(), "{link} is still a link");
        assert!(
            std::fs::metadata(dir.join(real)).unwrap().len() > 0,
            "{real}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 3: the records file is locked for the whole run; a second run on it is refused at once.
#[test]
fn a_second_run_on_the_same_records_is_refused() {
    let _serial = otau::sync::lock(&SERIAL);
    let dir = scratch("out-lock");
    let tag = tag("lock");
    let mut args = Vec::new();
    // Each game lost on time after a 0.3 s think: the run lasts a few seconds.
    for (name, mode) in [("a", "ok"), ("slow", "late")] {
        args.extend([
            "--engine".to_string(),
            format!("name={name}"),
            format!("cmd={ARENA}"),
            format!("args=fake-engine {mode} {tag}"),
        ]);
    }
    args.extend(
        [
            "--each", "st=0.3", "--rounds", "3", "--out", "r.jsonl", "--pgn", "r.pgn", "-q",
        ]
        .map(String::from),
    );
    let mut first = crate::support::command(ARENA)
        .args(&args)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let until = Instant::now() + Duration::from_secs(10);
    while std::fs::metadata(dir.join("r.jsonl")).map_or(0, |m| m.len()) == 0 {
        assert!(Instant::now() < until, "the first run started");
        std::thread::sleep(Duration::from_millis(10));
    }
    let started = Instant::now();
    let o = arena(&["--resume", "r.jsonl", "-q"], &dir);
    // The message below proves the refusal (a run that waited for the lock would get it and
    // play); this bound only catches a wait for the first run's end.
    assert!(
        started.elapsed() < Duration::from_secs(30),
        "refused at once"
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("another run holds it"),
        "{}",
        stderr(&o)
    );
    // Its PGN too: a second run appending to it would interleave the games.
    let o = run_in(
        &dir,
        &["--out", "r2.jsonl", "--pgn", "r.pgn", "--pgn-append"],
    );
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("r.pgn: another run holds it"),
        "{}",
        stderr(&o)
    );
    assert!(
        !dir.join("r2.jsonl").exists(),
        "the refused start left nothing"
    );
    assert!(first.wait().unwrap().success());
    assert_eq!(count(&dir.join("r.pgn"), "[Event "), 6);
    let file = otau::arena::records::RecordsFile::read(&dir.join("r.jsonl")).unwrap();
    assert_eq!(file.games.len(), 6, "the first run's file is whole");
    assert_eq!(count(&dir.join("r.jsonl"), "\"event\":\"summary\""), 1);
    assert_eq!(
        wait_gone(&tag, Duration::from_secs(10)),
        Vec::<String>::new()
    );
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 4: a fresh run refuses an existing PGN as it refuses existing records (unless
/// `--pgn-append`), and the header records every output so a plain `--resume` restores them.
#[test]
fn existing_pgn_is_kept_and_resume_restores_every_output() {
    let dir = scratch("out-pgn");
    std::fs::write(dir.join("old.pgn"), "[Event \"mine\"]\n\n1. 1 *\n\n").unwrap();
    let o = run_in(&dir, &["--out", "r.jsonl", "--pgn", "old.pgn"]);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("--pgn-append"), "{}", stderr(&o));
    assert!(!dir.join("r.jsonl").exists());
    assert_eq!(count(&dir.join("old.pgn"), "[Event "), 1);

    // Appending: the old games stay first, and a resume (which rewrites the PGN from the
    // records) keeps them.
    let o = run_in(
        &dir,
        &[
            "--rounds",
            "2",
            "--out",
            "r.jsonl",
            "--pgn",
            "old.pgn",
            "--pgn-append",
            "--report",
            "r.html",
        ],
    );
    assert!(o.status.success(), "{}", stderr(&o));
    let pgn = read(&dir.join("old.pgn"));
    assert!(pgn.starts_with(b"[Event \"mine\"]"));
    assert_eq!(count(&dir.join("old.pgn"), "[Event "), 5);
    std::fs::remove_file(dir.join("r.html")).unwrap();
    // Resumed from another directory: the recorded paths are the records file's neighbours.
    let records = format!("{}/r.jsonl", dir.file_name().unwrap().to_string_lossy());
    let o = arena(&["--resume", &records, "-q"], dir.parent().unwrap());
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(read(&dir.join("old.pgn")), pgn, "the PGN is the same");
    assert!(dir.join("r.html").exists(), "the report is written again");
    // A different --pgn on resume is refused (the header says where the PGN goes).
    let o = arena(&["--resume", "r.jsonl", "--pgn", "other.pgn"], &dir);
    assert_eq!(o.status.code(), Some(1));
    assert!(stderr(&o).contains("old.pgn"), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Item 6: a failed start names its file, says what to do, and leaves nothing behind; every
/// output location is checked before the first game.
#[test]
fn io_errors_name_their_file_and_leave_no_trap() {
    let dir = scratch("out-io");
    std::fs::write(dir.join("plain"), "x").unwrap();
    // --resume of a directory, of a missing file, of an empty file.
    std::fs::create_dir(dir.join("d")).unwrap();
    std::fs::write(dir.join("empty.jsonl"), "").unwrap();
    for (args, expected) in [
        (&["--resume", "d"][..], "d: is a directory"),
        (&["--resume", "nope.jsonl"], "nope.jsonl: no such file"),
        (
            &["--resume", "empty.jsonl"],
            "remove it and start the run again",
        ),
    ] {
        let o = arena(args, &dir);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(stderr(&o).contains(expected), "{args:?}: {}", stderr(&o));
    }
    let o = run_in(&dir, &["--out", "empty.jsonl"]);
    assert!(stderr(&o).contains("empty") && stderr(&o).contains("remove it"));
    // Unwritable places, found before anything is created (a file where a directory should
    // be fails even for root).
    for args in [
        &["--out", "r.jsonl", "--pgn", "plain/x.pgn"][..],
        &["--out", "r.jsonl", "--report", "plain/x.html"],
        &["--out", "r.jsonl", "--log-dir", "plain"],
        &["--out", "r.jsonl", "--log-dir", "plain/logs"],
        &["--out", "plain/r.jsonl"],
    ] {
        let o = run_in(&dir, args);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        assert!(stderr(&o).contains("plain"), "{args:?}: {}", stderr(&o));
        assert!(!dir.join("r.jsonl").exists(), "{args:?}: nothing created");
    }
    // The header write fails (here: a file-size limit of 100 bytes, as a full disk would):
    // the error names the file and the half-written file is removed.
    let o = limited_run(&dir, 100);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("r.jsonl: cannot write the run header"),
        "{err}"
    );
    assert!(err.contains("start the run again"), "{err}");
    assert!(!dir.join("r.jsonl").exists(), "no empty records file left");
    // ... so the same command works once the cause is gone.
    assert!(run_in(&dir, &["--out", "r.jsonl"]).status.success());
    // A write failing mid-run: the error names the file and the command that goes on.
    let header = read(&dir.join("r.jsonl"))
        .iter()
        .position(|&b| b == b'\n')
        .unwrap() as u64
        + 1;
    std::fs::remove_file(dir.join("r.jsonl")).unwrap();
    let o = limited_run(&dir, header + 10);
    assert_eq!(o.status.code(), Some(1));
    let err = stderr(&o);
    assert!(
        err.contains("r.jsonl: cannot record game") && err.contains("--resume r.jsonl"),
        "{err}"
    );
    let o = arena(&["--resume", "r.jsonl", "-q"], &dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let file = otau::arena::records::RecordsFile::read(&dir.join("r.jsonl")).unwrap();
    assert_eq!(file.games.len(), 2);
    let _ = std::fs::remove_dir_all(&dir);
}

/// A two-game run into `r.jsonl` under a file-size limit of `bytes` (as a full disk would be).
fn limited_run(dir: &Path, bytes: u64) -> Output {
    let args = run_args(&["--out", "r.jsonl"]);
    let mut cmd = crate::support::command(ARENA);
    cmd.args(&args).current_dir(dir).stdin(Stdio::null());
    // SAFETY: only async-signal-safe calls between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            libc::signal(libc::SIGXFSZ, libc::SIG_IGN);
            let limit = libc::rlimit {
                rlim_cur: bytes as libc::rlim_t,
                rlim_max: bytes as libc::rlim_t,
            };
            libc::setrlimit(libc::RLIMIT_FSIZE, &limit);
            Ok(())
        });
    }
    cmd.output().unwrap()
}

/// Item 8: resuming a finished run adds no summary; a game outside the schedule and a complete
/// foreign last line are refused with their line number; only a torn last write is dropped.
#[test]
fn records_hygiene() {
    let dir = scratch("out-hygiene");
    assert!(run_in(&dir, &["--rounds", "2", "--out", "r.jsonl"])
        .status
        .success());
    let path = dir.join("r.jsonl");
    for _ in 0..3 {
        let o = arena(&["--resume", "r.jsonl", "-q"], &dir);
        assert!(o.status.success(), "{}", stderr(&o));
    }
    assert_eq!(count(&path, "\"event\":\"summary\""), 1, "idempotent");
    let good = String::from_utf8(read(&path)).unwrap();
    let lines: Vec<&str> = good.lines().collect();

    // A game moved outside the 4-game schedule.
    let moved = lines[2]
        .replace("\"index\":1,", "\"index\":11,")
        .replace("\"pair\":0,", "\"pair\":5,");
    assert_ne!(moved, lines[2]);
    let mut bad = lines.clone();
    bad[2] = &moved;
    std::fs::write(&path, bad.join("\n") + "\n").unwrap();
    for args in [&["--resume", "r.jsonl"][..], &["merge", "r.jsonl"]] {
        let o = arena(args, &dir);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains("line 3") && err.contains("outside the schedule"),
            "{err}"
        );
    }

    // A whole last line that is not a records line: refused, the file untouched.
    let foreign = format!("{good}not a records line\n");
    std::fs::write(&path, &foreign).unwrap();
    let o = arena(&["--resume", "r.jsonl"], &dir);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains(&format!("line {}", lines.len() + 1)),
        "{}",
        stderr(&o)
    );
    assert_eq!(read(&path), foreign.as_bytes());

    // A torn last write (no newline): cut, and the run is whole again.
    std::fs::write(&path, format!("{good}{{\"event\":\"ga")).unwrap();
    let o = arena(&["--resume", "r.jsonl", "-q"], &dir);
    assert!(o.status.success(), "{}", stderr(&o));
    assert_eq!(read(&path), good.as_bytes());
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 27 item 1: no output of any command replaces or appends to a records file (a file whose
/// first line is a run header), whatever option names it; the refusal names the file and the run.
#[test]
fn no_output_replaces_or_appends_to_a_records_file() {
    let dir = scratch("out-records-kept");
    assert!(run_in(&dir, &["--rounds", "1", "--out", "run.jsonl"])
        .status
        .success());
    assert!(run_in(&dir, &["--rounds", "1", "--out", "other.jsonl"])
        .status
        .success());
    let before = read(&dir.join("run.jsonl"));
    let cases: Vec<Vec<String>> = vec![
        vec![
            "report".into(),
            "other.jsonl".into(),
            "--out".into(),
            "run.jsonl".into(),
        ],
        vec![
            "merge".into(),
            "other.jsonl".into(),
            "--pgn".into(),
            "run.jsonl".into(),
        ],
        run_args(&["--out", "r2.jsonl", "--report", "run.jsonl"]),
        run_args(&["--out", "r2.jsonl", "--pgn", "run.jsonl", "--pgn-append"]),
        run_args(&["--out", "r2.jsonl", "--log", "run.jsonl"]),
        run_args(&["--report", "run.jsonl"]),
        run_args(&["--log", "run.jsonl"]),
        vec![
            "--resume".into(),
            "other.jsonl".into(),
            "--log".into(),
            "run.jsonl".into(),
        ],
    ];
    for args in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = arena(&args, &dir);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains("run.jsonl: holds the records of a run of toguz-kumalak between a, b"),
            "{args:?}: {err}"
        );
        assert_eq!(read(&dir.join("run.jsonl")), before, "{args:?}");
        assert!(!dir.join("r2.jsonl").exists(), "{args:?} left nothing");
    }
    // A link to it is the same file.
    std::os::unix::fs::symlink("run.jsonl", dir.join("link.html")).unwrap();
    let o = arena(&["report", "other.jsonl", "--out", "link.html"], &dir);
    assert_eq!(o.status.code(), Some(1), "{}", stderr(&o));
    assert_eq!(read(&dir.join("run.jsonl")), before);
    // Other files are written as before.
    let o = arena(&["report", "other.jsonl", "--out", "page.html"], &dir);
    assert!(o.status.success(), "{}", stderr(&o));
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 27 item 1: a running run holds its records and every output (PGN, report, protocol
/// log) under a lock; every other command that would write one of them is refused, naming the
/// file and the process of the run, and the run keeps every game in the files it writes.
#[test]
fn a_running_run_keeps_its_outputs_from_every_other_command() {
    let _serial = otau::sync::lock(&SERIAL);
    let dir = scratch("out-running");
    assert!(run_in(&dir, &["--rounds", "1", "--out", "other.jsonl"])
        .status
        .success());
    // Far more games than the test needs: it is stopped with Ctrl-C once checked.
    let args = run_args(&[
        "--games",
        "100000",
        "--out",
        "run.jsonl",
        "--pgn",
        "run.pgn",
        "--report",
        "run.html",
        "--log",
        "run.log",
    ]);
    let mut first = crate::support::command(ARENA)
        .args(&args)
        .current_dir(&dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    // Every output is open once a game is recorded.
    let until = Instant::now() + Duration::from_secs(60);
    while recorded_games(&dir.join("run.jsonl")) == 0 {
        assert!(Instant::now() < until, "the first run started");
        std::thread::sleep(Duration::from_millis(10));
    }
    let pid = format!("process {}", first.id());
    let cases: Vec<(Vec<String>, &str)> = vec![
        (
            vec![
                "report".into(),
                "other.jsonl".into(),
                "--out".into(),
                "run.html".into(),
            ],
            "run.html",
        ),
        (
            vec![
                "merge".into(),
                "other.jsonl".into(),
                "--pgn".into(),
                "run.pgn".into(),
            ],
            "run.pgn",
        ),
        (
            run_args(&["--out", "r2.jsonl", "--pgn", "run.pgn", "--pgn-append"]),
            "run.pgn",
        ),
        (
            run_args(&["--out", "r2.jsonl", "--report", "run.html"]),
            "run.html",
        ),
        (
            run_args(&["--out", "r2.jsonl", "--log", "run.log"]),
            "run.log",
        ),
        (run_args(&["--report", "run.log"]), "run.log"),
        (vec!["--resume".into(), "run.jsonl".into()], "run.jsonl"),
        (
            vec![
                "--resume".into(),
                "other.jsonl".into(),
                "--log".into(),
                "run.pgn".into(),
            ],
            "run.pgn",
        ),
    ];
    for (args, file) in &cases {
        let args: Vec<&str> = args.iter().map(String::as_str).collect();
        let o = arena(&args, &dir);
        assert_eq!(o.status.code(), Some(1), "{args:?}");
        let err = stderr(&o);
        assert!(
            err.contains(&format!("{file}: another run holds it ({pid}: ")),
            "{args:?}: {err}"
        );
        assert!(!dir.join("r2.jsonl").exists(), "{args:?} left nothing");
    }
    // A lock any other process holds is respected the same way.
    let mine = std::fs::File::create(dir.join("mine.pgn")).unwrap();
    // The lock the arena takes (std's is flock on Linux).
    mine.lock().unwrap();
    let o = arena(&["merge", "other.jsonl", "--pgn", "mine.pgn"], &dir);
    assert_eq!(o.status.code(), Some(1));
    assert!(
        stderr(&o).contains("mine.pgn: another run holds it"),
        "{}",
        stderr(&o)
    );
    drop(mine);
    // SAFETY: a plain signal to our own child.
    unsafe {
        libc::kill(first.id() as i32, libc::SIGINT);
    }
    let status = first.wait().unwrap();
    assert_eq!(status.code(), Some(130));
    let mut err = String::new();
    std::io::Read::read_to_string(first.stderr.as_mut().unwrap(), &mut err).unwrap();
    assert!(err.contains("--resume run.jsonl"), "{err}");
    // Every game the run played is in its records and its PGN, and its report was written.
    let file = otau::arena::records::RecordsFile::read(&dir.join("run.jsonl")).unwrap();
    assert!(!file.games.is_empty());
    assert_eq!(count(&dir.join("run.pgn"), "[Event "), file.games.len());
    assert!(count(&dir.join("run.html"), "<html") > 0);
    assert!(count(&dir.join("run.log"), "bestmove") > 0);
    let _ = std::fs::remove_dir_all(&dir);
}
