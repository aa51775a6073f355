//! The UGI front end: `otau` as an engine speaking the Universal Game Interface (the profile is
//! `protocol/ugi.md`).
//!
//! [`serve`] runs the engine on any reader/writer pair, so the same code answers on stdin/stdout
//! (`otau` with no subcommand) and in process inside the arena through `std::io::pipe()` (its
//! `builtin:` players). The split of concerns:
//! - [`reader`]: input lines with bounded memory;
//! - [`wire`]: every protocol line, both ways, as typed messages (syntax only);
//! - [`options`]: the option table (`option name ...` lines and `setoption`);
//! - [`text`]: how positions, search progress and results are written;
//! - `worker`: the search thread owning the [`Searcher`](crate::search::Searcher);
//! - this file: the input loop and the session state (current game, options).

pub mod options;
pub mod reader;
pub mod text;
pub mod wire;
mod worker;

use std::io::{self, BufRead, Write};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::games::notation::shorten;
use crate::games::{AnyGame, Game, GameLine, Side, Variant};
use crate::search::{Clock, Limits, Player};
use crate::sync::lock;
use options::{Changed, EngineOptions};
use reader::{Line, LineReader};
use wire::{info_string, GoCommand, GuiCommand, PositionCommand, Query, Reply, Start};
use worker::JobThread;

/// The longest input line kept (1 MiB, a move list of a quarter million moves); longer lines are
/// skipped with an error, so a hostile GUI cannot make the engine allocate without bound.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// How long `stop` waits for the search's `bestmove` before reading the next command anyway.
const STOP_WAIT: Duration = Duration::from_secs(5);
/// How long `quit` (and end of input) waits for the search thread before returning regardless.
const QUIT_WAIT: Duration = Duration::from_secs(2);
/// At most this many ignored tokens are echoed in one note.
const MAX_ECHOED_TOKENS: usize = 5;

/// The output, shared by the input loop and the search thread: whole lines, flushed one by one,
/// never interleaved.
#[derive(Clone)]
pub(crate) struct Sink {
    out: Arc<Mutex<Box<dyn Write + Send>>>,
}

impl Sink {
    fn new(out: impl Write + Send + 'static) -> Sink {
        Sink {
            out: Arc::new(Mutex::new(Box::new(out))),
        }
    }

    /// Writes one line and flushes it. Errors are returned for the input loop to act on; the
    /// search thread ignores them (the input loop sees the same broken pipe next).
    pub(crate) fn try_line(&self, line: &str) -> io::Result<()> {
        let mut out = lock(&self.out);
        out.write_all(line.as_bytes())?;
        out.write_all(b"\n")?;
        out.flush()
    }

    pub(crate) fn line(&self, line: &str) {
        let _ = self.try_line(line);
    }
}

/// Runs the engine until `quit` or end of input. `default_game` is the game `position startpos`
/// uses until `setoption name Game` changes it.
///
/// Returns an error only when the input or output fails (a closed output included); the engine
/// state never does.
pub fn serve<R: BufRead + Send + 'static, W: Write + Send + 'static>(
    input: R,
    output: W,
    default_game: Variant,
) -> anyhow::Result<()> {
    let sink = Sink::new(output);
    let mut session = GuiSession::new(sink, default_game);
    let mut reader = LineReader::new(input, MAX_LINE_BYTES);
    let result = loop {
        let flow = match reader.next_line() {
            Ok(Line::Eof) => break Ok(()),
            Ok(Line::TooLong { len }) => session.error(&format!(
                "line of {len} bytes exceeds the limit of {MAX_LINE_BYTES} bytes; ignored"
            )),
            Ok(Line::Text(bytes)) => session.handle(&String::from_utf8_lossy(bytes)),
            Err(e) => break Err(anyhow::Error::new(e).context("reading commands")),
        };
        match flow {
            Ok(Flow::Continue) => {}
            Ok(Flow::Quit) => break Ok(()),
            Err(e) => break Err(anyhow::Error::new(e).context("writing to the output")),
        }
    };
    session.worker.shutdown(QUIT_WAIT);
    result
}

