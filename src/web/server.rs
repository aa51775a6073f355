//! The HTTP server under every otau page: one request per connection, every read, write and
//! buffer bounded, and Server-Sent Events whose viewers each take the latest state.
//!
//! The request head is read by this file into a buffer of [`MAX_HEAD`] bytes and parsed by
//! `httparse` (the parser under hyper: no I/O of its own, so every bound is ours); a body is read
//! only for POST, at most [`MAX_BODY`] bytes. The whole request (head and body) must arrive
//! within [`REQUEST_DEADLINE`] (a client sending a byte a second is answered 408 and dropped),
//! and what a client sends after its request is read for at most [`DRAIN_DEADLINE`] and
//! [`DRAIN_BYTES`] before the connection closes.
//!
//! Room for visitors: each connection has its own thread, at most [`MAX_CONNECTIONS`] at once,
//! of which at most [`MAX_STREAMS`] event streams (the next stream is answered 503). When every
//! place is taken, a new connection takes the place of the oldest one that is not an event
//! stream (a client still sending its request, or one being answered): a normal request is
//! read and answered in milliseconds, so what is pushed out is the clients that hold a place
//! longest, and a page is answered however many slow clients are connected.
//!
//! Events: a [`Reply::Events`] stream asks its [`EventSource`] for the state after the last one
//! it sent. A source keeps only its latest state (a [`Latest`]), so a slow viewer skips states
//! instead of queueing them, and the publisher (the arena) never waits on a socket: it writes
//! its state and returns. A viewer is sent at most one state per [`MIN_EVENT_GAP`], written
//! without blocking; a viewer whose socket has not taken the last state while [`MAX_BEHIND`]
//! newer ones were due is dropped (a browser reconnects and gets the newest state).

use std::borrow::Cow;
use std::io::{self, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Ipv6Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::os::fd::{AsRawFd, RawFd};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::sync::lock;

/// The address pages are served on when none is given: loopback, a port the system picks (the
/// URL is printed).
pub const DEFAULT_ADDR: SocketAddr = SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), 0);
/// Bytes of a request line and headers.
pub const MAX_HEAD: usize = 8 << 10;
/// Bytes of a POST body.
pub const MAX_BODY: usize = 64 << 10;
/// Connections served at once (event streams included): when all are taken, a new connection
/// pushes out the oldest that is not an event stream. Each is a thread and a file descriptor
/// (a quarter of the usual limit of 1024).
pub const MAX_CONNECTIONS: usize = 256;
/// Event streams served at once (the next is answered 503 "too many viewers", which a browser
/// does not retry: so enough for 64 that never read and real viewers besides); the other places
/// stay for pages.
pub const MAX_STREAMS: usize = 96;
/// Connections pushed out whose threads have not ended yet, at most (they end at their next
/// read or write).
const MAX_ENDING: usize = 64;
/// A read or write that makes no progress for this long ends the connection.
pub const IO_TIMEOUT: Duration = Duration::from_secs(10);
/// The whole request, head and body, must arrive within this (else 408).
pub const REQUEST_DEADLINE: Duration = Duration::from_secs(5);
/// After its answer, what a client still sends is read (so that the answer is not reset away)
/// for at most this long...
pub const DRAIN_DEADLINE: Duration = Duration::from_secs(1);
/// ... and at most this many bytes; then the connection closes.
pub const DRAIN_BYTES: usize = 64 << 10;
/// An event-stream viewer whose socket has not taken the last state sent while this many newer
/// states were due (one per [`MIN_EVENT_GAP`]) is dropped.
pub const MAX_BEHIND: u32 = 16;
/// The kernel's send buffer of an event stream (what a viewer that reads nothing holds of the
/// server's memory, besides the state being sent).
pub const STREAM_SEND_BUFFER: usize = 64 << 10;
/// The shortest time between two states sent to one viewer.
pub const MIN_EVENT_GAP: Duration = Duration::from_millis(200);
/// A comment line is sent to an idle event stream this often (a proxy or browser then knows the
/// stream is alive, and a vanished viewer is found by the failed write).
pub const KEEP_ALIVE: Duration = Duration::from_secs(15);

/// What a site answers to a request.
pub enum Reply {
    /// A page, script, style sheet or JSON document.
    Body {
        content_type: &'static str,
        body: Cow<'static, str>,
    },
    /// A stream of Server-Sent Events, one `data:` line a state.
    Events(Arc<dyn EventSource>),
    /// 404.
    NotFound,
    /// 405: the path exists, not for this method.
    MethodNotAllowed,
    /// 400 with a reason shown to the client.
    BadRequest(String),
}

