//! What a run shows while it goes on (`otau-arena --live`): the one state the arena writes into
//! and the live page reads, so the arena never waits on a viewer.
//!
//! The workers write each game's board after every move and each engine's latest `info` figures
//! as they come; the recording thread writes every finished game, the progress, and (at most
//! once per [`SUMMARY_EVERY`], and at the end) the run's summary. Each write is a short lock and a
//! generation bump; the page's server (`crate::web`) takes a copy of the state when a viewer is
//! ready for one and turns it into JSON outside the lock.

use std::collections::{BTreeMap, VecDeque};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::arena::game::clock::SideClock;
use crate::arena::records::GameRecord;
use crate::games::{AnyGame, Game, Side};
use crate::stats::Summary;
use crate::sync::lock;
use crate::ugi::wire::{InfoField, InfoKey, InfoLine, ScoreBound};

/// Finished games kept for the page (the newest; the records file has them all).
pub const KEPT_FINISHED: usize = 200;
/// The summary (ratings, SPRT) is computed again at most this often while games finish...
pub(crate) const SUMMARY_EVERY: Duration = Duration::from_secs(1);
/// ... and not before this many times the time the last one took has passed (its share of the
/// recording thread stays under 2%).
pub(crate) const SUMMARY_COST: u32 = 50;
/// How often a waiting viewer looks for a newer state.
pub(crate) const POLL: Duration = Duration::from_millis(20);
/// Bytes of a principal variation kept (an engine's line is shown, not stored whole).
pub(crate) const MAX_PV_BYTES: usize = 200;

/// An engine's latest search figures in the game it is playing, from its `info` lines.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LiveInfo {
    /// The latest `info depth`.
    pub depth: Option<i64>,
    /// `cp 35` or `mate -4`, from the mover's view.
    pub score: Option<String>,
    /// The latest `info nodes`.
    pub nodes: Option<i64>,
    /// The latest `info nps`.
    pub nps: Option<i64>,
    /// The principal variation, protocol tokens separated by spaces (cut to [`MAX_PV_BYTES`]).
    pub pv: String,
}

impl LiveInfo {
    /// Folds in one `info` line: each figure it gives replaces the one before.
    pub fn absorb(&mut self, info: &InfoLine) {
        for field in &info.fields {
            match field {
                InfoField::Number(InfoKey::Depth, Ok(v)) => self.depth = Some(*v),
                InfoField::Number(InfoKey::Nodes, Ok(v)) => self.nodes = Some(*v),
                InfoField::Number(InfoKey::Nps, Ok(v)) => self.nps = Some(*v),
                InfoField::Score {
                    kind: Ok(k),
                    value: Ok(v),
                    bounds,
                } => match ScoreBound::of(bounds) {
                    Ok(None) => self.score = Some(format!("{k} {v}")),
                    Ok(Some(b)) => self.score = Some(format!("{k} {v} {b}")),
                    Err(_) => {}
                },
                InfoField::Pv(moves) => {
                    self.pv.clear();
                    if moves.len() <= MAX_PV_BYTES {
                        self.pv.push_str(moves);
                    } else {
                        self.pv.push_str(crate::arena::engine::client::pv_prefix(
                            moves,
                            MAX_PV_BYTES - 4,
                        ));
                        self.pv.push_str(" ...");
                    }
                }
                _ => {}
            }
        }
    }
}

/// A game in progress as the page shows it.
#[derive(Clone, Debug)]
pub struct LiveGame {
    /// The game's index in the run (its number is one more).
    pub index: u64,
    /// The otau game id.
    pub game: String,
    /// The engine playing South.
    pub south: String,
    /// The engine playing North.
    pub north: String,
    /// The position now, as the records write positions.
    pub position: String,
    /// Plies from the game's start position (opening moves included).
    pub ply: usize,
    /// The move that led here: its mover and protocol token.
    pub last: Option<(Side, String)>,
    /// The position before that move (for the pages to show a Giuthi relay lap by lap).
    pub before: Option<String>,
    /// Each side's clock (ms left) when the game is timed.
    pub clocks: [Option<u64>; 2],
    /// Each side's latest search figures.
    pub info: [LiveInfo; 2],
}

/// Where the run stands: games done of the slice, rate and ETA (this session's, as the live
/// line shows them: `crate::arena::output::progress`).
#[derive(Clone, Debug, Default, PartialEq)]
pub struct LiveProgress {
    /// Games done of the slice (this run or shard), earlier sessions included.
    pub done: u64,
    /// Games in the slice.
    pub total: u64,
    /// Games a second, once a game of this session finished.
    pub rate: Option<f64>,
    /// `m:ss` or `h:mm:ss` left at that rate.
    pub eta: Option<String>,
}

