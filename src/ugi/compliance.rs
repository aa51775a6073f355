//! A protocol compliance checker for any UGI engine (otau or another).
//!
//! [`check`] starts the engine as a process (no shell: a program and its arguments), walks it
//! through the handshake, options, positions with moves, every kind of `go`, `stop`, `isready`
//! during a search and the `query` commands, and reports pass or fail per item with the reason.
//! Every move and answer is judged with this library's own rules, so the checker needs no engine
//! to compare against. `otau check` and `otau-arena --check` are thin front ends to it; each
//! starts the arena's guardian ([`crate::arena::process::Guardian`]) around the check, which the
//! library cannot do itself (the guardian is one per process, and tests run checks in parallel).

use std::fmt;
use std::path::PathBuf;
use std::thread;
use std::time::{Duration, Instant};

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

use crate::arena::process::{EngineIo, Incoming, RecvError, Spawn, MAX_LINE};
use crate::games::{AnyGame, Game, GameLine, Side, Variant};
use crate::notation::shorten;

/// What to check and how patiently.
#[derive(Clone, Debug)]
pub struct Config {
    /// The game the positions are taken from (set through the engine's `Game` option if it has
    /// one; otherwise the engine is assumed to play it already).
    pub game: Variant,
    /// The longest wait for an answer that needs no search (`ugiok`, `readyok`, `response`).
    pub reply_timeout: Duration,
    /// The longest wait for a `bestmove` under a limit that should end quickly (depth 3, 1000
    /// nodes, a short clock), and the slack allowed over `movetime`.
    pub search_timeout: Duration,
    /// Working directory for the engine.
    pub dir: Option<PathBuf>,
    /// Seed of the random moves used to build positions.
    pub seed: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            game: Variant::TOGUZ,
            reply_timeout: Duration::from_secs(5),
            search_timeout: Duration::from_secs(10),
            dir: None,
            seed: 1,
        }
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Status {
    Pass,
    Fail,
    /// Not applicable to this engine (e.g. it has no `Game` option).
    Skip,
}

/// One checked item.
#[derive(Clone, Debug)]
pub struct Item {
    pub name: &'static str,
    pub status: Status,
    pub detail: String,
}

/// The outcome of a whole check.
#[derive(Clone, Debug)]
pub struct Report {
    pub engine: String,
    pub items: Vec<Item>,
    /// Why the check ended before its last item (the engine could not be started, did not
    /// complete the handshake, or stopped answering), if it did.
    pub stopped: Option<String>,
}

impl Report {
    /// True when no item failed.
    pub fn passed(&self) -> bool {
        self.items.iter().all(|i| i.status != Status::Fail)
    }

    pub fn item(&self, name: &str) -> Option<&Item> {
        self.items.iter().find(|i| i.name == name)
    }
}

impl fmt::Display for Report {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        writeln!(f, "UGI compliance of {}", self.engine)?;
        for item in &self.items {
            let status = match item.status {
                Status::Pass => "PASS",
                Status::Fail => "FAIL",
                Status::Skip => "SKIP",
            };
            writeln!(f, "{status} {:<22} {}", item.name, item.detail)?;
        }
        if let Some(why) = &self.stopped {
            writeln!(f, "check stopped: {why}")?;
        }
        let count = |s| self.items.iter().filter(|i| i.status == s).count();
        write!(
            f,
            "{} passed, {} failed, {} skipped: {}",
            count(Status::Pass),
            count(Status::Fail),
            count(Status::Skip),
            if self.passed() {
                "COMPLIANT"
            } else {
                "NOT COMPLIANT"
            }
        )
    }
}

