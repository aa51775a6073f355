//! `otau tables`: builds the Toguz endgame tables of a board ([`crate::tables::toguz`]) and
//! prints what it did.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};

use crate::games::Variant;
use crate::tables::{cache_dir, file_name, toguz};

/// `otau tables`: builds the endgame tables of a Toguz board up to `max_stones` stones (default
/// [`toguz::default_max_stones`]) into `dir` (default [`cache_dir`]) and prints what it did.
pub fn tables(
    game: Variant,
    max_stones: Option<usize>,
    dir: Option<PathBuf>,
    out: &mut dyn Write,
) -> Result<()> {
    anyhow::ensure!(
        matches!(game, Variant::Toguz { .. }),
        "endgame tables exist for the Toguz Kumalak boards only"
    );
    let max = max_stones.unwrap_or(toguz::default_max_stones(game));
    let dir = dir
        .or_else(cache_dir)
        .context("no cache directory: give --dir")?;
    std::fs::create_dir_all(&dir).with_context(|| dir.display().to_string())?;
    let started = Instant::now();
    let (tables, stats) = toguz::Tables::build(game, max);
    let path = dir.join(file_name(game));
    tables
        .save(&path)
        .with_context(|| path.display().to_string())?;
    writeln!(
        out,
        "{}: up to {max} stones, {} positions ({} MB), {} with open bounds, {} updates, \
         {:.1} s, written to {}",
        game,
        stats.positions,
        tables.bytes() >> 20,
        stats.open,
        stats.updates,
        started.elapsed().as_secs_f64(),
        path.display()
    )?;
    Ok(())
}
