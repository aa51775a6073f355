//! Engine processes: spawning, the bounded line reader, and killing on every path.
//!
//! An engine is a line stream in and a line stream out. [`EngineIo`] hides whether the other end
//! is a child process (an external engine, or a test engine) or a thread running an in-process
//! UGI loop over pipes (the built-in players): the UGI client above sees the same thing either way.
//!
//! What a hostile or broken engine cannot do to the arena:
//! - hang it: every read has a deadline ([`EngineIo::recv`]), and so has every write
//!   ([`EngineIo::send_by`]: the input pipe is non-blocking and polled, so an engine that stops
//!   reading cannot block the arena in a full pipe);
//! - hide its death: the process itself is watched ([`EngineIo::recv`] polls it every
//!   [`EXIT_POLL`]), so an engine that exits while a helper it started keeps its output open is
//!   seen within [`EXIT_POLL`] + [`EXIT_GRACE`], not when the helper closes the pipe;
//! - exhaust its memory: a line longer than [`MAX_LINE`] is cut, and at most [`QUEUE_LINES`] lines
//!   wait in memory; when the queue is full the reader stops reading and the engine blocks on its
//!   own pipe;
//! - eat its CPU: the reader takes at most [`MAX_BYTES_PER_SEC`] from the engine;
//! - fill the disk: stderr goes to the engine's log file up to a [`LogBudget`] shared by all of
//!   the engine's processes in a run ([`MAX_LOG_BYTES`] by default);
//! - outlive it: every child runs in its own process group, which is SIGKILLed on every path
//!   (game end, fault, drop, Ctrl-C through [`kill_all`]), and is asked to die with the arena's
//!   thread through `PR_SET_PDEATHSIG`; during a run a [`Guardian`] process SIGKILLs the groups
//!   the arena leaves behind when it dies itself, so even `kill -9` of the arena leaves no engine
//!   behind, nor a process an engine started (which the parent-death signal does not reach).

use std::collections::HashMap;
use std::fs::{File, OpenOptions};
use std::io::{self, BufRead, BufReader, Read, Write};
use std::os::fd::{AsRawFd, OwnedFd};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, TryRecvError};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use super::{interrupt, pause};
use crate::sync::lock;

/// The longest line kept from an engine; the rest of a longer line is dropped.
pub const MAX_LINE: usize = 16 * 1024;
/// Lines waiting to be read by the client, at most.
pub const QUEUE_LINES: usize = 256;
/// The most bytes a second the reader takes from one engine.
pub const MAX_BYTES_PER_SEC: usize = 8 * 1024 * 1024;
/// Stderr bytes written to an engine's log in a run, by default (`--log-limit`): all of the
/// engine's processes share it, so a crash loop cannot fill the disk; the rest is read and
/// dropped (an engine never blocks on its stderr), with one note in the log.
pub const MAX_LOG_BYTES: u64 = 16 * 1024 * 1024;
/// How often a waiting read looks whether the engine process itself has exited.
pub const EXIT_POLL: Duration = Duration::from_millis(25);
/// After the exit is seen, lines that arrive within this long are still delivered (what the
/// engine wrote just before it exited); then the engine counts as closed, helpers or not.
pub const EXIT_GRACE: Duration = Duration::from_millis(20);
/// The bound of [`EngineIo::send`] and [`EngineIo::send_all`], which take no deadline.
pub const DEFAULT_WRITE_TIMEOUT: Duration = Duration::from_secs(10);

/// What the engine said, as the reader hands it over.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Incoming {
    /// One line, without its line end (invalid UTF-8 replaced).
    Line(String),
    /// A line longer than [`MAX_LINE`]: its start only.
    TooLong(String),
}

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
    Timeout { unwritten: usize, total: usize },
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

/// The stderr bytes one engine may still write to its log in this run, shared by all of its
/// processes (restarts, several workers).
#[derive(Debug)]
pub struct LogBudget {
    limit: u64,
    used: AtomicU64,
}

