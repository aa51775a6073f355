//! Text primitives below the notation: the errors that name what was read wrong, the shortened
//! echo of hostile input, and the one spelling of a number. Game ids ([`super::Variant`]), the
//! position-string notation ([`crate::games::notation`]) and every game's move parser use them; this file
//! imports nothing of the crate.

use std::fmt;

/// A position string that could not be read: which field, and what was wrong with it.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct PositionError {
    /// The name of the field that was wrong, as the messages spell it.
    pub field: &'static str,
    /// What was wrong with it.
    pub message: String,
}

impl PositionError {
    /// An error in `field`, explained by `message`.
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
    Malformed {
        /// The token as read, shortened.
        token: String,
        /// What is wrong with it.
        why: String,
    },
    /// The token names a move that is not legal in this position.
    Illegal {
        /// The token as read, shortened.
        token: String,
        /// Why the move is not legal.
        why: String,
    },
}

impl MoveError {
    /// A token that is not a move; the token is shortened for the message.
    pub fn malformed(token: &str, why: impl Into<String>) -> Self {
        MoveError::Malformed {
            token: shorten(token),
            why: why.into(),
        }
    }

    /// A move that is not legal here; the token is shortened for the message.
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
