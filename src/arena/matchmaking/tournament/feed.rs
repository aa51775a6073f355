//! The queue of games still to play, each with its opening.

use crate::arena::game::openings::{Opening, OpeningBook};
use crate::arena::pairing::knockout::{Bracket, Step};
use crate::arena::pairing::schedule::GameSpec;
use crate::arena::records::GameSet;
use crate::games::Outcome;

/// Where the games come from: a fixed schedule less the games already recorded, or a knockout's
/// bracket, which knows its next games only as results come in.
enum Source {
    Schedule {
        games: Box<dyn Iterator<Item = GameSpec> + Send>,
        /// The games recorded before this session (one bit each).
        done: GameSet,
    },
    /// Replayed from the games recorded before this session (they are not handed out again).
    Knockout(Box<Bracket>),
}

/// What the feed has for a worker.
pub(super) enum Next {
    /// A game, its opening, and a note for the user (openings exhausted) if there is one.
    Game(GameSpec, Opening, Option<String>),
    /// Nothing now: a knockout's next games depend on games being played.
    Wait,
    /// Nothing more.
    Done,
}

/// Hands out the slice's unplayed games in game order, each with its opening: one lock for both,
/// so the openings are made in pair order and the book never has to go back. Holds the games
/// already recorded (their numbers) and the openings' state, nothing per game still to play
/// (a knockout: its bracket and the wave being played).
pub(super) struct Feed {
    source: Source,
    book: OpeningBook,
}

impl Feed {
    /// The feed of `games` less those in `done`, their openings from `book`.
    pub(super) fn new(
        games: Box<dyn Iterator<Item = GameSpec> + Send>,
        done: GameSet,
        book: OpeningBook,
    ) -> Feed {
        Feed {
            source: Source::Schedule { games, done },
            book,
        }
    }

    /// The feed of a knockout's games, from its bracket as the recorded games left it.
    pub(super) fn knockout(bracket: Bracket, book: OpeningBook) -> Feed {
        Feed {
            source: Source::Knockout(Box::new(bracket)),
            book,
        }
    }

    pub(super) fn next(&mut self) -> Next {
        let spec = match &mut self.source {
            Source::Schedule { games, done } => loop {
                let Some(spec) = games.next() else {
                    return Next::Done;
                };
                if !done.contains(spec.index) {
                    break spec;
                }
            },
            Source::Knockout(b) => match b.next_game() {
                Step::Game(spec) => spec,
                Step::Wait => return Next::Wait,
                Step::Done => return Next::Done,
            },
        };
        let opening = self.book.get(spec.pair);
        Next::Game(spec, opening, self.book.take_note())
    }

    /// A game of this session has ended (and is on its way to the records): a knockout learns
    /// its result, which may make the next games.
    pub(super) fn finished(&mut self, spec: &GameSpec, result: Outcome) {
        if let Source::Knockout(b) = &mut self.source {
            // The bracket handed this very game out: it fits.
            let _ = b.record(spec.index, spec.south, spec.north, result);
        }
    }
}
