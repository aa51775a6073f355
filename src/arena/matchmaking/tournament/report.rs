//! What a run produced.

use crate::arena::matchmaking::tournament::cost::Cost;
use crate::arena::records::standings::Standings;
use crate::arena::records::RunHeader;

/// What a run produced.
#[derive(Debug)]
pub struct RunReport {
    pub header: RunHeader,
    /// Every game of this run's slice recorded so far (resumed ones included).
    pub standings: Standings,
    /// Games of this slice still unplayed (interrupted or stopped).
    pub missing: u64,
    pub interrupted: bool,
    /// Why the run stopped early, if it did: a fault under `--no-recover`.
    pub stopped: Option<String>,
    /// The SPRT's decision, when it ended the run.
    pub sprt_decided: Option<String>,
    /// This session's cost: engine plies played, wall time, and the arena's own CPU time
    /// (all its threads, engines excluded).
    pub cost: Cost,
    /// A knockout's bracket as the recorded games make it.
    pub bracket: Option<crate::arena::pairing::knockout::Bracket>,
}