/// Everything the page shows, as of generation `generation`.
#[derive(Clone, Debug, Default)]
pub struct LiveState {
    /// Bumped on every change: a viewer asks for a state newer than the one it has.
    pub generation: u64,
    /// The run's title (its records file).
    pub title: String,
    /// The games being played, by index.
    pub playing: BTreeMap<u64, LiveGame>,
    /// The newest finished games, oldest first (at most [`KEPT_FINISHED`]).
    pub finished: VecDeque<Arc<GameRecord>>,
    /// Games finished since the page started (the list changes when this does).
    pub finished_count: u64,
    /// Where the run stands.
    pub progress: LiveProgress,
    /// The first pairing's score, Elo and LLR in one line (`results::Standings::headline`).
    pub headline: String,
    /// The run's summary (`stats::Summary` as JSON text, as the records' summary event: made
    /// once, shared by every state) and its text (as the run prints it at the end).
    pub summary: Option<Arc<str>>,
    /// The summary as the run prints it at the end (in the `--output` format).
    pub summary_text: Arc<str>,
    /// The pairing's part of the summary as JSON text, with its key (a Swiss's `swiss`
    /// standings and crosstable: `Pairing::summary_json`), as its last result left it.
    pub pairing: Option<(&'static str, Arc<str>)>,
    /// The run is over (the page stops expecting moves).
    pub ended: bool,
}

impl LiveState {
    /// Keeps the run's summary, as JSON once for every viewer, and its text.
    pub fn set_summary(&mut self, summary: &Summary) {
        self.summary = Some(summary_json(summary));
        self.summary_text = summary.text().into();
    }
}

/// The summary as JSON text.
fn summary_json(summary: &Summary) -> Arc<str> {
    serde_json::to_string(summary)
        .unwrap_or_else(|_| "null".into())
        .into()
}

/// The shared live state of one run.
#[derive(Default)]
pub struct Watch {
    state: Mutex<LiveState>,
    /// When the summary is due again (the recording thread's own bound).
    next_summary: Mutex<Option<Instant>>,
}

impl std::fmt::Debug for Watch {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("Watch")
    }
}

impl Watch {
    /// An empty state for the run titled `title`.
    pub fn new(title: &str) -> Watch {
        let w = Watch::default();
        lock(&w.state).title = title.to_string();
        w
    }

    /// Changes the state and tells the waiting viewers.
    fn update(&self, change: impl FnOnce(&mut LiveState)) {
        let mut s = lock(&self.state);
        change(&mut s);
        s.generation += 1;
    }

    /// The generation of the newest state.
    pub fn generation(&self) -> u64 {
        lock(&self.state).generation
    }

