//! The engine's side of the wire: one output line into a typed [`Reply`] ([`Reply::parse`]) and
//! back (`Display`, the text the engine writes).
//!
//! Parsing is lenient where the readers need it to be: an `info` line is a list of fields, each
//! keeping the token it could not read ([`Value`]), so that the arena can drop one bad figure and
//! keep the rest while the checker names it; an `option` line that is not a well-formed
//! declaration is kept with its name and the reason ([`BadOption`]). Keywords are case-sensitive,
//! as engines write them.

use std::fmt;

use crate::games::notation::shorten;

/// A value as sent: the value read, or the token that is not one (`None`: the line ended first).
pub type Value<T> = Result<T, Option<String>>;

fn value<T: std::str::FromStr>(token: Option<&str>) -> Value<T> {
    match token {
        Some(t) => t.parse().map_err(|_| Some(t.to_string())),
        None => Err(None),
    }
}

fn write_value<T: fmt::Display>(f: &mut fmt::Formatter<'_>, v: &Value<T>) -> fmt::Result {
    match v {
        Ok(v) => write!(f, " {v}"),
        Err(Some(token)) => write!(f, " {token}"),
        Err(None) => Ok(()),
    }
}

/// The words left on a line, one space apart (a `pv` and an `info string` run to its end).
fn rest_of_line<'a>(words: impl Iterator<Item = &'a str>) -> String {
    let mut text = String::new();
    for w in words {
        if !text.is_empty() {
            text.push(' ');
        }
        text.push_str(w);
    }
    text
}

/// One line from the engine.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Reply {
    /// `id name <words>`.
    IdName(String),
    /// `id author <words>`.
    IdAuthor(String),
    /// A well-formed `option name ... type ...` declaration.
    Option(OptionDecl),
    /// An `option` line that is not one.
    BadOption(BadOption),
    /// `ugiok`, or `uciok` when `uci` is true.
    UgiOk {
        /// `uciok` instead of `ugiok`.
        uci: bool,
    },
    /// `readyok`.
    ReadyOk,
    /// `info ...`.
    Info(InfoLine),
    /// `bestmove ...`.
    BestMove(BestMove),
    /// `response <words>`: the answer to a `query`.
    Response(String),
    /// Anything else (extra words after `ugiok`/`readyok` included), as written.
    Unknown(String),
}

/// An `info string <text>` line: what the engine tells a user in words (errors, warnings, notes).
pub fn info_string(text: impl Into<String>) -> String {
    Reply::Info(InfoLine::string(text)).to_string()
}

impl Reply {
    /// Reads one line (any whitespace between words).
    pub fn parse(line: &str) -> Reply {
        let mut tokens = line.split_ascii_whitespace();
        let first = tokens.next();
        // The lines a search sends by the thousand are read straight off the words.
        match first {
            Some("info") => return Reply::Info(InfoLine::parse_words(tokens)),
            Some("bestmove") => {
                return Reply::BestMove(BestMove {
                    token: tokens.next().map_or_else(String::new, str::to_string),
                    extra: tokens.map(str::to_string).collect(),
                })
            }
            _ => {}
        }
        let rest: Vec<&str> = tokens.collect();
        let unknown = || Reply::Unknown(line.to_string());
        match (first, rest.as_slice()) {
            (Some("id"), ["name", words @ ..]) => Reply::IdName(words.join(" ")),
            (Some("id"), ["author", words @ ..]) => Reply::IdAuthor(words.join(" ")),
            (Some("option"), _) => match OptionDecl::parse(line) {
                Ok(d) => Reply::Option(d),
                Err(why) => Reply::BadOption(BadOption {
                    line: line.to_string(),
                    name: option_name(&rest),
                    why,
                }),
            },
            (Some("ugiok"), []) => Reply::UgiOk { uci: false },
            (Some("uciok"), []) => Reply::UgiOk { uci: true },
            (Some("readyok"), []) => Reply::ReadyOk,
            (Some("response"), words) => Reply::Response(words.join(" ")),
            _ => unknown(),
        }
    }

