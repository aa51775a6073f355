//! What the workers share, and what they tell the recording thread.

use std::sync::atomic::AtomicBool;
use std::sync::{Condvar, Mutex};

use crate::arena::config::RunConfig;
use crate::arena::matchmaking::run_options::RunOptions;
use crate::arena::matchmaking::tournament::feed::Feed;
use crate::arena::matchmaking::tournament::health::Health;
use crate::arena::records::GameRecord;
use crate::games::Variant;

/// A worker's message to the recording thread.
pub(super) enum Msg {
    Game(Box<GameRecord>),
    Note(String),
}

/// The run's state every game worker reads (the arena's, not a search's `SearchShared`).
pub(super) struct RunState<'a> {
    pub(super) config: &'a RunConfig,
    pub(super) variant: Variant,
    pub(super) opts: &'a RunOptions,
    /// The games still to play, each with its opening.
    pub(super) feed: Mutex<Feed>,
    /// Signalled when a game ends or a worker stops: the pairing's next games (a knockout's
    /// next wave) may be ready.
    pub(super) feed_changed: Condvar,
    pub(super) health: Mutex<Health>,
    /// Each engine's CPU over the run's games (by engine), where its control group measures it.
    pub(super) cpu: Mutex<Vec<crate::arena::engine::sandbox::cpu::CpuUse>>,
    /// Set to stop handing out games (a fault under --no-recover).
    pub(super) stop: AtomicBool,
    /// `--log`, shared by every engine session.
    pub(super) protocol_log:
        Option<std::sync::Arc<crate::arena::engine::protocol_log::ProtocolLog>>,
}
