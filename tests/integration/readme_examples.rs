//! The README's examples come from real runs: its UGI session is replayed here and every line it
//! shows (times and nps aside, which vary) must be what `otau` answers; its `otau-arena` examples
//! are run from a scratch folder holding only what a fresh clone has (`tests/data/`), shortened.
//!
//! Which test covers which README example:
//!
//! | README example | covered by |
//! |---|---|
//! | the UGI session of `otau --game toguz-kumalak` | `the_readme_ugi_session_is_what_otau_answers` |
//! | every indented `target/release/otau-arena ...` block (gauntlet, the fastchess/cutechess line, knockout, Swiss, SPRT, openings from real play, `--live`, the `otau selfplay` arena line) | `the_readme_arena_examples_run_from_a_fresh_clone` (fewer games, shorter clocks; `./my-engine` is the test engine, `./otau-new`/`./otau-old` are `otau`) |
//! | `--resume sprt.jsonl`, `sprt --penta ...`, the shard recipe and `merge` (run locally, without GNU parallel), `report`, `ratings` | `the_readme_arena_examples_run_from_a_fresh_clone` |
//! | `otau-arena --check ./my-engine` | `tests/integration/ugi_compliance.rs`, `tests/integration/scripts.rs` (the starter bot) |
//! | the demo, `cargo run --release --bin otau-arena` | `the_readme_demo_runs` |
//! | `otau-arena view`, `--live` pages | `tests/integration/web_live.rs`, `tests/integration/web_browser/` |
//! | `otau play`, `otau web` | `tests/integration/play.rs`, `tests/integration/web_play.rs`, `tests/integration/web_browser/` |
//! | the "Solved games" and "Measured figures" commands | long measurements, reproduced by hand (each row says how long) |

use std::io::{BufRead, BufReader, Write};
use std::process::Stdio;

/// Drops the figures that vary between runs (`nps`, `time`) from an `info` line.
fn steady(line: &str) -> String {
    let words: Vec<&str> = line.split_whitespace().collect();
    let mut kept = Vec::new();
    let mut i = 0;
    while i < words.len() {
        if words[i] == "nps" || words[i] == "time" {
            i += 2;
            continue;
        }
        kept.push(words[i]);
        i += 1;
    }
    kept.join(" ")
}

#[test]
fn the_readme_ugi_session_is_what_otau_answers() {
    let readme = include_str!("../../README.md");
    let start = readme
        .find("    $ target/release/otau --game toguz-kumalak\n")
        .expect("the README's UGI session");
    let session: Vec<&str> = readme[start..]
        .lines()
        .skip(1)
        .take_while(|l| l.starts_with("    "))
        .map(|l| l.trim())
        .collect();
    // What the session sends: the lines a UGI engine never writes.
    let sent = |l: &&str| {
        ["ugi", "position ", "go ", "query "]
            .iter()
            .any(|p| *l == p.trim_end() || (p.ends_with(' ') && l.starts_with(p)))
    };
    let input: Vec<&str> = session.iter().copied().filter(sent).collect();
    assert_eq!(input.len(), 4, "{input:?}");
    let mut child = crate::support::otau()
        .args(["--game", "toguz-kumalak"])
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .spawn()
        .unwrap();
    let mut stdin = child.stdin.take().unwrap();
    let mut out = BufReader::new(child.stdout.take().unwrap());
    let mut answered = Vec::new();
    for command in &input {
        writeln!(stdin, "{command}").unwrap();
        // Each command's answer ends with a known line; reading up to it keeps the order.
        let last = match command.split(' ').next().unwrap() {
            "ugi" => Some("ugiok"),
            "go" => Some("bestmove"),
            "query" => Some("response"),
            _ => None,
        };
        while let Some(last) = last {
            let mut line = String::new();
            assert!(out.read_line(&mut line).unwrap() > 0, "otau ended early");
            let line = line.trim_end().to_string();
            let done = line.starts_with(last);
            answered.push(line);
            if done {
                break;
            }
        }
    }
    writeln!(stdin, "quit").unwrap();
    drop(stdin);
    assert!(child.wait().unwrap().success());
    let answered: Vec<String> = answered.iter().map(|l| steady(l)).collect();
    for shown in session.iter().filter(|l| !sent(l) && **l != "...") {
        let shown = shown.trim_end_matches(" ...");
        let steady_shown = steady(shown);
        assert!(
            answered.iter().any(|a| a.starts_with(&steady_shown)),
            "the README shows `{shown}`; otau answered:\n{}",
            answered.join("\n")
        );
    }
}

const ARENA: &str = env!("CARGO_BIN_EXE_otau-arena");
const OTAU: &str = env!("CARGO_BIN_EXE_otau");

