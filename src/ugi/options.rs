//! The engine's UGI options: their declarations (`option name ...` lines) and `setoption`.
//!
//! One table describes every option, so the handshake and `setoption` can never disagree about a
//! name, a range or a default.
//!
//! Besides the declared options, `setoption` takes hidden tuning options (as Stockfish's tuning
//! options: accepted, never listed in the `ugi` reply): a switch per search technique
//! (`UseTT`, `UseLMR`, ...), `QuiescencePlies` and `EvalFile`, so that the arena's built-in
//! engine can play with a technique off or other weights and a match measures what they are worth.

use std::io::Read;
use std::time::Duration;

use crate::eval::{tune, Weights};
use crate::games::notation::shorten;
use crate::games::Variant;
use crate::search::worker::MAX_PLY;
use crate::search::{Features, Options, Player, MAX_LEVEL};
use crate::ugi::wire::{OptionDecl, OptionKind};

/// Everything `setoption` can change: the game for `position startpos`, the searcher's options,
/// and (hidden tuning options) its search techniques and evaluation weights.
#[derive(Clone, Debug)]
pub struct EngineOptions {
    /// The game `position startpos` starts.
    pub game: Variant,
    /// The searcher's options (`Hash`, `Threads`, `Level`, `Player`, `Seed`, `MoveOverhead`).
    pub search: Options,
    /// The search techniques the hidden `Use...` options switch.
    pub features: Features,
    /// The evaluation weights the hidden `EvalFile` option reads.
    pub weights: Weights,
}

impl EngineOptions {
    /// The defaults, playing `game`.
    pub fn new(game: Variant) -> Self {
        EngineOptions {
            game,
            search: Options::default(),
            features: Features::default(),
            weights: Weights::default(),
        }
    }
}

/// What a successful `setoption` changed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Changed {
    /// The game: the position is reset to its start.
    Game,
    /// A search setting: the next search uses it.
    Search,
}

/// `Hash`'s maximum, in MiB.
pub const HASH_MAX_MB: u64 = 32_768;
/// `Threads`'s maximum.
pub const THREADS_MAX: u64 = 256;
/// `MoveOverhead`'s maximum, in milliseconds.
pub const MOVE_OVERHEAD_MAX_MS: u64 = 5_000;
/// Spin values are signed 64-bit in most GUIs.
pub const SEED_MAX: u64 = i64::MAX as u64;
/// `QuiescencePlies`: the search stops every line at this ply anyway.
pub const QUIESCENCE_PLIES_MAX: u64 = MAX_PLY as u64;
/// `EvalFile`: a weight file is a few hundred bytes; anything beyond this is not one.
pub const EVAL_FILE_MAX_BYTES: u64 = 1 << 20;

/// The hidden options that switch the search techniques, with the [`Features::NAMES`] each sets
/// (a check option each, default true).
pub const FEATURE_OPTIONS: [(&str, &str); 9] = [
    ("UseTT", "tt"),
    ("UseKillers", "killers"),
    ("UseHistory", "history"),
    ("UseCapturesFirst", "captures-first"),
    ("UseQuiescence", "quiescence"),
    ("UsePVS", "pvs"),
    ("UseLMR", "lmr"),
    ("UsePositionalEval", "positional-eval"),
    ("UseTables", "tables"),
];

/// The option name and feature of [`FEATURE_OPTIONS`] that a [`normalise`]d key names.
fn feature_option(key: &str) -> Option<(&'static str, &'static str)> {
    FEATURE_OPTIONS
        .into_iter()
        .find(|(option, _)| normalise(option) == key)
}

