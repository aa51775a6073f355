//! `otau`: the engine. With no subcommand it speaks UGI on stdin/stdout.

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
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft { depth, position }) => perft(cli.game, depth, position.as_deref()),
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
        None => {
            eprintln!("the UGI engine loop is not built yet");
            Ok(())
        }
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
