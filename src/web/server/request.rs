//! Reading a request: the head into a buffer of [`MAX_HEAD`] bytes, parsed by `httparse`, a
//! POST body of at most [`MAX_BODY`] bytes, all within [`REQUEST_DEADLINE`].

use std::io::{self, Read};
use std::net::TcpStream;
use std::time::Instant;

use crate::key_values::KeyValues;

use super::{IO_TIMEOUT, MAX_BODY, MAX_HEAD, REQUEST_DEADLINE};

/// A request as read: method, path, query, Host header, body.
pub(super) struct Request {
    pub method: String,
    pub path: String,
    pub query: String,
    pub host: Option<String>,
    pub body: Vec<u8>,
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
pub(super) fn read_request(stream: &mut TcpStream) -> Result<Request, u16> {
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

/// A page's query (the text after `?`) as a `key=value` list: items separated by `&`, not
/// decoded (otau's values are plain). An item that is no `key=value` (a bare flag, `=1`) is
/// left out, as an unknown key is: no page reads one, and a browser or proxy may add items.
pub fn query_values(query: &str) -> KeyValues<'_> {
    let items = query
        .split('&')
        .filter(|i| i.find('=').is_some_and(|at| at > 0));
    KeyValues::parse("the query", items).expect("every item kept is key=value")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn query_values_of_a_page() {
        assert_eq!(query_values("game=3&ply=0").get("ply"), Some("0"));
        assert_eq!(query_values("game=3&flag").pairs(), [("game", "3")]);
        assert_eq!(query_values("=1&n=2").get("n"), Some("2"));
        assert_eq!(query_values("").get("game"), None);
    }
}
