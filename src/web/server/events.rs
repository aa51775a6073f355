//! Server-Sent Events: an [`EventSource`] (a [`Latest`] keeps only the newest state), and the
//! stream that sends a viewer the newest state when its socket takes it, written without
//! blocking, at most one per [`MIN_EVENT_GAP`], dropping a viewer [`MAX_BEHIND`] states behind.

use std::io::{self, Write};
use std::net::TcpStream;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Condvar, Mutex};
use std::time::{Duration, Instant};

use super::response::COMMON_HEADERS;
use super::{Shared, IO_TIMEOUT, KEEP_ALIVE, MAX_BEHIND, MIN_EVENT_GAP, STREAM_SEND_BUFFER};
use crate::sync::lock;

/// The states an event stream sends.
pub trait EventSource: Send + Sync {
    /// The newest state if it is newer than generation `seen`, waiting for one at most `wait`:
    /// its generation and its data (one line; JSON has no raw newline). None: nothing newer yet.
    fn next_after(&self, seen: u64, wait: Duration) -> Option<(u64, Arc<str>)>;

    /// The generation of the newest state, without waiting or making its data (asked often of a
    /// viewer that falls behind).
    fn newest(&self) -> u64;
}

/// The latest state of something, for any number of event streams: publishing replaces it (and
/// never waits on a viewer); each viewer reads whichever state is newest when it is ready.
#[derive(Default)]
pub struct Latest {
    state: Mutex<(u64, Arc<str>)>,
    changed: Condvar,
}

impl Latest {
    /// No state yet (generation 0).
    pub fn new() -> Latest {
        Latest::default()
    }

    /// Replaces the state; returns its generation (1 for the first).
    pub fn publish(&self, data: String) -> u64 {
        let mut state = lock(&self.state);
        state.0 += 1;
        state.1 = data.into();
        self.changed.notify_all();
        state.0
    }

    /// The state and its generation (0 before any).
    pub fn get(&self) -> (u64, Arc<str>) {
        lock(&self.state).clone()
    }
}

impl EventSource for Latest {
    fn next_after(&self, seen: u64, wait: Duration) -> Option<(u64, Arc<str>)> {
        let guard = lock(&self.state);
        let (state, _) = self
            .changed
            .wait_timeout_while(guard, wait, |s| s.0 <= seen)
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        (state.0 > seen).then(|| state.clone())
    }

    fn newest(&self) -> u64 {
        lock(&self.state).0
    }
}

/// What an event stream has still to hand to its socket, written without blocking.
struct Outgoing {
    bytes: Vec<u8>,
    sent: usize,
    /// When the socket last took a byte (or the stream began).
    progress: Instant,
}

impl Outgoing {
    fn new() -> Outgoing {
        Outgoing {
            bytes: Vec::new(),
            sent: 0,
            progress: Instant::now(),
        }
    }

    fn pending(&self) -> bool {
        self.sent < self.bytes.len()
    }

    fn push(&mut self, data: &[u8]) {
        if !self.pending() {
            self.bytes.clear();
            self.sent = 0;
        }
        self.bytes.extend_from_slice(data);
    }

    /// Hands the socket (non-blocking) what it takes now. An error: the viewer is gone, or its
    /// socket has taken nothing for [`IO_TIMEOUT`].
    fn flush(&mut self, stream: &mut TcpStream) -> io::Result<()> {
        while self.pending() {
            match stream.write(&self.bytes[self.sent..]) {
                Ok(0) => return Err(io::ErrorKind::WriteZero.into()),
                Ok(n) => {
                    self.sent += n;
                    self.progress = Instant::now();
                }
                Err(e) if e.kind() == io::ErrorKind::WouldBlock => break,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
                Err(e) => return Err(e),
            }
        }
        if self.pending() && self.progress.elapsed() >= IO_TIMEOUT {
            return Err(io::ErrorKind::TimedOut.into());
        }
        Ok(())
    }

    /// Hands over everything, each write waiting at most [`IO_TIMEOUT`] (a stream's last state).
    fn finish(&mut self, stream: &mut TcpStream) -> io::Result<()> {
        stream.set_nonblocking(false)?;
        stream.write_all(&self.bytes[self.sent..])?;
        self.sent = self.bytes.len();
        Ok(())
    }
}

/// Sets the kernel's send buffer of `stream` to `bytes` (bounding what a viewer that reads
/// nothing holds, and making its falling behind show sooner).
fn set_send_buffer(stream: &TcpStream, bytes: usize) {
    let _ = rustix::net::sockopt::set_socket_send_buffer_size(stream, bytes);
}

