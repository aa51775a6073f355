//! `otau selfplay`: a match between two configurations of the built-in engine, played by the
//! arena like any other run (built-in engines in process, the arena's openings, referee, records
//! and statistics). This module only turns the short contender specs (`level=5,off=lmr`) into
//! arena engine keys (`option.Level=5 option.UseLMR=false`): there is one match runner.

use std::path::PathBuf;

use anyhow::{bail, Result};

use crate::arena::config::{EngineConfig, EngineSpec, RunConfig, DEFAULT_MAX_CRASHES};
use crate::arena::game::clock::MAX_MS;
use crate::arena::game::openings::OpeningConfig;
use crate::arena::matchmaking::tournament::{self, RunOptions, RunReport};
use crate::arena::output::progress::ProgressMode;
use crate::arena::pairing::TournamentKind;
use crate::games::Variant;
use crate::key_values::KeyValues;
use crate::search::Features;
use crate::ugi::options::{set, EngineOptions, FEATURE_OPTIONS};

/// Lateness forgiven on a fixed time per move: a match of per-move limits measures the search,
/// not the machine's load (on a busy machine a 20 ms move comes a few ms late). Clocks keep the
/// arena's default of none.
const PER_MOVE_MARGIN_MS: u64 = 1000;

/// A contender's keys, in the order the unknown-key error lists them.
const CONTENDER_KEYS: &[&str] = &[
    "name", "level", "hash", "threads", "player", "seed", "depth", "nodes", "movetime", "tc",
    "qplies", "off", "weights",
];

/// The arena engine keys of a contender spec, the list `list` (`--a`): `key=value` pairs
/// separated by commas, each key once, `name=`, `level=`, `hash=`, `threads=`,
/// `player=search|random|greedy`, `seed=`, `depth=`, `nodes=`, `movetime=` (ms),
/// `tc=<base s>+<increment s>`, `qplies=` (quiescence plies), `off=<feature>[+<feature>...]`
/// ([`Features::NAMES`]), `weights=<file>` (as `otau tune --out` writes it). A contender is
/// named by its spec unless `name=` says otherwise; it starts from a 16 MiB table and 20 ms a
/// move; a clock (`tc=`) replaces the per-move limits.
pub fn contender(list: &str, spec: &str) -> Result<Vec<String>, String> {
    let kv = KeyValues::parse(list, spec.split(',').map(str::trim))
        .and_then(|kv| kv.only(CONTENDER_KEYS))
        .and_then(|kv| kv.once(&[]))
        .map_err(|e| e.to_string())?;
    let name = kv.get("name").unwrap_or(spec.trim());
    let mut keys = vec![format!("name={name}"), "cmd=builtin:otau".to_string()];
    if !kv.has("hash") {
        keys.push("option.Hash=16".to_string());
    }
    let mut per_move = Vec::new();
    let mut clock = None;
    for &(key, value) in kv.pairs() {
        let option = |name: &str| format!("option.{name}={value}");
        match key {
            "name" => {}
            "level" => keys.push(option("Level")),
            "hash" => keys.push(option("Hash")),
            "threads" => keys.push(option("Threads")),
            "seed" => keys.push(option("Seed")),
            "qplies" => keys.push(option("QuiescencePlies")),
            "weights" => keys.push(option("EvalFile")),
            "player" => keys.push(option("Player")),
            "depth" | "nodes" => per_move.push(format!("{key}={value}")),
            "tc" => clock = Some(format!("tc={value}")),
            "movetime" => {
                let ms = kv
                    .in_range(key, value, &(1..=MAX_MS), "a whole number of ms")
                    .map_err(|e| e.to_string())?;
                per_move.push(format!("st={}.{:03}", ms / 1000, ms % 1000));
            }
            // `only` let no other key through: `off`.
            _ => {
                for name in value.split('+') {
                    let (option, _) = FEATURE_OPTIONS
                        .iter()
                        .find(|(_, feature)| *feature == name)
                        .ok_or_else(|| {
                            let features = Features::NAMES.join(", ");
                            let why = format!("search features joined by + ({features})");
                            kv.bad_value(key, value, format!("{why}: '{name}' is none"))
                                .to_string()
                        })?;
                    let key = format!("option.{option}=false");
                    // `off=lmr+lmr` turns it off once (the engine's list takes a key once).
                    if !keys.contains(&key) {
                        keys.push(key);
                    }
                }
            }
        }
    }
    let per_move_only = clock.is_none();
    match clock {
        Some(tc) => keys.push(tc),
        None if per_move.is_empty() => keys.push("st=0.020".into()),
        None => keys.extend(per_move),
    }
    if per_move_only {
        keys.push(format!("timemargin={PER_MOVE_MARGIN_MS}"));
    }
    Ok(keys)
}

