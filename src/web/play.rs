//! `otau web`'s game: one person against one UGI engine, refereed like an arena game.
//!
//! The engine runs through the arena's client ([`EngineSession`], started as the arena starts
//! it: [`builtin`] players in process, other programs spawned without a shell), so it speaks
//! exactly the UGI an arena game speaks, and every wait on it has a deadline: the handshake and
//! the `isready` fence the start-up timeout, a think the engine's move limit plus its margin (or
//! its `timeout=`). Both players' moves are checked with the rules ([`GameLine::play_token`]).
//!
//! An engine's move is judged by the arena's referee itself ([`ask_move`]: `go` from the
//! engine's limits, the time allowed, late and faulty replies named as terminations;
//! [`play_reply`]: the move checked with the rules). An engine that fails (an illegal or
//! unreadable move, no move in time, a crash, a stall) ends the game as it ends an arena game:
//! the person wins, the termination names the fault, and the engine process is ended. It is
//! started afresh the next time it must think (after an undo, a new game or a flip), so one bad
//! reply never leaves a half-dead process.
//!
//! [`PlayGame`] is the state machine, synchronous and without HTTP; [`PlayWorker`] runs it on a
//! thread of its own behind a bounded command queue and publishes every state as JSON, so the
//! web server's requests never wait for the engine.

use std::sync::mpsc::{sync_channel, Receiver, SyncSender};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde::Serialize;

use crate::arena::config::EngineConfig;
use crate::arena::engine::builtin;
use crate::arena::engine::client::{EngineSession, Fault, SearchInfo};
use crate::arena::engine::process::{EngineIo, Spawn};
use crate::arena::game::clock::SideClock;
use crate::arena::matchmaking::referee::{ask_move, play_reply, After, Answer, Lost, TurnError};
use crate::arena::records::pgn::{game_pgn, unfinished_game_pgn};
use crate::arena::records::{GameRecord, MoveRecord, OpeningRecord, Termination, TerminationKind};
use crate::games::{AnyGame, Game, GameLine, Outcome, Side, Variant};
use crate::sync::lock;
use crate::ugi::wire::{PositionLine, Start};
use crate::web::game::{lap_positions, score_view, ScoreView};
use crate::web::server::{EventSource, Latest};

/// The name of the person in the PGN and on the page.
pub const PERSON: &str = "person";
/// Time an engine gets to quit before its process group is killed.
const QUIT_GRACE: Duration = Duration::from_millis(300);
/// After a late move: how long to wait for the `bestmove` that `stop` asks for.
const DRAIN: Duration = Duration::from_millis(500);

/// Who made a move.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Mover {
    /// The person at the page.
    Person,
    /// The engine.
    Engine,
}

/// What an engine said of a position it searched (the last `info` before its `bestmove`).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Analysis {
    /// The move it chose (its token, checked: an illegal one is in `note`, not here).
    pub best: Option<String>,
    /// The depth it reported.
    pub depth: Option<u32>,
    /// `cp 35` or `mate -4`, from the mover's view, as the engine sent it (and the PGN keeps it).
    pub score: Option<String>,
    /// The same score in stones from South's view, the one view the page shows
    /// ([`super::game::score_view`]): the engine's own moves and its analysis of the person's
    /// position read alike.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub score_view: Option<ScoreView>,
    /// The nodes it reported.
    pub nodes: Option<u64>,
    /// The principal variation as the engine sent it (unchecked text: the page shows it as text).
    pub pv: Vec<String>,
    /// Why there is no best move (the engine's suggestion was illegal, or it failed).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
}

impl Analysis {
    /// What `searcher` (the side to move when it searched) said.
    fn from_info(best: Option<String>, info: &SearchInfo, searcher: Side) -> Analysis {
        let score = info.score_text();
        Analysis {
            best,
            depth: info.depth,
            score_view: score.as_deref().and_then(|s| score_view(s, searcher)),
            score,
            nodes: info.nodes,
            pv: info.pv.split_whitespace().map(String::from).collect(),
            note: None,
        }
    }
}