impl Reply {
    pub fn html(body: impl Into<Cow<'static, str>>) -> Reply {
        Reply::Body {
            content_type: "text/html; charset=utf-8",
            body: body.into(),
        }
    }

    pub fn js(body: &'static str) -> Reply {
        Reply::Body {
            content_type: "text/javascript; charset=utf-8",
            body: Cow::Borrowed(body),
        }
    }

    pub fn css(body: &'static str) -> Reply {
        Reply::Body {
            content_type: "text/css; charset=utf-8",
            body: Cow::Borrowed(body),
        }
    }

    pub fn json(body: String) -> Reply {
        Reply::Body {
            content_type: "application/json",
            body: Cow::Owned(body),
        }
    }
}

/// The pages of one server. Read-only sites answer only `get`; `post` is 405 unless a site
/// takes it (the play page's moves).
pub trait Site: Send + Sync + 'static {
    /// GET `path` (without the query), `query` the text after `?` (empty if none, not decoded).
    fn get(&self, path: &str, query: &str) -> Reply;

    /// POST `path` with `body` (at most [`MAX_BODY`] bytes).
    fn post(&self, _path: &str, _body: &[u8]) -> Reply {
        Reply::MethodNotAllowed
    }
}

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

/// The address of `--live ADDR` and `--addr ADDR`: `PORT` (on loopback), `HOST:PORT` or
/// `[V6]:PORT`; none: [`DEFAULT_ADDR`]. Only an address given explicitly is other than loopback.
pub fn parse_addr(text: Option<&str>) -> Result<SocketAddr, String> {
    let Some(text) = text.map(str::trim).filter(|t| !t.is_empty()) else {
        return Ok(DEFAULT_ADDR);
    };
    if let Ok(port) = text.parse::<u16>() {
        return Ok(SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), port));
    }
    if let Some(port) = text.strip_prefix("localhost:") {
        return port
            .parse::<u16>()
            .map(|p| SocketAddr::new(IpAddr::V4(Ipv4Addr::LOCALHOST), p))
            .map_err(|_| format!("'{text}': the port must be a number 0..65535"));
    }
    text.parse::<SocketAddr>().map_err(|_| {
        format!("'{text}': not an address; give PORT, HOST:PORT (an IP address) or [IPV6]:PORT")
    })
}

/// A running server; dropping it stops it (connections in progress end within a second or
/// [`IO_TIMEOUT`]).
pub struct Server {
    addr: SocketAddr,
    shared: Arc<Shared>,
    accept: Option<JoinHandle<()>>,
}

struct Shared {
    site: Arc<dyn Site>,
    stop: AtomicBool,
    /// Event streams send the newest state and end ([`Server::finish`]).
    closing: AtomicBool,
    /// The connections open now, each with a handle to shut its socket down when a new
    /// connection needs its place.
    open: Mutex<Vec<Open>>,
    next_id: AtomicU64,
    /// The Host values a loopback server answers (a page elsewhere that rebinds a name to
    /// 127.0.0.1 sends its own name and gets 400).
    hosts: Option<Vec<String>>,
}

/// One open connection, as the accept loop sees it.
struct Open {
    id: u64,
    since: Instant,
    phase: Phase,
    /// The connection's socket, shut down (both ways) to push it out: its thread's next read or
    /// write fails. Open while the entry is: the thread closes it only after [`Shared::leave`].
    socket: RawFd,
    /// Pushed out: no longer counted, its thread is ending.
    evicted: bool,
}

#[derive(Clone, Copy, PartialEq, Eq)]
enum Phase {
    /// Reading the request, answering it, or reading what the client sends after.
    Request,
    /// An event stream.
    Stream,
}

impl Shared {
    /// Registers a new connection, pushing out the oldest that is not an event stream if all
    /// [`MAX_CONNECTIONS`] places are taken. None: no place (every place an event stream, or
    /// too many threads still ending).
    fn admit(&self, socket: &TcpStream) -> Option<u64> {
        let mut open = lock(&self.open);
        let live = open.iter().filter(|c| !c.evicted).count();
        if open.len() - live >= MAX_ENDING {
            return None;
        }
        if live >= MAX_CONNECTIONS {
            let oldest = open
                .iter_mut()
                .filter(|c| !c.evicted && c.phase == Phase::Request)
                .min_by_key(|c| c.since)?;
            oldest.evicted = true;
            // SAFETY: the descriptor is open: its thread closes it only after removing the
            // entry, under the lock held here.
            unsafe { libc::shutdown(oldest.socket, libc::SHUT_RDWR) };
        }
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        open.push(Open {
            id,
            since: Instant::now(),
            phase: Phase::Request,
            socket: socket.as_raw_fd(),
            evicted: false,
        });
        Some(id)
    }

