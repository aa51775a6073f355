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
    },
}

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
        Some(Command::Perft { depth, position }) => perft(cli.game, depth, position.as_deref()),
        Some(Command::Bench {
            depth,
            hash,
            position,
        }) => bench::run(cli.game, depth, hash, position.as_deref()),
        None => {
            eprintln!("the UGI engine loop is not built yet");
            Ok(())
        }
    }
}

mod bench {
    use super::*;
    use otau::search::bench;

    pub fn run(
        game: Variant,
        depth: Option<u32>,
        hash: usize,
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
        let (nodes, time) = bench::run(depth, hash, list.as_ref().map(|l| &l[..]), |r| {
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