/// One move of the game as the page lists it.
#[derive(Clone, Debug, Serialize)]
pub struct PlayedMove {
    /// Protocol token (`5`, `3a`, `pass`).
    #[serde(rename = "move")]
    pub mv: String,
    /// Record notation (federation notation for Toguz Kumalak).
    pub notation: String,
    /// The side that moved.
    pub side: Side,
    /// Whether the person or the engine made it.
    pub by: Mover,
    /// The board after each lap of a Giuthi relay ([`super::game::lap_positions`]), for the
    /// page to step through; absent for a move of one lap and for the other games.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub laps: Vec<String>,
    /// How many laps the move had, when [`super::game::MAX_LAPS_SHOWN`] cut `laps`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub laps_total: Option<usize>,
    /// The engine's search behind an engine move.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub analysis: Option<Analysis>,
}

/// A legal move of the side to move, as the page needs it to mark holes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct LegalMove {
    /// The token to send back (`3`, `3a`, `3c`, `pass`).
    #[serde(rename = "move")]
    pub mv: String,
    /// The mover's hole, 1-based; absent for a pass.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub hole: Option<usize>,
    /// Giuthi's direction: `a` (anticlockwise) or `c` (clockwise).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub direction: Option<char>,
}

/// Where the game stands.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Serialize)]
#[serde(rename_all = "kebab-case")]
pub enum Status {
    /// The person's turn.
    PersonToMove,
    /// The engine's turn (it is thinking, or about to).
    EngineToMove,
    /// Over: by the rules, or by the engine's fault.
    Over,
}

/// A snapshot of the game for the page: everything it draws, as JSON.
#[derive(Clone, Debug, Serialize)]
pub struct PlayState {
    /// The game id (`toguz-kumalak`, `giuthi`, `modiar`, ...).
    pub game: String,
    /// The position string, exactly as otau's notation writes it (and the arena's records).
    pub position: String,
    /// Plies played.
    pub ply: usize,
    /// The person's side.
    pub person: Side,
    /// The side to move.
    pub to_move: Side,
    /// Whose turn it is, or that the game is over.
    pub status: Status,
    /// The legal moves when the person is to move (empty otherwise).
    pub legal: Vec<LegalMove>,
    /// The moves played, in order.
    pub moves: Vec<PlayedMove>,
    /// The engine playing and the engines to choose from (their names as given).
    pub engine: usize,
    /// The engines of the command line, by name, in order; `engine` indexes them.
    pub engines: Vec<String>,
    /// Whether the engine also searches the person's positions.
    pub analysis_on: bool,
    /// The engine's search of the person's position (analysis on, person to move).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub analysis: Option<Analysis>,
    /// `1-0`, `0-1`, `1/2-1/2` once over.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub result: Option<String>,
    /// How it ended (`rules: majority-in-store`, `illegal-move: ...`).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub termination: Option<String>,
    /// What the last command did not do, and why (an illegal click, nothing to undo).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub notice: Option<String>,
}

/// Why a command was refused; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refused {
    /// A move sent while the engine is to move.
    NotYourTurn,
    /// A move sent after the end of the game.
    GameOver,
    /// A move the game refuses: why.
    Illegal(String),
    /// Undo with no move of the person to take back.
    NothingToUndo,
    /// An engine index past the command line's engines.
    NoSuchEngine(usize),
}

impl std::fmt::Display for Refused {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Refused::NotYourTurn => f.write_str("it is the engine's turn"),
            Refused::GameOver => f.write_str("the game is over: undo or start a new game"),
            Refused::Illegal(why) => write!(f, "illegal move: {why}"),
            Refused::NothingToUndo => f.write_str("nothing to undo"),
            Refused::NoSuchEngine(i) => write!(f, "no engine {i} on the command line"),
        }
    }
}

/// One game between a person and an engine of the command line.
pub struct PlayGame {
    variant: Variant,
    engines: Vec<EngineConfig>,
    current: usize,
    startup: Duration,
    session: Option<EngineSession>,
    line: GameLine<AnyGame>,
    moves: Vec<PlayedMove>,
    records: Vec<MoveRecord>,
    person: Side,
    /// The engine's failure that ended the game (the person wins by it).
    fault: Option<Termination>,
    analysis_on: bool,
    analysis: Option<Analysis>,
    notice: Option<String>,
}

impl PlayGame {
    /// A new game of `variant`, the person playing South against `engines[0]`; no engine is
    /// started before it must think. `engines` must not be empty.
    pub fn new(variant: Variant, engines: Vec<EngineConfig>, startup: Duration) -> PlayGame {
        assert!(!engines.is_empty(), "otau web needs an engine");
        PlayGame {
            variant,
            engines,
            current: 0,
            startup,
            session: None,
            line: GameLine::new(AnyGame::start(variant)),
            moves: Vec::new(),
            records: Vec::new(),
            person: Side::South,
            fault: None,
            analysis_on: false,
            analysis: None,
            notice: None,
        }
    }

