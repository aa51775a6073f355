//! The HTTP server under the pages (`otau::web::server`), spoken to with plain sockets: routes,
//! 404 and 405, the loopback Host check, bounded heads, and event streams that drop to the
//! latest state.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::sync::Arc;
use std::time::Duration;

use otau::web::server::{parse_addr, Latest, Reply, Server, Site};

struct Test {
    feed: Arc<Latest>,
}

impl Site for Test {
    fn get(&self, path: &str, _query: &str) -> Reply {
        match path {
            "/" => Reply::html("<p>hello</p>"),
            "/events" => Reply::Events(self.feed.clone()),
            _ => otau::web::assets::asset(path).unwrap_or(Reply::NotFound),
        }
    }
}

fn start() -> (Server, Arc<Latest>) {
    let feed = Arc::new(Latest::new());
    let site = Arc::new(Test { feed: feed.clone() });
    (
        Server::start(parse_addr(None).unwrap(), site).unwrap(),
        feed,
    )
}

/// Sends `request` as is and reads the whole answer.
fn raw(addr: SocketAddr, request: &str) -> String {
    let mut s = TcpStream::connect(addr).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    let mut out = String::new();
    let _ = s.read_to_string(&mut out);
    out
}

fn request(addr: SocketAddr, method: &str, path: &str) -> String {
    raw(
        addr,
        &format!("{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\n\r\n"),
    )
}

#[test]
fn pages_unknown_paths_and_other_methods() {
    let (server, _) = start();
    let addr = server.addr();
    assert!(addr.ip().is_loopback(), "loopback by default: {addr}");
    assert!(server.url().starts_with("http://127.0.0.1:"));
    let page = request(addr, "GET", "/");
    assert!(page.starts_with("HTTP/1.1 200 OK\r\n"), "{page}");
    assert!(page.contains("Content-Security-Policy: default-src 'self'"));
    assert!(page.ends_with("<p>hello</p>"));
    let js = request(addr, "GET", "/board.js");
    assert!(js.contains("text/javascript") && js.contains("OtauBoard"));
    for path in ["/nothing", "/../etc/passwd", "/board.js/x", "//"] {
        let r = request(addr, "GET", path);
        assert!(r.starts_with("HTTP/1.1 404 "), "{path}: {r}");
    }
    for method in ["POST", "PUT", "DELETE", "HEAD", "OPTIONS"] {
        let r = request(addr, method, "/");
        assert!(r.starts_with("HTTP/1.1 405 "), "{method}: {r}");
        assert!(r.contains("Allow: GET"), "{method}: {r}");
    }
}

#[test]
fn a_loopback_server_refuses_other_hosts_and_oversized_heads() {
    let (server, _) = start();
    let addr = server.addr();
    let r = raw(addr, "GET / HTTP/1.1\r\nHost: evil.example:80\r\n\r\n");
    assert!(r.starts_with("HTTP/1.1 400 "), "{r}");
    let r = raw(addr, "GET / HTTP/1.1\r\n\r\n");
    assert!(r.starts_with("HTTP/1.1 400 "), "no Host: {r}");
    let r = raw(
        addr,
        &format!(
            "GET / HTTP/1.1\r\nHost: {addr}\r\nX: {}\r\n\r\n",
            "a".repeat(9000)
        ),
    );
    assert!(r.starts_with("HTTP/1.1 431 "), "{r}");
    let r = raw(addr, "NOT HTTP AT ALL\r\n\r\n");
    assert!(r.starts_with("HTTP/1.1 400 "), "{r}");
    // Still serving.
    assert!(request(addr, "GET", "/").starts_with("HTTP/1.1 200"));
}

/// Reads event lines until one `data:` line; returns its data.
fn next_data(lines: &mut impl BufRead) -> String {
    let mut line = String::new();
    loop {
        line.clear();
        assert!(lines.read_line(&mut line).unwrap() > 0, "stream ended");
        if let Some(data) = line.strip_prefix("data: ") {
            return data.trim_end().to_string();
        }
    }
}

#[test]
fn event_streams_send_the_latest_state_to_every_viewer() {
    let (server, feed) = start();
    let addr = server.addr();
    feed.publish("one".into());
    let mut viewers: Vec<_> = (0..3)
        .map(|_| {
            let mut s = TcpStream::connect(addr).unwrap();
            s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
            write!(s, "GET /events HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
            BufReader::new(s)
        })
        .collect();
    for v in &mut viewers {
        let mut status = String::new();
        v.read_line(&mut status).unwrap();
        assert!(status.starts_with("HTTP/1.1 200"), "{status}");
        assert_eq!(next_data(v), "one");
    }
    // Many states while the viewers read nothing: each then gets the newest, not a backlog.
    for i in 0..1000 {
        feed.publish(format!("state {i}"));
    }
    for v in &mut viewers {
        let mut got = next_data(v);
        while got != "state 999" {
            got = next_data(v);
        }
    }
    // A viewer that connects and never reads holds up nobody: publishing stays instant.
    let stalled = TcpStream::connect(addr).unwrap();
    write!(&stalled, "GET /events HTTP/1.1\r\nHost: {addr}\r\n\r\n").unwrap();
    let big = "x".repeat(1 << 20);
    let started = std::time::Instant::now();
    for _ in 0..50 {
        feed.publish(big.clone());
    }
    assert!(
        started.elapsed() < Duration::from_secs(10),
        "publishing waited on a viewer"
    );
    drop(stalled);
    assert!(server.connections() >= 3);
}
