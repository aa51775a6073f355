//! A protocol compliance checker for any UGI engine (otau or another).
//!
//! [`check`] starts the engine as a process (no shell: a program and its arguments), walks it
//! through the handshake, options, positions with moves, every kind of `go`, `stop`, `isready`
//! during a search and the `query` commands, and reports pass or fail per item with the reason.
//! Every move and answer is judged with this library's own rules, so the checker needs no engine
//! to compare against. It is a client like the arena's referee: it drives the engine through the
//! arena's engine session ([`crate::arena::engine::client::EngineSession`]) and says every line through
//! [`crate::ugi::wire`], so it holds an engine to the same standards as a run does. `otau check`
//! and `otau-arena --check` are thin front ends to it; each starts the arena's guardian
//! ([`crate::arena::system::guardian::Guardian`]) around the check, which the library cannot do itself (the
//! guardian is one per process, and tests run checks in parallel).

use std::fmt;
use std::path::PathBuf;
use std::thread;
use std::time::{Duration, Instant};

use rand::SeedableRng;
use rand_chacha::ChaCha8Rng;

use crate::arena::engine::client::{Awaited, EngineSession, WaitError, EXIT_WAIT};
use crate::arena::engine::preflight::{last_stderr_line, script_hint};
use crate::arena::engine::process::{
    log_file, EngineIo, LogBudget, SendError, Spawn, DEFAULT_WRITE_TIMEOUT, MAX_LINE, MAX_LOG_BYTES,
};
use crate::arena::game::openings::random_walk;
use crate::arena::system::pause;
use crate::games::notation::shorten;
use crate::games::{AnyGame, Game, GameLine, Side, Variant};
use crate::ugi::wire::{
    BestMove, GoCommand, GuiCommand, InfoField, InfoLine, OptionDecl, OptionKind, PositionCommand,
    Query, Reply, ScoreKind, Start,
};

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
    /// Where the engine's stderr is kept (`<dir>/<program's file name>.stderr.log`, as a run
    /// keeps it), so that an engine that exits is reported with its last stderr line and its
    /// log, as a run reports it; `None` discards stderr.
    pub log_dir: Option<PathBuf>,
    /// The log's size bound, as `--log-limit`.
    pub log_limit: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            game: Variant::TOGUZ,
            reply_timeout: Duration::from_secs(5),
            search_timeout: Duration::from_secs(10),
            dir: None,
            seed: 1,
            log_dir: None,
            log_limit: MAX_LOG_BYTES,
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
pub struct ComplianceReport {
    pub engine: String,
    pub items: Vec<Item>,
    /// Why the check ended before its last item (the engine could not be started, did not
    /// complete the handshake, or stopped answering), if it did.
    pub stopped: Option<String>,
}

impl ComplianceReport {
    /// True when no item failed.
    pub fn passed(&self) -> bool {
        self.items.iter().all(|i| i.status != Status::Fail)
    }

    pub fn item(&self, name: &str) -> Option<&Item> {
        self.items.iter().find(|i| i.name == name)
    }
}

