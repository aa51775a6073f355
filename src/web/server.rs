//! The HTTP server under every otau page: one request per connection, every read, write and
//! buffer bounded, and Server-Sent Events whose viewers each take the latest state.
//!
//! The request head is read by this file into a buffer of [`MAX_HEAD`] bytes and parsed by
//! `httparse` (the parser under hyper: no I/O of its own, so every bound is ours); a body is read
//! only for POST, at most [`MAX_BODY`] bytes. Each connection has its own thread, at most
//! [`MAX_CONNECTIONS`] at once (the next is answered 503 and closed), and read and write
//! timeouts: a client that sends nothing, or stops reading, is dropped after [`IO_TIMEOUT`].
//!
//! Events: a [`Reply::Events`] stream asks its [`EventSource`] for the state after the last one
//! it sent. A source keeps only its latest state (a [`Latest`]), so a slow viewer skips states
//! instead of queueing them, and the publisher (the arena) never waits on a socket: it writes
//! its state and returns. A viewer is sent at most one state per [`MIN_EVENT_GAP`].

use std::borrow::Cow;
use std::io::{self, Read, Write};
use std::net::{IpAddr, Ipv4Addr, Shutdown, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
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
/// Connections served at once (event streams included).
pub const MAX_CONNECTIONS: usize = 64;
/// A read or write that makes no progress for this long ends the connection.
pub const IO_TIMEOUT: Duration = Duration::from_secs(10);
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
    connections: AtomicUsize,
    /// The Host values a loopback server answers (a page elsewhere that rebinds a name to
    /// 127.0.0.1 sends its own name and gets 400).
    hosts: Option<Vec<String>>,
}

impl Server {
    /// Binds `addr` and serves `site` from a thread of its own.
    pub fn start(addr: SocketAddr, site: Arc<dyn Site>) -> io::Result<Server> {
        let listener = TcpListener::bind(addr)?;
        let addr = listener.local_addr()?;
        let hosts = addr.ip().is_loopback().then(|| {
            let port = addr.port();
            vec![
                format!("127.0.0.1:{port}"),
                format!("localhost:{port}"),
                format!("[::1]:{port}"),
            ]
        });
        let shared = Arc::new(Shared {
            site,
            stop: AtomicBool::new(false),
            closing: AtomicBool::new(false),
            connections: AtomicUsize::new(0),
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

    /// `http://127.0.0.1:PORT/` (an unspecified address `0.0.0.0` is shown as loopback, where it
    /// is reached too).
    pub fn url(&self) -> String {
        let mut addr = self.addr;
        if addr.ip().is_unspecified() {
            addr.set_ip(IpAddr::V4(Ipv4Addr::LOCALHOST));
        }
        format!("http://{addr}/")
    }

    /// Connections open now (event streams included).
    pub fn connections(&self) -> usize {
        self.shared.connections.load(Ordering::SeqCst)
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
            let mut wake = self.addr;
            if wake.ip().is_unspecified() {
                wake.set_ip(IpAddr::V4(Ipv4Addr::LOCALHOST));
            }
            let _ = TcpStream::connect_timeout(&wake, Duration::from_secs(1));
            let _ = accept.join();
        }
    }
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
        let Ok(mut stream) = stream else { continue };
        let _ = stream.set_read_timeout(Some(IO_TIMEOUT));
        let _ = stream.set_write_timeout(Some(IO_TIMEOUT));
        let _ = stream.set_nodelay(true);
        if shared.connections.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
            shared.connections.fetch_sub(1, Ordering::SeqCst);
            let _ = stream.set_write_timeout(Some(Duration::from_millis(200)));
            let _ = respond(
                &mut stream,
                503,
                "text/plain",
                b"too many connections\n",
                &[],
            );
            continue;
        }
        let inner = shared.clone();
        let spawned = std::thread::Builder::new()
            .name("web connection".into())
            .spawn(move || {
                serve_connection(stream, &inner);
                inner.connections.fetch_sub(1, Ordering::SeqCst);
            });
        if spawned.is_err() {
            shared.connections.fetch_sub(1, Ordering::SeqCst);
        }
    }
}

