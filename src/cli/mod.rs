//! The `otau` command line: its definition, and every subcommand's body (the binary only parses
//! and dispatches). Each subcommand writes to the stream it is given, byte for byte what the
//! binary prints.

pub mod arena;
mod bench;
mod check;
mod perft;
mod prove;
pub mod selfplay;
mod solve;
pub mod sprt;
mod tables;
pub mod tune;
mod web;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};

use crate::games::{Side, Variant};

pub use bench::bench;
pub use check::check;
pub use perft::perft;
pub use prove::{solve_bestemshe, solve_bestemshe_from, solve_giuthi_start};
pub use solve::solve;
pub use tables::tables;
pub use web::web;

// The `otau` binary's command line (the arena's is `cli::arena`'s `ArenaCli`; a line a GUI sends
// is `ugi::wire::GuiCommand`). Plain comments here: clap prints a doc comment as help (the doc
// line below is `otau --help`'s first line).
/// Engine for two-row mancala games (Toguz Kumalak, Giuthi, Modiar)
#[derive(Parser)]
#[command(
    name = "otau",
    version,
    after_help = "Without a command, otau speaks UGI on stdin/stdout (protocol/ugi.md).\n\
Memory: the transposition table (UGI option Hash, default 64 MiB) plus the tables in use: \
the Toguz Kumalak endgame tables (57 MB for 2x9, once built by `otau tables`) and Modiar's \
solution (110 MB, only when playing Modiar). The default stays under 256 MB."
)]
pub struct OtauCli {
    /// Default game for `position startpos` (a game id such as toguz-kumalak, giuthi-6x4, modiar).
    #[arg(long, global = true, default_value = "toguz-kumalak")]
    pub game: Variant,
    /// The subcommand; without one, `otau` speaks UGI.
    #[command(subcommand)]
    pub command: Option<OtauCommand>,
}