    /// The option's name, of a well-formed declaration or not (None: no `option name <words>`).
    pub fn option_name(&self) -> Option<&str> {
        match self {
            Reply::Option(d) => Some(&d.name),
            Reply::BadOption(b) => b.name.as_deref(),
            _ => None,
        }
    }
}

impl fmt::Display for Reply {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Reply::IdName(name) => write!(f, "id name {name}"),
            Reply::IdAuthor(author) => write!(f, "id author {author}"),
            Reply::Option(d) => d.fmt(f),
            Reply::BadOption(b) => f.write_str(&b.line),
            Reply::UgiOk { uci: false } => f.write_str("ugiok"),
            Reply::UgiOk { uci: true } => f.write_str("uciok"),
            Reply::ReadyOk => f.write_str("readyok"),
            Reply::Info(info) => info.fmt(f),
            Reply::BestMove(b) => b.fmt(f),
            Reply::Response(words) => write!(f, "response {words}"),
            Reply::Unknown(line) => f.write_str(line),
        }
    }
}

/// `bestmove <move>`, as sent: `token` is empty when no move followed, `extra` holds any words
/// after the move (UCI's `ponder <move>`, which UGI does not have).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BestMove {
    /// The move as written; empty when none followed `bestmove`.
    pub token: String,
    /// Words after the move (UCI's `ponder <move>`).
    pub extra: Vec<String>,
}

impl BestMove {
    /// `bestmove <token>`.
    pub fn of(token: impl Into<String>) -> BestMove {
        BestMove {
            token: token.into(),
            extra: Vec::new(),
        }
    }
}

impl fmt::Display for BestMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("bestmove")?;
        for t in std::iter::once(&self.token).chain(&self.extra) {
            if !t.is_empty() {
                write!(f, " {t}")?;
            }
        }
        Ok(())
    }
}

/// An `info` field that takes one number.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InfoKey {
    /// `depth`: plies of the iteration.
    Depth,
    /// `seldepth`: deepest ply reached.
    SelDepth,
    /// `nodes`: nodes searched.
    Nodes,
    /// `nps`: nodes a second.
    Nps,
    /// `time`: milliseconds since `go`.
    Time,
    /// `hashfull`: table use in permille.
    Hashfull,
    /// `multipv`: which of several variations this is.
    MultiPv,
    /// `tbhits`: endgame table probes that answered.
    TbHits,
    /// `tthits`: transposition table hits.
    TtHits,
    /// `currmovenumber`: the rank of the root move being searched.
    CurrMoveNumber,
}

impl InfoKey {
    #[cfg(test)]
    const ALL: [InfoKey; 10] = [
        InfoKey::Depth,
        InfoKey::SelDepth,
        InfoKey::Nodes,
        InfoKey::Nps,
        InfoKey::Time,
        InfoKey::Hashfull,
        InfoKey::MultiPv,
        InfoKey::TbHits,
        InfoKey::TtHits,
        InfoKey::CurrMoveNumber,
    ];

    /// The key a word names (a `match`, not a search of a list: every word of every info line
    /// the arena reads is looked up here).
    fn of_word(word: &str) -> Option<InfoKey> {
        Some(match word {
            "depth" => InfoKey::Depth,
            "seldepth" => InfoKey::SelDepth,
            "nodes" => InfoKey::Nodes,
            "nps" => InfoKey::Nps,
            "time" => InfoKey::Time,
            "hashfull" => InfoKey::Hashfull,
            "multipv" => InfoKey::MultiPv,
            "tbhits" => InfoKey::TbHits,
            "tthits" => InfoKey::TtHits,
            "currmovenumber" => InfoKey::CurrMoveNumber,
            _ => return None,
        })
    }

    /// The key's word on the wire.
    pub fn word(self) -> &'static str {
        match self {
            InfoKey::Depth => "depth",
            InfoKey::SelDepth => "seldepth",
            InfoKey::Nodes => "nodes",
            InfoKey::Nps => "nps",
            InfoKey::Time => "time",
            InfoKey::Hashfull => "hashfull",
            InfoKey::MultiPv => "multipv",
            InfoKey::TbHits => "tbhits",
            InfoKey::TtHits => "tthits",
            InfoKey::CurrMoveNumber => "currmovenumber",
        }
    }
}