/// Runs every check against `program args...` and reports per item. Never panics on engine
/// behaviour; an engine that cannot be started fails the first item and every later one.
pub fn check(program: &str, args: &[String], config: &Config) -> Report {
    let engine = std::iter::once(program.to_string())
        .chain(args.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    let mut items = Vec::new();
    let mut conn = match Engine::spawn(program, args, config) {
        Ok(c) => {
            items.push(pass("start", "process started"));
            c
        }
        Err(e) => {
            items.push(fail("start", e));
            return Report {
                engine,
                items,
                stopped: Some("the engine could not be started".into()),
            };
        }
    };
    let mut checker = Checker {
        engine: &mut conn,
        config,
        items,
        halted: None,
        info_lines: Vec::new(),
    };
    checker.run();
    Report {
        engine,
        items: checker.items,
        stopped: checker.halted,
    }
}

fn pass(name: &'static str, detail: impl Into<String>) -> Item {
    Item {
        name,
        status: Status::Pass,
        detail: detail.into(),
    }
}

fn fail(name: &'static str, detail: impl Into<String>) -> Item {
    Item {
        name,
        status: Status::Fail,
        detail: detail.into(),
    }
}

fn skip(name: &'static str, detail: impl Into<String>) -> Item {
    Item {
        name,
        status: Status::Skip,
        detail: detail.into(),
    }
}

/// Output kept while waiting for one reply.
const MAX_KEPT_BYTES: usize = 16 << 20;
/// `info` lines kept for the syntax check.
const MAX_INFO_LINES: usize = 10_000;

/// The engine under test, driven through the arena's own engine process code
/// ([`crate::arena::process::EngineIo`]): no shell, its own process group killed on every path
/// (the helpers it started included), the parent-death signal, a bounded line reader with a
/// deadline on every read. The checker holds an engine to the same standards as a run does.
struct Engine {
    io: EngineIo,
}

impl Engine {
    fn spawn(program: &str, args: &[String], config: &Config) -> Result<Engine, String> {
        let io = EngineIo::spawn(&Spawn {
            program,
            args,
            dir: config.dir.as_deref(),
            log: None,
        })
        .map_err(|e| format!("cannot start '{program}': {e}"))?;
        Ok(Engine { io })
    }

    fn send(&mut self, line: &str) -> Result<(), String> {
        let written = self.io.send(line);
        // A write fails when the process is going or gone: say that, it is the real fault.
        written.map_err(|e| match self.exit_status(Duration::from_millis(200)) {
            Some(status) => format!(
                "the engine {status} before '{}' could be sent",
                shorten(line)
            ),
            _ => format!("writing '{}' to the engine: {e}", shorten(line)),
        })
    }

    /// Reads lines until one satisfies `done`; returns it and the lines before it. `what` names
    /// the awaited line for messages: "no {what} within N ms".
    fn until(
        &mut self,
        what: &str,
        timeout: Duration,
        done: impl Fn(&str) -> bool,
    ) -> Result<(String, Vec<String>), String> {
        let deadline = Instant::now() + timeout;
        let mut before: Vec<String> = Vec::new();
        let mut kept_bytes = 0usize;
        let mut seen = 0usize;
        loop {
            match self.io.recv(deadline) {
                Ok(Incoming::Line(line)) => {
                    if done(&line) {
                        return Ok((line, before));
                    }
                    seen += 1;
                    // Keep a bounded amount: a flooding engine must not exhaust our memory.
                    if kept_bytes < MAX_KEPT_BYTES {
                        kept_bytes += line.len();
                        before.push(line);
                    }
                }
                Ok(Incoming::TooLong(start)) => {
                    return Err(format!(
                        "the engine wrote a line longer than {} bytes ('{}...')",
                        MAX_LINE,
                        shorten(&start)
                    ))
                }
                Err(RecvError::Closed) => {
                    let how = self
                        .exit_status(Duration::from_millis(200))
                        .unwrap_or_else(|| "closed its output".to_string());
                    return Err(format!(
                        "the engine {how} while the checker waited for {what}"
                    ));
                }
                Err(RecvError::Timeout) => {
                    return Err(format!(
                        "no {what} within {} ms ({})",
                        timeout.as_millis(),
                        wrote(seen, before.last())
                    ))
                }
                Err(RecvError::Interrupted) => return Err("interrupted".to_string()),
            }
        }
    }

    fn exact(&mut self, word: &str, timeout: Duration) -> Result<Vec<String>, String> {
        self.until(&format!("'{word}'"), timeout, |l| l.trim() == word)
            .map(|(_, before)| before)
    }

    /// `isready` -> `readyok`; returns the lines before `readyok`.
    fn fence(&mut self, timeout: Duration) -> Result<Vec<String>, String> {
        self.send("isready")?;
        self.exact("readyok", timeout)
    }

    /// Sends a query and returns its answer word(s).
    fn query(&mut self, question: &str, timeout: Duration) -> Result<String, String> {
        self.send(&format!("query {question}"))?;
        let (line, _) = self.until("'response' line", timeout, |l| {
            l.split_ascii_whitespace().next() == Some("response")
        })?;
        Ok(line
            .split_ascii_whitespace()
            .skip(1)
            .collect::<Vec<_>>()
            .join(" "))
    }

    /// Waits up to `timeout` for the process to exit.
    fn wait_exit(&mut self, timeout: Duration) -> bool {
        self.exit_status(timeout).is_some()
    }

    /// How the process ended ("exited with code 0"), waiting up to `timeout` for it to end.
    fn exit_status(&mut self, timeout: Duration) -> Option<String> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.io.exit_status() {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }
}

/// The start of a message, up to its first parenthesis (the cause without its details).
fn first_clause(message: &str) -> &str {
    message.split(" (").next().unwrap_or(message)
}

/// What the engine wrote while the checker waited, for a timeout message.
fn wrote(lines: usize, last: Option<&String>) -> String {
    match (lines, last) {
        (0, _) | (_, None) => "the engine wrote nothing".to_string(),
        (1, Some(l)) => format!("the engine wrote 1 other line: '{}'", shorten(l)),
        (n, Some(l)) => format!(
            "the engine wrote {n} other lines, the last '{}'",
            shorten(l)
        ),
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        // `quit` was the checker's last word; whatever is left of the engine's process group
        // (a helper it started) is killed now.
        self.io.shutdown(Duration::from_millis(100));
    }
}

struct Checker<'a> {
    engine: &'a mut Engine,
    config: &'a Config,
    items: Vec<Item>,
    /// Why the check stopped before its last item, if it did.
    halted: Option<String>,
    /// Every `info` line seen with the position it describes, checked at the end.
    info_lines: Vec<(AnyGame, String)>,
}

