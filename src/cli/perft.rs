//! `otau perft`: move paths to a depth, per root move.

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result};

use crate::games::{AnyGame, Game, Variant};
use crate::with_game;

/// Writes each root move's path count to depth `depth` from `position` (default: `game`'s
/// start), then `nodes <total>`; the time and speed go to stderr.
pub fn perft(
    game: Variant,
    depth: u32,
    position: Option<&str>,
    out: &mut impl Write,
) -> Result<()> {
    let pos = match position {
        Some(text) => AnyGame::from_position(text).context("--position")?,
        None => AnyGame::start(game),
    };
    let started = Instant::now();
    let split = with_game!(&pos, g => crate::perft::divide(g, depth));
    let elapsed = started.elapsed();
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
