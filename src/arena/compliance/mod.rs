//! A protocol compliance checker for any UGI engine (otau or another).
//!
//! [`check`] starts the engine as a process (no shell: a program and its arguments), walks it
//! through the handshake, options, positions with moves, every kind of `go`, `stop`, `isready`
//! during a search and the `query` commands, and reports pass or fail per item with the reason.
//! Every move and answer is judged with this library's own rules, so the checker needs no engine
//! to compare against. It is a client like the arena's referee: it drives the engine through the
//! arena's engine session ([`crate::arena::engine::client::EngineSession`]) and says every line
//! through [`crate::ugi::wire`], so it holds an engine to the same standards as a run does.
//! `otau check` and `otau-arena --check` are thin front ends to it; each starts the arena's
//! guardian ([`crate::arena::system::guardian::Guardian`]) around the check, which the
//! library cannot do itself (the guardian is one per process, and tests run checks in parallel).
//!
//! The files: `items.rs`, the items as a table of named checks (`ITEMS`: a new item is a row
//! and a function); `driver.rs`, which runs the table in order on one engine process and stops
//! when the engine goes silent; `session.rs`, the engine under test (every send and wait, with
//! its messages); `info.rs`, an `info` line's syntax; `report.rs`, the report.

mod driver;
mod info;
mod items;
mod report;
mod session;

use std::path::PathBuf;
use std::time::Duration;

use crate::arena::engine::process::MAX_LOG_BYTES;
use crate::games::Variant;

pub use report::{ComplianceReport, Item, Status};

/// What to check and how patiently.
#[derive(Clone, Debug)]
pub struct Config {
    /// The game the positions are taken from (set through the engine's `Game` option if it has
    /// one; otherwise the engine is assumed to play it already).
    pub game: Variant,
    /// The longest wait for an answer that needs no search (`ugiok`, `readyok`, `response`).
    pub reply_timeout: Duration,
    /// The longest wait for a `bestmove` under a limit that should end quickly (depth 3, 1000
    /// nodes, a short clock), and the slack allowed over `movetime`.
    pub search_timeout: Duration,
    /// Working directory for the engine.
    pub dir: Option<PathBuf>,
    /// Seed of the random moves used to build positions.
    pub seed: u64,
    /// Where the engine's stderr is kept (`<dir>/<program's file name>.stderr.log`, as a run
    /// keeps it), so that an engine that exits is reported with its last stderr line and its
    /// log, as a run reports it; `None` discards stderr.
    pub log_dir: Option<PathBuf>,
    /// The log's size bound, as `--log-limit`.
    pub log_limit: u64,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            game: Variant::TOGUZ,
            reply_timeout: Duration::from_secs(5),
            search_timeout: Duration::from_secs(10),
            dir: None,
            seed: 1,
            log_dir: None,
            log_limit: MAX_LOG_BYTES,
        }
    }
}

/// Runs every check against `program args...` and reports per item. Never panics on engine
/// behaviour; an engine that cannot be started fails the first item, and the check ends there.
pub fn check(program: &str, args: &[String], config: &Config) -> ComplianceReport {
    driver::check(program, args, config, items::ITEMS)
}
