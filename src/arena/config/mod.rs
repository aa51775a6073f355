//! What a run is: engines, game, schedule, openings, adjudication. This whole value is written as
//! the first line of the records, so `--resume` and `merge` rebuild exactly the same run from it.

pub mod confinement;
pub mod engines_file;
pub mod programs;
pub mod stderr_log;

use std::path::PathBuf;

use serde::{Deserialize, Serialize};

pub use confinement::{Confinement, Overuse};

use crate::arena::game::adjudication::AdjudicationRules;
use crate::arena::game::clock::{seconds_in, MoveLimits, MAX_MS};
use crate::arena::game::openings::OpeningConfig;
use crate::key_values::KeyValues;

/// One engine as the user described it with `--engine key=value ...`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EngineConfig {
    /// `name=`: the engine in records, PGN tags and tables; unique within a run.
    pub name: String,
    /// A program path, or `builtin:otau|random|greedy` for an in-process player.
    pub cmd: String,
    /// `args=`: the program's arguments, split as a shell would (quotes kept together).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub args: Vec<String>,
    /// `dir=`: the directory the program starts in (the arena's own by default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub dir: Option<PathBuf>,
    /// `option.Name=value`, sent with `setoption` after the handshake, in the order given.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub options: Vec<(String, String)>,
    /// `tc=`, `st=`, `depth=`, `nodes=`, `timemargin=`, `timeout=`: what each `go` allows the
    /// engine, and how late a reply may come.
    pub limits: MoveLimits,
    /// `restart=on`: a fresh process for every game (cutechess-cli's and fastchess's key; by
    /// default an engine is kept for its next game).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub restart: bool,
    /// `proto=uci`: the handshake is UCI's (`uci` ... `uciok`), the rest UGI as always; what
    /// cutechess-cli's and fastchess's users write, their tools having no UGI.
    #[serde(default, skip_serializing_if = "Protocol::is_ugi")]
    pub proto: Protocol,
    /// `stderr=FILE` (cutechess-cli): the engine's stderr log, in place of
    /// `LOG_DIR/NAME.stderr.log`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub stderr: Option<PathBuf>,
    /// `sandbox=on`, `memory=MB`, `processes=N`, `cpus=N` (or `--sandbox`): what the engine's
    /// program is held to (absent in records written before, and when nothing is asked).
    #[serde(default, skip_serializing_if = "Confinement::is_none")]
    pub confine: Confinement,
    /// `rating=N` (0..=4000): the engine's rating, a Swiss's initial ranking (higher first);
    /// other tournaments keep it unused.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub rating: Option<u32>,
}

/// How the arena greets an engine (`proto=`): every protocol here is UGI after the greeting.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Protocol {
    /// `ugi` ... `ugiok`.
    #[default]
    Ugi,
    /// `uci` ... `uciok`, then UGI (which takes UCI's spellings too: `protocol/ugi.md`).
    Uci,
}

impl Protocol {
    pub(crate) fn is_ugi(&self) -> bool {
        *self == Protocol::Ugi
    }
}

/// How engines are paired.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Default, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum TournamentKind {
    /// Every engine against every other.
    #[default]
    Roundrobin,
    /// The first engine against each of the others.
    Gauntlet,
    /// A single-elimination bracket seeded in command-line order, --rounds pairs an encounter.
    // (Its bracket: `knockout::Bracket`; the help text: `crate::cli::arena`'s values.)
    Knockout,
    /// A Swiss by the FIDE Dutch system (C.04.3, 2025), --rounds rounds, --games 2 for game pairs.
    // (Its pairing: `swiss::SwissRun`; the help text: `crate::cli::arena`'s values.)
    Swiss,
}

/// The built-in players, run in process.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Builtin {
    /// `builtin:otau`: the engine's own search, at the engine's limits.
    Otau,
    /// `builtin:random`: a legal move picked at random, the floor any engine must beat.
    Random,
    /// `builtin:greedy`: the move that wins the most stones at once, one step above random.
    Greedy,
}

