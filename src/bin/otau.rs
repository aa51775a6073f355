//! `otau`: the engine. With no subcommand it speaks UGI on stdin/stdout (`protocol/ugi.md`).

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use otau::games::{AnyGame, Game, Side, Variant};
use otau::with_game;

#[derive(Parser)]
#[command(
    name = "otau",
    version,
    about = "Engine for two-row mancala games (Toguz Kumalak, Giuthi, Modiar)",
    after_help = "Without a command, otau speaks UGI on stdin/stdout (protocol/ugi.md).\n\
Memory: the transposition table (UGI option Hash, default 64 MiB) plus the tables in use: \
the Toguz Kumalak endgame tables (57 MB for 2x9, once built by `otau tables`) and Modiar's \
solution (110 MB, only when playing Modiar). The default stays under 256 MB."
)]
struct Cli {
    /// Default game for `position startpos` (a game id such as toguz-kumalak, giuthi-6x4, modiar).
    #[arg(long, global = true, default_value = "toguz-kumalak")]
    game: Variant,
    #[command(subcommand)]
    command: Option<Command>,
}

#[derive(Subcommand)]
enum Command {
    /// Counts move paths to a depth, per root move, then `nodes <count>`.
    Perft {
        #[arg(long, short, value_parser = clap::value_parser!(u32).range(..=otau::perft::MAX_DEPTH as i64))]
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
        #[arg(long, default_value = "name=a")]
        a: String,
        #[arg(long, default_value = "name=b")]
        b: String,
        /// Openings, each played twice with colours swapped.
        #[arg(long, default_value_t = 50, value_parser = clap::value_parser!(u32).range(1..))]
        pairs: u32,
        /// Random plies of each opening.
        #[arg(long, default_value_t = 6)]
        plies: u32,
        #[arg(long, default_value_t = 1)]
        seed: u64,
        #[arg(long, default_value_t = 1, value_parser = clap::value_parser!(u64).range(1..=1024))]
        concurrency: u64,
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
        /// ~/.cache/otau).
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
        #[arg(long, default_value_t = 2000)]
        epochs: usize,
        #[arg(long)]
        out: Option<std::path::PathBuf>,
    },
    /// Play a game against the engine in the terminal.
    Play {
        /// Engine strength, 1 (weakest) to 20 (full strength).
        #[arg(long, default_value_t = 10)]
        level: u32,
        /// Your side: south moves first.
        #[arg(long, default_value = "south", value_parser = ["south", "north"])]
        side: String,
        /// Engine thinking time per move, in milliseconds.
        #[arg(long, default_value_t = 1000)]
        movetime: u64,
        #[arg(long, default_value_t = 1)]
        seed: u64,
    },
    /// Solves the game (Modiar only) and prints the value with best play and a principal variation.
    Solve {
        /// A position string to solve instead of the start (its game id overrides --game).
        #[arg(long)]
        position: Option<String>,
        /// Longest principal variation printed, in plies.
        #[arg(long, default_value_t = 400)]
        max_plies: usize,
    },
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft { depth, position }) => perft(cli.game, depth, position.as_deref()),
        Some(Command::Check { timeout, engine }) => check(cli.game, timeout, &engine),
        Some(Command::Bench {
            depth,
            hash,
            position,
            threads,
        }) => bench::run(cli.game, depth, hash, threads, position.as_deref()),
        Some(Command::Selfplay {
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
            let selfplay = otau::arena::selfplay::Selfplay {
                game: cli.game,
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
            let report = selfplay.run(otau::arena::progress::ProgressMode::detect(false))?;
            print!("{}", report.standings.summary().text());
            Ok(())
        }
        Some(Command::Tables { max_stones, dir }) => {
            use otau::egtb;
            anyhow::ensure!(
                matches!(cli.game, otau::games::Variant::Toguz { .. }),
                "endgame tables exist for the Toguz Kumalak boards only"
            );
            let max = max_stones.unwrap_or(egtb::default_max_stones(cli.game));
            let dir = dir
                .or_else(egtb::cache_dir)
                .context("no cache directory: give --dir")?;
            std::fs::create_dir_all(&dir).with_context(|| dir.display().to_string())?;
            let started = Instant::now();
            let (tables, stats) = egtb::toguz::Tables::build(cli.game, max);
            let path = dir.join(egtb::file_name(cli.game));
            tables
                .save(&path)
                .with_context(|| path.display().to_string())?;
            println!(
                "{}: up to {max} stones, {} positions ({} MB), {} with open bounds, {} updates, \
                 {:.1} s, written to {}",
                cli.game,
                stats.positions,
                tables.bytes() >> 20,
                stats.open,
                stats.updates,
                started.elapsed().as_secs_f64(),
                path.display()
            );
            Ok(())
        }
        Some(Command::Tune {
            pgn,
            skip,
            epochs,
            out,
        }) => {
            let run = otau::eval::tune::TuneRun {
                pgn,
                skip,
                epochs,
                out,
            };
            print!("{}", run.run(|line| eprintln!("{line}"))?);
            Ok(())
        }
        Some(Command::Solve {
            position,
            max_plies,
        }) => solve(cli.game, position.as_deref(), max_plies),
        Some(Command::Play {
            level,
            side,
            movetime,
            seed,
        }) => {
            let config = otau::play::PlayConfig {
                variant: cli.game,
                level: level.clamp(1, otau::search::MAX_LEVEL),
                human: if side == "north" {
                    Side::North
                } else {
                    Side::South
                },
                movetime: std::time::Duration::from_millis(movetime),
                seed,
            };
            otau::play::run(std::io::stdin().lock(), std::io::stdout().lock(), &config)
        }
        None => otau::ugi::serve(
            std::io::BufReader::new(std::io::stdin()),
            std::io::stdout(),
            cli.game,
        ),
    }
}

