//! The pages in a real browser: headless Chromium driven through chromedriver
//! (tests/support/browser.rs; `.ci/run` installs both when missing, `OTAU_SKIP_BROWSER_TESTS=1`
//! skips locally). One browser for the whole file: a single test runs every page in turn.
//!
//! Screenshots of each page go to `target/browser-screenshots/`, named by what they show.

use crate::support::browser;

use std::time::Duration;

use crate::support::arena::{arena, cell_text, fake_engines_then, pairing_counts, scratch, ARENA};
use crate::support::browser::{get, screenshot_path, Browser, Served};
use otau::arena::records::{GameRecord, TerminationKind};
use otau::games::{AnyGame, Game, GameLine, Side, Variant};

mod swiss_checks;
mod viewer_checks;
use viewer_checks::*;

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

/// What a board on the page says, read at one instant: its attributes, the owners of its
/// stores and rows, the side to move in words, the lap's words and the counts it draws.
#[derive(Debug)]
struct BoardSays {
    ply: usize,
    position: String,
    /// `data-lap` and `data-laps` of a lap's board.
    lap: Option<(usize, usize)>,
    /// The stores' `data-owner`, South's then North's.
    stores: [String; 2],
    /// The rows' owner lines, South's then North's.
    rows: [String; 2],
    to_move: String,
    lap_words: String,
    /// The counts drawn in the holes, South's row then North's, each from hole 1.
    holes: [Vec<u32>; 2],
}

fn board_says(b: &Browser, css: &str) -> Option<BoardSays> {
    let v = b.execute(
        "var e = document.querySelector(arguments[0]); if (!e) return null; \
         var q = function (s) { var x = e.querySelector(s); return x ? x.textContent : null; }; \
         var own = function (d) { var x = e.querySelector('g.store[data-side=' + d + ']'); \
                                  return x ? x.getAttribute('data-owner') : null; }; \
         var row = function (d) { return Array.from(e.querySelectorAll('g.hole[data-side=' + d + ']')) \
             .sort(function (a, b) { return a.getAttribute('data-hole') - b.getAttribute('data-hole'); }) \
             .map(function (h) { var t = h.querySelector('.count').textContent; return t === 'X' ? 0 : Number(t); }); }; \
         return [e.getAttribute('data-ply'), e.getAttribute('data-position'), \
                 e.getAttribute('data-lap'), e.getAttribute('data-laps'), own('s'), own('n'), \
                 q('text.owner[data-side=s]'), q('text.owner[data-side=n]'), \
                 q('.to-move-words'), q('.lap-words'), row('s'), row('n')];",
        serde_json::json!([css]),
    );
    let a = v.as_array()?;
    let text = |i: usize| a[i].as_str().unwrap_or_default().to_string();
    let row = |i: usize| -> Vec<u32> {
        a[i].as_array()
            .unwrap()
            .iter()
            .map(|x| x.as_u64().unwrap() as u32)
            .collect()
    };
    let lap = match (a[2].as_str(), a[3].as_str()) {
        (Some(k), Some(n)) => Some((k.parse().ok()?, n.parse().ok()?)),
        _ => None,
    };
    Some(BoardSays {
        ply: text(0).parse().ok()?,
        position: text(1),
        lap,
        stores: [text(4), text(5)],
        rows: [text(6), text(7)],
        to_move: text(8),
        lap_words: text(9),
        holes: [row(10), row(11)],
    })
}