impl EngineConfig {
    /// The built-in player named by `cmd`, if it names one.
    pub fn builtin(&self) -> Option<Result<Builtin, String>> {
        let which = self.cmd.strip_prefix("builtin:")?;
        Some(match which {
            "otau" => Ok(Builtin::Otau),
            "random" => Ok(Builtin::Random),
            "greedy" => Ok(Builtin::Greedy),
            other => Err(format!(
                "unknown built-in player '{other}' (builtin:otau, builtin:random, builtin:greedy)"
            )),
        })
    }
}

/// Names and option values go into protocol lines and PGN tags: a line break in one would be read
/// by the engine as a command of its own, or would break the record. Checked on the command line
/// and again on what `--resume` reads back from a records file.
pub(crate) fn reject_control(what: &str, text: &str) -> Result<(), String> {
    if text.chars().any(char::is_control) {
        Err(format!(
            "{what}={}: control characters (line breaks, tabs) are not allowed",
            text.escape_debug()
        ))
    } else {
        Ok(())
    }
}

impl EngineConfig {
    /// Where the engine's stderr is appended: its `stderr=` file, or `LOG_DIR/NAME.stderr.log`.
    pub fn stderr_log(&self, log_dir: &std::path::Path) -> PathBuf {
        self.stderr
            .clone()
            .unwrap_or_else(|| stderr_log::log_file(log_dir, &self.name))
    }

    /// The engine's name as [`crate::names::check_name`] allows it, and [`reject_control`] over
    /// its options.
    pub(crate) fn check_text(&self) -> Result<(), String> {
        crate::names::check_name(&self.name)
            .map_err(|why| format!("name={}: {why}", crate::names::shown(&self.name)))?;
        for (name, value) in &self.options {
            reject_control("option name", name)?;
            reject_control(&format!("option.{}", name.escape_debug()), value)?;
        }
        Ok(())
    }
}

/// An engine spec not yet complete: `--each` keys apply first, the engine's own keys override.
#[derive(Clone, Debug, Default)]
pub struct EngineSpec {
    /// What the list is, as errors name it: `--engine 2`, `--each`.
    pub list: String,
    /// The `key=value` pairs in the order given (a later one overrides an earlier one: the
    /// engines file's keys those before them, `--each`'s none of the engine's own).
    pub pairs: Vec<(String, String)>,
}

/// An engine's keys (`option.` stands for every `option.NAME`), in the order the unknown-key
/// error lists them.
const ENGINE_KEYS: &[&str] = &[
    "name",
    "cmd",
    "args",
    "arg",
    "dir",
    "conf",
    "proto",
    "restart",
    "stderr",
    "option.",
    "tc",
    "st",
    "depth",
    "plies",
    "nodes",
    "timemargin",
    "timeout",
    "rating",
    "sandbox",
    "memory",
    "processes",
    "cpus",
    "overuse",
];

/// cutechess-cli's engine keys that the arena refuses, each with its reason ([`unsupported_key`]).
const UNSUPPORTED_KEYS: &[&str] = &[
    "book",
    "bookdepth",
    "initstr",
    "ponder",
    "whitepov",
    "trust",
];

impl EngineSpec {
    /// Reads `key=value` tokens, the list `list` (`--engine 2`, `--each`): every key one of the
    /// engine's, none given twice but `arg=` (documented to repeat).
    pub fn parse(list: &str, tokens: &[String]) -> Result<EngineSpec, String> {
        if let Some((t, why)) = tokens
            .iter()
            .find_map(|t| unsupported_flag(t).map(|w| (t, w)))
        {
            return Err(format!("{list}: '{t}': {why}"));
        }
        let kv =
            KeyValues::parse(list, tokens.iter().map(String::as_str)).map_err(|e| e.to_string())?;
        if let Some(&(k, v)) = kv
            .pairs()
            .iter()
            .find(|(k, _)| UNSUPPORTED_KEYS.contains(k))
        {
            return Err(kv.bad_value(k, v, unsupported_key(k).into()).to_string());
        }
        let kv = kv
            .only(ENGINE_KEYS)
            .and_then(|kv| kv.once(&["arg"]))
            .map_err(|e| e.to_string())?;
        Ok(EngineSpec {
            list: list.to_string(),
            pairs: kv
                .pairs()
                .iter()
                .map(|&(k, v)| (k.to_string(), v.to_string()))
                .collect(),
        })
    }