    /// A copy of the state once it is newer than generation `seen`, waiting at most `wait`.
    ///
    /// The viewer looks every [`POLL`] rather than being woken: the run changes its state a
    /// thousand times a second, and a wake-up for each (a system call) was most of what
    /// watching cost it.
    pub fn newer_than(&self, seen: u64, wait: Duration) -> Option<LiveState> {
        let deadline = Instant::now() + wait;
        loop {
            {
                let s = lock(&self.state);
                if s.generation > seen {
                    return Some(s.clone());
                }
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            std::thread::sleep(left.min(POLL));
        }
    }

    /// The state now.
    pub fn snapshot(&self) -> LiveState {
        lock(&self.state).clone()
    }

    /// A finished game the page still keeps, by index.
    pub fn finished_game(&self, index: u64) -> Option<Arc<GameRecord>> {
        let s = lock(&self.state);
        s.finished.iter().find(|g| g.index == index).cloned()
    }

    /// Game `index` starts from `position` after its opening moves `opening`.
    pub(crate) fn game_started(
        &self,
        index: u64,
        names: [&str; 2],
        line: &crate::games::GameLine<AnyGame>,
        opening: &[String],
    ) {
        let pos = line.position();
        let (last, before) = opening
            .last()
            .map(|m| {
                // The mover of the last opening move: the side to move before it.
                let mut replay = line.clone();
                replay.undo();
                let before = replay.position();
                ((before.side_to_move(), m.clone()), before.to_string())
            })
            .unzip();
        let game = LiveGame {
            index,
            game: pos.variant().to_string(),
            south: names[0].to_string(),
            north: names[1].to_string(),
            position: pos.to_string(),
            ply: opening.len(),
            last,
            before,
            clocks: [None, None],
            info: Default::default(),
        };
        self.update(|s| {
            s.playing.insert(index, game);
        });
    }

    /// A move was played in game `index`: `mover` played `token`, reaching `position` at `ply`.
    pub fn moved(
        &self,
        index: u64,
        mover: Side,
        token: &str,
        position: &AnyGame,
        ply: usize,
        clocks: &[SideClock; 2],
    ) {
        let text = position.to_string();
        let clocks = clocks.each_ref().map(|c| c.tc().map(|_| c.remaining_ms()));
        self.update(|s| {
            if let Some(g) = s.playing.get_mut(&index) {
                g.before = Some(std::mem::replace(&mut g.position, text));
                g.ply = ply;
                g.last = Some((mover, token.to_string()));
                g.clocks = clocks;
            }
        });
    }

    /// The engine playing `side` in game `index` sent `info`.
    pub fn info(&self, index: u64, side: Side, info: &InfoLine) {
        self.update(|s| {
            if let Some(g) = s.playing.get_mut(&index) {
                g.info[side.index()].absorb(info);
            }
        });
    }

    /// Game `index` ended unrecorded (interrupted): its board goes.
    pub fn dropped(&self, index: u64) {
        self.update(|s| {
            s.playing.remove(&index);
        });
    }

    /// A game was recorded: its board goes to the finished games, with the progress and the
    /// headline after it; `summary` is asked for only when due (see [`SUMMARY_EVERY`]).
    pub fn finished(
        &self,
        record: &GameRecord,
        progress: LiveProgress,
        headline: String,
        summary: impl FnOnce() -> Summary,
    ) {
        let summary = self.summary_due().then(|| self.timed_summary(summary));
        let record = Arc::new(record.clone());
        self.update(|s| {
            s.playing.remove(&record.index);
            if s.finished.len() == KEPT_FINISHED {
                s.finished.pop_front();
            }
            s.finished.push_back(record);
            s.finished_count += 1;
            s.progress = progress;
            s.headline = headline;
            if let Some((value, text)) = summary {
                s.summary = Some(value);
                s.summary_text = text;
            }
        });
    }

    /// The run's state before its first game (a resumed run's standings) or after its last.
    pub fn standings(
        &self,
        progress: LiveProgress,
        headline: String,
        summary: impl FnOnce() -> Summary,
        ended: bool,
    ) {
        let (value, text) = self.timed_summary(summary);
        self.update(|s| {
            s.progress = progress;
            s.headline = headline;
            s.summary = Some(value);
            s.summary_text = text;
            s.ended |= ended;
            if ended {
                s.playing.clear();
            }
        });
    }

    /// The pairing's part of the summary (see [`LiveState::pairing`]) now: the state changes
    /// only when it does (a Swiss's, when a round ends).
    pub fn pairing(&self, part: Option<(&'static str, serde_json::Value)>) {
        let part = part.map(|(key, value)| (key, Arc::<str>::from(value.to_string())));
        if lock(&self.state).pairing == part {
            return;
        }
        self.update(|s| s.pairing = part);
    }

    /// Whether the summary is due again.
    fn summary_due(&self) -> bool {
        lock(&self.next_summary).is_none_or(|t| Instant::now() >= t)
    }

    /// The summary as JSON and text, made outside the state's lock; the next is due after
    /// [`SUMMARY_EVERY`], or after [`SUMMARY_COST`] times what this one took: the summary of a
    /// long run fits its ratings to every game, and the page must cost the run next to nothing.
    fn timed_summary(&self, summary: impl FnOnce() -> Summary) -> (Arc<str>, Arc<str>) {
        let started = Instant::now();
        let summary = summary();
        let made = (summary_json(&summary), summary.text().into());
        let took = started.elapsed();
        *lock(&self.next_summary) = Some(Instant::now() + SUMMARY_EVERY.max(took * SUMMARY_COST));
        made
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ugi::wire::Reply;

    #[test]
    fn info_lines_give_the_latest_figures() {
        let mut i = LiveInfo::default();
        for line in [
            "info depth 3 score cp 12 nodes 100 nps 5000 pv 1 2 3",
            "info depth 4 nodes 400",
            "info string <script>alert(1)</script>",
        ] {
            let Reply::Info(info) = Reply::parse(line) else {
                panic!("{line}")
            };
            i.absorb(&info);
        }
        assert_eq!(i.depth, Some(4));
        assert_eq!(i.nodes, Some(400));
        assert_eq!(i.nps, Some(5000));
        assert_eq!(i.score.as_deref(), Some("cp 12"));
        assert_eq!(i.pv, "1 2 3");
        let long = format!("info pv {}", vec!["9"; 500].join(" "));
        let Reply::Info(info) = Reply::parse(&long) else {
            panic!()
        };
        i.absorb(&info);
        assert!(i.pv.len() <= MAX_PV_BYTES + 4 && i.pv.ends_with("..."));
    }
}