/// `cp` or `mate`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreKind {
    /// Centi-stones.
    Cp,
    /// Plies to a win (negative: to a loss).
    Mate,
}

impl std::str::FromStr for ScoreKind {
    type Err = ();
    fn from_str(s: &str) -> Result<ScoreKind, ()> {
        match s {
            "cp" => Ok(ScoreKind::Cp),
            "mate" => Ok(ScoreKind::Mate),
            _ => Err(()),
        }
    }
}

impl fmt::Display for ScoreKind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ScoreKind::Cp => "cp",
            ScoreKind::Mate => "mate",
        })
    }
}

/// `lowerbound` or `upperbound` after a score, as sent (the transposition table's own
/// `search::tt::Bound` also has `Exact`, which the wire says by sending neither).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ScoreBound {
    /// `lowerbound`: the true score is at least this.
    Lower,
    /// `upperbound`: the true score is at most this.
    Upper,
}

/// A score sent with both `lowerbound` and `upperbound`: it bounds nothing.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ContradictoryBounds;

impl ScoreBound {
    /// The one bound a score's `bounds` say: None for an exact score.
    pub fn of(bounds: &[ScoreBound]) -> Result<Option<ScoreBound>, ContradictoryBounds> {
        match bounds.split_first() {
            None => Ok(None),
            Some((first, rest)) if rest.iter().all(|b| b == first) => Ok(Some(*first)),
            Some(_) => Err(ContradictoryBounds),
        }
    }
}

impl fmt::Display for ScoreBound {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ScoreBound::Lower => "lowerbound",
            ScoreBound::Upper => "upperbound",
        })
    }
}

/// One field of an `info` line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InfoField {
    /// A field that takes one number: its key and the number (or what stood there instead).
    Number(InfoKey, Value<i64>),
    /// `score cp <n>` / `score mate <n>`, then any bounds.
    Score {
        /// `cp` or `mate`, or what stood there instead.
        kind: Value<ScoreKind>,
        /// The number, or what stood there instead.
        value: Value<i64>,
        /// `lowerbound`/`upperbound` words after the number, as sent.
        bounds: Vec<ScoreBound>,
    },
    /// `currmove <move>`.
    CurrMove(Option<String>),
    /// `pv <moves>`: runs to the end of the line. The moves are kept as one string, one space
    /// apart (split them with `split_ascii_whitespace`), not one string each: the arena reads
    /// an info line for every move it is sent, and real engines' variations are long.
    Pv(String),
    /// `string <words>`: runs to the end of the line.
    String(String),
    /// A word that is no field (each word of an unknown field on its own).
    Unknown(String),
}

/// An `info` line: its fields in the order sent (what a search reports before it is put into
/// words is `search::Info`).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InfoLine {
    /// The fields, in the order sent.
    pub fields: Vec<InfoField>,
}

impl InfoLine {
    /// `info string <text>`.
    pub fn string(text: impl Into<String>) -> InfoLine {
        InfoLine {
            fields: vec![InfoField::String(text.into())],
        }
    }

    /// Adds a numeric field.
    pub fn with(mut self, key: InfoKey, n: i64) -> InfoLine {
        self.fields.push(InfoField::Number(key, Ok(n)));
        self
    }

    /// Adds a score without bounds.
    pub fn with_score(mut self, kind: ScoreKind, n: i64) -> InfoLine {
        self.fields.push(InfoField::Score {
            kind: Ok(kind),
            value: Ok(n),
            bounds: Vec::new(),
        });
        self
    }

    /// Adds a pv (none when `moves` is empty).
    pub fn with_pv(mut self, moves: Vec<String>) -> InfoLine {
        if !moves.is_empty() {
            self.fields.push(InfoField::Pv(moves.join(" ")));
        }
        self
    }

    /// A line about the search (not an `info string` message, not empty).
    pub fn is_search(&self) -> bool {
        !matches!(self.fields.first(), None | Some(InfoField::String(_)))
    }

