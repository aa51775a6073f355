//! Giuthi rules: placeholder until the rules issue lands.

use std::fmt;

use super::{Final, Game, Move, MoveEffect, MoveList, Side, Variant};
use crate::notation::{MoveError, PositionError, PositionFields};

/// A Giuthi position (not yet implemented).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Giuthi {
    variant: Variant,
}

impl Giuthi {
    pub fn start(variant: Variant) -> Giuthi {
        Giuthi { variant }
    }

    pub fn from_fields(f: &PositionFields) -> Result<Giuthi, PositionError> {
        Err(PositionError::new(
            "game id",
            format!("{} is not implemented yet", f.variant),
        ))
    }
}

impl Game for Giuthi {
    fn variant(&self) -> Variant {
        self.variant
    }
    fn side_to_move(&self) -> Side {
        Side::South
    }
    fn fullmove(&self) -> u32 {
        1
    }
    fn row(&self, _side: Side) -> &[u8] {
        &[]
    }
    fn store(&self, _side: Side) -> u32 {
        0
    }
    fn generate_moves(&self, _moves: &mut MoveList) {}
    fn play(&mut self, _mv: Move) -> MoveEffect {
        unimplemented!()
    }
    fn final_result(&self) -> Option<Final> {
        None
    }
    fn hash(&self) -> u64 {
        0
    }
    fn repetition_limit(&self) -> usize {
        3
    }
    fn repetition_final(&self) -> Final {
        unimplemented!()
    }
    fn parse_move(&self, token: &str) -> Result<Move, MoveError> {
        Err(MoveError::malformed(token, "not implemented"))
    }
    fn move_name(&self, mv: Move) -> String {
        format!("{}", mv.index() + 1)
    }
}

impl fmt::Display for Giuthi {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.variant)
    }
}