    /// Makes connection `id` an event stream if fewer than [`MAX_STREAMS`] are open.
    fn become_stream(&self, id: u64) -> bool {
        let mut open = lock(&self.open);
        let streams = open
            .iter()
            .filter(|c| !c.evicted && c.phase == Phase::Stream)
            .count();
        if streams >= MAX_STREAMS {
            return false;
        }
        match open.iter_mut().find(|c| c.id == id) {
            Some(c) if !c.evicted => {
                c.phase = Phase::Stream;
                true
            }
            _ => false,
        }
    }

    fn leave(&self, id: u64) {
        lock(&self.open).retain(|c| c.id != id);
    }
}

impl Server {
    /// Binds `addr` and serves `site` from a thread of its own.
    pub fn start(addr: SocketAddr, site: Arc<dyn Site>) -> io::Result<Server> {
        let listener = TcpListener::bind(addr)?;
        let addr = listener.local_addr()?;
        let hosts = addr.ip().is_loopback().then(|| {
            let port = addr.port();
            let mut hosts = vec![
                addr.to_string(),
                format!("127.0.0.1:{port}"),
                format!("localhost:{port}"),
                format!("[::1]:{port}"),
            ];
            if port == 80 {
                // A browser leaves out the port it takes by default.
                let bound = match addr.ip() {
                    IpAddr::V6(ip) => format!("[{ip}]"),
                    ip => ip.to_string(),
                };
                hosts.extend([
                    bound,
                    "127.0.0.1".into(),
                    "localhost".into(),
                    "[::1]".into(),
                ]);
            }
            hosts.dedup();
            hosts
        });
        let shared = Arc::new(Shared {
            site,
            stop: AtomicBool::new(false),
            closing: AtomicBool::new(false),
            open: Mutex::new(Vec::new()),
            next_id: AtomicU64::new(0),
            hosts,
        });
        let inner = shared.clone();
        let accept = std::thread::Builder::new()
            .name("web accept".into())
            .spawn(move || accept_loop(&listener, &inner))?;
        Ok(Server {
            addr,
            shared,
            accept: Some(accept),
        })
    }

    pub fn addr(&self) -> SocketAddr {
        self.addr
    }

    /// The URL to print: the bound address, or for an unspecified one (`0.0.0.0`, `[::]`) the
    /// loopback address of its family, where it is reached too.
    pub fn url(&self) -> String {
        format!("http://{}/", reachable(self.addr))
    }

    /// For a server that is not on loopback, the warning to print beside its URL: who else can
    /// open the pages.
    pub fn exposure(&self) -> Option<String> {
        exposure(self.addr)
    }

    /// Connections open now (event streams included).
    pub fn connections(&self) -> usize {
        lock(&self.shared.open)
            .iter()
            .filter(|c| !c.evicted)
            .count()
    }

    /// Stops accepting and tells the event streams to end.
    pub fn stop(mut self) {
        self.halt();
    }

    /// Stops after the event streams have sent their source's newest state (the end of a run),
    /// waiting at most `wait` for them.
    pub fn finish(mut self, wait: Duration) {
        self.shared.closing.store(true, Ordering::SeqCst);
        self.wait_for_connections(wait);
        self.halt();
        // A stream not scheduled within the grace sends the newest state as soon as it runs
        // (see `stream_events`); on a loaded machine that can be after the grace, and a process
        // that exits now would cut it off. So wait for the streams once more, as long again.
        self.wait_for_connections(wait);
    }

    /// Waits until no connection is open, at most `wait`.
    fn wait_for_connections(&self, wait: Duration) {
        let deadline = Instant::now() + wait;
        while self.connections() > 0 && Instant::now() < deadline {
            std::thread::sleep(Duration::from_millis(10));
        }
    }

    fn halt(&mut self) {
        self.shared.stop.store(true, Ordering::SeqCst);
        if let Some(accept) = self.accept.take() {
            // Wake the accept call with a connection of our own.
            let wake = reachable(self.addr);
            let _ = TcpStream::connect_timeout(&wake, Duration::from_secs(1));
            let _ = accept.join();
        }
    }
}

