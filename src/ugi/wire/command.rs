//! The GUI's side of the wire: one line into a typed [`GuiCommand`] ([`parse`]) and back
//! ([`GuiCommand`]'s `Display`, the canonical text the arena and the checker send).
//!
//! Parsing is separate from execution so that every syntax rule (keyword case, whitespace, which
//! tokens a command takes) lives in one place and can be tested without an engine. Keywords are
//! case-insensitive; move tokens, option values and position strings are passed on as written and
//! judged by the game's own parser.

use std::fmt;

use crate::games::notation::shorten;

/// A command from the GUI (or the arena) to an engine: one UGI line, typed. Not a command line:
/// those are `cli::OtauCli` and the arena's `ArenaCli`.
#[derive(Debug, PartialEq, Eq)]
pub enum GuiCommand<'a> {
    /// `ugi`, or `uci` when `uci` is true (answered with `uciok`).
    Hello {
        /// `uci` instead of `ugi`.
        uci: bool,
    },
    /// `isready`, answered with `readyok`.
    IsReady,
    /// `setoption name <name> [value <value>]`.
    SetOption {
        /// The option's name, as written (names compare without case, spaces or underscores).
        name: String,
        /// The words after `value`; `None` when there is no `value` (a button).
        value: Option<String>,
    },
    /// `uginewgame` / `ucinewgame`.
    NewGame,
    /// `position startpos|fen ... [moves ...]`.
    Position(PositionCommand<'a>),
    /// `go` with its limits.
    Go(GoCommand),
    /// `stop`: end the search and send its best move.
    Stop,
    /// `quit`.
    Quit,
    /// `query <question>`, answered with `response <words>`.
    Query(Query<'a>),
    /// `d`: the board for humans.
    Display,
    /// `perft <depth>`: leaf counts of the current position, by move.
    Perft(u32),
    /// `eval`: the static evaluation of the current position.
    Eval,
    /// A blank line.
    Nothing,
}

/// Where `position` starts.
#[derive(Debug, PartialEq, Eq, Clone)]
pub enum Start<'a> {
    /// The start position of the game set by the `Game` option.
    StartPos,
    /// A position string, as its whitespace-separated fields.
    Fen(Vec<&'a str>),
}

/// `position`: where to start, then the moves played from there.
#[derive(Debug, PartialEq, Eq)]
pub struct PositionCommand<'a> {
    /// Where to start.
    pub start: Start<'a>,
    /// The move tokens after `moves`, as written.
    pub moves: Vec<&'a str>,
}

/// The parameters of `go`, as sent. Times are in milliseconds; negative times (some GUIs send
/// them once a flag has fallen) are kept here and clamped when the limits are built.
#[derive(Debug, PartialEq, Eq, Default, Clone)]
pub struct GoCommand {
    /// South's (`p1`'s) time left.
    pub p1time: Option<i64>,
    /// North's (`p2`'s) time left.
    pub p2time: Option<i64>,
    /// South's increment a move.
    pub p1inc: Option<i64>,
    /// North's increment a move.
    pub p2inc: Option<i64>,
    /// Moves until the next time control.
    pub movestogo: Option<u32>,
    /// Time for this move.
    pub movetime: Option<i64>,
    /// Deepest iteration, in plies.
    pub depth: Option<u32>,
    /// Nodes to search at most.
    pub nodes: Option<u64>,
    /// Search until `stop`.
    pub infinite: bool,
}

/// The question of a `query` line.
#[derive(Debug, PartialEq, Eq)]
pub enum Query<'a> {
    /// `p1turn`: whether South is to move (`true`/`false`).
    P1Turn,
    /// `gameover`: whether the game has ended.
    GameOver,
    /// `result`: `p1win`, `p2win`, `draw`, or `none` while the game goes on.
    Result,
    /// `fen`: the current position string.
    Fen,
    /// `moves`: the legal moves, or `none`.
    Moves,
    /// `islegal <move>`: whether the token is a legal move here.
    IsLegal(&'a str),
    /// `score`: the totals, South's first (`82/70`).
    Score,
}

/// A line that is not a command, or a command with unusable arguments.
#[derive(Debug, PartialEq, Eq, Clone)]
pub struct CommandError(pub String);

