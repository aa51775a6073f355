//! The `otau-arena` command line: turns arguments into a [`RunConfig`] and [`RunOptions`], runs,
//! prints. The binary is a one-line call to [`main`].

#[doc(hidden)]
pub mod fake_engine;
pub mod fastchess;

use std::path::{Path, PathBuf};
use std::process::ExitCode;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use clap::{ArgAction, Parser, Subcommand};

use crate::arena::config::engines_file::{self, EnginesFile};
use crate::arena::config::{EngineSpec, RunConfig};
use crate::arena::game::adjudication::{AdjudicateBy, AdjudicationRules, DrawRule, ResignRule};
use crate::arena::game::openings::OpeningConfig;
use crate::arena::matchmaking::merge;
use crate::arena::matchmaking::tournament::{self, RunOptions, RunReport};
use crate::arena::output::live::Watch;
use crate::arena::output::progress::{OutputFormat, ProgressMode};
use crate::arena::pairing::schedule::{rounds_for_games, Shard};
use crate::arena::pairing::TournamentKind;
use crate::arena::records::GameRecord;
use crate::arena::system::console;
use crate::arena::system::files::{self, Named};
use crate::arena::system::interrupt;
use crate::stats::RatingOptions;
use crate::web::{self, live::RunSite};
use fake_engine::FakeMode;
use std::sync::Arc;

const EXAMPLES: &str = "\
Examples:
  otau-arena
      a one-minute demo: built-in otau levels and a random player, round robin
  otau-arena --engine name=new cmd=./otau-new --engine name=old cmd=./otau-old \\
      --each tc=10+0.1 --games 200 --concurrency 2 --openings plies=6 \\
      --out new-vs-old.jsonl --pgn new-vs-old.pgn
  otau-arena --engine cmd=./mybot depth=6 --engine cmd=builtin:otau option.Level=10 depth=6 \\
      --game toguz-kumalak-7 --rounds 50 --seed 42
  otau-arena --resume new-vs-old.jsonl          (continue an interrupted run, PGN included)
  otau-arena ... --shard 3/8 --out part3.jsonl  (one of 8 slices of the same run)
  otau-arena merge part*.jsonl --out all.jsonl  (the slices' joint results)
  otau-arena ratings games.pgn                  (rating table of any PGN, as BayesElo/Ordo)
  otau-arena --check ./mybot                    (UGI protocol compliance report)
  otau-arena -engine cmd=./new name=new -engine cmd=./old name=old -each tc=10+0.1 \\
      -rounds 100 -repeat -concurrency 2 -variant toguz-kumalak \\
      -openings file=book.pgn format=pgn order=random plies=8 -pgnout file=games.pgn \\
      -sprt elo0=0 elo1=5 alpha=0.05 beta=0.05   (a fastchess line, as typed for fastchess)

Engine keys: name=, cmd= (a program, or builtin:otau|random|greedy), args=\"...\", arg=ARG
(repeatable), dir=, conf=NAME (an engine of --config's file), proto=ugi, restart=on|off,
option.NAME=VALUE, tc=[moves/]time[+inc] (seconds or m:ss; tc=inf: no clock), st=SECONDS,
depth=N (plies=N), nodes=N, timemargin=MS, timeout=SECONDS (longest wait for a depth/nodes
move, default 60).
Records: see protocol/arena.md.";

// The `otau-arena` command line (not `otau`'s: that is `cli::OtauCli`; not a UGI line: that is
// `ugi::wire::GuiCommand`). Plain comments here: clap would print a doc comment as help.
#[derive(Parser, Debug)]
#[command(
    name = "otau-arena",
    version,
    about = "Engine-vs-engine matches for two-row mancala games: seeded openings, every move \
             refereed, every fault named, resumable and shardable",
    after_help = EXAMPLES,
    args_conflicts_with_subcommands = true
)]
struct ArenaCli {
    #[command(subcommand)]
    command: Option<ArenaCommand>,

