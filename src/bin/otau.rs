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
    about = "Engine for two-row mancala games (Toguz Kumalak, Giuthi, Modiar)"
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
        #[arg(long, short)]
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
    let report = otau::ugi::compliance::check(&engine[0], &engine[1..], &config);
    println!("{report}");
    anyhow::ensure!(report.passed(), "the engine is not UGI compliant");
    Ok(())
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