impl fmt::Display for CommandError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// A parsed line: the command and notes about tokens that were ignored.
#[derive(Debug, PartialEq, Eq)]
pub struct Parsed<'a> {
    /// The command.
    pub command: GuiCommand<'a>,
    /// Tokens the command does not take, for a warning (`info string`).
    pub ignored: Vec<String>,
}

fn is(token: &str, keyword: &str) -> bool {
    token.eq_ignore_ascii_case(keyword)
}

/// Parses one line (any line ending, any amount of whitespace, keywords in any case).
pub fn parse(line: &str) -> Result<Parsed<'_>, CommandError> {
    let mut tokens = line.split_ascii_whitespace();
    let Some(first) = tokens.next() else {
        return Ok(Parsed {
            command: GuiCommand::Nothing,
            ignored: Vec::new(),
        });
    };
    let rest: Vec<&str> = tokens.collect();
    let keyword = first.to_ascii_lowercase();
    let mut ignored = Vec::new();
    let no_args = |command: GuiCommand<'static>, ignored: &mut Vec<String>| {
        ignored.extend(rest.iter().map(|t| shorten(t)));
        command
    };
    let command = match keyword.as_str() {
        "ugi" => no_args(GuiCommand::Hello { uci: false }, &mut ignored),
        "uci" => no_args(GuiCommand::Hello { uci: true }, &mut ignored),
        "isready" => no_args(GuiCommand::IsReady, &mut ignored),
        "uginewgame" | "ucinewgame" => no_args(GuiCommand::NewGame, &mut ignored),
        "stop" => no_args(GuiCommand::Stop, &mut ignored),
        "quit" => no_args(GuiCommand::Quit, &mut ignored),
        "d" => no_args(GuiCommand::Display, &mut ignored),
        "eval" => no_args(GuiCommand::Eval, &mut ignored),
        "setoption" => parse_setoption(&rest)?,
        "position" => GuiCommand::Position(parse_position(&rest)?),
        "go" => GuiCommand::Go(parse_go(&rest, &mut ignored)?),
        "query" => parse_query(&rest, &mut ignored)?,
        "perft" => {
            let depth = rest
                .first()
                .ok_or_else(|| CommandError("perft needs a depth".into()))?;
            let depth = parse_u32(depth).ok_or_else(|| {
                CommandError(format!("perft: '{}' is not a depth", shorten(depth)))
            })?;
            if depth > crate::perft::MAX_DEPTH {
                return Err(CommandError(format!(
                    "perft: depth {depth} exceeds the maximum of {}",
                    crate::perft::MAX_DEPTH
                )));
            }
            ignored.extend(rest.iter().skip(1).map(|t| shorten(t)));
            GuiCommand::Perft(depth)
        }
        _ => {
            return Err(CommandError(format!(
                "unknown command '{}'",
                shorten(first)
            )))
        }
    };
    Ok(Parsed { command, ignored })
}

impl fmt::Display for GuiCommand<'_> {
    /// The canonical line: lower-case keywords, single spaces, `ugi` spellings (`uginewgame`,
    /// `p1time`), `go` parameters in the order of `protocol/ugi.md`'s heading but clock by clock
    /// (`p1time p1inc p2time p2inc`, as the arena has always sent them).
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            GuiCommand::Hello { uci: false } => f.write_str("ugi"),
            GuiCommand::Hello { uci: true } => f.write_str("uci"),
            GuiCommand::IsReady => f.write_str("isready"),
            GuiCommand::SetOption { name, value } => {
                write!(f, "setoption name {name}")?;
                match value {
                    Some(v) => write!(f, " value {v}"),
                    None => Ok(()),
                }
            }
            GuiCommand::NewGame => f.write_str("uginewgame"),
            GuiCommand::Position(p) => p.fmt(f),
            GuiCommand::Go(go) => go.fmt(f),
            GuiCommand::Stop => f.write_str("stop"),
            GuiCommand::Quit => f.write_str("quit"),
            GuiCommand::Query(q) => q.fmt(f),
            GuiCommand::Display => f.write_str("d"),
            GuiCommand::Perft(depth) => write!(f, "perft {depth}"),
            GuiCommand::Eval => f.write_str("eval"),
            GuiCommand::Nothing => Ok(()),
        }
    }
}

