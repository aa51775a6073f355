//! The pages in a real browser: headless Chromium driven through chromedriver
//! (tests/browser_support; `.ci/run` installs both when missing, `OTAU_SKIP_BROWSER_TESTS=1`
//! skips locally). One browser for the whole file: a single test runs every page in turn.
//!
//! Screenshots of each page go to `target/browser-screenshots/`, named by what they show.

mod arena_support;
mod browser_support;

use std::time::Duration;

use arena_support::{cell_text, fake_engines_then, pairing_counts, scratch, ARENA};
use browser_support::{get, screenshot_path, Browser, Served};
use otau::arena::records::TerminationKind;
use otau::games::{AnyGame, GameLine, Variant};

const OTAU: &str = env!("CARGO_BIN_EXE_otau");
/// Bound of every wait on a page (an engine at depth 2 answers in milliseconds).
const WAIT: Duration = Duration::from_secs(20);

/// The position after `tokens` from the start, by the rules alone.
fn after(variant: Variant, tokens: &[String]) -> String {
    let mut line = GameLine::new(AnyGame::start(variant));
    for t in tokens {
        line.play_token(t).unwrap();
    }
    line.position().to_string()
}

/// The board's ply, position and game id, and the status line, read at one instant.
fn board(b: &Browser) -> Option<(usize, String, String, String)> {
    let a = b.attrs(".board", &["data-ply", "data-position", "data-game-id"])?;
    let ply = a[0].as_deref()?.parse().ok()?;
    let status = b.text_of("#status");
    Some((ply, a[1].clone()?, a[2].clone()?, status))
}

/// The board's position once it shows ply `ply` with the person to move.
fn board_at(b: &Browser, ply: usize) -> String {
    b.wait_until(
        &format!("the board at ply {ply}, the person to move"),
        WAIT,
        |b| match board(b) {
            Some((p, position, _, status)) if p == ply && status.starts_with("Your move") => {
                Ok(position)
            }
            seen => Err(format!("{seen:?}")),
        },
    )
}

