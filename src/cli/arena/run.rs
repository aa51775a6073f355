//! A run of `otau-arena`: its arguments turned into a [`RunConfig`] and [`RunOptions`] (or the
//! demo's, or a resumed run's), the live page, and the results printed at the end with the exit
//! code scripts read.

use std::path::PathBuf;
use std::process::ExitCode;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{Context, Result};

use crate::arena::config::engines_file::{self, EnginesFile};
use crate::arena::config::{EngineSpec, RunConfig, SwissOptions};
use crate::arena::engine::sandbox::cpu;
use crate::arena::game::adjudication::{AdjudicateBy, AdjudicationRules, DrawRule, ResignRule};
use crate::arena::game::openings::OpeningConfig;
use crate::arena::matchmaking::tournament::{self, RunOptions, RunReport};
use crate::arena::output::live::Watch;
use crate::arena::output::progress::{OutputFormat, ProgressMode};
use crate::arena::pairing::schedule::rounds_for_games;
use crate::arena::pairing::swiss::standings::TieBreak;
use crate::arena::pairing::TournamentKind;
use crate::arena::system::console;
use crate::web::{self, live::RunSite};

use super::commands::{serve, sprt_option};
use super::{parse_cli, ArenaCli};

/// Runs the tournament the command line describes (the demo when it names no engine), or
/// resumes one.
pub(super) fn run(cli: &ArenaCli) -> Result<ExitCode> {
    let opts = RunOptions {
        concurrency: cli.concurrency,
        shard: cli.shard,
        out: cli.out.clone(),
        pgn: cli.pgn.clone(),
        pgn_append: cli.pgn_append,
        trf: cli.trf.clone(),
        report: cli.report.clone(),
        recover: cli.recover && !cli.no_recover,
        progress: ProgressMode::detect(cli.quiet),
        rating_interval: cli.ratinginterval,
        log_dir: cli.log_dir.clone(),
        event: cli.event.clone(),
        quit_grace: Duration::from_millis(300),
        log_limit: cli.log_limit << 20,
        rating: cli.rating_prior,
        protocol_log: cli.log.clone(),
        protocol_log_max: cli.log_max << 20,
        output: cli.output,
        live: None,
        report_viewer: Some(web::report::viewer_section),
    };
    let mut opts = opts;
    // Kept until the run ends: then the viewers get the final state and the page stops.
    let live = match &cli.live {
        Some(addr) => {
            let title = cli.resume.as_ref().or(cli.out.as_ref());
            let title = title.map_or(String::new(), |p| p.display().to_string());
            let watch = Arc::new(Watch::new(&title));
            let server = serve("--live", addr, Arc::new(RunSite::live(watch.clone())))?;
            console::err(format_args!("otau-arena: live page at {}\n", server.url()));
            opts.live = Some(watch);
            Some(server)
        }
        None => None,
    };
    let report = if let Some(path) = &cli.resume {
        tournament::resume(path, &opts)?
    } else if cli.engines.is_empty() {
        demo(&opts)?
    } else {
        let config = build_config(cli)?;
        if !cli.quiet {
            console::err(format_args!(
                "otau-arena: {} on {}, seed {}, {}{}\n{}\n",
                config.engine_names().join(", "),
                config.game,
                config.seed,
                tournament::size_text(&config),
                cli.shard.map_or(String::new(), |s| format!(" (shard {s})")),
                tournament::indent(&tournament::limits_text(&config)),
            ));
            let cpus: Vec<Option<u64>> = config.engines.iter().map(|e| e.confine.cpus).collect();
            let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
            if let Some(w) = cpu::cores_warning(&cpus, cli.concurrency, cores) {
                console::err(format_args!("otau-arena: {w}\n"));
            }
        }
        tournament::run(config, &opts)?
    };
    if let Some(server) = live {
        server.finish(Duration::from_secs(2));
    }
    Ok(finish(
        &report,
        cli.resume.as_ref().or(cli.out.as_ref()),
        cli.output,
    ))
}

