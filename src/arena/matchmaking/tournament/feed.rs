//! The queue of games still to play, each with its opening.

use std::sync::Arc;

use crate::arena::game::openings::{Opening, OpeningBook};
use crate::arena::output::live::Watch;
use crate::arena::pairing::{GameSpec, Pairing, Step};
use crate::arena::system::files::{self, Named};
use crate::games::Outcome;

/// What the feed has for a worker.
pub(super) enum Next {
    /// A game, its opening, and a note for the user (openings exhausted) if there is one.
    Game(GameSpec, Opening, Option<String>),
    /// Nothing now: the pairing's next games depend on games being played.
    Wait,
    /// Nothing more.
    Done,
}

/// Hands out the slice's unplayed games in game order, each with its opening: one lock for both,
/// so the openings are made in pair order and the book never has to go back. Holds the run's
/// pairing (as the games recorded before this session left it) and the openings' state, nothing
/// per game still to play.
pub(super) struct Feed {
    pairing: Box<dyn Pairing>,
    book: OpeningBook,
    /// `--trf`: the file, the event's name, the rounds it holds.
    trf: Option<(Named, String, usize)>,
    /// `--live`: the page's state, told the pairing's standings (a Swiss's) as results come.
    live: Option<Arc<Watch>>,
}

impl Feed {
    /// The feed of `pairing`'s games, their openings from `book`.
    pub(super) fn new(pairing: Box<dyn Pairing>, book: OpeningBook) -> Feed {
        Feed {
            pairing,
            book,
            trf: None,
            live: None,
        }
    }

    /// Tells `live` the pairing's part of the summary now, and again after every result.
    pub(super) fn show_live(&mut self, live: Option<Arc<Watch>>) {
        if let Some(watch) = &live {
            watch.pairing(self.pairing.summary_json());
        }
        self.live = live;
    }

    /// Writes the pairing's TRF to `out` now, and again after every round it completes.
    pub(super) fn write_trf(&mut self, out: Named, event: &str) -> anyhow::Result<()> {
        let (Some(rounds), Some(text)) = (self.pairing.rounds_done(), self.pairing.trf(event))
        else {
            return Ok(());
        };
        files::write_whole(&out, text.as_bytes(), false)?;
        self.trf = Some((out, event.to_string(), rounds));
        Ok(())
    }

    pub(super) fn next(&mut self) -> Next {
        let spec = match self.pairing.next() {
            Step::Game(spec) => spec,
            Step::Wait => return Next::Wait,
            Step::Done => return Next::Done,
        };
        let opening = self.book.get(spec.pair);
        Next::Game(spec, opening, self.book.take_note())
    }

    /// A game of this session has ended (and is on its way to the records): the pairing learns
    /// its result and whether it was `unplayed`, which may make the next games.
    pub(super) fn finished(&mut self, spec: &GameSpec, result: Outcome, unplayed: bool) {
        self.pairing.record(spec, result, unplayed);
        if let Some(watch) = &self.live {
            watch.pairing(self.pairing.summary_json());
        }
        let Some((out, event, written)) = &mut self.trf else {
            return;
        };
        let Some(rounds) = self.pairing.rounds_done().filter(|r| *r > *written) else {
            return;
        };
        if let Some(text) = self.pairing.trf(event) {
            // Whole, atomically (temporary file + rename): a reader finds a round's TRF.
            match files::write_whole(out, text.as_bytes(), false) {
                Ok(()) => *written = rounds,
                Err(e) => eprintln!("warning: {e:#} (the run goes on)"),
            }
        }
    }
}