    /// Builds the engine from `--each` defaults and this engine's own keys; a bad value is
    /// named with the list that gave it.
    pub fn build(&self, each: &EngineSpec, index: usize) -> Result<EngineConfig, String> {
        let mut e = EngineConfig {
            name: String::new(),
            cmd: String::new(),
            args: Vec::new(),
            dir: None,
            options: Vec::new(),
            limits: MoveLimits {
                timeout_ms: MoveLimits::DEFAULT_TIMEOUT_MS,
                ..MoveLimits::default()
            },
            restart: false,
            proto: Protocol::Ugi,
            stderr: None,
            confine: Confinement::default(),
            rating: None,
        };
        for spec in [each, self] {
            let kv = KeyValues::of_pairs(
                &spec.list,
                spec.pairs.iter().map(|(k, v)| (k.as_str(), v.as_str())),
            );
            // `EngineSpec::parse` checked the keys of a command line; an engines file's are its
            // own (`engines_file`), and `otau web` adds `st=`.
            let kv = kv.only(ENGINE_KEYS).map_err(|e| e.to_string())?;
            for &(k, v) in kv.pairs() {
                e.set(&kv, k, v)?;
            }
        }
        if e.cmd.is_empty() {
            return Err(format!("engine {} has no cmd=", index + 1));
        }
        if let Some(Err(why)) = e.builtin() {
            return Err(why);
        }
        if e.builtin().is_some() {
            // `--each`'s confinement is for the programs among the engines; a built-in player's
            // own keys asking for one are refused.
            let mut own = Confinement::default();
            for (k, v) in &self.pairs {
                let _ = own.set(k, v);
            }
            e.confine = own;
        }
        if e.builtin().is_some() && !e.confine.is_none() {
            return Err(format!(
                "{} {}: a built-in player runs inside the arena, not as a program: sandbox=, \
                 memory=, processes= and cpus= apply to engine programs",
                e.cmd,
                e.confine.keys_text()
            ));
        }
        if e.name.is_empty() {
            e.name = match e.builtin() {
                Some(_) => e.cmd.trim_start_matches("builtin:").to_string(),
                None => std::path::Path::new(&e.cmd)
                    .file_name()
                    .map_or(e.cmd.clone(), |f| f.to_string_lossy().into_owned()),
            };
        }
        // After the default: a program's file name is a name like any other.
        e.check_text()?;
        if e.builtin().is_none() {
            e.cmd = resolve_program(&e.cmd, e.dir.as_deref());
        }
        let l = &e.limits;
        if l.tc.is_none() && l.movetime_ms.is_none() && l.depth.is_none() && l.nodes.is_none() {
            return Err(format!(
                "engine {}: no limit given (tc=, st=, depth= or nodes=; tc=inf needs depth= or \
                 nodes=; --each applies one to all)",
                e.name
            ));
        }
        Ok(e)
    }
}

