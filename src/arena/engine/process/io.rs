//! [`EngineIo`]: one running engine, child process or in-process thread, as a deadline-bounded
//! line stream in each direction.

use std::fs::File;
use std::io::{self, BufReader, Write};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rustix::event::{PollFd, PollFlags, Timespec};

use crate::arena::config::Confinement;
use crate::arena::engine::process::child::{configure_child, describe_status};
use crate::arena::engine::process::reader::{Fill, Incoming, LineReader};
use crate::arena::engine::process::stderr::{spawn_log_copier, LogBudget, MAX_LOG_BYTES};
use crate::arena::engine::sandbox::{self, Jail};
use crate::arena::system::process_groups::{kill_group, register, unregister};
use crate::arena::system::{interrupt, pause};

/// How often a waiting read looks whether the engine process itself has exited.
pub const EXIT_POLL: Duration = Duration::from_millis(25);
/// After the exit is seen, lines that arrive within this long are still delivered (what the
/// engine wrote just before it exited); then the engine counts as closed, helpers or not.
pub const EXIT_GRACE: Duration = Duration::from_millis(20);
/// The bound of [`EngineIo::send`] and [`EngineIo::send_all`], which take no deadline.
pub const DEFAULT_WRITE_TIMEOUT: Duration = Duration::from_secs(10);
/// The most an engine's outgoing buffer keeps allocated between writes (a long game's
/// `position` line fits; a larger write, a huge option value, is freed after it).
const KEPT_OUTGOING: usize = 64 * 1024;

/// Why [`EngineIo::recv`] returned no line.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum RecvError {
    /// The deadline passed.
    Timeout,
    /// The engine closed its output (exited, crashed, or closed stdout).
    Closed,
    /// The user pressed Ctrl-C.
    Interrupted,
}

/// Why [`EngineIo::send_by`] did not write everything.
#[derive(Debug)]
pub enum SendError {
    /// The engine's input is closed (it exited, or closed stdin).
    Closed(io::Error),
    /// The deadline passed with `unwritten` of `total` bytes still not taken by the engine.
    Timeout {
        /// Bytes the engine had not taken when the deadline passed.
        unwritten: usize,
        /// Bytes of the whole message.
        total: usize,
    },
    /// The user pressed Ctrl-C.
    Interrupted,
}

impl std::fmt::Display for SendError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            SendError::Closed(e) => write!(f, "input closed ({e})"),
            SendError::Timeout { unwritten, total } => {
                write!(f, "input not read: {unwritten} of {total} bytes not taken")
            }
            SendError::Interrupted => f.write_str("interrupted"),
        }
    }
}

/// What an engine process is: a command line with a working directory.
#[derive(Clone, Debug)]
pub struct Spawn<'a> {
    /// The program: a path, or a name looked up on `PATH`.
    pub program: &'a str,
    /// Its arguments, passed as they are (no shell).
    pub args: &'a [String],
    /// The directory it starts in (the arena's own when `None`).
    pub dir: Option<&'a Path>,
    /// Where stderr is appended; `None` discards it.
    pub log: Option<&'a Path>,
}

enum Peer {
    Child {
        child: Child,
        pgid: i32,
        registry_id: u64,
        /// Its sandbox's or limits' control group, emptied and removed at its end.
        jail: Option<Jail>,
    },
    Thread(Option<JoinHandle<()>>),
}

/// A running engine: a non-blocking writer to its input and a bounded, non-blocking reader of
/// its output lines, both used by the game's own thread with deadlines.
pub struct EngineIo {
    writer: Option<File>,
    /// The bytes of the lines [`EngineIo::send_by`] writes, kept from one write to the next so
    /// that a ply allocates nothing to send (shrunk back after an outsize write: at most
    /// [`KEPT_OUTGOING`] stays allocated).
    outgoing: Vec<u8>,
    reader: LineReader,
    peer: Peer,
    closed: bool,
    /// When the line last returned by [`EngineIo::recv`] was read (on [`pause::now`]).
    last_arrival: Instant,
    /// When the arena last found the engine's output empty or read it (on [`pause::now`]): what
    /// the pipe holds at the first look after a deadline that passed since is the engine's in
    /// time (see [`EngineIo::recv`]).
    looked_at: Instant,
    /// When the process was first seen to have exited (on [`pause::now`]).
    exited_at: Option<Instant>,
    last_exit_check: Instant,
}

