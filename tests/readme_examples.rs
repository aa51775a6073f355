//! The README's examples come from real runs: its UGI session is replayed here and every line it
//! shows (times and nps aside, which vary) must be what `otau` answers.

use std::io::{BufRead, BufReader, Write};
use std::process::{Command, Stdio};

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
    let readme = include_str!("../README.md");
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
    let mut child = Command::new(env!("CARGO_BIN_EXE_otau"))
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
