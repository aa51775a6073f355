//! Per-engine health, shared by the workers: start failures and crashes in a row, and the
//! disqualifications they lead to (whose games are then forfeited).

use crate::arena::config::RunConfig;
use crate::arena::engine::client::Fault;
use crate::arena::records::{GameRecord, TerminationKind};
use crate::games::Side;

/// Per-engine health, shared by the workers.
pub(super) struct Health {
    failures_in_a_row: Vec<u32>,
    /// Games lost by a crash in a row (any phase).
    crashes_in_a_row: Vec<u32>,
    /// Games lost by an illegal or malformed move in a row: an engine that plays another game
    /// than the run's (never told it) loses every game so, and is stopped as a crash loop is.
    illegal_in_a_row: Vec<u32>,
    /// Why the engine's remaining games are forfeited, once they are.
    disqualified: Vec<Option<String>>,
    warned_options: Vec<bool>,
}

impl Health {
    /// Every one of `engines` healthy.
    pub(super) fn new(engines: usize) -> Health {
        Health {
            failures_in_a_row: vec![0; engines],
            crashes_in_a_row: vec![0; engines],
            illegal_in_a_row: vec![0; engines],
            disqualified: vec![None; engines],
            warned_options: vec![false; engines],
        }
    }

    /// Why engine `e`'s remaining games are forfeited, once they are.
    pub(super) fn disqualified(&self, e: usize) -> Option<&String> {
        self.disqualified[e].as_ref()
    }

    /// Engine `e` started: its run of start failures is over.
    pub(super) fn started(&mut self, e: usize) {
        self.failures_in_a_row[e] = 0;
    }

    /// Engine `e` failed to start with `f`: one more in a row; at `max_start_failures` it is
    /// disqualified, and the note to show says so.
    pub(super) fn start_failed(
        &mut self,
        config: &RunConfig,
        e: usize,
        f: &Fault,
    ) -> Option<String> {
        self.failures_in_a_row[e] += 1;
        if self.failures_in_a_row[e] >= config.max_start_failures && self.disqualified[e].is_none()
        {
            self.disqualified[e] = Some("failed to start too often".into());
            return Some(format!(
                "engine {} failed to start {} times in a row ({f}): its remaining \
                 games are forfeited",
                config.engines[e].name, self.failures_in_a_row[e]
            ));
        }
        None
    }

    /// Whether this is the first time engine `e` is found not to advertise an option it is set
    /// (the note is given once per run).
    pub(super) fn first_unknown_options(&mut self, e: usize) -> bool {
        !std::mem::replace(&mut self.warned_options[e], true)
    }

    /// The crash-loop rule: an engine that lost `max_crashes` games in a row by a crash (at
    /// start-up, at a new game or in play) has its remaining games forfeited, as fastchess does,
    /// so a broken engine is not restarted for every game of a long run; the note names the
    /// engine and its last exit status. The same number of games lost in a row by an illegal or
    /// malformed move stops it too (an engine that plays another game, or another notation,
    /// loses every game that way). A game it finishes without that fault starts its count
    /// again. `seats` are the engines playing south and north; returns the notes to show.
    pub(super) fn count_crashes(
        &mut self,
        config: &RunConfig,
        seats: [usize; 2],
        record: &GameRecord,
    ) -> Vec<String> {
        let mut notes = Vec::new();
        if record.termination.kind == TerminationKind::Forfeit {
            return notes;
        }
        let max = config.max_crashes;
        for side in Side::BOTH {
            let e = seats[side.index()];
            let charged =
                |kind| record.termination.kind == kind && record.termination.side == Some(side);
            let streaks = [
                (
                    TerminationKind::Crash,
                    &mut self.crashes_in_a_row[e],
                    "crashed in",
                    "",
                ),
                (
                    TerminationKind::IllegalMove,
                    &mut self.illegal_in_a_row[e],
                    "lost",
                    " by an illegal or malformed move",
                ),
            ];
            let mut why = None;
            for (kind, streak, verb, how) in streaks {
                if !charged(kind) {
                    *streak = 0;
                    continue;
                }
                *streak += 1;
                if *streak >= max {
                    why = Some(format!(
                        "{verb} {streak} games in a row{how} (last: {})",
                        record.termination.detail
                    ));
                }
            }
            if let Some(why) = why.filter(|_| self.disqualified[e].is_none()) {
                notes.push(format!(
                    "engine {} {why}: its remaining games are forfeited (--max-crashes {max})",
                    config.engines[e].name
                ));
                self.disqualified[e] = Some(why);
            }
        }
        notes
    }
}
