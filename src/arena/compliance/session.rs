//! The engine under test, as the checker talks to it: every send and wait of the check, with
//! the message that names what went wrong (a closed pipe is reported as the exit it is, with
//! the engine's last stderr line and its log, as a run reports it).

use std::path::PathBuf;
use std::time::Duration;

use crate::arena::engine::client::{Awaited, EngineSession, WaitError, EXIT_WAIT};
use crate::arena::engine::preflight::{last_stderr_line, script_hint};
use crate::arena::engine::process::{
    log_file, EngineIo, LogBudget, SendError, Spawn, DEFAULT_WRITE_TIMEOUT, MAX_LINE,
};
use crate::arena::system::pause;
use crate::games::notation::shorten;
use crate::ugi::wire::{BestMove, GuiCommand, Query, Reply};

use super::Config;

/// The engine under test, driven through the arena's engine session: no shell, its own process
/// group killed on every path (the helpers it started included), the parent-death signal, a
/// bounded line reader with a deadline on every read.
pub(super) struct CheckedEngine {
    pub(super) session: EngineSession,
    /// The engine's stderr log and its process id (the log's section for this process).
    log: Option<(PathBuf, u32)>,
    program: String,
}

impl CheckedEngine {
    pub(super) fn spawn(
        program: &str,
        args: &[String],
        config: &Config,
    ) -> Result<CheckedEngine, String> {
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

    pub(super) fn send(&mut self, command: &GuiCommand<'_>) -> Result<(), String> {
        self.send_text(command.to_string())
    }

    /// Sends a line as it is (also one that is no command).
    pub(super) fn send_text(&mut self, line: String) -> Result<(), String> {
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
    pub(super) fn exact(&mut self, want: Reply, timeout: Duration) -> Result<Vec<String>, String> {
        self.until(&format!("'{want}'"), timeout, |r| *r == want)
            .map(|a| a.before)
    }

    /// `isready` -> `readyok`; returns the lines before `readyok`.
    pub(super) fn fence(&mut self, timeout: Duration) -> Result<Vec<String>, String> {
        self.send(&GuiCommand::IsReady)?;
        self.exact(Reply::ReadyOk, timeout)
    }

    /// Sends a query and returns its answer word(s).
    pub(super) fn query(
        &mut self,
        question: Query<'_>,
        timeout: Duration,
    ) -> Result<String, String> {
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
    pub(super) fn bestmove(
        &mut self,
        what: &str,
        timeout: Duration,
    ) -> Result<(BestMove, Awaited), String> {
        let awaited = self.until(what, timeout, |r| matches!(r, Reply::BestMove(_)))?;
        match &awaited.reply {
            Reply::BestMove(best) => Ok((best.clone(), awaited)),
            _ => unreachable!("waited for a bestmove"),
        }
    }

    /// Waits up to `timeout` for the process to exit.
    pub(super) fn wait_exit(&mut self, timeout: Duration) -> bool {
        self.session.exit_status(timeout).is_some()
    }
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