/// `otau`'s subcommands; without one, `otau` speaks UGI.
#[derive(Subcommand)]
pub enum OtauCommand {
    /// Counts move paths to a depth, per root move, then `nodes <count>`.
    Perft {
        /// Plies to count to.
        #[arg(long, short, value_parser = clap::value_parser!(u32).range(..=crate::perft::MAX_DEPTH as i64))]
        depth: u32,
        /// A position string (its game id overrides --game).
        #[arg(long)]
        position: Option<String>,
    },
    /// Checks that a UGI engine follows the protocol (pass/fail per item):
    /// `otau check -- ./target/release/otau`. Exits 1 if any item fails.
    Check {
        /// Seconds to wait for a reply that needs no search.
        #[arg(long, default_value_t = 5.0)]
        timeout: f64,
        /// The engine program and its arguments (run directly, no shell).
        #[arg(required = true, trailing_var_arg = true, allow_hyphen_values = true)]
        engine: Vec<String>,
    },
    /// Fixed-depth searches over built-in positions of every game: total nodes (deterministic,
    /// a regression signature) and nodes per second. With --position, searches that position
    /// alone and prints every iteration.
    Bench {
        /// Depth for every position (default: each position's own).
        #[arg(long, short)]
        depth: Option<u32>,
        /// Transposition table size in MiB.
        #[arg(long, default_value_t = 16)]
        hash: usize,
        /// Search only this position string (or `startpos` for --game's start).
        #[arg(long)]
        position: Option<String>,
        /// Search threads (the node count is deterministic only with 1).
        #[arg(long, default_value_t = 1)]
        threads: usize,
    },
    /// A quick match between two configurations of the built-in engine, played by the arena
    /// (pairs of games from random openings, colours swapped): score, Elo with its 95%
    /// interval, pentanomial counts. Each side is `key=value,...`: name, level, hash, threads,
    /// player, seed, depth, nodes, movetime (ms), tc=<s>+<s>, qplies=<quiescence plies>,
    /// off=<feature>+... (tt, killers, history, captures-first, quiescence, pvs, lmr,
    /// positional-eval, tables), weights=<file from otau tune>. The same match with more
    /// control: otau-arena --engine cmd=builtin:otau option.NAME=VALUE ... (README).
    Selfplay {
        /// The first side, `key=value,...` (its name by default: a).
        #[arg(long, default_value = "name=a")]
        a: String,
        /// The second side, `key=value,...` (its name by default: b).
        #[arg(long, default_value = "name=b")]
        b: String,
        /// Openings, each played twice with colours swapped.
        #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..))]
        pairs: u32,
        /// Random plies of each opening.
        #[arg(long, default_value_t = 6)]
        plies: u32,
        /// Seeds the openings, so a match can be played again.
        #[arg(long, default_value_t = 1)]
        seed: u64,
        /// Games played at once.
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
        concurrency: u64,
        /// Plies after which a game is scored by the stones held.
        #[arg(long, default_value_t = 1000, value_parser = clap::value_parser!(u32).range(1..))]
        max_plies: u32,
        /// Keep only openings a depth-6 search scores within this many centi-stones.
        #[arg(long)]
        balance: Option<u32>,
        /// The arena's JSON-lines records of the games.
        #[arg(long, value_name = "FILE")]
        out: Option<std::path::PathBuf>,
        /// PGN of the games: training data for `otau tune --pgn`.
        #[arg(long, value_name = "FILE")]
        pgn: Option<std::path::PathBuf>,
    },
    /// Builds the Toguz Kumalak endgame tables of --game (every position with up to
    /// --max-stones stones on the board) into the cache directory, where the engine finds them.
    Tables {
        /// Stones on the board (default: what builds in about a minute).
        #[arg(long)]
        max_stones: Option<usize>,
        /// Directory to write to (default: $OTAU_CACHE_DIR, else $XDG_CACHE_HOME/otau, else
        /// ~/.cache/otau, else %LOCALAPPDATA%\otau).
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
    },
    /// Fits Toguz Kumalak's evaluation weights to game results (Texel's method) and prints them
    /// as the Rust constant of src/eval/toguz.rs; --out also writes a weight file, which the
    /// engine loads with its option EvalFile (otau selfplay: weights=FILE).
    Tune {
        /// Game records as PGN: PlayOK's export, or the arena's (otau-arena --pgn, otau
        /// selfplay --pgn).
        #[arg(long, required = true)]
        pgn: Vec<std::path::PathBuf>,
        /// Plies skipped at the start of each game.
        #[arg(long, default_value_t = 6)]
        skip: usize,
        /// Adam steps over all positions.
        #[arg(long, default_value_t = 2000)]
        epochs: usize,
        /// The weight file to write (the engine's option EvalFile).
        #[arg(long)]
        out: Option<std::path::PathBuf>,
    },
    /// Play a game against the engine in the terminal.
    Play {
        /// Engine strength, 1 (weakest) to 20 (full strength).
        #[arg(long, default_value_t = 10,
              value_parser = clap::value_parser!(u32).range(1..=crate::search::MAX_LEVEL as i64))]
        level: u32,
        /// Your side: south moves first.
        #[arg(long, default_value = "south", value_parser = ["south", "north"])]
        side: String,
        /// Engine thinking time per move, in milliseconds.
        #[arg(long, default_value_t = 1000)]
        movetime: u64,
        /// Seeds the engine's randomness (its evaluation noise below full strength).
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// A board in the browser to play any UGI engine: legal moves highlighted, undo, new game,
    /// flip, analysis, PGN download. Serves on loopback and prints the URL; only the engines
    /// given here ever run.
    Web {
        /// An engine: `key=value ...` as otau-arena's --engine (cmd=, args=, name=,
        /// option.NAME=, st=, depth=, nodes=) or a program and its arguments, one quoted value
        /// (repeat for a choice of engines). Without a limit: st=1. Default: cmd=builtin:otau st=1.
        #[arg(long = "engine", value_name = "ENGINE")]
        engines: Vec<String>,
        /// Where to listen: PORT, HOST:PORT or [V6]:PORT (default 127.0.0.1, a free port).
        #[arg(long)]
        addr: Option<String>,
    },
    /// Solves the game (Modiar; Bestemshe from the start; Giuthi positions with few seeds on the
    /// board) and prints the value with best play and a principal variation.
    Solve {
        /// A position string to solve instead of the start (its game id overrides --game).
        #[arg(long)]
        position: Option<String>,
        /// Longest principal variation printed, in plies.
        #[arg(long, default_value_t = 400)]
        max_plies: usize,
        /// Bestemshe: the rules solved, otau's or PlayStrategy's (the published solution's:
        /// a stuck side ends the game with the stores as they stand).
        #[arg(long, default_value = "otau", value_parser = ["otau", "playstrategy"])]
        rules: String,
        /// Bestemshe and a Giuthi start: stones (seeds) on the board up to which the endgame
        /// tables reach (default: 28 for Bestemshe, 20 for Giuthi).
        #[arg(long)]
        table_stones: Option<usize>,
        /// Bestemshe and a Giuthi start: the proof search's transposition table, in MiB.
        #[arg(long, default_value_t = 4096)]
        hash: usize,
        /// Bestemshe and a Giuthi start: where the proof (and Bestemshe's tables) are kept
        /// (default: the cache directory).
        #[arg(long)]
        dir: Option<std::path::PathBuf>,
        /// Bestemshe and a Giuthi start: re-check the saved proof (never search); fails if
        /// there is none. The tables it rests on must have the digest the proof records.
        #[arg(long)]
        verify: bool,
        /// With --verify: rebuild the tables from scratch in memory (the cache is neither read
        /// nor written) and check them against the proof's digest, instead of trusting the
        /// cached table file. Giuthi's table is always rebuilt.
        #[arg(long, requires = "verify")]
        rebuild_tables: bool,
    },
}