fn build_config(cli: &ArenaCli) -> Result<RunConfig> {
    let each = EngineSpec::parse("--each", &cli.each).map_err(anyhow::Error::msg)?;
    // The engines file: read at the first `conf=`, or at once when --config names it (so that a
    // bad file is reported even before an engine uses it).
    let path = cli
        .config
        .clone()
        .unwrap_or_else(|| PathBuf::from(engines_file::DEFAULT_FILE));
    let mut file: Option<std::rc::Rc<EnginesFile>> = None;
    let mut read = || -> Result<std::rc::Rc<EnginesFile>, String> {
        if file.is_none() {
            file = Some(std::rc::Rc::new(EnginesFile::read(&path)?));
        }
        Ok(file.clone().expect("read above"))
    };
    if cli.config.is_some() {
        read().map_err(anyhow::Error::msg)?;
    }
    let mut engines = Vec::new();
    for (i, tokens) in cli.engine_groups.iter().enumerate() {
        let list = format!("--engine {}", i + 1);
        let mut spec = EngineSpec::parse(&list, tokens).map_err(anyhow::Error::msg)?;
        spec.pairs = engines_file::expand(spec.pairs, &mut read)
            .map_err(|e| anyhow::anyhow!("{list}: {e}"))?;
        engines.push(spec.build(&each, i).map_err(anyhow::Error::msg)?);
    }
    // Built-in players are the arena's own code, in its process: only programs are held.
    for e in engines.iter_mut().filter(|e| e.builtin().is_none()) {
        e.confine.sandbox |= cli.sandbox;
        if let Some(o) = cli.overuse {
            e.confine.overuse = o;
        }
    }
    rename_twins(&mut engines);
    let game = cli
        .game
        .parse::<crate::games::Variant>()
        .map_err(anyhow::Error::msg)?
        .id();
    let openings = OpeningConfig::parse(&cli.openings).map_err(anyhow::Error::msg)?;
    if let (Some(r), Some(g)) = (cli.rounds, cli.games) {
        if cli.tournament != TournamentKind::Swiss {
            anyhow::bail!(
                "--rounds {r} and --games {g}: give one of them (--games N plays N games in all); \
                 both only with --tournament swiss, where --games 1|2 is the form of a round"
            );
        }
    }
    let rounds = match (cli.rounds, cli.games) {
        (Some(r), _) => r,
        (None, Some(g)) => rounds_for_games(cli.tournament, engines.len(), g),
        (None, None) => 1,
    };
    let startup = crate::arena::game::clock::seconds_in(&cli.startup_timeout, 1)
        .map_err(|why| anyhow::anyhow!("--startup-timeout {}: {why}", cli.startup_timeout))?;
    let config = RunConfig {
        game,
        engines,
        tournament: cli.tournament,
        rounds,
        games: cli.games,
        seed: cli.seed.unwrap_or_else(random_seed),
        openings,
        max_plies: cli.max_plies,
        adjudicate_decided: !cli.no_decided_score,
        adjudication: AdjudicationRules {
            resign: (!cli.resign.is_empty())
                .then(|| ResignRule::parse(&cli.resign))
                .transpose()
                .map_err(anyhow::Error::msg)?,
            draw: (!cli.draw.is_empty())
                .then(|| DrawRule::parse(&cli.draw))
                .transpose()
                .map_err(anyhow::Error::msg)?,
            max_moves: cli.maxmoves,
            tables: cli.adjudicate == AdjudicateBy::Tables,
        },
        startup_timeout_ms: startup,
        max_start_failures: cli.max_start_failures,
        max_crashes: cli.max_crashes,
        sprt: sprt_option(&cli.sprt)?,
        tiebreak_pairs: match cli.tournament {
            TournamentKind::Knockout => Some(
                cli.tiebreak_pairs
                    .unwrap_or(crate::arena::pairing::knockout::DEFAULT_TIEBREAK_PAIRS),
            ),
            _ => cli.tiebreak_pairs,
        },
        swiss: SwissOptions {
            tiebreaks: match &cli.tiebreaks {
                Some(list) => TieBreak::parse_list(list)
                    .map_err(anyhow::Error::msg)?
                    .iter()
                    .map(|t| t.name().to_string())
                    .collect(),
                None => Vec::new(),
            },
            bye_score: cli.bye_score,
        },
    };
    crate::arena::pairing::check(&config).map_err(anyhow::Error::msg)?;
    Ok(config)
}

/// Two engines of one name (`-engine cmd=./eng -engine cmd=./eng`): the second is renamed
/// `NAME_2`, the third `NAME_3`, as fastchess renames them, and the user is told.
fn rename_twins(engines: &mut [crate::arena::config::EngineConfig]) {
    let mut seen: Vec<(String, u32)> = Vec::new();
    for e in engines.iter_mut() {
        let n = match seen.iter_mut().find(|(name, _)| *name == e.name) {
            Some((_, n)) => {
                *n += 1;
                *n
            }
            None => {
                seen.push((e.name.clone(), 1));
                continue;
            }
        };
        let renamed = format!("{}_{n}", e.name);
        console::err(format_args!(
            "otau-arena: two engines are named '{}': this one is '{renamed}' (as fastchess \
             names it)\n",
            e.name
        ));
        e.name = renamed;
    }
}

fn random_seed() -> u64 {
    use std::hash::{BuildHasher, Hasher};
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u64(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map_or(0, |d| d.as_nanos() as u64),
    );
    h.finish() >> 16
}

/// The demo's command line: built-in otau at three levels and the random player, each with a
/// short clock (and a margin, so a busy machine does not decide games), four rounds: 48 games,
/// about a minute at concurrency 2 (the levels take their time under the clock: 2+0.02, since at
/// 3+0.03 the demo took 94 s).
#[rustfmt::skip]
const DEMO: &[&str] = &[
    "otau-arena",
    "--engine", "name=otau-L1", "cmd=builtin:otau", "option.Level=1",
    "--engine", "name=otau-L6", "cmd=builtin:otau", "option.Level=6",
    "--engine", "name=otau-L20", "cmd=builtin:otau", "option.Level=20",
    "--engine", "name=random", "cmd=builtin:random",
    "--each", "tc=2+0.02", "timemargin=100",
    "--rounds", "4",
    "--openings", "plies=4",
];

