//! The arena: engine-vs-engine matches, refereed by the library's own rules.
//!
//! Split like fastchess, one concern per module:
//! - [`process`]: engine processes (spawn without a shell, process groups, bounded reader,
//!   stderr logs, kill on every path) and in-process engines behind the same interface;
//! - [`client`]: the UGI client (handshake, options, `go`/`bestmove`, the `isready` fence),
//!   every line through [`crate::ugi::wire`];
//! - [`compliance`]: the protocol checker for any UGI engine, a client on the same session;
//! - [`clock`]: time controls and the arena's clocks;
//! - [`openings`]: seeded random, balanced, or file openings;
//! - [`preflight`]: every engine started and checked once before the first game;
//! - [`schedule`]: round robin and gauntlet pairings, shards; [`knockout`]: the knockout's
//!   bracket, whose later rounds depend on the results;
//! - [`referee`]: one game, every move checked, every termination named; [`adjudication`]:
//!   `--resign`, `--draw`, `--maxmoves` and `--adjudicate tables`;
//! - [`records`] and [`pgn`]: JSON-lines events and PGN;
//! - [`outputs`]: every file a command writes (collisions, special files, locks);
//!   [`run_files`]: a run's outputs, checked and created at start, completed at the end;
//! - [`run_options`]: how a run is played (not part of its identity);
//! - [`tournament`]: workers, engine reuse and restarts, forfeits, resume;
//! - [`groups`]: the live engine process groups (Ctrl-C, Ctrl-Z and the guardian reach them);
//!   [`guardian`]: the forked process that kills them if the arena dies;
//! - [`selfplay`]: `otau selfplay`, a run of two built-in engine configurations;
//! - [`merge`]: joining shards; [`rate`]: the rating table of any games (`ratings`);
//! - [`results`]: the minimal results table; [`progress`]: what the user sees; [`live`]: the
//!   state the live page shows (`--live`), written by the run, read by `crate::web`;
//! - [`engines_file`]: engines kept in cutechess's `engines.json` (`conf=NAME`);
//! - [`cli`]: the command line, and [`fastchess_cli`] the translation of fastchess's and
//!   cutechess-cli's single-dash spellings into it; [`interrupt`]: Ctrl-C and a closed output;
//!   [`pause`]: Ctrl-Z and
//!   the clock that excludes pauses.
//!
//! The protocol and file formats are documented in `protocol/arena.md`.

pub mod adjudication;
pub mod builtin;
pub mod cli;
pub mod client;
pub mod clock;
pub mod compliance;
pub mod config;
pub mod engines_file;
#[doc(hidden)]
pub mod fake_engine;
pub mod fastchess_cli;
pub mod groups;
pub mod guardian;
pub mod interrupt;
pub mod knockout;
pub mod live;
pub mod merge;
pub mod openings;
pub mod outputs;
pub mod pause;
pub mod pgn;
pub mod preflight;
pub mod process;
pub mod programs;
pub mod progress;
pub mod protocol_log;
pub mod rate;
pub mod records;
pub mod referee;
pub mod results;
pub mod run_files;
pub mod run_options;
pub mod schedule;
pub mod selfplay;
mod signals;
pub mod tournament;
