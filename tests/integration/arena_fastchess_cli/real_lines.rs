//! The real fastchess and cutechess-cli command lines of `tests/data/real-command-lines.txt`, run as typed, and the refusals of what they cannot mean.

use super::*;

/// One line of `tests/data/real-command-lines.txt`.
struct RealLine {
    source: String,
    tool: String,
    /// `None`: the line runs; `Some(text)`: it is refused with a reason containing `text`.
    refused: Option<String>,
    line: String,
}

fn real_lines() -> Vec<RealLine> {
    let text = std::fs::read_to_string("tests/data/real-command-lines.txt").unwrap();
    text.lines()
        .filter(|l| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|l| {
            let f: Vec<&str> = l.splitn(4, " | ").collect();
            assert_eq!(f.len(), 4, "not SOURCE | TOOL | EXPECT | LINE: {l}");
            let refused = match f[2] {
                "runs" => None,
                e => Some(
                    e.strip_prefix("refused: ")
                        .unwrap_or_else(|| panic!("bad EXPECT '{e}' in: {l}"))
                        .to_string(),
                ),
            };
            RealLine {
                source: f[0].to_string(),
                tool: f[1].to_string(),
                refused,
                line: f[3].to_string(),
            }
        })
        .collect()
}

/// A small mancala book at `path` in the format a chess user's book of that name has, as chess
/// books are: openings, not whole games. PGN: the first four moves of each real PlayOK game of
/// `tests/data` (a line with no `plies=` plays the whole entry); EPD: the positions after 8
/// plies of ten of them.
fn stub_book(path: &Path, format: &str) {
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    if format == "epd" {
        let positions: Vec<String> = real_openings(10, 8)
            .iter()
            .map(|o| o.line().position().to_string())
            .collect();
        std::fs::write(path, positions.join("\n") + "\n").unwrap();
    } else {
        let text = std::fs::read_to_string(real_games()).unwrap();
        let mut book = String::new();
        for game in text.split("\n\n[").take(10) {
            let (tags, moves) = game.split_once("\n\n").unwrap();
            for tag in tags.trim_start_matches('[').lines() {
                let tag = tag.trim_start_matches('[');
                if tag.starts_with("Result ") {
                    book.push_str("[Result \"*\"]\n");
                } else {
                    book.push_str(&format!("[{tag}\n"));
                }
            }
            let opening: Vec<&str> = moves
                .split_whitespace()
                .take_while(|t| *t != "5.")
                .collect();
            book.push_str(&format!("\n{} *\n\n", opening.join(" ")));
        }
        std::fs::write(path, book).unwrap();
    }
}

/// An engine program at `path`: a shell script that runs otau's own engine (its arguments, the
/// chess engine's, are dropped).
fn stub_engine(path: &Path) {
    use std::os::unix::fs::PermissionsExt;
    if let Some(parent) = path.parent() {
        std::fs::create_dir_all(parent).unwrap();
    }
    if path.exists() {
        return;
    }
    let otau = env!("CARGO_BIN_EXE_otau");
    std::fs::write(path, format!("#!/bin/sh\nexec {otau}\n")).unwrap();
    std::fs::set_permissions(path, std::fs::Permissions::from_mode(0o755)).unwrap();
}

