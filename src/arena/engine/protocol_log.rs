//! `--log FILE`: every line the arena exchanges with an engine, as fastchess's log has it:
//!
//! ```text
//! [12:03:07.041207] <arena worker 0> ---> Alpha : go wtime 1000 btime 1000
//! [12:03:07.139950] <arena worker 0> <--- Alpha : bestmove 7
//! ```
//!
//! The time is UTC, to the microsecond: the wall clock read once when the log opens, advanced by
//! the arena's monotonic clock, so the times in a log never go back (a wall-clock step during the
//! run does not reorder them). It is taken when the session writes a line or reads it from the
//! engine's output, and the line is queued under the same lock, so the file is in time order.
//! The label in angle brackets is the arena's thread (worker N plays one game at a time).
//!
//! Writes never hold up a game: lines go through a bounded queue to a writer thread; a line that
//! finds the queue full (a slow disk, a reader of a FIFO that stalls) is counted and dropped, and
//! the log says how many were. The log is bounded: once the next line would take it past its
//! limit (`--log-max`), it says so in a last line and takes nothing more, so the bytes this run
//! adds never pass the limit. A write error ends the log the same way, reported at the end of the
//! session. An existing file is appended to, never truncated (a resumed run goes on after it).
//! The log is no part of the records: nothing read from it changes a run.

use std::fs::File;
use std::io::{BufWriter, Write};
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::mpsc::{sync_channel, Receiver, RecvTimeoutError, SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result};

use crate::arena::system::files::{self, Named, Target};

/// `--log-max`'s default, in MiB.
pub const DEFAULT_LOG_MAX_MIB: u64 = 256;
/// The room kept for the last line that says the limit is reached (it is shorter).
const NOTE_ROOM: u64 = 160;
/// Lines queued for the writer before further ones are dropped.
const QUEUE_LINES: usize = 8192;
/// How long the end of a session waits for the writer to write what is queued: a FIFO whose
/// reader stopped must not keep the arena from exiting.
const FINISH_WAIT: Duration = Duration::from_secs(2);

/// Which way a line went.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Direction {
    /// A line the arena wrote to the engine.
    ToEngine,
    /// A line the engine wrote to the arena.
    FromEngine,
}

impl Direction {
    fn arrow(self) -> &'static str {
        match self {
            Direction::ToEngine => "--->",
            Direction::FromEngine => "<---",
        }
    }
}

/// The clock of the log's times: UTC microseconds since the epoch, never going back.
#[derive(Clone, Copy)]
struct Clock {
    wall_start_us: u128,
    start: Instant,
}

impl Clock {
    fn new() -> Clock {
        Clock {
            wall_start_us: SystemTime::now()
                .duration_since(UNIX_EPOCH)
                .map_or(0, |d| d.as_micros()),
            start: Instant::now(),
        }
    }

    /// `HH:MM:SS.uuuuuu`, UTC.
    fn stamp(&self) -> String {
        time_of_day(self.wall_start_us + self.start.elapsed().as_micros())
    }
}

/// A time in microseconds since the epoch as `HH:MM:SS.uuuuuu`, UTC.
fn time_of_day(us: u128) -> String {
    let micros = us % 1_000_000;
    let secs = (us / 1_000_000) % 86_400;
    format!(
        "{:02}:{:02}:{:02}.{micros:06}",
        secs / 3600,
        secs / 60 % 60,
        secs % 60
    )
}

/// The open protocol log of a run, shared by every engine session.
pub(crate) struct ProtocolLog {
    /// The queue's sending end and the clock, under one lock so that times are in file order;
    /// `None` once the log is finished.
    sender: Mutex<Option<(SyncSender<String>, Clock)>>,
    /// Lines dropped because the queue was full, not yet reported in the log.
    dropped: Arc<AtomicU64>,
    /// Signalled (by disconnection) when the writer has written everything.
    done: Mutex<Option<Receiver<()>>>,
    /// Why the writer stopped before the end, if it did.
    problem: Arc<Mutex<Option<String>>>,
    /// The log file's lock, held as long as the run (the writer's copy closes when it ends).
    _lock: Option<File>,
}

