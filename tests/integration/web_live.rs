//! Watching a run (issue 19, items 1, 2 and 4), over plain HTTP: a live run serves its page and
//! streams states whose boards are the positions the records hold at the same plies, a viewer
//! that never reads holds nothing up, `view` serves a recorded run's games, the report embeds
//! the viewer with its data escaped, and every page is read-only.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::process::{Child, Stdio};
use std::time::{Duration, Instant};

use crate::support::arena::*;
use crate::support::web::{visit, Hostile, Mix};
use otau::arena::records::RecordsFile;
use serde_json::Value;

/// Starts `otau-arena` with `args` in `dir` (stderr piped, the rest closed) and reads the
/// page's address from what it prints: the child, the address, and its stderr (kept open by the
/// caller, so the arena never blocks on a closed pipe), with the text printed before the URL.
pub(super) fn start_page<S: AsRef<std::ffi::OsStr>>(
    args: &[S],
    dir: &std::path::Path,
) -> (
    Child,
    SocketAddr,
    BufReader<std::process::ChildStderr>,
    String,
) {
    let mut child = crate::support::command(ARENA)
        .args(args)
        .current_dir(dir)
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (addr, err, before) = page_address_and_before(&mut child);
    (child, addr, err, before)
}

/// Reads the child's stderr until the line naming the page's URL: the address in it, the
/// stderr, and the text printed before that line.
fn page_address_and_before(
    child: &mut Child,
) -> (SocketAddr, BufReader<std::process::ChildStderr>, String) {
    let mut err = BufReader::new(child.stderr.take().unwrap());
    let mut before = String::new();
    let mut line = String::new();
    loop {
        line.clear();
        assert!(
            err.read_line(&mut line).unwrap() > 0,
            "no URL printed before the arena's stderr ended: {before}"
        );
        if let Some(at) = line.find("http://") {
            let url = line[at + 7..].split('/').next().unwrap();
            return (url.parse().unwrap(), err, before);
        }
        before.push_str(&line);
    }
}

/// A GET (or another method) of `path`: the status and the body.
pub(super) fn request(addr: SocketAddr, method: &str, path: &str) -> (u16, String) {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    write!(
        s,
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    let status = out[9..12].parse().unwrap();
    let body = out.split_once("\r\n\r\n").map_or("", |b| b.1).to_string();
    (status, body)
}

/// An event-stream viewer on its own thread, reading every state until the stream ends.
pub(super) fn viewer(addr: SocketAddr) -> std::thread::JoinHandle<Vec<Value>> {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(60))).unwrap();
    write!(s, "GET /events HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    std::thread::spawn(move || {
        let mut states = Vec::new();
        for line in BufReader::new(s).lines() {
            let Ok(line) = line else { break };
            if let Some(data) = line.strip_prefix("data: ") {
                states.push(serde_json::from_str(data).unwrap());
            }
        }
        states
    })
}

/// Waits for the child to exit (killing it after `limit`): its exit code.
pub(super) fn wait_exit(child: &mut Child, limit: Duration) -> i32 {
    let started = Instant::now();
    loop {
        if let Some(status) = child.try_wait().unwrap() {
            return status.code().unwrap_or(-1);
        }
        if started.elapsed() > limit {
            let _ = child.kill();
            panic!("the arena did not end within {limit:?}");
        }
        std::thread::sleep(Duration::from_millis(20));
    }
}

/// The position string of every ply of each recorded game (ply 0: the start), as the viewer
/// replays it; checked against the record's final position.
fn recorded_positions(records: &RecordsFile) -> std::collections::BTreeMap<u64, Vec<String>> {
    records
        .games
        .values()
        .map(|g| {
            let view = otau::web::game::game_view(g);
            let positions: Vec<String> = view["positions"]
                .as_array()
                .unwrap()
                .iter()
                .map(|p| p["position"].as_str().unwrap().to_string())
                .collect();
            assert_eq!(positions.last(), Some(&g.final_position));
            assert!(view.get("error").is_none(), "{view}");
            (g.index + 1, positions)
        })
        .collect()
}

