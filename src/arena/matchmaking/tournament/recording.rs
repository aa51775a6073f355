//! The recording thread's side of a session: every game written the moment it arrives, the
//! standings, the progress shown, and the reasons to stop (a write error, a fault under
//! `--no-recover`, the SPRT's decision).

use std::sync::atomic::{AtomicBool, Ordering};

use crate::arena::matchmaking::run_files::RunFiles;
use crate::arena::matchmaking::run_options::RunOptions;
use crate::arena::matchmaking::tournament::worker::stops_without_recover;
use crate::arena::output::progress::{Progress, ProgressMode};
use crate::arena::records::standings::Standings;
use crate::arena::records::GameRecord;

/// What the recording thread keeps while the workers play.
pub(super) struct Recording<'a> {
    pub(super) opts: &'a RunOptions,
    pub(super) files: RunFiles,
    pub(super) standings: Standings,
    pub(super) progress: Progress,
    /// Engine plies of the games of this session.
    pub(super) plies: u64,
    /// Why the run stopped early: a fault under `--no-recover`.
    pub(super) stopped: Option<String>,
    /// The SPRT's decision, once final.
    pub(super) sprt_decided: Option<String>,
    /// The first game that could not be written.
    pub(super) write_error: Option<anyhow::Error>,
}

impl Recording<'_> {
    /// A worker's note, shown unless the progress is quiet.
    pub(super) fn note(&mut self, text: &str) {
        if self.opts.progress != ProgressMode::Quiet {
            self.progress.note(text)
        }
    }

    /// Records a finished game; sets `stop` when the run must play no more.
    pub(super) fn game(&mut self, g: &GameRecord, stop: &AtomicBool) {
        self.plies += g.moves.len() as u64;
        if let Err(e) = self.files.record(g) {
            // Nothing recorded can be trusted any more: stop at once.
            self.write_error.get_or_insert(e);
            stop.store(true, Ordering::SeqCst);
            return;
        }
        self.standings.add(g);
        let kind = g.termination.kind;
        if !self.opts.recover && stops_without_recover(kind) && self.stopped.is_none() {
            self.stopped = Some(format!(
                "game {}: {} ({}); stopping (--no-recover)",
                g.index + 1,
                kind.name(),
                g.termination.detail
            ));
            stop.store(true, Ordering::SeqCst);
        }
        if self.sprt_decided.is_none() {
            self.sprt_decided = sprt_decision(&self.standings);
            if self.sprt_decided.is_some() {
                stop.store(true, Ordering::SeqCst);
            }
        }
        self.progress.game_done(g, &self.standings);
        if let Some(watch) = &self.opts.live {
            let standings = &self.standings;
            watch.finished(g, self.progress.figures(), standings.headline(), || {
                standings.summary()
            });
        }
    }

    /// The live page's standings now (before the first game, and at the end with `ended`).
    pub(super) fn show_standings(&self, ended: bool) {
        if let Some(watch) = &self.opts.live {
            let standings = &self.standings;
            watch.standings(
                self.progress.figures(),
                standings.headline(),
                || standings.summary(),
                ended,
            );
        }
    }
}

/// The SPRT's decision once it is final (H0 or H1 accepted), as it stood at the game that
/// crossed the bound.
pub(super) fn sprt_decision(standings: &Standings) -> Option<String> {
    let stop = standings.sprt_stop()?;
    Some(format!(
        "{} ({}) after {} games",
        stop.status.decision.describe(),
        stop.status.line(),
        stop.games
    ))
}