/// Waits until `stream` can take more bytes, at most `wait` (at least a millisecond).
fn wait_writable(stream: &TcpStream, wait: Duration) {
    let wait = wait.max(Duration::from_millis(1));
    let timeout = rustix::event::Timespec {
        tv_sec: wait.as_secs().min(i32::MAX as u64) as i64,
        tv_nsec: wait.subsec_nanos() as _,
    };
    let mut fd = [rustix::event::PollFd::new(
        stream,
        rustix::event::PollFlags::OUT,
    )];
    let _ = rustix::event::poll(&mut fd, Some(&timeout));
}

/// Sends `source`'s states until the viewer goes (a write fails, its socket takes nothing for
/// [`IO_TIMEOUT`], or it falls [`MAX_BEHIND`] states behind) or the server stops; a closing
/// server's streams send the newest state, then end.
pub(super) fn stream_events(stream: &mut TcpStream, source: &dyn EventSource, shared: &Shared) {
    set_send_buffer(stream, STREAM_SEND_BUFFER);
    if stream.set_nonblocking(true).is_err() {
        return;
    }
    let mut out = Outgoing::new();
    out.push(
        format!(
            "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n{COMMON_HEADERS}\r\nretry: 1000\n\n"
        )
        .as_bytes(),
    );
    // The generation of the last state handed to `out`.
    let mut seen = 0;
    // Newer states due while the socket had not taken the last one, counted once per
    // MIN_EVENT_GAP from when it was queued; `tick` is the next count, and the earliest time
    // the next state may go.
    let mut behind = 0;
    let mut tick = Instant::now();
    let mut last_write = Instant::now();
    loop {
        if out.flush(stream).is_err() {
            return;
        }
        if shared.stop.load(Ordering::SeqCst) {
            // A run that ends stops its server after a short grace (`Server::finish`); a stream
            // not scheduled within it still sends the newest state, the run's end, before it
            // goes (bounded by the socket's write timeout, as every write).
            if let Some((_, data)) = source.next_after(seen, Duration::ZERO) {
                out.push(&event(&data));
            }
            let _ = out.finish(stream);
            return;
        }
        let closing = shared.closing.load(Ordering::SeqCst);
        if out.pending() {
            // The viewer has not taken the last state: at the end it gets the newest after it;
            // otherwise it is dropped once it has missed MAX_BEHIND newer ones.
            if closing {
                if let Some((_, data)) = source.next_after(seen, Duration::ZERO) {
                    out.push(&event(&data));
                }
                let _ = out.finish(stream);
                return;
            }
            let now = Instant::now();
            if now >= tick {
                tick = now + MIN_EVENT_GAP;
                if source.newest() > seen {
                    behind += 1;
                    if behind >= MAX_BEHIND {
                        return;
                    }
                }
            }
            // A viewer that reads is sent the rest as fast as it takes it.
            wait_writable(stream, tick.saturating_duration_since(now));
            continue;
        }
        behind = 0;
        let early = tick.saturating_duration_since(Instant::now());
        if !early.is_zero() && !closing {
            std::thread::sleep(early);
            continue;
        }
        let wait = if closing {
            Duration::ZERO
        } else {
            Duration::from_secs(1)
        };
        match source.next_after(seen, wait) {
            Some((_, data)) if closing => {
                out.push(&event(&data));
                let _ = out.finish(stream);
                return;
            }
            Some((generation, data)) => {
                seen = generation;
                out.push(&event(&data));
                last_write = Instant::now();
                tick = last_write + MIN_EVENT_GAP;
            }
            None if closing => return,
            None if last_write.elapsed() >= KEEP_ALIVE => {
                out.push(b": keep-alive\n\n");
                last_write = Instant::now();
            }
            None => {}
        }
    }
}

/// One event: a `data:` line a line of `data`.
fn event(data: &str) -> Vec<u8> {
    format!("data: {}\n\n", data.replace('\n', "\ndata: ")).into_bytes()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_latest_state_replaces_the_one_before() {
        let l = Latest::new();
        assert!(l.next_after(0, Duration::ZERO).is_none());
        l.publish("a".into());
        l.publish("b".into());
        let (g, data) = l.next_after(0, Duration::ZERO).unwrap();
        assert_eq!((g, &*data), (2, "b"));
        assert!(l.next_after(2, Duration::from_millis(1)).is_none());
    }
}