/// One `otau selfplay` match.
#[derive(Clone, Debug)]
pub struct Selfplay {
    /// The game both sides play.
    pub game: Variant,
    /// The two contender specs ([`contender`]).
    pub a: String,
    /// The second contender's spec.
    pub b: String,
    /// Openings, each played twice with colours swapped.
    pub pairs: u32,
    /// Random plies of each opening.
    pub plies: u32,
    /// Seeds the openings.
    pub seed: u64,
    /// Games played at once.
    pub concurrency: usize,
    /// Plies after which a game is scored by the stones held.
    pub max_plies: u32,
    /// Keep only openings a depth-6 search scores within this many centi-stones.
    pub balance: Option<u32>,
    /// The arena's records and PGN (the PGN is what `otau tune --pgn` reads).
    pub out: Option<PathBuf>,
    /// The PGN of the games.
    pub pgn: Option<PathBuf>,
}

impl Selfplay {
    /// The arena run it is: a round robin of the two contenders, `pairs` rounds.
    pub fn config(&self) -> Result<RunConfig, String> {
        let mut engines: Vec<EngineConfig> = Vec::new();
        for (i, (flag, spec)) in [("--a", &self.a), ("--b", &self.b)].into_iter().enumerate() {
            let keys = contender(flag, spec)?;
            let engine =
                EngineSpec::parse(flag, &keys).and_then(|s| s.build(&EngineSpec::default(), i))?;
            // The engine would only answer a bad value with an `info string error`: check the
            // options here, with the engine's own rules, before any game.
            let mut options = EngineOptions::new(self.game);
            for (name, value) in &engine.options {
                set(&mut options, name, Some(value)).map_err(|e| format!("{flag}: {e}"))?;
            }
            engines.push(engine);
        }
        let mut openings = vec![format!("plies={}", self.plies)];
        if let Some(margin) = self.balance {
            openings.extend([
                "policy=balanced".to_string(),
                format!("margin={margin}"),
                "depth=6".to_string(),
            ]);
        }
        let config = RunConfig {
            game: self.game.id(),
            engines,
            tournament: TournamentKind::Roundrobin,
            rounds: self.pairs,
            games: None,
            seed: self.seed,
            openings: OpeningConfig::parse(&openings)?,
            max_plies: Some(self.max_plies),
            adjudicate_decided: true,
            adjudication: Default::default(),
            startup_timeout_ms: 10_000,
            max_start_failures: 3,
            max_crashes: DEFAULT_MAX_CRASHES,
            sprt: None,
            tiebreak_pairs: None,
            swiss: Default::default(),
        };
        crate::arena::pairing::check(&config)?;
        Ok(config)
    }