/// The `position` command of a game in progress, kept as text that grows by one move a ply.
/// The arena sends it before every move; writing the whole line anew from a
/// [`PositionCommand`] each time cost it more per ply the longer the game. Its text is
/// exactly that command's `Display` (tested).
#[derive(Clone, Debug)]
pub struct PositionLine {
    text: String,
    any_moves: bool,
}

impl PositionLine {
    /// `position startpos` or `position fen ...`, no moves yet.
    pub fn new(start: &Start<'_>) -> PositionLine {
        let text = PositionCommand {
            start: start.clone(),
            moves: Vec::new(),
        }
        .to_string();
        PositionLine {
            text,
            any_moves: false,
        }
    }

    /// Appends one move.
    pub fn push(&mut self, mv: &str) {
        if !self.any_moves {
            self.text.push_str(" moves");
            self.any_moves = true;
        }
        self.text.push(' ');
        self.text.push_str(mv);
    }

    /// The command line so far.
    pub fn as_str(&self) -> &str {
        &self.text
    }
}

impl fmt::Display for PositionCommand<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.start {
            Start::StartPos => f.write_str("position startpos")?,
            Start::Fen(fields) => write!(f, "position fen {}", fields.join(" "))?,
        }
        if !self.moves.is_empty() {
            write!(f, " moves {}", self.moves.join(" "))?;
        }
        Ok(())
    }
}

impl fmt::Display for GoCommand {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("go")?;
        let numbers: [(&str, Option<i64>); 4] = [
            ("p1time", self.p1time),
            ("p1inc", self.p1inc),
            ("p2time", self.p2time),
            ("p2inc", self.p2inc),
        ];
        for (key, value) in numbers {
            if let Some(v) = value {
                write!(f, " {key} {v}")?;
            }
        }
        if let Some(n) = self.movestogo {
            write!(f, " movestogo {n}")?;
        }
        if let Some(ms) = self.movetime {
            write!(f, " movetime {ms}")?;
        }
        if let Some(d) = self.depth {
            write!(f, " depth {d}")?;
        }
        if let Some(n) = self.nodes {
            write!(f, " nodes {n}")?;
        }
        if self.infinite {
            f.write_str(" infinite")?;
        }
        Ok(())
    }
}

impl fmt::Display for Query<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("query ")?;
        match self {
            Query::P1Turn => f.write_str("p1turn"),
            Query::GameOver => f.write_str("gameover"),
            Query::Result => f.write_str("result"),
            Query::Fen => f.write_str("fen"),
            Query::Moves => f.write_str("moves"),
            Query::IsLegal(mv) => write!(f, "islegal {mv}"),
            Query::Score => f.write_str("score"),
        }
    }
}

fn parse_u32(s: &str) -> Option<u32> {
    (!s.starts_with('+')).then(|| s.parse().ok()).flatten()
}

fn parse_u64(s: &str) -> Option<u64> {
    (!s.starts_with('+')).then(|| s.parse().ok()).flatten()
}

fn parse_i64(s: &str) -> Option<i64> {
    (!s.starts_with('+')).then(|| s.parse().ok()).flatten()
}

/// `setoption name <name words> [value <value words>]`. The name may contain spaces (`Move
/// Overhead`); the value is the rest of the line with single spaces.
fn parse_setoption<'a>(rest: &[&'a str]) -> Result<GuiCommand<'a>, CommandError> {
    if rest.first().is_none_or(|t| !is(t, "name")) {
        return Err(CommandError(
            "setoption: expected 'setoption name <name> value <value>'".into(),
        ));
    }
    let value_at = rest.iter().position(|t| is(t, "value"));
    let name_end = value_at.unwrap_or(rest.len());
    if name_end <= 1 {
        return Err(CommandError("setoption: missing option name".into()));
    }
    let name = rest[1..name_end].join(" ");
    let value = value_at.map(|i| rest[i + 1..].join(" "));
    Ok(GuiCommand::SetOption { name, value })
}

