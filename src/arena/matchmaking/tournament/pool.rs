//! A worker's engine pool: engines started on first use, kept between games, the least recently
//! used idle ones ended; and how one is started.

use std::sync::mpsc::Sender;
use std::time::Duration;

use crate::arena::config::EngineConfig;
use crate::arena::engine::builtin;
use crate::arena::engine::client::{EngineSession, Fault};
use crate::arena::engine::process::{EngineIo, LogBudget, Spawn};
use crate::arena::matchmaking::tournament::shared::{Msg, RunState};
use crate::sync::lock;

/// Engines kept alive per worker beyond the two playing.
const KEEP_IDLE: usize = 2;

/// One worker's engine sessions, by engine index.
pub(super) struct Pool {
    sessions: Vec<Option<EngineSession>>,
    /// When each engine last sat down to a game (on the pool's own game count).
    last_used: Vec<u64>,
    clock: u64,
    /// Time an engine gets to exit after `quit` when the pool ends it.
    grace: Duration,
}

impl Pool {
    /// An empty pool for `engines` engines.
    pub(super) fn new(engines: usize, grace: Duration) -> Pool {
        Pool {
            sessions: (0..engines).map(|_| None).collect(),
            last_used: vec![0; engines],
            clock: 0,
            grace,
        }
    }

    /// The engines of `seats` are about to play: marks them used, and ends the least recently
    /// used idle engines beyond [`KEEP_IDLE`].
    pub(super) fn seat(&mut self, seats: [usize; 2]) {
        self.clock += 1;
        for e in seats {
            self.last_used[e] = self.clock;
        }
        let mut idle: Vec<usize> = (0..self.sessions.len())
            .filter(|&i| self.sessions[i].is_some() && !seats.contains(&i))
            .collect();
        if idle.len() <= KEEP_IDLE {
            return;
        }
        idle.sort_by_key(|&i| self.last_used[i]);
        for &i in &idle[..idle.len() - KEEP_IDLE] {
            if let Some(s) = self.sessions[i].take() {
                s.shutdown(self.grace);
            }
        }
    }

    /// Whether engine `e` is running.
    pub(super) fn has(&self, e: usize) -> bool {
        self.sessions[e].is_some()
    }

    /// Keeps the started engine `e`.
    pub(super) fn put(&mut self, e: usize, session: EngineSession) {
        self.sessions[e] = Some(session);
    }

    /// The running engine `e`.
    pub(super) fn get(&mut self, e: usize) -> &mut EngineSession {
        self.sessions[e].as_mut().expect("started above")
    }

    /// Ends engine `e` at once (it faulted): its next game starts it again.
    pub(super) fn discard(&mut self, e: usize) {
        if let Some(s) = self.sessions[e].take() {
            s.shutdown(Duration::ZERO);
        }
    }

    /// Ends engine `e` with the pool's grace to quit (`restart=on`: its next game starts it
    /// again).
    pub(super) fn retire(&mut self, e: usize) {
        if let Some(s) = self.sessions[e].take() {
            s.shutdown(self.grace);
        }
    }

    /// Two distinct running engines mutably, by engine index.
    pub(super) fn pair(&mut self, a: usize, b: usize) -> [&mut EngineSession; 2] {
        assert_ne!(a, b, "an engine cannot play itself");
        let (lo, hi) = (a.min(b), a.max(b));
        let (left, right) = self.sessions.split_at_mut(hi);
        let low = left[lo].as_mut().expect("started");
        let high = right[0].as_mut().expect("started");
        if a < b {
            [low, high]
        } else {
            [high, low]
        }
    }

    /// Ends every engine, each with the pool's grace to quit.
    pub(super) fn shutdown(mut self) {
        for s in self.sessions.iter_mut() {
            if let Some(s) = s.take() {
                s.shutdown(self.grace);
            }
        }
    }
}

/// Spawns (or starts in process), handshakes and configures engine `e`.
pub(super) fn start_engine(
    shared: &RunState<'_>,
    e: usize,
    tx: &Sender<Msg>,
) -> Result<EngineSession, Fault> {
    let cfg: &EngineConfig = &shared.config.engines[e];
    let timeout = Duration::from_millis(shared.config.startup_timeout_ms);
    let mut preset: Vec<(String, String)> = Vec::new();
    let io = match cfg.builtin() {
        Some(Ok(b)) => {
            for (n, v) in builtin::player_options(b) {
                preset.push((n.into(), v.into()));
            }
            // UGI spin options are signed 64-bit: keep the seed below 2^63.
            let seed = crate::games::mix64(shared.config.seed ^ (e as u64 + 1)) >> 1;
            preset.push(("Seed".into(), seed.to_string()));
            builtin::start(b, shared.variant)
                .map_err(|err| Fault::Crash(format!("cannot start {}: {err}", cfg.cmd)))?
        }
        _ => {
            let log = cfg.stderr_log(&shared.opts.log_dir);
            EngineIo::spawn_confined(
                &Spawn {
                    program: &cfg.cmd,
                    args: &cfg.args,
                    dir: cfg.dir.as_deref(),
                    log: Some(&log),
                },
                // One budget per engine log for the run, start-up check included.
                LogBudget::shared(&log, shared.opts.log_limit),
                &cfg.confine,
            )
            .map_err(|err| Fault::Crash(format!("cannot start '{}': {err}", cfg.cmd)))?
        }
    };
    let log = shared
        .protocol_log
        .as_ref()
        .map(|l| crate::arena::engine::protocol_log::Tap::new(l.clone(), &cfg.name));
    let mut s = EngineSession::handshake_logged(io, timeout, cfg.proto, log)?;
    let unknown = s.configure(
        &shared.config.game,
        preset.iter().map(|(n, v)| (n.as_str(), v.as_str())),
        &cfg.options,
        |n| cfg.builtin().is_some() && builtin::takes_hidden_option(n),
    )?;
    if !unknown.is_empty() {
        let mut h = lock(&shared.health);
        if h.first_unknown_options(e) {
            let _ = tx.send(Msg::Note(format!(
                "engine {} does not advertise option(s) {} (sent anyway)",
                cfg.name,
                unknown.join(", ")
            )));
        }
    }
    s.fence(timeout)?;
    Ok(s)
}
