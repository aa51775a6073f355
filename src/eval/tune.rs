//! Tuning Toguz Kumalak's evaluation weights on positions from real games (the algorithm;
//! `otau tune`'s command body, which reads the files and prints, is `cli::tune`).
//!
//! Texel's method: every position of every game is labelled with the game's result from the side
//! to move's view, resolved to a quiet position by a capture-only search, and the weights are
//! fitted so that a logistic function of the evaluation predicts the results (least squares,
//! Adam steps). The stores difference keeps its fixed 100 per stone, so the scale stays in
//! centi-stones; the logistic's slope is fitted first.
//!
//! Game records: PGN, from PlayOK's export (`1. 87(10) 87(10) 2. 22 ...  0-1`) or from the arena
//! (`otau-arena --pgn`, `otau selfplay --pgn`: the games of built-in engine configurations).

use std::fmt::Write as _;

use super::toguz::{features, FEATURES, FEATURE_NAMES};
use crate::games::notation::shorten;
use crate::games::{AnyGame, Game, GameLine, MoveList, Outcome, Toguz};

/// A training position: its terms, stores difference and result, from the side to move's view.
#[derive(Clone, Debug)]
pub struct Sample {
    /// The position's terms, indexed as [`super::toguz::features`] fills them.
    pub features: [i32; FEATURES],
    /// Stores difference in centi-stones.
    pub base: i32,
    /// Stones on the board over all stones (the phase blend).
    pub phase: f64,
    /// 1 win, 0.5 draw, 0 loss for the side to move.
    pub result: f64,
}

/// A game read from a record: its positions and result.
pub struct RecordedGame {
    /// The positions of the game, the start first, each before its move.
    pub positions: Vec<Toguz>,
    /// How the game ended, as its record says.
    pub outcome: Outcome,
}

/// Errors of reading game records, with where they happened.
#[derive(Debug)]
pub struct RecordError {
    /// Which game of the file, from 1; 0 when the file itself could not be read.
    pub game: usize,
    /// What was wrong.
    pub message: String,
}

impl std::fmt::Display for RecordError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "game {}: {}", self.game, self.message)
    }
}

impl std::error::Error for RecordError {}

/// Reads Toguz Kumalak games from PGN (PlayOK's export or the arena's) and replays them by the
/// rules, from the `FEN` tag's position when there is one. Games without a result (`*`) are
/// skipped; a game of another board (`Variant` tag) is an error.
pub fn read_pgn(text: &str) -> Result<Vec<RecordedGame>, RecordError> {
    let records = crate::pgn::parse(text).map_err(|e| RecordError {
        game: 0,
        message: e.to_string(),
    })?;
    let mut games = Vec::new();
    for (index, record) in records.iter().enumerate() {
        let Some(outcome) = record.result.as_deref().and_then(Outcome::from_pgn) else {
            continue;
        };
        let err = |message: String| RecordError {
            game: index + 1,
            message,
        };
        let toguz = crate::games::Variant::TOGUZ;
        if let Some(variant) = record.tag("Variant").filter(|v| *v != toguz.id()) {
            return Err(err(format!(
                "Variant '{}': the tuner fits {} games only",
                shorten(variant),
                toguz.id()
            )));
        }
        let start = match record.tag("FEN") {
            Some(fen) => AnyGame::from_position(fen).map_err(|e| err(format!("FEN: {e}")))?,
            None => AnyGame::start(toguz),
        };
        if start.variant() != toguz {
            return Err(err(format!("FEN: not a {} position", toguz.id())));
        }
        let mut line = GameLine::new(start);
        let mut positions = Vec::new();
        for token in &record.moves {
            if let AnyGame::Toguz(p) = line.position() {
                positions.push(*p);
            }
            line.play_token(token).map_err(|e| err(e.to_string()))?;
        }
        games.push(RecordedGame { positions, outcome });
    }
    Ok(games)
}