fn parse_position<'a>(rest: &[&'a str]) -> Result<PositionCommand<'a>, CommandError> {
    let Some(&kind) = rest.first() else {
        return Err(CommandError(
            "position: expected 'startpos' or 'fen <position string>'".into(),
        ));
    };
    let moves_at = rest.iter().position(|t| is(t, "moves"));
    let head_end = moves_at.unwrap_or(rest.len());
    let start = if is(kind, "startpos") {
        if head_end > 1 {
            return Err(CommandError(format!(
                "position: unexpected token '{}' after startpos (expected 'moves')",
                shorten(rest[1])
            )));
        }
        Start::StartPos
    } else if is(kind, "fen") {
        if head_end == 1 {
            return Err(CommandError(
                "position: 'fen' needs a position string".into(),
            ));
        }
        Start::Fen(rest[1..head_end].to_vec())
    } else {
        return Err(CommandError(format!(
            "position: expected 'startpos' or 'fen', found '{}'",
            shorten(kind)
        )));
    };
    let moves = match moves_at {
        Some(i) => rest[i + 1..].to_vec(),
        None => Vec::new(),
    };
    Ok(PositionCommand { start, moves })
}

/// `go` parameters in any order and combination. A parameter with a missing or bad value is an
/// error for the whole `go` (a search under a misread clock would be worse than none); unknown
/// words are ignored with a note.
fn parse_go(rest: &[&str], ignored: &mut Vec<String>) -> Result<GoCommand, CommandError> {
    let mut go = GoCommand::default();
    let mut i = 0;
    while i < rest.len() {
        let key = rest[i].to_ascii_lowercase();
        i += 1;
        if key == "infinite" {
            go.infinite = true;
            continue;
        }
        let known = matches!(
            key.as_str(),
            "p1time"
                | "p2time"
                | "wtime"
                | "btime"
                | "p1inc"
                | "p2inc"
                | "winc"
                | "binc"
                | "movestogo"
                | "movetime"
                | "depth"
                | "nodes"
        );
        if !known {
            ignored.push(shorten(rest[i - 1]));
            continue;
        }
        let Some(&value) = rest.get(i) else {
            return Err(CommandError(format!("go: '{key}' needs a value")));
        };
        i += 1;
        let bad = || {
            CommandError(format!(
                "go: '{}' is not a valid value for {key}",
                shorten(value)
            ))
        };
        match key.as_str() {
            "p1time" | "wtime" => go.p1time = Some(parse_i64(value).ok_or_else(bad)?),
            "p2time" | "btime" => go.p2time = Some(parse_i64(value).ok_or_else(bad)?),
            "p1inc" | "winc" => go.p1inc = Some(parse_i64(value).ok_or_else(bad)?),
            "p2inc" | "binc" => go.p2inc = Some(parse_i64(value).ok_or_else(bad)?),
            "movetime" => go.movetime = Some(parse_i64(value).ok_or_else(bad)?),
            "movestogo" => go.movestogo = Some(parse_u32(value).ok_or_else(bad)?),
            "depth" => go.depth = Some(parse_u32(value).ok_or_else(bad)?),
            "nodes" => go.nodes = Some(parse_u64(value).ok_or_else(bad)?),
            _ => unreachable!("checked above"),
        }
    }
    Ok(go)
}

