//! The arena's side of UGI: handshake, options, new game, one think, and the `isready` fence.
//!
//! Every wait has a deadline. After a time loss the engine is told `stop` and its `bestmove` is
//! drained for a bounded time; before the engine's next `go` the arena always sends `isready`
//! and discards everything up to `readyok`, so a late `bestmove` can never be read as the answer
//! to a later `go`.

use std::time::{Duration, Instant};

use super::process::{EngineIo, Incoming, RecvError};

/// A way an engine failed, other than playing a bad move.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Fault {
    /// The engine closed its output or its input pipe broke: it crashed or quit.
    Crash(String),
    /// No `ugiok`/`readyok` within the timeout.
    Stall(String),
    /// The user pressed Ctrl-C.
    Interrupted,
}

impl std::fmt::Display for Fault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Fault::Crash(d) | Fault::Stall(d) => f.write_str(d),
            Fault::Interrupted => f.write_str("interrupted"),
        }
    }
}

/// The ranges of the `info` values the arena keeps (see `protocol/arena.md`, Records). A value
/// outside them is no real search figure (a wrapped counter, a sign bug, a placeholder): it is
/// dropped and counted ([`SearchInfo::dropped`]), never recorded, printed in the PGN or averaged.
pub const MAX_INFO_DEPTH: u32 = 1000;
/// Nodes of one search: 10^12 is over 15 minutes at a billion nodes a second.
pub const MAX_INFO_NODES: u64 = 1_000_000_000_000;
/// Centi-stones: 1,000 stones, more than any of the games has.
pub const MAX_SCORE_CP: u32 = 100_000;
/// Moves to a mate (`mate 0` is not a mate the mover can still play).
pub const MAX_INFO_MATE: u32 = 1000;

/// The engine's last `info` before its `bestmove`, as far as it said.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SearchInfo {
    pub depth: Option<u32>,
    /// `cp 35` or `mate -4`, from the mover's view.
    pub score: Option<String>,
    pub nodes: Option<u64>,
    /// `depth`, `nodes` and `score` values dropped: not numbers, or out of range. Each field
    /// keeps the last value in range.
    pub dropped: u32,
}

impl SearchInfo {
    /// Counts a dropped value (saturating: an engine may flood info lines for as long as it thinks).
    fn drop_one(&mut self) {
        self.dropped = self.dropped.saturating_add(1);
    }

