//! The records of a run: JSON lines, one event each.
//!
//! - `{"event":"run", ...}` first: the whole configuration and the schedule's size, so that
//!   `--resume` and `merge` rebuild the very same run;
//! - `{"event":"game", ...}` for each game, appended and flushed the moment it ends;
//! - `{"event":"summary", ...}` last, when the run (or a resumed part of it) completes.
//!
//! A game record holds only reproducible facts when neither engine is timed (depth/nodes limits):
//! wall times are left out, so such runs give byte-identical records.

pub mod events;
pub mod pgn;
pub mod rate;
pub mod reading;
pub mod standings;
pub mod termination;
pub mod writer;

pub use crate::arena::pairing::GameSet;
pub use events::{Event, GameRecord, MoveRecord, OpeningRecord, RecordedOutputs, RunHeader};
pub use reading::{RecordsFile, RecordsScan, MAX_LINE_BYTES, MAX_RECORDS_BYTES};
pub use termination::{Termination, TerminationKind};
pub use writer::{check_new, event_line, RecordWriter};

/// Bumped when a field changes meaning.
pub const FORMAT: u32 = 1;