/// A board says whose is what: its stores and rows name `south` and `north`, the side to move
/// of its position is said in words, and the counts it draws are its position's.
fn assert_labelled(seen: &BoardSays, south: &str, north: &str, at: &str) {
    assert_eq!(seen.stores, [south, north], "{at}: stores' owners");
    assert!(
        seen.rows[0].starts_with(&format!("South: {south} ")),
        "{at}: {:?}",
        seen.rows
    );
    assert!(
        seen.rows[1].starts_with(&format!("North: {north} ")),
        "{at}: {:?}",
        seen.rows
    );
    let pos = AnyGame::from_position(&seen.position).unwrap();
    let mover = match pos.side_to_move() {
        Side::South => format!("South ({south})"),
        Side::North => format!("North ({north})"),
    };
    let n = pos.holes();
    let ring = &pos.state().ring;
    let drawn: Vec<u32> = seen.holes.concat();
    let held: Vec<u32> = ring[..2 * n].iter().map(|&x| u32::from(x)).collect();
    // Toguz Kumalak draws a tuzdik as X (read as 0); it holds no stones.
    assert_eq!(drawn, held, "{at}: the counts drawn are the position's");
    if seen.lap.is_none() {
        assert_eq!(seen.to_move, format!("{mover} to move"), "{at}");
        let words = if pos.side_to_move() == Side::South {
            0
        } else {
            1
        };
        assert!(
            seen.rows[words].ends_with("to move"),
            "{at}: {:?}",
            seen.rows
        );
    } else {
        assert!(
            seen.lap_words.starts_with(&format!("{mover} sowing, lap ")),
            "{at}: {}",
            seen.lap_words
        );
    }
}

/// The boards of the laps of `token` played from `before`, as the rules core computes them.
fn rules_laps(before: &str, token: &str) -> Vec<String> {
    let AnyGame::Giuthi(g) = AnyGame::from_position(before).unwrap() else {
        panic!("{before}: not Giuthi");
    };
    let mv = g.parse_move(token).unwrap();
    g.relay_lap_positions(mv)
        .iter()
        .map(|p| p.to_string())
        .collect()
}