impl ProtocolLog {
    /// Opens `out` for appending (a FIFO or device as a stream: see [`files::open_stream`]),
    /// the bytes this run writes to it bounded by `max_bytes`. The caller has checked the location
    /// and that it collides with no other output.
    pub fn open(out: &Named, max_bytes: u64) -> Result<Arc<ProtocolLog>> {
        // A regular file is held under an exclusive lock for the run, as every output is.
        let (file, lock) = match files::target(&out.path)? {
            Target::Stream => (files::open_stream(out)?, None),
            t => {
                let f = files::open_append(out, t == Target::Absent)?;
                let lock = f
                    .try_clone()
                    .with_context(|| format!("{out}: cannot be opened"))?;
                (f, Some(lock))
            }
        };
        Ok(ProtocolLog::over(file, out.to_string(), max_bytes, lock))
    }

    fn over(file: File, name: String, max_bytes: u64, lock: Option<File>) -> Arc<ProtocolLog> {
        let (tx, rx) = sync_channel::<String>(QUEUE_LINES);
        let (done_tx, done_rx) = sync_channel::<()>(0);
        let dropped = Arc::new(AtomicU64::new(0));
        let problem = Arc::new(Mutex::new(None));
        let clock = Clock::new();
        let writer = Writer {
            clock,
            out: BufWriter::new(file),
            name,
            max_bytes,
            written: 0,
            ended: false,
            dropped: dropped.clone(),
            problem: problem.clone(),
        };
        std::thread::Builder::new()
            .name("protocol log".into())
            .spawn(move || {
                writer.run(rx);
                drop(done_tx);
            })
            .expect("spawn the protocol log's writer");
        Arc::new(ProtocolLog {
            sender: Mutex::new(Some((tx, clock))),
            dropped,
            done: Mutex::new(Some(done_rx)),
            problem,
            _lock: lock,
        })
    }

    /// Logs one line exchanged with `engine`; never waits for the writer.
    pub fn line(&self, engine: &str, direction: Direction, text: &str) {
        let guard = self.sender.lock().unwrap_or_else(|e| e.into_inner());
        let Some((tx, clock)) = guard.as_ref() else {
            return;
        };
        let thread = std::thread::current();
        let entry = format!(
            "[{}] <{}> {} {engine} : {text}\n",
            clock.stamp(),
            thread.name().unwrap_or("arena"),
            direction.arrow()
        );
        match tx.try_send(entry) {
            Ok(()) | Err(TrySendError::Disconnected(_)) => {}
            Err(TrySendError::Full(_)) => {
                self.dropped.fetch_add(1, Ordering::Relaxed);
            }
        }
    }

    /// Ends the log: what is queued is written (waiting at most [`FINISH_WAIT`]). Returns why the
    /// log is incomplete, if it is (a write error, a writer still blocked), for a note.
    pub fn finish(&self) -> Option<String> {
        let taken = self.sender.lock().unwrap_or_else(|e| e.into_inner()).take();
        drop(taken);
        if let Some(done) = self.done.lock().unwrap_or_else(|e| e.into_inner()).take() {
            if done.recv_timeout(FINISH_WAIT) == Err(RecvTimeoutError::Timeout) {
                return Some(
                    "the protocol log's file took nothing for 2 s (a stalled reader?): its last \
                     lines may be missing"
                        .to_string(),
                );
            }
        }
        self.problem
            .lock()
            .unwrap_or_else(|e| e.into_inner())
            .clone()
    }
}

impl Drop for ProtocolLog {
    /// A session that ends without [`ProtocolLog::finish`] (a records write error) still gets
    /// its queued lines written, within the same bound.
    fn drop(&mut self) {
        let _ = self.finish();
    }
}

/// The writer thread's side.
struct Writer {
    clock: Clock,
    out: BufWriter<File>,
    name: String,
    max_bytes: u64,
    written: u64,
    /// The limit was reached or a write failed: nothing more is written.
    ended: bool,
    dropped: Arc<AtomicU64>,
    problem: Arc<Mutex<Option<String>>>,
}

impl Writer {
    fn run(mut self, rx: Receiver<String>) {
        loop {
            let line = match rx.try_recv() {
                Ok(l) => l,
                Err(_) => {
                    // Idle: what is written so far reaches the file (for `tail -f`).
                    self.flush();
                    match rx.recv() {
                        Ok(l) => l,
                        Err(_) => break,
                    }
                }
            };
            let dropped = self.dropped.swap(0, Ordering::Relaxed);
            if dropped > 0 {
                self.put(&format!(
                    "[{}] <protocol log> {dropped} lines not logged: the log fell behind\n",
                    self.clock.stamp()
                ));
            }
            self.put(&line);
        }
        self.flush();
    }

