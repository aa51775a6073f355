//! The rules of every game otau plays, behind one [`Game`] trait.
//!
//! The engine's search, the UGI front end and the arena referee all run this very code: a rule
//! exists in exactly one place. The search stays generic and monomorphised per game for speed;
//! [`AnyGame`] lets protocol and arena code handle a position without knowing its game at compile
//! time.
//!
//! Layers, each importing only from those below it (README, "Architecture"):
//!
//! 1. vocabulary: [`types`] (sides, moves, move lists, results, what a move did), [`variant`]
//!    (game ids), [`text`] (errors, number spelling), [`board`] (the [`BoardState`] every game
//!    embeds);
//! 2. [`notation`]: position strings and move-token helpers;
//! 3. [`game`]: the [`Game`] trait, its shared accessors written once over [`Game::state`];
//! 4. one file a game ([`toguz`], [`giuthi`], [`modiar`]): its rules, its own fields, and how it
//!    reads and writes them; [`render`] and [`line`] work on any [`Game`];
//! 5. this file: the registration list ([`AnyGame`], [`with_game!`], `by_variant!`) and the
//!    re-exports other code imports (`crate::games::{Side, Move, Outcome, Variant, ...}`).

pub mod board;
pub mod game;
pub mod giuthi;
pub mod line;
pub mod modiar;
pub mod notation;
pub mod render;
pub mod text;
pub mod toguz;
pub mod types;
pub mod variant;

use std::fmt;

pub use board::BoardState;
pub use game::Game;
pub use giuthi::Giuthi;
pub use line::{move_names, numbered, GameLine, IllegalMove};
pub use modiar::Modiar;
pub use toguz::Toguz;
pub use types::{
    mix64, Direction, EndReason, Final, Move, MoveEffect, MoveList, Outcome, Side, MAX_HOLES,
    MAX_RING,
};
pub use variant::{Variant, VariantError};

use text::{MoveError, PositionError};

// The registration list: every game otau plays, one line a game in the enum and one arm in each
// of `with_game!` (a match on `AnyGame`) and `by_variant!` (a match on `Variant`). The compiler
// checks both matches for completeness, so a game added to `Variant` or `AnyGame` and missed in
// the other does not build.

/// A position of any game: what protocol and arena code hold. Each method dispatches to the game's
/// own implementation.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum AnyGame {
    /// Toguz Kumalak on any of its board sizes (Bestemshe included).
    Toguz(Toguz),
    /// Giuthi on any of its board sizes.
    Giuthi(Giuthi),
    /// Modiar.
    Modiar(Modiar),
}

/// Runs `$body` with `$g` bound to the concrete position inside an [`AnyGame`], so generic code
/// (search, perft) is instantiated per game.
#[macro_export]
macro_rules! with_game {
    ($any:expr, $g:ident => $body:expr) => {
        match $any {
            $crate::games::AnyGame::Toguz($g) => $body,
            $crate::games::AnyGame::Giuthi($g) => $body,
            $crate::games::AnyGame::Modiar($g) => $body,
        }
    };
}

/// Runs `$body` with the type `$G` set to the game of `$variant` and wraps the result, a `$G`, in
/// its [`AnyGame`] case.
macro_rules! by_variant {
    ($variant:expr, $G:ident => $body:expr) => {
        match $variant {
            Variant::Toguz { .. } => {
                type $G = Toguz;
                AnyGame::Toguz($body)
            }
            Variant::Giuthi { .. } => {
                type $G = Giuthi;
                AnyGame::Giuthi($body)
            }
            Variant::Modiar => {
                type $G = Modiar;
                AnyGame::Modiar($body)
            }
        }
    };
}

impl AnyGame {
    /// The start position of a game.
    pub fn start(variant: Variant) -> AnyGame {
        by_variant!(variant, G => G::start(variant))
    }

    /// Parses a position string of any game: its first field names the game, which reads the
    /// rest (its own fields included).
    pub fn from_position(text: &str) -> Result<AnyGame, PositionError> {
        Ok(by_variant!(crate::games::notation::game_id(text)?, G => G::from_position(text)?))
    }
}

impl std::str::FromStr for AnyGame {
    type Err = PositionError;
    fn from_str(s: &str) -> Result<Self, Self::Err> {
        AnyGame::from_position(s)
    }
}

impl fmt::Display for AnyGame {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        with_game!(self, g => fmt::Display::fmt(g, f))
    }
}

impl Game for AnyGame {
    fn variant(&self) -> Variant {
        with_game!(self, g => g.variant())
    }
    fn state(&self) -> &BoardState {
        with_game!(self, g => g.state())
    }
    fn generate_moves(&self, moves: &mut MoveList) {
        with_game!(self, g => g.generate_moves(moves))
    }
    fn move_count(&self) -> usize {
        with_game!(self, g => g.move_count())
    }
    fn play(&mut self, mv: Move) -> MoveEffect {
        with_game!(self, g => g.play(mv))
    }
    fn final_result(&self) -> Option<Final> {
        with_game!(self, g => g.final_result())
    }
    fn hash(&self) -> u64 {
        with_game!(self, g => g.hash())
    }
    fn repetition_key(&self) -> u64 {
        with_game!(self, g => g.repetition_key())
    }
    fn repetition_limit(&self) -> usize {
        with_game!(self, g => g.repetition_limit())
    }
    fn repetition_final(&self) -> Final {
        with_game!(self, g => g.repetition_final())
    }
    fn parse_move(&self, token: &str) -> Result<Move, MoveError> {
        with_game!(self, g => g.parse_move(token))
    }
    fn move_name(&self, mv: Move) -> String {
        with_game!(self, g => g.move_name(mv))
    }
    fn record_name(&self, mv: Move) -> String {
        with_game!(self, g => g.record_name(mv))
    }
    fn move_note(&self, mv: Move) -> Option<&'static str> {
        with_game!(self, g => g.move_note(mv))
    }
    fn store_word(&self) -> &'static str {
        with_game!(self, g => g.store_word())
    }
    fn hole_text(&self, side: Side, index: usize) -> String {
        with_game!(self, g => g.hole_text(side, index))
    }
    fn board_notes(&self, names: bool) -> String {
        with_game!(self, g => g.board_notes(names))
    }
}