/// `addr`, or for an unspecified address the loopback address of its family with its port.
fn reachable(mut addr: SocketAddr) -> SocketAddr {
    match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => addr.set_ip(IpAddr::V4(Ipv4Addr::LOCALHOST)),
        IpAddr::V6(ip) if ip.is_unspecified() => addr.set_ip(IpAddr::V6(Ipv6Addr::LOCALHOST)),
        _ => {}
    }
    addr
}

/// The warning for pages served on `addr` when it is not loopback.
fn exposure(addr: SocketAddr) -> Option<String> {
    if addr.ip().is_loopback() {
        return None;
    }
    let port = addr.port();
    let whom = if addr.ip().is_unspecified() {
        format!("listening on {addr}, every network interface of this machine")
    } else {
        format!("listening on {addr}")
    };
    Some(format!(
        "warning: {whom}: the pages are reachable from the network, by anyone who can connect \
         to this machine's port {port}, with no password; give 127.0.0.1:{port} (or PORT) to \
         keep them on this machine"
    ))
}

impl Drop for Server {
    fn drop(&mut self) {
        self.halt();
    }
}

fn accept_loop(listener: &TcpListener, shared: &Arc<Shared>) {
    for stream in listener.incoming() {
        if shared.stop.load(Ordering::SeqCst) {
            break;
        }
        let Ok(mut stream) = stream else {
            // Out of file descriptors, most likely: wait for some to close rather than spin.
            std::thread::sleep(Duration::from_millis(10));
            continue;
        };
        let _ = stream.set_read_timeout(Some(IO_TIMEOUT));
        let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
        let _ = stream.set_nodelay(true);
        let Some(id) = shared.admit(&stream) else {
            let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
            let _ = respond(
                &mut stream,
                503,
                "text/plain",
                b"too many connections\n",
                &[],
            );
            continue;
        };
        let inner = shared.clone();
        let spawned = std::thread::Builder::new()
            .name("web connection".into())
            .spawn(move || {
                serve_connection(&mut stream, id, &inner);
                // Unregistered before the socket closes (see `Open::socket`).
                inner.leave(id);
                drop(stream);
            });
        if spawned.is_err() {
            shared.leave(id);
        }
    }
}

/// One request, answered, then the connection is closed.
fn serve_connection(stream: &mut TcpStream, id: u64, shared: &Shared) {
    let reply = match read_request(stream) {
        Ok(req) => route(&req, shared),
        Err(status) => {
            let why: &[u8] = match status {
                408 => b"the request did not arrive in time\n",
                _ => b"bad request\n",
            };
            let _ = respond(stream, status, "text/plain", why, &[]);
            close(stream);
            return;
        }
    };
    match reply {
        Reply::Body { content_type, body } => {
            let _ = respond(stream, 200, content_type, body.as_bytes(), &[]);
        }
        Reply::Events(source) if shared.become_stream(id) => {
            stream_events(stream, &*source, shared);
        }
        Reply::Events(_) => {
            let _ = respond(stream, 503, "text/plain", b"too many viewers\n", &[]);
        }
        Reply::NotFound => {
            let _ = respond(stream, 404, "text/plain", b"not found\n", &[]);
        }
        Reply::MethodNotAllowed => {
            let allow = [("Allow", "GET")];
            let _ = respond(stream, 405, "text/plain", b"method not allowed\n", &allow);
        }
        Reply::BadRequest(why) => {
            let _ = respond(
                stream,
                400,
                "text/plain",
                format!("{why}\n").as_bytes(),
                &[],
            );
        }
    }
    close(stream);
}

/// Ends a connection after its answer. What the client still sends is read first (closing a
/// socket with unread input resets it, and the client may lose the answer), but only for
/// [`DRAIN_DEADLINE`] and [`DRAIN_BYTES`]: a client that keeps sending is cut off.
fn close(stream: &mut TcpStream) {
    let _ = stream.set_nonblocking(false);
    let _ = stream.flush();
    let _ = stream.shutdown(Shutdown::Write);
    let deadline = Instant::now() + DRAIN_DEADLINE;
    let mut sink = [0u8; 4096];
    let mut drained = 0;
    while drained < DRAIN_BYTES {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() || stream.set_read_timeout(Some(left)).is_err() {
            break;
        }
        match stream.read(&mut sink) {
            Ok(n) if n > 0 => drained += n,
            _ => break,
        }
    }
}