impl EngineIo {
    /// Starts a child process without a shell, in its own process group; its stderr may use up
    /// to [`MAX_LOG_BYTES`] of its log.
    pub fn spawn(spec: &Spawn<'_>) -> io::Result<EngineIo> {
        Self::spawn_logged(spec, LogBudget::new(MAX_LOG_BYTES))
    }

    /// [`EngineIo::spawn`], its stderr logged within `budget` (shared with the engine's other
    /// processes of the run).
    pub(crate) fn spawn_logged(spec: &Spawn<'_>, budget: Arc<LogBudget>) -> io::Result<EngineIo> {
        Self::spawn_confined(spec, budget, &Confinement::default())
    }

    /// [`EngineIo::spawn_logged`], held to `confine` (a sandbox, a control group, rlimits:
    /// [`sandbox`]).
    pub(crate) fn spawn_confined(
        spec: &Spawn<'_>,
        budget: Arc<LogBudget>,
        confine: &Confinement,
    ) -> io::Result<EngineIo> {
        let (mut cmd, jail) = sandbox::command(spec.program, spec.args, spec.dir, confine)?;
        cmd.stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if spec.log.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            });
        configure_child(&mut cmd, confine.sandbox);
        let mut child = cmd.spawn()?;
        let pid = child.id() as i32;
        let registry_id = register(pid);
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take().expect("piped stdin");
        if let (Some(stderr), Some(log)) = (child.stderr.take(), spec.log) {
            spawn_log_copier(stderr, log, pid, budget);
        }
        Ok(EngineIo {
            writer: Some(non_blocking(OwnedFd::from(stdin))?),
            outgoing: Vec::new(),
            reader: LineReader::new(OwnedFd::from(stdout))?,
            peer: Peer::Child {
                child,
                pgid: pid,
                registry_id,
                jail,
            },
            closed: false,
            last_arrival: pause::now(),
            looked_at: pause::now(),
            exited_at: None,
            last_exit_check: pause::now(),
        })
    }

    /// Runs `engine` on a thread, talking over two pipes exactly as a child process would.
    pub fn in_process<F>(name: &str, engine: F) -> io::Result<EngineIo>
    where
        F: FnOnce(BufReader<io::PipeReader>, io::PipeWriter) + Send + 'static,
    {
        let (to_engine_r, to_engine_w) = io::pipe()?;
        let (from_engine_r, from_engine_w) = io::pipe()?;
        let thread = std::thread::Builder::new()
            .name(format!("engine {name}"))
            .spawn(move || engine(BufReader::new(to_engine_r), from_engine_w))?;
        Ok(EngineIo {
            writer: Some(non_blocking(OwnedFd::from(to_engine_w))?),
            outgoing: Vec::new(),
            reader: LineReader::new(OwnedFd::from(from_engine_r))?,
            peer: Peer::Thread(Some(thread)),
            closed: false,
            last_arrival: pause::now(),
            looked_at: pause::now(),
            exited_at: None,
            last_exit_check: pause::now(),
        })
    }

    /// The child's process id (None for an in-process engine).
    pub fn pid(&self) -> Option<u32> {
        match &self.peer {
            Peer::Child { child, .. } => Some(child.id()),
            Peer::Thread(_) => None,
        }
    }

    /// Writes one line within [`DEFAULT_WRITE_TIMEOUT`]. An error means the engine is gone
    /// (broken pipe), does not read its input (timed out) or the user pressed Ctrl-C.
    pub fn send(&mut self, line: &str) -> io::Result<()> {
        self.send_all(&[line])
    }

    /// [`EngineIo::send_by`] within [`DEFAULT_WRITE_TIMEOUT`], as an `io::Result`.
    pub(crate) fn send_all(&mut self, lines: &[&str]) -> io::Result<()> {
        self.send_by(lines, pause::now() + DEFAULT_WRITE_TIMEOUT)
            .map_err(|e| match e {
                SendError::Closed(e) => e,
                SendError::Timeout { .. } => io::Error::new(io::ErrorKind::TimedOut, e.to_string()),
                SendError::Interrupted => io::Error::new(io::ErrorKind::Interrupted, "interrupted"),
            })
    }

    /// Writes lines (a `position` and its `go`: one write per ply) by `deadline` (on
    /// [`pause::now`]). The pipe is non-blocking: while it is full the arena polls it in short
    /// slices, so neither an engine that stops reading nor one that exited behind a helper that
    /// keeps its input open can hold the write past the deadline, and Ctrl-C is noticed.
    pub(crate) fn send_by(&mut self, lines: &[&str], deadline: Instant) -> Result<(), SendError> {
        let mut buf = std::mem::take(&mut self.outgoing);
        buf.clear();
        for line in lines {
            buf.extend_from_slice(line.as_bytes());
            buf.push(b'\n');
        }
        let sent = self.write_by(&buf, deadline);
        if buf.capacity() <= KEPT_OUTGOING {
            self.outgoing = buf;
        }
        sent
    }

    /// [`EngineIo::send_by`]'s write of `buf`, whole, by `deadline`.
    fn write_by(&mut self, buf: &[u8], deadline: Instant) -> Result<(), SendError> {
        let mut done = 0;
        while done < buf.len() {
            let w = self.writer.as_mut().ok_or_else(|| {
                SendError::Closed(io::Error::new(io::ErrorKind::BrokenPipe, "input closed"))
            })?;
            match w.write(&buf[done..]) {
                Ok(0) => {
                    return Err(SendError::Closed(io::ErrorKind::WriteZero.into()));
                }
                Ok(n) => done += n,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => {
                    if interrupt::requested() {
                        return Err(SendError::Interrupted);
                    }
                    if self.poll_exit(pause::now()) {
                        return Err(SendError::Closed(io::Error::new(
                            io::ErrorKind::BrokenPipe,
                            "the engine exited",
                        )));
                    }
                    let left = deadline.saturating_duration_since(pause::now());
                    if left.is_zero() {
                        return Err(SendError::Timeout {
                            unwritten: buf.len() - done,
                            total: buf.len(),
                        });
                    }
                    if let Some(w) = &self.writer {
                        wait_writable(w.as_fd(), left.min(EXIT_POLL));
                    }
                }
                Err(e) => return Err(SendError::Closed(e)),
            }
        }
        Ok(())
    }

    /// Whether the engine itself has ended (the process exited, or the engine thread returned),
    /// looked at most every [`EXIT_POLL`]; remembers when it was first seen. `now` is
    /// [`pause::now`] (the caller's: a look at the clock is a cost every ply).
    fn poll_exit(&mut self, now: Instant) -> bool {
        if self.exited_at.is_some() {
            return true;
        }
        if now.saturating_duration_since(self.last_exit_check) < EXIT_POLL {
            return false;
        }
        self.last_exit_check = now;
        let gone = match &mut self.peer {
            Peer::Child { child, .. } => matches!(child.try_wait(), Ok(Some(_))),
            // A built-in engine's output closes when its thread ends: the reader sees that.
            Peer::Thread(_) => false,
        };
        if gone {
            self.exited_at = Some(now);
        }
        gone
    }

    /// The next line that arrived before `deadline` (on [`pause::now`]), waiting for it at most
    /// until then. The game's own thread reads the pipe (no reader thread, no queue) and waits
    /// in `poll` slices of at most [`EXIT_POLL`], so a Ctrl-C is noticed at once even during a
    /// long think, and so is the engine's own exit: once the process has exited, lines that
    /// arrive later than [`EXIT_GRACE`] after it are not the engine's, and the engine counts as
    /// closed even if a helper it started still holds its output open.
    ///
    /// A line counts if it was read by the deadline. The deadline is for the engine, not for
    /// the arena: when the arena comes to look only after the deadline (it was busy, or not
    /// scheduled), what the pipe holds at that first look counts as in time (stamped at the
    /// deadline), since it may have come before. That is one read of at most
    /// [`crate::arena::engine::process::READ_BUFFER`] bytes; what comes later does not count, so a flood cannot keep a
    /// late engine's think going.
    pub fn recv(&mut self, deadline: Instant) -> Result<Incoming, RecvError> {
        if self.closed {
            return Err(RecvError::Closed);
        }
        loop {
            if interrupt::requested() {
                return Err(RecvError::Interrupted);
            }
            // A line already read is handed over without a look at the clock or the process:
            // an exit first seen now would be later than the read that stamped the line.
            if let Some(got) = self.take_line(self.exited_at.map(|t| t + EXIT_GRACE), deadline) {
                return got;
            }
            let mut now = pause::now();
            let exit_cutoff = if self.poll_exit(now) {
                self.exited_at.map(|t| t + EXIT_GRACE)
            } else {
                None
            };
            let until = exit_cutoff.map_or(deadline, |c| c.min(deadline));
            let slice = until.saturating_duration_since(now).min(EXIT_POLL);
            let throttled = self.reader.throttled();
            if !slice.is_zero() && throttled.is_none() {
                // Wait first, then read: an engine has seldom answered already, and a read that
                // finds nothing is one system call a ply for nothing.
                if !wait_readable(self.reader.fd(), slice) {
                    // Nothing came before the wait's end: the pipe was looked at then.
                    self.looked_at = pause::now();
                    continue;
                }
                now = pause::now();
            }
            let stamp = if now > deadline && self.looked_at <= deadline {
                deadline
            } else {
                now
            };
            match self.reader.fill(stamp) {
                Fill::Read => {
                    self.looked_at = now;
                    // The line is handed over at once, on the look just taken (a new look at
                    // the clock, Ctrl-C and the process would change nothing for it).
                    if let Some(got) = self.take_line(exit_cutoff, deadline) {
                        return got;
                    }
                    continue;
                }
                Fill::Eof => return self.close(),
                Fill::Empty => self.looked_at = now,
                Fill::Throttled(_) => {}
            }
            if slice.is_zero() {
                if exit_cutoff.is_some_and(|c| now >= c) {
                    return self.close();
                }
                return Err(RecvError::Timeout);
            }
            if let Some(end) = throttled {
                // Nothing is read until this second is over: wait without the pipe.
                wait_for(
                    None,
                    slice.min(end.saturating_duration_since(Instant::now())),
                );
            }
        }
    }

    /// The next whole line read, if any, judged against the engine's exit (lines read later
    /// than `exit_cutoff` are not the engine's) and the `deadline`.
    fn take_line(
        &mut self,
        exit_cutoff: Option<Instant>,
        deadline: Instant,
    ) -> Option<Result<Incoming, RecvError>> {
        let (at, line) = self.reader.next_line()?;
        if exit_cutoff.is_some_and(|c| at > c) {
            return Some(self.close());
        }
        if at > deadline {
            return Some(Err(RecvError::Timeout));
        }
        self.last_arrival = at;
        Some(Ok(line))
    }

    fn close(&mut self) -> Result<Incoming, RecvError> {
        self.closed = true;
        // Ctrl-C kills every engine: their end is the interrupt, not a crash.
        if interrupt::requested() {
            return Err(RecvError::Interrupted);
        }
        Err(RecvError::Closed)
    }

    /// When the reader thread received the line last returned by [`EngineIo::recv`]: think
    /// times are measured to it, so the arena's own delays are never charged to the engine.
    pub(crate) fn last_arrival(&self) -> Instant {
        self.last_arrival
    }

    /// Whether the kernel killed a process of the engine's group at its `memory=` limit.
    pub(crate) fn memory_killed(&self) -> bool {
        matches!(&self.peer, Peer::Child { jail: Some(j), .. } if j.memory_killed())
    }

    /// The CPU time the engine and every process it started used so far, where its group
    /// measures it.
    pub(crate) fn cpu_time(&self) -> Option<Duration> {
        match &self.peer {
            Peer::Child { jail: Some(j), .. } => j.cpu_time(),
            _ => None,
        }
    }

    /// How the process ended, once it has (for crash reports).
    pub(crate) fn exit_status(&mut self) -> Option<String> {
        match &mut self.peer {
            Peer::Child { child, .. } => match child.try_wait() {
                Ok(Some(status)) => Some(describe_status(status)),
                _ => None,
            },
            Peer::Thread(t) => t
                .as_ref()
                .filter(|t| t.is_finished())
                .map(|_| "engine thread ended".to_string()),
        }
    }

    /// Ends the engine: `quit`, up to `grace` for it to exit by itself, then SIGKILL to its whole
    /// process group, and reaps it. Safe to call more than once.
    pub fn shutdown(&mut self, grace: Duration) {
        if let Some(mut w) = self.writer.take() {
            // Non-blocking: an engine whose input is full does not get it, and is killed.
            let _ = w.write(b"quit\n");
            // Dropping the writer closes the engine's input: EOF is the last word.
        }
        match &mut self.peer {
            Peer::Child {
                child,
                pgid,
                registry_id,
                jail,
            } => {
                if *registry_id == 0 {
                    return;
                }
                let until = Instant::now() + grace;
                while Instant::now() < until {
                    if matches!(child.try_wait(), Ok(Some(_))) {
                        break;
                    }
                    std::thread::sleep(Duration::from_millis(2));
                }
                // Even an engine that exited may have left helpers in its group.
                kill_group(*pgid);
                let _ = child.kill();
                let _ = child.wait();
                // What the group still holds (a process that left the process group) is killed.
                if let Some(jail) = jail {
                    jail.release();
                }
                unregister(*registry_id);
                *registry_id = 0;
            }
            Peer::Thread(handle) => {
                // A thread cannot be killed; a built-in engine ends on EOF. Wait briefly, then
                // let it finish on its own (it holds nothing but memory).
                if let Some(h) = handle.take() {
                    let until = Instant::now() + grace.max(Duration::from_millis(200));
                    while !h.is_finished() && Instant::now() < until {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                    if h.is_finished() {
                        let _ = h.join();
                    }
                }
            }
        }
    }
}

