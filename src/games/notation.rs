//! Position strings and move tokens: the one parser every front end uses.
//!
//! A position string is self-describing and round-trips exactly (see `protocol/notation.md`):
//!
//! ```text
//! toguz-kumalak 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 -/- s 1
//! giuthi 8,8,8,8,8,8,8,8/8,8,8,8,8,8,8,8 0/0 s 1
//! modiar 7,7,7/7,7,7 0/0 s 1
//! ```
//!
//! Layers: this module sits on the rules' bottom layer (`games::{types, variant, text, board}`:
//! sides, game ids, errors, the shared board) and below every game. It splits and checks the fields
//! every game shares, and hands a game the text of the fields only that game has (Toguz Kumalak's
//! tuzdiks), which the game parses and writes itself (`from_position` and `Display` in its file).

use std::fmt;

use crate::games::board::BoardState;
pub use crate::games::board::{next_fullmove, MAX_FULLMOVE};
pub use crate::games::text::{parse_number, shorten, MoveError, PositionError};
use crate::games::types::{Side, MAX_HOLES};
use crate::games::variant::{Variant, VariantError};

/// The shared fields of a position string, split and individually checked.
#[derive(Clone, Debug)]
pub struct PositionFields {
    /// The game id (first field).
    pub variant: Variant,
    /// Stones per hole, per side (South, North), each from its owner's hole 1.
    pub rows: [[u8; MAX_HOLES]; 2],
    /// Stones won so far, South's first.
    pub stores: [u32; 2],
    /// The side to move.
    pub side: Side,
    /// Full-move number (from 1).
    pub fullmove: u32,
}

/// The game id of a position string (its first field): which game is to parse the rest.
pub fn game_id(text: &str) -> Result<Variant, PositionError> {
    let id = text
        .split_ascii_whitespace()
        .next()
        .ok_or_else(|| PositionError::new("game id", "empty position"))?;
    id.parse()
        .map_err(|e: VariantError| PositionError::new("game id", e.to_string()))
}

