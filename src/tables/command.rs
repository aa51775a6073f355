//! The two commands that build and show tables: `otau tables` (the Toguz endgame tables) and
//! `otau solve` (Modiar's solution), their output as the binary prints it.

use std::io::Write;
use std::path::PathBuf;
use std::time::Instant;

use anyhow::{Context, Result};

use super::modiar::{ModiarTable, Provenance, POSITIONS};
use super::{cache_dir, file_name, toguz};
use crate::games::{AnyGame, Game, Outcome, Side, Variant};

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

/// `otau solve`: the value of a Modiar position (default the start) with best play, its moves'
/// values, a principal variation of up to `max_plies` plies, and where the table came from.
pub fn solve(
    game: Variant,
    position: Option<&str>,
    max_plies: usize,
    out: &mut dyn Write,
) -> Result<()> {
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
    let table = ModiarTable::get();
    let elapsed = started.elapsed();
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
        Provenance::Replaced { path, why } => {
            format!(
                "built and saved to {} in place of a refused file ({why})",
                path.display()
            )
        }
        Provenance::InMemory { why } => format!("built in memory ({why})"),
    };
    writeln!(
        out,
        "table {} positions, {:.1} MB, {source} in {:.2} s",
        POSITIONS,
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
