//! The arena's side of UGI: handshake, options, new game, one think, and the `isready` fence.
//!
//! Every wait has a deadline, writes included: a write the engine does not take in time (it
//! stopped reading its input) is a [`Fault::Stall`]. All times are on [`pause::now`], so a
//! pause of the arena is charged to nobody. After a time loss the engine is told `stop` and its
//! `bestmove` is drained for a bounded time; before the engine's next `go` the arena always
//! sends `isready` and discards everything up to `readyok`, so a late `bestmove` can never be
//! read as the answer to a later `go`.

use std::time::{Duration, Instant};

use crate::arena::config::Protocol;
use crate::arena::engine::process::{EngineIo, Incoming, RecvError, SendError};
use crate::arena::engine::protocol_log::{Direction, Tap};
use crate::arena::records::termination::TerminationKind;
use crate::arena::system::pause;
use crate::ugi::wire::{
    GoCommand, GuiCommand, InfoField, InfoKey, InfoLine, PositionLine, Reply, ScoreBound,
    ScoreKind, Value,
};

/// A way an engine failed, other than playing a bad move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Fault {
    /// The engine closed its output or its input pipe broke: it crashed or quit.
    Crash(String),
    /// No `ugiok`/`readyok` within the timeout, or input not taken within the deadline.
    Stall(String),
    /// The engine's process ended and the kernel had killed a process of its control group at its
    /// `memory=` limit.
    MemoryLimit(String),
    /// The user pressed Ctrl-C.
    Interrupted,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Crash(d) | Fault::Stall(d) | Fault::MemoryLimit(d) => f.write_str(d),
            Fault::Interrupted => f.write_str("interrupted"),
        }
    }
}

impl Fault {
    /// The termination a game lost by this fault is recorded as: the one place a fault is named.
    pub fn kind(&self) -> TerminationKind {
        match self {
            Fault::Stall(_) => TerminationKind::Stall,
            Fault::MemoryLimit(_) => TerminationKind::MemoryLimit,
            Fault::Crash(_) | Fault::Interrupted => TerminationKind::Crash,
        }
    }
}

/// The ranges of the `info` values the arena keeps (see `protocol/arena.md`, Records). A value
/// outside them is no real search figure (a wrapped counter, a sign bug, a placeholder): it is
/// dropped and counted ([`SearchInfo::dropped`]), never recorded, printed in the PGN or averaged.
pub const MAX_INFO_DEPTH: u32 = 1000;
/// Nodes of one search: 10^12 is over 15 minutes at a billion nodes a second.
pub const MAX_INFO_NODES: u64 = 1_000_000_000_000;
pub use crate::arena::game::adjudication::MAX_SCORE_CP;
/// Moves to a mate (`mate 0` is not a mate the mover can still play).
pub const MAX_INFO_MATE: u32 = 1000;

/// How long a closed pipe waits for the engine's exit status before its fault is written: an
/// exiting process closes its pipes before it can be reaped, and on a loaded machine the gap
/// between the two can be long, so without this wait the same crash would read "exited with
/// code 1" or "closed its output" by chance. A process that closes its output and lives on costs
/// this much once, then is killed.
pub(crate) const EXIT_WAIT: Duration = Duration::from_secs(2);

/// The bytes of a principal variation kept (a longer one is cut at a move: memory stays bounded).
pub(crate) const MAX_PV_BYTES: usize = 1024;

/// The longest start of a principal variation's text (moves separated by spaces) within
/// `max_bytes` that ends at a move: a PV is shown, never stored whole.
pub(crate) fn pv_prefix(moves: &str, max_bytes: usize) -> &str {
    if moves.len() <= max_bytes {
        return moves;
    }
    let mut end = max_bytes;
    while !moves.is_char_boundary(end) {
        end -= 1;
    }
    &moves[..moves[..end].rfind(' ').unwrap_or(0)]
}

