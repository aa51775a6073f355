//! The [`Game`] trait: the rules of one game, as the search, the UGI front end and the referee
//! see them.
//!
//! Layer: above the bottom vocabulary ([`super::types`], [`super::variant`], [`super::board`]) and
//! the notation's errors; below the game files, which implement it, and [`super::AnyGame`].

use std::fmt;

use super::board::BoardState;
use super::text::MoveError;
use super::types::{Final, Move, MoveEffect, MoveList, Side};
use super::variant::Variant;

/// The rules of one game. Implementations are small `Copy`-cheap values (a few dozen bytes), so
/// search uses copy-make and the referee can keep every position of a game.
pub trait Game: Clone + PartialEq + Eq + fmt::Debug + fmt::Display + Send + Sync + 'static {
    /// The game and board size.
    fn variant(&self) -> Variant;

    /// The board this position embeds: ring, stores, side to move, full-move number. The
    /// accessors below read it, so every game has them from this one method.
    fn state(&self) -> &BoardState;

    /// Holes per row.
    #[inline]
    fn holes(&self) -> usize {
        self.state().n()
    }

    /// The side to move.
    #[inline]
    fn side_to_move(&self) -> Side {
        self.state().side
    }

    /// Full-move number of the position string (starts at 1, grows after North's move).
    #[inline]
    fn fullmove(&self) -> u32 {
        self.state().fullmove
    }

    /// The stones in a player's holes, from their own hole 1.
    #[inline]
    fn row(&self, side: Side) -> &[u8] {
        self.state().row(side)
    }

    /// Stones a player has captured so far (store or pile).
    #[inline]
    fn store(&self, side: Side) -> u32 {
        self.state().store(side)
    }

    /// Appends every legal move; none when the game is over by the position alone.
    fn generate_moves(&self, moves: &mut MoveList);

    /// How many moves [`Game::generate_moves`] would append. Perft counts its last ply with this
    /// (bulk counting), so a game that can count without listing (Toguz Kumalak: the non-empty
    /// holes of the side to move) overrides it.
    #[inline]
    fn move_count(&self) -> usize {
        self.legal_moves().len()
    }

    /// Plays a move known to be legal (from [`Game::generate_moves`]). Playing anything else is a
    /// logic error: it may panic or produce an inconsistent position.
    fn play(&mut self, mv: Move) -> MoveEffect;

    /// The end of the game as decided by this position alone, ignoring repetition (which needs
    /// the history: see [`super::GameLine`]).
    fn final_result(&self) -> Option<Final>;

    /// A 64-bit key of everything that decides the rest of the game (holes, stores, side to move,
    /// and the game's own fields such as Toguz Kumalak's tuzdiks or Modiar's first-move rule): the
    /// transposition-table key.
    fn hash(&self) -> u64;

    /// The key the game's repetition rule compares (for Giuthi, holes and side to move only).
    fn repetition_key(&self) -> u64 {
        self.hash()
    }

    /// How many occurrences of the same position end the game (3 = on the third).
    fn repetition_limit(&self) -> usize;

    /// The result when the repetition rule ends the game in this position.
    fn repetition_final(&self) -> Final;

    /// Parses a move token in any notation the game accepts, checking it against this position.
    fn parse_move(&self, token: &str) -> Result<Move, MoveError>;

    /// The protocol name of a move (`5`, `3a`, `pass`).
    fn move_name(&self, mv: Move) -> String;

    /// The game-record name of a move played from this position (federation notation for Toguz
    /// Kumalak, e.g. `76` or `36x`); defaults to the protocol name.
    fn record_name(&self, mv: Move) -> String {
        self.move_name(mv)
    }

    /// What a move played from this position does that only this game has a word for, for
    /// people (`otau play`): Toguz Kumalak's "makes a tuzdik". Captures and extra moves are in
    /// [`MoveEffect`] already.
    fn move_note(&self, _mv: Move) -> Option<&'static str> {
        None
    }

    /// The word for what a player has won, on the drawn board ([`super::render`]).
    fn store_word(&self) -> &'static str {
        "captured"
    }

    /// A hole as the drawn board shows it: its stone count unless the game marks it.
    fn hole_text(&self, side: Side, index: usize) -> String {
        self.row(side)[index].to_string()
    }

    /// Lines the drawn board adds under the holes for this game's own fields (each ends with a
    /// newline); with `names`, also the traditional hole names where the game has them.
    fn board_notes(&self, _names: bool) -> String {
        String::new()
    }

    /// Legal moves as a fresh list (convenience for non-hot code).
    fn legal_moves(&self) -> MoveList {
        let mut list = MoveList::new();
        self.generate_moves(&mut list);
        list
    }

    /// Whether `mv` is among the legal moves; builds the list, so not for the search's inner loop.
    fn is_legal(&self, mv: Move) -> bool {
        self.legal_moves().contains(mv)
    }

    /// Stones still on the board.
    fn board_stones(&self) -> u32 {
        Side::BOTH
            .iter()
            .map(|&s| self.row(s).iter().map(|&n| n as u32).sum::<u32>())
            .sum()
    }
}