#[test]
fn a_live_run_streams_the_positions_it_records() {
    let dir = scratch("web-live");
    let mut args = fake_engines_then("slow", &["<b>south</b>", "north"], &[]);
    args.extend(
        [
            "--games",
            "4",
            "--concurrency",
            "2",
            "--max-plies",
            "16",
            "--seed",
            "7",
            "--openings",
            "plies=2",
            "--each",
            "depth=1",
            "--out",
            "run.jsonl",
            "--live",
            "--report",
            "run.html",
        ]
        .map(String::from),
    );
    let (mut child, addr, _stderr, _) = start_page(&args, &dir);
    assert!(addr.ip().is_loopback(), "{addr}");
    // A viewer that connects and never reads: the run must not wait for it.
    let stalled = TcpStream::connect(addr).unwrap();
    write!(&stalled, "GET /events HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let viewers = [viewer(addr), viewer(addr)];
    let (status, page) = request(addr, "GET", "/");
    assert_eq!(status, 200);
    assert!(page.contains("/live.js") && page.contains("/board.js"));
    for path in ["/live.js", "/viewer.js", "/board.js", "/style.css"] {
        assert_eq!(request(addr, "GET", path).0, 200, "{path}");
    }
    // Read-only: nothing but GET, nothing outside the fixed paths.
    for (method, path) in [("POST", "/"), ("PUT", "/events"), ("DELETE", "/game?n=1")] {
        assert_eq!(request(addr, method, path).0, 405, "{method} {path}");
    }
    for path in [
        "/run.jsonl",
        "/../run.jsonl",
        "/game/../../etc/passwd",
        "/stop",
    ] {
        assert_eq!(request(addr, "GET", path).0, 404, "{path}");
    }
    assert_eq!(wait_exit(&mut child, Duration::from_secs(120)), 0);
    drop(stalled);

    let records = RecordsFile::read(&dir.join("run.jsonl")).unwrap();
    assert_eq!(records.games.len(), 4);
    let positions = recorded_positions(&records);
    for v in viewers {
        let states = v.join().unwrap();
        assert!(!states.is_empty(), "no state streamed");
        let mut boards = 0;
        let mut figures = 0;
        for s in &states {
            for g in s["playing"].as_array().unwrap() {
                let n = g["game"].as_u64().unwrap();
                let ply = g["ply"].as_u64().unwrap() as usize;
                assert_eq!(
                    g["position"].as_str().unwrap(),
                    positions[&n][ply],
                    "game {n} ply {ply}"
                );
                assert_eq!(g["id"], "toguz-kumalak");
                boards += 1;
                let info = &g["info"];
                if info[0]["depth"].is_number() || info[1]["depth"].is_number() {
                    figures += 1;
                    let i = if info[0]["depth"].is_number() {
                        &info[0]
                    } else {
                        &info[1]
                    };
                    assert_eq!(i["nps"], 56789);
                    assert_eq!(i["nodes"], 1234);
                    assert!(i["pv"].as_str().unwrap().ends_with(" 1 2"), "{i}");
                }
            }
        }
        assert!(boards > 0, "no game in progress was streamed");
        assert!(figures > 0, "no engine figures were streamed");
        let last = states.last().unwrap();
        assert_eq!(last["ended"], true, "the last state is the run's end");
        assert_eq!(last["progress"]["done"], 4);
        assert_eq!(last["finished"].as_array().unwrap().len(), 4);
        assert!(last["summary"]["matches"].is_array());
        for f in last["finished"].as_array().unwrap() {
            let n = f["game"].as_u64().unwrap();
            let g = &records.games[&(n - 1)];
            assert_eq!(f["result"], g.result.pgn());
            // One ply count (issue 29 item 1): the plies the boards above were numbered by.
            assert_eq!(
                f["plies"].as_u64().unwrap() as usize,
                positions[&n].len() - 1,
                "game {n}"
            );
            assert_eq!(f["south"], g.south.as_str());
        }
    }

    // The report embeds the viewer: its games' JSON survives an engine name with HTML in it.
    let report = std::fs::read_to_string(dir.join("run.html")).unwrap();
    let open = "<script type=\"application/json\" id=\"otau-games\">";
    let start = report.find(open).expect("the report embeds the games") + open.len();
    let json = &report[start..start + report[start..].find("</script>").unwrap()];
    let games: Vec<Value> = serde_json::from_str(json).unwrap();
    assert_eq!(games.len(), 4);
    assert!(
        !json.contains("<b>"),
        "names are escaped inside the script element"
    );
    for g in &games {
        let n = g["game"].as_u64().unwrap();
        let shown: Vec<&str> = g["positions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["position"].as_str().unwrap())
            .collect();
        assert_eq!(shown, positions[&n]);
    }
    assert!(report.contains("window.OtauBoard") && report.contains("OtauViewer.embedded()"));
    assert!(
        !report.contains("src=\"http"),
        "nothing fetched: one offline file"
    );
}

#[test]
fn view_serves_a_recorded_run_read_only() {
    let dir = scratch("web-view");
    let args = sound_engines_then(
        &["a", "b"],
        &[
            "--games",
            "4",
            "--seed",
            "3",
            "--openings",
            "plies=2",
            "--each",
            "depth=1",
            "--out",
            "run.jsonl",
            "-q",
        ],
    );
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let (code, _, err) = arena(&args, &dir);
    assert_eq!(code, 0, "{err}");
    let (mut child, addr, _stderr, _) = start_page(&["view", "run.jsonl"], &dir);
    let records = RecordsFile::read(&dir.join("run.jsonl")).unwrap();
    let positions = recorded_positions(&records);

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
    let state = state.unwrap();
    assert_eq!(state["ended"], true);
    assert_eq!(state["finished"].as_array().unwrap().len(), 4);
    assert!(state["playing"].as_array().unwrap().is_empty());

    for n in 1..=4u64 {
        let (status, body) = request(addr, "GET", &format!("/game?n={n}"));
        assert_eq!(status, 200);
        let g: Value = serde_json::from_str(&body).unwrap();
        let shown: Vec<&str> = g["positions"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p["position"].as_str().unwrap())
            .collect();
        assert_eq!(shown, positions[&n], "game {n}");
        // Each engine move carries what the PGN comments: the score and depth.
        let played = &g["positions"].as_array().unwrap()[3];
        assert_eq!(played["comment"], "+0.00/1", "{played}");
        assert_eq!(g["positions"][1]["book"], true);
    }
    for (path, status) in [
        ("/game?n=5", 404),
        ("/game?n=0", 404),
        ("/game?n=x", 400),
        ("/game", 400),
        ("/game?n=1&file=/etc/passwd", 200),
        ("/run.jsonl", 404),
        ("/..%2frun.jsonl", 404),
    ] {
        assert_eq!(request(addr, "GET", path).0, status, "{path}");
    }
    for method in ["POST", "PUT", "PATCH", "HEAD"] {
        assert_eq!(request(addr, method, "/game?n=1").0, 405, "{method}");
    }
    // A page elsewhere that rebinds its name to this address is refused.
    let mut s = TcpStream::connect(addr).unwrap();
    write!(s, "GET / HTTP/1.1\r\nHost: attacker.example\r\n\r\n").unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    assert!(out.starts_with("HTTP/1.1 400"), "{out}");

    // Ctrl-C ends it.
    // SAFETY: a signal to our own child.
    unsafe { libc::kill(child.id() as i32, libc::SIGINT) };
    assert_eq!(wait_exit(&mut child, Duration::from_secs(20)), 0);
}

#[test]
fn no_page_script_writes_html_from_data() {
    for (name, script) in [
        ("board.js", otau::web::assets::BOARD_JS),
        ("live.js", otau::web::live::LIVE_JS),
        ("viewer.js", otau::web::live::VIEWER_JS),
        ("crosstable.js", otau::web::assets::CROSSTABLE_JS),
        ("swiss.js", otau::web::assets::SWISS_JS),
    ] {
        for sink in [
            "innerHTML",
            "outerHTML",
            "insertAdjacentHTML",
            "document.write",
            "eval(",
        ] {
            assert!(!script.contains(sink), "{name} uses {sink}");
        }
    }
    assert!(
        !otau::web::live::LIVE_HTML.contains("<script>"),
        "no inline script"
    );
}

#[test]
fn a_live_run_on_every_interface_warns_and_serves_visitors_among_hostile_clients() {
    let dir = scratch("web-hostile");
    let mut args = fake_engines_then("slow", &["a", "b"], &[]);
    args.extend(
        [
            "--games",
            "4",
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
            "0.0.0.0:0",
        ]
        .map(String::from),
    );
    let (mut child, addr, _stderr, before) = start_page(&args, &dir);
    // The exposure is named, and the printed URL works.
    assert!(
        before.contains("0.0.0.0:") && before.contains("reachable from the network"),
        "{before}"
    );
    assert!(addr.ip().is_loopback(), "{addr}");
    assert_eq!(visit(addr, "/", Duration::from_secs(20)).0, 200);
    // 64 hostile clients of each kind: every visitor is still answered, and the run ends by
    // itself with all its games.
    let hostile = Hostile::start(
        addr,
        Mix {
            slow_heads: 64,
            endless: 64,
            unread_streams: 64,
        },
    );
    for path in ["/", "/live.js", "/board.js", "/"] {
        assert_eq!(visit(addr, path, Duration::from_secs(20)).0, 200, "{path}");
    }
    assert_eq!(wait_exit(&mut child, Duration::from_secs(120)), 0);
    drop(hostile);
    let records = RecordsFile::read(&dir.join("run.jsonl")).unwrap();
    assert_eq!(records.games.len(), 4);
}

/// Issue 29 item 3: the live headline of a round robin of three is the leader and every engine's
/// points out of every finished game (it was the first pairing alone).
#[test]
fn the_live_headline_of_a_round_robin_counts_every_game() {
    let dir = scratch("web-live-rr");
    let args = fake_engines_then(
        "slow",
        &["a", "b", "c"],
        &[
            "--games",
            "6",
            "--concurrency",
            "2",
            "--max-plies",
            "8",
            "--each",
            "depth=1",
            "--seed",
            "5",
            "--live",
        ],
    );
    let (mut child, addr, _stderr, _) = start_page(&args, &dir);
    let v = viewer(addr);
    assert_eq!(wait_exit(&mut child, Duration::from_secs(120)), 0);
    let states = v.join().unwrap();
    let last = states.last().expect("a state");
    assert_eq!(last["ended"], true);
    let headline = last["headline"].as_str().unwrap();
    assert!(
        headline.starts_with("leader ") || headline.starts_with("tied for first: "),
        "{headline}"
    );
    let table = headline
        .split_once("; ")
        .unwrap()
        .1
        .strip_suffix(" (6 games)")
        .unwrap_or_else(|| panic!("{headline}"));
    let (mut points, mut games) = (0.0, 0);
    for entry in table.split(", ") {
        let (_, score) = entry.rsplit_once(' ').unwrap();
        let (p, g) = score.split_once('/').unwrap();
        points += p.parse::<f64>().unwrap();
        games += g.parse::<u64>().unwrap();
    }
    assert_eq!((points, games), (6.0, 12), "{headline}");
    let _ = std::fs::remove_dir_all(&dir);
}