impl EngineConfig {
    /// Reads `k=v`, one of the keys of `kv` (an engine's list, its keys checked), a bad value
    /// named with the list.
    fn set(&mut self, kv: &KeyValues, k: &str, v: &str) -> Result<(), String> {
        let bad = |why: String| kv.bad_value(k, v, why).to_string();
        let whole = |max: u64| kv.whole(k, v, 1..=max).map_err(|e| e.to_string());
        let secs = || seconds_in(v, 1).map_err(bad);
        if let Some(read) = self.confine.set(k, v) {
            return read.map_err(bad);
        }
        let limits = &mut self.limits;
        match k {
            "name" => self.name = v.to_string(),
            "cmd" => self.cmd = v.to_string(),
            "args" => self.args = split_args(v).map_err(|_| bad("unclosed quote".into()))?,
            // cutechess-cli's and fastchess's one argument a key, repeatable.
            "arg" => self.args.push(v.to_string()),
            "dir" => self.dir = Some(PathBuf::from(v)),
            // `tc=inf` (cutechess-cli): no clock; another limit must bound the search.
            "tc" if v == "inf" => limits.tc = None,
            "tc" => limits.tc = Some(v.parse().map_err(bad)?),
            "st" => limits.movetime_ms = Some(secs()?),
            // fastchess's name for the depth limit.
            "depth" | "plies" => limits.depth = Some(whole(MoveLimits::MAX_DEPTH.into())? as u32),
            "proto" => self.proto = check_protocol(v).map_err(bad)?,
            "rating" => {
                self.rating = Some(kv.whole(k, v, 0..=4000).map_err(|e| e.to_string())?);
            }
            "stderr" if v.is_empty() => return Err(bad("give a file".into())),
            "stderr" => self.stderr = Some(PathBuf::from(v)),
            "restart" => {
                self.restart = match v {
                    "on" => true,
                    "off" | "auto" => false,
                    _ => return Err(bad("on, off or auto".into())),
                }
            }
            "conf" => {
                return Err(bad(
                    "an engine of the engines file names one engine: give it in \
                     -engine, not in -each"
                        .into(),
                ))
            }
            "nodes" => limits.nodes = Some(whole(MoveLimits::MAX_NODES)?),
            "timemargin" => {
                limits.timemargin_ms = kv
                    .in_range(k, v, &(0..=MAX_MS), "a whole number of ms")
                    .map_err(|e| e.to_string())?;
            }
            "timeout" => limits.timeout_ms = secs()?,
            // `only(ENGINE_KEYS)` let no other key through: `option.NAME`.
            option => {
                let name = &option["option.".len()..];
                self.options.retain(|(n, _)| n != name);
                self.options.push((name.to_string(), v.to_string()));
            }
        }
        Ok(())
    }
}

/// `proto=`: UGI (the engine side of `protocol/ugi.md`), greeted as UGI or as UCI; the error
/// says what `proto=` may be, for the caller to prefix with the key and value.
pub(crate) fn check_protocol(v: &str) -> Result<Protocol, String> {
    const GREETINGS: &str = "a mancala engine speaks UGI (proto=ugi, the default) or UGI after \
                             UCI's handshake (proto=uci): protocol/ugi.md";
    match v {
        "ugi" => Ok(Protocol::Ugi),
        "uci" => Ok(Protocol::Uci),
        "xboard" | "cecp" => Err(format!(
            "xboard (CECP) is a chess protocol, with no mancala game in it; {GREETINGS}"
        )),
        "usi" => Err(format!(
            "USI is shogi's protocol, with no mancala game in it; {GREETINGS}"
        )),
        _ => Err("unknown protocol (ugi, the default, or uci: UGI after UCI's handshake)".into()),
    }
}

/// The program of `cmd=` as fastchess finds it: a name without a `/` is looked up on `PATH`,
/// then in the working folder (`dir=` when given, else the arena's own); found only there, it
/// becomes that file's absolute path (a name alone would not be run from the working folder).
/// Anything else is left as given, so that a missing program is reported by the start-up check
/// with the name the user wrote.
pub(crate) fn resolve_program(cmd: &str, dir: Option<&std::path::Path>) -> String {
    if cmd.is_empty() || cmd.contains('/') || find_on_path(cmd).is_some() {
        return cmd.to_string();
    }
    let folder = match dir {
        Some(d) => d.to_path_buf(),
        None => match std::env::current_dir() {
            Ok(d) => d,
            Err(_) => return cmd.to_string(),
        },
    };
    let here = folder.join(cmd);
    if !runnable(&here) {
        return cmd.to_string();
    }
    std::path::absolute(&here).map_or(cmd.to_string(), |p| p.to_string_lossy().into_owned())
}

