//! The HTTP server under every otau page: one request per connection, every read, write and
//! buffer bounded, and Server-Sent Events whose viewers each take the latest state.
//!
//! The request head is read by [`request`] into a buffer of [`MAX_HEAD`] bytes and parsed by
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
//!
//! The modules: [`request`] reads a request within its bounds; [`response`] writes an answer
//! and closes the connection; [`events`] serves the event streams (and holds [`Latest`]);
//! [`address`] reads `--addr` and says where the pages are reachable. This file holds the
//! bounds, the [`Site`] a server serves, and the accept loop with its places for visitors.

mod address;
mod events;
mod request;
mod response;

use std::io;
use std::net::{IpAddr, SocketAddr, TcpListener, TcpStream};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use crate::sync::lock;

pub use address::{parse_addr, DEFAULT_ADDR};
pub use events::{EventSource, Latest};
pub use response::Reply;

use address::{exposure, reachable};
use events::stream_events;
pub use request::query_values;

use request::{read_request, Request};
use response::{close, respond};

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
    /// A handle on the connection's socket (a duplicate, closed with the entry), shut down both
    /// ways to push it out: its thread's next read or write fails.
    socket: TcpStream,
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
            let _ = oldest.socket.shutdown(std::net::Shutdown::Both);
        }
        // No handle (no descriptor left): the connection is refused like one over the bounds.
        let handle = socket.try_clone().ok()?;
        let id = self.next_id.fetch_add(1, Ordering::SeqCst);
        open.push(Open {
            id,
            since: Instant::now(),
            phase: Phase::Request,
            socket: handle,
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

    /// The address the server listens on (with the port the system chose, if port 0 was asked).
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