    /// The words after `info`.
    fn parse_words<'a>(words: impl Iterator<Item = &'a str>) -> InfoLine {
        let mut words = words.peekable();
        let mut fields = Vec::with_capacity(8);
        while let Some(key) = words.next() {
            if let Some(k) = InfoKey::of_word(key) {
                fields.push(InfoField::Number(k, value(words.next())));
                continue;
            }
            match key {
                "score" => {
                    let kind = value(words.next());
                    let n = value(words.next());
                    let mut bounds = Vec::new();
                    loop {
                        bounds.push(match words.peek() {
                            Some(&"lowerbound") => ScoreBound::Lower,
                            Some(&"upperbound") => ScoreBound::Upper,
                            _ => break,
                        });
                        words.next();
                    }
                    fields.push(InfoField::Score {
                        kind,
                        value: n,
                        bounds,
                    });
                }
                "currmove" => fields.push(InfoField::CurrMove(words.next().map(str::to_string))),
                "pv" => {
                    fields.push(InfoField::Pv(rest_of_line(words)));
                    break;
                }
                "string" => {
                    fields.push(InfoField::String(rest_of_line(words)));
                    break;
                }
                other => fields.push(InfoField::Unknown(other.to_string())),
            }
        }
        InfoLine { fields }
    }
}

impl fmt::Display for InfoLine {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("info")?;
        for field in &self.fields {
            match field {
                InfoField::Number(key, v) => {
                    write!(f, " {}", key.word())?;
                    write_value(f, v)?;
                }
                InfoField::Score {
                    kind,
                    value,
                    bounds,
                } => {
                    f.write_str(" score")?;
                    write_value(f, kind)?;
                    write_value(f, value)?;
                    for b in bounds {
                        write!(f, " {b}")?;
                    }
                }
                InfoField::CurrMove(mv) => {
                    f.write_str(" currmove")?;
                    if let Some(mv) = mv {
                        write!(f, " {mv}")?;
                    }
                }
                InfoField::Pv(moves) => {
                    f.write_str(" pv")?;
                    if !moves.is_empty() {
                        write!(f, " {moves}")?;
                    }
                }
                InfoField::String(text) => {
                    f.write_str(" string")?;
                    if !text.is_empty() {
                        write!(f, " {text}")?;
                    }
                }
                InfoField::Unknown(word) => write!(f, " {word}")?,
            }
        }
        Ok(())
    }
}

/// The type of an option.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum OptionKind {
    /// `check`: true or false.
    Check,
    /// `spin`: a whole number within `min..=max`.
    Spin,
    /// `combo`: one of `vars`.
    Combo,
    /// `button`: no value.
    Button,
    /// `string`: any words.
    String,
}

impl OptionKind {
    fn word(self) -> &'static str {
        match self {
            OptionKind::Check => "check",
            OptionKind::Spin => "spin",
            OptionKind::Combo => "combo",
            OptionKind::Button => "button",
            OptionKind::String => "string",
        }
    }
}

/// `option name <name> type <type> [default <v>] [min <n> max <n>] [var <v>]...`, checked: a
/// spin's default lies within its numeric bounds, a combo's default is one of its vars, a
/// check's default is `true` or `false`. Bounds are kept for spins only, vars for combos only.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OptionDecl {
    /// The words between `name` and `type`.
    pub name: String,
    /// The word after `type`.
    pub kind: OptionKind,
    /// The word after `default`.
    pub default: Option<String>,
    /// A spin's least value.
    pub min: Option<i64>,
    /// A spin's greatest value.
    pub max: Option<i64>,
    /// A combo's choices, in order.
    pub vars: Vec<String>,
}

/// An `option` line that is no well-formed declaration.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BadOption {
    /// The line as read.
    pub line: String,
    /// The words between `name` and `type`, when there are some.
    pub name: Option<String>,
    /// Why the line is not a declaration, quoting it.
    pub why: String,
}

/// The words of `name <words...> [type ...]` (the words after `option`), if any.
fn option_name(words: &[&str]) -> Option<String> {
    if words.first() != Some(&"name") {
        return None;
    }
    let name: Vec<&str> = words[1..]
        .iter()
        .take_while(|&&w| w != "type")
        .copied()
        .collect();
    (!name.is_empty()).then(|| name.join(" "))
}