/// One request, answered, then the connection is closed.
fn serve_connection(mut stream: TcpStream, shared: &Shared) {
    let reply = match read_request(&mut stream) {
        Ok(req) => route(&req, shared),
        Err(status) => {
            let _ = respond(&mut stream, status, "text/plain", b"bad request\n", &[]);
            return;
        }
    };
    match reply {
        Reply::Body { content_type, body } => {
            let _ = respond(&mut stream, 200, content_type, body.as_bytes(), &[]);
        }
        Reply::Events(source) => stream_events(&mut stream, &*source, shared),
        Reply::NotFound => {
            let _ = respond(&mut stream, 404, "text/plain", b"not found\n", &[]);
        }
        Reply::MethodNotAllowed => {
            let allow = [("Allow", "GET")];
            let _ = respond(
                &mut stream,
                405,
                "text/plain",
                b"method not allowed\n",
                &allow,
            );
        }
        Reply::BadRequest(why) => {
            let _ = respond(
                &mut stream,
                400,
                "text/plain",
                format!("{why}\n").as_bytes(),
                &[],
            );
        }
    }
    let _ = stream.flush();
    let _ = stream.shutdown(Shutdown::Write);
    // Let the client read the answer before the socket closes (closing with unread input resets).
    let mut sink = [0u8; 512];
    let _ = stream.set_read_timeout(Some(Duration::from_millis(200)));
    while matches!(stream.read(&mut sink), Ok(n) if n > 0) {}
}

/// A request as read: method, path, query, Host header, body.
struct Request {
    method: String,
    path: String,
    query: String,
    host: Option<String>,
    body: Vec<u8>,
}

/// Reads one request: the head within [`MAX_HEAD`] bytes (else 431), a POST body within
/// [`MAX_BODY`] (else 413); an unreadable request is 400.
fn read_request(stream: &mut TcpStream) -> Result<Request, u16> {
    let mut buf = vec![0u8; MAX_HEAD];
    let mut filled = 0;
    let (head_len, method, target, host, length) = loop {
        let n = stream.read(&mut buf[filled..]).map_err(|_| 400u16)?;
        if n == 0 {
            return Err(400);
        }
        filled += n;
        let mut headers = [httparse::EMPTY_HEADER; 48];
        let mut req = httparse::Request::new(&mut headers);
        match req.parse(&buf[..filled]) {
            Ok(httparse::Status::Complete(len)) => {
                let header = |name: &str| {
                    req.headers
                        .iter()
                        .find(|h| h.name.eq_ignore_ascii_case(name))
                        .and_then(|h| std::str::from_utf8(h.value).ok())
                        .map(|v| v.trim().to_string())
                };
                let length = match header("content-length") {
                    Some(v) => v.parse::<usize>().map_err(|_| 400u16)?,
                    None => 0,
                };
                break (
                    len,
                    req.method.unwrap_or_default().to_string(),
                    req.path.unwrap_or_default().to_string(),
                    header("host"),
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
        let mut rest = Read::take(&mut *stream, (length - body.len()) as u64);
        rest.read_to_end(&mut body).map_err(|_| 400u16)?;
        if body.len() != length {
            return Err(400);
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
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        503 => "Service Unavailable",
        _ => "Error",
    }
}

/// Sends `source`'s states until the viewer goes (a write fails or times out) or the server
/// stops; a closing server's streams send the newest state, then end.
fn stream_events(stream: &mut TcpStream, source: &dyn EventSource, shared: &Shared) {
    let head = format!(
        "HTTP/1.1 200 OK\r\nContent-Type: text/event-stream\r\n{COMMON_HEADERS}\r\nretry: 1000\n\n"
    );
    if stream.write_all(head.as_bytes()).is_err() {
        return;
    }
    let mut seen = 0;
    let mut last_write = Instant::now();
    loop {
        if shared.stop.load(Ordering::SeqCst) {
            // A run that ends stops its server after a short grace (`Server::finish`); a stream
            // not scheduled within it still sends the newest state, the run's end, before it
            // goes (bounded by the socket's write timeout, as every write).
            if let Some((_, data)) = source.next_after(seen, Duration::ZERO) {
                let _ = write_event(stream, &data);
            }
            return;
        }
        let closing = shared.closing.load(Ordering::SeqCst);
        let wait = if closing {
            Duration::ZERO
        } else {
            Duration::from_secs(1)
        };
        let wrote = match source.next_after(seen, wait) {
            Some((_, data)) if closing => {
                let _ = write_event(stream, &data);
                return;
            }
            Some((generation, data)) => {
                seen = generation;
                let ok = write_event(stream, &data).is_ok();
                std::thread::sleep(MIN_EVENT_GAP);
                ok
            }
            None if closing => return,
            None if last_write.elapsed() >= KEEP_ALIVE => {
                stream.write_all(b": keep-alive\n\n").is_ok()
            }
            None => continue,
        };
        if !wrote {
            return;
        }
        last_write = Instant::now();
    }
}

/// One event: a `data:` line a line of `data`.
fn write_event(stream: &mut TcpStream, data: &str) -> io::Result<()> {
    let event = format!("data: {}\n\n", data.replace('\n', "\ndata: "));
    stream.write_all(event.as_bytes())
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