/// A request as read: method, path, query, Host header, body.
struct Request {
    method: String,
    path: String,
    query: String,
    host: Option<String>,
    body: Vec<u8>,
}

/// Reads `buf` from `stream` before `deadline` (each read waits at most [`IO_TIMEOUT`]): the
/// bytes read, 0 at the end of the stream; 408 when the deadline passes, 400 on another error.
fn read_before(stream: &mut TcpStream, buf: &mut [u8], deadline: Instant) -> Result<usize, u16> {
    let left = deadline.saturating_duration_since(Instant::now());
    if left.is_zero() {
        return Err(408);
    }
    stream
        .set_read_timeout(Some(left.min(IO_TIMEOUT)))
        .map_err(|_| 400u16)?;
    match stream.read(buf) {
        Ok(n) => Ok(n),
        Err(e)
            if matches!(
                e.kind(),
                io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
            ) =>
        {
            Err(if Instant::now() >= deadline { 408 } else { 400 })
        }
        Err(_) => Err(400),
    }
}

/// Reads one request within [`REQUEST_DEADLINE`] (else 408): the head within [`MAX_HEAD`]
/// bytes (else 431), a POST body within [`MAX_BODY`] (else 413); an unreadable request, or one
/// that repeats its Host or Content-Length header (two values, one of which the server would
/// ignore), is 400.
fn read_request(stream: &mut TcpStream) -> Result<Request, u16> {
    let deadline = Instant::now() + REQUEST_DEADLINE;
    let mut buf = vec![0u8; MAX_HEAD];
    let mut filled = 0;
    let (head_len, method, target, host, length) = loop {
        let n = read_before(stream, &mut buf[filled..], deadline)?;
        if n == 0 {
            return Err(400);
        }
        filled += n;
        let mut headers = [httparse::EMPTY_HEADER; 48];
        let mut req = httparse::Request::new(&mut headers);
        match req.parse(&buf[..filled]) {
            Ok(httparse::Status::Complete(len)) => {
                let header = |name: &str| -> Result<Option<String>, u16> {
                    let mut values = req
                        .headers
                        .iter()
                        .filter(|h| h.name.eq_ignore_ascii_case(name));
                    let value = values.next();
                    if values.next().is_some() {
                        return Err(400);
                    }
                    value
                        .map(|h| std::str::from_utf8(h.value).map(|v| v.trim().to_string()))
                        .transpose()
                        .map_err(|_| 400u16)
                };
                let length = match header("content-length")? {
                    Some(v) => v.parse::<usize>().map_err(|_| 400u16)?,
                    None => 0,
                };
                break (
                    len,
                    req.method.unwrap_or_default().to_string(),
                    req.path.unwrap_or_default().to_string(),
                    header("host")?,
                    length,
                );
            }
            Ok(httparse::Status::Partial) if filled == buf.len() => return Err(431),
            Ok(httparse::Status::Partial) => {}
            Err(_) => return Err(400),
        }
    };
    let mut body = Vec::new();
    if method == "POST" {
        if length > MAX_BODY {
            return Err(413);
        }
        body.extend_from_slice(&buf[head_len..filled.min(head_len + length)]);
        let mut chunk = [0u8; 4096];
        while body.len() < length {
            let want = (length - body.len()).min(chunk.len());
            match read_before(stream, &mut chunk[..want], deadline)? {
                0 => return Err(400),
                n => body.extend_from_slice(&chunk[..n]),
            }
        }
    }
    let (path, query) = target.split_once('?').unwrap_or((&target, ""));
    Ok(Request {
        path: path.to_string(),
        query: query.to_string(),
        method,
        host,
        body,
    })
}

fn route(req: &Request, shared: &Shared) -> Reply {
    if let Some(hosts) = &shared.hosts {
        let known = req
            .host
            .as_deref()
            .is_some_and(|h| hosts.iter().any(|k| k.eq_ignore_ascii_case(h)));
        if !known {
            return Reply::BadRequest(
                "this server answers only requests to its loopback address".into(),
            );
        }
    }
    match req.method.as_str() {
        "GET" => shared.site.get(&req.path, &req.query),
        "POST" => shared.site.post(&req.path, &req.body),
        _ => Reply::MethodNotAllowed,
    }
}

/// The headers every answer carries: no caching, no sniffing, no scripts but the server's own
/// files (no inline script runs, even one that escaping missed), no framing.
const COMMON_HEADERS: &str = "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
Referrer-Policy: no-referrer\r\nContent-Security-Policy: default-src 'self'; img-src 'self' data:; \
style-src 'self' 'unsafe-inline'; frame-ancestors 'none'\r\nConnection: close\r\n";