/// A scratch folder with what a fresh clone has that the examples read.
fn fresh_clone(name: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("otau-readme-{}-{name}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(dir.join("tests/data")).unwrap();
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/playok-sample.pgn");
    std::fs::copy(sample, dir.join("tests/data/playok-sample.pgn")).unwrap();
    dir
}

/// Runs `otau-arena args` in `dir`; panics with its output unless it exits 0. Returns stdout
/// and stderr together.
fn run_arena(args: &[String], dir: &std::path::Path) -> String {
    let o = crate::support::command(ARENA)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let text =
        String::from_utf8_lossy(&o.stdout).into_owned() + &String::from_utf8_lossy(&o.stderr);
    assert!(o.status.success(), "otau-arena {}:\n{text}", args.join(" "));
    text
}

/// The README's indented `target/release/otau-arena` commands, continuation lines joined.
fn readme_arena_commands() -> Vec<Vec<String>> {
    let readme = include_str!("../../README.md");
    let mut commands = Vec::new();
    let mut lines = readme.lines();
    while let Some(line) = lines.next() {
        let Some(rest) = line.strip_prefix("    target/release/otau-arena ") else {
            continue;
        };
        let mut text = rest.to_string();
        while text.ends_with('\\') {
            text.pop();
            text.push(' ');
            text.push_str(lines.next().unwrap().trim());
        }
        commands.push(text.split_whitespace().map(String::from).collect());
    }
    commands
}

/// A README command as the test runs it: the user's engine is the test engine, two builds are
/// `otau`, and the sizes are cut (one round, 4 games, short clocks, shallow depths) so that the
/// whole README runs in a minute or two.
fn shortened(command: &[String]) -> Vec<String> {
    let mut out = Vec::new();
    let mut cut_next = None;
    for word in command {
        if let Some(value) = cut_next.take() {
            out.push(String::from(value));
            continue;
        }
        match word.as_str() {
            "cmd=./my-engine" => {
                out.push(format!("cmd={ARENA}"));
                out.push("args=fake-engine ok".into());
            }
            "cmd=./otau-new" | "cmd=./otau-old" => out.push(format!("cmd={OTAU}")),
            "--rounds" | "-rounds" => {
                out.push(word.clone());
                cut_next = Some("1");
            }
            "--games" => {
                out.push(word.clone());
                cut_next = Some("4");
            }
            w if w.starts_with("tc=") => out.push("tc=2+0.02".into()),
            w if w.starts_with("depth=") && w != "depth=4" && w != "depth=6" => {
                out.push("depth=4".into())
            }
            _ => out.push(word.clone()),
        }
    }
    out
}

#[test]
fn the_readme_arena_examples_run_from_a_fresh_clone() {
    let dir = fresh_clone("arena");
    let commands = readme_arena_commands();
    assert_eq!(commands.len(), 8, "{commands:?}");
    for command in &commands {
        let args = shortened(command);
        let text = run_arena(&args, &dir);
        if command.contains(&"knockout".to_string()) {
            assert!(text.contains("Winner: "), "{text}");
        }
        if command.contains(&"swiss".to_string()) {
            // Its standings, with a cell a round (one round here).
            assert!(text.contains("Rank  Name") && text.contains("R1"), "{text}");
        }
    }
    let readme = include_str!("../../README.md");
    // The inline commands, as the README spells them.
    for inline in [
        "target/release/otau-arena --resume sprt.jsonl",
        "target/release/otau-arena sprt --penta 10,40,120,45,12 elo0=0 elo1=5",
    ] {
        assert!(
            readme.contains(inline),
            "the README no longer says '{inline}'"
        );
        let args: Vec<String> = inline
            .split_whitespace()
            .skip(1)
            .map(String::from)
            .collect();
        run_arena(&args, &dir);
    }
    for inline in ["report run.jsonl --out run.html", "ratings games.pgn"] {
        assert!(
            readme.contains(inline),
            "the README no longer says '{inline}'"
        );
    }
    run_arena(
        &["report", "sprt.jsonl", "--out", "run.html"].map(String::from),
        &dir,
    );
    assert!(dir.join("run.html").exists());
    run_arena(&["ratings", "mine.pgn"].map(String::from), &dir);
    // The shard recipe and its merge, locally: two shards of one seeded run.
    assert!(readme.contains("--games 20000 --shard {}/30 --out part{}.jsonl --quiet"));
    assert!(readme.contains("otau-arena merge part*.jsonl --out all.jsonl --pgn all.pgn"));
    for k in 1..=2 {
        let args = [
            "--engine",
            "cmd=builtin:random",
            "--engine",
            "cmd=builtin:greedy",
            "--each",
            "depth=1",
            "--seed",
            "7",
            "--games",
            "20",
            "--shard",
            &format!("{k}/2"),
            "--out",
            &format!("part{k}.jsonl"),
            "--quiet",
        ]
        .map(String::from);
        run_arena(&args, &dir);
    }
    let merge = [
        "merge",
        "part1.jsonl",
        "part2.jsonl",
        "--out",
        "all.jsonl",
        "--pgn",
        "all.pgn",
    ]
    .map(String::from);
    let text = run_arena(&merge, &dir);
    assert!(text.contains("Games: 20"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `cargo run --release --bin otau-arena`: the demo (the binary with no arguments).
#[test]
fn the_readme_demo_runs() {
    let readme = include_str!("../../README.md");
    assert!(readme.contains("    cargo run --release --bin otau-arena\n"));
    let dir = fresh_clone("demo");
    let text = run_arena(&[], &dir);
    assert!(text.contains("Elo"), "{text}");
    let _ = std::fs::remove_dir_all(&dir);
}