impl fmt::Display for ComplianceReport {
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
pub fn check(program: &str, args: &[String], config: &Config) -> ComplianceReport {
    let engine = std::iter::once(program.to_string())
        .chain(args.iter().cloned())
        .collect::<Vec<_>>()
        .join(" ");
    let mut items = Vec::new();
    let mut conn = match CheckedEngine::spawn(program, args, config) {
        Ok(c) => {
            items.push(pass("start", "process started"));
            c
        }
        Err(e) => {
            items.push(fail("start", e));
            return ComplianceReport {
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
    let report = ComplianceReport {
        engine,
        items: checker.items,
        stopped: checker.halted,
    };
    // `quit` was the checker's last word; whatever is left of the engine's process group (a
    // helper it started) is killed now.
    conn.session.shutdown(Duration::from_millis(100));
    report
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

/// `info` lines kept for the syntax check.
const MAX_INFO_LINES: usize = 10_000;

/// The engine under test, driven through the arena's engine session: no shell, its own process
/// group killed on every path (the helpers it started included), the parent-death signal, a
/// bounded line reader with a deadline on every read.
struct CheckedEngine {
    session: EngineSession,
    /// The engine's stderr log and its process id (the log's section for this process).
    log: Option<(PathBuf, u32)>,
    program: String,
}

impl CheckedEngine {
    fn spawn(program: &str, args: &[String], config: &Config) -> Result<CheckedEngine, String> {
        let path = config.log_dir.as_ref().map(|dir| {
            let _ = std::fs::create_dir_all(dir);
            let name = std::path::Path::new(program)
                .file_name()
                .map_or("engine".into(), |n| n.to_string_lossy().into_owned());
            log_file(dir, &name)
        });
        let spawn = Spawn {
            program,
            args,
            dir: config.dir.as_deref(),
            log: path.as_deref(),
        };
        let io = match &path {
            Some(path) => EngineIo::spawn_logged(&spawn, LogBudget::shared(path, config.log_limit)),
            None => EngineIo::spawn(&spawn),
        }
        .map_err(|e| {
            let hint = script_hint(program).map_or(String::new(), |h| format!("; {h}"));
            format!("cannot start '{program}': {e}{hint}")
        })?;
        let log = path.zip(io.pid());
        Ok(CheckedEngine {
            session: EngineSession::new(io, DEFAULT_WRITE_TIMEOUT),
            log,
            program: program.to_string(),
        })
    }

    /// How the engine ended, for a message: its exit status, then, as a run says it, its last
    /// stderr line and its log file (a syntax error or a `\r` in a script's `#!` line is there).
    fn ended(&self) -> String {
        let mut text = String::new();
        if let Some(hint) = script_hint(&self.program) {
            text.push_str(&format!("; {hint}"));
        }
        if let Some((path, pid)) = &self.log {
            if let Some(last) = last_stderr_line(path, *pid) {
                text.push_str(&format!("; its stderr ended: '{last}'"));
            }
            text.push_str(&format!(" (log: {})", path.display()));
        }
        text
    }

    fn send(&mut self, command: &GuiCommand<'_>) -> Result<(), String> {
        self.send_text(command.to_string())
    }

    /// Sends a line as it is (also one that is no command).
    fn send_text(&mut self, line: String) -> Result<(), String> {
        let deadline = pause::now() + DEFAULT_WRITE_TIMEOUT;
        let written = self.session.write(&[line.as_str()], deadline);
        // A write fails when the process is going or gone: say that, it is the real fault.
        written.map_err(|e| match self.session.exit_status(EXIT_WAIT) {
            Some(status) => format!(
                "the engine {status} before '{}' could be sent{}",
                shorten(&line),
                self.ended()
            ),
            _ => {
                let why = match e {
                    SendError::Closed(e) => e.to_string(),
                    e => e.to_string(),
                };
                format!("writing '{}' to the engine: {why}", shorten(&line))
            }
        })
    }

    /// Reads lines until a reply satisfies `done`; returns it and the lines before it. `what`
    /// names the awaited line for messages: "no {what} within N ms".
    fn until(
        &mut self,
        what: &str,
        timeout: Duration,
        done: impl FnMut(&Reply) -> bool,
    ) -> Result<Awaited, String> {
        let deadline = pause::now() + timeout;
        self.session.wait_for(deadline, done).map_err(|e| match e {
            WaitError::TooLong(start) => format!(
                "the engine wrote a line longer than {} bytes ('{}...')",
                MAX_LINE,
                shorten(&start)
            ),
            WaitError::Closed => {
                let how = self
                    .session
                    .exit_status(EXIT_WAIT)
                    .unwrap_or_else(|| "closed its output".to_string());
                format!(
                    "the engine {how} while the checker waited for {what}{}",
                    self.ended()
                )
            }
            WaitError::Timeout { seen, last } => format!(
                "no {what} within {} ms ({})",
                timeout.as_millis(),
                wrote(seen, last.as_ref())
            ),
            WaitError::Interrupted => "interrupted".to_string(),
        })
    }

    /// Waits for `want` (`ugiok`, `readyok`) exactly; returns the lines before it.
    fn exact(&mut self, want: Reply, timeout: Duration) -> Result<Vec<String>, String> {
        self.until(&format!("'{want}'"), timeout, |r| *r == want)
            .map(|a| a.before)
    }

    /// `isready` -> `readyok`; returns the lines before `readyok`.
    fn fence(&mut self, timeout: Duration) -> Result<Vec<String>, String> {
        self.send(&GuiCommand::IsReady)?;
        self.exact(Reply::ReadyOk, timeout)
    }

    /// Sends a query and returns its answer word(s).
    fn query(&mut self, question: Query<'_>, timeout: Duration) -> Result<String, String> {
        self.send(&GuiCommand::Query(question))?;
        let awaited = self.until("'response' line", timeout, |r| {
            matches!(r, Reply::Response(_))
        })?;
        match awaited.reply {
            Reply::Response(words) => Ok(words),
            _ => unreachable!("waited for a response"),
        }
    }

    /// `go` and the `bestmove` it ends with.
    fn bestmove(&mut self, what: &str, timeout: Duration) -> Result<(BestMove, Awaited), String> {
        let awaited = self.until(what, timeout, |r| matches!(r, Reply::BestMove(_)))?;
        match &awaited.reply {
            Reply::BestMove(best) => Ok((best.clone(), awaited)),
            _ => unreachable!("waited for a bestmove"),
        }
    }

    /// Waits up to `timeout` for the process to exit.
    fn wait_exit(&mut self, timeout: Duration) -> bool {
        self.session.exit_status(timeout).is_some()
    }
}

/// Whether any of `lines` is a `bestmove`.
fn any_bestmove(lines: &[String]) -> bool {
    lines
        .iter()
        .any(|l| matches!(Reply::parse(l), Reply::BestMove(_)))
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

struct Checker<'a> {
    engine: &'a mut CheckedEngine,
    config: &'a Config,
    items: Vec<Item>,
    /// Why the check stopped before its last item, if it did.
    halted: Option<String>,
    /// Every `info` line seen with the position it describes, checked at the end.
    info_lines: Vec<(AnyGame, String)>,
}

/// An option declaration as read: well-formed, or why not.
type Declaration = Result<OptionDecl, String>;

/// A `bestmove` reply, judged against the position searched.
struct JudgedMove {
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

    fn handshake(&mut self) -> Result<(String, Vec<Declaration>), String> {
        self.engine.send(&GuiCommand::Hello { uci: false })?;
        let before = self
            .engine
            .exact(Reply::UgiOk { uci: false }, self.config.reply_timeout)?;
        let replies: Vec<Reply> = before.iter().map(|l| Reply::parse(l)).collect();
        let name = replies
            .iter()
            .find_map(|r| match r {
                Reply::IdName(name) => Some(name.clone()),
                _ => None,
            })
            .ok_or("no 'id name' line before ugiok")?;
        let options: Vec<Declaration> = replies
            .into_iter()
            .filter_map(|r| match r {
                Reply::Option(d) => Some(Ok(d)),
                Reply::BadOption(b) => Some(Err(b.why)),
                _ => None,
            })
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
    fn options(&mut self, declarations: &[Declaration]) -> Result<String, String> {
        let mut set = 0;
        for decl in declarations {
            let decl = decl.clone()?;
            if decl.kind == OptionKind::Button {
                continue;
            }
            if let Some(default) = decl.default {
                // The Game option is set separately, to the game under test.
                if decl.name.eq_ignore_ascii_case("game") {
                    continue;
                }
                self.engine.send(&GuiCommand::SetOption {
                    name: decl.name,
                    value: Some(default),
                })?;
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

    fn game_option(&mut self, declarations: &[Declaration]) -> Item {
        let name = "game option";
        let has_game = declarations.iter().any(|d| {
            d.as_ref()
                .is_ok_and(|d| d.name.eq_ignore_ascii_case("game"))
        });
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
            .send(&GuiCommand::SetOption {
                name: "Game".into(),
                value: Some(self.config.game.to_string()),
            })
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
        self.engine.send(&GuiCommand::SetOption {
            name: "NoSuchOptionForSure".into(),
            value: Some("42".into()),
        })?;
        self.engine.fence(self.config.reply_timeout)?;
        Ok("engine still answers".into())
    }

    fn unknown_command(&mut self) -> Result<String, String> {
        self.engine.send(&GuiCommand::Nothing)?;
        self.engine.send_text("xyzzy plugh".into())?;
        self.engine.fence(self.config.reply_timeout)?;
        Ok("blank line and unknown command survived".into())
    }

    fn new_game(&mut self) -> Result<String, String> {
        self.engine.send(&GuiCommand::NewGame)?;
        self.engine.fence(self.config.reply_timeout)?;
        Ok("readyok after uginewgame".into())
    }

    fn expect_queries(&mut self, line: &GameLine<AnyGame>) -> Result<String, String> {
        let t = self.config.reply_timeout;
        let p1turn = self.engine.query(Query::P1Turn, t)?;
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
        let over = self.engine.query(Query::GameOver, t)?;
        let want = if line.is_over() { "true" } else { "false" };
        if over != want {
            return Err(format!(
                "query gameover: 'response {over}', expected {want}"
            ));
        }
        let result = self.engine.query(Query::Result, t)?;
        let want = line.result().map_or("none", |f| f.outcome.ugi());
        if result != want {
            return Err(format!(
                "query result: 'response {result}', expected {want}"
            ));
        }
        Ok(format!("p1turn {p1turn}, gameover {over}, result {result}"))
    }

    fn start_queries(&mut self) -> Result<String, String> {
        self.engine.send(&GuiCommand::Position(PositionCommand {
            start: Start::StartPos,
            moves: Vec::new(),
        }))?;
        let line = GameLine::new(AnyGame::start(self.config.game));
        self.expect_queries(&line)
    }

    /// The move names of `line`, from its start.
    fn move_names(line: &GameLine<AnyGame>) -> Vec<String> {
        let mut pos = line.start().clone();
        let mut names = Vec::new();
        for &mv in line.moves() {
            names.push(pos.move_name(mv));
            pos.play(mv);
        }
        names
    }

    /// `position startpos moves ...` of `line`.
    fn send_line(&mut self, line: &GameLine<AnyGame>) -> Result<(), String> {
        let names = Self::move_names(line);
        self.engine.send(&GuiCommand::Position(PositionCommand {
            start: Start::StartPos,
            moves: names.iter().map(String::as_str).collect(),
        }))
    }

    fn position_moves(&mut self, line: &GameLine<AnyGame>) -> Result<String, String> {
        let moves = Self::move_names(line).join(" ");
        self.send_line(line)?;
        let answers = self.expect_queries(line)?;
        Ok(format!("after '{moves}': {answers}"))
    }

    fn position_fen(&mut self, line: &GameLine<AnyGame>) -> Result<String, String> {
        let fen = line.position().to_string();
        let fields: Vec<&str> = fen.split_ascii_whitespace().collect();
        self.engine.send(&GuiCommand::Position(PositionCommand {
            start: Start::Fen(fields.clone()),
            moves: Vec::new(),
        }))?;
        let fresh = GameLine::new(line.position().clone());
        self.expect_queries(&fresh)?;
        // And with moves after the position string.
        let moves = fresh.position().legal_moves();
        let mv = moves.first().ok_or("no legal move to play after the fen")?;
        let name = fresh.position().move_name(*mv);
        let mut after = fresh.clone();
        after.play(*mv).map_err(|e| e.to_string())?;
        self.engine.send(&GuiCommand::Position(PositionCommand {
            start: Start::Fen(fields),
            moves: vec![&name],
        }))?;
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
        go: &GoCommand,
        timeout: Duration,
    ) -> Result<JudgedMove, String> {
        let started = Instant::now();
        self.engine.send(&GuiCommand::Go(go.clone()))?;
        let (best, awaited) = self.engine.bestmove("bestmove", timeout)?;
        let elapsed = started.elapsed();
        for l in awaited.before {
            let searching_info = matches!(Reply::parse(&l), Reply::Info(i) if i.is_search());
            if searching_info && self.info_lines.len() < MAX_INFO_LINES {
                self.info_lines.push((line.position().clone(), l));
            }
        }
        if best.token.is_empty() || !best.extra.is_empty() {
            return Err(format!(
                "'{}': bestmove must be followed by exactly one move",
                shorten(&awaited.line)
            ));
        }
        let token = best.token;
        let pos = line.position();
        if !line.is_over() {
            match pos.parse_move(&token) {
                Ok(mv) if pos.is_legal(mv) => {}
                Ok(_) => return Err(format!("bestmove '{}' is not legal", shorten(&token))),
                Err(e) => return Err(format!("bestmove: {e}")),
            }
        }
        Ok(JudgedMove { token, elapsed })
    }

    /// `go` and then a fence: exactly one `bestmove` for the `go`.
    fn go_fenced(
        &mut self,
        line: &GameLine<AnyGame>,
        go: &GoCommand,
        timeout: Duration,
    ) -> Result<JudgedMove, String> {
        let best = self.go(line, go, timeout)?;
        let extra = self.engine.fence(self.config.reply_timeout)?;
        if any_bestmove(&extra) {
            return Err("more than one bestmove for one go".into());
        }
        Ok(best)
    }

    fn go_items(&mut self, line: &GameLine<AnyGame>) {
        let mover = line.position().side_to_move().ugi();
        let slack = self.config.search_timeout;
        let go = |set: fn(&mut GoCommand)| {
            let mut go = GoCommand::default();
            set(&mut go);
            go
        };
        let kinds: [(&'static str, GoCommand, Duration, Option<Duration>); 6] = [
            ("go depth", go(|g| g.depth = Some(3)), slack, None),
            ("go nodes", go(|g| g.nodes = Some(2000)), slack, None),
            (
                "go movetime",
                go(|g| g.movetime = Some(300)),
                Duration::from_millis(300) + slack,
                Some(Duration::from_millis(300)),
            ),
            (
                "go clock",
                go(|g| {
                    (g.p1time, g.p2time) = (Some(1000), Some(1000));
                    (g.p1inc, g.p2inc) = (Some(20), Some(20));
                }),
                Duration::from_millis(1000) + slack,
                Some(Duration::from_millis(1020)),
            ),
            (
                "go movestogo",
                go(|g| {
                    (g.p1time, g.p2time) = (Some(1000), Some(1000));
                    g.movestogo = Some(5);
                }),
                Duration::from_millis(1000) + slack,
                Some(Duration::from_millis(1000)),
            ),
            (
                "go combined",
                go(|g| {
                    (g.depth, g.nodes) = (Some(60), Some(100_000_000));
                    g.movetime = Some(200);
                }),
                Duration::from_millis(200) + slack,
                Some(Duration::from_millis(200)),
            ),
        ];
        for (name, args, timeout, budget) in kinds {
            if self.halted.is_some() {
                return;
            }
            let r = self.send_line(line).and_then(|_| {
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
                    "{args} ({mover} to move): bestmove {} after {} ms",
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
        let ready = (|| {
            self.send_line(line)?;
            self.engine.send(&GuiCommand::Go(GoCommand {
                infinite: true,
                ..GoCommand::default()
            }))?;
            thread::sleep(Duration::from_millis(100));
            let asked = Instant::now();
            let before = self.engine.fence(t)?;
            if any_bestmove(&before) {
                return Err("bestmove during go infinite before stop".to_string());
            }
            Ok(format!(
                "readyok in {} ms under go infinite",
                asked.elapsed().as_millis()
            ))
        })();
        let stop = (|| {
            let asked = Instant::now();
            self.engine.send(&GuiCommand::Stop)?;
            let (best, _) = self.engine.bestmove("bestmove after stop", t)?;
            let elapsed = asked.elapsed();
            let token = best.token.as_str();
            let pos = line.position();
            if !pos.parse_move(token).is_ok_and(|mv| pos.is_legal(mv)) {
                return Err(format!(
                    "bestmove '{}' after stop is not legal",
                    shorten(token)
                ));
            }
            let extra = self.engine.fence(t)?;
            if any_bestmove(&extra) {
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
        self.engine.send(&GuiCommand::Stop)?;
        let before = self.engine.fence(self.config.reply_timeout)?;
        if any_bestmove(&before) {
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
        let queries = (|| {
            self.send_line(&line)?;
            let answers = self.expect_queries(&line)?;
            Ok(format!("after {} plies: {answers}", line.moves().len()))
        })();
        let go = (|| {
            let depth = GoCommand {
                depth: Some(3),
                ..GoCommand::default()
            };
            let best = self.go_fenced(&line, &depth, self.config.search_timeout)?;
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
        self.engine.send(&GuiCommand::Quit)?;
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

/// A line of up to `plies` random legal moves from the start (fewer if the game ends first):
/// the arena's own walk ([`random_walk`]).
fn random_line(game: Variant, seed: u64, plies: usize) -> GameLine<AnyGame> {
    random_walk(
        &AnyGame::start(game),
        plies,
        &mut ChaCha8Rng::seed_from_u64(seed),
    )
}

/// Checks one `info` line (not `info string`).
fn check_info(pos: &AnyGame, line: &str, unknown: &mut Vec<String>) -> Result<(), String> {
    let Reply::Info(info) = Reply::parse(line) else {
        return Err("not an info line".into());
    };
    check_fields(pos, &info, unknown)
}

/// Known keys with well-formed values, a PV of legal moves; unknown words are collected.
fn check_fields(pos: &AnyGame, info: &InfoLine, unknown: &mut Vec<String>) -> Result<(), String> {
    let number = |v: &Result<i64, Option<String>>, key: &str| match v {
        Ok(_) => Ok(()),
        Err(Some(t)) => Err(format!("{key} '{}' is not a number", shorten(t))),
        Err(None) => Err(format!("{key} has no value")),
    };
    for field in &info.fields {
        match field {
            InfoField::Number(key, v) => number(v, key.word())?,
            InfoField::Score { kind, value, .. } => match kind {
                Ok(ScoreKind::Cp | ScoreKind::Mate) => number(value, "score")?,
                Err(other) => {
                    return Err(format!(
                        "score must be 'cp <n>' or 'mate <n>', found {:?}",
                        other.as_deref()
                    ))
                }
            },
            InfoField::Pv(moves) => {
                let mut p = pos.clone();
                for token in moves.split_ascii_whitespace() {
                    match p.parse_move(token) {
                        Ok(mv) if p.is_legal(mv) => {
                            p.play(mv);
                        }
                        _ => return Err(format!("pv move '{}' is not legal", shorten(token))),
                    }
                }
            }
            InfoField::String(_) | InfoField::CurrMove(_) => {}
            InfoField::Unknown(word) => unknown.push(shorten(word)),
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

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