    /// Plays the match; the report's standings hold the score, Elo and pentanomial counts.
    pub fn run(&self, progress: ProgressMode) -> Result<RunReport> {
        let config = self.config().map_err(anyhow::Error::msg)?;
        let opts = RunOptions {
            concurrency: self.concurrency,
            out: self.out.clone(),
            pgn: self.pgn.clone(),
            progress,
            rating_interval: 20,
            ..RunOptions::default()
        };
        let report = tournament::run(config, &opts)?;
        if let Some(why) = &report.stopped {
            bail!("the match stopped: {why}");
        }
        if report.missing > 0 {
            bail!("{} game(s) not played", report.missing);
        }
        Ok(report)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::arena::game::clock::MoveLimits;
    use crate::arena::records::RecordsFile;
    use crate::stats::pentanomial::Pentanomial;

    fn engine(spec: &str) -> EngineConfig {
        let keys = contender("--a", spec).unwrap();
        EngineSpec::parse("--a", &keys)
            .unwrap()
            .build(&EngineSpec::default(), 0)
            .unwrap()
    }

    fn option<'a>(e: &'a EngineConfig, name: &str) -> Option<&'a str> {
        e.options
            .iter()
            .find(|(n, _)| n == name)
            .map(|(_, v)| v.as_str())
    }

    #[test]
    fn contenders_parse() {
        let c = engine("name=x,level=5,nodes=1000,off=lmr+tt");
        assert_eq!(c.name, "x");
        assert_eq!(c.cmd, "builtin:otau");
        assert_eq!(option(&c, "Level"), Some("5"));
        assert_eq!(option(&c, "UseLMR"), Some("false"));
        assert_eq!(option(&c, "UseTT"), Some("false"));
        assert_eq!(option(&c, "UsePVS"), None);
        assert_eq!(option(&c, "Hash"), Some("16"));
        assert_eq!(
            c.limits,
            MoveLimits {
                nodes: Some(1000),
                ..engine("nodes=1000").limits
            }
        );
        assert_eq!(c.limits.movetime_ms, None);
        let c = engine("tc=1+0.01");
        let tc = c.limits.tc.unwrap();
        assert_eq!((tc.base_ms, tc.inc_ms), (1000, 10));
        assert_eq!(engine("").limits.movetime_ms, Some(20));
        assert_eq!(engine("").limits.timemargin_ms, PER_MOVE_MARGIN_MS);
        assert_eq!(engine("tc=1+0.01").limits.timemargin_ms, 0);
        assert_eq!(engine("level=3,depth=4").name, "level=3,depth=4");
        assert_eq!(engine("movetime=1500").limits.movetime_ms, Some(1500));
        assert_eq!(
            option(&engine("qplies=2,weights=w.txt"), "QuiescencePlies"),
            Some("2")
        );
        let e = |spec: &str| contender("--a", spec).unwrap_err();
        assert_eq!(
            e("off=lmr+nothing"),
            "--a off=lmr+nothing: search features joined by + (tt, killers, history, \
             captures-first, quiescence, pvs, lmr, positional-eval, tables): 'nothing' is none"
        );
        assert_eq!(e("depth"), "--a: 'depth' is not key=value");
        assert_eq!(
            e("colour=red"),
            "--a: unknown key 'colour' (keys: name, level, hash, threads, player, seed, depth, \
             nodes, movetime, tc, qplies, off, weights)"
        );
        assert_eq!(
            e("level=5,depth=4,level=6"),
            "--a: level= is given twice ('level=5', then 'level=6'): give each key once"
        );
        assert_eq!(
            e("movetime=0"),
            "--a movetime=0: a whole number of ms in 1..=86400000"
        );
        assert_eq!(
            engine("hash=64").options,
            vec![("Hash".to_string(), "64".to_string())]
        );
        let bad = Selfplay {
            game: Variant::TOGUZ,
            a: "level=5".into(),
            b: "qplies=999".into(),
            pairs: 1,
            plies: 2,
            seed: 1,
            concurrency: 1,
            max_plies: 100,
            balance: None,
            out: None,
            pgn: None,
        };
        assert_eq!(
            bad.config().unwrap_err(),
            "--b: bad value '999' for QuiescencePlies: expected an integer 0..128"
        );
    }

    #[test]
    fn elo_is_zero_at_evens() {
        let e = Pentanomial::from_buckets([1, 2, 5, 2, 1])
            .estimate()
            .unwrap();
        assert!(e.elo.abs() < 1e-9 && e.elo_error > 0.0);
    }

    #[test]
    fn a_short_match_is_reproducible() {
        let spec = Selfplay {
            game: Variant::BESTEMSHE,
            a: "name=a,depth=3".into(),
            b: "name=b,player=greedy".into(),
            pairs: 2,
            plies: 2,
            seed: 3,
            concurrency: 2,
            max_plies: 400,
            balance: Some(300),
            out: None,
            pgn: None,
        };
        let dir = std::env::temp_dir().join(format!("otau-selfplay-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let games = |run: &str| {
            let mut spec = spec.clone();
            spec.out = Some(dir.join(format!("{run}.jsonl")));
            spec.run(ProgressMode::Quiet).unwrap();
            let records = RecordsFile::read(spec.out.as_ref().unwrap()).unwrap();
            let games: Vec<_> = records
                .games
                .into_values()
                .map(|g| {
                    let moves: Vec<String> = g.moves.into_iter().map(|m| m.mv).collect();
                    (g.index, g.opening.moves, moves, g.result)
                })
                .collect();
            games
        };
        let one = games("one");
        assert_eq!(one.len(), 4);
        assert_eq!(one, games("two"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn tune_fits_on_the_games_of_a_match() {
        let dir = std::env::temp_dir().join(format!("otau-selfplay-tune-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let pgn = dir.join("games.pgn");
        let report = Selfplay {
            game: Variant::TOGUZ,
            a: "name=a,depth=1".into(),
            b: "name=b,depth=2,off=positional-eval".into(),
            pairs: 1,
            plies: 4,
            seed: 1,
            concurrency: 1,
            max_plies: 1000,
            balance: None,
            out: None,
            pgn: Some(pgn.clone()),
        }
        .run(ProgressMode::Quiet)
        .unwrap();
        // The engines' moves (a run keeps counts, not games) and the two openings' 4 plies.
        let moves: u64 = report
            .standings
            .summary()
            .engines
            .iter()
            .map(|e| e.moves.moves)
            .sum();
        let plies = moves + 2 * 4;
        let games = crate::eval::tune::read_pgn(&std::fs::read_to_string(&pgn).unwrap()).unwrap();
        assert_eq!(games.len(), 2);
        let positions: usize = games.iter().map(|g| g.positions.len()).sum();
        assert_eq!(positions, plies as usize, "every ply, opening included");
        let weights = dir.join("weights.txt");
        let constant = crate::cli::tune::TuneRun {
            pgn: vec![pgn],
            skip: 4,
            epochs: 100,
            out: Some(weights.clone()),
        }
        .run(|_| {})
        .unwrap();
        assert!(constant.starts_with("pub const WEIGHTS"));
        let mut o = crate::ugi::options::EngineOptions::new(Variant::TOGUZ);
        crate::ugi::options::set(&mut o, "EvalFile", weights.to_str()).unwrap();
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