fn parse_query<'a>(
    rest: &[&'a str],
    ignored: &mut Vec<String>,
) -> Result<GuiCommand<'a>, CommandError> {
    let Some(&what) = rest.first() else {
        return Err(CommandError("query: missing question".into()));
    };
    let mut extra = 1;
    let query = match what.to_ascii_lowercase().as_str() {
        "p1turn" => Query::P1Turn,
        "gameover" => Query::GameOver,
        "result" => Query::Result,
        "fen" => Query::Fen,
        "moves" => Query::Moves,
        "score" => Query::Score,
        "islegal" => {
            let mv = rest
                .get(1)
                .ok_or_else(|| CommandError("query islegal: missing move".into()))?;
            extra = 2;
            Query::IsLegal(mv)
        }
        _ => {
            return Err(CommandError(format!(
                "unknown query '{}' (p1turn, gameover, result, fen, moves, islegal, score)",
                shorten(what)
            )))
        }
    };
    ignored.extend(rest.iter().skip(extra).map(|t| shorten(t)));
    Ok(GuiCommand::Query(query))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn command(line: &str) -> GuiCommand<'_> {
        parse(line).unwrap().command
    }

    #[test]
    fn a_growing_position_line_is_the_position_command() {
        let fen: Vec<&str> = "9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 -/- s 1"
            .split(' ')
            .collect();
        for start in [Start::StartPos, Start::Fen(fen)] {
            let mut line = PositionLine::new(&start);
            let moves = ["1", "9", "23", "4x"];
            for n in 0..=moves.len() {
                let command = PositionCommand {
                    start: start.clone(),
                    moves: moves[..n].to_vec(),
                };
                assert_eq!(line.as_str(), command.to_string());
                assert_eq!(self::command(line.as_str()), GuiCommand::Position(command));
                if n < moves.len() {
                    line.push(moves[n]);
                }
            }
        }
    }

    #[test]
    fn keywords_ignore_case_and_whitespace() {
        assert_eq!(command("  IsReady \r"), GuiCommand::IsReady);
        assert_eq!(command("\tUGI"), GuiCommand::Hello { uci: false });
        assert_eq!(command("uci"), GuiCommand::Hello { uci: true });
        assert_eq!(command("UciNewGame"), GuiCommand::NewGame);
        assert_eq!(command(""), GuiCommand::Nothing);
        assert_eq!(command(" \r"), GuiCommand::Nothing);
    }

    #[test]
    fn extra_tokens_are_reported() {
        let p = parse("isready now please").unwrap();
        assert_eq!(p.command, GuiCommand::IsReady);
        assert_eq!(p.ignored, ["now", "please"]);
    }

    #[test]
    fn unknown_commands_are_errors() {
        assert!(parse("xyzzy 1 2").unwrap_err().0.contains("'xyzzy'"));
    }

    #[test]
    fn setoption_names_may_have_spaces() {
        assert_eq!(
            command("setoption name Move Overhead value 30"),
            GuiCommand::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into())
            }
        );
        assert_eq!(
            command("SETOPTION NAME Game VALUE giuthi-6x4"),
            GuiCommand::SetOption {
                name: "Game".into(),
                value: Some("giuthi-6x4".into())
            }
        );
        assert_eq!(
            command("setoption name Hash"),
            GuiCommand::SetOption {
                name: "Hash".into(),
                value: None
            }
        );
        assert!(parse("setoption Hash 3").is_err());
        assert!(parse("setoption name value 3").is_err());
    }

    #[test]
    fn positions() {
        assert_eq!(
            command("position startpos"),
            GuiCommand::Position(PositionCommand {
                start: Start::StartPos,
                moves: vec![]
            })
        );
        assert_eq!(
            command("position StartPos MOVES 1 76 36x"),
            GuiCommand::Position(PositionCommand {
                start: Start::StartPos,
                moves: vec!["1", "76", "36x"]
            })
        );
        assert_eq!(
            command("position fen modiar 7,7,7/7,7,7 0/0 s 1 moves 2"),
            GuiCommand::Position(PositionCommand {
                start: Start::Fen(vec!["modiar", "7,7,7/7,7,7", "0/0", "s", "1"]),
                moves: vec!["2"]
            })
        );
        assert!(parse("position").is_err());
        assert!(parse("position fen").is_err());
        assert!(parse("position fen moves 1").is_err());
        assert!(parse("position startpos 1 2")
            .unwrap_err()
            .0
            .contains("'1'"));
        assert!(parse("position here").is_err());
    }

    /// A `go` with every parameter set (a negative time as some GUIs send it).
    fn every_go_parameter() -> GoCommand {
        GoCommand {
            p1time: Some(1000),
            p2time: Some(-5),
            p1inc: Some(10),
            p2inc: Some(20),
            movestogo: Some(7),
            movetime: Some(50),
            depth: Some(3),
            nodes: Some(123_456_789_012),
            infinite: true,
        }
    }

    #[test]
    fn go_parameters_combine() {
        let mut ignored = vec![];
        let go = parse_go(
            &"p1time 1000 p2time -5 p1inc 10 p2inc 20 movestogo 7 movetime 50 depth 3 nodes \
              123456789012 infinite ponder"
                .split(' ')
                .collect::<Vec<_>>(),
            &mut ignored,
        )
        .unwrap();
        assert_eq!(go, every_go_parameter());
        assert_eq!(ignored, ["ponder"]);
        assert_eq!(
            command("go wtime 5 BTIME 6"),
            GuiCommand::Go(GoCommand {
                p1time: Some(5),
                p2time: Some(6),
                ..Default::default()
            })
        );
        assert!(parse("go depth").unwrap_err().0.contains("needs a value"));
        assert!(parse("go depth -1").unwrap_err().0.contains("'-1'"));
        assert!(parse("go nodes x").is_err());
    }

    #[test]
    fn queries() {
        assert_eq!(command("query P1TURN"), GuiCommand::Query(Query::P1Turn));
        assert_eq!(
            command("query islegal 36x"),
            GuiCommand::Query(Query::IsLegal("36x"))
        );
        assert!(parse("query").is_err());
        assert!(parse("query islegal").is_err());
        assert!(parse("query weather").unwrap_err().0.contains("'weather'"));
    }

    #[test]
    fn perft_needs_a_depth() {
        assert_eq!(command("perft 4"), GuiCommand::Perft(4));
        assert!(parse("perft").is_err());
        assert!(parse("perft deep").is_err());
    }

    #[test]
    fn commands_round_trip() {
        let go = every_go_parameter();
        let commands = [
            GuiCommand::Hello { uci: false },
            GuiCommand::Hello { uci: true },
            GuiCommand::IsReady,
            GuiCommand::SetOption {
                name: "Move Overhead".into(),
                value: Some("30".into()),
            },
            GuiCommand::SetOption {
                name: "Hash".into(),
                value: None,
            },
            GuiCommand::NewGame,
            GuiCommand::Position(PositionCommand {
                start: Start::StartPos,
                moves: vec![],
            }),
            GuiCommand::Position(PositionCommand {
                start: Start::Fen(vec!["modiar", "7,7,7/7,7,7", "0/0", "s", "1"]),
                moves: vec!["2", "1"],
            }),
            GuiCommand::Go(go),
            GuiCommand::Go(GoCommand::default()),
            GuiCommand::Stop,
            GuiCommand::Quit,
            GuiCommand::Query(Query::P1Turn),
            GuiCommand::Query(Query::GameOver),
            GuiCommand::Query(Query::Result),
            GuiCommand::Query(Query::Fen),
            GuiCommand::Query(Query::Moves),
            GuiCommand::Query(Query::IsLegal("36x")),
            GuiCommand::Query(Query::Score),
            GuiCommand::Display,
            GuiCommand::Perft(4),
            GuiCommand::Eval,
            GuiCommand::Nothing,
        ];
        for c in commands {
            let text = c.to_string();
            let back = parse(&text).unwrap();
            assert_eq!(back.command, c, "{text}");
            assert!(back.ignored.is_empty(), "{text}");
        }
    }

    #[test]
    fn sample_lines_print_canonically() {
        for (line, canonical) in [
            ("  IsReady \r", "isready"),
            ("UciNewGame", "uginewgame"),
            (
                "SETOPTION NAME Move  Overhead VALUE 30",
                "setoption name Move Overhead value 30",
            ),
            (
                "position StartPos MOVES 1 76 36x",
                "position startpos moves 1 76 36x",
            ),
            (
                "position fen  modiar 7,7,7/7,7,7 0/0 s 1",
                "position fen modiar 7,7,7/7,7,7 0/0 s 1",
            ),
            (
                "go depth 3 wtime 5 btime 6 movestogo 2 nodes 9 winc 1 binc 2 movetime 8",
                "go p1time 5 p1inc 1 p2time 6 p2inc 2 movestogo 2 movetime 8 depth 3 nodes 9",
            ),
            ("go infinite", "go infinite"),
            ("query IsLegal 36x", "query islegal 36x"),
            ("PERFT 3", "perft 3"),
        ] {
            assert_eq!(parse(line).unwrap().command.to_string(), canonical);
        }
    }

    #[test]
    fn long_tokens_are_shortened() {
        let long = "z".repeat(1 << 20);
        assert!(parse(&long).unwrap_err().0.len() < 100);
    }
}
