//! The pages that watch a run: `otau-arena --live` (the run's live state, pushed as it changes)
//! and `otau-arena view run.jsonl` (a finished or interrupted run, from its records). Both serve
//! the same page (`assets/live.html`), whose script reads the state from `/events` and a finished
//! game, for the viewer, from `/game?n=N`.
//!
//! Read-only: no request starts a process, names a file or changes the run. The paths are
//! fixed; the only value read from a request is a game's number.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use anyhow::Result;
use serde_json::{json, Value};

use super::assets;
use super::game::{add_laps, game_summary, game_view, score_view, side_letter};
use super::server::{query_values, EventSource, Latest, Reply, Site};
use crate::arena::matchmaking::tournament::{new_standings, pairing};
use crate::arena::output::live::{LiveGame, LiveInfo, LiveProgress, LiveState, Watch};
use crate::arena::records::{GameRecord, RecordsFile};
use crate::games::{AnyGame, Game, Side};
use crate::sync::lock;

/// The page, its script and the viewer's, served at these paths (besides the shared assets).
pub const LIVE_HTML: &str = include_str!("assets/live.html");
/// The live page's script, served at `/live.js`.
pub const LIVE_JS: &str = include_str!("assets/live.js");
/// The game viewer's script, served at `/viewer.js` and inlined in the HTML report.
pub const VIEWER_JS: &str = include_str!("assets/viewer.js");

/// Where the games the page shows come from.
enum Games {
    /// A run going on: the finished games it keeps (`arena::output::live::KEPT_FINISHED`).
    Live(Arc<Watch>),
    /// A records file, read once.
    Recorded(BTreeMap<u64, GameRecord>),
}

/// The site of `--live` and `view`.
pub struct RunSite {
    events: Arc<dyn EventSource>,
    games: Games,
}

impl RunSite {
    /// The live page of a run writing into `watch`.
    pub fn live(watch: Arc<Watch>) -> RunSite {
        RunSite {
            events: Arc::new(LiveEvents {
                watch: watch.clone(),
                cache: Mutex::new((0, Arc::from(""))),
                finished: Mutex::new((0, Arc::from(""))),
            }),
            games: Games::Live(watch),
        }
    }

    /// The page of the run recorded in `path` (finished or interrupted): every recorded game,
    /// the standings of them all.
    pub fn recorded(path: &Path) -> Result<RunSite> {
        let file = RecordsFile::read(path)?;
        let mut standings = new_standings(&file.header.config);
        let mut finished = std::collections::VecDeque::new();
        for index in &file.order {
            let g = &file.games[index];
            standings.add(g);
            finished.push_back(Arc::new(g.clone()));
        }
        let mut state = LiveState {
            generation: 1,
            title: path.display().to_string(),
            finished,
            progress: LiveProgress {
                done: standings.len(),
                total: file.header.scheduled,
                rate: None,
                eta: None,
            },
            headline: standings.headline(),
            ended: true,
            ..LiveState::default()
        };
        state.set_summary(&standings.summary());
        let pairing = pairing(&file.header.config, file.header.shard, &standings)?;
        state.pairing = pairing
            .summary_json()
            .map(|(key, value)| (key, Arc::from(value.to_string())));
        let latest = Latest::new();
        latest.publish(state_json(&state));
        Ok(RunSite {
            events: Arc::new(latest),
            games: Games::Recorded(file.games),
        })
    }

    fn game(&self, number: u64) -> Option<Value> {
        let index = number.checked_sub(1)?;
        match &self.games {
            Games::Live(watch) => watch.finished_game(index).map(|g| game_view(&g)),
            Games::Recorded(games) => games.get(&index).map(game_view),
        }
    }
}

impl Site for RunSite {
    fn get(&self, path: &str, query: &str) -> Reply {
        match path {
            "/" | "/index.html" => Reply::html(LIVE_HTML),
            "/live.js" => Reply::js(LIVE_JS),
            "/viewer.js" => Reply::js(VIEWER_JS),
            "/events" => Reply::Events(self.events.clone()),
            "/game" => {
                let number = |v: &str| v.parse::<u64>().map_err(|_| "a game's number".into());
                let n = match query_values(query).parsed("n", number) {
                    Ok(Some(n)) => n,
                    Ok(None) => {
                        return Reply::BadRequest("give the game's number: /game?n=N".into())
                    }
                    Err(e) => return Reply::BadRequest(format!("{e}: /game?n=N")),
                };
                match self.game(n) {
                    Some(view) => Reply::json(view.to_string()),
                    None => Reply::NotFound,
                }
            }
            _ => assets::asset(path).unwrap_or(Reply::NotFound),
        }
    }
}

/// The live state as events: one JSON text a generation, made once whichever viewer asks first,
/// and the finished games' list made again only when a game finishes.
struct LiveEvents {
    watch: Arc<Watch>,
    cache: Mutex<(u64, Arc<str>)>,
    finished: Mutex<(u64, Arc<str>)>,
}