fn check(game: Variant, timeout: f64, engine: &[String]) -> Result<()> {
    let config = otau::ugi::compliance::Config {
        game,
        reply_timeout: std::time::Duration::try_from_secs_f64(timeout)
            .context("--timeout must be a non-negative number of seconds")?,
        ..Default::default()
    };
    // As in an arena run: a kill -9 of the check leaves nothing the engine started.
    let _guardian = otau::arena::process::Guardian::start();
    let report = otau::ugi::compliance::check(&engine[0], &engine[1..], &config);
    println!("{report}");
    anyhow::ensure!(report.passed(), "the engine is not UGI compliant");
    Ok(())
}

mod bench {
    use super::*;
    use otau::search::bench;

    pub fn run(
        game: Variant,
        depth: Option<u32>,
        hash: usize,
        threads: usize,
        position: Option<&str>,
    ) -> Result<()> {
        let single = position.map(|p| {
            if p == "startpos" {
                AnyGame::start(game).to_string()
            } else {
                p.to_string()
            }
        });
        let list = single.as_deref().map(|p| [(p, depth.unwrap_or(12))]);
        let mut out = std::io::stdout().lock();
        let (nodes, time) = bench::run(depth, hash, threads, list.as_ref().map(|l| &l[..]), |r| {
            let _ = match (&r.skipped, &r.info) {
                (Some(why), _) => writeln!(out, "skipped {}: {why}", r.position),
                (None, Some(info)) => writeln!(
                    out,
                    "{} | depth {} score {} nodes {} time {} bestmove {}",
                    r.position,
                    info.depth,
                    info.score,
                    info.nodes,
                    info.elapsed.as_millis(),
                    r.best.as_deref().unwrap_or("none")
                ),
                _ => Ok(()),
            };
        });
        writeln!(out, "nodes {nodes}")?;
        writeln!(
            out,
            "nps {}",
            (nodes as f64 / time.as_secs_f64().max(1e-9)) as u64
        )?;
        writeln!(out, "time {}", time.as_millis())?;
        Ok(())
    }
}

fn perft(game: Variant, depth: u32, position: Option<&str>) -> Result<()> {
    let pos = match position {
        Some(text) => AnyGame::from_position(text).context("--position")?,
        None => AnyGame::start(game),
    };
    let started = Instant::now();
    let split = with_game!(&pos, g => otau::perft::divide(g, depth));
    let elapsed = started.elapsed();
    let mut out = std::io::stdout().lock();
    let mut total = 0;
    for (mv, count) in &split {
        writeln!(out, "{} {count}", pos.move_name(*mv))?;
        total += count;
    }
    writeln!(out, "nodes {total}")?;
    eprintln!(
        "time {:.3} s, {:.1} M leaves/s",
        elapsed.as_secs_f64(),
        total as f64 / elapsed.as_secs_f64().max(1e-9) / 1e6
    );
    Ok(())
}

