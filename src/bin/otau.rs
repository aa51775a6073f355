//! `otau`: the engine. With no subcommand it speaks UGI on stdin/stdout (`protocol/ugi.md`).

use std::io::Write;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Parser;
use otau::cli::{Cli, Command};
use otau::games::{AnyGame, Game, Variant};

fn main() -> Result<()> {
    let cli = Cli::parse();
    match cli.command {
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
        Some(Command::Solve {
            position,
            max_plies,
        }) => solve(cli.game, position.as_deref(), max_plies),
        command => otau::cli::run(cli.game, command),
    }
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