/// The options the handshake declares (`option name ...` lines, written by the wire's
/// [`OptionDecl`] text). `Game` lists the main game ids (every id of [`Variant::all`] is
/// accepted).
pub fn declarations(current: &EngineOptions) -> Vec<OptionDecl> {
    let defaults = Options::default();
    let mut games: Vec<String> = Variant::main_ids().iter().map(|s| s.to_string()).collect();
    if !games.contains(&current.game.id()) {
        games.push(current.game.id());
    }
    let combo = |name: &str, default: String, vars: Vec<String>| OptionDecl {
        name: name.into(),
        kind: OptionKind::Combo,
        default: Some(default),
        min: None,
        max: None,
        vars,
    };
    let spin = |name: &str, default: u64, min: i64, max: u64| OptionDecl {
        name: name.into(),
        kind: OptionKind::Spin,
        default: Some(default.to_string()),
        min: Some(min),
        max: Some(max as i64),
        vars: Vec::new(),
    };
    vec![
        combo("Game", current.game.to_string(), games),
        spin("Hash", defaults.hash_mb as u64, 1, HASH_MAX_MB),
        spin("Threads", defaults.threads as u64, 1, THREADS_MAX),
        spin("Level", u64::from(defaults.level), 1, u64::from(MAX_LEVEL)),
        combo(
            "Player",
            player_name(defaults.player).into(),
            ["search", "random", "greedy"].map(String::from).to_vec(),
        ),
        spin("Seed", defaults.seed, 0, SEED_MAX),
        spin(
            "MoveOverhead",
            defaults.move_overhead.as_millis() as u64,
            0,
            MOVE_OVERHEAD_MAX_MS,
        ),
    ]
}

/// The `Player` option's word for `player`.
pub fn player_name(player: Player) -> &'static str {
    match player {
        Player::Search => "search",
        Player::Random => "random",
        Player::Greedy => "greedy",
    }
}

/// Option names compare without case, spaces or underscores (`Move Overhead`, `move_overhead`).
fn normalise(name: &str) -> String {
    name.chars()
        .filter(|c| !c.is_whitespace() && *c != '_')
        .flat_map(char::to_lowercase)
        .collect()
}

/// Whether `name` is one of the hidden tuning options (which the `ugi` reply does not list).
pub fn is_tuning_option(name: &str) -> bool {
    let key = normalise(name);
    feature_option(&key).is_some() || key == "quiescenceplies" || key == "evalfile"
}

fn spin(name: &str, value: &str, min: u64, max: u64) -> Result<u64, String> {
    match value.parse::<u64>() {
        Ok(n) if (min..=max).contains(&n) && !value.starts_with('+') => Ok(n),
        _ => Err(format!(
            "bad value '{}' for {name}: expected an integer {min}..{max}",
            shorten(value)
        )),
    }
}

fn check(name: &str, value: &str) -> Result<bool, String> {
    match value.to_ascii_lowercase().as_str() {
        "true" => Ok(true),
        "false" => Ok(false),
        _ => Err(format!(
            "bad value '{}' for {name}: expected true or false",
            shorten(value)
        )),
    }
}

/// Reads an `EvalFile` weight file (a regular file of at most [`EVAL_FILE_MAX_BYTES`], so that
/// neither a FIFO nor a huge file holds the engine up).
fn eval_file(path: &str) -> Result<Weights, String> {
    let shown = shorten(path);
    let fail = |why: String| format!("EvalFile '{shown}': {why}");
    let meta = std::fs::metadata(path).map_err(|e| fail(e.to_string()))?;
    if !meta.is_file() {
        return Err(fail("not a regular file".into()));
    }
    if meta.len() > EVAL_FILE_MAX_BYTES {
        return Err(fail(format!(
            "{} bytes: a weight file has at most {EVAL_FILE_MAX_BYTES}",
            meta.len()
        )));
    }
    // Opened without waiting and checked again on the open file: the path may have been
    // replaced by a FIFO since.
    let mut text = String::new();
    crate::input::open_input_file(std::path::Path::new(path), EVAL_FILE_MAX_BYTES, "EvalFile")?
        .read_to_string(&mut text)
        .map_err(|e| fail(e.to_string()))?;
    let toguz = tune::parse_weights(&text).map_err(fail)?;
    Ok(Weights { toguz })
}

