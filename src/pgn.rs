//! Reading PGN game records (PlayOK's Toguz Kumalak export, and the arena's own PGN): the tuner, the
//! ratings and the arena's opening books read them through here.
//!
//! Only the structure is read here: tag pairs, move tokens, the result and a trailing comment.
//! What a move token means is the game's business ([`crate::games::Game::parse_move`]), so the
//! same reader serves every game. Movetext is parsed as tokens, not lines, because exporters wrap
//! lines in the middle of a move pair.

/// The largest PGN file read (`ratings`, the tuner): millions of games, and a bound (a path may
/// name `/dev/zero`; see [`crate::input`]).
pub const MAX_PGN_BYTES: u64 = 4 << 30;

/// One game of a PGN file.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PgnGame {
    /// Tag pairs in file order.
    pub tags: Vec<(String, String)>,
    /// Move tokens with move numbers removed, in play order.
    pub moves: Vec<String>,
    /// The result token (`1-0`, `0-1`, `1/2-1/2`, `*`), if present.
    pub result: Option<String>,
    /// Comments in the movetext, without braces (PlayOK writes `{zero}` after the result).
    pub comments: Vec<String>,
    /// The 1-based line the game starts on (its first tag, or its first movetext without tags),
    /// so a problem in a game can be shown in the file.
    pub line: usize,
}

impl PgnGame {
    /// The value of the first tag named `name` (names compare exactly).
    pub fn tag(&self, name: &str) -> Option<&str> {
        self.tags
            .iter()
            .find(|(k, _)| k == name)
            .map(|(_, v)| v.as_str())
    }
}

/// A PGN file that could not be read, with the 1-based line of the problem.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PgnError {
    /// The 1-based line of the problem.
    pub line: usize,
    /// What is wrong.
    pub message: String,
}

impl std::fmt::Display for PgnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PGN line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for PgnError {}

/// Splits a PGN text into games. A game starts at a tag section; movetext runs until the next
/// tag section. Read as the PGN standard writes it: a leading byte-order mark, `%` escape lines
/// and `;` comments (to the end of the line) are skipped, as are recursive variations `( ... )`
/// and numeric annotation glyphs `$n`; tag values are unescaped (`\"`, `\\`).
pub fn parse(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    let mut games = Vec::new();
    parse_lines(text.lines().map(Ok), |game| {
        games.push(game);
        Ok::<(), PgnError>(())
    })?;
    Ok(games)
}

/// The longest line [`read_games`] takes: a line past it is an error, so a stream without line
/// ends (`/dev/zero`) is refused at once instead of read until memory runs out.
pub const MAX_LINE_BYTES: usize = 1 << 20;

/// Reads the games of a PGN stream one at a time, each handed to `each` as soon as the next game
/// starts (or the stream ends): memory holds one game, whatever the size of the file, so the
/// ratings of millions of games are read without holding them. A byte-order mark before the
/// first line is skipped; a line longer than [`MAX_LINE_BYTES`] or not UTF-8 is an error naming
/// the line.
pub fn read_games<R: std::io::BufRead, E: From<PgnError>>(
    mut reader: R,
    each: impl FnMut(PgnGame) -> Result<(), E>,
) -> Result<(), E> {
    use std::io::{BufRead, Read};
    let mut number = 0;
    let mut buf = Vec::new();
    let lines = std::iter::from_fn(move || {
        buf.clear();
        number += 1;
        let err = |message: String| {
            Some(Err(PgnError {
                line: number,
                message,
            }))
        };
        match (&mut reader)
            .take(MAX_LINE_BYTES as u64 + 1)
            .read_until(b'\n', &mut buf)
        {
            Ok(0) => return None,
            Ok(_) => {}
            Err(e) => return err(format!("cannot read: {e}")),
        }
        if buf.len() > MAX_LINE_BYTES && buf.last() != Some(&b'\n') {
            return err(format!("line longer than {MAX_LINE_BYTES} bytes"));
        }
        while buf.last().is_some_and(|&b| b == b'\n' || b == b'\r') {
            buf.pop();
        }
        let mut text = match String::from_utf8(std::mem::take(&mut buf)) {
            Ok(text) => text,
            Err(_) => return err("not UTF-8 text".into()),
        };
        if number == 1 && text.starts_with('\u{feff}') {
            text.drain(..'\u{feff}'.len_utf8());
        }
        Some(Ok(text))
    });
    parse_lines(lines, each)
}