fn respond(
    stream: &mut TcpStream,
    status: u16,
    content_type: &str,
    body: &[u8],
    extra: &[(&str, &str)],
) -> io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {status} {}\r\nContent-Type: {content_type}\r\nContent-Length: {}\r\n{COMMON_HEADERS}",
        reason(status),
        body.len()
    );
    for (name, value) in extra {
        head.push_str(&format!("{name}: {value}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(body)
}

fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Error",
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
    let value = libc::c_int::try_from(bytes).unwrap_or(libc::c_int::MAX);
    // SAFETY: the socket is open for the call; the option's value is a c_int, passed by address
    // with its size.
    unsafe {
        libc::setsockopt(
            stream.as_raw_fd(),
            libc::SOL_SOCKET,
            libc::SO_SNDBUF,
            (&value as *const libc::c_int).cast(),
            std::mem::size_of::<libc::c_int>() as libc::socklen_t,
        );
    }
}

/// Waits until `stream` can take more bytes, at most `wait`.
fn wait_writable(stream: &TcpStream, wait: Duration) {
    let mut fd = libc::pollfd {
        fd: stream.as_raw_fd(),
        events: libc::POLLOUT,
        revents: 0,
    };
    let ms = libc::c_int::try_from(wait.as_millis()).unwrap_or(libc::c_int::MAX);
    // SAFETY: one pollfd, valid for the call, for a socket that is open.
    unsafe { libc::poll(&mut fd, 1, ms.max(1)) };
}

/// Sends `source`'s states until the viewer goes (a write fails, its socket takes nothing for
/// [`IO_TIMEOUT`], or it falls [`MAX_BEHIND`] states behind) or the server stops; a closing
/// server's streams send the newest state, then end.
fn stream_events(stream: &mut TcpStream, source: &dyn EventSource, shared: &Shared) {
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

/// The value of `name` in a query string `a=1&b=2` (not decoded: otau's values are plain).
pub fn query_param<'q>(query: &'q str, name: &str) -> Option<&'q str> {
    query
        .split('&')
        .filter_map(|kv| kv.split_once('=').or(Some((kv, ""))))
        .find(|(k, _)| *k == name)
        .map(|(_, v)| v)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn addresses() {
        assert_eq!(parse_addr(None).unwrap(), DEFAULT_ADDR);
        assert_eq!(
            parse_addr(Some("8080")).unwrap().to_string(),
            "127.0.0.1:8080"
        );
        assert_eq!(
            parse_addr(Some("localhost:9")).unwrap().to_string(),
            "127.0.0.1:9"
        );
        assert_eq!(
            parse_addr(Some("0.0.0.0:80")).unwrap().to_string(),
            "0.0.0.0:80"
        );
        assert_eq!(parse_addr(Some("[::1]:7")).unwrap().to_string(), "[::1]:7");
        let e = parse_addr(Some("example.org:80")).unwrap_err();
        assert!(
            e.contains("example.org:80") && e.contains("HOST:PORT"),
            "{e}"
        );
        assert!(parse_addr(Some("70000")).is_err());
    }

    #[test]
    fn urls_and_exposure_of_each_address() {
        let at = |a: &str| a.parse::<SocketAddr>().unwrap();
        assert_eq!(reachable(at("0.0.0.0:80")), at("127.0.0.1:80"));
        assert_eq!(reachable(at("[::]:80")), at("[::1]:80"));
        assert_eq!(reachable(at("127.0.0.2:80")), at("127.0.0.2:80"));
        for quiet in ["127.0.0.1:80", "127.0.0.2:80", "[::1]:80"] {
            assert_eq!(exposure(at(quiet)), None, "{quiet}");
        }
        for exposed in ["0.0.0.0:8080", "[::]:8080", "192.168.1.2:8080"] {
            let w = exposure(at(exposed)).unwrap();
            assert!(
                w.contains(exposed) && w.contains("reachable from the network"),
                "{w}"
            );
            assert!(w.contains("127.0.0.1:8080"), "the way back: {w}");
        }
    }

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

    #[test]
    fn query_values() {
        assert_eq!(query_param("game=3&ply=0", "ply"), Some("0"));
        assert_eq!(query_param("game=3&flag", "flag"), Some(""));
        assert_eq!(query_param("", "game"), None);
    }
}