/// The quiet position at the end of the best capture sequence (stores difference only), the
/// position the evaluation is fitted on: a position in the middle of an exchange says little.
pub fn quiet(pos: &Toguz) -> Toguz {
    fn search(pos: &Toguz, mut alpha: i32, beta: i32, depth: u32) -> (i32, Toguz) {
        let me = pos.side_to_move();
        let stand = 100 * (pos.store(me) as i32 - pos.store(me.other()) as i32);
        if stand >= beta || depth == 0 || pos.final_result().is_some() {
            return (stand, *pos);
        }
        let mut best = (stand, *pos);
        alpha = alpha.max(stand);
        let mut moves = MoveList::new();
        pos.generate_moves(&mut moves);
        for &mv in moves.iter() {
            let mut child = *pos;
            if child.play(mv).captured == 0 {
                continue;
            }
            let (score, leaf) = search(&child, -beta, -alpha, depth - 1);
            if -score > best.0 {
                best = (-score, leaf);
                alpha = alpha.max(-score);
                if -score >= beta {
                    break;
                }
            }
        }
        best
    }
    search(pos, -1_000_000, 1_000_000, 6).1
}

/// Training samples from games: every position after the first `skip` plies, resolved to quiet.
pub fn samples(games: &[RecordedGame], skip: usize) -> Vec<Sample> {
    let mut out = Vec::new();
    for game in games {
        for pos in game.positions.iter().skip(skip) {
            let leaf = quiet(pos);
            if leaf.final_result().is_some() {
                continue;
            }
            let me = leaf.side_to_move();
            let result = game.outcome.points(me);
            let total = leaf.variant().total_stones() as f64;
            out.push(Sample {
                features: features(&leaf),
                base: 100 * (leaf.store(me) as i32 - leaf.store(me.other()) as i32),
                phase: leaf.board_stones() as f64 / total,
                result,
            });
        }
    }
    out
}

fn predict(s: &Sample, w: &[[f64; 2]; FEATURES], scale: f64) -> (f64, f64) {
    let mut eval = s.base as f64;
    for (&f, wi) in s.features.iter().zip(w) {
        eval += f as f64 * (wi[0] * s.phase + wi[1] * (1.0 - s.phase));
    }
    (eval, 1.0 / (1.0 + (-eval / scale).exp()))
}

/// Mean squared error of the predictions.
pub fn error(samples: &[Sample], w: &[[f64; 2]; FEATURES], scale: f64) -> f64 {
    samples
        .iter()
        .map(|s| (s.result - predict(s, w, scale).1).powi(2))
        .sum::<f64>()
        / samples.len().max(1) as f64
}

/// The logistic slope (centi-stones per unit of log-odds) that best fits the current weights.
pub fn fit_scale(samples: &[Sample], w: &[[f64; 2]; FEATURES]) -> f64 {
    let (mut lo, mut hi) = (50.0f64, 5000.0f64);
    for _ in 0..60 {
        let a = lo + (hi - lo) / 3.0;
        let b = hi - (hi - lo) / 3.0;
        if error(samples, w, a) < error(samples, w, b) {
            hi = b;
        } else {
            lo = a;
        }
    }
    (lo + hi) / 2.0
}

/// Fits the weights by Adam steps on the squared error; `report` sees each hundredth epoch.
pub fn fit(
    samples: &[Sample],
    start: &[[i32; 2]; FEATURES],
    epochs: usize,
    mut report: impl FnMut(usize, f64),
) -> ([[i32; 2]; FEATURES], f64) {
    let mut w = [[0f64; 2]; FEATURES];
    for i in 0..FEATURES {
        w[i] = [start[i][0] as f64, start[i][1] as f64];
    }
    let scale = fit_scale(samples, &w);
    let (mut m, mut v) = ([[0f64; 2]; FEATURES], [[0f64; 2]; FEATURES]);
    let (rate, b1, b2) = (2.0, 0.9, 0.999);
    for epoch in 1..=epochs {
        let mut grad = [[0f64; 2]; FEATURES];
        for s in samples {
            let (_, p) = predict(s, &w, scale);
            // d(error)/d(eval) for the logistic prediction.
            let g = -2.0 * (s.result - p) * p * (1.0 - p) / scale;
            for (&f, gi) in s.features.iter().zip(grad.iter_mut()) {
                gi[0] += g * f as f64 * s.phase;
                gi[1] += g * f as f64 * (1.0 - s.phase);
            }
        }
        for i in 0..FEATURES {
            for k in 0..2 {
                let g = grad[i][k] / samples.len() as f64;
                m[i][k] = b1 * m[i][k] + (1.0 - b1) * g;
                v[i][k] = b2 * v[i][k] + (1.0 - b2) * g * g;
                let mh = m[i][k] / (1.0 - b1.powi(epoch as i32));
                let vh = v[i][k] / (1.0 - b2.powi(epoch as i32));
                w[i][k] -= rate * mh / (vh.sqrt() + 1e-12);
            }
        }
        if epoch % 100 == 0 || epoch == epochs {
            report(epoch, error(samples, &w, scale));
        }
    }
    let mut out = [[0i32; 2]; FEATURES];
    for i in 0..FEATURES {
        out[i] = [w[i][0].round() as i32, w[i][1].round() as i32];
    }
    (out, scale)
}