impl OptionDecl {
    /// Reads and checks one whole `option ...` line.
    pub fn parse(line: &str) -> Result<OptionDecl, String> {
        let bad = |why: &str| format!("'{}': {why}", shorten(line));
        let tokens: Vec<&str> = line.split_ascii_whitespace().collect();
        if tokens.get(1) != Some(&"name") {
            return Err(bad("expected 'option name'"));
        }
        let type_at = tokens
            .iter()
            .position(|&t| t == "type")
            .ok_or_else(|| bad("no 'type'"))?;
        if type_at < 3 {
            return Err(bad("empty option name"));
        }
        let name = tokens[2..type_at].join(" ");
        let kind = match *tokens
            .get(type_at + 1)
            .ok_or_else(|| bad("no type after 'type'"))?
        {
            "check" => OptionKind::Check,
            "spin" => OptionKind::Spin,
            "combo" => OptionKind::Combo,
            "button" => OptionKind::Button,
            "string" => OptionKind::String,
            _ => return Err(bad("type must be check, spin, combo, button or string")),
        };
        let rest = &tokens[type_at + 2..];
        let value_after = |key: &str| -> Option<String> {
            rest.iter()
                .position(|&t| t == key)
                .and_then(|i| rest.get(i + 1))
                .map(|s| s.to_string())
        };
        let default = value_after("default");
        let mut decl = OptionDecl {
            name,
            kind,
            default,
            min: None,
            max: None,
            vars: Vec::new(),
        };
        match kind {
            OptionKind::Spin => {
                let num = |key: &str| -> Result<i64, String> {
                    value_after(key)
                        .and_then(|v| v.parse::<i64>().ok())
                        .ok_or_else(|| bad(&format!("spin needs a numeric {key}")))
                };
                let (d, lo, hi) = (num("default")?, num("min")?, num("max")?);
                if !(lo <= d && d <= hi) {
                    return Err(bad("default outside min..max"));
                }
                (decl.min, decl.max) = (Some(lo), Some(hi));
            }
            OptionKind::Combo => {
                let d = decl
                    .default
                    .clone()
                    .ok_or_else(|| bad("combo needs a default"))?;
                decl.vars = rest
                    .windows(2)
                    .filter(|w| w[0] == "var")
                    .map(|w| w[1].to_string())
                    .collect();
                if !decl.vars.contains(&d) {
                    return Err(bad("combo default is not one of its vars"));
                }
            }
            OptionKind::Check
                if !matches!(decl.default.as_deref(), Some("true") | Some("false")) =>
            {
                return Err(bad("check default must be true or false"));
            }
            _ => {}
        }
        Ok(decl)
    }
}