/// The engine's last `info` before its `bestmove`, as far as it said.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    /// The last `info depth` in range.
    pub depth: Option<u32>,
    /// The last score in range, from the mover's view (kept typed: an engine sends many info
    /// lines per move, and only the last one is written down, by [`SearchInfo::score_text`]).
    pub score: Option<(ScoreKind, i64)>,
    /// Whether that score was only a bound (`lowerbound`/`upperbound` after it): kept with it
    /// in the records and the PGN, and never taken for a score by adjudication.
    pub bound: Option<ScoreBound>,
    /// The last `info nodes` in range.
    pub nodes: Option<u64>,
    /// The principal variation of the last `info` that had one, its moves as sent (unchecked
    /// words, at most [`MAX_PV_BYTES`]; copied into one reused buffer, so keeping it costs the
    /// arena no allocation a line): shown by `otau web`'s analysis, never recorded.
    pub pv: String,
    /// `depth`, `nodes` and `score` values dropped: not numbers, or out of range. Each field
    /// keeps the last value in range.
    pub dropped: u32,
}

impl SearchInfo {
    /// Counts a dropped value (saturating: an engine may flood info lines for as long as it thinks).
    fn drop_one(&mut self) {
        self.dropped = self.dropped.saturating_add(1);
    }

    /// The score as records write it: `cp 35` or `mate -4`, a bound with its word after it
    /// (`cp -5000 lowerbound`), as the engine sent it.
    pub fn score_text(&self) -> Option<String> {
        self.score.map(|(kind, n)| match self.bound {
            Some(b) => format!("{kind} {n} {b}"),
            None => format!("{kind} {n}"),
        })
    }

    /// Folds one `info` line in; fields the arena does not keep are skipped, bad values of the
    /// kept ones dropped and counted.
    pub fn absorb(&mut self, info: &InfoLine) {
        let within = |v: &Value<i64>, max: u64| match v {
            Ok(n) if *n >= 0 && n.unsigned_abs() <= max => Some(n.unsigned_abs()),
            _ => None,
        };
        for field in &info.fields {
            match field {
                InfoField::Number(InfoKey::Depth, v) => match within(v, MAX_INFO_DEPTH.into()) {
                    Some(d) => self.depth = Some(d as u32),
                    None => self.drop_one(),
                },
                InfoField::Number(InfoKey::Nodes, v) => match within(v, MAX_INFO_NODES) {
                    Some(n) => self.nodes = Some(n),
                    None => self.drop_one(),
                },
                InfoField::Score {
                    kind,
                    value,
                    bounds,
                } => {
                    let in_range = match (kind, value) {
                        (Ok(ScoreKind::Cp), Ok(v)) => v.unsigned_abs() <= u64::from(MAX_SCORE_CP),
                        (Ok(ScoreKind::Mate), Ok(v)) => {
                            (1..=u64::from(MAX_INFO_MATE)).contains(&v.unsigned_abs())
                        }
                        _ => false,
                    };
                    match (kind, value, ScoreBound::of(bounds)) {
                        (Ok(k), Ok(v), Ok(bound)) if in_range => {
                            self.score = Some((*k, *v));
                            self.bound = bound;
                        }
                        _ => self.drop_one(),
                    }
                }
                InfoField::Pv(moves) => {
                    self.pv.clear();
                    self.pv.push_str(pv_prefix(moves, MAX_PV_BYTES));
                }
                _ => {}
            }
        }
    }
}

/// A `bestmove` and what came with it.
#[derive(Clone, Debug)]
pub struct Thought {
    /// The move token as sent (not yet checked).
    pub token: String,
    /// What the engine said about its search before the move.
    pub info: SearchInfo,
    /// Measured by the arena from writing `go` to the arrival of `bestmove`.
    pub elapsed: Duration,
}

/// Why a think produced no move.
#[derive(Clone, Debug)]
pub enum ThinkError {
    /// No `bestmove` by the deadline.
    Late(Duration),
    /// The engine failed otherwise (crashed, wrote nonsense, closed its output): the game is lost
    /// by it.
    Fault(Fault),
}

/// How a wait for a reply ended without it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum WaitError {
    /// The deadline passed: how many other lines came meanwhile, and the last of them.
    Timeout {
        seen: usize,
        last: Option<String>,
    },
    /// The engine closed its output.
    Closed,
    /// A line longer than [`MAX_LINE`](crate::arena::engine::process::MAX_LINE): its start.
    TooLong(String),
    Interrupted,
}

/// The reply waited for, and the lines that came before it.
#[derive(Clone, Debug)]
pub(crate) struct Awaited {
    pub reply: Reply,
    /// The reply's line as written.
    pub line: String,
    /// The lines before it as written, as many as [`MAX_KEPT_BYTES`] hold (a flooding engine
    /// must not exhaust the arena's memory).
    pub before: Vec<String>,
}