/// The weights as a weight file (`name opening endgame` lines, read by [`parse_weights`]: the
/// engine's hidden option `EvalFile`).
pub fn weight_file(w: &[[i32; 2]; FEATURES]) -> String {
    let mut s = String::new();
    for i in 0..FEATURES {
        let _ = writeln!(s, "{} {} {}", FEATURE_NAMES[i], w[i][0], w[i][1]);
    }
    s
}

/// Reads a weight file: one `name opening endgame` line per term, in any order (`#` starts a
/// comment line); terms not named keep the engine's weights.
pub fn parse_weights(text: &str) -> Result<[[i32; 2]; FEATURES], String> {
    let mut w = super::toguz::WEIGHTS;
    for (number, line) in text.lines().enumerate() {
        let line = line.trim();
        if line.is_empty() || line.starts_with('#') {
            continue;
        }
        let at = |why: String| format!("line {}: '{}': {why}", number + 1, shorten(line));
        let parts: Vec<&str> = line.split_whitespace().collect();
        let [name, opening, endgame] = parts[..] else {
            return Err(at("expected: name opening endgame".into()));
        };
        let i = FEATURE_NAMES
            .iter()
            .position(|n| *n == name)
            .ok_or_else(|| {
                at(format!(
                    "unknown term '{}' (known: {})",
                    shorten(name),
                    FEATURE_NAMES.join(", ")
                ))
            })?;
        let num = |s: &str| {
            s.parse::<i32>()
                .map_err(|_| at(format!("'{}' is not an integer", shorten(s))))
        };
        w[i] = [num(opening)?, num(endgame)?];
    }
    Ok(w)
}

/// The weights as the Rust constant of `src/eval/toguz.rs`.
pub fn rust_constant(w: &[[i32; 2]; FEATURES]) -> String {
    let mut s = String::from("pub const WEIGHTS: [[i32; 2]; FEATURES] = [\n");
    for row in w {
        let _ = writeln!(s, "    [{}, {}],", row[0], row[1]);
    }
    s.push_str("];\n");
    s
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::games::Side;

    #[test]
    fn reads_playok_records() {
        let text = "[Event \"1\"]\n[Result \"0-1\"]\n\n1. 87(10) 87(10) 2. 22 99(22) 3.\n23 12(24) 0-1\n\n[Event \"2\"]\n\n1. 76(10) *\n";
        let games = read_pgn(text).unwrap();
        assert_eq!(games.len(), 1);
        assert_eq!(games[0].positions.len(), 6);
        assert_eq!(games[0].outcome, Outcome::Win(Side::North));
        assert!(read_pgn("1. 86 0-1").is_err());
    }

    #[test]
    fn reads_the_arenas_records_from_their_start() {
        let fen = "toguz-kumalak 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 -/- s 1";
        let text = format!(
            "[Result \"1-0\"]\n[Variant \"toguz-kumalak\"]\n[SetUp \"1\"]\n[FEN \"{fen}\"]\n\n1. 76(10) {{book}} 1-0\n"
        );
        let games = read_pgn(&text).unwrap();
        assert_eq!(games[0].positions.len(), 1);
        let other = "[Result \"1-0\"]\n[Variant \"bestemshe\"]\n\n1. 1 1-0\n";
        let Err(e) = read_pgn(other) else {
            panic!("a bestemshe game was read")
        };
        let e = e.to_string();
        assert!(e.contains("Variant 'bestemshe'"), "{e}");
    }

    #[test]
    fn quiet_positions_have_no_winning_capture_left_unanswered() {
        let start = Toguz::start(crate::games::Variant::TOGUZ);
        // From the start the mover captures 10 and the reply captures 10 back: quiet after both.
        let leaf = quiet(&start);
        assert_eq!(leaf.store(Side::South), leaf.store(Side::North));
    }
}
