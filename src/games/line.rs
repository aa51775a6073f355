//! A game as played: start position, moves, and the history the repetition rules need.
//!
//! The referee, the engine's `position` command and `otau play` all keep a [`GameLine`], so a game
//! ends at exactly the same ply wherever it is played.

use std::fmt;

use super::game::Game;
use super::text::MoveError;
use super::types::{Final, Move, MoveEffect, Side};

/// A move rejected by the referee.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum IllegalMove {
    /// The game is already over.
    GameOver(Final),
    /// The token could not be read or names an illegal move.
    Move(MoveError),
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            IllegalMove::GameOver(fin) => write!(
                f,
                "the game is over ({} {}-{}, {:?})",
                fin.outcome.ugi(),
                fin.south,
                fin.north,
                fin.reason
            ),
            IllegalMove::Move(e) => e.fmt(f),
        }
    }
}

impl std::error::Error for IllegalMove {}

impl From<MoveError> for IllegalMove {
    fn from(e: MoveError) -> Self {
        IllegalMove::Move(e)
    }
}

/// A game from a start position, with every move and repetition key so far.
#[derive(Clone, Debug)]
pub struct GameLine<G: Game> {
    start: G,
    position: G,
    moves: Vec<Move>,
    /// Repetition keys of every position of the game, the start included.
    keys: Vec<u64>,
    result: Option<Final>,
}

impl<G: Game> GameLine<G> {
    /// A line with no moves yet; `start` may already be over (its result is kept).
    pub fn new(start: G) -> Self {
        let key = start.repetition_key();
        let result = start.final_result();
        GameLine {
            position: start.clone(),
            start,
            moves: Vec::new(),
            keys: vec![key],
            result,
        }
    }

    /// The position the line started from.
    pub fn start(&self) -> &G {
        &self.start
    }

    /// The position after every move so far.
    pub fn position(&self) -> &G {
        &self.position
    }

    /// The moves played from the start, in order.
    pub fn moves(&self) -> &[Move] {
        &self.moves
    }

    /// Repetition keys of the positions so far, the current one last.
    pub fn keys(&self) -> &[u64] {
        &self.keys
    }

    /// The result, once the game has ended by its rules (repetition included).
    pub fn result(&self) -> Option<Final> {
        self.result
    }

    /// Whether the game has ended: no move can be played.
    pub fn is_over(&self) -> bool {
        self.result.is_some()
    }

    /// Plays a move after checking it is legal and the game is not over.
    pub fn play(&mut self, mv: Move) -> Result<MoveEffect, IllegalMove> {
        if let Some(fin) = self.result {
            return Err(IllegalMove::GameOver(fin));
        }
        if !self.position.is_legal(mv) {
            let name = self.position.move_name(mv);
            return Err(MoveError::illegal(&name, "not a legal move in this position").into());
        }
        Ok(self.play_unchecked(mv))
    }

    /// Parses a token against the current position and plays it.
    pub fn play_token(&mut self, token: &str) -> Result<(Move, MoveEffect), IllegalMove> {
        if let Some(fin) = self.result {
            return Err(IllegalMove::GameOver(fin));
        }
        let mv = self.position.parse_move(token)?;
        Ok((mv, self.play_unchecked(mv)))
    }

    fn play_unchecked(&mut self, mv: Move) -> MoveEffect {
        let effect = self.position.play(mv);
        self.moves.push(mv);
        let key = self.position.repetition_key();
        self.keys.push(key);
        self.result = self.position.final_result().or_else(|| {
            let seen = self.keys.iter().filter(|&&k| k == key).count();
            (seen >= self.position.repetition_limit()).then(|| self.position.repetition_final())
        });
        effect
    }

    /// The moves as protocol tokens, from the start.
    pub fn move_names(&self) -> Vec<String> {
        move_names(&self.start, &self.moves)
    }

    /// Takes back the last move (replaying from the start: undo is rare, replay is exact).
    pub fn undo(&mut self) -> Option<Move> {
        let last = self.moves.pop()?;
        let moves = std::mem::take(&mut self.moves);
        *self = GameLine::new(self.start.clone());
        for mv in moves {
            self.play_unchecked(mv);
        }
        Some(last)
    }
}

/// Names `moves` from `pos` as protocol tokens, stopping at the first move that is not legal
/// there: a search's PV must never be able to make a front end print nonsense or panic.
pub fn move_names<G: Game>(pos: &G, moves: &[Move]) -> Vec<String> {
    let mut pos = pos.clone();
    let mut names = Vec::with_capacity(moves.len());
    for &mv in moves {
        if pos.final_result().is_some() || !pos.is_legal(mv) {
            break;
        }
        names.push(pos.move_name(mv));
        pos.play(mv);
    }
    names
}

/// `moves` from `pos` numbered like a game record: " 1. 3 2  2. 3 2", or " 5... 2" when North
/// starts.
pub fn numbered<G: Game + Copy>(pos: &G, moves: &[Move]) -> String {
    let mut pv = String::new();
    let mut p = *pos;
    for (i, &mv) in moves.iter().enumerate() {
        if p.side_to_move() == Side::South {
            pv += &format!(" {}. {}", p.fullmove(), p.move_name(mv));
        } else if i == 0 {
            pv += &format!(" {}... {}", p.fullmove(), p.move_name(mv));
        } else {
            pv += &format!(" {}", p.move_name(mv));
        }
        p.play(mv);
    }
    pv
}