/// Runs `entry` as a user of otau would, in `work` (inside a scratch directory, so that a
/// line's `../engine` stays in it): the program replaced by otau-arena; the game id given
/// (in place of `-variant standard`, or added); an absolute path `/p` read as `./p`; every
/// `cmd=` a stub engine at that path (in the working folder, or under the engine's `dir=`), every
/// `conf=` an entry of an engines.json as cutechess's GUI writes it (`"protocol": "uci"`), every
/// `-openings file=` a mancala book of that name and format, the folders of the line's outputs
/// made (its script or its repository has them); and the games cut short: `-rounds 1`, at most
/// 2 `-games` and `-concurrency 2`, 200 nodes a move at most (`--each nodes=200`, a line's own
/// `nodes=` cut to it), depth at most 2, `option.Hash` at most 16. `--out r.jsonl` reads the
/// games back.
fn run_real_line(entry: &RealLine, root: &Path) -> Run {
    let work = root.join("w");
    std::fs::create_dir_all(&work).unwrap();
    let mut tokens = otau::arena::config::split_args(&entry.line).unwrap();
    tokens.remove(0);
    let cap = |v: &str, max: i64| -> String {
        v.parse::<i64>()
            .map_or(v.to_string(), |n| n.min(max).to_string())
    };
    // Absolute paths into the working folder; counts and limits cut.
    let mut args: Vec<String> = Vec::new();
    let mut option = String::new();
    let mut has_variant = false;
    for t in tokens {
        let t = match t.split_once('=') {
            Some((k, v)) if v.starts_with('/') => format!("{k}=.{v}"),
            _ if t.starts_with('/') => format!(".{t}"),
            _ => t,
        };
        let t = match (option.as_str(), t.split_once('=')) {
            ("-rounds", _) => "1".to_string(),
            ("-games", _) => cap(&t, 2),
            ("-concurrency", _) => cap(&t, 2),
            ("-variant", _) => {
                has_variant = true;
                "toguz-kumalak".to_string()
            }
            (_, Some(("nodes", v))) => format!("nodes={}", cap(v, 200)),
            (_, Some((k @ ("depth" | "plies"), v))) => format!("{k}={}", cap(v, 2)),
            (_, Some(("option.Hash", v))) => format!("option.Hash={}", cap(v, 16)),
            _ => t,
        };
        if t.starts_with('-') && t.len() > 1 && !t[1..].starts_with(|c: char| c.is_ascii_digit()) {
            option = t.clone();
        }
        args.push(t);
    }
    // The stubs, option group by option group.
    let is_option = |t: &str| {
        t.len() > 1 && t.starts_with('-') && !t[1..].starts_with(|c: char| c.is_ascii_digit())
    };
    let mut groups: Vec<(String, Vec<String>)> = Vec::new();
    for t in &args {
        if is_option(t) {
            groups.push((t.clone(), Vec::new()));
        } else if let Some(g) = groups.last_mut() {
            g.1.push(t.clone());
        }
    }
    let each_dir = groups
        .iter()
        .filter(|(o, _)| o == "-each")
        .flat_map(|(_, v)| v.iter().filter_map(|t| t.strip_prefix("dir=")))
        .next_back()
        .map(String::from);
    let stub = root.join("stub-engine");
    stub_engine(&stub);
    let mut confs = Vec::new();
    for (option, values) in &groups {
        let kv = |key: &str| {
            values
                .iter()
                .filter_map(|t| t.strip_prefix(&format!("{key}=")[..]))
                .next_back()
                .map(String::from)
        };
        match option.as_str() {
            "-engine" | "-each" => {
                if let Some(cmd) = kv("cmd") {
                    let dir = kv("dir").or(each_dir.clone());
                    let base = dir.map_or(work.clone(), |d| work.join(d));
                    stub_engine(&base.join(cmd));
                }
                confs.extend(kv("conf"));
                for f in [kv("stderr")].into_iter().flatten() {
                    if let Some(p) = Path::new(&f).parent() {
                        std::fs::create_dir_all(work.join(p)).unwrap();
                    }
                }
            }
            "-openings" => {
                if let Some(file) = kv("file") {
                    let format = kv("format").unwrap_or_else(|| {
                        if file.ends_with(".epd") {
                            "epd".into()
                        } else {
                            "pgn".into()
                        }
                    });
                    stub_book(&work.join(file), &format);
                }
            }
            "-pgnout" | "-log" | "-epdout" => {
                for v in values {
                    let f = v.strip_prefix("file=").unwrap_or(v);
                    if let Some(p) = Path::new(f).parent() {
                        std::fs::create_dir_all(work.join(p)).unwrap();
                    }
                }
            }
            _ => {}
        }
    }
    if !confs.is_empty() {
        let entries: Vec<String> = confs
            .iter()
            .map(|n| {
                format!(
                    r#"{{"name": "{n}", "command": "{}", "protocol": "uci", "options": []}}"#,
                    stub.display()
                )
            })
            .collect();
        std::fs::write(
            work.join("engines.json"),
            format!("[\n{}\n]\n", entries.join(",\n")),
        )
        .unwrap();
    }
    if !has_variant {
        args.extend(["-variant".into(), "toguz-kumalak".into()]);
    }
    // Games cut short by a node limit: the line's own `-each nodes=` (capped above), else one
    // added (a key is given once in `-each`).
    let each_nodes = groups
        .iter()
        .any(|(o, v)| o == "-each" && v.iter().any(|t| t.starts_with("nodes=")));
    if !each_nodes {
        args.extend(["--each", "nodes=200"].map(String::from));
    }
    args.extend(["--out", "r.jsonl"].map(String::from));
    let o = crate::support::command(ARENA)
        .args(&args)
        .current_dir(&work)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let games = RecordsFile::read(&work.join("r.jsonl"))
        .map(|f| f.games.into_values().collect())
        .unwrap_or_default();
    Run {
        code: o.status.code().unwrap_or(-1),
        out: String::from_utf8_lossy(&o.stdout).into_owned(),
        err: String::from_utf8_lossy(&o.stderr).into_owned(),
        games,
    }
}

