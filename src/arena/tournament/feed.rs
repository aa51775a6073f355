//! The queue of games still to play, each with its opening.

use crate::arena::openings::{Opening, OpeningBook};
use crate::arena::schedule::GameSpec;

/// Hands out the slice's unplayed games in game order, each with its opening: one lock for both,
/// so the openings are made in pair order and the book never has to go back. Holds the games
/// already recorded (their numbers) and the openings' state, nothing per game still to play.
pub(super) struct Feed {
    games: Box<dyn Iterator<Item = GameSpec> + Send>,
    /// Numbers of the games recorded before this session, ascending; `done[skip..]` is still ahead.
    done: Vec<u64>,
    skip: usize,
    book: OpeningBook,
}

impl Feed {
    /// The feed of `games` less those numbered in `done` (ascending), their openings from `book`.
    pub(super) fn new(
        games: Box<dyn Iterator<Item = GameSpec> + Send>,
        done: Vec<u64>,
        book: OpeningBook,
    ) -> Feed {
        Feed {
            games,
            done,
            skip: 0,
            book,
        }
    }

    pub(super) fn next(&mut self) -> Option<(GameSpec, Opening, Option<String>)> {
        let spec = loop {
            let spec = self.games.next()?;
            while self.done.get(self.skip).is_some_and(|&d| d < spec.index) {
                self.skip += 1;
            }
            if self.done.get(self.skip) != Some(&spec.index) {
                break spec;
            }
        };
        let opening = self.book.get(spec.pair);
        Some((spec, opening, self.book.take_note()))
    }
}
