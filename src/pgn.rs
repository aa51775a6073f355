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
    pub line: usize,
    pub message: String,
}

impl std::fmt::Display for PgnError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "PGN line {}: {}", self.line, self.message)
    }
}

impl std::error::Error for PgnError {}

/// Splits a PGN text into games. A game starts at a tag section; movetext runs until the next
/// tag section.
pub fn parse(text: &str) -> Result<Vec<PgnGame>, PgnError> {
    let mut games = Vec::new();
    let mut current: Option<PgnGame> = None;
    let mut in_movetext = false;
    let mut comment: Option<String> = None;
    for (number, raw) in text.lines().enumerate() {
        let line = raw.trim();
        let err = |message: String| PgnError {
            line: number + 1,
            message,
        };
        if comment.is_none() && line.starts_with('[') {
            if in_movetext || current.is_none() {
                games.extend(current.take());
                current = Some(PgnGame {
                    line: number + 1,
                    ..PgnGame::default()
                });
                in_movetext = false;
            }
            let inner = line
                .strip_prefix('[')
                .and_then(|l| l.strip_suffix(']'))
                .ok_or_else(|| err("tag line without closing ]".into()))?;
            let (name, value) = inner
                .split_once(' ')
                .ok_or_else(|| err("tag without a value".into()))?;
            let value = value
                .trim()
                .strip_prefix('"')
                .and_then(|v| v.strip_suffix('"'))
                .ok_or_else(|| err(format!("tag {name}: value is not quoted")))?;
            let game = current.as_mut().expect("a tag section starts a game");
            game.tags.push((name.to_string(), value.to_string()));
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
                        game.comments
                            .push(comment.take().unwrap_or_default().trim().to_string());
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
            let end = rest
                .find(|c: char| c.is_whitespace() || c == '{')
                .unwrap_or(rest.len());
            let token = &rest[..end];
            rest = &rest[end..];
            if token.is_empty() {
                continue;
            }
            if matches!(token, "1-0" | "0-1" | "1/2-1/2" | "*") {
                game.result = Some(token.to_string());
                continue;
            }
            if is_move_number(token) {
                continue;
            }
            game.moves.push(token.to_string());
        }
    }
    if comment.is_some() {
        return Err(PgnError {
            line: text.lines().count(),
            message: "unterminated comment".into(),
        });
    }
    games.extend(current);
    Ok(games)
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

    #[test]
    fn errors_name_the_line() {
        let err = parse("[Event \"1\"]\n[Result 0-1]\n").unwrap_err();
        assert_eq!(err.line, 2);
        assert!(parse("1. 76 {never closed").is_err());
    }
}
