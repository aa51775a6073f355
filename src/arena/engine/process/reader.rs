//! The bounded line reader: an engine's output read by the game's own thread from a
//! non-blocking pipe, each line cut at [`MAX_LINE`], at most [`READ_BUFFER`] bytes read ahead,
//! read at most [`MAX_BYTES_PER_SEC`] (a flood is throttled, never buffered: while the arena does
//! not read, the engine blocks on its own pipe).
//!
//! No thread and no queue stand between the engine and the game: a line costs the game's thread
//! one `read` (often fewer: one read takes every line the engine has written), where a reader
//! thread cost a wake-up and a hand-over through a channel on both sides for each line.

use std::fs::File;
use std::io::{self, Read};
use std::os::fd::{AsFd, BorrowedFd, OwnedFd};
use std::time::{Duration, Instant};

/// The longest line kept from an engine; the rest of a longer line is dropped.
pub const MAX_LINE: usize = 16 * 1024;
/// The engine's output read ahead of the client, at most: one read's worth.
pub const READ_BUFFER: usize = 64 * 1024;
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

/// What one [`LineReader::fill`] found.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub(super) enum Fill {
    /// Bytes were read.
    Read,
    /// Nothing to read now.
    Empty,
    /// The engine closed its output.
    Eof,
    /// This second's [`MAX_BYTES_PER_SEC`] is spent: nothing is read before this (real) time.
    Throttled(Instant),
}

/// An engine's output pipe (non-blocking) and the bytes read from it but not yet handed over.
pub(super) struct LineReader {
    source: File,
    buf: Box<[u8]>,
    /// The bytes of `buf` not yet handed over.
    start: usize,
    end: usize,
    /// When the bytes in `buf` were read (the stamp given by [`LineReader::fill`]).
    read_at: Instant,
    /// The start of a line whose end has not been read yet (at most [`MAX_LINE`] bytes).
    line: Vec<u8>,
    too_long: bool,
    limiter: RateLimiter,
}

impl LineReader {
    /// Reads `source`, which is made non-blocking.
    pub(super) fn new(source: OwnedFd) -> io::Result<LineReader> {
        Ok(LineReader {
            source: crate::arena::engine::process::io::non_blocking(source)?,
            buf: vec![0; READ_BUFFER].into_boxed_slice(),
            start: 0,
            end: 0,
            read_at: Instant::now(),
            line: Vec::with_capacity(256),
            too_long: false,
            limiter: RateLimiter::new(MAX_BYTES_PER_SEC),
        })
    }

    pub(super) fn fd(&self) -> BorrowedFd<'_> {
        self.source.as_fd()
    }

    /// The next whole line already read, with when its end was read; `None` when the bytes read
    /// so far hold no line end (they are kept as the start of the next line).
    pub(super) fn next_line(&mut self) -> Option<(Instant, Incoming)> {
        let chunk = &self.buf[self.start..self.end];
        let (used, complete) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (i + 1, true),
            None => (chunk.len(), false),
        };
        let body = &chunk[..if complete { used - 1 } else { used }];
        let room = MAX_LINE.saturating_sub(self.line.len());
        self.line.extend_from_slice(&body[..body.len().min(room)]);
        self.too_long |= body.len() > room;
        self.start += used;
        if !complete {
            return None;
        }
        if self.line.last() == Some(&b'\r') {
            self.line.pop();
        }
        let text = String::from_utf8_lossy(&self.line).into_owned();
        let item = if self.too_long {
            Incoming::TooLong(text.chars().take(80).collect())
        } else {
            Incoming::Line(text)
        };
        self.line.clear();
        self.too_long = false;
        Some((self.read_at, item))
    }

    /// `Some(end of this second)` while this second's [`MAX_BYTES_PER_SEC`] is spent.
    pub(super) fn throttled(&mut self) -> Option<Instant> {
        self.limiter.spent()
    }

    /// One non-blocking read of what the engine has written, its lines stamped `at`. Call it
    /// only once [`LineReader::next_line`] has returned `None` (every byte read is handed over).
    pub(super) fn fill(&mut self, at: Instant) -> Fill {
        debug_assert_eq!(self.start, self.end, "fill with lines still to hand over");
        if let Some(until) = self.limiter.spent() {
            return Fill::Throttled(until);
        }
        loop {
            return match self.source.read(&mut self.buf) {
                Ok(0) => Fill::Eof,
                Ok(n) => {
                    (self.start, self.end, self.read_at) = (0, n, at);
                    self.limiter.take(n);
                    Fill::Read
                }
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => Fill::Empty,
                // Any other error ends the stream as the end of the output does.
                Err(_) => Fill::Eof,
            };
        }
    }
}

/// Caps the byte rate: once a second's budget is spent, nothing more until the second is over.
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
    }

    /// `Some(end of this second)` while its budget is spent; starts a new second when it is over.
    fn spent(&mut self) -> Option<Instant> {
        if self.used < self.budget {
            return None;
        }
        let end = self.window_start + Duration::from_secs(1);
        let now = Instant::now();
        if now < end {
            return Some(end);
        }
        self.window_start = now;
        self.used = 0;
        None
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn pipe_reader() -> (LineReader, io::PipeWriter) {
        let (r, w) = io::pipe().unwrap();
        (LineReader::new(OwnedFd::from(r)).unwrap(), w)
    }

    #[test]
    fn lines_are_split_across_reads_and_stamped_by_the_read_of_their_end() {
        let (mut reader, mut w) = pipe_reader();
        let t0 = Instant::now();
        let t1 = t0 + Duration::from_secs(1);
        assert_eq!(reader.fill(t0), Fill::Empty);
        w.write_all(b"one\r\ntw").unwrap();
        assert_eq!(reader.fill(t0), Fill::Read);
        assert_eq!(reader.next_line(), Some((t0, Incoming::Line("one".into()))));
        assert_eq!(reader.next_line(), None);
        w.write_all(b"o\n").unwrap();
        assert_eq!(reader.fill(t1), Fill::Read);
        assert_eq!(reader.next_line(), Some((t1, Incoming::Line("two".into()))));
        drop(w);
        assert_eq!(reader.fill(t1), Fill::Eof);
    }

    #[test]
    fn a_line_longer_than_the_bound_keeps_its_start_only() {
        let (mut reader, mut w) = pipe_reader();
        let writer = std::thread::spawn(move || {
            w.write_all(&vec![b'x'; 3 * READ_BUFFER]).unwrap();
            w.write_all(b"\nok\n").unwrap();
        });
        let mut got = Vec::new();
        while got.len() < 2 {
            match reader.next_line() {
                Some((_, item)) => got.push(item),
                None => {
                    if reader.fill(Instant::now()) == Fill::Empty {
                        std::thread::sleep(Duration::from_millis(1));
                    }
                }
            }
            assert!(reader.line.len() <= MAX_LINE);
        }
        writer.join().unwrap();
        assert_eq!(got[0], Incoming::TooLong("x".repeat(80)));
        assert_eq!(got[1], Incoming::Line("ok".into()));
    }

    #[test]
    fn a_spent_second_reads_nothing_more() {
        let (mut reader, mut w) = pipe_reader();
        reader.limiter = RateLimiter::new(4);
        w.write_all(b"abcd\nef\n").unwrap();
        assert_eq!(reader.fill(Instant::now()), Fill::Read);
        while reader.next_line().is_some() {}
        assert!(matches!(reader.fill(Instant::now()), Fill::Throttled(_)));
    }
}