impl fmt::Display for OptionDecl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "option name {} type {}", self.name, self.kind.word())?;
        if let Some(d) = &self.default {
            write!(f, " default {d}")?;
        }
        if let Some(min) = self.min {
            write!(f, " min {min}")?;
        }
        if let Some(max) = self.max {
            write!(f, " max {max}")?;
        }
        for v in &self.vars {
            write!(f, " var {v}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_info_key_is_read_by_its_word() {
        for key in InfoKey::ALL {
            assert_eq!(InfoKey::of_word(key.word()), Some(key));
        }
        assert_eq!(
            InfoKey::of_word("Depth"),
            None,
            "keywords are case-sensitive"
        );
        assert_eq!(InfoKey::of_word("score"), None);
    }

    #[test]
    fn replies_round_trip() {
        let replies = [
            Reply::IdName("otau 1.0".into()),
            Reply::IdAuthor("the otau developers".into()),
            Reply::Option(OptionDecl {
                name: "Move Overhead".into(),
                kind: OptionKind::Spin,
                default: Some("10".into()),
                min: Some(0),
                max: Some(50),
                vars: vec![],
            }),
            Reply::Option(OptionDecl {
                name: "Game".into(),
                kind: OptionKind::Combo,
                default: Some("toguz".into()),
                min: None,
                max: None,
                vars: vec!["toguz".into(), "modiar".into()],
            }),
            Reply::Option(OptionDecl {
                name: "Ponder".into(),
                kind: OptionKind::Check,
                default: Some("false".into()),
                min: None,
                max: None,
                vars: vec![],
            }),
            Reply::UgiOk { uci: false },
            Reply::UgiOk { uci: true },
            Reply::ReadyOk,
            Reply::Info(
                InfoLine::default()
                    .with(InfoKey::Depth, 3)
                    .with(InfoKey::SelDepth, 5)
                    .with_score(ScoreKind::Mate, -4)
                    .with(InfoKey::Nodes, 1200)
                    .with(InfoKey::Nps, 9)
                    .with(InfoKey::Time, 2)
                    .with(InfoKey::Hashfull, 0)
                    .with_pv(vec!["3".into(), "4".into()]),
            ),
            Reply::Info(InfoLine::string("game over: p1win")),
            Reply::BestMove(BestMove::of("36x")),
            Reply::BestMove(BestMove::of("none")),
            Reply::Response("true".into()),
            Reply::Response("1 2 3".into()),
        ];
        for r in replies {
            let text = r.to_string();
            assert_eq!(Reply::parse(&text), r, "{text}");
        }
    }

    #[test]
    fn sample_lines_print_as_read() {
        for line in [
            "info depth 3 seldepth 5 score cp -40 nodes 1200 nps 9 pv 3 4 5",
            "info depth x score mate 7 string depth 99",
            "info score wdl 500 depth",
            "info score cp 10 lowerbound currmove 3 currmovenumber 1",
            "info depth 1 score mate -3 wdl 1 2 3",
            "info score",
            "info",
            "bestmove 12 ponder 13",
            "bestmove",
            "option name Hash type spin min 0 max 2",
            "option garbage",
            "ugiok now",
            "hello there",
        ] {
            assert_eq!(Reply::parse(line).to_string(), line);
        }
        assert_eq!(
            Reply::parse("id  name  otau   x").to_string(),
            "id name otau x"
        );
        assert_eq!(Reply::parse("readyok\r"), Reply::ReadyOk);
    }

    #[test]
    fn info_fields_keep_what_they_cannot_read() {
        let Reply::Info(info) = Reply::parse("info depth x nodes 5 score wdl 500 wdl pv 1 2")
        else {
            panic!("not info");
        };
        assert_eq!(
            info.fields,
            [
                InfoField::Number(InfoKey::Depth, Err(Some("x".into()))),
                InfoField::Number(InfoKey::Nodes, Ok(5)),
                InfoField::Score {
                    kind: Err(Some("wdl".into())),
                    value: Ok(500),
                    bounds: vec![]
                },
                InfoField::Unknown("wdl".into()),
                InfoField::Pv("1 2".into()),
            ]
        );
        assert!(info.is_search());
        assert!(!InfoLine::string("x").is_search());
        assert!(!InfoLine::default().is_search());
    }

    #[test]
    fn option_declarations() {
        let d = OptionDecl::parse("option name Move Overhead type spin default 10 min 0 max 50")
            .unwrap();
        assert_eq!(d.name, "Move Overhead");
        assert_eq!(d.default.as_deref(), Some("10"));
        for bad in [
            "option Hash type spin default 1 min 0 max 2",
            "option name Hash type spin default 9 min 0 max 2",
            "option name Hash type spin min 0 max 2",
            "option name Game type combo default chess var go",
            "option name X type knob",
            "option name type spin",
            "option name Ponder type check default maybe",
        ] {
            assert!(OptionDecl::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn option_names_may_have_spaces() {
        let name = |line: &str| Reply::parse(line).option_name().map(str::to_string);
        assert_eq!(
            name("option name Move Overhead type spin default 10").as_deref(),
            Some("Move Overhead")
        );
        assert_eq!(name("option name Foo").as_deref(), Some("Foo"));
        assert_eq!(name("option name type spin"), None);
        assert_eq!(name("option garbage"), None);
    }
}