impl Drop for EngineIo {
    fn drop(&mut self) {
        self.shutdown(Duration::ZERO);
    }
}

/// The pipe end as a non-blocking file: writes return `WouldBlock` instead of waiting.
pub(super) fn non_blocking(fd: OwnedFd) -> io::Result<File> {
    use rustix::fs::{fcntl_getfl, fcntl_setfl, OFlags};
    let flags = fcntl_getfl(&fd)?;
    fcntl_setfl(&fd, flags | OFlags::NONBLOCK)?;
    Ok(File::from(fd))
}

/// Waits until `fd` can take a write, or `at_most` has passed (whichever comes first).
fn wait_writable(fd: BorrowedFd<'_>, at_most: Duration) {
    let _ = wait_for(Some((fd, PollFlags::OUT)), at_most);
}

/// Waits until `fd` has something to read (or its writer closed it), or `at_most` has passed;
/// whether it has.
fn wait_readable(fd: BorrowedFd<'_>, at_most: Duration) -> bool {
    wait_for(Some((fd, PollFlags::IN)), at_most) == Some(true)
}

/// `ppoll` of one descriptor for `events` (or of none: a sleep) for at most `at_most`, to the
/// nanosecond (a millisecond `poll` would turn a wait under 1 ms into a spin or into a late
/// wake-up: rustix's `poll` is `ppoll` wherever the system has it, which every system that
/// builds this does). Whether the descriptor became ready, when there is one; a wait a signal
/// cut short counts as not ready.
fn wait_for(fd: Option<(BorrowedFd<'_>, PollFlags)>, at_most: Duration) -> Option<bool> {
    let timeout = Timespec {
        tv_sec: at_most.as_secs().min(i32::MAX as u64) as i64,
        tv_nsec: at_most.subsec_nanos() as _,
    };
    match fd {
        Some((fd, events)) => {
            let mut p = [PollFd::from_borrowed_fd(fd, events)];
            Some(rustix::event::poll(&mut p, Some(&timeout)).is_ok_and(|n| n > 0))
        }
        None => {
            let _ = rustix::event::poll(&mut [], Some(&timeout));
            None
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::engine::process::MAX_BYTES_PER_SEC;
    use std::io::BufRead;

    fn sh(script: &str) -> EngineIo {
        let args = vec!["-c".to_string(), script.to_string()];
        EngineIo::spawn(&Spawn {
            program: "/bin/sh",
            args: &args,
            dir: None,
            log: None,
        })
        .unwrap()
    }

    fn soon() -> Instant {
        pause::now() + Duration::from_secs(5)
    }

    #[test]
    fn lines_arrive_and_eof_is_closed() {
        let mut io = sh("printf 'a\\r\\nb\\n'");
        assert_eq!(io.recv(soon()), Ok(Incoming::Line("a".into())));
        assert_eq!(io.recv(soon()), Ok(Incoming::Line("b".into())));
        assert_eq!(io.recv(soon()), Err(RecvError::Closed));
        io.shutdown(Duration::from_millis(100));
    }

    #[test]
    fn long_lines_are_cut() {
        let mut io = sh("head -c 100000 /dev/zero | tr '\\0' 'x'; echo; echo ok");
        match io.recv(soon()) {
            Ok(Incoming::TooLong(start)) => assert_eq!(start.len(), 80),
            other => panic!("{other:?}"),
        }
        assert_eq!(io.recv(soon()), Ok(Incoming::Line("ok".into())));
    }

    // Reads /proc: Linux only.
    #[cfg(target_os = "linux")]
    #[test]
    fn silent_engine_times_out_and_is_killed_with_its_group() {
        let mut io = sh("sleep 30 & sleep 30");
        let pid = io.pid().unwrap();
        let t = Instant::now();
        assert_eq!(
            io.recv(Instant::now() + Duration::from_millis(150)),
            Err(RecvError::Timeout)
        );
        assert!(t.elapsed() < Duration::from_secs(2));
        io.shutdown(Duration::from_millis(10));
        assert!(!Path::new(&format!("/proc/{pid}")).exists(), "reaped");
        // The background sleep was in the same process group: it is gone too (zombies aside,
        // which init reaps).
        let deadline = Instant::now() + Duration::from_secs(2);
        while !live_in_group(pid as i32).is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(live_in_group(pid as i32), Vec::<String>::new());
    }

    /// Non-zombie processes in a process group, from /proc.
    #[cfg(target_os = "linux")]
    fn live_in_group(pgid: i32) -> Vec<String> {
        let mut out = Vec::new();
        for entry in std::fs::read_dir("/proc").unwrap().flatten() {
            let Ok(stat) = std::fs::read_to_string(entry.path().join("stat")) else {
                continue;
            };
            // Fields after the parenthesised command: state, ppid, pgrp, ...
            let Some(rest) = stat.rsplit_once(") ").map(|(_, r)| r) else {
                continue;
            };
            let f: Vec<&str> = rest.split(' ').collect();
            if f.len() > 2 && f[2] == pgid.to_string() && f[0] != "Z" {
                out.push(stat);
            }
        }
        out
    }

    // Reads /proc: Linux only.
    #[cfg(target_os = "linux")]
    #[test]
    fn an_exit_behind_a_helper_holding_the_output_is_seen_at_once() {
        // `sleep` keeps stdout open: before the process itself was watched, this read waited
        // for the whole deadline and the exit was never seen.
        let mut io = sh("sleep 30 & exit 3");
        let t = Instant::now();
        assert_eq!(
            io.recv(pause::now() + Duration::from_secs(20)),
            Err(RecvError::Closed)
        );
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        assert_eq!(io.exit_status().as_deref(), Some("exited with code 3"));
        let pid = io.pid().unwrap() as i32;
        io.shutdown(Duration::ZERO);
        let deadline = Instant::now() + Duration::from_secs(2);
        while !live_in_group(pid).is_empty() && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
        assert_eq!(
            live_in_group(pid),
            Vec::<String>::new(),
            "the helper is killed"
        );
    }

    #[test]
    fn a_death_by_signal_behind_a_helper_is_named_by_its_signal() {
        let mut io = sh("sleep 30 & kill -SEGV $$");
        assert_eq!(
            io.recv(pause::now() + Duration::from_secs(20)),
            Err(RecvError::Closed)
        );
        assert_eq!(io.exit_status().as_deref(), Some("killed by signal 11"));
        io.shutdown(Duration::ZERO);
    }

    #[test]
    fn a_write_nobody_reads_ends_by_its_deadline() {
        let mut io = sh("sleep 30");
        let big = "x".repeat(200_000);
        let t = Instant::now();
        match io.send_by(&[&big], pause::now() + Duration::from_millis(200)) {
            Err(SendError::Timeout { unwritten, total }) => {
                assert_eq!(total, 200_001);
                // The pipe took what fits (64 KiB by default), no more.
                assert!(unwritten > 100_000 && unwritten < total, "{unwritten}");
            }
            other => panic!("{other:?}"),
        }
        assert!(t.elapsed() < Duration::from_secs(5), "{:?}", t.elapsed());
        io.shutdown(Duration::ZERO);
    }

    #[test]
    fn a_flood_cannot_hold_a_read_past_its_deadline() {
        let mut io = sh("yes 'info depth 1 score cp 0 nodes 1 pv 1 2 3 4 5 6 7 8 9'");
        let t = Instant::now();
        let deadline = t + Duration::from_millis(200);
        let mut lines = 0u64;
        let end = loop {
            match io.recv(deadline) {
                Ok(_) => lines += 1,
                Err(e) => break e,
            }
            assert!(t.elapsed() < Duration::from_secs(2), "still reading");
        };
        assert_eq!(end, RecvError::Timeout);
        assert!(lines > 100);
        // The reader takes at most MAX_BYTES_PER_SEC: the flood is throttled, not buffered.
        assert!(lines * 50 < 2 * MAX_BYTES_PER_SEC as u64);
        io.shutdown(Duration::ZERO);
    }

    #[test]
    fn a_late_look_takes_what_the_pipe_holds_once_and_no_more() {
        let mut io = sh("echo one; read x; echo two; read y; echo three; exec sleep 30");
        assert_eq!(io.recv(soon()), Ok(Incoming::Line("one".into())));
        let deadline = pause::now();
        io.send("x").unwrap();
        assert!(wait_readable(io.reader.fd(), Duration::from_secs(20)));
        // The arena comes to look after the deadline: the line may have come before it, so it
        // counts, at the deadline (before, the reader thread stamped it after: Timeout).
        assert_eq!(io.recv(deadline), Ok(Incoming::Line("two".into())));
        assert_eq!(io.last_arrival(), deadline);
        io.send("y").unwrap();
        assert!(wait_readable(io.reader.fd(), Duration::from_secs(20)));
        // Looked at since the deadline: what came later does not count.
        assert_eq!(io.recv(deadline), Err(RecvError::Timeout));
        io.shutdown(Duration::ZERO);
    }

    #[test]
    fn in_process_engine_looks_the_same() {
        let mut io = EngineIo::in_process("echo", |input, mut output| {
            for line in input.lines() {
                let line = line.unwrap();
                if line == "quit" {
                    break;
                }
                writeln!(output, "echo {line}").unwrap();
            }
        })
        .unwrap();
        io.send("hello").unwrap();
        assert_eq!(io.recv(soon()), Ok(Incoming::Line("echo hello".into())));
        io.shutdown(Duration::from_millis(100));
        assert_eq!(io.recv(soon()), Err(RecvError::Closed));
    }
}
