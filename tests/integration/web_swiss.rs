//! A Swiss's standings and crosstable on the pages (issue 32, point 3): the HTML report (of a
//! run and of `otau-arena report`), the live page's state and `view` show what the summary
//! event's `swiss` object holds, which is what the run prints: rank, name, points, a cell a
//! round (the opponent's rank, colour, result; the bye), the tie-breaks in the JSON's order.
//! Engine names are hostile (HTML in them): every page escapes them.

use std::io::{BufRead, BufReader, Write};
use std::net::TcpStream;
use std::path::Path;
use std::time::Duration;

use super::web_live::{request, start_page, viewer, wait_exit};
use crate::support::arena::*;
use serde_json::Value;

/// Five engines, one a bye every round; two names carry HTML.
const NAMES: [&str; 5] = ["<b>o</b>", "r&1", "r2", "g1", "g<2>"];

/// A Swiss of [`NAMES`] (built-in players at depth 1, the first rated, so pairing number 1) over
/// three rounds, then `extra`.
pub(crate) fn builtin_swiss(extra: &[&str]) -> Vec<String> {
    let cmds = [
        "builtin:otau",
        "builtin:random",
        "builtin:random",
        "builtin:greedy",
        "builtin:greedy",
    ];
    let mut args = Vec::new();
    for (name, cmd) in NAMES.iter().zip(cmds) {
        args.extend([
            "--engine".to_string(),
            format!("name={name}"),
            format!("cmd={cmd}"),
        ]);
    }
    args.push("rating=2400".into());
    for a in [
        "--each",
        "depth=1",
        "--tournament",
        "swiss",
        "--rounds",
        "3",
        "--seed",
        "2",
    ] {
        args.push(a.into());
    }
    args.extend(extra.iter().map(|s| s.to_string()));
    args
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
        .replace('"', "&quot;")
        .replace('\'', "&#39;")
}

/// The summary event's `swiss` object of the records in `path`.
pub(crate) fn summary_swiss(path: &Path) -> Value {
    let text = std::fs::read_to_string(path).unwrap();
    let summary: Value = text
        .lines()
        .map(|l| serde_json::from_str::<Value>(l).unwrap())
        .find(|v| v["event"] == "summary")
        .expect("a summary event");
    summary["swiss"].clone()
}

/// A row of the standings: name, points, round cells, tie-break values.
pub(crate) type Row = (String, String, Vec<String>, Vec<f64>);

/// A row of the standings as every page must show it, from the JSON alone: name, points (one
/// decimal), the round cells (`4w1`, `bye +`), the tie-breaks in the order `tiebreaks` lists.
pub(crate) fn expected_rows(swiss: &Value) -> Vec<Row> {
    let rows = swiss["standings"].as_array().unwrap();
    let rank = |name: &str| {
        rows.iter()
            .position(|r| r["engine"] == name)
            .map(|k| k + 1)
            .unwrap()
    };
    let order = tiebreak_order(swiss);
    rows.iter()
        .map(|row| {
            let cells = row["rounds"]
                .as_array()
                .unwrap()
                .iter()
                .map(|r| {
                    let x = r["result"].as_f64().unwrap();
                    match r["opponent"].as_str() {
                        Some(o) => {
                            let colour = if r["colour"] == "white" { "w" } else { "b" };
                            let mark = if x == 1.0 {
                                "1"
                            } else if x == 0.5 {
                                "="
                            } else {
                                "0"
                            };
                            format!("{}{colour}{mark}", rank(o))
                        }
                        None => {
                            assert_eq!(r["bye"], true, "{r}");
                            assert_eq!(x, 1.0, "the bye scores a win: {r}");
                            "bye +".to_string()
                        }
                    }
                })
                .collect();
            let values = order
                .iter()
                .map(|t| row["tiebreaks"][*t].as_f64().unwrap())
                .collect();
            (
                row["engine"].as_str().unwrap().to_string(),
                format!("{:.1}", row["points"].as_f64().unwrap()),
                cells,
                values,
            )
        })
        .collect()
}

/// The texts of the `<td>` cells of `row` (an HTML table row).
fn cells_of(row: &str) -> Vec<String> {
    row.split("<td")
        .skip(1)
        .map(|c| {
            let c = &c[c.find('>').unwrap() + 1..];
            c[..c.find("</td>").unwrap()].to_string()
        })
        .collect()
}