/// The first executable file named `cmd` in an absolute `PATH` folder, as `exec` searches it:
/// what a program named without a path starts (and what `--resume` checks it still starts).
pub(crate) fn find_on_path(cmd: &str) -> Option<PathBuf> {
    let paths = std::env::var_os("PATH")?;
    std::env::split_paths(&paths)
        .filter(|d| d.is_absolute())
        .map(|d| d.join(cmd))
        .find(|p| runnable(p))
}

/// A regular file someone may execute.
fn runnable(p: &std::path::Path) -> bool {
    use std::os::unix::fs::PermissionsExt;
    std::fs::metadata(p).is_ok_and(|m| m.is_file() && m.permissions().mode() & 0o111 != 0)
}

/// Why one of cutechess-cli's engine keys is refused.
fn unsupported_key(k: &str) -> &'static str {
    match k {
        "book" | "bookdepth" => {
            "an engine's own book (cutechess-cli's Polyglot .bin) holds chess moves, which no \
             mancala game has: give the run a mancala opening book with -openings file=FILE \
             (epd, pgn or txt; protocol/arena.md, Openings)"
        }
        "initstr" => {
            "not supported: initialisation strings are an xboard feature; use option.NAME=VALUE"
        }
        "ponder" => "not supported: the arena does not let engines ponder",
        "whitepov" => "not supported: UGI scores are from the mover's view",
        _ => "not supported: the arena referees every move and trusts no claim",
    }
}

/// cutechess-cli's engine flags written without `=` (`ponder`, `whitepov`, `trust`), refused
/// with the reason instead of "not key=value".
fn unsupported_flag(t: &str) -> Option<&'static str> {
    matches!(t, "ponder" | "whitepov" | "trust").then(|| unsupported_key(t))
}

/// Splits an `args=` value at whitespace, keeping single- or double-quoted parts together.
pub fn split_args(s: &str) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    let mut cur = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in s.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => cur.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut cur));
                    in_word = false;
                }
            }
            None => {
                cur.push(c);
                in_word = true;
            }
        }
    }
    if quote.is_some() {
        return Err(format!("args=\"{s}\": unclosed quote"));
    }
    if in_word {
        out.push(cur);
    }
    Ok(out)
}

/// A whole run, as recorded in the records' first line.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct RunConfig {
    /// Game id.
    pub game: String,
    /// The engines, in command-line order (the order schedules and seeds are built from).
    pub engines: Vec<EngineConfig>,
    /// `--tournament`: who meets whom.
    pub tournament: TournamentKind,
    /// Rounds: each pairing plays one opening twice per round, colours swapped.
    pub rounds: u32,
    /// `--games`: total games cut from the schedule (rounded up to whole pairs).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub games: Option<u64>,
    /// `--seed`: the one source of every random choice of the run (openings, their order), so a run
    /// can be repeated.
    pub seed: u64,
    /// `--openings`: where the games start.
    pub openings: OpeningConfig,
    /// `--max-plies`: games still running after this many plies are scored by stones held.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub max_plies: Option<u32>,
    /// A player holding more than half of all stones in their store has won: stop there.
    pub adjudicate_decided: bool,
    /// `--resign`, `--draw`, `--maxmoves`, `--adjudicate` (absent when all off, as in records
    /// written before they existed).
    #[serde(default, skip_serializing_if = "AdjudicationRules::is_off")]
    pub adjudication: AdjudicationRules,
    /// Longest wait for `ugiok` and for `readyok`, in ms.
    pub startup_timeout_ms: u64,
    /// Start failures in a row after which an engine's remaining games are forfeited.
    pub max_start_failures: u32,
    /// `--max-crashes`: games lost by a crash in a row after which an engine's remaining games
    /// are forfeited (records written before it existed read as the default).
    #[serde(default = "default_max_crashes")]
    pub max_crashes: u32,
    /// `--sprt`: stop when the test on the first two engines decides.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sprt: Option<crate::stats::SprtConfig>,
    /// `--tiebreak-pairs`: a knockout's pairs at most after a level encounter, before the seeded
    /// draw (given only for a knockout; absent in records written before knockouts).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub tiebreak_pairs: Option<u32>,
    /// A Swiss's `--tiebreaks` and `--bye-score` (absent when both are the defaults, as in
    /// records written before them).
    #[serde(default, skip_serializing_if = "SwissOptions::is_default")]
    pub swiss: SwissOptions,
}