    /// The game as it stands.
    pub fn line(&self) -> &GameLine<AnyGame> {
        &self.line
    }

    /// The person's side.
    pub fn person(&self) -> Side {
        self.person
    }

    /// Over by the rules or by the engine's fault.
    pub fn is_over(&self) -> bool {
        self.line.is_over() || self.fault.is_some()
    }

    /// Whether the engine is to move now.
    pub fn engine_to_move(&self) -> bool {
        !self.is_over() && self.line.position().side_to_move() != self.person
    }

    /// The person's move: checked with the rules and played. The engine answers with
    /// [`PlayGame::engine_turns`].
    pub fn person_move(&mut self, token: &str) -> Result<(), Refused> {
        if self.is_over() {
            return Err(Refused::GameOver);
        }
        if self.engine_to_move() {
            return Err(Refused::NotYourTurn);
        }
        let pos = self.line.position().clone();
        let (mv, _) = self
            .line
            .play_token(token)
            .map_err(|e| Refused::Illegal(e.to_string()))?;
        self.analysis = None;
        self.push(&pos, mv, Mover::Person, None);
        Ok(())
    }

    /// The engine plays while it is to move (Giuthi's extra moves give it several in a row),
    /// each move refereed; then, with analysis on, it searches the person's position.
    pub fn engine_turns(&mut self) {
        while self.engine_to_move() {
            self.engine_move();
        }
        self.analyse();
    }

    /// Takes back to the person's previous turn: the person's last move and every engine move
    /// after it (a game the engine's fault ended becomes playable again).
    pub fn undo(&mut self) -> Result<(), Refused> {
        let Some(last) = self.moves.iter().rposition(|m| m.by == Mover::Person) else {
            return Err(Refused::NothingToUndo);
        };
        while self.moves.len() > last {
            self.line.undo();
            self.moves.pop();
            self.records.pop();
        }
        self.fault = None;
        self.analysis = None;
        Ok(())
    }

    /// A new game from the start, the person on the same side; the engine is told
    /// `uginewgame` before its next search.
    pub fn new_game(&mut self) {
        self.line = GameLine::new(AnyGame::start(self.variant));
        self.moves.clear();
        self.records.clear();
        self.fault = None;
        self.analysis = None;
        if let Some(s) = self.session.as_mut() {
            if s.new_game(self.startup).is_err() {
                self.end_engine();
            }
        }
    }

    /// The person and the engine swap sides (the page turns the board with them); the engine
    /// then moves if it is its turn.
    pub fn flip(&mut self) {
        self.person = self.person.other();
        self.analysis = None;
    }

    /// Analysis on or off: with it on, the engine's search of the person's position is shown.
    pub fn set_analysis(&mut self, on: bool) {
        self.analysis_on = on;
        if !on {
            self.analysis = None;
        }
    }

    /// Plays against another engine of the command line, in a new game.
    pub fn set_engine(&mut self, index: usize) -> Result<(), Refused> {
        if index >= self.engines.len() {
            return Err(Refused::NoSuchEngine(index));
        }
        if index != self.current {
            self.end_engine();
            self.current = index;
        }
        self.new_game();
        Ok(())
    }

    /// Whether analysis is on and the person's position has not been searched yet.
    pub fn wants_analysis(&self) -> bool {
        self.analysis_on && self.analysis.is_none() && !self.is_over() && !self.engine_to_move()
    }

    /// Keeps what the last command did not do, for the page.
    pub fn set_notice(&mut self, notice: Option<String>) {
        self.notice = notice;
    }

    /// The snapshot the page draws.
    pub fn state(&self) -> PlayState {
        let pos = self.line.position();
        let status = if self.is_over() {
            Status::Over
        } else if self.engine_to_move() {
            Status::EngineToMove
        } else {
            Status::PersonToMove
        };
        let legal = if status == Status::PersonToMove {
            legal_moves(pos)
        } else {
            Vec::new()
        };
        let end = self.end();
        PlayState {
            game: self.variant.id(),
            position: pos.to_string(),
            ply: self.moves.len(),
            person: self.person,
            to_move: pos.side_to_move(),
            status,
            legal,
            moves: self.moves.clone(),
            engine: self.current,
            engines: self.engines.iter().map(|e| e.name.clone()).collect(),
            analysis_on: self.analysis_on,
            analysis: self.analysis.clone(),
            result: end.as_ref().map(|(o, _)| o.pgn().to_string()),
            termination: end.map(|(_, t)| t.describe()),
            notice: self.notice.clone(),
        }
    }