    /// An engine: key=value ... (repeat --engine for each engine).
    #[arg(long = "engine", value_name = "KEY=VALUE", num_args = 1.., action = ArgAction::Append)]
    engines: Vec<String>,
    /// The `--engine` occurrences, each its own list of keys (filled from the matches).
    #[arg(skip)]
    engine_groups: Vec<Vec<String>>,
    /// Keys applied to every engine (an engine's own keys win).
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    each: Vec<String>,
    /// Game id: toguz-kumalak, toguz-kumalak-7, bestemshe, giuthi, giuthi-<H>x<S>, modiar.
    #[arg(long, default_value = "toguz-kumalak")]
    game: String,
    /// Total games (rounded up to whole pairs of games).
    #[arg(long, conflicts_with = "rounds",
          value_parser = clap::value_parser!(u64).range(1..=crate::arena::pairing::schedule::MAX_GAMES))]
    games: Option<u64>,
    /// Rounds: each pairing plays one opening twice per round, colours swapped.
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    rounds: Option<u32>,
    /// roundrobin, gauntlet, or knockout (a bracket seeded in the order the engines are given,
    /// byes to the top seeds, --rounds pairs an encounter; protocol/arena.md).
    #[arg(long, value_enum, default_value_t = TournamentKind::Roundrobin)]
    tournament: TournamentKind,
    /// Knockout: pairs at most after a level encounter, one at a time until one engine leads;
    /// then a draw seeded by --seed decides (default 2; 0..=1000).
    #[arg(long, value_name = "PAIRS")]
    tiebreak_pairs: Option<u32>,
    /// Games played at once (1..=1024).
    #[arg(long, default_value_t = 1, value_parser = concurrency_range())]
    concurrency: usize,
    /// Seed of the openings (random when not given; always recorded).
    #[arg(long)]
    seed: Option<u64>,
    /// plies=N policy=random|balanced margin=CP depth=D, or a book: file=FILE
    /// format=epd|txt|pgn (default: from the extension) order=sequential|random start=K plies=N.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    openings: Vec<String>,
    /// Stop games after this many plies and score them by stones held (store + own row).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    max_plies: Option<u32>,
    /// Play on when a store already holds more than half the stones (on by default: stop).
    #[arg(long)]
    no_decided_score: bool,
    /// movecount=N score=S [twosided=true]: a loss once the loser's score (twosided: and the
    /// winner's) is beyond S centi-stones for N consecutive own moves.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    resign: Vec<String>,
    /// movenumber=N movecount=M score=S: a draw once, after full move N, both |score| <= S
    /// centi-stones for M consecutive moves each.
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    draw: Vec<String>,
    /// A draw after this many full moves (2N plies; --max-plies scores by stones instead).
    #[arg(long, value_parser = clap::value_parser!(u32).range(1..))]
    maxmoves: Option<u32>,
    /// tables: a position within the game's tables (the Modiar solution, the Toguz endgame
    /// tables) ends the game with their exact result; none (the default): play on.
    #[arg(long, value_enum, default_value_t = AdjudicateBy::None)]
    adjudicate: AdjudicateBy,
    /// JSON-lines records: one event per game as it ends, then a summary.
    #[arg(long, value_name = "FILE")]
    out: Option<PathBuf>,
    /// PGN of every game, in game order (an existing non-empty file is refused).
    #[arg(long, value_name = "FILE")]
    pgn: Option<PathBuf>,
    /// Add the run's games to an existing --pgn file after what it holds.
    #[arg(long, requires = "pgn")]
    pgn_append: bool,
    /// HTML report of the run, written at the end of each session.
    #[arg(long, value_name = "FILE")]
    report: Option<PathBuf>,
    /// Serve a live page of the run while it goes on (every game on a board, the engines'
    /// figures, the standings) at ADDR: PORT or HOST:PORT; without ADDR loopback on a free
    /// port. The URL is printed at start. Read-only.
    #[arg(long, value_name = "ADDR", num_args = 0..=1, default_missing_value = "")]
    live: Option<String>,
    /// Continue the run recorded in FILE (its configuration is taken from the file).
    #[arg(long, value_name = "FILE", conflicts_with_all = [
        "engines", "each", "game", "games", "rounds", "tournament", "seed", "openings",
        "max_plies", "no_decided_score", "resign", "draw", "maxmoves", "adjudicate", "out", "shard", "sprt", "max_start_failures",
        "startup_timeout", "pgn_append", "report", "log_dir", "event", "max_crashes", "config",
        "tiebreak_pairs",
    ])]
    resume: Option<PathBuf>,
    /// Play only slice k of n of the schedule (whole pairs of games).
    #[arg(long, value_name = "K/N")]
    shard: Option<Shard>,
    /// Restart engines after a crash or stall and go on (default true).
    #[arg(long, default_value_t = true, num_args = 0..=1, default_missing_value = "true",
          action = ArgAction::Set, value_name = "BOOL")]
    recover: bool,
    /// Stop the run at the first crash or stall.
    #[arg(long)]
    no_recover: bool,
    /// Start failures in a row after which an engine's games are forfeited.
    #[arg(long, default_value_t = 3, value_parser = clap::value_parser!(u32).range(1..))]
    max_start_failures: u32,
    /// Games lost by a crash in a row after which an engine's games are forfeited.
    #[arg(long, default_value_t = crate::arena::config::DEFAULT_MAX_CRASHES,
          value_parser = clap::value_parser!(u32).range(1..))]
    max_crashes: u32,
    /// MiB of stderr logged per engine in the whole run (all its processes); the rest is dropped.
    #[arg(long, value_name = "MIB", default_value_t = crate::arena::engine::process::MAX_LOG_BYTES >> 20,
          value_parser = clap::value_parser!(u64).range(0..=MAX_LOG_LIMIT_MIB))]
    log_limit: u64,
    /// Seconds to wait for ugiok and readyok.
    #[arg(long, default_value = "10")]
    startup_timeout: String,
    /// Directory of the engines' stderr logs.
    #[arg(long, default_value = "otau-arena-logs")]
    log_dir: PathBuf,
    /// Log every line exchanged with the engines to FILE (appended), with its time, engine and
    /// direction; `file=FILE` as in fastchess.
    #[arg(long, value_name = "FILE", value_parser = parse_log_file)]
    log: Option<PathBuf>,
    /// The engines file of `conf=NAME` (cutechess's engines.json; `file=FILE` as in
    /// `-config file=FILE`); default: engines.json in the working directory.
    #[arg(long, value_name = "FILE", value_parser = parse_config_file)]
    config: Option<PathBuf>,
    /// The printed results' form: fastchess's blocks or cutechess-cli's lines (`format=` as in
    /// fastchess's `-output format=cutechess`).
    #[arg(long, value_name = "FORMAT", default_value = "fastchess", value_parser = parse_output)]
    output: OutputFormat,
    /// MiB the protocol log (--log) grows by at most in one session; then it says so and stops.
    #[arg(long, value_name = "MIB", requires = "log",
          default_value_t = crate::arena::engine::protocol_log::DEFAULT_LOG_MAX_MIB,
          value_parser = clap::value_parser!(u64).range(1..=MAX_LOG_LIMIT_MIB))]
    log_max: u64,
    /// PGN Event tag.
    #[arg(long, default_value = "otau-arena")]
    event: String,
    /// Print the head-to-head results every N games (plain output).
    #[arg(long, default_value_t = 10)]
    ratinginterval: u64,
    /// Stop when a sequential test on the first two engines decides:
    /// elo0=A elo1=B [alpha=0.05] [beta=0.05] [model=normalized|logistic].
    #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
    sprt: Vec<String>,
    /// Rating tables' prior: virtual draws per player (2, BayesElo's default; 0: plain maximum
    /// likelihood, as Ordo).
    #[arg(long, value_name = "DRAWS", default_value = "2", value_parser = crate::arena::records::rate::parse_prior)]
    rating_prior: RatingOptions,
    /// Only the final table.
    #[arg(long, short)]
    quiet: bool,
    /// Check an engine's UGI compliance: the command (program and arguments).
    #[arg(long, value_name = "COMMAND", num_args = 1.., allow_hyphen_values = true)]
    check: Option<Vec<String>>,
    /// With --check: the longest wait for a reply that needs no search, in seconds.
    #[arg(long, default_value = "5", requires = "check")]
    check_timeout: String,
}