/// [`run_real_line`] for each of `part` in turn, each in a scratch directory of its own.
fn run_part(part: Vec<(usize, &RealLine)>) -> Vec<(usize, Run)> {
    part.into_iter()
        .map(|(i, entry)| {
            let root = scratch(&format!("real-{i}"));
            let r = run_real_line(entry, &root);
            let _ = std::fs::remove_dir_all(&root);
            (i, r)
        })
        .collect()
}

#[test]
fn real_command_lines_run_as_typed() {
    let lines = real_lines();
    let count = |tool: &str| lines.iter().filter(|l| l.tool == tool).count();
    let projects: std::collections::BTreeSet<&str> = lines
        .iter()
        .map(|l| l.source.split(':').next().unwrap())
        .collect();
    assert!(lines.len() >= 30, "{} lines", lines.len());
    assert!(count("fastchess") >= 15 && count("cutechess-cli") >= 12);
    // At least 20 engine projects besides the two tools' own repositories.
    assert!(
        projects.len() >= 22,
        "{} sources: {projects:?}",
        projects.len()
    );
    // Two lines at a time (each plays its games one or two at a time).
    let runs: Vec<Run> = std::thread::scope(|scope| {
        let (even, odd): (Vec<_>, Vec<_>) = lines.iter().enumerate().partition(|(i, _)| i % 2 == 0);
        let (a, b) = (
            scope.spawn(|| run_part(even)),
            scope.spawn(|| run_part(odd)),
        );
        let mut all: Vec<(usize, Run)> = a.join().unwrap();
        all.extend(b.join().unwrap());
        all.sort_by_key(|(i, _)| *i);
        all.into_iter().map(|(_, r)| r).collect()
    });
    let mut failures = Vec::new();
    let mut ran = 0;
    for (i, (entry, r)) in lines.iter().zip(runs).enumerate() {
        let what = format!(
            "line {} ({}):\n  {}\n  exit {}\n  stderr: {}",
            i + 1,
            entry.source,
            entry.line,
            r.code,
            r.err.trim()
        );
        match &entry.refused {
            None if r.code == 0 && r.games.len() >= 2 => ran += 1,
            None => failures.push(what),
            Some(why) if r.code == 1 && r.err.contains(why.as_str()) && r.games.is_empty() => {}
            Some(_) => failures.push(what),
        }
    }
    assert!(failures.is_empty(), "{}", failures.join("\n\n"));
    // The issue's bar: at least 90% of the real lines run.
    assert!(ran * 10 >= lines.len() * 9, "{ran} of {} ran", lines.len());
    eprintln!("{ran} of {} real command lines ran", lines.len());
}