    /// The game as PGN, through the arena's writer (`*` while it goes on).
    pub fn pgn(&self) -> String {
        let (result, termination) = self
            .end()
            .unwrap_or((Outcome::Draw, Termination::of(TerminationKind::Rules)));
        let (south, north) = match self.person {
            Side::South => (PERSON.to_string(), self.engine_name().to_string()),
            Side::North => (self.engine_name().to_string(), PERSON.to_string()),
        };
        let record = GameRecord {
            index: 0,
            pair: 0,
            round: 0,
            encounter: None,
            game: self.variant.id(),
            south,
            north,
            opening: OpeningRecord {
                start: self.line.start().to_string(),
                moves: Vec::new(),
            },
            moves: self.records.clone(),
            final_position: self.line.position().to_string(),
            result,
            termination,
            totals: None,
        };
        if self.is_over() {
            game_pgn(&record, "otau web")
        } else {
            unfinished_game_pgn(&record, "otau web")
        }
    }

    fn engine_name(&self) -> &str {
        &self.engines[self.current].name
    }

    /// The result and how the game ended, once it has.
    fn end(&self) -> Option<(Outcome, Termination)> {
        if let Some(t) = &self.fault {
            return Some((Outcome::Win(self.person), t.clone()));
        }
        self.line.result().map(|fin| {
            let mut t = Termination::of(TerminationKind::Rules);
            t.reason = Some(fin.reason);
            (fin.outcome, t)
        })
    }

    /// Records a move just played from `pos`.
    fn push(&mut self, pos: &AnyGame, mv: crate::games::Move, by: Mover, a: Option<Analysis>) {
        let info = a.clone().unwrap_or_default();
        self.records.push(MoveRecord {
            mv: pos.move_name(mv),
            notation: pos.record_name(mv),
            time_ms: None,
            score: info.score,
            depth: info.depth,
            nodes: info.nodes,
            info_dropped: 0,
            cpu_ms: None,
            waiting_cpu_ms: None,
            overuse: None,
        });
        let (laps, total) = lap_positions(pos, mv);
        self.moves.push(PlayedMove {
            mv: pos.move_name(mv),
            notation: pos.record_name(mv),
            side: pos.side_to_move(),
            by,
            laps_total: (total > laps.len() && !laps.is_empty()).then_some(total),
            laps,
            analysis: a,
        });
    }

    /// One engine move, refereed by the arena's referee ([`ask_move`],
    /// [`play_reply`]): a fault ends the game (and the engine process).
    fn engine_move(&mut self) {
        let pos = self.line.position().clone();
        let side = pos.side_to_move();
        let judged = self
            .think()
            .and_then(|a| Ok((play_reply(&mut self.line, &a.thought.token)?, a)));
        match judged {
            Ok((mv, answer)) => {
                let a = Analysis::from_info(Some(pos.move_name(mv)), &answer.thought.info, side);
                self.push(&pos, mv, Mover::Engine, Some(a));
            }
            Err(lost) => {
                self.fault = Some(Termination::fault(lost.kind, side, lost.detail));
                self.end_engine();
            }
        }
    }

    /// With analysis on and the person to move: the engine's search of the person's position
    /// (its suggestion checked with the rules, never played).
    fn analyse(&mut self) {
        if !self.wants_analysis() {
            return;
        }
        let pos = self.line.position().clone();
        let searcher = pos.side_to_move();
        self.analysis = Some(match self.think() {
            Ok(Answer { thought: t, .. }) => match pos.parse_move(&t.token) {
                Ok(mv) if pos.is_legal(mv) => {
                    Analysis::from_info(Some(pos.move_name(mv)), &t.info, searcher)
                }
                _ => Analysis {
                    note: Some(format!(
                        "the engine suggested an illegal move '{}'",
                        t.token.escape_debug()
                    )),
                    ..Analysis::from_info(None, &t.info, searcher)
                },
            },
            Err(lost) => {
                self.end_engine();
                Analysis {
                    note: Some(format!("{}: {}", lost.kind.name(), lost.detail)),
                    ..Analysis::default()
                }
            }
        });
    }