/// The output kept of the lines before an awaited reply.
pub(crate) const MAX_KEPT_BYTES: usize = 16 << 20;

/// An engine process spoken to in UGI: every command written through [`crate::ugi::wire`], every
/// line read back as a [`Reply`]. The arena's engines have completed the handshake
/// ([`EngineSession::handshake`]); the compliance checker ([`crate::arena::compliance`]) drives a fresh one
/// ([`EngineSession::new`]) step by step with [`EngineSession::write`] and
/// [`EngineSession::wait_for`].
pub struct EngineSession {
    io: EngineIo,
    /// `id name` as the engine reported it.
    pub id_name: Option<String>,
    /// Option names the engine advertised.
    pub options: Vec<String>,
    /// Lines the engine sent that the protocol does not know (counted, otherwise ignored).
    pub unknown_lines: u64,
    /// The bound of writes that have no deadline of their own (`setoption`): the start-up
    /// timeout given to the handshake.
    write_timeout: Duration,
    /// `--log`: every line written and read passes [`EngineSession::write`] and
    /// [`EngineSession::recv`], which log it here.
    log: Option<Tap>,
}

impl EngineSession {
    /// A session on a started engine, before any word was said; writes without a deadline of
    /// their own must be taken within `write_timeout`.
    pub fn new(io: EngineIo, write_timeout: Duration) -> EngineSession {
        EngineSession {
            io,
            id_name: None,
            options: Vec::new(),
            unknown_lines: 0,
            write_timeout,
            log: None,
        }
    }

    /// `ugi` ... `ugiok` (with `proto=uci`: `uci` ... `uciok`) within `timeout`.
    pub fn handshake(
        io: EngineIo,
        timeout: Duration,
        proto: Protocol,
    ) -> Result<EngineSession, Fault> {
        EngineSession::handshake_logged(io, timeout, proto, None)
    }

    /// [`EngineSession::handshake`], every line of the session logged to `log`.
    pub(crate) fn handshake_logged(
        io: EngineIo,
        timeout: Duration,
        proto: Protocol,
        log: Option<Tap>,
    ) -> Result<EngineSession, Fault> {
        let deadline = pause::now() + timeout;
        let mut s = EngineSession::new(io, timeout);
        s.log = log;
        let uci = proto == Protocol::Uci;
        s.send(&[GuiCommand::Hello { uci }], deadline)?;
        loop {
            // Either answer ends the greeting: the engine speaks UGI after it whichever it is.
            match s.next_reply(deadline, if uci { "uciok" } else { "ugiok" })? {
                Reply::UgiOk { .. } => return Ok(s),
                Reply::IdName(name) => s.id_name = Some(name),
                r => {
                    if let Some(name) = r.option_name() {
                        s.options.push(name.to_string());
                    }
                }
            }
        }
    }

    /// The engine process's id (none for a built-in player): its section of the stderr log.
    pub fn pid(&self) -> Option<u32> {
        self.io.pid()
    }

