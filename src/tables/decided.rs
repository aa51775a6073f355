//! A result decided without playing on (by the end of the game, a table's bounds or a proof),
//! from one side's view: what the tables, the proof search and its verifier, the search's table
//! scores and the arena's adjudication all speak of, decoded here once.

use std::fmt;

use crate::games::{Final, Outcome, Side};

/// A win, draw or loss for one side (the side to move, unless said otherwise), ordered from that
/// side's worst to its best.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Decided {
    /// The side loses with best play.
    Loss,
    /// Neither side can force a win.
    Draw,
    /// The side wins with best play.
    Win,
}

impl Decided {
    /// How a finished game ended, for `side`.
    pub fn of_final(fin: &Final, side: Side) -> Decided {
        match fin.outcome {
            Outcome::Win(s) if s == side => Decided::Win,
            Outcome::Win(_) => Decided::Loss,
            Outcome::Draw => Decided::Draw,
        }
    }

    /// What bounds on a side's final margin (its final total minus the opponent's) decide: a
    /// win when it can force a margin above 0 (`low`), a loss when the opponent holds it below
    /// 0 (`high`), a draw when the bounds meet (at 0, then); None when they leave the result
    /// open.
    pub fn by_margins(low: i32, high: i32) -> Option<Decided> {
        if low > 0 {
            Some(Decided::Win)
        } else if high < 0 {
            Some(Decided::Loss)
        } else if low == high {
            Some(Decided::Draw)
        } else {
            None
        }
    }

    /// The same result from the other side's view.
    pub fn for_other(self) -> Decided {
        match self {
            Decided::Win => Decided::Loss,
            Decided::Draw => Decided::Draw,
            Decided::Loss => Decided::Win,
        }
    }

    /// The game's outcome when `side` has this result.
    pub fn outcome(self, side: Side) -> Outcome {
        match self {
            Decided::Win => Outcome::Win(side),
            Decided::Draw => Outcome::Draw,
            Decided::Loss => Outcome::Win(side.other()),
        }
    }

    /// 1, 0 or -1: the sign of a score that says this result.
    pub fn sign(self) -> i32 {
        match self {
            Decided::Win => 1,
            Decided::Draw => 0,
            Decided::Loss => -1,
        }
    }

    /// `win`, `draw` or `loss`, as the solve commands print a value.
    pub fn word(self) -> &'static str {
        match self {
            Decided::Win => "win",
            Decided::Draw => "draw",
            Decided::Loss => "loss",
        }
    }
}

/// `won`, `drawn` or `lost`: "a position decided won".
impl fmt::Display for Decided {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Decided::Win => "won",
            Decided::Draw => "drawn",
            Decided::Loss => "lost",
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn margins_decide_as_the_tables_read_them() {
        assert_eq!(Decided::by_margins(1, 5), Some(Decided::Win));
        assert_eq!(Decided::by_margins(-5, -1), Some(Decided::Loss));
        assert_eq!(Decided::by_margins(0, 0), Some(Decided::Draw));
        assert_eq!(Decided::by_margins(0, 2), None);
        assert_eq!(Decided::by_margins(-2, 0), None);
        for d in [Decided::Win, Decided::Draw, Decided::Loss] {
            assert_eq!(d.for_other().for_other(), d);
            assert_eq!(d.for_other().sign(), -d.sign());
            for side in Side::BOTH {
                assert_eq!(d.outcome(side), d.for_other().outcome(side.other()));
            }
        }
        assert!(Decided::Loss < Decided::Draw && Decided::Draw < Decided::Win);
    }
}