    /// The engine's search of the current position (its side to move), asked and timed by the
    /// referee ([`ask_move`]: `go` from its limits, the allowed time, late and faulty
    /// replies as the arena's terminations). An interrupt, which only an arena run has, would
    /// read as a crash.
    fn think(&mut self) -> Result<Answer, Lost> {
        let cfg = &self.engines[self.current];
        if self.session.is_none() {
            let s = start_engine(cfg, self.variant, self.startup).map_err(|f| Lost {
                kind: fault_kind(&f),
                detail: f.to_string(),
                engine: After::Broken,
            })?;
            self.session = Some(s);
        }
        let mut position = PositionLine::new(&Start::StartPos);
        for name in self.line.move_names() {
            position.push(&name);
        }
        let side = self.line.position().side_to_move();
        // No clock: `tc=` has no meaning against a person (`check_limits`).
        let mut clocks = [SideClock::new(None); 2];
        let limits = [&cfg.limits; 2];
        let session = self.session.as_mut().expect("started above");
        let asked = ask_move(
            session,
            &position,
            side,
            &mut clocks,
            limits,
            DRAIN,
            &mut |_| {},
        );
        asked.map_err(|e| match e {
            TurnError::Lost(lost) => lost,
            TurnError::Interrupted => Lost {
                kind: TerminationKind::Crash,
                detail: Fault::Interrupted.to_string(),
                engine: After::Broken,
            },
        })
    }

    /// Ends the engine process; the next think starts it again.
    fn end_engine(&mut self) {
        if let Some(s) = self.session.take() {
            s.shutdown(QUIT_GRACE);
        }
    }
}

impl Drop for PlayGame {
    fn drop(&mut self) {
        self.end_engine();
    }
}

/// How an engine that could not start loses: as the referee names a fault of a started one.
fn fault_kind(f: &Fault) -> TerminationKind {
    match f {
        Fault::Stall(_) => TerminationKind::Stall,
        _ => TerminationKind::Crash,
    }
}

/// `otau web` needs a limit each search ends by itself: `st=`, `depth=` or `nodes=` (a clock,
/// `tc=`, has no meaning against a person who takes their own time).
pub fn check_limits(cfg: &EngineConfig) -> Result<(), String> {
    let l = &cfg.limits;
    if l.tc.is_some() {
        return Err(format!(
            "engine {}: tc= has no meaning in otau web; give st=, depth= or nodes=",
            cfg.name
        ));
    }
    if l.movetime_ms.is_none() && l.depth.is_none() && l.nodes.is_none() {
        return Err(format!(
            "engine {}: no limit (st=, depth= or nodes=)",
            cfg.name
        ));
    }
    Ok(())
}

/// The legal moves of `pos` with their holes, in the game's move order.
pub fn legal_moves(pos: &AnyGame) -> Vec<LegalMove> {
    let directed = matches!(pos.variant(), Variant::Giuthi { .. });
    pos.legal_moves()
        .iter()
        .map(|&mv| LegalMove {
            mv: pos.move_name(mv),
            hole: (!mv.is_pass()).then(|| mv.index() + 1),
            direction: (directed && !mv.is_pass()).then(|| match mv.direction() {
                crate::games::Direction::Anticlockwise => 'a',
                crate::games::Direction::Clockwise => 'c',
            }),
        })
        .collect()
}

/// Starts an engine of the command line as the arena does: a built-in player in process or the
/// program spawned without a shell (stderr discarded); the handshake, `Game`, the player's and
/// the user's options, `uginewgame` and the `isready` fence, all within `timeout`.
pub fn start_engine(
    cfg: &EngineConfig,
    variant: Variant,
    timeout: Duration,
) -> Result<EngineSession, Fault> {
    let mut preset: Vec<(&str, &str)> = Vec::new();
    let io = match cfg.builtin() {
        Some(Ok(b)) => {
            preset.extend(builtin::player_options(b));
            builtin::start(b, variant)
        }
        Some(Err(why)) => return Err(Fault::Crash(why)),
        None => EngineIo::spawn(&Spawn {
            program: &cfg.cmd,
            args: &cfg.args,
            dir: cfg.dir.as_deref(),
            log: None,
        }),
    }
    .map_err(|e| Fault::Crash(format!("cannot start '{}': {e}", cfg.cmd)))?;
    let mut s = EngineSession::handshake(io, timeout, cfg.proto)?;
    s.configure(&variant.id(), preset, &cfg.options, |_| true)?;
    s.new_game(timeout)?;
    Ok(s)
}

