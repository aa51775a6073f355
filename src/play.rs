//! `otau play`: a game against the engine in the terminal, for every game id.
//!
//! Reads commands line by line and never dies on what it reads: a wrong entry is explained and
//! asked again. Generic over reader and writer so tests drive it through pipes.

use std::io::{BufRead, Write};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use anyhow::Result;

use crate::games::render::render;
use crate::games::{AnyGame, EndReason, Game, GameLine, Move, MoveEffect, Outcome, Side, Variant};
use crate::search::{Limits, Options, Score, Searcher};

/// Settings of a terminal game.
#[derive(Clone, Debug)]
pub struct PlayConfig {
    /// The game played.
    pub variant: Variant,
    /// Engine strength 1..=20.
    pub level: u32,
    /// The human's side.
    pub human: Side,
    /// Engine thinking time per move.
    pub movetime: Duration,
    /// Seeds the engine's randomness (its evaluation noise below full strength).
    pub seed: u64,
}

const HELP: &str = "commands: a move (as in the protocol: e.g. 7, 76, 3a, pass), moves, hint, undo, fen, board, names, help, quit";

/// Plays one game: the human enters moves on `input`, the engine answers.
pub fn run<R: BufRead, W: Write>(mut input: R, mut out: W, config: &PlayConfig) -> Result<()> {
    let options = Options {
        level: config.level,
        seed: config.seed,
        ..Options::default()
    };
    let mut searcher = Searcher::new(options);
    let mut line = GameLine::new(AnyGame::start(config.variant));
    let limits = Limits {
        movetime: Some(config.movetime),
        ..Limits::default()
    };
    let mut names = false;
    if searcher.features().tables {
        // Read while the person looks at the board: the engine's first move waits for them.
        crate::search::prepare_tables_in_background(line.position());
    }
    writeln!(
        out,
        "otau play: {} — you are {}. {HELP}",
        config.variant, config.human
    )?;
    writeln!(out, "{}", render(line.position(), names))?;
    let mut buf = String::new();
    loop {
        if let Some(fin) = line.result() {
            writeln!(out, "{}", describe_final(&fin, config.human))?;
            return Ok(());
        }
        let pos = line.position().clone();
        if pos.side_to_move() != config.human {
            wait_for_tables(&mut out, &searcher, &pos)?;
            let stop = AtomicBool::new(false);
            let report = searcher.search(&line, &limits, &stop, &mut |_| {});
            let Some(mv) = report.best else {
                writeln!(out, "the engine found no move")?;
                return Ok(());
            };
            let name = pos.record_name(mv);
            let laps = laps_text(&pos, mv);
            let effect = line
                .play(mv)
                .map_err(|e| anyhow::anyhow!("engine move {name}: {e}"))?;
            writeln!(
                out,
                "{} plays {name}{}",
                pos.side_to_move(),
                effect_text(pos.move_note(mv), &effect)
            )?;
            write!(out, "{laps}")?;
            writeln!(out, "{}", render(line.position(), names))?;
            continue;
        }
        write!(out, "{}> ", pos.side_to_move())?;
        out.flush()?;
        buf.clear();
        if input.read_line(&mut buf)? == 0 {
            writeln!(out)?;
            return Ok(());
        }
        let entry = buf.trim();
        match entry.to_ascii_lowercase().as_str() {
            "" => continue,
            "quit" | "exit" | "q" => {
                writeln!(out, "bye")?;
                return Ok(());
            }
            "help" | "?" => writeln!(out, "{HELP}")?,
            "board" | "d" => writeln!(out, "{}", render(&pos, names))?,
            "names" => {
                names = !names;
                writeln!(out, "{}", render(&pos, names))?;
            }
            "fen" => writeln!(out, "{pos}")?,
            "moves" => {
                let moves: Vec<String> = pos
                    .legal_moves()
                    .iter()
                    .map(|&m| pos.move_name(m))
                    .collect();
                writeln!(out, "legal moves: {}", moves.join(" "))?;
            }
            "hint" => {
                wait_for_tables(&mut out, &searcher, &pos)?;
                let stop = AtomicBool::new(false);
                let report = searcher.search(&line, &limits, &stop, &mut |_| {});
                match report.best {
                    Some(mv) => writeln!(
                        out,
                        "hint: {} ({}, depth {})",
                        pos.move_name(mv),
                        score_text(report.info.score),
                        report.info.depth
                    )?,
                    None => writeln!(out, "no hint: no legal move")?,
                }
            }
            "undo" => {
                // Take back the engine's reply and the human's move, back to the human's turn.
                let mut undone = 0;
                while line.undo().is_some() {
                    undone += 1;
                    if line.position().side_to_move() == config.human {
                        break;
                    }
                }
                if undone == 0 {
                    writeln!(out, "nothing to undo")?;
                } else {
                    writeln!(out, "{}", render(line.position(), names))?;
                }
            }
            _ => match line.play_token(entry) {
                Ok((mv, effect)) => {
                    writeln!(
                        out,
                        "you play {}{}",
                        pos.record_name(mv),
                        effect_text(pos.move_note(mv), &effect)
                    )?;
                    write!(out, "{}", laps_text(&pos, mv))?;
                    writeln!(out, "{}", render(line.position(), names))?;
                }
                Err(e) => writeln!(out, "{e}; type 'moves' for the legal moves or 'help'")?,
            },
        }
    }
}

