//! Drives the real `otau` binary through pipes for the UGI tests. What the tests send is theirs
//! to write (malformed lines and aliases included); the replies are read with the protocol's own
//! types ([`otau::ugi::wire`]), as the arena and the checker read them.
//!
//! Every wait has a generous timeout so a broken engine fails the test instead of hanging it;
//! nothing here asserts on timing.

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

use otau::ugi::wire::{self, Query, Reply};

/// Long enough for a loaded CI machine, short enough that a hang fails in reasonable time.
pub const TIMEOUT: Duration = Duration::from_secs(30);

pub struct Engine {
    child: Child,
    stdin: Option<ChildStdin>,
    lines: Receiver<String>,
    /// Every line read so far, for failure messages.
    pub log: Vec<String>,
}

impl Engine {
    pub fn start(args: &[&str]) -> Engine {
        let mut command = crate::support::otau();
        command.args(args);
        Engine::start_command(command)
    }

    /// Starts otau from a prepared command (extra environment, resource limits).
    pub fn start_command(mut command: Command) -> Engine {
        let mut child = command
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .expect("starting otau");
        let stdin = child.stdin.take();
        let stdout = child.stdout.take().unwrap();
        let (tx, lines) = mpsc::channel();
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { return };
                if tx.send(line).is_err() {
                    return;
                }
            }
        });
        Engine {
            child,
            stdin,
            lines,
            log: Vec::new(),
        }
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    pub fn send(&mut self, line: &str) {
        self.send_raw(format!("{line}\n").as_bytes());
    }

    pub fn send_raw(&mut self, bytes: &[u8]) {
        let stdin = self.stdin.as_mut().expect("stdin open");
        stdin.write_all(bytes).expect("writing to otau");
        stdin.flush().expect("flushing to otau");
    }

    pub fn close_stdin(&mut self) {
        self.stdin = None;
    }

    /// The next line, or None when the engine closed its output.
    pub fn next_line(&mut self, timeout: Duration) -> Option<String> {
        match self.lines.recv_timeout(timeout) {
            Ok(line) => {
                self.log.push(line.clone());
                Some(line)
            }
            Err(RecvTimeoutError::Disconnected) => None,
            Err(RecvTimeoutError::Timeout) => panic!(
                "no output within {timeout:?}; last lines: {:?}",
                self.tail()
            ),
        }
    }

    fn tail(&self) -> &[String] {
        &self.log[self.log.len().saturating_sub(10)..]
    }

    /// Reads until a line satisfies `done`; returns it and the lines before it.
    pub fn until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> (String, Vec<String>) {
        self.until_within(what, TIMEOUT, done)
    }

    /// [`Engine::until`] with a wait of its own (for a reply that legitimately takes long).
    pub fn until_within(
        &mut self,
        what: &str,
        timeout: Duration,
        done: impl Fn(&str) -> bool,
    ) -> (String, Vec<String>) {
        let deadline = Instant::now() + timeout;
        let mut before = Vec::new();
        loop {
            let left = deadline.saturating_duration_since(Instant::now());
            let Some(line) = self.next_line(left) else {
                panic!(
                    "output ended waiting for {what}; last lines: {:?}",
                    self.tail()
                );
            };
            if done(&line) {
                return (line, before);
            }
            before.push(line);
        }
    }

    /// Reads until exactly `line`; returns the lines before it.
    pub fn expect(&mut self, line: &str) -> Vec<String> {
        self.until(line, |l| l == line).1
    }

    /// `isready` -> `readyok`: everything the engine said before it.
    pub fn fence(&mut self) -> Vec<String> {
        self.send(&wire::GuiCommand::IsReady.to_string());
        self.until("readyok", |l| Reply::parse(l) == Reply::ReadyOk)
            .1
    }

    /// Sends a command and returns what it printed (fenced by `isready`).
    pub fn lines_of(&mut self, command: &str) -> Vec<String> {
        self.send(command);
        self.fence()
    }

    /// A `query` and the words of its `response`.
    pub fn query(&mut self, question: Query<'_>) -> String {
        self.send(&wire::GuiCommand::Query(question).to_string());
        let (line, _) = self.until("response", |l| {
            matches!(Reply::parse(l), Reply::Response(_))
        });
        match Reply::parse(&line) {
            Reply::Response(words) => words,
            _ => unreachable!("waited for a response"),
        }
    }

    /// `go ...` -> the move of `bestmove` and the lines before it. The arguments go out as
    /// written: the tests try the engine's aliases (`wtime`) and odd orders too.
    pub fn go(&mut self, args: &str) -> (String, Vec<String>) {
        self.send(&format!("go {args}"));
        self.bestmove()
    }

    /// The next `bestmove`'s move (exactly one) and the lines before it.
    pub fn bestmove(&mut self) -> (String, Vec<String>) {
        let (line, before) = self.until("bestmove", |l| {
            matches!(Reply::parse(l), Reply::BestMove(_))
        });
        let Reply::BestMove(best) = Reply::parse(&line) else {
            unreachable!("waited for a bestmove")
        };
        assert!(
            !best.token.is_empty() && best.extra.is_empty(),
            "bestmove line '{line}'"
        );
        (best.token, before)
    }

    pub fn wait_exit(&mut self, timeout: Duration) -> Option<ExitStatus> {
        let deadline = Instant::now() + timeout;
        loop {
            if let Some(status) = self.child.try_wait().expect("waiting for otau") {
                return Some(status);
            }
            if Instant::now() >= deadline {
                return None;
            }
            thread::sleep(Duration::from_millis(5));
        }
    }

    /// Everything the engine writes until it closes its output.
    pub fn rest(&mut self) -> Vec<String> {
        let mut out = Vec::new();
        while let Some(line) = self.next_line(TIMEOUT) {
            out.push(line);
        }
        out
    }
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stdin = None;
        if !matches!(self.child.try_wait(), Ok(Some(_))) {
            let _ = self.child.kill();
        }
        let _ = self.child.wait();
    }
}

/// Lines that are `info string error ...`.
pub fn errors(lines: &[String]) -> Vec<&String> {
    lines
        .iter()
        .filter(|l| l.starts_with("info string error"))
        .collect()
}