/// A Swiss's own options, kept in the records' header so that `--resume` ranks and scores as
/// the run began.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct SwissOptions {
    /// `--tiebreaks`: the tie-breaks in order, by their long names (`buchholz-cut1`); empty for
    /// the default order. A Swiss checks and reads them (`swiss::standings::TieBreak`).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub tiebreaks: Vec<String>,
    /// `--bye-score`: the pairing-allocated bye's points (None: a win's, FIDE's default).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bye_score: Option<ByeScore>,
}

impl SwissOptions {
    /// Nothing asked: the records header leaves the options out (older readers match it).
    pub fn is_default(&self) -> bool {
        *self == SwissOptions::default()
    }
}

/// The pairing-allocated bye's points, as a game's: `--bye-score 1` (a win's, the handbook's
/// default), `0.5` or `0`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ByeScore {
    /// A win's points: the handbook's default.
    Win,
    /// Half a point.
    Draw,
    /// No point: the bye only spares a round.
    Loss,
}

impl ByeScore {
    /// `1`, `0.5` or `0` (also `1.0`, `0.0`, `win`, `draw`, `loss`).
    pub fn parse(text: &str) -> Result<ByeScore, String> {
        match text.trim().to_ascii_lowercase().as_str() {
            "1" | "1.0" | "win" => Ok(ByeScore::Win),
            "0.5" | ".5" | "draw" => Ok(ByeScore::Draw),
            "0" | "0.0" | "loss" => Ok(ByeScore::Loss),
            _ => Err(format!(
                "{text:?}: the bye's points, 1 (a win's, the default), 0.5 (a draw's) or 0"
            )),
        }
    }

    /// In tenths of a point (a win 10).
    pub fn tenths(self) -> u32 {
        match self {
            ByeScore::Win => 10,
            ByeScore::Draw => 5,
            ByeScore::Loss => 0,
        }
    }
}

/// `--max-crashes` by default: three crashes in a row are a crash loop.
pub const DEFAULT_MAX_CRASHES: u32 = 3;

fn default_max_crashes() -> u32 {
    DEFAULT_MAX_CRASHES
}

impl RunConfig {
    /// Every number of the run in its range (`protocol/arena.md` gives each): checked on what
    /// the command line built and on what `--resume` reads back from a records file, so that no
    /// value wraps, and none is quietly raised or cut.
    pub fn check_values(&self) -> Result<(), String> {
        for e in &self.engines {
            e.limits
                .check()
                .map_err(|why| format!("engine {}: {why}", e.name))?;
            e.confine
                .check()
                .map_err(|why| format!("engine {}: {why}", e.name))?;
        }
        self.openings.check()?;
        self.adjudication.check()?;
        // Generated openings are `plies` long; a game is adjudicated once it has so many plies.
        let opening = if self.openings.file.is_none() {
            self.openings.walk_plies()
        } else {
            0
        };
        if let Some(m) = self.max_plies {
            if m <= opening {
                return Err(format!(
                    "--max-plies {m}: leaves no move to the engines after {opening}-ply openings \
                     (give {}..={})",
                    opening + 1,
                    u32::MAX
                ));
            }
        }
        if let Some(m) = self.adjudication.max_moves {
            if u64::from(m) * 2 <= u64::from(opening) {
                return Err(format!(
                    "--maxmoves {m}: leaves no move to the engines after {opening}-ply openings \
                     (give {}..={})",
                    opening / 2 + 1,
                    u32::MAX
                ));
            }
        }
        if !(1..=MAX_MS).contains(&self.startup_timeout_ms) {
            return Err(format!(
                "--startup-timeout: {} ms is outside 1..={MAX_MS} ms",
                self.startup_timeout_ms
            ));
        }
        if self.max_start_failures == 0 {
            return Err(format!("--max-start-failures 0: 1..={}", u32::MAX));
        }
        if self.max_crashes == 0 {
            return Err(format!("--max-crashes 0: 1..={}", u32::MAX));
        }
        if self.tournament != TournamentKind::Swiss {
            if !self.swiss.tiebreaks.is_empty() {
                return Err("--tiebreaks: only for --tournament swiss".into());
            }
            if self.swiss.bye_score.is_some() {
                return Err("--bye-score: only for --tournament swiss".into());
            }
        }
        Ok(())
    }

