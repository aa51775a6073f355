//! Hostile web clients for the page server's tests (`tests/integration/web_server.rs`, `tests/integration/web_live.rs`):
//! slow request heads, clients that keep sending after their request, and event streams that
//! are never read, held open from a thread of their own until dropped.

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

/// How many hostile clients of each kind.
#[derive(Clone, Copy, Default)]
pub struct Mix {
    /// Send a request head a byte at a time and never finish it.
    pub slow_heads: usize,
    /// Send a whole request, then keep sending.
    pub endless: usize,
    /// Ask for `/events` and never read.
    pub unread_streams: usize,
}

/// Hostile clients at work until dropped.
pub struct Hostile {
    stop: Arc<AtomicBool>,
    workers: Vec<JoinHandle<()>>,
    /// Event streams opened, kept unread until drop.
    streams: Vec<TcpStream>,
}

fn connect(addr: SocketAddr) -> Option<TcpStream> {
    let s = TcpStream::connect_timeout(&addr, Duration::from_secs(10)).ok()?;
    s.set_write_timeout(Some(Duration::from_secs(2))).ok()?;
    Some(s)
}

impl Hostile {
    /// Opens the clients of `mix` against `addr` (each once; a client the server drops is not
    /// opened again) and keeps them sending.
    pub fn start(addr: SocketAddr, mix: Mix) -> Hostile {
        let stop = Arc::new(AtomicBool::new(false));
        let streams = (0..mix.unread_streams)
            .filter_map(|_| {
                let mut s = connect(addr)?;
                write!(s, "GET /events HTTP/1.1\r\nHost: {addr}\r\n\r\n").ok()?;
                Some(s)
            })
            .collect();
        let slow: Vec<TcpStream> = (0..mix.slow_heads)
            .filter_map(|_| {
                let mut s = connect(addr)?;
                write!(s, "GET / HTTP/1.1\r\nHost: {addr}\r\nX-Slow: ").ok()?;
                Some(s)
            })
            .collect();
        let endless: Vec<TcpStream> = (0..mix.endless)
            .filter_map(|_| {
                let mut s = connect(addr)?;
                write!(s, "GET / HTTP/1.1\r\nHost: {addr}\r\n\r\n").ok()?;
                s.set_nonblocking(true).ok()?;
                Some(s)
            })
            .collect();
        let mut workers = Vec::new();
        let flag = stop.clone();
        workers.push(std::thread::spawn(move || trickle(slow, &flag)));
        let flag = stop.clone();
        workers.push(std::thread::spawn(move || flood(endless, &flag)));
        Hostile {
            stop,
            workers,
            streams,
        }
    }

    /// The unread streams' first answer lines (read now, at the end): how many were served
    /// (200) and how many refused (503).
    pub fn stream_outcomes(&mut self) -> (usize, usize) {
        let (mut served, mut refused) = (0, 0);
        for s in &mut self.streams {
            let _ = s.set_read_timeout(Some(Duration::from_secs(10)));
            let mut status = [0u8; 12];
            if s.read_exact(&mut status).is_ok() {
                match &status[9..12] {
                    b"200" => served += 1,
                    b"503" => refused += 1,
                    _ => {}
                }
            }
        }
        (served, refused)
    }
}

impl Drop for Hostile {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::SeqCst);
        for w in self.workers.drain(..) {
            let _ = w.join();
        }
    }
}

/// One byte a second... here one every 200 ms to each socket, while the server keeps it.
fn trickle(mut sockets: Vec<TcpStream>, stop: &AtomicBool) {
    while !stop.load(Ordering::SeqCst) && !sockets.is_empty() {
        sockets.retain_mut(|s| s.write_all(b"a").is_ok());
        std::thread::sleep(Duration::from_millis(200));
    }
}

/// Sends to every socket whatever it takes, while the server keeps it.
fn flood(mut sockets: Vec<TcpStream>, stop: &AtomicBool) {
    let chunk = [b'x'; 4096];
    while !stop.load(Ordering::SeqCst) && !sockets.is_empty() {
        sockets.retain_mut(|s| match s.write(&chunk) {
            Ok(_) => true,
            Err(e) => e.kind() == std::io::ErrorKind::WouldBlock,
        });
        std::thread::sleep(Duration::from_millis(5));
    }
}

/// A normal visitor: GET `path` with the right Host, answer read within `limit`. The status
/// (0 if no answer) and the time the answer took.
pub fn visit(addr: SocketAddr, path: &str, limit: Duration) -> (u16, Duration) {
    let started = Instant::now();
    let Ok(mut s) = TcpStream::connect_timeout(&addr, limit) else {
        return (0, started.elapsed());
    };
    let _ = s.set_read_timeout(Some(limit));
    let _ = s.set_write_timeout(Some(limit));
    if write!(
        s,
        "GET {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"
    )
    .is_err()
    {
        return (0, started.elapsed());
    }
    let mut out = Vec::new();
    let _ = s.read_to_end(&mut out);
    let status = std::str::from_utf8(out.get(9..12).unwrap_or_default())
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(0);
    (status, started.elapsed())
}
