//! Swiss pairings by the FIDE Dutch system, handbook C.04.3 in the edition approved in 2025
//! (in force from 2026), the edition bbpPairings 6 implements and checks.
//!
//! - [`Tournament`]: what a round's pairing reads (each player's rounds: opponent, colour,
//!   result, whether the game was played, whether the player was paired), as a FIDE Tournament
//!   Report File holds it ([`trf`] reads and writes TRF-2016 with the TRF-2026 bye codes);
//! - [`pair_round`]: the next round's pairs and bye, or [`PairingError::NoValidPairing`] when
//!   no pairing satisfies the absolute criteria;
//! - [`SwissRun`]: `--tournament swiss` as the arena's `Pairing` (a round's games, then the
//!   next round paired from the results), [`standings`] its standings, tie-breaks and
//!   crosstable;
//! - `dutch`: the procedure, bracket by bracket from the top score group down, each decision a
//!   maximum-weight matching over all the round's players (`matching`) whose edge weights
//!   (`criteria`) hold the Dutch criteria as fields of one large integer (`weight`), the most
//!   important highest: the absolute criteria and the completion of the round first, then the
//!   pairs and scores paired in the bracket, the bye assignee's unplayed games, colours, floats,
//!   and last the order of the transpositions and exchanges.
//!
//! The weighted-matching formulation, the layout of the criteria in the weights and the
//! bracket-by-bracket finalisation follow bbpPairings by Jeremy Bierema (Apache-2.0), the
//! FIDE-endorsed program these pairings are checked against (`tests/data/swiss/README.md`).

pub mod checks;
mod criteria;
mod dutch;
mod matching;
pub mod run;
pub mod standings;
pub mod trf;
mod weight;

pub use checks::{check_shard, check_values};
pub use dutch::pair_round;
pub use run::{Rules, SwissRun};

/// A side: White moves first.
#[derive(Clone, Copy, PartialEq, Eq, Debug, Hash)]
pub enum Colour {
    /// Moves first.
    White,
    /// Moves second.
    Black,
}

impl Colour {
    /// The other colour.
    pub fn flip(self) -> Colour {
        match self {
            Colour::White => Colour::Black,
            Colour::Black => Colour::White,
        }
    }
}

/// A player's result in a round, as the TRF scores it.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Score {
    /// A win: over the board, by forfeit, or the pairing-allocated bye.
    Win,
    /// A draw.
    Draw,
    /// A loss: over the board, by forfeit, or a round not paired.
    Loss,
}

/// One round of a player's history.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Round {
    /// The opponent's index in [`Tournament::players`]; None for a bye or an absence.
    pub opponent: Option<usize>,
    /// The colour played; None when no game was played.
    pub colour: Option<Colour>,
    /// The round's result for this player.
    pub score: Score,
    /// The game was played over the board (not a forfeit, bye or absence).
    pub played: bool,
    /// The player took part in the round's pairing: a game (played or forfeited) or the
    /// pairing-allocated bye. An absence, requested bye or zero-point bye is not paired.
    pub paired: bool,
}

impl Round {
    /// Not paired in the round (absent, or a requested bye scored `score`).
    pub fn absent(score: Score) -> Round {
        Round {
            opponent: None,
            colour: None,
            score,
            played: false,
            paired: false,
        }
    }

    /// The pairing-allocated bye.
    pub fn pairing_bye() -> Round {
        Round {
            opponent: None,
            colour: None,
            score: Score::Win,
            played: false,
            paired: true,
        }
    }
}

/// One player as the pairing knows them: name, rating and rounds so far.
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Player {
    /// The name written in a TRF (not read by the pairing).
    pub name: String,
    /// The rating: the initial ranking orders by it, higher first.
    pub rating: u32,
    /// Rounds in order; a round missing at the end is an absence. A player with an entry for
    /// the round being paired is not paired in it (a requested bye or an absence).
    pub rounds: Vec<Round>,
}

/// Points in tenths (a win 10, a draw 5), as the TRF writes them with one decimal.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub struct Points {
    /// A win's points.
    pub win: u32,
    /// A draw's points.
    pub draw: u32,
    /// A loss over the board.
    pub loss: u32,
    /// A loss by forfeit.
    pub forfeit_loss: u32,
    /// A round not paired (an absence, a zero-point bye).
    pub zero_bye: u32,
    /// The pairing-allocated bye: a win's points by the handbook's default.
    pub pairing_bye: u32,
}

impl Default for Points {
    fn default() -> Self {
        Points {
            win: 10,
            draw: 5,
            loss: 0,
            forfeit_loss: 0,
            zero_bye: 0,
            pairing_bye: 10,
        }
    }
}

impl Points {
    /// What `round` scored for its player.
    pub fn of(&self, round: &Round) -> u32 {
        match round.score {
            Score::Loss if !round.paired => self.zero_bye,
            Score::Loss if round.played => self.loss,
            Score::Loss => self.forfeit_loss,
            Score::Win if round.paired && round.opponent.is_none() => self.pairing_bye,
            Score::Win => self.win,
            Score::Draw => self.draw,
        }
    }
}

/// A tournament as the pairing of its next round reads it. Players are in pairing-number
/// order (index 0 is pairing number 1).
#[derive(Clone, PartialEq, Eq, Debug)]
pub struct Tournament {
    /// The players, in pairing-number order.
    pub players: Vec<Player>,
    /// Rounds the tournament will have (the last round lets top scorers meet with the same
    /// absolute colour preference).
    pub total_rounds: u32,
    /// What each result is worth.
    pub points: Points,
    /// The colour of pairing number 1 in round 1 (the odd numbers' colour against the even).
    pub initial_colour: Colour,
    /// Pairs that may not meet (besides the games already played), by player index.
    pub forbidden: Vec<(usize, usize)>,
}

impl Tournament {
    /// Rounds done before the round to pair: the last round anyone was paired in, or one more
    /// when every player already has an entry past it (that round is complete). An entry of a
    /// player past the rounds done is a requested bye or an absence in the round to pair.
    pub fn rounds_done(&self) -> usize {
        let mut done = 0;
        for player in &self.players {
            for (index, round) in player.rounds.iter().enumerate() {
                done = done.max(if round.paired { index + 1 } else { index });
            }
        }
        if !self.players.is_empty() && self.players.iter().all(|p| p.rounds.len() > done) {
            done += 1;
        }
        done
    }
}

/// A round's pairing: (white, black) by player index, in the order organisers list them
/// (higher scores first), and the player with the pairing-allocated bye.
#[derive(Clone, PartialEq, Eq, Debug, Default)]
pub struct RoundPairing {
    /// The pairs, (white, black) by player index.
    pub pairs: Vec<(usize, usize)>,
    /// The player with the pairing-allocated bye (an odd number of players), if any.
    pub bye: Option<usize>,
}

/// Why a round could not be paired.
#[derive(Clone, PartialEq, Eq, Debug)]
pub enum PairingError {
    /// No pairing satisfies the absolute criteria (no rematch, colour limits, one bye each).
    NoValidPairing,
    /// The tournament's data do not fit (a round's weights wider than the widest kept).
    TooLarge(String),
}

impl std::fmt::Display for PairingError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PairingError::NoValidPairing => {
                write!(
                    f,
                    "no pairing of the round satisfies the Dutch system's absolute criteria"
                )
            }
            PairingError::TooLarge(why) => write!(f, "too large to pair: {why}"),
        }
    }
}

#[cfg(test)]
mod tests;
