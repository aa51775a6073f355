//! `otau web`'s page: the board (the shared renderer, `assets/board.js`) with the person's legal
//! moves clickable, the controls, and the engine's analysis; served by the shared server.
//!
//! What a request can do is only what the page's buttons do to the one game ([`Command`]): no
//! request names a file, starts a process or chooses a program (the engines are the command
//! line's, chosen by their index). A POST must carry the page's token, a random value only the
//! page itself can read (another site's page cannot read a loopback page's text), so a page
//! elsewhere cannot play moves in the person's game by posting to the loopback address. Every
//! text from an engine reaches the page as JSON and is shown through `textContent`.

use std::net::SocketAddr;
use std::sync::Arc;

use super::assets;
use super::play::{Command, PlayWorker};
use super::server::{Reply, Server, Site};

/// The page's script (the board comes from `assets/board.js`).
pub const PLAY_JS: &str = include_str!("assets/play.js");
/// The path [`PLAY_JS`] is served at.
pub const PLAY_JS_PATH: &str = "/play.js";

/// The play page's site: the page, its script, the state (JSON and an event stream), the PGN,
/// and the commands.
pub struct PlaySite {
    worker: PlayWorker,
    token: String,
}

impl PlaySite {
    /// The site of the game `worker` runs, with a fresh random token for its commands.
    pub fn new(worker: PlayWorker) -> PlaySite {
        let token = format!(
            "{:016x}{:016x}",
            rand::random::<u64>(),
            rand::random::<u64>()
        );
        PlaySite { worker, token }
    }

    /// Starts the server for `worker` on `addr`.
    pub fn serve(worker: PlayWorker, addr: SocketAddr) -> std::io::Result<Server> {
        Server::start(addr, Arc::new(PlaySite::new(worker)))
    }

    fn page(&self) -> String {
        PAGE.replace("{TOKEN}", &self.token)
    }

    /// The command a POST asks for: `{"token": ..., "command": ..., "value": ...}`.
    fn command(&self, path: &str, body: &[u8]) -> Result<Command, String> {
        let v: serde_json::Value =
            serde_json::from_slice(body).map_err(|e| format!("the body is no JSON: {e}"))?;
        if v["token"].as_str() != Some(self.token.as_str()) {
            return Err("the page's token is missing or wrong: reload the page".into());
        }
        let value = &v["value"];
        Ok(match path {
            "/move" => Command::Move(
                value
                    .as_str()
                    .filter(|t| t.len() <= 16)
                    .ok_or("a move is a token of at most 16 characters")?
                    .to_string(),
            ),
            "/undo" => Command::Undo,
            "/new-game" => Command::NewGame,
            "/flip" => Command::Flip,
            "/analysis" => Command::Analysis(value.as_bool().ok_or("analysis: true or false")?),
            "/engine" => Command::Engine(
                value
                    .as_u64()
                    .ok_or("engine: the index of an engine of the command line")?
                    as usize,
            ),
            _ => return Err(format!("no command {path}")),
        })
    }
}

impl Site for PlaySite {
    fn get(&self, path: &str, _query: &str) -> Reply {
        if let Some(asset) = assets::asset(path) {
            return asset;
        }
        match path {
            "/" => Reply::html(self.page()),
            PLAY_JS_PATH => Reply::js(PLAY_JS),
            "/state" => Reply::json(self.worker.state().1.to_string()),
            "/events" => Reply::Events(self.worker.states()),
            "/game.pgn" => Reply::Body {
                content_type: "application/x-chess-pgn; charset=utf-8",
                body: self.worker.pgn().into(),
            },
            _ => Reply::NotFound,
        }
    }

    fn post(&self, path: &str, body: &[u8]) -> Reply {
        match self.command(path, body) {
            Ok(c) => match self.worker.send(c) {
                Ok(()) => Reply::json("{\"ok\":true}".into()),
                Err(_) => Reply::BadRequest("busy: the engine is still answering".into()),
            },
            Err(why) => Reply::BadRequest(why),
        }
    }
}

/// The page: no inline script (the server's Content-Security-Policy runs only its own files).
const PAGE: &str = r#"<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>otau web</title>
<link rel="stylesheet" href="/style.css">
</head>
<body id="play-page" data-token="{TOKEN}">
<h1>otau web</h1>
<div id="play">
  <div id="board-area"></div>
  <div class="laps" id="laps" hidden>
    <button id="lap-prev">lap &lt;</button>
    <button id="lap-next">lap &gt;</button>
    <span id="lap-where"></span>
  </div>
  <div id="direction" hidden>Sow from hole <span id="direction-hole"></span>:
    <button id="dir-a" data-move="">anticlockwise (a): up your hole numbers</button>
    <button id="dir-c" data-move="">clockwise (c): down your hole numbers</button>
    <button id="dir-cancel">cancel</button>
  </div>
  <div class="controls">
    <button id="pass" data-move="pass" hidden>Pass</button>
    <button id="undo">Undo</button>
    <button id="new-game">New game</button>
    <button id="flip">Flip</button>
    <button id="analysis">Analysis: off</button>
    <button id="pgn">PGN</button>
    <label>Engine <select id="engine"></select></label>
  </div>
  <p id="status"></p>
  <p id="notice"></p>
  <pre id="analysis-box" hidden></pre>
  <p class="score-note" id="score-note"></p>
  <ol id="moves"></ol>
</div>
<script src="/board.js"></script>
<script src="/play.js"></script>
</body>
</html>
"#;
