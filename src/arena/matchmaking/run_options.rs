//! How a run is played: the options that are not part of its identity (they may differ when
//! resuming). Below both the run ([`crate::arena::matchmaking::tournament`]) and its output files
//! ([`crate::arena::matchmaking::run_files`]), which both read them.

use std::path::PathBuf;
use std::time::Duration;

use crate::arena::config::stderr_log::MAX_LOG_BYTES;
use crate::arena::output::progress::{OutputFormat, ProgressMode};
use crate::arena::pairing::schedule::Shard;
use crate::arena::records::GameRecord;

/// How to run (not part of the run's identity: may differ when resuming).
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// `--concurrency`: games played at once.
    pub concurrency: usize,
    /// `--shard K/N`: the part of the schedule this process plays.
    pub shard: Option<Shard>,
    /// JSON-lines records.
    pub out: Option<PathBuf>,
    /// `--pgn`: the games as PGN, appended as they end.
    pub pgn: Option<PathBuf>,
    /// An existing PGN gets this run's games after what it holds (else it is refused).
    pub pgn_append: bool,
    /// `--trf`: a Swiss's TRF, rewritten whole after every round.
    pub trf: Option<PathBuf>,
    /// The HTML report, written at the end of each session.
    pub report: Option<PathBuf>,
    /// Engine faults do not stop the run.
    pub recover: bool,
    /// How much is printed while the run goes on.
    pub progress: ProgressMode,
    /// Plain progress: the head-to-head results every this many games.
    pub rating_interval: u64,
    /// Engines' stderr logs go here.
    pub log_dir: PathBuf,
    /// PGN `Event` tag.
    pub event: String,
    /// Time an engine gets to exit after `quit` before it is killed.
    pub quit_grace: Duration,
    /// `--log-limit`: stderr bytes logged per engine in this run (all its processes).
    pub log_limit: u64,
    /// The rating table's prior (`--rating-prior`).
    pub rating: crate::stats::RatingOptions,
    /// `--log`: every line exchanged with the engines ([`crate::arena::engine::protocol_log`]).
    pub protocol_log: Option<PathBuf>,
    /// `--log-max`: the bytes a session adds to the protocol log at most.
    pub protocol_log_max: u64,
    /// `--output`: the results' printed form (fastchess's or cutechess-cli's).
    pub output: OutputFormat,
    /// `--live`: the state the live page shows, written as the run goes on.
    pub live: Option<std::sync::Arc<crate::arena::output::live::Watch>>,
    /// The game viewer the report embeds (`crate::web::report::viewer_section`, handed down by
    /// the command line: the web layer is above the arena), given the recorded games.
    pub report_viewer: Option<ReportViewer>,
}

/// Makes the report's game viewer of the games given (in the order they finished).
pub(crate) type ReportViewer = fn(&[&GameRecord]) -> String;

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            concurrency: 1,
            shard: None,
            out: None,
            pgn: None,
            pgn_append: false,
            trf: None,
            report: None,
            recover: true,
            progress: ProgressMode::Quiet,
            rating_interval: 0,
            log_dir: PathBuf::from("otau-arena-logs"),
            event: "otau-arena".into(),
            quit_grace: Duration::from_millis(300),
            log_limit: MAX_LOG_BYTES,
            rating: crate::stats::RatingOptions::default(),
            protocol_log: None,
            protocol_log_max: crate::arena::engine::protocol_log::DEFAULT_LOG_MAX_MIB << 20,
            output: OutputFormat::Fastchess,
            live: None,
            report_viewer: None,
        }
    }
}