/// `otau-arena` alone: a short round robin of built-in players.
fn demo(opts: &RunOptions) -> Result<RunReport> {
    let cli = parse_cli(DEMO).context("demo arguments")?;
    let config = build_config(&cli)?;
    let mut opts = opts.clone();
    opts.concurrency = 2;
    if opts.progress != ProgressMode::Quiet {
        console::err(format_args!(
            "otau-arena demo: round robin of {} on {}, {} games at concurrency 2 (seed {}).\n\
             Run your own engines with --engine cmd=PATH ...; see --help.\n",
            config.engine_names().join(", "),
            config.game,
            tournament::full_schedule(&config).len(),
            config.seed
        ));
    }
    tournament::run(config, &opts)
}

/// Prints the results and says how the run ended; the exit code tells scripts.
fn finish(report: &RunReport, records: Option<&PathBuf>, format: OutputFormat) -> ExitCode {
    let summary = report.standings.summary();
    console::out(format_args!("{}", format.summary_text(&summary)));
    for (_, text) in report.pairing.notes() {
        console::out(format_args!("\n{text}"));
    }
    console::err(format_args!("otau-arena: {}\n", report.cost.describe()));
    if let Some(decision) = &report.sprt_decided {
        console::err(format_args!(
            "otau-arena: SPRT: {decision}; {} game(s) left unplayed\n",
            report.missing
        ));
        return ExitCode::SUCCESS;
    }
    if let Some(why) = &report.stopped {
        console::err(format_args!("otau-arena: {why}\n"));
        return ExitCode::from(2);
    }
    if report.missing > 0 {
        let how = match records {
            Some(p) => format!(
                "continue with: {} (it goes on writing every output the run records: records, \
                 PGN, report)",
                crate::arena::matchmaking::run_files::resume_command(p)
            ),
            None => "(no --out file: this run cannot be resumed)".to_string(),
        };
        console::err(format_args!(
            "otau-arena: {} {} game(s) not played; {how}\n",
            if report.interrupted {
                "interrupted:"
            } else {
                "stopped:"
            },
            report.missing
        ));
        return ExitCode::from(if report.interrupted { 130 } else { 2 });
    }
    ExitCode::SUCCESS
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn demo_is_a_valid_round_robin_of_built_in_players() {
        let config = build_config(&parse_cli(DEMO).unwrap()).unwrap();
        assert_eq!(config.engines.len(), 4);
        assert!(config.engines.iter().all(|e| e.builtin().is_some()));
        assert_eq!(config.game, "toguz-kumalak");
        assert_eq!(tournament::full_schedule(&config).len(), 48);
    }

    #[test]
    fn a_fastchess_line_builds_the_run_its_double_dash_twin_builds() {
        let build = |line: &str| {
            build_config(&parse_cli(line.split(' ')).unwrap())
                .map(|mut c| {
                    c.seed = 0;
                    c
                })
                .unwrap()
        };
        let fastchess = build(
            "otau-arena -engine cmd=builtin:otau name=a -engine cmd=builtin:greedy name=b \
             -each tc=40/1:30+0.5 proto=ugi -rounds 3 -games 2 -variant giuthi \
             -resign movecount=3 score=500 -draw movenumber=20 movecount=4 score=10 \
             -maxmoves 100 -tournament gauntlet -srand 9",
        );
        let otau = build(
            "otau-arena --engine cmd=builtin:otau name=a --engine cmd=builtin:greedy name=b \
             --each tc=40/90+0.5 --rounds 3 --game giuthi --resign movecount=3 score=500 \
             --draw movenumber=20 movecount=4 score=10 --maxmoves 100 --tournament gauntlet \
             --seed 9",
        );
        assert_eq!(fastchess, otau);
        let err = parse_cli(["otau-arena", "-noswap"])
            .unwrap_err()
            .to_string();
        assert!(err.contains("-noswap: otau-arena always plays"), "{err}");
    }

    #[test]
    fn each_engine_keeps_its_own_keys() {
        let cli = parse_cli([
            "otau-arena",
            "--engine",
            "cmd=a",
            "depth=2",
            "--engine",
            "cmd=b",
            "nodes=9",
            "--each",
            "timemargin=5",
        ])
        .unwrap();
        let config = build_config(&cli).unwrap();
        assert_eq!(config.engines[0].limits.depth, Some(2));
        assert_eq!(config.engines[0].limits.nodes, None);
        assert_eq!(config.engines[1].limits.nodes, Some(9));
        assert!(config.engines.iter().all(|e| e.limits.timemargin_ms == 5));
    }
}