/// The parser over lines, from a text or a stream: each game goes to `each` when the next one
/// starts or the lines end.
fn parse_lines<S: AsRef<str>, E: From<PgnError>>(
    lines: impl Iterator<Item = Result<S, PgnError>>,
    mut each: impl FnMut(PgnGame) -> Result<(), E>,
) -> Result<(), E> {
    let mut current: Option<PgnGame> = None;
    let mut in_movetext = false;
    let mut comment: Option<String> = None;
    let mut last_line = 0;
    // Open variations, and the line of the outermost one (for an error if it is never closed).
    let mut depth = 0usize;
    let mut variation_line = 0;
    for (number, raw) in lines.enumerate() {
        let raw = raw?;
        let raw = raw.as_ref();
        last_line = number + 1;
        // An escape line: `%` in the first column, for other programs' use.
        if comment.is_none() && raw.starts_with('%') {
            continue;
        }
        let line = raw.trim();
        let err = |message: String| PgnError {
            line: number + 1,
            message,
        };
        if comment.is_none() && depth == 0 && line.starts_with('[') {
            if in_movetext || current.is_none() {
                if let Some(game) = current.take() {
                    each(game)?;
                }
                current = Some(PgnGame {
                    line: number + 1,
                    ..PgnGame::default()
                });
                in_movetext = false;
            }
            let (name, value) = tag_pair(line).map_err(err)?;
            let game = current.as_mut().expect("a tag section starts a game");
            game.tags.push((name, value));
            continue;
        }
        if line.is_empty() {
            continue;
        }
        let game = current.get_or_insert_with(|| PgnGame {
            line: number + 1,
            ..PgnGame::default()
        });
        in_movetext = true;
        let mut rest = line;
        while !rest.is_empty() {
            if let Some(text) = comment.as_mut() {
                match rest.find('}') {
                    Some(end) => {
                        text.push_str(&rest[..end]);
                        let text = comment.take().unwrap_or_default();
                        if depth == 0 {
                            game.comments.push(text.trim().to_string());
                        }
                        rest = &rest[end + 1..];
                    }
                    None => {
                        text.push_str(rest);
                        text.push(' ');
                        rest = "";
                    }
                }
                continue;
            }
            rest = rest.trim_start();
            if let Some(after) = rest.strip_prefix('{') {
                comment = Some(String::new());
                rest = after;
                continue;
            }
            if rest.starts_with(';') {
                break;
            }
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '{' || c == ';')
                .unwrap_or(rest.len());
            let token = &rest[..end];
            rest = &rest[end..];
            // `(` opening a variation is a token of its own or a token's start; a `)` closing
            // one is a token of its own or a token's end (`11)(12`: one closes, one opens).
            // Inside a move (PlayOK's `87(10)`) parentheses pair up and are the move's.
            let mut piece = token;
            while !piece.is_empty() {
                let opened = piece.len() - piece.trim_start_matches('(').len();
                if depth == 0 && opened > 0 {
                    variation_line = number + 1;
                }
                depth += opened;
                piece = &piece[opened..];
                let mut inner = 0usize;
                let mut core = piece.len();
                for (i, c) in piece.char_indices() {
                    match c {
                        '(' => inner += 1,
                        ')' if inner > 0 => inner -= 1,
                        ')' => {
                            core = i;
                            break;
                        }
                        _ => {}
                    }
                }
                let token = &piece[..core];
                piece = &piece[core..];
                let closed = piece.len() - piece.trim_start_matches(')').len();
                piece = &piece[closed..];
                let in_variation = depth > 0;
                depth = depth
                    .checked_sub(closed)
                    .ok_or_else(|| err("')' closes no variation".into()))?;
                if token.is_empty() || in_variation {
                    continue;
                }
                if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
                    game.result = Some(token.to_string());
                } else if !is_move_number(token) && !is_nag(token) {
                    game.moves.push(token.to_string());
                }
            }
        }
    }
    if comment.is_some() {
        return Err(PgnError {
            line: last_line,
            message: "unterminated comment".into(),
        }
        .into());
    }
    if depth > 0 {
        return Err(PgnError {
            line: variation_line,
            message: "unterminated variation (a '(' without its ')')".into(),
        }
        .into());
    }
    match current {
        Some(game) => each(game),
        None => Ok(()),
    }
}

/// A tag pair line `[Name "value"]`, the value unescaped (`\"` is `"`, `\\` is `\`, as the
/// arena's PGN writer escapes them).
fn tag_pair(line: &str) -> Result<(String, String), String> {
    let inner = line
        .strip_prefix('[')
        .and_then(|l| l.strip_suffix(']'))
        .ok_or("tag line without closing ]")?;
    let (name, value) = inner.split_once(' ').ok_or("tag without a value")?;
    let shown = crate::input::escape_controls(name);
    let quoted = value.trim();
    let not_quoted = || format!("tag {shown}: value is not quoted");
    let mut chars = quoted.strip_prefix('"').ok_or_else(not_quoted)?.chars();
    let mut out = String::new();
    loop {
        match chars.next() {
            Some('\\') => match chars.next() {
                Some(c) => out.push(c),
                None => return Err(not_quoted()),
            },
            Some('"') => break,
            Some(c) => out.push(c),
            None => return Err(not_quoted()),
        }
    }
    if !chars.as_str().trim().is_empty() {
        return Err(format!("tag {shown}: text after the closing quote"));
    }
    Ok((name.to_string(), out))
}