/// A `bestmove` reply, judged against the position searched.
struct BestMove {
    token: String,
    elapsed: Duration,
}

impl Checker<'_> {
    fn record(&mut self, name: &'static str, result: Result<String, String>) {
        self.push(match result {
            Ok(detail) => pass(name, detail),
            Err(detail) => fail(name, detail),
        });
    }

    /// Adds an item; after a failure, checks the engine still answers `isready` and halts the
    /// check if it does not.
    fn push(&mut self, item: Item) {
        let failed = item.status == Status::Fail;
        let name = item.name;
        self.items.push(item);
        if !failed || self.halted.is_some() {
            return;
        }
        if let Err(e) = self.engine.fence(self.config.reply_timeout) {
            self.halted = Some(format!(
                "after '{name}' failed, the engine no longer answers isready ({}): nothing more \
                 was checked",
                first_clause(&e)
            ));
        }
    }

    /// Every item in order. A failed handshake ends the check (an engine that does not speak
    /// UGI gets one verdict, not a timeout per item), and so does an engine that, after an item
    /// failed, no longer answers `isready`: the check takes at most a few timeouts past its
    /// last sign of life.
    fn run(&mut self) {
        macro_rules! go_on {
            () => {
                if self.halted.is_some() {
                    return;
                }
            };
        }
        let r = self.handshake();
        let options = r.as_ref().map(|(_, o)| o.clone()).unwrap_or_default();
        if let Err(e) = &r {
            self.halted = Some(format!(
                "no UGI handshake ({}): nothing else was checked",
                first_clause(e)
            ));
        }
        self.record("handshake", r.map(|(d, _)| d));
        go_on!();
        let r = self.isready();
        self.record("isready", r);
        go_on!();
        let r = self.options(&options);
        self.record("options", r);
        go_on!();
        let game = self.game_option(&options);
        self.push(game);
        go_on!();
        let r = self.unknown_option();
        self.record("unknown option", r);
        go_on!();
        let r = self.unknown_command();
        self.record("unknown command", r);
        go_on!();
        let r = self.new_game();
        self.record("uginewgame", r);
        go_on!();
        let r = self.start_queries();
        self.record("query at start", r);
        go_on!();
        let line = random_line(self.config.game, self.config.seed, 6);
        let r = self.position_moves(&line);
        self.record("position moves", r);
        go_on!();
        let r = self.position_fen(&line);
        self.record("position fen", r);
        go_on!();
        self.go_items(&line);
        go_on!();
        let r = self.search_control(&line);
        self.record("isready during search", r.0);
        self.record("stop", r.1);
        go_on!();
        let r = self.stop_idle();
        self.record("stop while idle", r);
        go_on!();
        let r = self.finished_game();
        match r {
            Some((q, g)) => {
                self.record("query finished game", q);
                self.record("go in finished game", g);
            }
            None => self.push(skip(
                "query finished game",
                "no random game ended within 5000 plies",
            )),
        }
        go_on!();
        let r = self.info_syntax();
        self.record("info lines", r);
        let r = self.quit();
        self.record("quit", r);
    }

    fn handshake(&mut self) -> Result<(String, Vec<String>), String> {
        self.engine.send("ugi")?;
        let before = self.engine.exact("ugiok", self.config.reply_timeout)?;
        let name = before
            .iter()
            .find_map(|l| l.strip_prefix("id name "))
            .ok_or("no 'id name' line before ugiok")?
            .to_string();
        let options: Vec<String> = before
            .iter()
            .filter(|l| l.starts_with("option "))
            .cloned()
            .collect();
        Ok((
            format!("'{}', {} options", shorten(&name), options.len()),
            options,
        ))
    }

    fn isready(&mut self) -> Result<String, String> {
        let t = Instant::now();
        self.engine.fence(self.config.reply_timeout)?;
        Ok(format!("readyok in {} ms", t.elapsed().as_millis()))
    }

    /// Checks every option declaration's syntax, then sets each option to its own default.
    fn options(&mut self, declarations: &[String]) -> Result<String, String> {
        let mut set = 0;
        for line in declarations {
            let decl = OptionDecl::parse(line)?;
            if decl.kind == "button" {
                continue;
            }
            if let Some(default) = decl.default {
                // The Game option is set separately, to the game under test.
                if decl.name.eq_ignore_ascii_case("game") {
                    continue;
                }
                self.engine
                    .send(&format!("setoption name {} value {default}", decl.name))?;
                set += 1;
            }
        }
        let before = self.engine.fence(self.config.reply_timeout)?;
        if let Some(err) = before.iter().find(|l| l.contains("error")) {
            return Err(format!(
                "setting an option to its default gave '{}'",
                shorten(err)
            ));
        }
        Ok(format!(
            "{} declarations well-formed, {set} set to their defaults",
            declarations.len()
        ))
    }

    fn game_option(&mut self, declarations: &[String]) -> Item {
        let name = "game option";
        let has_game = declarations
            .iter()
            .any(|l| OptionDecl::parse(l).is_ok_and(|d| d.name.eq_ignore_ascii_case("game")));
        if !has_game {
            return skip(
                name,
                format!(
                    "no Game option: assuming the engine plays {}",
                    self.config.game
                ),
            );
        }
        let r = self
            .engine
            .send(&format!("setoption name Game value {}", self.config.game))
            .and_then(|_| self.engine.fence(self.config.reply_timeout));
        match r {
            Ok(before) => match before.iter().find(|l| l.contains("error")) {
                Some(e) => fail(name, format!("'{}'", shorten(e))),
                None => pass(name, format!("Game set to {}", self.config.game)),
            },
            Err(e) => fail(name, e),
        }
    }

    fn unknown_option(&mut self) -> Result<String, String> {
        self.engine
            .send("setoption name NoSuchOptionForSure value 42")?;
        self.engine.fence(self.config.reply_timeout)?;
        Ok("engine still answers".into())
    }

    fn unknown_command(&mut self) -> Result<String, String> {
        self.engine.send("")?;
        self.engine.send("xyzzy plugh")?;
        self.engine.fence(self.config.reply_timeout)?;
        Ok("blank line and unknown command survived".into())
    }

    fn new_game(&mut self) -> Result<String, String> {
        self.engine.send("uginewgame")?;
        self.engine.fence(self.config.reply_timeout)?;
        Ok("readyok after uginewgame".into())
    }

    fn expect_queries(&mut self, line: &GameLine<AnyGame>) -> Result<String, String> {
        let t = self.config.reply_timeout;
        let p1turn = self.engine.query("p1turn", t)?;
        let want = if line.position().side_to_move() == Side::South {
            "true"
        } else {
            "false"
        };
        if p1turn != want {
            return Err(format!(
                "query p1turn: 'response {p1turn}', expected {want}"
            ));
        }
        let over = self.engine.query("gameover", t)?;
        let want = if line.is_over() { "true" } else { "false" };
        if over != want {
            return Err(format!(
                "query gameover: 'response {over}', expected {want}"
            ));
        }
        let result = self.engine.query("result", t)?;
        let want = line.result().map_or("none", |f| f.outcome.ugi());
        if result != want {
            return Err(format!(
                "query result: 'response {result}', expected {want}"
            ));
        }
        Ok(format!("p1turn {p1turn}, gameover {over}, result {result}"))
    }

    fn start_queries(&mut self) -> Result<String, String> {
        self.engine.send("position startpos")?;
        let line = GameLine::new(AnyGame::start(self.config.game));
        self.expect_queries(&line)
    }

    fn moves_text(line: &GameLine<AnyGame>) -> String {
        let mut pos = line.start().clone();
        let mut names = Vec::new();
        for &mv in line.moves() {
            names.push(pos.move_name(mv));
            pos.play(mv);
        }
        names.join(" ")
    }

    fn position_moves(&mut self, line: &GameLine<AnyGame>) -> Result<String, String> {
        let moves = Self::moves_text(line);
        self.engine
            .send(&format!("position startpos moves {moves}"))?;
        let answers = self.expect_queries(line)?;
        Ok(format!("after '{moves}': {answers}"))
    }

    fn position_fen(&mut self, line: &GameLine<AnyGame>) -> Result<String, String> {
        let fen = line.position().to_string();
        self.engine.send(&format!("position fen {fen}"))?;
        let fresh = GameLine::new(line.position().clone());
        self.expect_queries(&fresh)?;
        // And with moves after the position string.
        let moves = fresh.position().legal_moves();
        let mv = moves.first().ok_or("no legal move to play after the fen")?;
        let name = fresh.position().move_name(*mv);
        let mut after = fresh.clone();
        after.play(*mv).map_err(|e| e.to_string())?;
        self.engine
            .send(&format!("position fen {fen} moves {name}"))?;
        self.expect_queries(&after)?;
        Ok(format!(
            "'{fen}' and '... moves {name}' agree with the rules"
        ))
    }

    /// Sends `go <args>` and waits for `bestmove`, checking it is a legal move of `line`'s
    /// position and that the reply has exactly two tokens.
    fn go(
        &mut self,
        line: &GameLine<AnyGame>,
        args: &str,
        timeout: Duration,
    ) -> Result<BestMove, String> {
        let started = Instant::now();
        self.engine.send(&format!("go {args}"))?;
        let (reply, before) = self.engine.until("bestmove", timeout, |l| {
            l.split_ascii_whitespace().next() == Some("bestmove")
        })?;
        let elapsed = started.elapsed();
        for l in before {
            let searching_info = l.starts_with("info ") && !l.starts_with("info string");
            if searching_info && self.info_lines.len() < MAX_INFO_LINES {
                self.info_lines.push((line.position().clone(), l));
            }
        }
        let tokens: Vec<&str> = reply.split_ascii_whitespace().collect();
        if tokens.len() != 2 {
            return Err(format!(
                "'{}': bestmove must be followed by exactly one move",
                shorten(&reply)
            ));
        }
        let token = tokens[1].to_string();
        let pos = line.position();
        if !line.is_over() {
            match pos.parse_move(&token) {
                Ok(mv) if pos.is_legal(mv) => {}
                Ok(_) => return Err(format!("bestmove '{}' is not legal", shorten(&token))),
                Err(e) => return Err(format!("bestmove: {e}")),
            }
        }
        Ok(BestMove { token, elapsed })
    }

    /// `go` and then a fence: exactly one `bestmove` for the `go`.
    fn go_fenced(
        &mut self,
        line: &GameLine<AnyGame>,
        args: &str,
        timeout: Duration,
    ) -> Result<BestMove, String> {
        let best = self.go(line, args, timeout)?;
        let extra = self.engine.fence(self.config.reply_timeout)?;
        if extra.iter().any(|l| l.starts_with("bestmove")) {
            return Err("more than one bestmove for one go".into());
        }
        Ok(best)
    }

    fn go_items(&mut self, line: &GameLine<AnyGame>) {
        let moves = Self::moves_text(line);
        let position = format!("position startpos moves {moves}");
        let mover = line.position().side_to_move().ugi();
        let slack = self.config.search_timeout;
        let kinds: [(&'static str, String, Duration, Option<Duration>); 6] = [
            ("go depth", "depth 3".into(), slack, None),
            ("go nodes", "nodes 2000".into(), slack, None),
            (
                "go movetime",
                "movetime 300".into(),
                Duration::from_millis(300) + slack,
                Some(Duration::from_millis(300)),
            ),
            (
                "go clock",
                "p1time 1000 p2time 1000 p1inc 20 p2inc 20".into(),
                Duration::from_millis(1000) + slack,
                Some(Duration::from_millis(1020)),
            ),
            (
                "go movestogo",
                "p1time 1000 p2time 1000 movestogo 5".into(),
                Duration::from_millis(1000) + slack,
                Some(Duration::from_millis(1000)),
            ),
            (
                "go combined",
                "depth 60 nodes 100000000 movetime 200".into(),
                Duration::from_millis(200) + slack,
                Some(Duration::from_millis(200)),
            ),
        ];
        for (name, args, timeout, budget) in kinds {
            if self.halted.is_some() {
                return;
            }
            let r = self.engine.send(&position).and_then(|_| {
                let best = self.go_fenced(line, &args, timeout)?;
                if let Some(budget) = budget {
                    // Generous: the limit plus the reply timeout (a loaded machine is not a fault).
                    if best.elapsed > budget + self.config.reply_timeout {
                        return Err(format!(
                            "bestmove after {} ms, the limit was {} ms",
                            best.elapsed.as_millis(),
                            budget.as_millis()
                        ));
                    }
                }
                Ok(format!(
                    "go {args} ({mover} to move): bestmove {} after {} ms",
                    best.token,
                    best.elapsed.as_millis()
                ))
            });
            self.record(name, r);
        }
    }

    /// `go infinite`, `isready` while it runs (answered, no `bestmove` yet), then `stop`.
    fn search_control(
        &mut self,
        line: &GameLine<AnyGame>,
    ) -> (Result<String, String>, Result<String, String>) {
        let t = self.config.reply_timeout;
        let position = format!("position startpos moves {}", Self::moves_text(line));
        let ready = (|| {
            self.engine.send(&position)?;
            self.engine.send("go infinite")?;
            thread::sleep(Duration::from_millis(100));
            let asked = Instant::now();
            let before = self.engine.fence(t)?;
            if before.iter().any(|l| l.starts_with("bestmove")) {
                return Err("bestmove during go infinite before stop".to_string());
            }
            Ok(format!(
                "readyok in {} ms under go infinite",
                asked.elapsed().as_millis()
            ))
        })();
        let stop = (|| {
            let asked = Instant::now();
            self.engine.send("stop")?;
            let (reply, _) = self.engine.until("bestmove after stop", t, |l| {
                l.split_ascii_whitespace().next() == Some("bestmove")
            })?;
            let elapsed = asked.elapsed();
            let token = reply.split_ascii_whitespace().nth(1).unwrap_or("");
            let pos = line.position();
            if !pos.parse_move(token).is_ok_and(|mv| pos.is_legal(mv)) {
                return Err(format!(
                    "bestmove '{}' after stop is not legal",
                    shorten(token)
                ));
            }
            let extra = self.engine.fence(t)?;
            if extra.iter().any(|l| l.starts_with("bestmove")) {
                return Err("more than one bestmove after stop".to_string());
            }
            Ok(format!(
                "bestmove {token} {} ms after stop",
                elapsed.as_millis()
            ))
        })();
        (ready, stop)
    }

    fn stop_idle(&mut self) -> Result<String, String> {
        self.engine.send("stop")?;
        let before = self.engine.fence(self.config.reply_timeout)?;
        if before.iter().any(|l| l.starts_with("bestmove")) {
            return Err("bestmove after stop with no search running".into());
        }
        Ok("no bestmove, still ready".into())
    }

    /// A random game played to its end: the engine must agree it is over and who won.
    fn finished_game(&mut self) -> Option<(Result<String, String>, Result<String, String>)> {
        // Some seeds wander; try a few before giving up.
        let line = (0..10)
            .map(|k| random_line(self.config.game, self.config.seed.wrapping_add(k), 5000))
            .find(|line| line.is_over())?;
        let moves = Self::moves_text(&line);
        let queries = (|| {
            self.engine
                .send(&format!("position startpos moves {moves}"))?;
            let answers = self.expect_queries(&line)?;
            Ok(format!("after {} plies: {answers}", line.moves().len()))
        })();
        let go = (|| {
            let best = self.go_fenced(&line, "depth 3", self.config.search_timeout)?;
            Ok(format!("bestmove {} (the game is over)", best.token))
        })();
        Some((queries, go))
    }

    /// Every `info` line seen: known keys with well-formed values, a PV of legal moves.
    fn info_syntax(&mut self) -> Result<String, String> {
        if self.info_lines.is_empty() {
            return Err("no info line during any search".into());
        }
        let mut unknown = Vec::new();
        for (pos, line) in &self.info_lines {
            check_info(pos, line, &mut unknown).map_err(|e| format!("'{}': {e}", shorten(line)))?;
        }
        let mut detail = format!("{} info lines well-formed", self.info_lines.len());
        if !unknown.is_empty() {
            unknown.sort();
            unknown.dedup();
            detail.push_str(&format!(" (unknown keys ignored: {})", unknown.join(" ")));
        }
        Ok(detail)
    }

    fn quit(&mut self) -> Result<String, String> {
        let asked = Instant::now();
        self.engine.send("quit")?;
        if self.engine.wait_exit(self.config.reply_timeout) {
            Ok(format!(
                "exited {} ms after quit",
                asked.elapsed().as_millis()
            ))
        } else {
            Err(format!(
                "still running {} ms after quit",
                self.config.reply_timeout.as_millis()
            ))
        }
    }
}