/// Waits for the game's tables (Modiar's solution, the endgame tables) before the engine moves or
/// hints: a person's game has no clock, and a move on the clock of `--movetime` would go without
/// tables still being read (Modiar at level 20 opened with hole 2, which loses by more than 3).
fn wait_for_tables<W: Write>(out: &mut W, searcher: &Searcher, pos: &AnyGame) -> Result<()> {
    use crate::tables::Probe;
    if !searcher.features().tables || pos.tables_ready() {
        return Ok(());
    }
    writeln!(
        out,
        "reading the tables of {} (your game has no clock: the engine waits for them)",
        pos.variant()
    )?;
    out.flush()?;
    if !crate::search::wait_for_tables(pos, &AtomicBool::new(false)) {
        writeln!(
            out,
            "the tables could not be read: the engine plays without them"
        )?;
    }
    Ok(())
}

/// What a move did, for the player: the game's own note ([`Game::move_note`]) first.
fn effect_text(note: Option<&str>, effect: &MoveEffect) -> String {
    let mut text = String::new();
    if let Some(note) = note {
        text.push_str(", ");
        text.push_str(note);
    }
    if effect.captured > 0 {
        text.push_str(&format!(", captures {}", effect.captured));
    }
    if effect.extra_move {
        text.push_str(", moves again");
    }
    text
}

/// The laps of a Giuthi relay sowing, one line each (the holes as the board shows them: north
/// from its hole n down to 1, then south from 1 to n), so the player can follow a relay the final
/// board alone does not explain; nothing for a single lap or another game.
fn laps_text(pos: &AnyGame, mv: Move) -> String {
    let AnyGame::Giuthi(g) = pos else {
        return String::new();
    };
    let laps = g.relay_laps(mv);
    if laps.len() < 2 {
        return String::new();
    }
    let n = pos.holes();
    let row = |holes: &mut dyn Iterator<Item = &u8>| {
        holes.map(|s| s.to_string()).collect::<Vec<_>>().join(" ")
    };
    let mut text = String::new();
    for (i, lap) in laps.iter().enumerate() {
        text.push_str(&format!(
            "  lap {}: north {} | south {}\n",
            i + 1,
            row(&mut lap[n..2 * n].iter().rev()),
            row(&mut lap[..n].iter())
        ));
    }
    text
}

/// A search's score for the player to move, in words: stones ahead (100 centi-stones a stone),
/// or a proven result.
fn score_text(score: Score) -> String {
    match score {
        // Beyond 10000: a result proven by the endgame tables, its distance unknown.
        Score::Cp(cp) if cp > 10_000 => "a proven win".to_string(),
        Score::Cp(cp) if cp < -10_000 => "a proven loss".to_string(),
        Score::Cp(cp) => format!("score {:+.2} stones", cp as f64 / 100.0),
        Score::Mate(plies) if plies > 0 => format!("wins in {plies} plies"),
        Score::Mate(plies) => format!("loses in {} plies", -plies),
    }
}

fn describe_final(fin: &crate::games::Final, human: Side) -> String {
    let why = match fin.reason {
        EndReason::MajorityInStore => "a store holds more than half of the stones",
        EndReason::NoMoves => "the player to move has no move",
        EndReason::Blocked => "neither player can move",
        EndReason::Repetition => "the position repeated",
    };
    let verdict = match fin.outcome {
        Outcome::Draw => "draw".to_string(),
        Outcome::Win(side) if side == human => format!("{side} wins: you win"),
        Outcome::Win(side) => format!("{side} wins: the engine wins"),
    };
    format!(
        "game over ({why}): {verdict}, South {} - North {}",
        fin.south, fin.north
    )
}
