//! Forfeits: a game lost before it is played, by an engine that is disqualified or that fails
//! at start-up or at its new game.

use crate::arena::engine::client::Fault;
use crate::arena::matchmaking::tournament::health::Health;
use crate::arena::records::{GameRecord, Termination, TerminationKind};
use crate::games::{Outcome, Side};

/// Forfeits the game when an engine of `seats` (south, north) is disqualified (failing to start
/// or crashing too often): the other wins, or nobody when both are out. Whether it did.
pub(super) fn disqualified(health: &Health, seats: [usize; 2], record: &mut GameRecord) -> bool {
    let out: Vec<(Side, &String)> = Side::BOTH
        .into_iter()
        .filter_map(|s| Some((s, health.disqualified(seats[s.index()])?)))
        .collect();
    match out.as_slice() {
        [] => false,
        [(side, why)] => {
            let detail = format!("{} {why}", record.engine(*side));
            lose(record, *side, TerminationKind::Forfeit, detail);
            true
        }
        _ => {
            record.termination.detail = format!(
                "both engines are out: {} {}; {} {}",
                record.south, out[0].1, record.north, out[1].1
            );
            record.termination.unplayed = true;
            true
        }
    }
}

/// `side` loses the game, unplayed (before its first move), by `kind`, for the reason `detail`.
pub(super) fn lose(record: &mut GameRecord, side: Side, kind: TerminationKind, detail: String) {
    record.result = Outcome::Win(side.other());
    record.termination = Termination {
        unplayed: true,
        ..Termination::fault(kind, side, detail)
    };
}

/// The termination a fault before the first move is recorded as.
pub(super) fn fault_kind(f: &Fault) -> TerminationKind {
    f.kind()
}