/// A line of up to `plies` random legal moves from the start (fewer if the game ends first).
fn random_line(game: Variant, seed: u64, plies: usize) -> GameLine<AnyGame> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut line = GameLine::new(AnyGame::start(game));
    for _ in 0..plies {
        let moves = line.position().legal_moves();
        if line.is_over() || moves.is_empty() {
            break;
        }
        let mv = moves[rng.gen_range(0..moves.len())];
        if line.play(mv).is_err() {
            break;
        }
    }
    line
}

/// Checks one `info` line (not `info string`).
fn check_info(pos: &AnyGame, line: &str, unknown: &mut Vec<String>) -> Result<(), String> {
    let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
    let mut i = 1;
    let number = |i: usize, key: &str| -> Result<(), String> {
        match tokens.get(i) {
            Some(t) if t.parse::<i64>().is_ok() => Ok(()),
            Some(t) => Err(format!("{key} '{}' is not a number", shorten(t))),
            None => Err(format!("{key} has no value")),
        }
    };
    while i < tokens.len() {
        let key = tokens[i];
        match key {
            "depth" | "seldepth" | "nodes" | "nps" | "time" | "hashfull" | "multipv" | "tbhits"
            | "tthits" | "currmovenumber" => {
                number(i + 1, key)?;
                i += 2;
            }
            "score" => {
                match tokens.get(i + 1) {
                    Some(&"cp") | Some(&"mate") => number(i + 2, "score")?,
                    other => {
                        return Err(format!(
                            "score must be 'cp <n>' or 'mate <n>', found {:?}",
                            other
                        ))
                    }
                }
                i += 3;
                while matches!(tokens.get(i), Some(&"lowerbound") | Some(&"upperbound")) {
                    i += 1;
                }
            }
            "pv" => {
                let mut p = pos.clone();
                for token in &tokens[i + 1..] {
                    match p.parse_move(token) {
                        Ok(mv) if p.is_legal(mv) => {
                            p.play(mv);
                        }
                        _ => return Err(format!("pv move '{}' is not legal", shorten(token))),
                    }
                }
                i = tokens.len();
            }
            "string" => i = tokens.len(),
            "currmove" => i += 2,
            other => {
                unknown.push(shorten(other));
                i += 1;
            }
        }
    }
    Ok(())
}