impl EventSource for LiveEvents {
    fn next_after(&self, seen: u64, wait: Duration) -> Option<(u64, Arc<str>)> {
        {
            // The text another stream made is reused only while it is the newest state: a
            // stream's last write (a closing server's) must be the run's end, not a state
            // another viewer's stream cached before it.
            let cache = lock(&self.cache);
            if cache.0 > seen && cache.0 >= self.watch.generation() {
                return Some(cache.clone());
            }
        }
        let state = self.watch.newer_than(seen, wait)?;
        let finished = {
            let mut f = lock(&self.finished);
            if f.0 != state.finished_count || f.1.is_empty() {
                *f = (state.finished_count, finished_json(&state).into());
            }
            f.1.clone()
        };
        let mut cache = lock(&self.cache);
        if cache.0 < state.generation {
            *cache = (state.generation, state_text(&state, &finished).into());
        }
        Some(cache.clone())
    }

    fn newest(&self) -> u64 {
        self.watch.generation()
    }
}

/// The state as the page reads it (`protocol/arena.md`, "Watching a run").
pub fn state_json(s: &LiveState) -> String {
    state_text(s, &finished_json(s))
}

/// The finished games' list of the state, as JSON.
fn finished_json(s: &LiveState) -> String {
    let finished: Vec<Value> = s.finished.iter().map(|g| game_summary(g)).collect();
    Value::from(finished).to_string()
}

/// The state with its finished games' list `finished` (JSON) put in as it is.
fn state_text(s: &LiveState, finished: &str) -> String {
    let playing: Vec<Value> = s.playing.values().map(live_game_json).collect();
    let rest = json!({
        "generation": s.generation,
        "title": s.title,
        "ended": s.ended,
        "progress": {
            "done": s.progress.done,
            "total": s.progress.total,
            "rate": s.progress.rate,
            "eta": s.progress.eta,
        },
        "headline": s.headline,
        "playing": playing,
    });
    // The summary is shared, not copied, between states: written into the text as it is.
    let mut text = rest.to_string();
    text.pop(); // the closing brace
    text.push_str(",\"summary\":");
    text.push_str(s.summary.as_deref().unwrap_or("null"));
    text.push_str(",\"summary_text\":");
    text.push_str(&Value::from(&*s.summary_text).to_string());
    // The pairing's part (a Swiss's standings) under its key, as the summary event has it.
    if let Some((key, part)) = &s.pairing {
        text.push_str(&format!(",\"{key}\":"));
        text.push_str(part);
    }
    text.push_str(",\"finished\":");
    text.push_str(finished);
    text.push('}');
    text
}

fn live_game_json(g: &LiveGame) -> Value {
    let mut v = json!({
        "game": g.index + 1,
        "id": g.game,
        "south": g.south,
        "north": g.north,
        "position": g.position,
        "ply": g.ply,
        "last": g.last.as_ref().map(|(side, mv)| json!({"side": side_letter(*side), "move": mv})),
        "clocks": g.clocks,
        "info": [info_json(&g.info[0], Side::South), info_json(&g.info[1], Side::North)],
    });
    // The laps of a Giuthi relay that led here, replayed from the position before it (which
    // the arena keeps for this).
    let before = g
        .before
        .as_deref()
        .and_then(|b| AnyGame::from_position(b).ok());
    if let (Some(before), Some((_, token))) = (before, &g.last) {
        if let Ok(mv) = before.parse_move(token) {
            add_laps(&mut v["last"], &before, mv);
        }
    }
    v
}

/// An engine's latest figures; `score` as it sent it, `score_view` in stones from South's view
/// (`game::score_view`), the view every page shows.
fn info_json(i: &LiveInfo, side: Side) -> Value {
    json!({
        "depth": i.depth,
        "score": i.score,
        "score_view": i.score.as_deref().and_then(|s| score_view(s, side)),
        "nodes": i.nodes,
        "nps": i.nps,
        "pv": i.pv,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Variant;

    /// A Giuthi game in progress whose last move was a relay: the state gives its laps (the
    /// rules core's boards) and both engines' scores from South's view.
    #[test]
    fn a_live_relay_comes_with_its_laps_and_scores_read_from_south() {
        let start = AnyGame::start(Variant::GIUTHI);
        let mut after = start.clone();
        let mv = start.parse_move("3c").unwrap();
        after.play(mv);
        let mut g = LiveGame {
            index: 4,
            game: "giuthi".into(),
            south: "A".into(),
            north: "B".into(),
            position: after.to_string(),
            ply: 1,
            last: Some((Side::South, "3c".into())),
            before: Some(start.to_string()),
            clocks: [None, None],
            info: Default::default(),
        };
        g.info[0].score = Some("cp 150".into());
        g.info[1].score = Some("cp 150".into());
        let v = live_game_json(&g);
        let AnyGame::Giuthi(rules) = &start else {
            unreachable!()
        };
        let laps: Vec<String> = rules
            .relay_lap_positions(mv)
            .iter()
            .map(|p| p.to_string())
            .collect();
        assert!(laps.len() >= 2, "3c from the start relays");
        assert_eq!(v["last"]["laps"], json!(laps));
        assert!(v["last"].get("laps_total").is_none(), "not cut");
        assert_eq!(v["info"][0]["score_view"]["cp"], 150);
        assert_eq!(v["info"][1]["score_view"]["cp"], -150);
        assert_eq!(
            v["info"][1]["score"], "cp 150",
            "the engine's own text kept"
        );
        // No position before (a game at its start) or another game: no laps.
        g.before = None;
        assert!(live_game_json(&g)["last"].get("laps").is_none());
    }
}
