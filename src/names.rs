//! Player names: what an engine's name may be, and how a name read from someone else's file is
//! shown.
//!
//! A name is printed in tables padded to the longest one, written into PGN tags and protocol
//! lines, and shown on terminals and web pages. So a name the arena is given (command line,
//! engines file, a records file resumed) is bounded and visible: at most [`MAX_NAME_CHARS`]
//! characters, not empty or only spaces, no control character, bidirectional mark or override,
//! zero-width character or line/paragraph separator (each would break a line, reorder or hide
//! text on screen, or make two names look the same). A name read from a file the arena did not
//! write (a PGN from elsewhere) is not refused, since its games still count: it is kept whole to
//! tell players apart and [`shown`] escaped and cut wherever it is printed.

use std::borrow::Cow;

use crate::input::hidden;

/// The longest name, in characters (`protocol/arena.md`, "Engines").
pub const MAX_NAME_CHARS: usize = 64;

/// Why `name` cannot be a player's name, if it cannot (the name itself is not repeated: it may be
/// 65,536 characters long; see [`shown`]).
pub fn check_name(name: &str) -> Result<(), String> {
    if name.trim().is_empty() {
        return Err("a name must not be empty or only spaces".into());
    }
    let n = name.chars().count();
    if n > MAX_NAME_CHARS {
        return Err(format!(
            "{n} characters: a name holds at most {MAX_NAME_CHARS}"
        ));
    }
    if let Some((i, c)) = name.chars().enumerate().find(|&(_, c)| hidden(c)) {
        return Err(format!(
            "character {} is U+{:04X}: control characters (line breaks, tabs), bidirectional \
             marks and overrides, zero-width characters and U+2028/U+2029 are not allowed in a \
             name",
            i + 1,
            c as u32
        ));
    }
    Ok(())
}

/// `name` as printed: characters [`check_name`] refuses written as `\u{..}`, and cut to
/// [`MAX_NAME_CHARS`] characters (the last one then `…`), so that any name, whoever wrote it,
/// prints on one line of bounded width. A name [`check_name`] accepts is shown as it is.
pub fn shown(name: &str) -> Cow<'_, str> {
    if name.chars().count() <= MAX_NAME_CHARS && !name.chars().any(hidden) {
        return Cow::Borrowed(name);
    }
    let mut out = String::new();
    let mut count = 0;
    for c in name.chars() {
        let piece: String = if hidden(c) {
            c.escape_unicode().collect()
        } else {
            c.to_string()
        };
        let len = piece.chars().count();
        if count + len > MAX_NAME_CHARS - 1 {
            out.push('…');
            return Cow::Owned(out);
        }
        out.push_str(&piece);
        count += len;
    }
    Cow::Owned(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_are_bounded_and_visible() {
        assert!(check_name("Stockfish 16 (x86-64)").is_ok());
        assert!(check_name(&"é".repeat(MAX_NAME_CHARS)).is_ok());
        let long = check_name(&"x".repeat(65_536)).unwrap_err();
        assert!(
            long.contains("65536 characters") && long.len() < 100,
            "{long}"
        );
        for bad in [
            "",
            "   ",
            "a\tb",
            "a\u{1b}b",
            "a\u{202e}b",
            "a\u{2067}b",
            "a\u{200b}b",
        ] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
        for bad in ["a\u{feff}", "a\u{2060}", "a\u{2028}b", "a\u{2029}b", "a\0"] {
            assert!(check_name(bad).is_err(), "{bad:?}");
        }
        assert!(check_name("a\u{202e}b").unwrap_err().contains("U+202E"));
    }

    #[test]
    fn shown_names_are_escaped_and_cut() {
        assert_eq!(shown("plain"), "plain");
        assert_eq!(shown("a\u{1b}[2J"), "a\\u{1b}[2J");
        let name = "y".repeat(65_536);
        let long = shown(&name);
        assert_eq!(long.chars().count(), MAX_NAME_CHARS);
        assert!(long.ends_with("y…"));
    }
}