/// One `option name <name> type <type> [default <v>] [min <n>] [max <n>] [var <v>]...` line.
struct OptionDecl {
    name: String,
    kind: String,
    default: Option<String>,
}

impl OptionDecl {
    fn parse(line: &str) -> Result<OptionDecl, String> {
        let bad = |why: &str| format!("'{}': {why}", shorten(line));
        let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
        if tokens.get(1) != Some(&"name") {
            return Err(bad("expected 'option name'"));
        }
        let type_at = tokens
            .iter()
            .position(|&t| t == "type")
            .ok_or_else(|| bad("no 'type'"))?;
        if type_at < 3 {
            return Err(bad("empty option name"));
        }
        let name = tokens[2..type_at].join(" ");
        let kind = tokens
            .get(type_at + 1)
            .ok_or_else(|| bad("no type after 'type'"))?
            .to_string();
        if !matches!(
            kind.as_str(),
            "check" | "spin" | "combo" | "button" | "string"
        ) {
            return Err(bad("type must be check, spin, combo, button or string"));
        }
        let rest = &tokens[type_at + 2..];
        let value_after = |key: &str| -> Option<String> {
            rest.iter()
                .position(|&t| t == key)
                .and_then(|i| rest.get(i + 1))
                .map(|s| s.to_string())
        };
        let default = value_after("default");
        match kind.as_str() {
            "spin" => {
                let num = |key: &str| -> Result<i64, String> {
                    value_after(key)
                        .and_then(|v| v.parse::<i64>().ok())
                        .ok_or_else(|| bad(&format!("spin needs a numeric {key}")))
                };
                let (d, lo, hi) = (num("default")?, num("min")?, num("max")?);
                if !(lo <= d && d <= hi) {
                    return Err(bad("default outside min..max"));
                }
            }
            "combo" => {
                let d = default
                    .clone()
                    .ok_or_else(|| bad("combo needs a default"))?;
                let vars: Vec<&str> = rest
                    .windows(2)
                    .filter(|w| w[0] == "var")
                    .map(|w| w[1])
                    .collect();
                if !vars.contains(&d.as_str()) {
                    return Err(bad("combo default is not one of its vars"));
                }
            }
            "check" if !matches!(default.as_deref(), Some("true") | Some("false")) => {
                return Err(bad("check default must be true or false"));
            }
            _ => {}
        }
        Ok(OptionDecl {
            name,
            kind,
            default,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn option_declarations() {
        let d = OptionDecl::parse("option name Move Overhead type spin default 10 min 0 max 50")
            .unwrap();
        assert_eq!(d.name, "Move Overhead");
        assert_eq!(d.default.as_deref(), Some("10"));
        for bad in [
            "option Hash type spin default 1 min 0 max 2",
            "option name Hash type spin default 9 min 0 max 2",
            "option name Hash type spin min 0 max 2",
            "option name Game type combo default chess var go",
            "option name X type knob",
            "option name type spin",
            "option name Ponder type check default maybe",
        ] {
            assert!(OptionDecl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn info_lines() {
        let pos = AnyGame::start(Variant::TOGUZ);
        let mut unknown = vec![];
        check_info(
            &pos,
            "info depth 3 seldepth 5 score cp -12 nodes 100 nps 5 time 2 hashfull 0 pv 1 2 3",
            &mut unknown,
        )
        .unwrap();
        check_info(&pos, "info depth 1 score mate -3 wdl 1 2 3", &mut unknown).unwrap();
        assert!(unknown.contains(&"wdl".to_string()));
        assert!(check_info(&pos, "info depth x", &mut unknown).is_err());
        assert!(check_info(&pos, "info score 12", &mut unknown).is_err());
        assert!(check_info(&pos, "info pv 1 0", &mut unknown).is_err());
    }
}