impl PositionFields {
    /// Splits a position string and checks each shared field's syntax and range. `extra` names
    /// the game's own fields, which stand between the stores and the side to move; their text is
    /// returned unread, in order, for the game to parse.
    pub fn split<'t, const E: usize>(
        text: &'t str,
        extra: [&'static str; E],
    ) -> Result<(PositionFields, [&'t str; E]), PositionError> {
        // Counted up to a bound, so a hostile string of a million fields costs no more than eight.
        let cap = (E + 7).max(8);
        let fields: Vec<&str> = text.split_ascii_whitespace().take(cap).collect();
        let variant = game_id(text)?;
        let expected = 5 + E;
        if fields.len() != expected {
            let own: String = extra.iter().map(|name| format!(" {name},")).collect();
            return Err(PositionError::new(
                "position",
                format!(
                    "{variant} needs {expected} fields (id, holes, stores,{own} side, full-move), \
                     found {}",
                    if fields.len() == cap {
                        format!("more than {}", cap - 1)
                    } else {
                        fields.len().to_string()
                    }
                ),
            ));
        }
        let holes = variant.holes();
        let (south_row, north_row) = fields[1]
            .split_once('/')
            .ok_or_else(|| PositionError::new("holes", "expected <south holes>/<north holes>"))?;
        let mut rows = [[0u8; MAX_HOLES]; 2];
        for (side, text) in [(Side::South, south_row), (Side::North, north_row)] {
            let field = if side == Side::South {
                "south holes"
            } else {
                "north holes"
            };
            let mut count = 0;
            for part in text.split(',') {
                if count == holes {
                    return Err(PositionError::new(
                        field,
                        format!("more than {holes} holes"),
                    ));
                }
                let n: u32 = parse_number(part).ok_or_else(|| {
                    PositionError::new(field, format!("'{}' is not a stone count", shorten(part)))
                })?;
                if n > variant.total_stones() {
                    return Err(PositionError::new(
                        field,
                        format!("{n} stones in one hole exceeds the game's total"),
                    ));
                }
                rows[side.index()][count] = n as u8;
                count += 1;
            }
            if count != holes {
                return Err(PositionError::new(
                    field,
                    format!("{count} holes, {variant} has {holes}"),
                ));
            }
        }
        let stores = parse_pair(fields[2], "stores", |s| {
            parse_number(s).filter(|&n| n <= variant.total_stones())
        })?;
        let own = std::array::from_fn(|i| fields[3 + i]);
        let side = match fields[expected - 2] {
            "s" | "S" => Side::South,
            "n" | "N" => Side::North,
            other => {
                return Err(PositionError::new(
                    "side to move",
                    format!("'{}' is not s or n", shorten(other)),
                ))
            }
        };
        let fullmove = parse_number(fields[expected - 1])
            .filter(|&n| n >= 1)
            .ok_or_else(|| {
                PositionError::new(
                    "full-move number",
                    format!("'{}' is not a number >= 1", shorten(fields[expected - 1])),
                )
            })?;
        let fields = PositionFields {
            variant,
            rows,
            stores,
            side,
            fullmove,
        };
        Ok((fields, own))
    }

    /// The row of a side as a slice of the game's length.
    pub fn row(&self, side: Side) -> &[u8] {
        &self.rows[side.index()][..self.variant.holes()]
    }

    /// Checks that holes and stores add up to the game's total.
    pub fn check_total(&self) -> Result<(), PositionError> {
        let board: u32 = Side::BOTH
            .iter()
            .map(|&s| self.row(s).iter().map(|&n| n as u32).sum::<u32>())
            .sum();
        let sum = board + self.stores[0] + self.stores[1];
        let total = self.variant.total_stones();
        if sum != total {
            return Err(PositionError::new(
                "stones",
                format!(
                    "holes ({board}) and stores ({}+{}) add up to {sum}, {} has {total}",
                    self.stores[0], self.stores[1], self.variant
                ),
            ));
        }
        Ok(())
    }

    /// The board these fields describe. The caller checks first what its game requires of it
    /// ([`PositionFields::check_total`] and the game's own rules).
    pub fn board(&self) -> BoardState {
        let n = self.variant.holes();
        let mut board = BoardState::start(n, 0);
        for side in Side::BOTH {
            let offset = side.index() * n;
            board.ring[offset..offset + n].copy_from_slice(self.row(side));
            board.stores[side.index()] = self.stores[side.index()] as u16;
        }
        board.side = self.side;
        board.fullmove = self.fullmove;
        board
    }
}

/// Parses a `<south>/<north>` field with `parse` for each half, naming the half that is wrong.
pub fn parse_pair<T>(
    text: &str,
    field: &'static str,
    parse: impl Fn(&str) -> Option<T>,
) -> Result<[T; 2], PositionError> {
    let (a, b) = text.split_once('/').ok_or_else(|| {
        PositionError::new(
            field,
            format!("expected <south>/<north>, found '{}'", shorten(text)),
        )
    })?;
    let a = parse(a)
        .ok_or_else(|| PositionError::new(field, format!("bad south value '{}'", shorten(a))))?;
    let b = parse(b)
        .ok_or_else(|| PositionError::new(field, format!("bad north value '{}'", shorten(b))))?;
    Ok([a, b])
}

/// Writes a position string: the shared fields from `board`, and the game's own fields
/// (`extra`, already formatted) between the stores and the side to move.
pub fn write_position(
    f: &mut fmt::Formatter<'_>,
    variant: Variant,
    board: &BoardState,
    extra: &[&dyn fmt::Display],
) -> fmt::Result {
    write!(f, "{variant} ")?;
    for (i, side) in Side::BOTH.into_iter().enumerate() {
        if i == 1 {
            f.write_str("/")?;
        }
        for (j, n) in board.row(side).iter().enumerate() {
            if j > 0 {
                f.write_str(",")?;
            }
            write!(f, "{n}")?;
        }
    }
    write!(f, " {}/{}", board.stores[0], board.stores[1])?;
    for field in extra {
        write!(f, " {field}")?;
    }
    write!(f, " {} {}", board.side.letter(), board.fullmove)
}

/// Parses a plain hole-number token `1`..`holes` into a 0-based index.
pub fn parse_hole(token: &str, holes: usize) -> Result<usize, MoveError> {
    match parse_number(token) {
        Some(n) if n >= 1 && n as usize <= holes => Ok(n as usize - 1),
        Some(n) => Err(MoveError::malformed(
            token,
            format!("hole {n} is outside 1..{holes}"),
        )),
        None if token.len() > 1 && token.starts_with('0') => Err(MoveError::malformed(
            token,
            format!("hole numbers are written without a leading zero (1..{holes})"),
        )),
        None => Err(MoveError::malformed(
            token,
            format!("expected a hole number 1..{holes}"),
        )),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn splits_a_toguz_start() {
        let text = "toguz-kumalak 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 -/- s 1";
        let (f, [tuzdiks]) = PositionFields::split(text, ["tuzdiks"]).unwrap();
        assert_eq!(tuzdiks, "-/-");
        assert_eq!(f.variant, Variant::TOGUZ);
        assert_eq!(f.row(Side::North), &[9; 9]);
        assert_eq!(f.side, Side::South);
        f.check_total().unwrap();
    }

    #[test]
    fn names_the_bad_field() {
        let cases = [
            ("", "game id"),
            ("chess 1/1 0/0 s 1", "game id"),
            ("modiar 7,7,7/7,7 0/0 s 1", "north holes"),
            ("modiar 7,7,7,7/7,7,7 0/0 s 1", "south holes"),
            ("modiar 7,x,7/7,7,7 0/0 s 1", "south holes"),
            ("modiar 7,7,7/7,7,7 0-0 s 1", "stores"),
            ("modiar 7,7,7/7,7,7 0/0 w 1", "side to move"),
            ("modiar 7,7,7/7,7,7 0/0 s 0", "full-move number"),
            ("modiar 7,7,7/7,7,7 0/0 s", "position"),
        ];
        // (A bad tuzdik field is Toguz Kumalak's to name: see games::toguz's tests.)
        for (text, field) in cases {
            let err = PositionFields::split(text, []).unwrap_err();
            assert_eq!(err.field, field, "{text}: {err}");
        }
    }

    #[test]
    fn numbers_have_one_spelling() {
        assert_eq!(parse_number("0"), Some(0));
        assert_eq!(parse_number("10"), Some(10));
        assert_eq!(parse_number("999999999"), Some(MAX_FULLMOVE));
        for bad in ["", "01", "00", "001", "+1", "-1", " 1", "1a", "1000000000"] {
            assert_eq!(parse_number(bad), None, "{bad}");
        }
        let err = parse_hole("01", 9).unwrap_err().to_string();
        assert!(err.contains("without a leading zero"), "{err}");
        assert!(PositionFields::split("modiar 7,7,7/7,7,7 0/0 s 01", []).is_err());
        assert!(PositionFields::split("modiar 07,7,7/7,7,7 0/0 s 1", []).is_err());
        assert_eq!(next_fullmove(1), 2);
        assert_eq!(next_fullmove(MAX_FULLMOVE), MAX_FULLMOVE);
        assert_eq!(next_fullmove(u32::MAX), MAX_FULLMOVE);
    }

    #[test]
    fn long_tokens_are_shortened_in_errors() {
        let long = "9".repeat(100_000);
        let err = parse_hole(&long, 9).unwrap_err();
        assert!(err.to_string().len() < 120);
    }
}
