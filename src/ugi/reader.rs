//! Reading command lines with bounded memory.
//!
//! `BufRead::read_line` grows its buffer without limit, so a peer that sends a never-ending line
//! could exhaust memory. [`LineReader`] keeps at most `cap` bytes of a line and skips the rest up
//! to the next newline, reporting the line as over-long so the caller can say so.

use std::io::{self, BufRead};

/// What one call to [`LineReader::next_line`] found.
#[derive(Debug, PartialEq, Eq)]
pub enum Line<'a> {
    /// A complete line, without its `\n` (a trailing `\r` is kept: token splitting drops it).
    Text(&'a [u8]),
    /// A line longer than the cap: its content was dropped.
    TooLong {
        /// The line's full length in bytes.
        len: usize,
    },
    /// End of input.
    Eof,
}

/// Reads lines of at most `cap` bytes from a [`BufRead`].
pub struct LineReader<R> {
    inner: R,
    cap: usize,
    buf: Vec<u8>,
}

impl<R: BufRead> LineReader<R> {
    /// A reader of lines of at most `cap` bytes from `inner`.
    pub fn new(inner: R, cap: usize) -> Self {
        LineReader {
            inner,
            cap,
            buf: Vec::new(),
        }
    }

    /// The next line. A last line without a newline still counts as a line.
    pub fn next_line(&mut self) -> io::Result<Line<'_>> {
        self.buf.clear();
        let mut len = 0usize;
        let mut saw_any = false;
        loop {
            let chunk = match self.inner.fill_buf() {
                Ok(c) => c,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if chunk.is_empty() {
                // EOF: a pending partial line is returned first, EOF on the next call.
                if !saw_any {
                    return Ok(Line::Eof);
                }
                break;
            }
            saw_any = true;
            let (part, found_newline) = match chunk.iter().position(|&b| b == b'\n') {
                Some(i) => (&chunk[..i], true),
                None => (chunk, false),
            };
            len += part.len();
            if len <= self.cap {
                self.buf.extend_from_slice(part);
            }
            let used = part.len() + usize::from(found_newline);
            self.inner.consume(used);
            if found_newline {
                break;
            }
        }
        if len > self.cap {
            self.buf = Vec::new(); // give back any memory the long line took
            Ok(Line::TooLong { len })
        } else {
            Ok(Line::Text(&self.buf))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8], cap: usize) -> Vec<String> {
        let mut r = LineReader::new(io::BufReader::with_capacity(7, input), cap);
        let mut out = Vec::new();
        loop {
            match r.next_line().unwrap() {
                Line::Text(t) => out.push(String::from_utf8_lossy(t).into_owned()),
                Line::TooLong { len } => out.push(format!("<too long {len}>")),
                Line::Eof => return out,
            }
        }
    }

    #[test]
    fn splits_lines_across_buffer_refills() {
        assert_eq!(
            lines(b"isready\r\n\nposition startpos moves 1 2\nquit", 100),
            ["isready\r", "", "position startpos moves 1 2", "quit"]
        );
    }

    #[test]
    fn over_long_lines_are_skipped_to_their_end() {
        let mut input = b"ugi\n".to_vec();
        input.extend(std::iter::repeat_n(b'x', 1000));
        input.extend_from_slice(b"\nisready\n");
        input.extend(std::iter::repeat_n(b'y', 50));
        assert_eq!(
            lines(&input, 20),
            ["ugi", "<too long 1000>", "isready", "<too long 50>"]
        );
    }

    #[test]
    fn a_line_exactly_at_the_cap_is_kept() {
        assert_eq!(lines(b"12345\n123456\n", 5), ["12345", "<too long 6>"]);
    }
}
