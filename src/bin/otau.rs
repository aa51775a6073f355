//! `otau`: the engine. With no subcommand it speaks UGI on stdin/stdout.

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::{Parser, Subcommand};
use otau::games::{AnyGame, Game, Variant};
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
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft { depth, position }) => perft(cli.game, depth, position.as_deref()),
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