/// Steps the board at `board_css` through the laps of the move that led to it with the buttons
/// `next_css` (and `prev_css` once), checking each lap's board against the rules core's
/// `laps`; a screenshot of lap 2 (or 1) as `shot`; ends back on the move's board, `after`.
#[allow(clippy::too_many_arguments)]
fn step_laps(
    b: &Browser,
    board_css: &str,
    next_css: &str,
    prev_css: &str,
    laps: &[String],
    token: &str,
    names: (&str, &str),
    after: &str,
    shot: &str,
) {
    let n = laps.len();
    assert!(n >= 2, "a relay of {n} laps");
    for k in 1..=n {
        click(b, next_css);
        let seen = b.wait_until(&format!("lap {k} of {n}"), WAIT, |b| {
            let s = board_says(b, board_css).ok_or("no board")?;
            if s.lap.map(|l| l.0) == Some(k) {
                Ok(s)
            } else {
                Err(format!("{:?}", s.lap))
            }
        });
        assert_eq!(seen.lap, Some((k, n)));
        assert_eq!(seen.position, laps[k - 1], "lap {k} of {n} of {token}");
        assert_labelled(&seen, names.0, names.1, &format!("lap {k} of {token}"));
        // Each lap turns round: the move's own direction first.
        let first_anti = token.ends_with('a');
        let anti = (k % 2 == 1) == first_anti;
        let dir = if anti { "anticlockwise" } else { "clockwise" };
        assert!(
            seen.lap_words
                .ends_with(&format!("lap {k} of {n} of {token}, sown {dir}")),
            "{}",
            seen.lap_words
        );
        if k == 2.min(n) {
            b.screenshot(&screenshot_path(shot));
        }
    }
    // After the last lap, the board the move left (captures made); back one is the last lap.
    click(b, next_css);
    let back = b.wait_until("the move's board after its laps", WAIT, |b| {
        let s = board_says(b, board_css).ok_or("no board")?;
        s.lap
            .is_none()
            .then_some(s)
            .ok_or_else(|| "a lap".to_string())
    });
    assert_eq!(back.position, after);
    click(b, prev_css);
    let last = b.wait_until("the last lap again", WAIT, |b| {
        let s = board_says(b, board_css).ok_or("no board")?;
        if s.lap == Some((n, n)) {
            Ok(s)
        } else {
            Err(format!("{:?}", s.lap))
        }
    });
    assert_eq!(last.position, laps[n - 1]);
    click(b, next_css);
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
    // The person's row and store are "you", the engine's carry its name.
    let seen = board_says(b, ".board").unwrap();
    assert_eq!(seen.position, position.1);
    assert_labelled(&seen, "you", "otau", &variant.id());
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

/// Giuthi in `otau web`: the engine's relay answer is stepped lap by lap, each lap's board the
/// rules core's, and the board says who owns what and which way anticlockwise runs.
fn play_giuthi_laps(b: &Browser) {
    let served = otau_web("giuthi", &[]);
    b.goto(&served.url);
    board_at(b, 0);
    assert!(b.find(".board g.direction").is_some(), "Giuthi's arrows");
    assert!(b.text_of(".board-legend").contains("anticlockwise (a)"));
    click(b, ".board g.hole.legal[data-hole=\"3\"]");
    click(b, "#direction [data-move=\"3c\"]");
    let (ply, shown) = b.wait_until("the engine's answer", WAIT, |b| match board(b) {
        Some((ply, position, _, status)) if ply >= 2 && status.starts_with("Your move") => {
            Ok((ply, position))
        }
        seen => Err(format!("{seen:?}")),
    });
    let moves = state_moves(&served);
    assert_eq!(moves.len(), ply, "{moves:?}");
    let before = after(Variant::GIUTHI, &moves[..ply - 1]);
    let laps = rules_laps(&before, &moves[ply - 1]);
    assert!(
        b.text_of("#lap-where").contains("laps"),
        "the relay is offered"
    );
    step_laps(
        b,
        ".board",
        "#lap-next",
        "#lap-prev",
        &laps,
        &moves[ply - 1],
        ("you", "otau"),
        &shown,
        &format!("play-giuthi-engine-relay-lap-2-of-{}", laps.len()),
    );
    // Back on the move's board the person can move again.
    assert!(b.find(".board g.hole.legal").is_some());
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
    // The analysis of the person's position (North's, after Flip) is in stones from South's
    // view, as every score on the page: the engine's own score turned round.
    let (_, state) = get(&served.at("state"));
    let state: serde_json::Value = serde_json::from_str(&state).unwrap();
    let own = state["analysis"]["score"].as_str().unwrap();
    let south = otau::web::game::score_view(own, Side::North).unwrap();
    assert!(
        text.contains(&format!("score {}", south.text)),
        "{text} (engine's own {own})"
    );
    assert!(b.text_of("#score-note").contains("from South's view"));
    let listed = b.text_of("#moves li");
    assert!(listed.starts_with("South (otau): hole "), "{listed}");
    b.screenshot(&screenshot_path("play-analysis-south-view"));
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
        "--pgn",
        "run.pgn",
        "--live",
        "127.0.0.1:0",
    ] {
        args.push(a.into());
    }
    let args: Vec<&str> = args.iter().map(String::as_str).collect();
    let mut run = Served::start(ARENA, &args, &dir, WAIT);
    b.goto(&run.url);
    let mut samples = Vec::new();
    let mut listed = std::collections::BTreeMap::new();
    let mut shot = false;
    while run.exited().is_none() && samples.len() < 400 {
        let boards = live_boards(b);
        if !boards.is_empty() && !shot {
            // A live board names its engines on its stores and rows and says who is to move.
            if let Some(seen) = board_says(b, "#playing .board[data-game]") {
                assert_labelled(&seen, "south", "north", "live board");
                b.screenshot(&screenshot_path("live-labelled-boards"));
                shot = true;
            }
        }
        for info in b.execute(
            "return Array.from(document.querySelectorAll('#playing .info'), e => e.textContent)",
            serde_json::json!([]),
        )
        .as_array()
        .unwrap()
        {
            let info = info.as_str().unwrap();
            assert!(
                !info.contains("score") || info.contains(" stones ("),
                "{info}"
            );
        }
        listed.extend(finished_rows(b, "#finished"));
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
    // The live page's finished games carry the records' numbers and ply counts.
    assert!(
        !listed.is_empty(),
        "no finished game listed while the run went on"
    );
    for (n, row) in &listed {
        assert_eq!(
            row,
            &numbers(&records.games[&(n - 1)]),
            "live page, game {n}"
        );
    }
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
    // The PGN's Round and PlyCount are the same numbers.
    let pgn = std::fs::read_to_string(dir.join("run.pgn")).unwrap();
    for g in records.games.values() {
        let round = format!("[Round \"{}.{}\"]", g.round + 1, g.index + 1);
        let at = pgn
            .find(&round)
            .unwrap_or_else(|| panic!("{round} in the PGN"));
        let plies = format!("[PlyCount \"{}\"]", numbers(g)[5]);
        let next = pgn[at + 1..]
            .find("[Round")
            .map_or(pgn.len(), |i| at + 1 + i);
        assert!(pgn[at..next].contains(&plies), "{round}: {plies}");
    }
    for (url, name) in [
        (view.url.clone(), "viewer"),
        (
            format!("file://{}", dir.join("run.html").display()),
            "report",
        ),
    ] {
        b.goto(&url);
        // Every place a game is listed gives the records' number and ply count.
        let rows = b.wait_until("the finished games listed", WAIT, |b| {
            let rows = finished_rows(b, "");
            (rows.len() == 8)
                .then_some(rows)
                .ok_or_else(|| "fewer rows".to_string())
        });
        for (m, row) in &rows {
            assert_eq!(row, &numbers(&records.games[&(m - 1)]), "{name}, game {m}");
        }
        if name == "report" {
            for g in records.games.values() {
                let cells = b.execute(
                    "return Array.from(document.querySelectorAll('tr[data-game=\"' + arguments[0] + \
                     '\"]:not(.finished-game) td'), e => e.textContent)",
                    serde_json::json!([g.index + 1]),
                );
                let numbers = numbers(g);
                assert_eq!(cells[0].as_str(), Some(numbers[0].as_str()), "report table");
                assert_eq!(cells[7].as_str(), Some(numbers[5].as_str()), "report table");
            }
        }
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
        let plies = numbers(game)[5].clone();
        assert!(
            b.text_of("#viewer .where")
                .starts_with(&format!(" ply {plies} of {plies}")),
            "{name}: {}",
            b.text_of("#viewer .where")
        );
        assert!(b.text_of("#viewer h2").starts_with(&format!(
            "Game {n}: {} (South) vs {} (North)",
            game.south, game.north
        )));
        let seen = board_says(b, "#viewer .board").unwrap();
        assert_labelled(&seen, &game.south, &game.north, name);
        // The move in words, its score in stones from South's view; no raw PGN comment.
        let caption = b.text_of("#viewer .comment");
        let last = game.moves.last().unwrap();
        let before = &positions[&n][positions[&n].len() - 2];
        let mover = AnyGame::from_position(before).unwrap().side_to_move();
        assert!(
            caption.starts_with(&format!("ply {plies}, ")) && !caption.contains('{'),
            "{caption}"
        );
        if let Some(score) = &last.score {
            let south = otau::web::game::score_view(score, mover).unwrap();
            assert!(
                caption.contains(&south.text),
                "{caption} / {mover:?}'s {score}"
            );
        }
        b.screenshot(&screenshot_path(&format!(
            "{name}-game-{n}-last-ply-labelled"
        )));
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

/// The game number and ply count of a recorded game as every page gives them: the list's
/// cells (game, South, North, result, ending, plies), here the first and last that matter.

#[test]
fn pages_in_a_browser() {
    let Some(b) = Browser::start() else { return };
    play_page(&b);
    play_giuthi_laps(&b);
    controls(&b);
    live_and_viewer(&b);
    giuthi_viewer_laps(&b);
    crosstable_and_graph(&b);
    swiss_checks::swiss_standings(&b);
    // chromedriver and every Chromium process end with the browser.
    let group = b.driver_pid();
    assert!(!browser::group_members(group).is_empty());
    drop(b);
    let left = browser::group_members(group);
    assert!(left.is_empty(), "left behind: {left:?}");
}