impl LogBudget {
    pub fn new(limit: u64) -> Arc<LogBudget> {
        Arc::new(LogBudget {
            limit,
            used: AtomicU64::new(0),
        })
    }

    /// Takes up to `n` bytes; returns how many may be written, and whether this take reached
    /// the limit (exactly one take does: its writer says so in the log).
    fn take(&self, n: u64) -> (u64, bool) {
        let (mut granted, mut reached) = (0, false);
        let _ = self
            .used
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |used| {
                granted = n.min(self.limit.saturating_sub(used));
                reached = used < self.limit && used + granted >= self.limit;
                Some(used + granted)
            });
        (granted, reached)
    }

    pub fn limit(&self) -> u64 {
        self.limit
    }

    /// The budget of the log file `path` in this process: made with `limit` the first time, the
    /// same budget afterwards, so the start-up check's process and every process of the run that
    /// writes to an engine's log share one cap.
    pub fn shared(path: &Path, limit: u64) -> Arc<LogBudget> {
        static BY_PATH: Mutex<Option<HashMap<PathBuf, Arc<LogBudget>>>> = Mutex::new(None);
        let key = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
        lock(&BY_PATH)
            .get_or_insert_with(HashMap::new)
            .entry(key)
            .or_insert_with(|| LogBudget::new(limit))
            .clone()
    }
}

/// What an engine process is: a command line with a working directory.
#[derive(Clone, Debug)]
pub struct Spawn<'a> {
    pub program: &'a str,
    pub args: &'a [String],
    pub dir: Option<&'a Path>,
    /// Where stderr is appended; `None` discards it.
    pub log: Option<&'a Path>,
}

enum Peer {
    Child {
        child: Child,
        pgid: i32,
        registry_id: u64,
    },
    Thread(Option<JoinHandle<()>>),
}