fn solve(game: Variant, position: Option<&str>, max_plies: usize) -> Result<()> {
    use otau::games::{Outcome, Side};
    use otau::solve::modiar::{Provenance, Table};
    let pos = match position {
        Some(text) => AnyGame::from_position(text).context("--position")?,
        None => AnyGame::start(game),
    };
    let AnyGame::Modiar(pos) = pos else {
        anyhow::bail!(
            "only modiar is solved (otau solve --game modiar); {} is too large for a table",
            pos.variant()
        );
    };
    let started = Instant::now();
    let table = Table::get();
    let elapsed = started.elapsed();
    let mut out = std::io::stdout().lock();
    writeln!(out, "position {pos}")?;
    let me = pos.side_to_move();
    let value = table.value(&pos);
    let [south, north] = table.final_totals(&pos);
    let verdict = match Outcome::by_totals(south, north) {
        Outcome::Win(side) => format!("{side} wins by {}", south.abs_diff(north)),
        Outcome::Draw => "draw".to_string(),
    };
    writeln!(
        out,
        "value {value:+} for {me} from the {} stones on the board{}",
        pos.board_stones(),
        if pos.is_first_move() {
            " (first move captures nothing)"
        } else {
            ""
        }
    )?;
    let (game_lower, game_upper) = table.game_bounds(&pos);
    if game_lower == game_upper {
        writeln!(
            out,
            "forced: the value holds whatever the convention for endless play"
        )?;
    } else {
        writeln!(
            out,
            "not forced: each side can force the game to end only within {game_lower:+}..{game_upper:+}; \
             the value rests on the cycle convention (protocol/rules-modiar.md)"
        )?;
    }
    writeln!(
        out,
        "result {verdict}: {south}-{north} ({} {south}, {} {north})",
        Side::South,
        Side::North
    )?;
    let moves = table.move_values(&pos);
    let list: Vec<String> = moves
        .iter()
        .map(|m| format!("{}:{:+}", pos.move_name(m.mv), m.value))
        .collect();
    writeln!(out, "moves {}", list.join(" "))?;
    let line = table.principal_variation(&pos, max_plies);
    // Numbered like a game record: "1. 3 2  2. 3 2", or "5... 2" when North starts.
    let mut pv = String::new();
    let mut p = pos;
    for (i, &mv) in line.moves().iter().enumerate() {
        if p.side_to_move() == Side::South {
            pv += &format!(" {}. {}", p.fullmove(), p.move_name(mv));
        } else if i == 0 {
            pv += &format!(" {}... {}", p.fullmove(), p.move_name(mv));
        } else {
            pv += &format!(" {}", p.move_name(mv));
        }
        p.play(mv);
    }
    writeln!(out, "pv{pv}")?;
    match line.result() {
        Some(fin) => writeln!(
            out,
            "pv ends {} {}-{} ({:?}) after {} plies at {}",
            fin.outcome.ugi(),
            fin.south,
            fin.north,
            fin.reason,
            line.moves().len(),
            line.position()
        )?,
        None => writeln!(
            out,
            "pv cut after {} plies at {}",
            line.moves().len(),
            line.position()
        )?,
    }
    let source = match table.provenance() {
        Provenance::Loaded(path) => format!("loaded from {}", path.display()),
        Provenance::Saved(path) => format!("built and saved to {}", path.display()),
        Provenance::InMemory { why } => format!("built in memory ({why})"),
    };
    writeln!(
        out,
        "table {} positions, {:.1} MB, {source} in {:.2} s",
        otau::solve::modiar::POSITIONS,
        table.bytes() as f64 / 1e6,
        elapsed.as_secs_f64()
    )?;
    if let Some(stats) = table.stats() {
        writeln!(
            out,
            "build {:.2} s; {} positions not forced within their stone count ({} on cycles), \
             {} whose value rests on the cycle convention; at most {} rounds a stone count",
            stats.elapsed.as_secs_f64(),
            stats.unforced,
            stats.cyclic,
            stats.game_unforced,
            stats.max_rounds
        )?;
    }
    Ok(())
}
