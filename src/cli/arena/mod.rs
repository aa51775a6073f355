//! The `otau-arena` command line. Here: its clap definition (`ArenaCli`, `ArenaCommand`), the
//! parse (fastchess's spellings translated first, [`fastchess`]) and [`main`], which the binary
//! calls. `run.rs`: a run (the arguments turned into a [`crate::arena::config::RunConfig`] and
//! [`crate::arena::matchmaking::tournament::RunOptions`], the demo, the printed results).
//! `commands.rs`: every other command (`merge`, `ratings`, `sprt`, `report`, `view`, `--check`
//! and the hidden `fake-engine`, whose engine is [`fake_engine`]).

mod commands;
#[doc(hidden)]
pub mod fake_engine;
pub mod fastchess;
mod pair;
mod run;
mod values;

use std::path::PathBuf;
use std::process::ExitCode;

use anyhow::Result;
use clap::{ArgAction, Parser, Subcommand};

use crate::arena::game::adjudication::AdjudicateBy;
use crate::arena::output::progress::OutputFormat;
use crate::arena::pairing::schedule::Shard;
use crate::arena::pairing::TournamentKind;
use crate::arena::system::console;
use crate::stats::RatingOptions;
use fake_engine::FakeMode;

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
  otau-arena pair --trf round.trf               (the next round of a FIDE TRF, Dutch system)
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
    /// Run every engine program in a sandbox (bubblewrap: the system and its dir= read-only, a
    /// private scratch folder, no network, no other process), as sandbox=on does for one.
    #[arg(long)]
    sandbox: bool,
    /// What follows an engine's use of more CPU than its cpus= allow, or its computing on the
    /// opponent's time: warn (reported at the end) or forfeit (the game is lost, cpu-overuse).
    #[arg(long, value_enum)]
    overuse: Option<crate::arena::config::Overuse>,
    /// Game id: toguz-kumalak, toguz-kumalak-7, bestemshe, giuthi, giuthi-<H>x<S>, modiar.
    #[arg(long, default_value = "toguz-kumalak")]
    game: String,
    /// Total games (rounded up to whole pairs of games); with --tournament swiss, a round's form:
    /// 1 (one game a pairing, the default) or 2 (a game pair, colours swapped).
    #[arg(long,
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
    /// Swiss: the tie-breaks after points, in order, by FIDE's abbreviations (C.07): bh-c1
    /// (Buchholz cut-1), bh (Buchholz), sb (Sonneborn-Berger), de (direct encounter), won (games
    /// won), win (rounds won, played or not); default bh-c1,bh,sb,won.
    #[arg(long, value_name = "LIST")]
    tiebreaks: Option<String>,
    /// Swiss: the pairing-allocated bye's points: 1 (a win's, FIDE's default), 0.5 or 0.
    #[arg(long, value_name = "POINTS", value_parser = crate::arena::config::ByeScore::parse)]
    bye_score: Option<crate::arena::config::ByeScore>,
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
    /// --tournament swiss: the tournament as a FIDE TRF, rewritten whole after every round.
    #[arg(long, value_name = "FILE")]
    trf: Option<PathBuf>,
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
        "tiebreak_pairs", "tiebreaks", "bye_score",
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
    /// Pair the next round of a FIDE Tournament Report File by the Dutch system.
    ///
    /// The FIDE Dutch system, handbook C.04.3 in its 2025 edition, as bbpPairings'
    /// `--dutch FILE -p`: prints the number of pairs, then `WHITE BLACK` by pairing number, the
    /// bye as `PLAYER 0`. Exit codes as bbpPairings': 1 no pairing satisfies the absolute
    /// criteria, 3 an invalid file, 4 too large, 5 a file not read or written.
    Pair {
        /// The tournament so far (TRF-2016; XXR the rounds, XXC white1/black1).
        #[arg(long, value_name = "FILE")]
        trf: PathBuf,
        /// Write the pairing here instead of standard output.
        #[arg(long, value_name = "FILE")]
        out: Option<PathBuf>,
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
    match execute(cli) {
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

/// What the command line asks for: a subcommand, `--check`, or a run.
fn execute(mut cli: ArenaCli) -> Result<ExitCode> {
    if let Some(command) = cli.command.take() {
        return commands::subcommand(command);
    }
    if let Some(cmd) = &cli.check {
        return commands::check(
            &cli.game,
            &cli.check_timeout,
            cmd,
            &cli.log_dir,
            cli.log_limit << 20,
        );
    }
    run::run(&cli)
}

/// `otau-arena`'s clap command as it parses: built, so that clap's own `help` subcommand is in
/// it.
fn command() -> clap::Command {
    use clap::CommandFactory;
    let mut command = ArenaCli::command().after_help(format!(
        "{EXAMPLES}\n\n{}",
        crate::cli::arena::fastchess::SPELLINGS
    ));
    command.build();
    command
}

/// The names the translation of fastchess's spellings must know, read from the clap definition
/// (a list written by hand once lost `view`): the long options, and the subcommands with their
/// aliases.
fn names(command: &clap::Command) -> (Vec<&str>, Vec<&str>) {
    let long = command
        .get_arguments()
        .filter_map(|a| a.get_long())
        .collect();
    let subcommands = command
        .get_subcommands()
        .flat_map(|c| std::iter::once(c.get_name()).chain(c.get_all_aliases()))
        .collect();
    (long, subcommands)
}

/// Parses arguments, keeping each `--engine` occurrence's keys together; fastchess's and
/// cutechess-cli's single-dash spellings are translated first ([`crate::cli::arena::fastchess`]).
fn parse_cli<I, T>(args: I) -> Result<ArenaCli, clap::Error>
where
    I: IntoIterator<Item = T>,
    T: Into<std::ffi::OsString> + Clone,
{
    use clap::FromArgMatches;
    let command = command();
    let (long, subcommands) = names(&command);
    let args = crate::cli::arena::fastchess::translate(
        args.into_iter().map(Into::into).collect(),
        &long,
        &subcommands,
    )
    .map_err(|why| {
        let mut command = self::command();
        command.error(clap::error::ErrorKind::ValueValidation, why)
    })?;
    let matches = command.try_get_matches_from(args)?;
    let mut cli = ArenaCli::from_arg_matches(&matches)?;
    if let Ok(Some(occurrences)) = matches.try_get_occurrences::<String>("engines") {
        cli.engine_groups = occurrences.map(|o| o.cloned().collect()).collect();
    }
    Ok(cli)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_subcommand_keeps_its_arguments_as_they_are() {
        let command = command();
        let (long, subcommands) = names(&command);
        // Read from the clap definition: every `ArenaCommand` is there (`view` was once left out
        // of a list written by hand), hidden ones and clap's own `help` too.
        for name in [
            "merge",
            "ratings",
            "sprt",
            "report",
            "view",
            "fake-engine",
            "help",
        ] {
            assert!(subcommands.contains(&name), "{name} not in {subcommands:?}");
        }
        for name in &subcommands {
            let line = ["otau-arena", name, "-engine", "cmd=x", "-rounds", "3"];
            let args = line.iter().map(std::ffi::OsString::from).collect();
            let out = crate::cli::arena::fastchess::translate(args, &long, &subcommands).unwrap();
            assert_eq!(out, line.map(std::ffi::OsString::from), "{name}");
        }
        // Without the subcommand the same words are fastchess's, and translated.
        let line = ["otau-arena", "-engine", "cmd=x", "-rounds", "3"];
        let args = line.iter().map(std::ffi::OsString::from).collect();
        let out = crate::cli::arena::fastchess::translate(args, &long, &subcommands).unwrap();
        assert_ne!(out, line.map(std::ffi::OsString::from));
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
}