#[derive(PartialEq, Eq)]
enum Flow {
    Continue,
    Quit,
}

/// Where the current line came from: the start and the move tokens as sent, so that the next
/// `position` that merely appends moves replays only the new ones.
#[derive(Clone, PartialEq, Eq)]
enum Origin {
    StartPos(Variant),
    Fen(String),
}

/// The engine's side of one UGI conversation with a GUI: the position, the options, the job
/// thread (the arena's side of such a conversation is `arena::engine::client::EngineSession`).
struct GuiSession {
    sink: Sink,
    options: EngineOptions,
    line: GameLine<AnyGame>,
    origin: Origin,
    tokens: Vec<String>,
    worker: JobThread,
    /// Games whose tables have been asked for (see [`GuiSession::warm_up`]).
    warmed: Vec<Variant>,
}

impl GuiSession {
    fn new(sink: Sink, game: Variant) -> GuiSession {
        let options = EngineOptions::new(game);
        let worker = JobThread::start(sink.clone(), options.clone());
        GuiSession {
            sink,
            line: GameLine::new(AnyGame::start(game)),
            origin: Origin::StartPos(game),
            tokens: Vec::new(),
            options,
            worker,
            warmed: Vec::new(),
        }
    }

    fn say(&self, line: &str) -> io::Result<Flow> {
        self.sink.try_line(line)?;
        Ok(Flow::Continue)
    }

    fn error(&self, message: &str) -> io::Result<Flow> {
        self.say(&info_string(format!("error {message}")))
    }

    fn respond(&self, answer: &str) -> io::Result<Flow> {
        self.say(&Reply::Response(answer.to_string()).to_string())
    }

    fn handle(&mut self, text: &str) -> io::Result<Flow> {
        let parsed = match wire::parse(text) {
            Ok(p) => p,
            Err(e) => return self.error(&format!("{e}; ignored")),
        };
        if !parsed.ignored.is_empty() {
            let shown: Vec<String> = parsed
                .ignored
                .iter()
                .take(MAX_ECHOED_TOKENS)
                .map(|t| format!("'{t}'"))
                .collect();
            let more = parsed.ignored.len().saturating_sub(MAX_ECHOED_TOKENS);
            self.say(&info_string(format!(
                "warning ignored unexpected token{} {}{}",
                if parsed.ignored.len() == 1 { "" } else { "s" },
                shown.join(" "),
                if more > 0 {
                    format!(" and {more} more")
                } else {
                    String::new()
                }
            )))?;
        }
        match parsed.command {
            GuiCommand::Nothing => Ok(Flow::Continue),
            GuiCommand::Hello { uci } => self.hello(uci),
            GuiCommand::IsReady => {
                if !self.worker.is_busy() {
                    self.worker.sync();
                    self.warm_up();
                }
                self.say(&Reply::ReadyOk.to_string())
            }
            GuiCommand::SetOption { name, value } => self.set_option(&name, value.as_deref()),
            GuiCommand::NewGame => {
                self.reset_to_start();
                self.worker.new_game();
                self.warm_up();
                Ok(Flow::Continue)
            }
            GuiCommand::Position(cmd) => match self.position(cmd) {
                Ok(()) => Ok(Flow::Continue),
                Err(e) => self.error(&format!("position: {e}; position unchanged")),
            },
            GuiCommand::Go(go) => self.go(&go),
            GuiCommand::Stop => {
                if !self.worker.stop(STOP_WAIT) {
                    eprintln!("otau: the search did not stop within {STOP_WAIT:?}");
                }
                Ok(Flow::Continue)
            }
            GuiCommand::Quit => Ok(Flow::Quit),
            GuiCommand::Query(query) => self.query(query),
            GuiCommand::Display => {
                for line in text::board(&self.line) {
                    self.say(&line)?;
                }
                Ok(Flow::Continue)
            }
            GuiCommand::Perft(depth) => {
                match self.worker.perft(self.line.position().clone(), depth) {
                    Ok(()) => Ok(Flow::Continue),
                    Err(worker::Busy) => self.error("perft ignored: a search is running"),
                }
            }
            GuiCommand::Eval => {
                for line in text::eval_lines(self.line.position()) {
                    self.say(&line)?;
                }
                Ok(Flow::Continue)
            }
        }
    }