/// Checks the `swiss` section of a report page against the summary's `swiss` object.
fn check_report(html: &str, swiss: &Value, what: &str) {
    for name in NAMES {
        if name != escape(name) {
            assert!(!html.contains(name), "{what}: {name} unescaped");
        }
    }
    let start = html
        .find("<section id=\"swiss\">")
        .unwrap_or_else(|| panic!("{what}: no Swiss section"));
    let section = &html[start..start + html[start..].find("</section>").unwrap()];
    assert!(
        section.contains("3 of 3 rounds played"),
        "{what}: {section}"
    );
    // The tie-breaks' columns, in the JSON's order.
    let heads: Vec<&str> = section
        .split("<th data-tiebreak=\"")
        .skip(1)
        .map(|h| &h[..h.find('"').unwrap()])
        .collect();
    let order = tiebreak_order(swiss);
    assert_eq!(heads, order, "{what}");
    let rows: Vec<&str> = section.split("<tr data-engine=").skip(1).collect();
    let expected = expected_rows(swiss);
    assert_eq!(rows.len(), expected.len(), "{what}: {section}");
    for (k, (row, (name, points, cells, values))) in rows.iter().zip(&expected).enumerate() {
        assert!(
            row.starts_with(&format!("\"{}\">", escape(name))),
            "{what}: {row}"
        );
        let got = cells_of(row);
        assert_eq!(got[0], (k + 1).to_string(), "{what}: rank of {name}");
        assert_eq!(got[1], escape(name), "{what}");
        assert_eq!(&got[2], points, "{what}: points of {name}");
        assert_eq!(
            &got[3..3 + cells.len()],
            &cells[..],
            "{what}: rounds of {name}"
        );
        let shown: Vec<f64> = got[3 + cells.len()..]
            .iter()
            .map(|v| v.parse().unwrap())
            .collect();
        assert_eq!(&shown, values, "{what}: tie-breaks of {name}");
    }
}

/// The standings the run printed (`standings::table`): per row the name, points, round cells and
/// tie-break values, in its order.
fn printed_rows(out: &str, rounds: usize) -> Vec<Row> {
    let mut lines = out
        .lines()
        .skip_while(|l| !l.trim_start().starts_with("Rank  Name"));
    lines.next().expect("the printed standings");
    lines
        .take_while(|l| !l.trim().is_empty())
        .map(|l| {
            let mut words: Vec<String> = Vec::new();
            for w in l.split_whitespace() {
                // `bye +` and `- -` are one cell.
                if matches!(words.last().map(String::as_str), Some("bye") | Some("-")) {
                    let first = words.pop().unwrap();
                    words.push(format!("{first} {w}"));
                } else {
                    words.push(w.to_string());
                }
            }
            let cells = words[3..3 + rounds].to_vec();
            let values = words[3 + rounds..]
                .iter()
                .map(|v| v.parse().unwrap())
                .collect();
            (words[1].clone(), words[2].clone(), cells, values)
        })
        .collect()
}

#[test]
fn a_swiss_report_shows_the_standings_and_crosstable_of_its_summary() {
    let dir = scratch("swiss-report");
    let args = builtin_swiss(&["--out", "r.jsonl", "--report", "run.html"]);
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, out, err) = arena(&args, &dir);
    assert_eq!(code, 0, "{err}");
    let swiss = summary_swiss(&dir.join("r.jsonl"));
    assert_eq!(swiss["rounds_done"], 3, "{swiss}");
    assert_eq!(
        swiss["tiebreaks"],
        serde_json::json!(["buchholz-cut1", "buchholz", "sonneborn-berger", "wins"])
    );
    // The JSON is what the run printed.
    assert_eq!(printed_rows(&out, 3), expected_rows(&swiss), "{out}");
    check_report(
        &std::fs::read_to_string(dir.join("run.html")).unwrap(),
        &swiss,
        "--report",
    );
    let (code, _, err) = arena(&["report", "r.jsonl", "--out", "page.html"], &dir);
    assert_eq!(code, 0, "{err}");
    let page = std::fs::read_to_string(dir.join("page.html")).unwrap();
    check_report(&page, &swiss, "otau-arena report");
    // The standings replace their text note; a run of another kind has no Swiss section.
    assert!(
        !page.contains("id=\"note-0\""),
        "the text kept beside the tables"
    );
    let (code, _, err) = arena(
        &[
            "--engine",
            "cmd=builtin:random",
            "--engine",
            "cmd=builtin:greedy",
            "--each",
            "depth=1",
            "--games",
            "2",
            "-q",
            "--report",
            "rr.html",
        ],
        &dir,
    );
    assert_eq!(code, 0, "{err}");
    let rr = std::fs::read_to_string(dir.join("rr.html")).unwrap();
    assert!(!rr.contains("id=\"swiss\""));
    let _ = std::fs::remove_dir_all(&dir);
}

