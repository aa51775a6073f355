//! The bounded line reader: an engine's output as a queue of lines, each cut at [`MAX_LINE`],
//! at most [`QUEUE_LINES`] waiting, read at most [`MAX_BYTES_PER_SEC`] (a flood is throttled,
//! never buffered).

use std::io::{self, BufRead, BufReader, Read};
use std::sync::mpsc::{sync_channel, Receiver};
use std::time::{Duration, Instant};

use crate::arena::pause;

/// The longest line kept from an engine; the rest of a longer line is dropped.
pub const MAX_LINE: usize = 16 * 1024;
/// Lines waiting to be read by the client, at most.
pub const QUEUE_LINES: usize = 256;
/// The most bytes a second the reader takes from one engine.
pub const MAX_BYTES_PER_SEC: usize = 8 * 1024 * 1024;

/// What the engine said, as the reader hands it over.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum Incoming {
    /// One line, without its line end (invalid UTF-8 replaced).
    Line(String),
    /// A line longer than [`MAX_LINE`]: its start only.
    TooLong(String),
}

/// Reads lines on a thread into a bounded queue; ends when the engine closes its output or the
/// receiving side is dropped.
pub(super) fn spawn_reader<R: Read + Send + 'static>(source: R) -> Receiver<(Instant, Incoming)> {
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
