//! `otau solve` on a position: Modiar's (its solution, [`crate::tables::modiar`]) and a Giuthi
//! position with few seeds on the board ([`crate::tables::giuthi`]); the value, the moves' values
//! and a line of best play as the binary prints them. From a game's start, by proof search
//! (Bestemshe, Giuthi): [`super::prove`].

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result};

use crate::games::{AnyGame, Final, Game, Giuthi, Outcome, Side, Variant};
use crate::tables::modiar::{ModiarTable, Provenance, POSITIONS};
use crate::tables::{giuthi, Decided};

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
    let pos = match pos {
        AnyGame::Modiar(pos) => pos,
        AnyGame::Giuthi(pos) => return solve_giuthi(&pos, max_plies, out),
        other => anyhow::bail!(
            "only modiar and Giuthi positions with few seeds are solved (otau solve --game \
             modiar); {} is too large for a table",
            other.variant()
        ),
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
    writeln!(out, "pv{}", crate::games::numbered(&pos, line.moves()))?;
    write_pv_end(
        out,
        line.result(),
        line.moves().len(),
        line.position(),
        "cut",
    )?;
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

/// The line after a principal variation: how the game ends at `end` after `plies` plies, or that
/// the line `unfinished` there (Modiar's is cut at the length asked, Giuthi's stops where the
/// margin is no longer forced).
fn write_pv_end(
    out: &mut dyn Write,
    result: Option<Final>,
    plies: usize,
    end: &dyn std::fmt::Display,
    unfinished: &str,
) -> std::io::Result<()> {
    match result {
        Some(fin) => writeln!(
            out,
            "pv ends {} {}-{} ({:?}) after {plies} plies at {end}",
            fin.outcome.ugi(),
            fin.south,
            fin.north,
            fin.reason,
        ),
        None => writeln!(out, "pv {unfinished} after {plies} plies at {end}"),
    }
}

/// A Giuthi bound as printed: the margin, or `none` where no normal end is forced.
fn bound_text(bound: i32) -> String {
    if bound.abs() == giuthi::UNFORCED as i32 {
        "none".to_string()
    } else {
        format!("{bound:+}")
    }
}

/// `otau solve` on a Giuthi position: builds the retrograde table of its board size up to its
/// seeds on the board (refused, naming the size and why, when that does not fit), then prints
/// its bounds, its result under the real rules, its moves' values and a line of best play.
fn solve_giuthi(pos: &Giuthi, max_plies: usize, out: &mut dyn Write) -> Result<()> {
    let variant = pos.variant();
    let seeds = pos.board_stones() as usize;
    giuthi::fits(variant, seeds)?;
    let started = Instant::now();
    // Progress on stderr when the build takes more than a few seconds.
    let table = giuthi::GiuthiTable::for_seeds(variant, seeds, seeds >= 17)?;
    let elapsed = started.elapsed();
    writeln!(out, "position {pos}")?;
    let me = pos.side_to_move();
    let (lower, upper) = table.bounds(pos).expect("the table reaches the position");
    let value = table.value(pos);
    if let Some(value) = value {
        writeln!(
            out,
            "value {value:+} for {me} from the {seeds} seeds on the board"
        )?;
        writeln!(
            out,
            "forced: the value holds whatever the convention for endless play"
        )?;
    } else {
        let (lo, hi) = (bound_text(lower), bound_text(upper));
        writeln!(
            out,
            "bounds {lo}..{hi} for {me} from the {seeds} seeds on the board"
        )?;
        writeln!(
            out,
            "not forced: {me} can force the game to a normal end with a margin of at least \
             {lo}, {} with at most {hi} (none: cannot force it to end); a repetition draws \
             (protocol/rules-giuthi.md)",
            me.other()
        )?;
    }
    let verdict = match table.result(pos) {
        Some(Decided::Win) => format!("{me} wins"),
        Some(Decided::Loss) => format!("{} wins", me.other()),
        _ => "draw".to_string(),
    };
    if let Some(value) = value {
        let [south, north] = giuthi::totals(pos, value);
        writeln!(
            out,
            "result {verdict}: {south}-{north} ({} {south}, {} {north})",
            Side::South,
            Side::North
        )?;
    } else {
        writeln!(
            out,
            "result {verdict} under the repetition rule (the margin rests on the convention)"
        )?;
    }
    let list: Vec<String> = table
        .move_bounds(pos)
        .iter()
        .map(|m| {
            if m.lower == m.upper {
                format!("{}:{:+}", pos.move_name(m.mv), m.lower)
            } else {
                let (lo, hi) = (bound_text(m.lower), bound_text(m.upper));
                format!("{}:{lo}..{hi}", pos.move_name(m.mv))
            }
        })
        .collect();
    writeln!(out, "moves {}", list.join(" "))?;
    let line = table.principal_variation(pos, max_plies);
    writeln!(out, "pv{}", crate::games::numbered(pos, &line))?;
    let mut end = *pos;
    for &mv in &line {
        end.play(mv);
    }
    write_pv_end(out, end.final_result(), line.len(), &end, "stops")?;
    let positions: u64 = table.layers().iter().map(|l| l.positions).sum();
    let open: u64 = table.layers().iter().map(|l| l.open).sum();
    writeln!(
        out,
        "table retrograde analysis of every board of {} holes with 0..{seeds} seeds: {positions} \
         positions, {open} with bounds that differ, built in memory in {:.2} s",
        2 * variant.holes(),
        elapsed.as_secs_f64()
    )?;
    Ok(())
}