/// A numeric annotation glyph, `$1`: a comment on the move before it, not a move.
fn is_nag(token: &str) -> bool {
    token
        .strip_prefix('$')
        .is_some_and(|d| !d.is_empty() && d.bytes().all(|b| b.is_ascii_digit()))
}

/// A move number, `12.` (or `12...` before a North move): skipped wherever moves are listed
/// (PGN movetext, the arena's opening files).
pub fn is_move_number(token: &str) -> bool {
    let digits = token.bytes().take_while(u8::is_ascii_digit).count();
    digits > 0 && digits < token.len() && token[digits..].bytes().all(|b| b == b'.')
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_not_lines() {
        let text = "[Event \"1\"]\n[Result \"0-1\"]\n\n1. 87(10) 87(10) 2. 22 99(22) 3.\n23 12(24) 0-1 {zero}\n\n[Event \"2\"]\n\n1. 76 *\n";
        let games = parse(text).unwrap();
        assert_eq!(games.len(), 2);
        assert_eq!(
            games[0].moves,
            ["87(10)", "87(10)", "22", "99(22)", "23", "12(24)"]
        );
        assert_eq!(games[0].result.as_deref(), Some("0-1"));
        assert_eq!(games[0].comments, ["zero"]);
        assert_eq!(games[0].tag("Event"), Some("1"));
        assert_eq!(games[1].moves, ["76"]);
        assert_eq!((games[0].line, games[1].line), (1, 7));
        assert_eq!(
            parse("\n1. 76 *\n").unwrap()[0].line,
            2,
            "a game without tags"
        );
    }

    /// Issue 27, item 10: what the PGN standard allows in movetext is skipped, not taken for
    /// moves: variations (nested, across lines, with comments and PlayOK's `87(10)` inside),
    /// NAGs, `;` comments, `%` escape lines; a byte-order mark starts no game; tag values are
    /// unescaped.
    #[test]
    fn the_standard_s_movetext_and_tags() {
        let text =
            "\u{feff}[Event \"1\"]\n% an escape line (1. 99\n[White \"a \\\"b\\\" \\\\c\"]\n\n\
                    1. 87(10) $1 (1. 22 (1. 33) {a (comment}\n 2. 44) 87(10) ; rest (\n\
                    2. 22 $14 (2... 11)(2... 12(3)) 99(22) 1-0\n";
        let games = parse(text).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].line, 1);
        assert_eq!(games[0].tag("White"), Some(r#"a "b" \c"#));
        assert_eq!(games[0].moves, ["87(10)", "87(10)", "22", "99(22)"]);
        assert_eq!(games[0].result.as_deref(), Some("1-0"));
        assert!(games[0].comments.is_empty(), "{:?}", games[0].comments);
        let err = parse("[Event \"1\"]\n\n1. 76 (1. 22\n2. 33 *\n").unwrap_err();
        assert_eq!(
            (err.line, err.message.contains("unterminated variation")),
            (3, true)
        );
        assert_eq!(parse("1. 76) *").unwrap_err().line, 1);
        assert!(parse("[White \"a\" x]").is_err());
    }

    #[test]
    fn errors_name_the_line() {
        let err = parse("[Event \"1\"]\n[Result 0-1]\n").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(parse("1. 76 {never closed").is_err());
    }

    /// Issue 27, item 5: a stream is read game by game with the same result as the whole text,
    /// and a line without end (`/dev/zero`) is refused at the bound instead of read until memory
    /// runs out.
    #[test]
    fn streamed_games_are_the_parsed_ones_and_lines_are_bounded() {
        let text = "\u{feff}[Event \"1\"]\n[Result \"0-1\"]\n\n1. 87(10) 87(10) 2. 22 {a\nb} 0-1\n\n[Event \"2\"]\n\n1. 76 *\n";
        let mut streamed = Vec::new();
        read_games(text.as_bytes(), |g| {
            streamed.push(g);
            Ok::<(), PgnError>(())
        })
        .unwrap();
        assert_eq!(
            streamed,
            parse(text.trim_start_matches('\u{feff}')).unwrap()
        );
        assert_eq!(streamed.len(), 2);
        let long = "x".repeat(MAX_LINE_BYTES + 1);
        let err = read_games(long.as_bytes(), |_| Ok::<(), PgnError>(())).unwrap_err();
        assert_eq!(err.line, 1);
        assert!(err.message.contains("longer than 1048576 bytes"), "{err}");
        let err =
            read_games(&b"[Event \"1\"]\n\xff\n"[..], |_| Ok::<(), PgnError>(())).unwrap_err();
        assert_eq!((err.line, err.message.as_str()), (2, "not UTF-8 text"));
        #[cfg(unix)]
        {
            let zero = std::io::BufReader::new(std::fs::File::open("/dev/zero").unwrap());
            let err = read_games(zero, |_| Ok::<(), PgnError>(())).unwrap_err();
            assert!(err.message.contains("longer than"), "{err}");
        }
    }
}