    /// Whether the engine advertised an option (names compare case-insensitively, as in UCI).
    pub(crate) fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    /// `setoption`, written within the start-up timeout (a 70 KB value to an engine that reads
    /// nothing is a stall, not a hang).
    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), Fault> {
        let deadline = pause::now() + self.write_timeout;
        let set = GuiCommand::SetOption {
            name: name.to_string(),
            value: Some(value.to_string()),
        };
        self.send(&[set], deadline)
    }

    /// `isready` and wait for `readyok`, discarding everything before it (late moves included).
    /// What every start of an engine sends after the handshake, in this order: `Game` when the
    /// engine declares it, the arena's own settings (a built-in player's options, its seed),
    /// then the user's options. Returns the user's options the engine does not declare (sent
    /// anyway), leaving out those `hidden` accepts undeclared.
    pub fn configure<'a>(
        &mut self,
        game: &str,
        preset: impl IntoIterator<Item = (&'a str, &'a str)>,
        options: &[(String, String)],
        hidden: impl Fn(&str) -> bool,
    ) -> Result<Vec<String>, Fault> {
        if self.has_option("Game") {
            self.set_option("Game", game)?;
        }
        for (n, v) in preset {
            self.set_option(n, v)?;
        }
        let mut undeclared = Vec::new();
        for (n, v) in options {
            if !self.has_option(n) && !hidden(n) {
                undeclared.push(n.clone());
            }
            self.set_option(n, v)?;
        }
        Ok(undeclared)
    }

    /// `isready` ... `readyok` within `timeout`: afterwards every earlier command has been taken
    /// in, and no late `bestmove` of an earlier search can be read as the next one's.
    pub fn fence(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.fence_lines(timeout).map(|_| ())
    }

    /// [`EngineSession::fence`], returning the first lines the engine wrote before `readyok`
    /// (at most 16: what the start-up check reads an engine's answer to `setoption` from).
    pub(crate) fn fence_lines(&mut self, timeout: Duration) -> Result<Vec<String>, Fault> {
        let deadline = pause::now() + timeout;
        self.send(&[GuiCommand::IsReady], deadline)?;
        let mut before = Vec::new();
        loop {
            match self.next_reply(deadline, "readyok")? {
                Reply::ReadyOk => return Ok(before),
                reply if before.len() < 16 => before.push(reply.to_string()),
                _ => {}
            }
        }
    }

    /// `uginewgame`, then the fence.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), Fault> {
        self.send(&[GuiCommand::NewGame], pause::now() + timeout)?;
        self.fence(timeout)
    }

    /// Sends the position and `go`, and waits for `bestmove` at most `allowed` from the moment
    /// the write began: an engine that does not take its input in that time stalls.
    pub fn think(
        &mut self,
        position: &PositionLine,
        go: &GoCommand,
        allowed: Duration,
    ) -> Result<Thought, ThinkError> {
        self.think_watched(position, go, allowed, &mut |_| {})
    }

    /// [`EngineSession::think`], each `info` line also handed to `on_info` as it arrives (the
    /// live page's figures, `crate::arena::output::live`).
    pub(crate) fn think_watched(
        &mut self,
        position: &PositionLine,
        go: &GoCommand,
        allowed: Duration,
        on_info: &mut dyn FnMut(&InfoLine),
    ) -> Result<Thought, ThinkError> {
        let started = pause::now();
        let deadline = started + allowed;
        let go = go.to_string();
        let lines = [position.as_str(), go.as_str()];
        self.send_lines_since(&lines, started, deadline)
            .map_err(ThinkError::Fault)?;
        let mut info = SearchInfo::default();
        loop {
            let line = match self.recv(deadline) {
                Ok(Incoming::Line(l)) => l,
                Ok(Incoming::TooLong(_)) => {
                    self.unknown_lines += 1;
                    continue;
                }
                Err(RecvError::Timeout) => return Err(ThinkError::Late(started.elapsed())),
                Err(e) => return Err(ThinkError::Fault(self.fault_from(e, "bestmove"))),
            };
            match Reply::parse(&line) {
                Reply::Info(i) => {
                    info.absorb(&i);
                    on_info(&i);
                }
                Reply::BestMove(best) => {
                    return Ok(Thought {
                        token: best.token,
                        info,
                        elapsed: self.io.last_arrival().saturating_duration_since(started),
                    })
                }
                _ => self.unknown_lines += 1,
            }
        }
    }

    /// After a late move: `stop`, then read until `bestmove` for at most `bound`. The caller
    /// fences before the next `go` either way.
    pub fn stop_and_drain(&mut self, bound: Duration) {
        let deadline = pause::now() + bound;
        if self.send(&[GuiCommand::Stop], deadline).is_err() {
            return;
        }
        while let Ok(item) = self.recv(deadline) {
            if matches!(item, Incoming::Line(ref l) if matches!(Reply::parse(l), Reply::BestMove(_)))
            {
                return;
            }
        }
    }

    /// `quit`, a grace period, then the process group is killed.
    pub fn shutdown(mut self, grace: Duration) {
        if let Some(log) = &self.log {
            log.line(Direction::ToEngine, "quit");
        }
        self.io.shutdown(grace);
    }

    /// Writes `lines` by `deadline`, as they are: the commands' text, or a line that is no
    /// command at all (the checker's probe of how an engine takes one).
    pub fn write(&mut self, lines: &[&str], deadline: Instant) -> Result<(), SendError> {
        if let Some(log) = &self.log {
            for l in lines {
                log.line(Direction::ToEngine, l);
            }
        }
        self.io.send_by(lines, deadline)
    }

    /// The engine's next line by `deadline`, logged.
    fn recv(&mut self, deadline: Instant) -> Result<Incoming, RecvError> {
        let got = self.io.recv(deadline);
        if let Some(log) = &self.log {
            match &got {
                Ok(Incoming::Line(l)) => log.line(Direction::FromEngine, l),
                Ok(Incoming::TooLong(start)) => log.line(
                    Direction::FromEngine,
                    &format!("{start}... (line too long)"),
                ),
                Err(_) => {}
            }
        }
        got
    }

    /// Reads until a reply satisfies `done`, by `deadline`.
    pub(crate) fn wait_for(
        &mut self,
        deadline: Instant,
        mut done: impl FnMut(&Reply) -> bool,
    ) -> Result<Awaited, WaitError> {
        let mut before: Vec<String> = Vec::new();
        let mut kept_bytes = 0usize;
        let mut seen = 0usize;
        loop {
            match self.recv(deadline) {
                Ok(Incoming::Line(line)) => {
                    let reply = Reply::parse(&line);
                    if done(&reply) {
                        return Ok(Awaited {
                            reply,
                            line,
                            before,
                        });
                    }
                    seen += 1;
                    if kept_bytes < MAX_KEPT_BYTES {
                        kept_bytes += line.len();
                        before.push(line);
                    }
                }
                Ok(Incoming::TooLong(start)) => return Err(WaitError::TooLong(start)),
                Err(RecvError::Timeout) => {
                    return Err(WaitError::Timeout {
                        seen,
                        last: before.pop(),
                    })
                }
                Err(RecvError::Closed) => return Err(WaitError::Closed),
                Err(RecvError::Interrupted) => return Err(WaitError::Interrupted),
            }
        }
    }

    /// The CPU time of the engine's control group so far (the engine and everything it started),
    /// where it has one.
    pub(crate) fn cpu_time(&self) -> Option<Duration> {
        self.io.cpu_time()
    }

    /// How the process ended ("exited with code 0"), waiting up to `wait` for it to end.
    pub(crate) fn exit_status(&mut self, wait: Duration) -> Option<String> {
        let deadline = Instant::now() + wait;
        loop {
            if let Some(status) = self.io.exit_status() {
                return Some(status);
            }
            let left = deadline.saturating_duration_since(Instant::now());
            if left.is_zero() {
                return None;
            }
            std::thread::sleep(left.min(Duration::from_millis(5)));
        }
    }

    /// The engine is gone: a crash, or a death at its memory limit when its group says so.
    fn crash(&self, detail: String) -> Fault {
        if self.io.memory_killed() {
            Fault::MemoryLimit(format!("killed at its memory limit: {detail}"))
        } else {
            Fault::Crash(detail)
        }
    }

    /// The next reply (the start of a line too long, counted as unknown, is read as one).
    fn next_reply(&mut self, deadline: Instant, waiting_for: &str) -> Result<Reply, Fault> {
        match self.recv(deadline) {
            Ok(Incoming::Line(l)) => Ok(Reply::parse(&l)),
            Ok(Incoming::TooLong(start)) => {
                self.unknown_lines += 1;
                Ok(Reply::parse(&start))
            }
            Err(e) => Err(self.fault_from(e, waiting_for)),
        }
    }

    fn fault_from(&mut self, e: RecvError, waiting_for: &str) -> Fault {
        match e {
            RecvError::Timeout => Fault::Stall(format!("no {waiting_for} in time")),
            RecvError::Interrupted => Fault::Interrupted,
            RecvError::Closed => {
                let how = self
                    .exit_status(EXIT_WAIT)
                    .unwrap_or_else(|| "closed its output".to_string());
                self.crash(format!("{how} while waiting for {waiting_for}"))
            }
        }
    }

    /// Writes `commands` by `deadline`; a write that fails is the engine's fault, named with the
    /// command it was for.
    fn send(&mut self, commands: &[GuiCommand<'_>], deadline: Instant) -> Result<(), Fault> {
        let lines: Vec<String> = commands.iter().map(GuiCommand::to_string).collect();
        let lines: Vec<&str> = lines.iter().map(String::as_str).collect();
        self.send_lines(&lines, deadline)
    }

    fn send_lines(&mut self, lines: &[&str], deadline: Instant) -> Result<(), Fault> {
        self.send_lines_since(lines, pause::now(), deadline)
    }

    /// [`EngineSession::send_lines`], the write begun at `started` (the caller's look at the
    /// clock just before: a look is a cost every ply).
    fn send_lines_since(
        &mut self,
        lines: &[&str],
        started: Instant,
        deadline: Instant,
    ) -> Result<(), Fault> {
        if crate::arena::system::interrupt::requested() {
            return Err(Fault::Interrupted);
        }
        self.write(lines, deadline).map_err(|e| {
            let last = lines.last().copied().unwrap_or_default();
            let what = last.split_ascii_whitespace().next().unwrap_or_default();
            match e {
                SendError::Interrupted => Fault::Interrupted,
                SendError::Timeout { .. } => Fault::Stall(format!(
                    "{e} sending {what} in {} ms",
                    pause::now().saturating_duration_since(started).as_millis()
                )),
                SendError::Closed(_) => {
                    let how = self
                        .exit_status(EXIT_WAIT)
                        .map_or(String::new(), |s| format!(", {s}"));
                    self.crash(format!("{e} sending {what}{how}"))
                }
            }
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn absorb(i: &mut SearchInfo, line: &str) {
        let Reply::Info(info) = Reply::parse(line) else {
            panic!("{line} is no info line");
        };
        i.absorb(&info);
    }

    #[test]
    fn info_lines_are_folded() {
        let mut i = SearchInfo::default();
        absorb(
            &mut i,
            "info depth 3 seldepth 5 score cp -40 nodes 1200 nps 9 pv 3 4 5",
        );
        assert_eq!(i.dropped, 0);
        assert_eq!(i.pv, "3 4 5");
        absorb(&mut i, "info depth x score mate 7 string depth 99");
        assert_eq!(i.pv, "3 4 5", "a line without pv keeps the last one");
        let long = format!("info pv {}", "10 ".repeat(400));
        absorb(&mut i, &long);
        assert!(
            i.pv.len() <= MAX_PV_BYTES && i.pv.ends_with("10"),
            "cut at a move"
        );
        assert_eq!(i.depth, Some(3));
        assert_eq!(i.score_text().as_deref(), Some("mate 7"));
        assert_eq!(i.nodes, Some(1200));
        assert_eq!(i.dropped, 1, "depth x");
    }

    #[test]
    fn bounds_are_kept_with_their_score() {
        let mut i = SearchInfo::default();
        absorb(&mut i, "info depth 5 score cp -5000 lowerbound nodes 9");
        assert_eq!(i.score_text().as_deref(), Some("cp -5000 lowerbound"));
        absorb(&mut i, "info score cp 40 upperbound upperbound");
        assert_eq!(i.score_text().as_deref(), Some("cp 40 upperbound"));
        // An exact score after a bound is exact; contradicting bounds bound nothing.
        absorb(&mut i, "info score mate 3");
        assert_eq!(i.score_text().as_deref(), Some("mate 3"));
        absorb(&mut i, "info score cp 1 lowerbound upperbound");
        assert_eq!((i.score_text().as_deref(), i.dropped), (Some("mate 3"), 1));
    }

    #[test]
    fn absurd_info_values_are_dropped_and_counted() {
        let mut i = SearchInfo::default();
        absorb(&mut i, "info depth 12 score cp 35 nodes 5000");
        // What broken engines sent: a wrapped depth, the most negative mate, mate 0, a
        // counter past any real search, and a score that is no kind at all.
        for line in [
            "info depth 3186588637",
            "info score mate -9223372036854775808",
            "info score mate 0",
            "info nodes 18446744073709551615",
            "info score cp 100001",
            "info score wdl 500",
            "info depth 1001 nodes 1000000000001 score mate 1001",
        ] {
            absorb(&mut i, line);
        }
        assert_eq!(i.dropped, 9);
        // The last values in range are kept.
        assert_eq!(
            (i.depth, i.score_text().as_deref(), i.nodes),
            (Some(12), Some("cp 35"), Some(5000))
        );
        absorb(
            &mut i,
            "info depth 1000 score mate -1000 nodes 1000000000000",
        );
        absorb(&mut i, "info score cp -100000 depth 0");
        assert_eq!(
            (i.depth, i.score_text().as_deref(), i.nodes),
            (Some(0), Some("cp -100000"), Some(1_000_000_000_000))
        );
        assert_eq!(i.dropped, 9);
    }
}
