//! Per-engine health, shared by the workers: start failures and crashes in a row, and the
//! disqualifications they lead to (whose games are then forfeited).

use crate::arena::client::Fault;
use crate::arena::config::RunConfig;
use crate::arena::records::{GameRecord, TerminationKind};
use crate::games::Side;

/// Per-engine health, shared by the workers.
pub(super) struct Health {
    failures_in_a_row: Vec<u32>,
    /// Games lost by a crash in a row (any phase).
    crashes_in_a_row: Vec<u32>,
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
    /// engine and its last exit status. A game it finishes without crashing starts the count
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
            let crashed = record.termination.kind == TerminationKind::Crash
                && record.termination.side == Some(side);
            if !crashed {
                self.crashes_in_a_row[e] = 0;
                continue;
            }
            self.crashes_in_a_row[e] += 1;
            let count = self.crashes_in_a_row[e];
            if count >= max && self.disqualified[e].is_none() {
                let why = format!(
                    "crashed in {count} games in a row (last: {})",
                    record.termination.detail
                );
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