// `otau-arena`'s subcommands.
#[derive(Subcommand, Debug)]
enum ArenaCommand {
    /// Join the records of shards (or pieces) of one run and print its results.
    Merge {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// Write the joined records here.
        #[arg(long)]
        out: Option<PathBuf>,
        /// Write every game as PGN here.
        #[arg(long)]
        pgn: Option<PathBuf>,
        #[arg(long, default_value = "otau-arena")]
        event: String,
        /// A fixed-sample verdict of this test on the merged counts of the first two engines
        /// (for shards played without --sprt): elo0=A elo1=B [alpha=] [beta=] [model=].
        #[arg(long, value_name = "KEY=VALUE", num_args = 1..)]
        sprt: Vec<String>,
        /// Rating table's prior: virtual draws per player (0: plain maximum likelihood).
        #[arg(long, value_name = "DRAWS", default_value = "2", value_parser = crate::arena::records::rate::parse_prior)]
        rating_prior: RatingOptions,
    },
    /// The joint rating table (with the first-player advantage and draw rate) of any games:
    /// arena records (.jsonl) or PGN from any runner (.pgn; White is the first player).
    Ratings {
        #[arg(required = true, value_name = "FILE")]
        files: Vec<PathBuf>,
        /// Virtual draws per player (2, BayesElo's default; 0: plain maximum likelihood, as Ordo).
        #[arg(long, value_name = "DRAWS", default_value = "2", value_parser = crate::arena::records::rate::parse_prior)]
        rating_prior: RatingOptions,
        /// Rate only the largest group of players that met (directly or through others) when
        /// the players form separate groups.
        #[arg(long)]
        largest_group: bool,
    },
    /// Check an SPRT by hand from its counts (the numbers of a run, or another tool's).
    Sprt(crate::cli::sprt::SprtCalcArgs),
    /// Write a self-contained HTML report of one run (several files: the shards of one run).
    Report {
        #[arg(required = true)]
        files: Vec<PathBuf>,
        /// The page to write.
        #[arg(long, default_value = "report.html")]
        out: PathBuf,
        /// Rating table's prior: virtual draws per player (0: plain maximum likelihood).
        #[arg(long, value_name = "DRAWS", default_value = "2", value_parser = crate::arena::records::rate::parse_prior)]
        rating_prior: RatingOptions,
    },
    /// Serve the live page of a recorded run (finished or interrupted) to replay its games,
    /// until Ctrl-C. Read-only.
    View {
        /// The run's records (.jsonl).
        file: PathBuf,
        /// PORT or HOST:PORT (default: loopback, a free port; the URL is printed).
        #[arg(long, value_name = "ADDR")]
        addr: Option<String>,
    },
    /// A misbehaving engine for the arena's own tests.
    #[command(hide = true)]
    FakeEngine {
        #[arg(value_enum)]
        mode: FakeMode,
        /// Lets a test tag its processes (and names the `*-restart` modes' marker file).
        tag: Option<String>,
    },
}

