//! What a run produced.

use crate::arena::matchmaking::tournament::cost::Cost;
use crate::arena::records::standings::Standings;
use crate::arena::records::RunHeader;

/// What a run produced.
#[derive(Debug)]
pub struct RunReport {
    /// The records' header: the run as configured.
    pub header: RunHeader,
    /// Every game of this run's slice recorded so far (resumed ones included).
    pub standings: Standings,
    /// Games of this slice still unplayed (interrupted or stopped).
    pub missing: u64,
    /// The user stopped the run (Ctrl-C): what is missing can be resumed.
    pub interrupted: bool,
    /// Why the run stopped early, if it did: a fault under `--no-recover`.
    pub stopped: Option<String>,
    /// The SPRT's decision, when it ended the run.
    pub sprt_decided: Option<String>,
    /// This session's cost: engine plies played, wall time, and the arena's own CPU time
    /// (all its threads, engines excluded).
    pub cost: Cost,
    /// The run's pairing as the recorded games make it (a knockout's bracket: its text after
    /// the summary, [`crate::arena::pairing::Pairing::notes`]).
    pub pairing: Box<dyn crate::arena::pairing::Pairing>,
}
