//! Answering: the status line and the headers every answer carries, and closing the
//! connection after it (what the client still sends read for at most [`DRAIN_DEADLINE`] and
//! [`DRAIN_BYTES`]).

use std::borrow::Cow;
use std::io::{self, Read, Write};
use std::net::{Shutdown, TcpStream};
use std::sync::Arc;
use std::time::Instant;

use super::events::EventSource;
use super::{DRAIN_BYTES, DRAIN_DEADLINE};

/// What a site answers to a request.
pub enum Reply {
    /// A page, script, style sheet or JSON document.
    Body {
        /// The `Content-Type` header.
        content_type: &'static str,
        /// The body.
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
    /// An HTML page.
    pub fn html(body: impl Into<Cow<'static, str>>) -> Reply {
        Reply::Body {
            content_type: "text/html; charset=utf-8",
            body: body.into(),
        }
    }

    /// A script.
    pub fn js(body: &'static str) -> Reply {
        Reply::Body {
            content_type: "text/javascript; charset=utf-8",
            body: Cow::Borrowed(body),
        }
    }

    /// A style sheet.
    pub fn css(body: &'static str) -> Reply {
        Reply::Body {
            content_type: "text/css; charset=utf-8",
            body: Cow::Borrowed(body),
        }
    }

    /// A JSON document.
    pub fn json(body: String) -> Reply {
        Reply::Body {
            content_type: "application/json",
            body: Cow::Owned(body),
        }
    }
}

/// The headers every answer carries: no caching, no sniffing, no scripts but the server's own
/// files (no inline script runs, even one that escaping missed), no framing.
pub(super) const COMMON_HEADERS: &str =
    "Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n\
Referrer-Policy: no-referrer\r\nContent-Security-Policy: default-src 'self'; img-src 'self' data:; \
style-src 'self' 'unsafe-inline'; frame-ancestors 'none'\r\nConnection: close\r\n";

pub(super) fn respond(
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

/// Ends a connection after its answer. What the client still sends is read first (closing a
/// socket with unread input resets it, and the client may lose the answer), but only for
/// [`DRAIN_DEADLINE`] and [`DRAIN_BYTES`]: a client that keeps sending is cut off.
pub(super) fn close(stream: &mut TcpStream) {
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