/// Keeps the arena's memory flat over long runs (glibc): by default every thread may get a malloc
/// arena of its own, up to 8 per core, and each keeps the memory freed in it. The arena starts
/// threads all the time (a stderr copier per engine process, a thread per built-in player), so
/// the arenas filled one after another: in `scripts/soak.sh` the RSS rose by 20 MB over 3,000
/// games while the live heap stayed under 8 MB beyond the endgame tables (measured when each
/// engine process also had a reader thread). With one arena it stays flat (+24 KB over 1,000
/// games). The arena's threads mostly wait on pipes: one arena costs
/// no measurable contention. Called first thing, while the process has one thread.
fn one_malloc_arena() {
    #[cfg(all(target_os = "linux", target_env = "gnu"))]
    // SAFETY: mallopt only changes an allocator setting.
    unsafe {
        libc::mallopt(libc::M_ARENA_MAX, 1);
    }
}

/// The most games played at once: each is a thread keeping up to four engines.
pub const MAX_CONCURRENCY: u64 = 1024;

fn concurrency_range() -> clap::builder::RangedU64ValueParser<usize> {
    clap::builder::RangedU64ValueParser::new().range(1..=MAX_CONCURRENCY)
}

/// The largest `--log-limit` and `--log-max`, in MiB (1 TiB: beyond it the limit is no limit).
const MAX_LOG_LIMIT_MIB: u64 = 1 << 20;

