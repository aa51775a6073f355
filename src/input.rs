//! Reading the files a user names as input (engines file, opening book, PGN, records): one
//! opener for all, so that none is read without a byte bound or can wait for ever.
//!
//! A path may name anything: `/dev/zero` (endless bytes: read whole, it exhausts memory), a FIFO
//! with no writer (a plain `open` waits for one for ever), a terminal, a directory. Only regular
//! files are read: the file is opened without waiting (`O_NONBLOCK`, which makes a FIFO's `open`
//! return at once and changes nothing for a regular file), its kind is taken from the open file
//! itself (so a symlink swapped after a check cannot bring a device in), and at most `limit`
//! bytes are ever read from it, even if it grows while being read. Every error names the file
//! and what it was read as.

use std::borrow::Cow;
use std::fs::File;
use std::io::Read;
use std::os::unix::fs::{FileTypeExt, OpenOptionsExt};
use std::path::Path;

/// A UTF-8 byte-order mark, which some editors and exporters put at the start of a text file:
/// it is not part of the text (the first line would otherwise not read as what it is).
pub const BOM: char = '\u{feff}';

/// Opens `path` for reading as `what` (`"opening file"`, `"engines file"`...): a regular file of
/// at most `limit` bytes, returned with a reader that stops after `limit` bytes whatever happens
/// to the file meanwhile. Never waits: a FIFO is refused at once, writer or not.
pub fn open_input_file(path: &Path, limit: u64, what: &str) -> Result<std::io::Take<File>, String> {
    let fail = |why: String| format!("{what} {}: {why}", path.display());
    let file = std::fs::OpenOptions::new()
        .read(true)
        .custom_flags(libc::O_NONBLOCK)
        .open(path)
        .map_err(|e| fail(e.to_string()))?;
    let meta = file.metadata().map_err(|e| fail(e.to_string()))?;
    let kind = meta.file_type();
    if !kind.is_file() {
        let is = if kind.is_dir() {
            "a directory"
        } else if kind.is_fifo() {
            "a FIFO (named pipe)"
        } else if kind.is_char_device() {
            "a character device"
        } else if kind.is_block_device() {
            "a block device"
        } else if kind.is_socket() {
            "a socket"
        } else {
            "not a regular file"
        };
        return Err(fail(format!(
            "{is}: only a regular file is read (copy the data to a file first)"
        )));
    }
    if meta.len() > limit {
        return Err(fail(format!(
            "{} bytes, more than the {limit} read from one {what}",
            meta.len()
        )));
    }
    Ok(file.take(limit + 1))
}

/// The text of `path` read as `what` by [`open_input_file`]: at most `limit` bytes of UTF-8,
/// without a leading byte-order mark.
pub fn read_input_file(path: &Path, limit: u64, what: &str) -> Result<String, String> {
    let fail = |why: String| format!("{what} {}: {why}", path.display());
    let mut bytes = Vec::new();
    open_input_file(path, limit, what)?
        .read_to_end(&mut bytes)
        .map_err(|e| fail(e.to_string()))?;
    if bytes.len() as u64 > limit {
        return Err(fail(format!(
            "grew past the {limit} bytes read from one {what} while it was read"
        )));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        let at = e.utf8_error().valid_up_to();
        let line = 1 + e.as_bytes()[..at].iter().filter(|&&b| b == b'\n').count();
        fail(format!("line {line}: not UTF-8 text (byte {at})"))
    })?;
    Ok(match text.strip_prefix(BOM) {
        Some(rest) => rest.to_string(),
        None => text,
    })
}

/// `text` made safe to print in a message on a terminal: control characters (other than line
/// breaks and tabs, which messages use themselves), bidirectional overrides and zero-width
/// characters are written as `\u{1b}`, so that a byte read from a hostile file (NUL, ESC and
/// its terminal sequences, a right-to-left override) is shown, never acted on.
pub fn escape_controls(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c != '\n' && c != '\t' && hidden(c)) {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c != '\n' && c != '\t' && hidden(c) {
            out.extend(c.escape_unicode());
        } else {
            out.push(c);
        }
    }
    Cow::Owned(out)
}

/// A character that is not shown as itself, or changes how the text around it is shown: control
/// characters, bidirectional marks, embeddings, overrides and isolates, zero-width characters,
/// the line and paragraph separators.
pub fn hidden(c: char) -> bool {
    c.is_control()
        || matches!(
            c,
            '\u{061C}'
                | '\u{200B}'..='\u{200F}'
                | '\u{2028}'..='\u{202E}'
                | '\u{2060}'..='\u{2069}'
                | '\u{FEFF}'
        )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> std::path::PathBuf {
        let dir = std::env::temp_dir().join(format!("otau-input-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        dir.join(name)
    }

    /// `/dev/zero`, directly or through a symlink, is refused at once by kind, naming the
    /// file; it would otherwise be read until memory ran out.
    #[test]
    fn devices_and_links_to_them_are_refused() {
        let err = read_input_file(Path::new("/dev/zero"), 1 << 20, "opening file").unwrap_err();
        assert!(
            err.starts_with("opening file /dev/zero: a character device"),
            "{err}"
        );
        let link = scratch("zero-link");
        let _ = std::fs::remove_file(&link);
        std::os::unix::fs::symlink("/dev/zero", &link).unwrap();
        let err = read_input_file(&link, 1 << 20, "engines file").unwrap_err();
        assert!(err.contains("zero-link: a character device"), "{err}");
        let _ = std::fs::remove_file(&link);
    }

    /// A FIFO with no writer would block `open` for ever: it is opened without waiting and
    /// refused.
    #[test]
    fn a_fifo_without_writer_is_refused_without_waiting() {
        let fifo = scratch("fifo");
        let _ = std::fs::remove_file(&fifo);
        // The POSIX command: rustix has no `mkfifo` on macOS.
        let made = std::process::Command::new("mkfifo")
            .args(["-m", "600"])
            .arg(&fifo)
            .status();
        assert!(made.is_ok_and(|s| s.success()), "mkfifo {}", fifo.display());
        let err = read_input_file(&fifo, 1 << 20, "engines file").unwrap_err();
        assert!(err.contains("fifo: a FIFO (named pipe)"), "{err}");
        let _ = std::fs::remove_file(&fifo);
    }

    #[test]
    fn size_bound_bom_and_utf8_errors_name_the_file() {
        let path = scratch("text");
        std::fs::write(&path, "\u{feff}line 1\nline 2\n").unwrap();
        assert_eq!(
            read_input_file(&path, 100, "book").unwrap(),
            "line 1\nline 2\n"
        );
        let err = read_input_file(&path, 5, "book").unwrap_err();
        assert!(err.contains("text: 17 bytes, more than the 5"), "{err}");
        std::fs::write(&path, b"ok\n\xff\n").unwrap();
        let err = read_input_file(&path, 100, "book").unwrap_err();
        assert!(
            err.contains("text: line 2: not UTF-8 text (byte 3)"),
            "{err}"
        );
        let err = read_input_file(&scratch("absent"), 100, "book").unwrap_err();
        assert!(err.starts_with("book ") && err.contains("absent"), "{err}");
    }

    #[test]
    fn controls_are_escaped_in_messages() {
        assert_eq!(escape_controls("a\nb\tc"), "a\nb\tc");
        assert_eq!(
            escape_controls("x\0y\u{1b}[2Jz\u{202e}"),
            "x\\u{0}y\\u{1b}[2Jz\\u{202e}"
        );
    }
}