#[test]
fn proto_uci_engine_lookup_twins_and_stderr_file() {
    let dir = scratch("fc-uci");
    // An engine named without a path, in the working folder only (not on PATH), as fastchess
    // finds it; a UCI user's `proto=uci`; two engines of one name; cutechess's stderr=FILE.
    stub_engine(&dir.join("eng"));
    let r = run(
        &dir,
        "-engine cmd=eng stderr=eng-err.txt -engine cmd=eng -each proto=uci depth=1 -games 2 \
         -variant bestemshe -log file=p.log",
    );
    r.assert_ok();
    assert!(
        r.err
            .contains("two engines are named 'eng': this one is 'eng_2'"),
        "{}",
        r.err
    );
    let header = RecordsFile::read(&dir.join("r.jsonl")).unwrap().header;
    let e = &header.config.engines;
    assert_eq!((e[0].name.as_str(), e[1].name.as_str()), ("eng", "eng_2"));
    let program = std::fs::canonicalize(dir.join("eng")).unwrap();
    assert_eq!(
        std::fs::canonicalize(&e[0].cmd).unwrap(),
        program,
        "found in the working folder"
    );
    assert_eq!(e[0].proto, otau::arena::config::Protocol::Uci);
    // proto=uci: the greeting is UCI's, the rest UGI.
    let log = std::fs::read_to_string(dir.join("p.log")).unwrap();
    let said = |line: &str| log.lines().any(|l| l.ends_with(line));
    assert!(said("---> eng : uci") && said("<--- eng : uciok"), "{log}");
    assert!(!said("---> eng : ugi"), "{log}");
    assert!(log.contains("---> eng : uginewgame"), "{log}");
    // stderr=FILE: the engine's stderr log is that file (the otau engine writes nothing there,
    // the arena's start line names the process).
    let err_log = std::fs::read_to_string(dir.join("eng-err.txt")).unwrap();
    assert!(err_log.contains("--- pid "), "{err_log}");
    assert!(dir.join("otau-arena-logs/eng_2.stderr.log").exists());
    // A name found nowhere is left as written, and the start-up check names it.
    let r = run(
        &dir,
        "-engine cmd=no-such-engine -engine cmd=eng -each depth=1 -variant bestemshe",
    );
    assert_eq!(r.code, 1);
    assert!(r.err.contains("cannot start 'no-such-engine'"), "{}", r.err);
    let _ = std::fs::remove_dir_all(&dir);
}

/// Issue 27 item 9, through the program: a repeated option or key is refused by name before
/// anything is played (`-rounds 1 -rounds 3` used to play 6 games), and a non-UTF-8 argument
/// is named by its position (it used to be "unexpected argument '-e'").
#[test]
fn repeats_and_non_utf8_arguments_are_refused_by_name() {
    let dir = scratch("fc-repeats");
    let two = "-engine cmd=builtin:random name=a -engine cmd=builtin:greedy name=b -each depth=1";
    for (line, want) in [
        (
            format!("{two} -rounds 1 -rounds 3"),
            "-rounds is given twice ('-rounds 1', then '-rounds 3')",
        ),
        (
            format!("{two} -resign movecount=3 score=500 movecount=5"),
            "--resign: movecount= is given twice ('movecount=3', then 'movecount=5')",
        ),
        (
            format!("{two} -draw movenumber=1 movecount=2 score=3 score=4"),
            "--draw: score= is given twice",
        ),
        (
            format!("{two} --openings plies=4 plies=6"),
            "--openings: plies= is given twice",
        ),
        (
            format!("{two} --openings plies=4 --openings plies=6"),
            "--openings: plies= is given twice",
        ),
        (
            format!("{two} -sprt elo0=0 elo1=5 elo1=10"),
            "--sprt: elo1= is given twice",
        ),
        (
            format!("{two} -pgnout file=a.pgn file=b.pgn"),
            "-pgnout: two files ('a.pgn', then 'b.pgn')",
        ),
    ] {
        let r = run(&dir, &line);
        assert_eq!(r.code, 1, "{line}\n{}", r.err);
        assert!(r.err.contains(want), "{line}\n{}", r.err);
        assert!(r.games.is_empty(), "{line}");
    }
    use std::os::unix::ffi::OsStrExt;
    let o = crate::support::command(ARENA)
        .args(["-engine", "cmd=builtin:random", "-engine"])
        .arg(std::ffi::OsStr::from_bytes(b"cmd=\xffbot"))
        .current_dir(&dir)
        .stdin(std::process::Stdio::null())
        .output()
        .unwrap();
    let err = String::from_utf8_lossy(&o.stderr);
    assert_eq!(o.status.code(), Some(1), "{err}");
    assert!(err.contains("argument 4 is not valid UTF-8"), "{err}");
    let _ = std::fs::remove_dir_all(&dir);
}