/// `--log FILE` or, as fastchess spells it, `--log file=FILE`.
fn parse_log_file(s: &str) -> Result<PathBuf, String> {
    let path = s.strip_prefix("file=").unwrap_or(s);
    if path.is_empty() {
        return Err("give the protocol log's file: --log FILE (or --log file=FILE)".into());
    }
    Ok(PathBuf::from(path))
}

/// `--config FILE` or, as fastchess spells it, `--config file=FILE`.
fn parse_config_file(s: &str) -> Result<PathBuf, String> {
    let path = s.strip_prefix("file=").unwrap_or(s);
    if path.is_empty() {
        return Err("give the engines file: --config FILE (or -config file=FILE)".into());
    }
    Ok(PathBuf::from(path))
}

/// `--output fastchess|cutechess`, or `format=` before it as fastchess writes it.
fn parse_output(s: &str) -> Result<OutputFormat, String> {
    use clap::ValueEnum;
    let v = s.strip_prefix("format=").unwrap_or(s);
    OutputFormat::from_str(v, false).map_err(|_| format!("{v}: fastchess or cutechess"))
}

/// The `otau-arena` program.
pub fn main() -> ExitCode {
    one_malloc_arena();
    let cli = match parse_cli(std::env::args_os()) {
        Ok(cli) => cli,
        // Bad arguments exit with 1, as every other error (clap's own default would be 2, the
        // status of a run stopped early); --help and --version with 0.
        Err(e) => {
            let _ = e.print();
            return ExitCode::from(u8::from(e.use_stderr()));
        }
    };
    match run(cli) {
        Ok(code) => code,
        Err(e) => {
            // Messages quote what was read (a book's token, a PGN tag): a NUL or an ESC and its
            // terminal sequence are shown escaped, never sent to the terminal.
            let text = format!("{e:#}");
            let text = crate::input::escape_controls(&text);
            console::err(format_args!("otau-arena: {text}\n"));
            ExitCode::from(1)
        }
    }
}