    /// The engines' names, in the order given.
    pub fn engine_names(&self) -> Vec<String> {
        self.engines.iter().map(|e| e.name.clone()).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn tokens(s: &str) -> Vec<String> {
        s.split(' ').map(String::from).collect()
    }

    fn spec(s: &str) -> EngineSpec {
        EngineSpec::parse("--engine 1", &tokens(s)).unwrap()
    }

    /// The error of the engine `s` (alone), read and built.
    fn refused(s: &str) -> String {
        EngineSpec::parse("--engine 1", &tokens(s))
            .and_then(|e| e.build(&EngineSpec::default(), 0))
            .unwrap_err()
    }

    #[test]
    fn engine_keys_and_each_defaults() {
        let each = spec("depth=3 option.Hash=16");
        let e = spec("cmd=/usr/bin/eng name=A option.Hash=32 tc=10+0.1")
            .build(&each, 0)
            .unwrap();
        assert_eq!(e.name, "A");
        assert_eq!(e.limits.depth, Some(3));
        assert_eq!(e.limits.tc.unwrap().inc_ms, 100);
        assert_eq!(e.options, vec![("Hash".to_string(), "32".to_string())]);
        let e = spec("cmd=/usr/bin/eng st=0.5")
            .build(&EngineSpec::default(), 0)
            .unwrap();
        assert_eq!(e.name, "eng");
        assert_eq!(e.limits.movetime_ms, Some(500));
        let b = spec("cmd=builtin:random depth=1")
            .build(&EngineSpec::default(), 0)
            .unwrap();
        assert_eq!(b.name, "random");
        assert_eq!(b.builtin(), Some(Ok(Builtin::Random)));
    }

    #[test]
    fn bad_engine_specs_are_explained() {
        let none = EngineSpec::default();
        assert!(spec("name=x").build(&none, 0).unwrap_err().contains("cmd"));
        assert!(spec("cmd=x")
            .build(&none, 0)
            .unwrap_err()
            .contains("no limit"));
        assert!(spec("cmd=x depth=z")
            .build(&none, 0)
            .unwrap_err()
            .contains("whole number"));
        assert_eq!(
            refused("cmd=x colour=red"),
            "--engine 1: unknown key 'colour' (keys: name, cmd, args, arg, dir, conf, proto, \
             restart, stderr, option.NAME, tc, st, depth, plies, nodes, timemargin, timeout, \
             rating, sandbox, memory, processes, cpus, overuse)"
        );
        assert!(spec("cmd=builtin:magic depth=1").build(&none, 0).is_err());
        assert_eq!(refused("novalue"), "--engine 1: 'novalue' is not key=value");
        assert_eq!(refused("=x"), "--engine 1: '=x' is not key=value");
        // A key given twice is refused by name; `arg=` adds up, as documented.
        assert_eq!(
            refused("cmd=x depth=1 depth=2"),
            "--engine 1: depth= is given twice ('depth=1', then 'depth=2'): give each key once"
        );
        assert!(refused("cmd=x option.Hash=1 option.Hash=2").contains("option.Hash= is given"));
        let e = spec("cmd=x depth=1 arg=a arg=b option.A=1 option.B=2").build(&none, 0);
        assert_eq!(e.unwrap().args, ["a", "b"]);
        assert_eq!(
            EngineSpec::parse("--each", &tokens("st=1 st=2")).unwrap_err(),
            "--each: st= is given twice ('st=1', then 'st=2'): give each key once"
        );
        // A bad value is named with the list that gave it.
        assert_eq!(
            spec("cmd=x").build(&spec("depth=0"), 0).unwrap_err(),
            "--engine 1 depth=0: a whole number in 1..=2147483647"
        );
        let each = EngineSpec::parse("--each", &tokens("memory=0")).unwrap();
        assert_eq!(
            spec("cmd=x depth=1").build(&each, 0).unwrap_err(),
            "--each memory=0: a whole number of MB in 1..=1048576"
        );
        assert_eq!(
            refused("cmd=x depth=1 timemargin=-1"),
            "--engine 1 timemargin=-1: a whole number of ms in 0..=86400000"
        );
        // A line break in an option would reach the engine as a command of its own.
        let injected = EngineSpec::parse(
            "--engine 1",
            &[
                "cmd=x".into(),
                "depth=1".into(),
                "option.Hash=1\nquit".into(),
            ],
        )
        .unwrap()
        .build(&none, 0)
        .unwrap_err();
        assert!(injected.contains("control characters"), "{injected}");
        let named = EngineSpec::parse(
            "--engine 1",
            &["cmd=x".into(), "depth=1".into(), "name=a\r\nb".into()],
        )
        .unwrap()
        .build(&none, 0)
        .unwrap_err();
        assert!(named.contains("control characters"), "{named}");
    }

    #[test]
    fn cutechess_and_fastchess_engine_keys() {
        let none = EngineSpec::default();
        let mut tokens: Vec<String> = "cmd=x proto=ugi arg=--a restart=on tc=40/1:30+0.5 plies=7"
            .split(' ')
            .map(String::from)
            .collect();
        // One argument a key, spaces and all.
        tokens.push("arg=two words".into());
        let e = EngineSpec::parse("--engine 1", &tokens)
            .unwrap()
            .build(&none, 0)
            .unwrap();
        assert_eq!(e.args, vec!["--a", "two words"]);
        assert!(e.restart);
        assert_eq!(e.limits.depth, Some(7));
        assert_eq!(e.limits.tc.unwrap().base_ms, 90_000);
        // tc=inf takes back the clock --each gave: the depth alone bounds the search.
        let each = spec("tc=10+0.1");
        let e = spec("cmd=x tc=inf depth=3").build(&each, 0).unwrap();
        assert_eq!((e.limits.tc, e.limits.depth), (None, Some(3)));
        assert!(spec("cmd=x tc=inf")
            .build(&none, 0)
            .unwrap_err()
            .contains("tc=inf needs depth= or nodes="));
        for (line, want) in [
            (
                "cmd=x depth=1 proto=xboard",
                "proto=xboard: xboard (CECP) is a chess protocol, with no mancala game in it; a \
                 mancala engine speaks UGI (proto=ugi, the default) or UGI after UCI's handshake \
                 (proto=uci)",
            ),
            ("cmd=x depth=1 proto=cecp2", "proto=cecp2: unknown protocol"),
            (
                "cmd=x depth=1 restart=sometimes",
                "restart=sometimes: on, off or auto",
            ),
            (
                "cmd=x depth=1 book=b.bin",
                "book=b.bin: an engine's own book (cutechess-cli's Polyglot .bin) holds chess \
                 moves, which no mancala game has: give the run a mancala opening book with \
                 -openings file=FILE",
            ),
            ("cmd=x depth=1 stderr=", "stderr=: give a file"),
        ] {
            let err = refused(line);
            assert!(err.contains(want), "{line}: {err}");
        }
        let err = EngineSpec::parse("--engine 1", &["ponder".into()]).unwrap_err();
        assert_eq!(
            err,
            "--engine 1: 'ponder': not supported: the arena does not let engines ponder"
        );
        assert!(spec("depth=1")
            .build(&spec("conf=a"), 0)
            .unwrap_err()
            .contains("not in -each"));
    }

    #[test]
    fn args_split_with_quotes() {
        assert_eq!(
            split_args(r#"--a 1 "two words" 'x y'"#).unwrap(),
            vec!["--a", "1", "two words", "x y"]
        );
        assert!(split_args("\"open").is_err());
    }
}