/// Applies `setoption name <name> value <value>`. On error nothing is changed and the message
/// names the problem.
pub fn set(opts: &mut EngineOptions, name: &str, value: Option<&str>) -> Result<Changed, String> {
    let key = normalise(name);
    let feature = feature_option(&key);
    let known = is_tuning_option(name)
        || matches!(
            key.as_str(),
            "game" | "hash" | "threads" | "level" | "player" | "seed" | "moveoverhead"
        );
    if !known {
        return Err(format!(
            "unknown option '{}' (Game, Hash, Threads, Level, Player, Seed, MoveOverhead)",
            shorten(name)
        ));
    }
    let value = value
        .map(str::trim)
        .filter(|v| !v.is_empty())
        .ok_or_else(|| format!("option {} needs a value", shorten(name)))?;
    if let Some((option, feature)) = feature {
        let on = check(option, value)?;
        opts.features.set(feature, on)?;
        return Ok(Changed::Search);
    }
    let search = &mut opts.search;
    match key.as_str() {
        "game" => {
            opts.game = value.parse::<Variant>().map_err(|e| e.to_string())?;
            return Ok(Changed::Game);
        }
        "hash" => search.hash_mb = spin("Hash", value, 1, HASH_MAX_MB)? as usize,
        "threads" => search.threads = spin("Threads", value, 1, THREADS_MAX)? as usize,
        "level" => search.level = spin("Level", value, 1, MAX_LEVEL as u64)? as u32,
        "player" => search.player = value.parse::<Player>()?,
        "seed" => search.seed = spin("Seed", value, 0, SEED_MAX)?,
        "moveoverhead" => {
            search.move_overhead =
                Duration::from_millis(spin("MoveOverhead", value, 0, MOVE_OVERHEAD_MAX_MS)?)
        }
        "quiescenceplies" => {
            opts.features.quiescence_plies =
                Some(spin("QuiescencePlies", value, 0, QUIESCENCE_PLIES_MAX)? as usize)
        }
        "evalfile" => opts.weights = eval_file(value)?,
        _ => unreachable!("checked above"),
    }
    Ok(Changed::Search)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_game_id_is_accepted() {
        let mut o = EngineOptions::new(Variant::TOGUZ);
        for v in Variant::all() {
            assert_eq!(set(&mut o, "Game", Some(&v.id())), Ok(Changed::Game));
            assert_eq!(o.game, v);
        }
    }

    #[test]
    fn names_are_loose_values_are_strict() {
        let mut o = EngineOptions::new(Variant::TOGUZ);
        set(&mut o, "move overhead", Some("25")).unwrap();
        assert_eq!(o.search.move_overhead, Duration::from_millis(25));
        set(&mut o, "HASH", Some("16")).unwrap();
        assert_eq!(o.search.hash_mb, 16);
        set(&mut o, "player", Some("Random")).unwrap();
        assert_eq!(o.search.player, Player::Random);
        for (name, value) in [
            ("Hash", "0"),
            ("Hash", "-1"),
            ("Hash", "+5"),
            ("Hash", "lots"),
            ("Threads", "0"),
            ("Level", "21"),
            ("Level", "0"),
            ("Player", "deep"),
            ("Seed", "-3"),
            ("MoveOverhead", "5001"),
            ("Game", "chess"),
            ("Game", "giuthi-4x4"),
        ] {
            let before = format!("{o:?}");
            assert!(set(&mut o, name, Some(value)).is_err(), "{name}={value}");
            assert_eq!(before, format!("{o:?}"), "{name}={value} changed something");
        }
        assert!(set(&mut o, "Ponder", Some("true"))
            .unwrap_err()
            .contains("unknown option 'Ponder'"));
        assert!(set(&mut o, "Hash", None)
            .unwrap_err()
            .contains("needs a value"));
    }

    #[test]
    fn tuning_options_are_hidden_and_strict() {
        let o = EngineOptions::new(Variant::TOGUZ);
        let declared = declarations(&o)
            .iter()
            .map(ToString::to_string)
            .collect::<Vec<_>>()
            .join("\n");
        let names: Vec<&str> = FEATURE_OPTIONS.iter().map(|(_, f)| *f).collect();
        assert_eq!(names, Features::NAMES);
        for (option, feature) in FEATURE_OPTIONS {
            assert!(!declared.contains(option), "{option} is declared");
            let mut copy = o.clone();
            assert_eq!(set(&mut copy, option, Some("false")), Ok(Changed::Search));
            let mut expected = Features::default();
            expected.set(feature, false).unwrap();
            assert_eq!(copy.features, expected, "{option}");
            set(&mut copy, option, Some("TRUE")).unwrap();
            assert_eq!(copy.features, Features::default(), "{option}");
        }
        assert!(!declared.contains("QuiescencePlies") && !declared.contains("EvalFile"));
        assert!(is_tuning_option("quiescence plies") && is_tuning_option("UsePVS"));
        assert!(!is_tuning_option("Hash"));
        let mut copy = o.clone();
        set(&mut copy, "use captures first", Some("false")).unwrap();
        assert!(!copy.features.captures_first);
        set(&mut copy, "quiescence_plies", Some("0")).unwrap();
        assert_eq!(copy.features.quiescence_plies, Some(0));
        let mut copy = o.clone();
        for (name, value, error) in [
            (
                "UseTT",
                "off",
                "bad value 'off' for UseTT: expected true or false",
            ),
            (
                "UseLMR",
                "1",
                "bad value '1' for UseLMR: expected true or false",
            ),
            (
                "QuiescencePlies",
                "129",
                "bad value '129' for QuiescencePlies: expected an integer 0..128",
            ),
            ("QuiescencePlies", "-1", "expected an integer 0..128"),
            (
                "EvalFile",
                "/nonexistent/w.txt",
                "EvalFile '/nonexistent/w.txt': ",
            ),
            ("EvalFile", "/", "EvalFile '/': not a regular file"),
            ("UseNothing", "true", "unknown option 'UseNothing'"),
        ] {
            let before = format!("{copy:?}");
            let got = set(&mut copy, name, Some(value)).unwrap_err();
            assert!(got.contains(error), "{name}={value}: {got}");
            assert_eq!(
                before,
                format!("{copy:?}"),
                "{name}={value} changed something"
            );
        }
        assert!(set(&mut copy, "UseTT", None)
            .unwrap_err()
            .contains("needs a value"));
    }

    #[test]
    fn eval_file_reads_what_tune_writes() {
        let dir = std::env::temp_dir().join(format!("otau-evalfile-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let mut weights = crate::eval::toguz::WEIGHTS;
        weights[0] = [weights[0][0] + 7, -3];
        let good = dir.join("good.txt");
        std::fs::write(&good, tune::weight_file(&weights)).unwrap();
        let bad = dir.join("bad.txt");
        std::fs::write(&bad, "# comment\n\nno-such-term 1 2\n").unwrap();
        let mut o = EngineOptions::new(Variant::TOGUZ);
        set(&mut o, "EvalFile", Some(good.to_str().unwrap())).unwrap();
        assert_eq!(o.weights.toguz, weights);
        let before = format!("{o:?}");
        let got = set(&mut o, "EvalFile", Some(bad.to_str().unwrap())).unwrap_err();
        assert!(
            got.contains("line 3: 'no-such-term 1 2': unknown term 'no-such-term' (known: "),
            "{got}"
        );
        assert_eq!(before, format!("{o:?}"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn declarations_match_the_table() {
        let o = EngineOptions::new(Variant::GIUTHI);
        let lines: Vec<String> = declarations(&o).iter().map(ToString::to_string).collect();
        assert!(lines[0].starts_with("option name Game type combo default giuthi var"));
        for line in &lines {
            let name = line.split(' ').nth(2).unwrap();
            let default = line
                .split(" default ")
                .nth(1)
                .unwrap()
                .split(' ')
                .next()
                .unwrap();
            let mut copy = o.clone();
            set(&mut copy, name, Some(default)).unwrap();
        }
    }
}