/// The first state `view` serves of the records in `file`.
fn viewed_state(dir: &Path, file: &str) -> Value {
    let (mut child, addr, _stderr, _) = start_page(&["view", file], dir);
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(s, "GET /events HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let mut state = None;
    for line in BufReader::new(s).lines() {
        if let Some(data) = line.unwrap().strip_prefix("data: ") {
            state = Some(serde_json::from_str::<Value>(data).unwrap());
            break;
        }
    }
    // SAFETY: a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    assert_eq!(wait_exit(&mut child, Duration::from_secs(20)), 0);
    state.expect("a state")
}

#[test]
fn the_live_page_and_view_show_the_swiss_standings_as_rounds_end() {
    let dir = scratch("swiss-live");
    // Engines that take a while a move: the page is up before the rounds end.
    let mut args = fake_engines_then("slow", &NAMES, &[]);
    for a in [
        "--tournament",
        "swiss",
        "--rounds",
        "3",
        "--concurrency",
        "2",
        "--max-plies",
        "16",
        "--seed",
        "7",
        "--each",
        "depth=1",
        "--out",
        "run.jsonl",
        "--live",
    ] {
        args.push(a.into());
    }
    let (mut child, addr, _stderr, _) = start_page(&args, &dir);
    let watching = viewer(addr);
    let (status, page) = request(addr, "GET", "/");
    assert_eq!(status, 200);
    assert!(page.contains("/swiss.js") && page.contains("id=\"swiss\""));
    let (status, script) = request(addr, "GET", "/swiss.js");
    assert_eq!(status, 200);
    assert!(script.contains("OtauSwiss"));
    assert_eq!(wait_exit(&mut child, Duration::from_secs(300)), 0);

    let swiss = summary_swiss(&dir.join("run.jsonl"));
    assert_eq!(swiss["rounds_done"], 3, "{swiss}");
    let states = watching.join().unwrap();
    let last = states.last().expect("states streamed");
    assert_eq!(last["ended"], true);
    // The run's last state holds the standings of the summary event, exactly.
    assert_eq!(last["swiss"], swiss);
    // Every state the page got has the standings (from the first, before any round ended), and
    // they only move forward, a round at a time.
    let done: Vec<u64> = states
        .iter()
        .map(|s| {
            s["swiss"]["rounds_done"]
                .as_u64()
                .expect("swiss in every state")
        })
        .collect();
    assert!(done.windows(2).all(|w| w[0] <= w[1]), "{done:?}");
    eprintln!("rounds done in the states streamed: {done:?}");

    // `view` of the finished run, and of its records cut after round 1 (an interrupted run):
    // the standings of the games recorded.
    assert_eq!(viewed_state(&dir, "run.jsonl")["swiss"], swiss);
    let text = std::fs::read_to_string(dir.join("run.jsonl")).unwrap();
    let cut: Vec<&str> = text
        .lines()
        .filter(|l| {
            let v: Value = serde_json::from_str(l).unwrap();
            v["event"] == "run" || (v["event"] == "game" && v["round"] == 0)
        })
        .collect();
    assert_eq!(cut.len(), 1 + 2, "a header and round 1's two games");
    std::fs::write(dir.join("cut.jsonl"), cut.join("\n") + "\n").unwrap();
    let state = viewed_state(&dir, "cut.jsonl");
    let part = &state["swiss"];
    assert_eq!(part["rounds_done"], 1, "{part}");
    let rows = part["standings"].as_array().unwrap();
    assert_eq!(rows.len(), 5);
    assert!(rows
        .iter()
        .all(|r| r["rounds"].as_array().unwrap().len() == 1));
    // Two games and a bye: three points among five engines.
    let points: f64 = rows.iter().map(|r| r["points"].as_f64().unwrap()).sum();
    assert_eq!(points, 3.0, "{part}");
    // Round 1 as the finished run's standings have it.
    for row in rows {
        let full = swiss["standings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["engine"] == row["engine"])
            .unwrap();
        assert_eq!(row["rounds"][0], full["rounds"][0], "{part}");
    }
    let _ = std::fs::remove_dir_all(&dir);
}

/// The live state's Swiss part changes the state (a new generation for the viewers) only when
/// it changes.
#[test]
fn the_live_state_changes_with_the_swiss_standings_only() {
    use otau::arena::output::live::Watch;
    let watch = Watch::new("t");
    let g0 = watch.generation();
    let part = serde_json::json!({"rounds_done": 1, "standings": []});
    watch.pairing(Some(("swiss", part.clone())));
    let g1 = watch.generation();
    assert!(g1 > g0);
    watch.pairing(Some(("swiss", part)));
    assert_eq!(watch.generation(), g1, "the same standings: no new state");
    watch.pairing(Some(("swiss", serde_json::json!({"rounds_done": 2}))));
    assert!(watch.generation() > g1);
    let state = otau::web::live::state_json(&watch.snapshot());
    let state: Value = serde_json::from_str(&state).unwrap();
    assert_eq!(state["swiss"]["rounds_done"], 2);
}

/// The tie-breaks' names in the summary's ranking order (the columns the pages draw).
fn tiebreak_order(swiss: &Value) -> Vec<&str> {
    swiss["tiebreaks"]
        .as_array()
        .unwrap()
        .iter()
        .map(|t| t.as_str().unwrap())
        .collect()
}