    fn hello(&self, uci: bool) -> io::Result<Flow> {
        let name = format!("otau {}", env!("CARGO_PKG_VERSION"));
        self.say(&Reply::IdName(name).to_string())?;
        self.say(&Reply::IdAuthor("the otau developers".into()).to_string())?;
        for declaration in options::declarations(&self.options) {
            self.say(&Reply::Option(declaration).to_string())?;
        }
        self.say(&Reply::UgiOk { uci }.to_string())
    }

    /// Starts reading the game's tables (Toguz Kumalak endgame tables, Modiar's solution) in the
    /// background, once per game id, so that they are ready by the first `go` as often as can
    /// be. `isready` is answered at once all the same; a timed `go` that comes before the tables
    /// are read searches without them, an untimed one waits (`crate::search`'s
    /// `tables_for_search`).
    fn warm_up(&mut self) {
        let game = self.options.game;
        if self.options.search.player != Player::Search || self.warmed.contains(&game) {
            return;
        }
        self.warmed.push(game);
        crate::search::prepare_tables_in_background(&AnyGame::start(game));
    }

    fn reset_to_start(&mut self) {
        self.line = GameLine::new(AnyGame::start(self.options.game));
        self.origin = Origin::StartPos(self.options.game);
        self.tokens.clear();
    }

    fn set_option(&mut self, name: &str, value: Option<&str>) -> io::Result<Flow> {
        let mut updated = self.options.clone();
        match options::set(&mut updated, name, value) {
            Err(e) => self.error(&format!("setoption: {e}; nothing changed")),
            Ok(Changed::Game) => {
                self.options = updated;
                self.reset_to_start();
                Ok(Flow::Continue)
            }
            Ok(Changed::Search) => {
                self.options = updated;
                self.worker.set_options(self.options.clone());
                Ok(Flow::Continue)
            }
        }
    }

    /// Sets up a position. GUIs resend the whole move list several times a ply, so a list that
    /// extends the previous one from the same start only plays the new moves. Nothing changes
    /// unless every token is valid.
    fn position(&mut self, cmd: PositionCommand<'_>) -> Result<(), String> {
        let origin = match &cmd.start {
            Start::StartPos => Origin::StartPos(self.options.game),
            Start::Fen(fields) => Origin::Fen(fields.join(" ")),
        };
        let extends = origin == self.origin
            && cmd.moves.len() >= self.tokens.len()
            && self.tokens.iter().zip(&cmd.moves).all(|(a, b)| a == b);
        let (mut line, first_new) = if extends {
            (self.line.clone(), self.tokens.len())
        } else {
            let start = match &origin {
                Origin::StartPos(game) => AnyGame::start(*game),
                Origin::Fen(text) => AnyGame::from_position(text).map_err(|e| e.to_string())?,
            };
            (GameLine::new(start), 0)
        };
        for (i, token) in cmd.moves.iter().enumerate().skip(first_new) {
            line.play_token(token)
                .map_err(|e| format!("move {} '{}': {e}", i + 1, shorten(token)))?;
        }
        if !extends {
            self.tokens.clear();
        }
        self.tokens
            .extend(cmd.moves[first_new..].iter().map(|t| t.to_string()));
        self.line = line;
        self.origin = origin;
        Ok(())
    }

    fn go(&mut self, go: &GoCommand) -> io::Result<Flow> {
        let mover = self.line.position().side_to_move();
        let (limits, warning) = limits(go, mover);
        if let Some(w) = warning {
            self.say(&info_string(format!("warning {w}")))?;
        }
        match self.worker.search(self.line.clone(), limits) {
            Ok(()) => Ok(Flow::Continue),
            Err(worker::Busy) => self.error("go ignored: already searching (send stop first)"),
        }
    }

