//! The pages in a real browser: headless Chromium driven through chromedriver
//! (tests/browser_support; `.ci/run` installs both when missing, `OTAU_SKIP_BROWSER_TESTS=1`
//! skips locally). One browser for the whole file: a single test runs every page in turn.
//!
//! Screenshots of each page go to `target/browser-screenshots/`.

mod browser_support;

use std::time::Duration;

use browser_support::{get, screenshot_path, Browser, Served};
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

#[test]
fn pages_in_a_browser() {
    let Some(b) = Browser::start() else { return };
    play_page(&b);
    controls(&b);
}