/// A command from the page.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Command {
    /// Play this move token.
    Move(String),
    /// Take back to the person's previous turn.
    Undo,
    /// Start again from the start, the sides kept.
    NewGame,
    /// Swap sides.
    Flip,
    /// Analysis on or off.
    Analysis(bool),
    /// Play against the engine of this index.
    Engine(usize),
}

/// Commands queued at most: a page that clicks faster than the engine answers is told "busy".
const QUEUE: usize = 8;

/// [`PlayGame`] on its own thread: commands go through a bounded queue; every state is
/// published as JSON to a [`Latest`] (the pages' event stream reads it, also while the engine
/// thinks) and the game's PGN is kept beside it.
pub struct PlayWorker {
    tx: Option<SyncSender<Command>>,
    state: Arc<Latest>,
    pgn: Arc<Mutex<String>>,
    thread: Option<std::thread::JoinHandle<()>>,
}

/// The queue is full: the command was not taken.
#[derive(Debug, PartialEq, Eq)]
pub struct Busy;

impl PlayWorker {
    /// Starts the worker on `game`; the engine plays first if it is its turn.
    pub fn start(game: PlayGame) -> PlayWorker {
        let (tx, rx) = sync_channel(QUEUE);
        let state = Arc::new(Latest::new());
        let pgn = Arc::new(Mutex::new(String::new()));
        // The first state is there before the worker runs: a page asking at once (a loaded
        // machine may start the thread late) gets the game, never an empty answer.
        show(&game, &state, &pgn);
        let (s, p) = (state.clone(), pgn.clone());
        let thread = std::thread::Builder::new()
            .name("otau-web-play".into())
            .spawn(move || run(game, &rx, &s, &p))
            .expect("spawn the play thread");
        PlayWorker {
            tx: Some(tx),
            state,
            pgn,
            thread: Some(thread),
        }
    }

    /// Queues a command without waiting.
    pub fn send(&self, command: Command) -> Result<(), Busy> {
        let tx = self.tx.as_ref().expect("open until drop");
        tx.try_send(command).map_err(|_| Busy)
    }

    /// The published states (generation 0 before the first): what the page's event stream reads.
    pub fn states(&self) -> Arc<Latest> {
        self.state.clone()
    }

    /// The latest state's generation and JSON.
    pub fn state(&self) -> (u64, Arc<str>) {
        self.state.get()
    }

    /// The first state newer than generation `seen`, waiting at most `timeout` (else the latest).
    pub fn wait_newer(&self, seen: u64, timeout: Duration) -> (u64, Arc<str>) {
        self.state
            .next_after(seen, timeout)
            .unwrap_or_else(|| self.state.get())
    }

    /// The game's PGN as of the latest state.
    pub fn pgn(&self) -> String {
        lock(&self.pgn).clone()
    }
}

impl Drop for PlayWorker {
    /// Closes the queue; the worker finishes its command (bounded by the engine's limit) and
    /// ends the engine.
    fn drop(&mut self) {
        self.tx.take();
        if let Some(t) = self.thread.take() {
            let _ = t.join();
        }
    }
}

/// The worker's loop: one command at a time, the state published after the person's part and
/// again after the engine's.
/// Publishes the game's state and PGN.
fn show(game: &PlayGame, state: &Latest, pgn: &Mutex<String>) {
    *lock(pgn) = game.pgn();
    state.publish(serde_json::to_string(&game.state()).expect("a state serialises"));
}

fn run(mut game: PlayGame, rx: &Receiver<Command>, state: &Latest, pgn: &Mutex<String>) {
    let show = |game: &PlayGame| show(game, state, pgn);
    game.engine_turns();
    show(&game);
    while let Ok(command) = rx.recv() {
        let done = match command {
            Command::Move(token) => game.person_move(&token),
            Command::Undo => game.undo(),
            Command::NewGame => {
                game.new_game();
                Ok(())
            }
            Command::Flip => {
                game.flip();
                Ok(())
            }
            Command::Analysis(on) => {
                game.set_analysis(on);
                Ok(())
            }
            Command::Engine(i) => game.set_engine(i),
        };
        game.set_notice(done.err().map(|r| r.to_string()));
        show(&game);
        if game.engine_to_move() || game.wants_analysis() {
            game.engine_turns();
            show(&game);
        }
    }
}