/// A running engine: a non-blocking writer to its input and a bounded, deadline-read queue of
/// its output lines.
pub struct EngineIo {
    writer: Option<File>,
    lines: Receiver<(Instant, Incoming)>,
    peer: Peer,
    closed: bool,
    /// When the reader got the last line [`EngineIo::recv`] returned (on [`pause::now`]).
    last_arrival: Instant,
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
    pub fn spawn_logged(spec: &Spawn<'_>, budget: Arc<LogBudget>) -> io::Result<EngineIo> {
        let mut cmd = Command::new(spec.program);
        cmd.args(spec.args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(if spec.log.is_some() {
                Stdio::piped()
            } else {
                Stdio::null()
            });
        if let Some(dir) = spec.dir {
            cmd.current_dir(dir);
        }
        configure_child(&mut cmd);
        let mut child = cmd.spawn()?;
        let pid = child.id() as i32;
        let registry_id = register(pid);
        let stdout = child.stdout.take().expect("piped stdout");
        let stdin = child.stdin.take().expect("piped stdin");
        if let (Some(stderr), Some(log)) = (child.stderr.take(), spec.log) {
            spawn_log_copier(stderr, log, pid, budget);
        }
        let lines = spawn_reader(stdout);
        Ok(EngineIo {
            writer: Some(non_blocking(OwnedFd::from(stdin))?),
            lines,
            peer: Peer::Child {
                child,
                pgid: pid,
                registry_id,
            },
            closed: false,
            last_arrival: pause::now(),
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
        let lines = spawn_reader(from_engine_r);
        Ok(EngineIo {
            writer: Some(non_blocking(OwnedFd::from(to_engine_w))?),
            lines,
            peer: Peer::Thread(Some(thread)),
            closed: false,
            last_arrival: pause::now(),
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
    pub fn send_all(&mut self, lines: &[&str]) -> io::Result<()> {
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
    pub fn send_by(&mut self, lines: &[&str], deadline: Instant) -> Result<(), SendError> {
        let mut buf = Vec::with_capacity(lines.iter().map(|l| l.len() + 1).sum());
        for line in lines {
            buf.extend_from_slice(line.as_bytes());
            buf.push(b'\n');
        }
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
                    let fd = w.as_raw_fd();
                    if interrupt::requested() {
                        return Err(SendError::Interrupted);
                    }
                    if self.poll_exit() {
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
                    wait_writable(fd, left.min(EXIT_POLL));
                }
                Err(e) => return Err(SendError::Closed(e)),
            }
        }
        Ok(())
    }

    /// Whether the engine itself has ended (the process exited, or the engine thread returned),
    /// looked at most every [`EXIT_POLL`]; remembers when it was first seen.
    fn poll_exit(&mut self) -> bool {
        if self.exited_at.is_some() {
            return true;
        }
        let now = pause::now();
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
    /// until then. Waits in slices of [`EXIT_POLL`], so a Ctrl-C is noticed at once even during
    /// a long think, and so is the engine's own exit: once the process has exited, lines that
    /// arrive later than [`EXIT_GRACE`] after it are not the engine's, and the engine counts as
    /// closed even if a helper it started still holds its output open.
    pub fn recv(&mut self, deadline: Instant) -> Result<Incoming, RecvError> {
        if self.closed {
            return Err(RecvError::Closed);
        }
        loop {
            if interrupt::requested() {
                return Err(RecvError::Interrupted);
            }
            let exit_cutoff = if self.poll_exit() {
                self.exited_at.map(|t| t + EXIT_GRACE)
            } else {
                None
            };
            let now = pause::now();
            let until = exit_cutoff.map_or(deadline, |c| c.min(deadline));
            let slice = until.saturating_duration_since(now).min(EXIT_POLL);
            // A line queued before the deadline counts even if we read it late: the deadline is
            // for the engine, not for us. One that came later does not, so a flood cannot keep
            // a late engine's think going.
            let got = if slice.is_zero() {
                self.lines.try_recv().map_err(|e| match e {
                    TryRecvError::Empty => RecvTimeoutError::Timeout,
                    TryRecvError::Disconnected => RecvTimeoutError::Disconnected,
                })
            } else {
                self.lines.recv_timeout(slice)
            };
            match got {
                Ok((at, _)) if exit_cutoff.is_some_and(|c| at > c) => return self.close(),
                Ok((at, _)) if at > deadline => return Err(RecvError::Timeout),
                Ok((at, line)) => {
                    self.last_arrival = at;
                    return Ok(line);
                }
                Err(RecvTimeoutError::Timeout) if slice.is_zero() => {
                    if exit_cutoff.is_some_and(|c| now >= c) {
                        return self.close();
                    }
                    return Err(RecvError::Timeout);
                }
                Err(RecvTimeoutError::Timeout) => continue,
                Err(RecvTimeoutError::Disconnected) => return self.close(),
            }
        }
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
    pub fn last_arrival(&self) -> Instant {
        self.last_arrival
    }

    /// How the process ended, once it has (for crash reports).
    pub fn exit_status(&mut self) -> Option<String> {
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
fn non_blocking(fd: OwnedFd) -> io::Result<File> {
    let raw = fd.as_raw_fd();
    // SAFETY: fcntl on a descriptor we own.
    unsafe {
        let flags = libc::fcntl(raw, libc::F_GETFL);
        if flags < 0 || libc::fcntl(raw, libc::F_SETFL, flags | libc::O_NONBLOCK) < 0 {
            return Err(io::Error::last_os_error());
        }
    }
    Ok(File::from(fd))
}

/// Waits until `fd` can take a write, or `at_most` has passed (whichever comes first).
fn wait_writable(fd: i32, at_most: Duration) {
    let mut p = libc::pollfd {
        fd,
        events: libc::POLLOUT,
        revents: 0,
    };
    let ms = at_most.as_millis().clamp(1, i32::MAX as u128) as i32;
    // SAFETY: poll on one valid pollfd.
    unsafe {
        libc::poll(&mut p, 1, ms);
    }
}

fn describe_status(status: std::process::ExitStatus) -> String {
    use std::os::unix::process::ExitStatusExt;
    match (status.code(), status.signal()) {
        (Some(code), _) => format!("exited with code {code}"),
        (None, Some(sig)) => format!("killed by signal {sig}"),
        _ => "exited".to_string(),
    }
}

/// Own process group (so the whole group can be killed and a terminal's Ctrl-C reaches only the
/// arena, which then ends the engines itself), and death with the spawning thread.
fn configure_child(cmd: &mut Command) {
    use std::os::unix::process::CommandExt;
    cmd.process_group(0);
    let parent = std::process::id() as libc::pid_t;
    // SAFETY: only async-signal-safe calls (prctl, getppid, kill) between fork and exec.
    unsafe {
        cmd.pre_exec(move || {
            libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
            // The arena may have died between fork and prctl: then nobody would send the signal.
            if libc::getppid() != parent {
                libc::kill(libc::getpid(), libc::SIGKILL);
            }
            Ok(())
        });
    }
}

fn kill_group(pgid: i32) {
    if pgid > 0 {
        // SAFETY: kill has no memory-safety preconditions.
        unsafe {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
}

/// Live child process groups, for [`kill_all`].
static LIVE: Mutex<Option<HashMap<u64, i32>>> = Mutex::new(None);
static NEXT_ID: AtomicU64 = AtomicU64::new(1);

fn register(pgid: i32) -> u64 {
    let id = NEXT_ID.fetch_add(1, Ordering::Relaxed);
    lock(&LIVE)
        .get_or_insert_with(HashMap::new)
        .insert(id, pgid);
    tell_guardian(GUARD_ADD, pgid);
    id
}

fn unregister(id: u64) {
    if let Some(map) = lock(&LIVE).as_mut() {
        if let Some(pgid) = map.remove(&id) {
            tell_guardian(GUARD_REMOVE, pgid);
        }
    }
}

/// The write end of the running guardian's pipe, and its process id.
static GUARD: Mutex<Option<(File, libc::pid_t)>> = Mutex::new(None);
const GUARD_ADD: u8 = b'+';
const GUARD_REMOVE: u8 = b'-';
/// Process groups a guardian keeps track of at most (engines alive at once: a few per worker).
const GUARD_CAPACITY: usize = 4096;

/// Sends the guardian one 5-byte message (atomic on a pipe: below `PIPE_BUF`).
fn tell_guardian(op: u8, pgid: i32) {
    if let Some((pipe, _)) = lock(&GUARD).as_mut() {
        let p = pgid.to_le_bytes();
        // A guardian that is gone only means the parent-death signal is the last line.
        let _ = pipe.write_all(&[op, p[0], p[1], p[2], p[3]]);
    }
}

/// A forked process that outlives the arena just long enough to clean up after it.
///
/// `PR_SET_PDEATHSIG` ends the engines the arena started when it is killed with `kill -9`, but not
/// the processes those engines started (a wrapper script's background job, a helper): they stay
/// in the engine's process group, which nobody would kill. The guardian is told every engine
/// group as it starts and ends, through a pipe only the arena writes; when the pipe reaches end
/// of file (the arena exited, normally or not) it SIGKILLs the groups still listed and exits.
/// It ignores the terminal's signals, so a hang-up or a Ctrl-C to the whole group cannot end it
/// before it has done its job. A normal end of the run finds no group listed.
pub struct Guardian {
    pid: libc::pid_t,
}

impl Guardian {
    /// Forks the guardian for this run; None when one is already running (a run inside another
    /// in the same process) or the fork failed (the parent-death signal remains).
    pub fn start() -> Option<Guardian> {
        let mut slot = lock(&GUARD);
        if slot.is_some() {
            return None;
        }
        let (reader, writer) = io::pipe().ok()?;
        // Everything the child needs is allocated before the fork: after it, only
        // async-signal-safe calls (the arena has threads).
        let mut groups: Vec<i32> = vec![0; GUARD_CAPACITY];
        let read_fd = {
            use std::os::fd::AsRawFd;
            reader.as_raw_fd()
        };
        // SAFETY: the child calls only async-signal-safe functions (sigaction via signal, close,
        // read, kill, _exit) on memory allocated before the fork, and never returns.
        let pid = unsafe { libc::fork() };
        if pid == 0 {
            unsafe { guardian_main(read_fd, &mut groups) }
        }
        if pid < 0 {
            return None;
        }
        drop(reader);
        *slot = Some((File::from(std::os::fd::OwnedFd::from(writer)), pid));
        Some(Guardian { pid })
    }
}

impl Drop for Guardian {
    fn drop(&mut self) {
        // Closing the pipe is the guardian's signal to finish; then reap it.
        let taken = lock(&GUARD).take();
        drop(taken);
        let mut status = 0;
        // SAFETY: waitpid on our own child.
        unsafe {
            libc::waitpid(self.pid, &mut status, 0);
        }
    }
}

/// The guardian's whole life: read the arena's messages until end of file, then SIGKILL every
/// group still listed.
///
/// # Safety
/// Only in the child right after `fork`: async-signal-safe calls only, no allocation.
unsafe fn guardian_main(read_fd: i32, groups: &mut [i32]) -> ! {
    // Its command line is the arena's (a fork): the name tells it apart in `ps -o comm`, `top`.
    libc::prctl(libc::PR_SET_NAME, c"otau-guardian".as_ptr());
    for sig in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP, libc::SIGQUIT] {
        libc::signal(sig, libc::SIG_IGN);
    }
    // Holding no other descriptor: no copy of the pipe's write end (so end of file comes), no
    // engine pipe, no results file.
    for fd in 0..65536 {
        if fd != read_fd {
            libc::close(fd);
        }
    }
    let mut listed = 0usize;
    let mut buf = [0u8; 4096];
    let mut carry = [0u8; 5];
    let mut carried = 0usize;
    loop {
        let n = libc::read(read_fd, buf.as_mut_ptr().cast(), buf.len());
        if n == 0 {
            break;
        }
        if n < 0 {
            if *libc::__errno_location() == libc::EINTR {
                continue;
            }
            break;
        }
        for &b in &buf[..n as usize] {
            carry[carried] = b;
            carried += 1;
            if carried < carry.len() {
                continue;
            }
            carried = 0;
            let pgid = i32::from_le_bytes([carry[1], carry[2], carry[3], carry[4]]);
            if carry[0] == GUARD_ADD {
                if listed < groups.len() {
                    groups[listed] = pgid;
                    listed += 1;
                }
            } else if let Some(i) = groups[..listed].iter().position(|&g| g == pgid) {
                listed -= 1;
                groups[i] = groups[listed];
            }
        }
    }
    for &pgid in &groups[..listed] {
        if pgid > 0 {
            libc::kill(-pgid, libc::SIGKILL);
        }
    }
    libc::_exit(0)
}

/// SIGKILLs every live engine process group (Ctrl-C, fatal arena error). The owners still reap
/// their children when they notice.
pub fn kill_all() {
    signal_all(libc::SIGKILL);
}

/// Sends `signal` to every live engine process group (SIGSTOP and SIGCONT for Ctrl-Z).
pub fn signal_all(signal: i32) {
    if let Some(map) = lock(&LIVE).as_ref() {
        for &pgid in map.values() {
            if pgid > 0 {
                // SAFETY: kill has no memory-safety preconditions.
                unsafe {
                    libc::kill(-pgid, signal);
                }
            }
        }
    }
}

/// Reads lines on a thread into a bounded queue; ends when the engine closes its output or the
/// receiving side is dropped.
fn spawn_reader<R: Read + Send + 'static>(source: R) -> Receiver<(Instant, Incoming)> {
    let (tx, rx) = sync_channel(QUEUE_LINES);
    std::thread::Builder::new()
        .name("engine reader".into())
        .spawn(move || {
            let mut reader = BufReader::with_capacity(64 * 1024, source);
            let mut limiter = RateLimiter::new(MAX_BYTES_PER_SEC);
            let mut line = Vec::with_capacity(256);
            let mut too_long = false;
            loop {
                let chunk = match reader.fill_buf() {
                    Ok([]) => break,
                    Ok(c) => c,
                    Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                    Err(_) => break,
                };
                let (used, complete) = match chunk.iter().position(|&b| b == b'\n') {
                    Some(i) => (i + 1, true),
                    None => (chunk.len(), false),
                };
                let body = &chunk[..if complete { used - 1 } else { used }];
                let room = MAX_LINE.saturating_sub(line.len());
                line.extend_from_slice(&body[..body.len().min(room)]);
                too_long |= body.len() > room;
                reader.consume(used);
                limiter.take(used);
                if complete {
                    if line.last() == Some(&b'\r') {
                        line.pop();
                    }
                    let text = String::from_utf8_lossy(&line).into_owned();
                    let item = if too_long {
                        Incoming::TooLong(text.chars().take(80).collect())
                    } else {
                        Incoming::Line(text)
                    };
                    if tx.send((pause::now(), item)).is_err() {
                        return;
                    }
                    line.clear();
                    too_long = false;
                }
            }
        })
        .expect("spawn engine reader thread");
    rx
}

/// Caps the byte rate: sleeps once a second's budget is spent.
struct RateLimiter {
    budget: usize,
    window_start: Instant,
    used: usize,
}

impl RateLimiter {
    fn new(budget: usize) -> Self {
        RateLimiter {
            budget,
            window_start: Instant::now(),
            used: 0,
        }
    }

    fn take(&mut self, n: usize) {
        self.used += n;
        if self.used < self.budget {
            return;
        }
        let elapsed = self.window_start.elapsed();
        if elapsed < Duration::from_secs(1) {
            std::thread::sleep(Duration::from_secs(1) - elapsed);
        }
        self.window_start = Instant::now();
        self.used = 0;
    }
}

/// Copies a child's stderr to its log file within the engine's `budget`; past it, reads on and
/// drops (so the engine never blocks on a full stderr pipe), after one note in the log.
fn spawn_log_copier(
    mut stderr: std::process::ChildStderr,
    log: &Path,
    pid: i32,
    budget: Arc<LogBudget>,
) {
    let path: PathBuf = log.to_path_buf();
    let _ = std::thread::Builder::new()
        .name("engine stderr".into())
        .spawn(move || {
            let file = OpenOptions::new().create(true).append(true).open(&path);
            let mut file: Option<File> = file.ok();
            let log = |bytes: &[u8], file: &mut Option<File>| {
                let Some(f) = file.as_mut() else { return };
                let (granted, reached) = budget.take(bytes.len() as u64);
                let _ = f.write_all(&bytes[..granted as usize]);
                if reached {
                    let _ = writeln!(
                        f,
                        "\n--- pid {pid}: this engine's log limit of {} bytes for the run is \
                         reached (--log-limit); the rest of its stderr is dropped",
                        budget.limit()
                    );
                }
            };
            log(format!("--- pid {pid} started\n").as_bytes(), &mut file);
            let mut buf = [0u8; 8192];
            loop {
                let n = match stderr.read(&mut buf) {
                    Ok(0) | Err(_) => break,
                    Ok(n) => n,
                };
                log(&buf[..n], &mut file);
            }
        });
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn log_budgets_are_shared_and_reached_once() {
        let b = LogBudget::new(10);
        assert_eq!(b.take(4), (4, false));
        assert_eq!(b.take(8), (6, true));
        assert_eq!(b.take(8), (0, false));
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
