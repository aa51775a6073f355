//! `otau web`'s page: the board (the shared renderer, `assets/board.js`) with the person's legal
//! moves clickable, the controls, and the engine's analysis; served by the shared server.
//!
//! What a request can do is only what the page's buttons do to the one game ([`Command`]): no
//! request names a file, starts a process or chooses a program (the engines are the command
//! line's, chosen by their index). A POST must carry the page's token, a random value only the
//! page itself can read (another site's page cannot read a loopback page's text), so a page
//! elsewhere cannot play moves in the person's game by posting to the loopback address. Every
//! text from an engine reaches the page as JSON and is shown through `textContent`.

use std::io::Write;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context, Result};

use super::assets;
use super::play::{check_limits, Command, PlayGame, PlayWorker};
use super::server::{parse_addr, Reply, Server, Site};
use crate::arena::config::{split_args, EngineConfig, EngineSpec};
use crate::arena::engine::process::Guardian;
use crate::games::Variant;

/// The engine when `otau web` is given none: otau's own search, a second a move.
pub const DEFAULT_ENGINE: &str = "cmd=builtin:otau st=1";
/// The engines' start-up timeout (handshake, options, `isready`).
const STARTUP: Duration = Duration::from_secs(10);

/// `otau web`: serves the play page for `variant` against the engines of `engines` (each one
/// `--engine` value) on `addr`, prints its URL to `out`, and serves until the process ends.
pub fn run(
    variant: Variant,
    engines: &[String],
    addr: Option<&str>,
    out: &mut impl Write,
) -> Result<()> {
    let configs = engine_configs(engines)?;
    let addr = parse_addr(addr)
        .map_err(anyhow::Error::msg)
        .context("--addr")?;
    // A kill -9 of otau web then leaves no engine process behind either.
    let _guardian = configs
        .iter()
        .any(|e| e.builtin().is_none())
        .then(Guardian::start);
    let names: Vec<&str> = configs.iter().map(|e| e.name.as_str()).collect();
    let worker = PlayWorker::start(PlayGame::new(variant, configs.clone(), STARTUP));
    let server =
        PlaySite::serve(worker, addr).with_context(|| format!("cannot listen on {addr}"))?;
    if let Some(warning) = server.exposure() {
        writeln!(out, "otau web: --addr {warning}")?;
    }
    writeln!(
        out,
        "otau web: {variant} against {} at {}",
        names.join(", "),
        server.url()
    )?;
    out.flush()?;
    loop {
        std::thread::park();
    }
}

/// The engines of `--engine` values: each either the arena's `key=value ...` keys (`cmd=`, `args=`,
/// `name=`, `option.NAME=`, `st=`, `depth=`, `nodes=`; quotes group words) or a program and its
/// arguments; `st=1` when it gives no limit. None: [`DEFAULT_ENGINE`].
pub fn engine_configs(values: &[String]) -> Result<Vec<EngineConfig>> {
    let default = [DEFAULT_ENGINE.to_string()];
    let values = if values.is_empty() {
        &default[..]
    } else {
        values
    };
    let mut configs = Vec::new();
    for (i, v) in values.iter().enumerate() {
        let words = split_args(v).map_err(anyhow::Error::msg)?;
        let mut tokens: Vec<String> = if words.first().is_some_and(|w| w.contains('=')) {
            words
        } else {
            let Some((cmd, args)) = words.split_first() else {
                bail!("--engine {}: empty", i + 1);
            };
            let mut t = vec![format!("cmd={cmd}")];
            if !args.is_empty() {
                t.push(format!("args={}", quoted(args)));
            }
            t
        };
        let limited = tokens.iter().any(|t| {
            ["st=", "depth=", "nodes=", "tc="]
                .iter()
                .any(|k| t.starts_with(k))
        });
        if !limited {
            tokens.push("st=1".into());
        }
        let spec =
            EngineSpec::parse(&tokens).map_err(|e| anyhow::anyhow!("--engine {}: {e}", i + 1))?;
        let cfg = spec
            .build(&EngineSpec::default(), i)
            .map_err(|e| anyhow::anyhow!("--engine {}: {e}", i + 1))?;
        check_limits(&cfg).map_err(|e| anyhow::anyhow!("--engine {}: {e}", i + 1))?;
        configs.push(cfg);
    }
    Ok(configs)
}

/// Arguments joined back into one `args=` value that [`split_args`] splits the same way.
fn quoted(args: &[String]) -> String {
    args.iter()
        .map(|a| {
            if a.is_empty() || a.contains(char::is_whitespace) || a.contains(['"', '\'']) {
                if a.contains('"') {
                    format!("'{a}'")
                } else {
                    format!("\"{a}\"")
                }
            } else {
                a.clone()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// The page's script (the board comes from `assets/board.js`).
pub const PLAY_JS: &str = include_str!("assets/play.js");
pub const PLAY_JS_PATH: &str = "/play.js";

/// The play page's site: the page, its script, the state (JSON and an event stream), the PGN,
/// and the commands.
pub struct PlaySite {
    worker: PlayWorker,
    token: String,
}

impl PlaySite {
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

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn engine_values() {
        let c = engine_configs(&[]).unwrap();
        assert_eq!(
            (c[0].cmd.as_str(), c[0].limits.movetime_ms),
            ("builtin:otau", Some(1000))
        );
        let c = engine_configs(&[
            "./my engine --x 'a b'".into(),
            "name=L5 cmd=builtin:otau option.Level=5 depth=4".into(),
        ])
        .unwrap();
        assert_eq!(c[0].cmd, "./my");
        assert_eq!(c[0].args, ["engine", "--x", "a b"]);
        assert_eq!(c[0].limits.movetime_ms, Some(1000), "st=1 without a limit");
        assert_eq!((c[1].name.as_str(), c[1].limits.depth), ("L5", Some(4)));
        assert_eq!(c[1].limits.movetime_ms, None);
        assert_eq!(c[1].options, [("Level".to_string(), "5".to_string())]);
        let e = engine_configs(&["cmd=builtin:otau tc=10+0.1".into()]).unwrap_err();
        assert!(e.to_string().contains("tc= has no meaning"), "{e}");
        let e = engine_configs(&["cmd=builtin:otau bogus=1".into()]).unwrap_err();
        assert!(
            e.to_string()
                .contains("--engine 1: unknown engine key 'bogus'"),
            "{e}"
        );
    }
}