    fn query(&self, query: Query<'_>) -> io::Result<Flow> {
        let pos = self.line.position();
        let yes_no = |b: bool| if b { "true" } else { "false" };
        match query {
            Query::P1Turn => self.respond(yes_no(pos.side_to_move() == Side::South)),
            Query::GameOver => self.respond(yes_no(self.line.is_over())),
            Query::Result => self.respond(self.line.result().map_or("none", |f| f.outcome.ugi())),
            Query::Fen => self.respond(&pos.to_string()),
            Query::Moves => {
                let moves = if self.line.is_over() {
                    Vec::new()
                } else {
                    pos.legal_moves()
                        .iter()
                        .map(|&m| pos.move_name(m))
                        .collect()
                };
                if moves.is_empty() {
                    self.respond("none")
                } else {
                    self.respond(&moves.join(" "))
                }
            }
            Query::IsLegal(token) => {
                let legal =
                    !self.line.is_over() && pos.parse_move(token).is_ok_and(|mv| pos.is_legal(mv));
                self.respond(yes_no(legal))
            }
            Query::Score => match self.line.result() {
                Some(fin) => self.respond(&format!("{}/{}", fin.south, fin.north)),
                None => self.respond(&format!(
                    "{}/{}",
                    pos.store(Side::South),
                    pos.store(Side::North)
                )),
            },
        }
    }
}

fn millis(ms: i64) -> Duration {
    Duration::from_millis(ms.max(0) as u64)
}

/// Maps `go` parameters to search limits: the mover's clock from `p1time`/`p2time`, every other
/// limit as given (the search ends at the first one reached). Also returns a warning when clock
/// parameters were given but none for the side to move.
pub fn limits(go: &GoCommand, mover: Side) -> (Limits, Option<String>) {
    let (time, inc) = match mover {
        Side::South => (go.p1time, go.p1inc),
        Side::North => (go.p2time, go.p2inc),
    };
    let clock = time.map(|t| Clock {
        remaining: millis(t),
        increment: millis(inc.unwrap_or(0)),
        moves_to_go: go.movestogo.filter(|&n| n > 0),
    });
    let any_clock = go.p1time.is_some()
        || go.p2time.is_some()
        || go.p1inc.is_some()
        || go.p2inc.is_some()
        || go.movestogo.is_some();
    let warning = (clock.is_none() && any_clock).then(|| {
        format!(
            "clock parameters without {}time (the side to move's time) are ignored",
            mover.ugi()
        )
    });
    let limits = Limits {
        depth: go.depth,
        nodes: go.nodes,
        movetime: go.movetime.map(millis),
        clock,
        infinite: go.infinite,
        received: None,
    };
    (limits, warning)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_movers_clock_is_used() {
        let go = GoCommand {
            p1time: Some(1000),
            p2time: Some(2000),
            p1inc: Some(10),
            p2inc: Some(20),
            movestogo: Some(5),
            depth: Some(7),
            ..Default::default()
        };
        let (south, w) = limits(&go, Side::South);
        assert!(w.is_none());
        assert_eq!(
            south.clock,
            Some(Clock {
                remaining: Duration::from_millis(1000),
                increment: Duration::from_millis(10),
                moves_to_go: Some(5)
            })
        );
        assert_eq!(south.depth, Some(7));
        let (north, _) = limits(&go, Side::North);
        assert_eq!(north.clock.unwrap().remaining, Duration::from_millis(2000));
        assert_eq!(north.clock.unwrap().increment, Duration::from_millis(20));
    }

    #[test]
    fn negative_times_clamp_and_missing_mover_time_warns() {
        let go = GoCommand {
            p1time: Some(-50),
            ..Default::default()
        };
        assert_eq!(
            limits(&go, Side::South).0.clock.unwrap().remaining,
            Duration::ZERO
        );
        let (l, w) = limits(&go, Side::North);
        assert!(l.clock.is_none());
        assert!(w.unwrap().contains("p2time"));
        assert_eq!(
            limits(&GoCommand::default(), Side::South).0,
            Limits::default()
        );
    }
}