/// The moves the server's state lists (protocol tokens), read without the browser.
fn state_moves(served: &Served) -> Vec<String> {
    let (status, body) = get(&served.at("state"));
    assert_eq!(status, 200, "{body}");
    let v: serde_json::Value = serde_json::from_str(&body).unwrap();
    v["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["move"].as_str().unwrap().to_string())
        .collect()
}

/// `otau web` for `game` against otau at depth 2, then the `--engine` values of `more`.
fn otau_web(game: &str, more: &[&str]) -> Served {
    let dir = std::env::temp_dir();
    let mut args = vec![
        "web",
        "--game",
        game,
        "--engine",
        "cmd=builtin:otau depth=2",
        "--addr",
        "127.0.0.1:0",
    ];
    for e in more {
        args.extend(["--engine", e]);
    }
    Served::start(OTAU, &args, &dir, WAIT)
}

fn click(b: &Browser, css: &str) {
    b.click_css(css, WAIT);
}

/// The person clicks `clicks` (CSS selectors, in turn); the engine answers; the board then shows
/// exactly the rules' position after the person's move and the engine's reply.
fn person_move_reaches_the_engine(b: &Browser, variant: Variant, clicks: &[&str], shot: &str) {
    let served = otau_web(&variant.id(), &[]);
    b.goto(&served.url);
    let start = board_at(b, 0);
    assert_eq!(start, AnyGame::start(variant).to_string());
    assert_eq!(board(b).unwrap().2, variant.id());
    for css in clicks {
        click(b, css);
    }
    let position = b.wait_until("the engine's answer on the board", WAIT, |b| {
        match board(b) {
            Some((ply, position, _, status)) if ply >= 2 && status.starts_with("Your move") => {
                Ok((ply, position))
            }
            seen => Err(format!("{seen:?}")),
        }
    });
    let moves = state_moves(&served);
    assert_eq!(position.0, moves.len());
    assert_eq!(position.1, after(variant, &moves), "{variant}: {moves:?}");
    b.screenshot(&screenshot_path(shot));

    // Undo takes the engine's answer and the person's move back.
    click(b, "#undo");
    assert_eq!(board_at(b, 0), start, "{variant}: undo");
}

fn play_page(b: &Browser) {
    person_move_reaches_the_engine(
        b,
        Variant::TOGUZ,
        &[".board g.hole.legal[data-move=\"7\"]"],
        "play-toguz",
    );
    // Giuthi: the hole, then the direction.
    person_move_reaches_the_engine(
        b,
        Variant::GIUTHI,
        &[
            ".board g.hole.legal[data-hole=\"3\"]",
            "#direction [data-move=\"3c\"]",
        ],
        "play-giuthi",
    );
    person_move_reaches_the_engine(
        b,
        Variant::MODIAR,
        &[".board g.hole.legal[data-move=\"2\"]"],
        "play-modiar",
    );
}

/// Flip gives the engine South (it moves first); analysis shows the engine's search of the
/// person's position; the PGN lists the game; an engine's name is shown as text, never markup.
fn controls(b: &Browser) {
    let evil = "<img id=evil src=x onerror=alert(1)>";
    let served = otau_web(
        "toguz-kumalak",
        &[&format!("name='{evil}' cmd=builtin:random depth=1")],
    );
    b.goto(&served.url);
    board_at(b, 0);
    let names = b.execute(
        "return Array.from(document.querySelectorAll('#engine option'), o => o.textContent)",
        serde_json::json!([]),
    );
    assert_eq!(names, serde_json::json!(["otau", evil]));
    assert!(
        b.find("#evil").is_none() && b.find("img").is_none(),
        "no markup from a name"
    );
    let holes = b.find_all(".board g.hole.legal[data-move]");
    assert_eq!(
        holes.len(),
        9,
        "every hole of South's is a legal first move"
    );
    click(b, "#flip");
    let position = board_at(b, 1);
    assert_eq!(position, after(Variant::TOGUZ, &state_moves(&served)));
    click(b, "#analysis");
    let text = b.wait_until("the analysis", WAIT, |b| {
        let t = b.text_of("#analysis-box");
        if t.starts_with("engine suggests") {
            Ok(t)
        } else {
            Err(t)
        }
    });
    assert!(text.contains("depth 2") && text.contains("pv "), "{text}");
    b.screenshot(&screenshot_path("play-analysis"));
    let (status, pgn) = get(&served.at("game.pgn"));
    assert_eq!(status, 200);
    assert!(
        pgn.contains("[White \"otau\"]") && pgn.contains("[Black \"person\"]"),
        "{pgn}"
    );
    assert!(pgn.contains("[Result \"*\"]"), "{pgn}");
    assert!(b.find("#pgn").is_some() && b.find("#new-game").is_some());
    click(b, "#new-game");
    board_at(b, 1);
}

/// The position of every ply of a recorded game (0: its start), replayed by the rules from the
/// record's opening and moves.
fn replayed(g: &otau::arena::records::GameRecord) -> Vec<String> {
    let mut line = GameLine::new(AnyGame::from_position(&g.opening.start).unwrap());
    let mut out = vec![line.position().to_string()];
    let tokens = g.opening.moves.iter().chain(g.moves.iter().map(|m| &m.mv));
    for t in tokens {
        line.play_token(t).unwrap();
        out.push(line.position().to_string());
    }
    assert_eq!(out.last(), Some(&g.final_position));
    out
}

/// (game, ply, position) of every live board on the page now, read at one instant.
fn live_boards(b: &Browser) -> Vec<(u64, usize, String)> {
    let v = b.execute(
        "return Array.from(document.querySelectorAll('#playing .board[data-game]'), \
         e => [e.getAttribute('data-game'), e.getAttribute('data-ply'), \
               e.getAttribute('data-position')])",
        serde_json::json!([]),
    );
    v.as_array()
        .unwrap()
        .iter()
        .map(|a| {
            (
                a[0].as_str().unwrap().parse().unwrap(),
                a[1].as_str().unwrap().parse().unwrap(),
                a[2].as_str().unwrap().to_string(),
            )
        })
        .collect()
}

/// A live run of slow test engines (25 ms a move): the boards the page shows while it goes on
/// are the positions the records hold at the same plies of the same games. Then the run's
/// records through `otau-arena view` and the HTML report: a finished game replayed to its
/// last ply shows its final position, its first ply its start.
fn live_and_viewer(b: &Browser) {
    let dir = scratch("live");
    let mut args = fake_engines_then("slow", &["south", "north"], &[]);
    for a in [
        "--games",
        "8",
        "--concurrency",
        "2",
        "--max-plies",
        "60",
        "--seed",
        "3",
        "--openings",
        "plies=2",
        "--each",
        "depth=1",
        "--out",
        "run.jsonl",
        "--report",
        "run.html",
        "--live",
        "127.0.0.1:0",
    ] {
        args.push(a.into());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut run = Served::start(ARENA, &args, &dir, WAIT);
    b.goto(&run.url);
    let mut samples = Vec::new();
    let mut shot = false;
    while run.exited().is_none() && samples.len() < 400 {
        let boards = live_boards(b);
        if !boards.is_empty() && !shot {
            b.screenshot(&screenshot_path("live"));
            shot = true;
        }
        samples.extend(boards);
        std::thread::sleep(Duration::from_millis(30));
    }
    b.wait_until("the run's end", Duration::from_secs(60), |_| {
        run.exited().ok_or_else(|| "running".to_string())
    });
    assert!(
        !samples.is_empty(),
        "no live board seen while the run went on"
    );
    let records = otau::arena::records::RecordsFile::read(&dir.join("run.jsonl")).unwrap();
    assert_eq!(records.games.len(), 8);
    let positions: std::collections::BTreeMap<u64, Vec<String>> = records
        .games
        .values()
        .map(|g| (g.index + 1, replayed(g)))
        .collect();
    for (game, ply, position) in &samples {
        let recorded = positions.get(game).and_then(|p| p.get(*ply));
        assert_eq!(
            Some(position),
            recorded,
            "live board of game {game} at ply {ply}"
        );
    }

    // The viewer of the recorded run.
    let view = Served::start(
        ARENA,
        &["view", "run.jsonl", "--addr", "127.0.0.1:0"],
        &dir,
        WAIT,
    );
    let game = records.games.values().nth(3).unwrap();
    let n = game.index + 1;
    for (url, name) in [
        (view.url.clone(), "viewer"),
        (
            format!("file://{}", dir.join("run.html").display()),
            "report",
        ),
    ] {
        b.goto(&url);
        click(b, &format!(".finished-game[data-game=\"{n}\"]"));
        click(b, "#last");
        let final_shown = b.wait_until("the game's last ply", WAIT, |b| {
            let a = b
                .attrs("#viewer .board", &["data-ply", "data-position"])
                .ok_or("no board")?;
            let ply: usize = a[0].as_deref().unwrap_or("").parse().map_err(|_| "ply")?;
            (ply + 1 == positions[&n].len())
                .then(|| a[1].clone().unwrap_or_default())
                .ok_or_else(|| format!("ply {ply}"))
        });
        assert_eq!(
            final_shown, game.final_position,
            "{name}: game {n}'s last ply"
        );
        b.screenshot(&screenshot_path(name));
        click(b, "#first");
        click(b, "#next");
        let second = b
            .attrs("#viewer .board", &["data-ply", "data-position"])
            .unwrap();
        assert_eq!(second[0].as_deref(), Some("1"), "{name}");
        assert_eq!(
            second[1].as_deref(),
            Some(positions[&n][1].as_str()),
            "{name}"
        );
    }
}

/// The crosstable a page shows (`css`: the element holding it) is the records' results: one
/// cell per ordered pair that played, its text the row engine's points/games and its title the
/// wins, draws and losses, each row's total their sum, rows by points.
fn crosstable_is_the_records(
    b: &Browser,
    css: &str,
    counts: &std::collections::BTreeMap<(String, String), [u64; 3]>,
    what: &str,
) {
    let v = b.execute(
        "return Array.from(document.querySelectorAll(arguments[0] + ' table.crosstable tr[data-engine]'), \
         tr => [tr.getAttribute('data-engine'), tr.querySelector('.total').textContent, \
                Array.from(tr.querySelectorAll('td.cell'), td => [td.getAttribute('data-row'), \
                  td.getAttribute('data-column'), td.textContent, td.getAttribute('title')])])",
        serde_json::json!([css]),
    );
    let rows = v.as_array().unwrap();
    let engines: std::collections::BTreeSet<&str> = counts.keys().map(|k| k.0.as_str()).collect();
    assert_eq!(rows.len(), engines.len(), "{what}: rows {v}");
    let mut cells = 0;
    let mut last_points = f64::INFINITY;
    for row in rows {
        let name = row[0].as_str().unwrap();
        let mut total = [0u64; 3];
        for cell in row[2].as_array().unwrap() {
            let (r, c) = (cell[0].as_str().unwrap(), cell[1].as_str().unwrap());
            assert_eq!(r, name, "{what}");
            let counted = counts
                .get(&(r.to_string(), c.to_string()))
                .unwrap_or_else(|| panic!("{what}: {r} and {c} never met: {v}"));
            assert_eq!(
                cell[2].as_str(),
                Some(cell_text(counted).as_str()),
                "{what}: {r} against {c}"
            );
            let title = format!("W-D-L {}-{}-{}", counted[0], counted[1], counted[2]);
            assert_eq!(
                cell[3].as_str(),
                Some(title.as_str()),
                "{what}: {r} against {c}"
            );
            for (t, n) in total.iter_mut().zip(counted) {
                *t += n;
            }
            cells += 1;
        }
        assert_eq!(
            row[1].as_str(),
            Some(cell_text(&total).as_str()),
            "{what}: {name}'s total"
        );
        let points = total[0] as f64 + total[1] as f64 / 2.0;
        assert!(points <= last_points, "{what}: rows by points: {v}");
        last_points = points;
    }
    assert_eq!(cells, counts.len(), "{what}: every pairing's cells");
}

/// The recorded score of each engine move of `g` as the graph must show it: (ply, side letter,
/// the record's score text, the score from South's side: centi-stones or `M<n>`).
fn recorded_points(g: &otau::arena::records::GameRecord) -> Vec<(usize, String, String, String)> {
    use otau::games::{Game, Side};
    let mut line = GameLine::new(AnyGame::from_position(&g.opening.start).unwrap());
    for t in &g.opening.moves {
        line.play_token(t).unwrap();
    }
    let mut out = Vec::new();
    for (i, m) in g.moves.iter().enumerate() {
        let side = line.position().side_to_move();
        line.play_token(&m.mv).unwrap();
        let Some(score) = &m.score else { continue };
        let sign = if side == Side::South { 1 } else { -1 };
        let mut words = score.split(' ');
        let kind = words.next().unwrap();
        let value: i64 = words.next().unwrap().parse().unwrap();
        let south = match kind {
            "mate" => format!("M{}", sign * value),
            _ => (sign * value).to_string(),
        };
        let letter = if side == Side::South { "s" } else { "n" };
        out.push((
            g.opening.moves.len() + i + 1,
            letter.to_string(),
            score.clone(),
            south,
        ));
    }
    out
}

/// The viewer's evaluation graph of game `g` (open in the viewer) has a point for each recorded
/// score, at its ply, from South's side, drawn where its score is (a point inside the range at
/// its height, one beyond it on the edge), and the end marked at the last ply with how the game
/// ended.
fn graph_is_the_records(b: &Browser, g: &otau::arena::records::GameRecord, what: &str) {
    let n = g.index + 1;
    let v = b.wait_until(&format!("{what}: game {n}'s graph"), WAIT, |b| {
        let v = b.execute(
            "var s = document.querySelector('#viewer[data-game=\"' + arguments[0] + '\"] svg.eval-graph'); \
             if (!s) return null; \
             var e = s.querySelector('.ending'); \
             return [[s.getAttribute('data-zero-y'), s.getAttribute('data-stone-px'), s.getAttribute('data-clip')], \
               [e.getAttribute('data-ply'), e.getAttribute('data-kind'), e.getAttribute('data-adjudicated')], \
               Array.from(s.querySelectorAll('.point'), p => [p.getAttribute('data-ply'), p.getAttribute('data-side'), \
                 p.getAttribute('data-score'), p.getAttribute('data-south'), p.getAttribute('data-y'), p.getAttribute('class')])]",
            serde_json::json!([n.to_string()]),
        );
        (!v.is_null()).then_some(v).ok_or_else(|| "no graph".to_string())
    });
    let num = |x: &serde_json::Value| x.as_str().unwrap().parse::<f64>().unwrap();
    let (zero, stone, clip) = (num(&v[0][0]), num(&v[0][1]), num(&v[0][2]));
    let plies = g.opening.moves.len() + g.moves.len();
    assert_eq!(
        v[1][0].as_str(),
        Some(plies.to_string().as_str()),
        "{what}: end at the last ply"
    );
    assert_eq!(v[1][1].as_str(), Some(g.termination.kind.name()), "{what}");
    let adjudicated =
        !matches!(g.termination.kind, TerminationKind::Rules) && !g.termination.kind.is_fault();
    assert_eq!(
        v[1][2].as_str(),
        Some(adjudicated.to_string().as_str()),
        "{what}"
    );
    let mut shown: Vec<(usize, String, String, String)> = v[2]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| {
            let s = |k: usize| p[k].as_str().unwrap().to_string();
            (s(0).parse().unwrap(), s(1), s(2), s(3))
        })
        .collect();
    // The points are drawn an engine at a time: in ply order, the records' order.
    shown.sort_by_key(|p| p.0);
    let expected = recorded_points(g);
    assert!(
        !expected.is_empty(),
        "{what}: game {n} has no recorded score"
    );
    assert_eq!(shown, expected, "{what}: game {n}'s points");
    for p in v[2].as_array().unwrap() {
        let class = p[5].as_str().unwrap();
        let y = num(&p[4]);
        let south = p[3].as_str().unwrap();
        if class.contains("exact") {
            let want = zero - south.parse::<f64>().unwrap() / 100.0 * stone;
            assert!(
                (y - want).abs() < 0.01,
                "{what}: {p} drawn at {y}, not {want}"
            );
        } else if class.contains("clipped") || class.contains("mate") {
            let up = !south.starts_with('-') && !south.starts_with("M-");
            let edge = if up {
                zero - clip * stone
            } else {
                zero + clip * stone
            };
            assert!(
                (y - edge).abs() < 0.01,
                "{what}: {p} not on the edge {edge}"
            );
        }
    }
}

/// Issue 29, item 5: a round robin of three engines whose scores are real (otau), bounds only
/// and mates (so that one game is adjudicated by `--resign`): the crosstable of the live page
/// at the run's end, of `view` and of the report equals the records; the viewer's graph of a
/// game with bounds and of an adjudicated one has the recorded scores as its points, in `view`
/// and in the report.
fn crosstable_and_graph(b: &Browser) {
    let dir = scratch("crosstable");
    let engine = |name: &str, mode: &str| {
        [
            "--engine".to_string(),
            format!("name={name}"),
            format!("cmd={ARENA}"),
            format!("args=fake-engine {mode}"),
        ]
    };
    let mut args: Vec<String> = vec![
        "--engine".into(),
        "name=otau".into(),
        "cmd=builtin:otau".into(),
    ];
    args.extend(engine("bounds", "bounds"));
    args.extend(engine("mated", "mated"));
    // 25 ms a move: the run lasts long enough for the page to load before it ends.
    args.extend(engine("slow", "slow"));
    for a in [
        "--each",
        "depth=2",
        "--rounds",
        "1",
        "--max-plies",
        "60",
        "--resign",
        "movecount=3",
        "score=1000",
        "--openings",
        "plies=2",
        "--seed",
        "3",
        "--out",
        "run.jsonl",
        "--report",
        "run.html",
        "--live",
        "127.0.0.1:0",
    ] {
        args.push(a.into());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut run = Served::start(ARENA, &args, &dir, WAIT);
    b.goto(&run.url);
    b.wait_until(
        "the run's end on the live page",
        Duration::from_secs(120),
        |b| {
            let p = b.text_of("#progress");
            p.contains("(run over)").then_some(()).ok_or(p)
        },
    );
    b.wait_until("the run's exit", WAIT, |_| {
        run.exited().ok_or_else(|| "running".to_string())
    });
    let records = otau::arena::records::RecordsFile::read(&dir.join("run.jsonl")).unwrap();
    assert_eq!(records.games.len(), 12);
    let counts = pairing_counts(&records);
    crosstable_is_the_records(b, "#crosstable", &counts, "live page");
    b.execute(
        "document.getElementById('crosstable').scrollIntoView();",
        serde_json::json!([]),
    );
    b.screenshot(&screenshot_path("crosstable-live-page-at-run-end"));

    let with_bounds = records
        .games
        .values()
        .find(|g| {
            g.moves
                .iter()
                .any(|m| m.score.as_deref().is_some_and(|s| s.ends_with("bound")))
                && g.moves.iter().any(|m| {
                    m.score
                        .as_deref()
                        .is_some_and(|s| s.starts_with("cp") && !s.ends_with("bound"))
                })
        })
        .expect("a game of otau against bounds");
    let resigned = records
        .games
        .values()
        .find(|g| {
            g.termination.kind == TerminationKind::Resign
                && g.moves
                    .iter()
                    .any(|m| m.score.as_deref().is_some_and(|s| s.starts_with("mate")))
        })
        .expect("a game the mated engine resigned");
    let view = Served::start(
        ARENA,
        &["view", "run.jsonl", "--addr", "127.0.0.1:0"],
        &dir,
        WAIT,
    );
    for (url, name) in [
        (view.url.clone(), "view"),
        (
            format!("file://{}", dir.join("run.html").display()),
            "report",
        ),
    ] {
        b.goto(&url);
        b.wait_until(&format!("{name}: the crosstable"), WAIT, |b| {
            b.find("#crosstable table.crosstable")
                .ok_or_else(|| "none".to_string())
        });
        crosstable_is_the_records(b, "#crosstable", &counts, name);
        if name == "report" {
            b.execute(
                "document.getElementById('crosstable').scrollIntoView();",
                serde_json::json!([]),
            );
            b.screenshot(&screenshot_path("crosstable-report"));
        }
        for (g, what) in [(with_bounds, "bounds"), (resigned, "resign")] {
            let n = g.index + 1;
            click(b, &format!(".finished-game[data-game=\"{n}\"]"));
            graph_is_the_records(b, g, &format!("{name}, {what}"));
            // The cursor follows the viewer's ply.
            click(b, "#first");
            let cursor = b
                .attrs("#viewer svg.eval-graph .cursor", &["data-ply"])
                .unwrap();
            assert_eq!(cursor[0].as_deref(), Some("0"), "{name}");
            click(b, "#last");
            b.execute(
                "document.getElementById('viewer').scrollIntoView();",
                serde_json::json!([]),
            );
            b.screenshot(&screenshot_path(&format!("graph-{name}-{what}")));
        }
    }
}

#[test]
fn pages_in_a_browser() {
    let Some(b) = Browser::start() else { return };
    play_page(&b);
    controls(&b);
    live_and_viewer(&b);
    crosstable_and_graph(&b);
    // chromedriver and every Chromium process end with the browser.
    let group = b.driver_pid();
    assert!(!browser_support::group_members(group).is_empty());
    drop(b);
    let left = browser_support::group_members(group);
    assert!(left.is_empty(), "left behind: {left:?}");
}