/// Runs `command` (None: the UGI loop on stdin and stdout) with `game` as the default game.
pub fn run(game: Variant, command: Option<OtauCommand>) -> Result<()> {
    match command {
        Some(OtauCommand::Perft { depth, position }) => perft(
            game,
            depth,
            position.as_deref(),
            &mut std::io::stdout().lock(),
        ),
        Some(OtauCommand::Check { timeout, engine }) => check(game, timeout, &engine),
        Some(OtauCommand::Bench {
            depth,
            hash,
            position,
            threads,
        }) => bench(
            game,
            depth,
            hash,
            threads,
            position.as_deref(),
            &mut std::io::stdout().lock(),
        ),
        Some(OtauCommand::Play {
            level,
            side,
            movetime,
            seed,
        }) => {
            let config = crate::play::PlayConfig {
                variant: game,
                level,
                human: if side == "north" {
                    Side::North
                } else {
                    Side::South
                },
                movetime: std::time::Duration::from_millis(movetime),
                seed,
            };
            crate::play::run(std::io::stdin().lock(), std::io::stdout().lock(), &config)
        }
        Some(OtauCommand::Selfplay {
            a,
            b,
            pairs,
            plies,
            seed,
            concurrency,
            max_plies,
            balance,
            out,
            pgn,
        }) => {
            let selfplay = crate::cli::selfplay::Selfplay {
                game,
                a,
                b,
                pairs,
                plies,
                seed,
                concurrency: concurrency as usize,
                max_plies,
                balance,
                out,
                pgn,
            };
            let report =
                selfplay.run(crate::arena::output::progress::ProgressMode::detect(false))?;
            print!("{}", report.standings.summary().text());
            Ok(())
        }
        Some(OtauCommand::Tune {
            pgn,
            skip,
            epochs,
            out,
        }) => {
            let run = tune::TuneRun {
                pgn,
                skip,
                epochs,
                out,
            };
            print!("{}", run.run(|line| eprintln!("{line}"))?);
            Ok(())
        }
        Some(OtauCommand::Web { engines, addr }) => {
            web(game, &engines, addr.as_deref(), &mut std::io::stdout())
        }
        Some(OtauCommand::Tables { max_stones, dir }) => {
            tables(game, max_stones, dir, &mut std::io::stdout().lock())
        }
        Some(OtauCommand::Solve {
            position: None,
            rules,
            table_stones,
            hash,
            dir,
            verify,
            rebuild_tables,
            ..
        }) if game == Variant::BESTEMSHE => {
            use crate::tables::bestemshe::{solve, Rules};
            let dir = dir
                .or_else(crate::tables::cache_dir)
                .context("no cache directory: give --dir")?;
            let options = solve::SolveOptions {
                rules: if rules == "playstrategy" {
                    Rules::PlayStrategy
                } else {
                    Rules::Otau
                },
                table_stones: table_stones.unwrap_or(solve::DEFAULT_TABLE_STONES),
                hash_mb: hash,
                dir,
                verify_only: verify,
                rebuild_tables,
            };
            prove::solve_bestemshe(&options, &mut std::io::stdout().lock())
        }
        Some(OtauCommand::Solve {
            position: None,
            table_stones,
            hash,
            dir,
            verify,
            ..
        }) if matches!(game, Variant::Giuthi { .. }) => {
            use crate::tables::giuthi::prove::{StartOptions, DEFAULT_TABLE_SEEDS};
            let dir = dir
                .or_else(crate::tables::cache_dir)
                .context("no cache directory: give --dir")?;
            let options = StartOptions {
                table_seeds: table_stones.unwrap_or(DEFAULT_TABLE_SEEDS),
                hash_mb: hash,
                dir,
                verify_only: verify,
            };
            prove::solve_giuthi_start(game, &options, &mut std::io::stdout().lock())
        }
        Some(OtauCommand::Solve {
            position,
            max_plies,
            ..
        }) => solve(
            game,
            position.as_deref(),
            max_plies,
            &mut std::io::stdout().lock(),
        ),
        None => crate::ugi::serve(
            std::io::BufReader::new(std::io::stdin()),
            std::io::stdout(),
            game,
        ),
    }
}