    /// Writes `line` unless the log has ended; ends it when `line` would pass the limit.
    fn put(&mut self, line: &str) {
        if self.ended {
            return;
        }
        if self.written + line.len() as u64 + NOTE_ROOM > self.max_bytes {
            self.ended = true;
            let note = format!(
                "[{}] <protocol log> log limit reached ({} bytes, --log-max): the rest of the \
                 run is not logged\n",
                self.clock.stamp(),
                self.max_bytes
            );
            if self.written + note.len() as u64 <= self.max_bytes {
                self.write(&note);
            }
            return;
        }
        self.write(line);
    }

    fn write(&mut self, text: &str) {
        match self.out.write_all(text.as_bytes()) {
            Ok(()) => self.written += text.len() as u64,
            Err(e) => self.fail(e),
        }
    }

    fn flush(&mut self) {
        if let Err(e) = self.out.flush() {
            self.fail(e);
        }
    }

    fn fail(&mut self, e: std::io::Error) {
        if !self.ended {
            self.ended = true;
            *self.problem.lock().unwrap_or_else(|p| p.into_inner()) = Some(format!(
                "{}: cannot be written ({e}); the protocol log stops there",
                self.name
            ));
        }
    }
}

/// What an engine session logs its lines with: the run's log and the engine's name.
#[derive(Clone)]
pub(crate) struct Tap {
    log: Arc<ProtocolLog>,
    engine: String,
}

impl Tap {
    pub fn new(log: Arc<ProtocolLog>, engine: &str) -> Tap {
        Tap {
            log,
            engine: engine.to_string(),
        }
    }

    pub fn line(&self, direction: Direction, text: &str) {
        self.log.line(&self.engine, direction, text);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let d = std::env::temp_dir().join(format!("otau-protolog-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&d);
        std::fs::create_dir_all(&d).unwrap();
        d
    }

    #[test]
    fn times_of_day_are_utc_to_the_microsecond() {
        assert_eq!(time_of_day(0), "00:00:00.000000");
        // 2026-12-01 12:03:07.041207 UTC.
        assert_eq!(time_of_day(1_796_126_587_041_207), "12:03:07.041207");
    }

    #[test]
    fn lines_are_written_in_order_and_the_limit_is_never_passed() {
        let d = scratch("limit");
        let path = d.join("log.txt");
        std::fs::write(&path, "kept\n").unwrap();
        let log = ProtocolLog::open(&Named::new("--log", &path), 4096).unwrap();
        for i in 0..200 {
            log.line("Alpha", Direction::ToEngine, &format!("go {i}"));
            log.line("Beta", Direction::FromEngine, &format!("bestmove {i}"));
        }
        assert_eq!(log.finish(), None);
        log.line("Alpha", Direction::ToEngine, "after the end");
        let text = std::fs::read_to_string(&path).unwrap();
        let added = text
            .strip_prefix("kept\n")
            .expect("an existing log is appended to");
        assert!(added.len() <= 4096, "{} bytes", added.len());
        let lines: Vec<&str> = added.lines().collect();
        assert!(lines[0].ends_with("> ---> Alpha : go 0"), "{}", lines[0]);
        assert!(
            lines[1].ends_with("> <--- Beta : bestmove 0"),
            "{}",
            lines[1]
        );
        let last = lines.last().unwrap();
        assert!(last.contains("log limit reached (4096 bytes"), "{last}");
        assert_eq!(added.matches("log limit reached").count(), 1);
        assert!(!added.contains("after the end"));
        // Times in file order never go back.
        let stamps: Vec<&str> = lines.iter().map(|l| &l[1..16]).collect();
        assert!(stamps.windows(2).all(|w| w[0] <= w[1]), "{stamps:?}");
        let _ = std::fs::remove_dir_all(&d);
    }

    #[test]
    fn a_full_device_is_reported_and_does_not_hold_up_lines() {
        let Ok(full) = File::options().write(true).open("/dev/full") else {
            return;
        };
        let log = ProtocolLog::over(full, "--log /dev/full".into(), 1 << 20, None);
        for i in 0..QUEUE_LINES * 3 {
            log.line("Alpha", Direction::ToEngine, &format!("go {i}"));
        }
        let problem = log.finish().expect("the error is reported");
        assert!(
            problem.contains("/dev/full") && problem.contains("stops"),
            "{problem}"
        );
    }
}