    /// Folds one `info` line in; unknown fields are skipped, bad values of the kept fields
    /// dropped and counted.
    fn absorb(&mut self, line: &str) {
        let mut tokens = line.split_ascii_whitespace().skip(1);
        while let Some(t) = tokens.next() {
            match t {
                "depth" => match tokens.next().and_then(|v| v.parse::<u32>().ok()) {
                    Some(d) if d <= MAX_INFO_DEPTH => self.depth = Some(d),
                    _ => self.drop_one(),
                },
                "nodes" => match tokens.next().and_then(|v| v.parse::<u64>().ok()) {
                    Some(n) if n <= MAX_INFO_NODES => self.nodes = Some(n),
                    _ => self.drop_one(),
                },
                "score" => {
                    let kind = tokens.next();
                    let value = tokens.next().and_then(|v| v.parse::<i64>().ok());
                    let in_range = |v: i64| match kind {
                        Some("cp") => v.unsigned_abs() <= u64::from(MAX_SCORE_CP),
                        Some("mate") => (1..=u64::from(MAX_INFO_MATE)).contains(&v.unsigned_abs()),
                        _ => false,
                    };
                    match (kind, value) {
                        (Some(k), Some(v)) if in_range(v) => self.score = Some(format!("{k} {v}")),
                        _ => self.drop_one(),
                    }
                }
                // The pv and an `info string` run to the end of the line.
                "pv" | "string" => break,
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
    pub info: SearchInfo,
    /// Measured by the arena from writing `go` to the arrival of `bestmove`.
    pub elapsed: Duration,
}

/// Why a think produced no move.
#[derive(Clone, Debug)]
pub enum ThinkError {
    /// No `bestmove` by the deadline.
    Late(Duration),
    Fault(Fault),
}

/// An engine after a successful handshake.
pub struct EngineSession {
    io: EngineIo,
    /// `id name` as the engine reported it.
    pub id_name: Option<String>,
    /// Option names the engine advertised.
    pub options: Vec<String>,
    /// Lines the engine sent that the protocol does not know (counted, otherwise ignored).
    pub unknown_lines: u64,
}

impl EngineSession {
    /// `ugi` ... `ugiok` within `timeout`.
    pub fn handshake(mut io: EngineIo, timeout: Duration) -> Result<EngineSession, Fault> {
        let mut s = EngineSession {
            id_name: None,
            options: Vec::new(),
            unknown_lines: 0,
            io: {
                send(&mut io, "ugi")?;
                io
            },
        };
        let deadline = Instant::now() + timeout;
        loop {
            let line = s.next_line(deadline, "ugiok")?;
            let mut tokens = line.split_ascii_whitespace();
            match tokens.next() {
                Some("ugiok" | "uciok") => return Ok(s),
                Some("id") if tokens.next() == Some("name") => {
                    s.id_name = Some(tokens.collect::<Vec<_>>().join(" "));
                }
                Some("option") => {
                    if let Some(name) = option_name(&line) {
                        s.options.push(name);
                    }
                }
                _ => {}
            }
        }
    }

    /// Whether the engine advertised an option (names compare case-insensitively, as in UCI).
    pub fn has_option(&self, name: &str) -> bool {
        self.options.iter().any(|o| o.eq_ignore_ascii_case(name))
    }

    pub fn set_option(&mut self, name: &str, value: &str) -> Result<(), Fault> {
        send(
            &mut self.io,
            &format!("setoption name {name} value {value}"),
        )
    }

    /// `isready` and wait for `readyok`, discarding everything before it (late moves included).
    pub fn fence(&mut self, timeout: Duration) -> Result<(), Fault> {
        send(&mut self.io, "isready")?;
        let deadline = Instant::now() + timeout;
        loop {
            if self.next_line(deadline, "readyok")?.trim() == "readyok" {
                return Ok(());
            }
        }
    }

    /// `uginewgame`, then the fence.
    pub fn new_game(&mut self, timeout: Duration) -> Result<(), Fault> {
        send(&mut self.io, "uginewgame")?;
        self.fence(timeout)
    }

    /// Sends the position and `go`, and waits for `bestmove` at most `allowed` from the moment
    /// `go` was written.
    pub fn think(
        &mut self,
        position: &str,
        go: &str,
        allowed: Duration,
    ) -> Result<Thought, ThinkError> {
        send_all(&mut self.io, &[position, go]).map_err(ThinkError::Fault)?;
        let started = Instant::now();
        let deadline = started + allowed;
        let mut info = SearchInfo::default();
        loop {
            let line = match self.io.recv(deadline) {
                Ok(Incoming::Line(l)) => l,
                Ok(Incoming::TooLong(_)) => {
                    self.unknown_lines += 1;
                    continue;
                }
                Err(RecvError::Timeout) => return Err(ThinkError::Late(started.elapsed())),
                Err(e) => return Err(ThinkError::Fault(self.fault_from(e, "bestmove"))),
            };
            let mut tokens = line.split_ascii_whitespace();
            match tokens.next() {
                Some("info") => info.absorb(&line),
                Some("bestmove") => {
                    return Ok(Thought {
                        token: tokens.next().unwrap_or("").to_string(),
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
        if send(&mut self.io, "stop").is_err() {
            return;
        }
        let deadline = Instant::now() + bound;
        while let Ok(item) = self.io.recv(deadline) {
            if matches!(item, Incoming::Line(ref l) if l.starts_with("bestmove")) {
                return;
            }
        }
    }

    /// `quit`, a grace period, then the process group is killed.
    pub fn shutdown(mut self, grace: Duration) {
        self.io.shutdown(grace);
    }

    fn next_line(&mut self, deadline: Instant, waiting_for: &str) -> Result<String, Fault> {
        match self.io.recv(deadline) {
            Ok(Incoming::Line(l)) => Ok(l),
            Ok(Incoming::TooLong(start)) => {
                self.unknown_lines += 1;
                Ok(start)
            }
            Err(e) => Err(self.fault_from(e, waiting_for)),
        }
    }

    fn fault_from(&mut self, e: RecvError, waiting_for: &str) -> Fault {
        match e {
            RecvError::Timeout => Fault::Stall(format!("no {waiting_for} in time")),
            RecvError::Interrupted => Fault::Interrupted,
            RecvError::Closed => {
                // Give a just-exited process a moment to be reapable, for a better message.
                std::thread::sleep(Duration::from_millis(5));
                let how = self
                    .io
                    .exit_status()
                    .unwrap_or_else(|| "closed its output".to_string());
                Fault::Crash(format!("{how} while waiting for {waiting_for}"))
            }
        }
    }
}

fn send(io: &mut EngineIo, line: &str) -> Result<(), Fault> {
    send_all(io, &[line])
}

fn send_all(io: &mut EngineIo, lines: &[&str]) -> Result<(), Fault> {
    if super::interrupt::requested() {
        return Err(Fault::Interrupted);
    }
    io.send_all(lines).map_err(|e| {
        let last = lines.last().copied().unwrap_or_default();
        let what = last.split_ascii_whitespace().next().unwrap_or_default();
        Fault::Crash(format!("input pipe broken ({e}) sending {what}"))
    })
}

/// The name in `option name <words...> type ...`.
fn option_name(line: &str) -> Option<String> {
    let mut words = line.split_ascii_whitespace().skip(1);
    if words.next()? != "name" {
        return None;
    }
    let name: Vec<&str> = words.take_while(|&w| w != "type").collect();
    (!name.is_empty()).then(|| name.join(" "))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn info_lines_are_folded() {
        let mut i = SearchInfo::default();
        i.absorb("info depth 3 seldepth 5 score cp -40 nodes 1200 nps 9 pv 3 4 5");
        assert_eq!(i.dropped, 0);
        i.absorb("info depth x score mate 7 string depth 99");
        assert_eq!(i.depth, Some(3));
        assert_eq!(i.score.as_deref(), Some("mate 7"));
        assert_eq!(i.nodes, Some(1200));
        assert_eq!(i.dropped, 1, "depth x");
    }

    #[test]
    fn absurd_info_values_are_dropped_and_counted() {
        let mut i = SearchInfo::default();
        i.absorb("info depth 12 score cp 35 nodes 5000");
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
            i.absorb(line);
        }
        assert_eq!(i.dropped, 9);
        // The last values in range are kept.
        assert_eq!(
            (i.depth, i.score.as_deref(), i.nodes),
            (Some(12), Some("cp 35"), Some(5000))
        );
        i.absorb("info depth 1000 score mate -1000 nodes 1000000000000");
        i.absorb("info score cp -100000 depth 0");
        assert_eq!(
            (i.depth, i.score.as_deref(), i.nodes),
            (Some(0), Some("cp -100000"), Some(1_000_000_000_000))
        );
        assert_eq!(i.dropped, 9);
    }

    #[test]
    fn option_names_may_have_spaces() {
        assert_eq!(
            option_name("option name Move Overhead type spin default 10").as_deref(),
            Some("Move Overhead")
        );
        assert_eq!(option_name("option name type spin"), None);
        assert_eq!(option_name("option garbage"), None);
    }
}
