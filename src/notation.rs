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
//! This module splits and checks the fields every game shares; each game then checks what only it
//! knows (totals, tuzdik placement) in its `from_fields`.

use std::fmt;

use crate::games::{Side, Variant, MAX_HOLES};

/// A position string that could not be read: which field, and what was wrong with it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PositionError {
    pub field: &'static str,
    pub message: String,
}

impl PositionError {
    pub fn new(field: &'static str, message: impl Into<String>) -> Self {
        PositionError {
            field,
            message: message.into(),
        }
    }
}

impl fmt::Display for PositionError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "bad position: {} field: {}", self.field, self.message)
    }
}

impl std::error::Error for PositionError {}

/// A move token that is malformed or not legal here.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum MoveError {
    /// The token is not a move in any notation of this game.
    Malformed { token: String, why: String },
    /// The token names a move that is not legal in this position.
    Illegal { token: String, why: String },
}

impl MoveError {
    pub fn malformed(token: &str, why: impl Into<String>) -> Self {
        MoveError::Malformed {
            token: shorten(token),
            why: why.into(),
        }
    }

    pub fn illegal(token: &str, why: impl Into<String>) -> Self {
        MoveError::Illegal {
            token: shorten(token),
            why: why.into(),
        }
    }
}

/// Tokens echoed in error messages are cut, so a hostile multi-megabyte token cannot turn one
/// error line into megabytes of output.
pub fn shorten(token: &str) -> String {
    const MAX: usize = 40;
    if token.len() <= MAX {
        token.to_string()
    } else {
        let mut end = MAX;
        while !token.is_char_boundary(end) {
            end -= 1;
        }
        format!("{}...", &token[..end])
    }
}

impl fmt::Display for MoveError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            MoveError::Malformed { token, why } => write!(f, "malformed move '{token}': {why}"),
            MoveError::Illegal { token, why } => write!(f, "illegal move '{token}': {why}"),
        }
    }
}

impl std::error::Error for MoveError {}

/// The fields of a position string, split and individually checked.
#[derive(Clone, Debug)]
pub struct PositionFields {
    pub variant: Variant,
    /// Stones per hole, per side (South, North), each from its owner's hole 1.
    pub rows: [[u8; MAX_HOLES]; 2],
    pub stores: [u32; 2],
    /// Tuzdik hole numbers (1-based, on the opponent's row) of South and North: present only in
    /// games with tuzdiks.
    pub tuzdiks: [Option<u8>; 2],
    pub side: Side,
    pub fullmove: u32,
}

impl PositionFields {
    /// Splits a position string and checks each field's syntax and range.
    pub fn split(text: &str) -> Result<PositionFields, PositionError> {
        let fields: Vec<&str> = text.split_ascii_whitespace().take(8).collect();
        let id = fields
            .first()
            .ok_or_else(|| PositionError::new("game id", "empty position"))?;
        let variant: Variant = id.parse().map_err(|e: crate::games::VariantError| {
            PositionError::new("game id", e.to_string())
        })?;
        let expected = if variant.has_tuzdik() || variant.family() == crate::games::Family::Toguz {
            6
        } else {
            5
        };
        if fields.len() != expected {
            return Err(PositionError::new(
                "position",
                format!(
                    "{} needs {expected} fields (id, holes, stores,{} side, full-move), found {}",
                    variant,
                    if expected == 6 { " tuzdiks," } else { "" },
                    if fields.len() == 8 {
                        "more than 7".to_string()
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
        let mut tuzdiks = [None, None];
        if expected == 6 {
            tuzdiks = parse_pair(fields[3], "tuzdiks", |s| {
                if s == "-" {
                    Some(None)
                } else {
                    parse_number(s)
                        .filter(|&n| n >= 1 && n as usize <= holes)
                        .map(|n| Some(n as u8))
                }
            })?;
        }
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
        Ok(PositionFields {
            variant,
            rows,
            stores,
            tuzdiks,
            side,
            fullmove,
        })
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
}

/// The largest full-move number: the most a field of 9 digits holds. A position there stays
/// there (the number no longer grows), so every position a game reaches prints a number its
/// parser reads back.
pub const MAX_FULLMOVE: u32 = 999_999_999;

/// The full-move number after a North move: one more, up to [`MAX_FULLMOVE`].
pub fn next_fullmove(n: u32) -> u32 {
    n.saturating_add(1).min(MAX_FULLMOVE)
}

/// A plain decimal number of at most 9 digits, as otau writes numbers: no sign, no spaces, no
/// leading zero (`0` itself is fine). One rule for every number of every game, stone counts,
/// hole numbers and move numbers alike, so each number has one spelling and what is read prints
/// back the same.
pub fn parse_number(s: &str) -> Option<u32> {
    let b = s.as_bytes();
    if b.is_empty()
        || b.len() > 9
        || !b.iter().all(u8::is_ascii_digit)
        || (b[0] == b'0' && b.len() > 1)
    {
        return None;
    }
    s.parse().ok()
}

fn parse_pair<T>(
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

/// Writes the shared fields of a position string; `tuzdiks` is written when given.
pub fn write_position(
    f: &mut fmt::Formatter<'_>,
    variant: Variant,
    rows: [&[u8]; 2],
    stores: [u32; 2],
    tuzdiks: Option<[Option<u8>; 2]>,
    side: Side,
    fullmove: u32,
) -> fmt::Result {
    write!(f, "{variant} ")?;
    for (i, row) in rows.iter().enumerate() {
        if i == 1 {
            f.write_str("/")?;
        }
        for (j, n) in row.iter().enumerate() {
            if j > 0 {
                f.write_str(",")?;
            }
            write!(f, "{n}")?;
        }
    }
    write!(f, " {}/{}", stores[0], stores[1])?;
    if let Some(t) = tuzdiks {
        let show = |x: Option<u8>| x.map_or("-".to_string(), |h| h.to_string());
        write!(f, " {}/{}", show(t[0]), show(t[1]))?;
    }
    write!(f, " {} {}", side.letter(), fullmove)
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
        let f =
            PositionFields::split("toguz-kumalak 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 -/- s 1")
                .unwrap();
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
            (
                "toguz-kumalak 9,9,9,9,9,9,9,9,9/9,9,9,9,9,9,9,9,9 0/0 -/10 s 1",
                "tuzdiks",
            ),
        ];
        for (text, field) in cases {
            let err = PositionFields::split(text).unwrap_err();
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
        assert!(PositionFields::split("modiar 7,7,7/7,7,7 0/0 s 01").is_err());
        assert!(PositionFields::split("modiar 07,7,7/7,7,7 0/0 s 1").is_err());
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