fn run(cli: ArenaCli) -> Result<ExitCode> {
    match cli.command {
        Some(ArenaCommand::FakeEngine { mode, .. }) => {
            let stdin = std::io::stdin().lock();
            let code = fake_engine::run(mode, stdin, std::io::stdout().lock());
            return Ok(ExitCode::from(code as u8));
        }
        Some(ArenaCommand::Merge {
            files,
            out,
            pgn,
            event,
            sprt,
            rating_prior,
        }) => return merge_command(&files, out, pgn, &event, &sprt, rating_prior),
        Some(ArenaCommand::Ratings {
            files,
            rating_prior,
            largest_group,
        }) => {
            let text =
                crate::arena::records::rate::ratings_text(&files, &rating_prior, largest_group)?;
            console::out(format_args!("{text}"));
            return Ok(ExitCode::SUCCESS);
        }
        Some(ArenaCommand::Sprt(args)) => {
            let text = args.run().map_err(anyhow::Error::msg)?;
            console::out(format_args!("{text}"));
            return Ok(ExitCode::SUCCESS);
        }
        Some(ArenaCommand::Report {
            files,
            out,
            rating_prior,
        }) => return report_command(&files, &out, rating_prior),
        Some(ArenaCommand::View { file, addr }) => return view_command(&file, addr.as_deref()),
        None => {}
    }
    if let Some(cmd) = &cli.check {
        return check(
            &cli.game,
            &cli.check_timeout,
            cmd,
            &cli.log_dir,
            cli.log_limit << 20,
        );
    }
    let opts = RunOptions {
        concurrency: cli.concurrency,
        shard: cli.shard,
        out: cli.out.clone(),
        pgn: cli.pgn.clone(),
        pgn_append: cli.pgn_append,
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
        let config = build_config(&cli)?;
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

/// Parses arguments, keeping each `--engine` occurrence's keys together; fastchess's and
/// cutechess-cli's single-dash spellings are translated first ([`crate::cli::arena::fastchess`]).
fn parse_cli<I, T>(args: I) -> Result<ArenaCli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::{CommandFactory, FromArgMatches};
    let command = ArenaCli::command().after_help(format!(
        "{EXAMPLES}\n\n{}",
        crate::cli::arena::fastchess::SPELLINGS
    ));
    let long: Vec<&str> = command
        .get_arguments()
        .filter_map(|a| a.get_long())
        .collect();
    let args =
        crate::cli::arena::fastchess::translate(args.into_iter().map(Into::into).collect(), &long)
            .map_err(|why| {
                let mut command = ArenaCli::command();
                command.error(clap::error::ErrorKind::ValueValidation, why)
            })?;
    let matches = command.try_get_matches_from(args)?;
    let mut cli = ArenaCli::from_arg_matches(&matches)?;
    if let Ok(Some(occurrences)) = matches.try_get_occurrences::<String>("engines") {
        cli.engine_groups = occurrences.map(|o| o.cloned().collect()).collect();
    }
    Ok(cli)
}

fn build_config(cli: &ArenaCli) -> Result<RunConfig> {
    for (option, tokens) in [
        ("--openings", &cli.openings),
        ("--resign", &cli.resign),
        ("--draw", &cli.draw),
        ("--sprt", &cli.sprt),
    ] {
        crate::arena::config::reject_repeated_keys(option, tokens).map_err(anyhow::Error::msg)?;
    }
    let each = EngineSpec::parse(&cli.each).map_err(|e| anyhow::anyhow!("--each: {e}"))?;
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
        let at = |e: String| anyhow::anyhow!("--engine {}: {e}", i + 1);
        let mut spec = EngineSpec::parse(tokens).map_err(at)?;
        spec.pairs = engines_file::expand(spec.pairs, &mut read).map_err(at)?;
        engines.push(spec.build(&each, i).map_err(anyhow::Error::msg)?);
    }
    rename_twins(&mut engines);
    let game = cli
        .game
        .parse::<crate::games::Variant>()
        .map_err(anyhow::Error::msg)?
        .id();
    let openings = OpeningConfig::parse(&cli.openings).map_err(anyhow::Error::msg)?;
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
        sprt: if cli.sprt.is_empty() {
            None
        } else {
            Some(
                crate::stats::SprtConfig::parse(&cli.sprt)
                    .map_err(|e| anyhow::anyhow!("--sprt: {e}"))?,
            )
        },
        tiebreak_pairs: match cli.tournament {
            TournamentKind::Knockout => Some(
                cli.tiebreak_pairs
                    .unwrap_or(crate::arena::pairing::knockout::DEFAULT_TIEBREAK_PAIRS),
            ),
            _ => cli.tiebreak_pairs,
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

fn merge_command(
    files: &[PathBuf],
    out: Option<PathBuf>,
    pgn: Option<PathBuf>,
    event: &str,
    sprt: &[String],
    rating: RatingOptions,
) -> Result<ExitCode> {
    let mut merged = merge::merge(files)?;
    merged.standings.set_rating(rating);
    if !sprt.is_empty() {
        let config =
            crate::stats::SprtConfig::parse(sprt).map_err(|e| anyhow::anyhow!("--sprt: {e}"))?;
        merged.standings.set_fixed_sample_sprt(Some(config));
    }
    merge::write_outputs(&mut merged, files, out.as_deref(), pgn.as_deref(), event)?;
    console::out(format_args!("{}", merged.standings.summary().text()));
    let pairing = tournament::pairing(&merged.header.config, None, &merged.standings)?;
    for (_, text) in pairing.notes() {
        console::out(format_args!("\n{text}"));
    }
    if merged.missing() > 0 {
        console::err(format_args!(
            "otau-arena: {} of {} scheduled games are in none of the files\n",
            merged.missing(),
            merged.header.scheduled
        ));
    }
    Ok(ExitCode::SUCCESS)
}

fn report_command(
    files: &[PathBuf],
    out: &std::path::Path,
    rating: RatingOptions,
) -> Result<ExitCode> {
    let page = Named::new("--out", out);
    let inputs: Vec<Named> = files.iter().map(|f| Named::new("the input", f)).collect();
    files::check_distinct(std::slice::from_ref(&page), &inputs)?;
    files::check_location(&page)?;
    let mut merged = merge::merge(files)?;
    merged.standings.set_rating(rating);
    let title = files
        .iter()
        .map(|f| f.display().to_string())
        .collect::<Vec<_>>()
        .join(", ");
    // The viewer holds the games the page lists (a long run's first and last by number).
    let mut window = crate::stats::Window::new(crate::stats::LISTED_GAMES);
    merged.for_each_game(|finished, g| window.push(g.index + 1, finished, g.clone()))?;
    let (mut shown, _) = window.into_sorted();
    shown.sort_by_key(|&(_, finished, _)| finished);
    let games: Vec<&GameRecord> = shown.iter().map(|(_, _, g)| g).collect();
    let pairing = tournament::pairing(&merged.header.config, None, &merged.standings)?;
    let options = crate::stats::ReportOptions {
        title,
        summary: merged.standings.options(),
        notes: pairing.notes(),
        appendix: web::report::viewer_section(&games),
    };
    // Written like every other results file: a reader never finds half a page.
    let summary = merged.standings.summary();
    let html = crate::stats::render_summary_html(&summary, &options, |add| {
        merged.for_each_game(|_, g| add(&crate::arena::records::standings::game_stats(g)))
    })?;
    files::write_whole(&page, html.as_bytes(), false)?;
    console::err(format_args!(
        "otau-arena: report of {} games written to {}\n",
        merged.standings.len(),
        out.display()
    ));
    Ok(ExitCode::SUCCESS)
}

/// Starts a page server at `addr` (as `flag` gave it).
fn serve(flag: &str, addr: &str, site: Arc<dyn web::server::Site>) -> Result<web::server::Server> {
    let at = web::server::parse_addr(Some(addr)).map_err(|e| anyhow::anyhow!("{flag} {e}"))?;
    let server = web::server::Server::start(at, site)
        .with_context(|| format!("{flag}: cannot listen on {at}"))?;
    if let Some(warning) = server.exposure() {
        console::err(format_args!("otau-arena: {flag} {warning}\n"));
    }
    Ok(server)
}

/// `otau-arena view FILE`: the live page of a recorded run, until Ctrl-C.
fn view_command(file: &std::path::Path, addr: Option<&str>) -> Result<ExitCode> {
    let site = RunSite::recorded(file)?;
    let server = serve("--addr", addr.unwrap_or(""), Arc::new(site))?;
    interrupt::install();
    console::err(format_args!(
        "otau-arena: {} at {} (Ctrl-C ends)\n",
        file.display(),
        server.url()
    ));
    while !interrupt::requested() {
        std::thread::sleep(Duration::from_millis(100));
    }
    Ok(ExitCode::SUCCESS)
}

/// `--check PROGRAM ARGS...`: the UGI compliance report (`crate::arena::compliance`).
fn check(
    game: &str,
    timeout: &str,
    cmd: &[String],
    log_dir: &Path,
    log_limit: u64,
) -> Result<ExitCode> {
    let Some((program, args)) = cmd.split_first() else {
        bail!("--check needs the engine's program");
    };
    let timeout_ms = crate::arena::game::clock::seconds_in(timeout, 1)
        .map_err(|why| anyhow::anyhow!("--check-timeout {timeout}: {why}"))?;
    let config = crate::arena::compliance::Config {
        game: game.parse().map_err(anyhow::Error::msg)?,
        reply_timeout: Duration::from_millis(timeout_ms),
        log_dir: Some(log_dir.to_path_buf()),
        log_limit,
        ..Default::default()
    };
    // As in a run: a kill -9 of the arena during the check leaves nothing the engine started.
    let _guardian = crate::arena::engine::process::Guardian::start();
    let report = crate::arena::compliance::check(program, args, &config);
    console::out(format_args!("{report}\n"));
    Ok(if report.passed() {
        ExitCode::SUCCESS
    } else {
        ExitCode::from(1)
    })
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
    fn the_help_shows_both_spellings() {
        let err = parse_cli(["otau-arena", "--help"]).unwrap_err();
        let help = err.to_string();
        for want in [
            "--engine <KEY=VALUE>",
            "-engine KEYS",
            "-pgnout file=F",
            "--rounds",
        ] {
            assert!(help.contains(want), "{want} missing from:\n{help}");
        }
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
