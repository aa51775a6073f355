//! The arena: engine-vs-engine matches, refereed by the library's own rules.
//!
//! One folder per concern, as fastchess lays out its tree, listed from the bottom up: each
//! folder imports only from the folders above it in this list (`tests/import_layers.rs` fails on
//! a circle):
//! - [`system`]: the operating system: signals (Ctrl-C, SIGTERM and a closed output in
//!   [`system::interrupt`]; Ctrl-Z and the clock that excludes pauses in [`system::pause`]), the
//!   registry of live engine process groups ([`system::process_groups`]), the [`system::guardian`]
//!   that kills them if the arena dies, and every output file checked, locked and never
//!   destroyed ([`system::files`]);
//! - [`game`]: what a game is played under beyond the game's own rules: the clocks
//!   ([`game::clock`]), adjudication ([`game::adjudication`]) and the openings
//!   ([`game::openings`]);
//! - [`pairing`]: who plays whom: round robin and gauntlet ([`pairing::schedule`], with shards)
//!   and the knockout's bracket ([`pairing::knockout`]);
//! - [`config`]: what a run is (engines, game, schedule, openings, adjudication: the records'
//!   header), cutechess's `engines.json` ([`config::engines_file`]), the engine programs pinned
//!   for `--resume` ([`config::programs`]) and where an engine's stderr goes
//!   ([`config::stderr_log`]);
//! - [`records`]: what was played: the JSON-lines events ([`records`] itself), PGN
//!   ([`records::pgn`]), any games rated ([`records::rate`]), records turned into the statistics'
//!   input and the running standings ([`records::standings`]);
//! - [`engine`]: an engine as the arena drives it: its process ([`engine::process`]: spawn
//!   without a shell, its own process group, the bounded reader, stderr logs), the built-in
//!   players in process ([`engine::builtin`]), the UGI session over the wire
//!   ([`engine::client`]), every line it exchanges logged ([`engine::protocol_log`]), the check
//!   before the first game ([`engine::preflight`]);
//! - [`output`]: what the user sees while a run goes on: progress lines ([`output::progress`])
//!   and the live page's state ([`output::live`]);
//! - [`matchmaking`]: playing: one game refereed ([`matchmaking::referee`]: every move checked,
//!   every termination named), a whole schedule ([`matchmaking::tournament`]: workers, engine
//!   pools, forfeits, resume), how a run is played ([`matchmaking::run_options`]), a run's files
//!   ([`matchmaking::run_files`]) and shards joined into one run ([`matchmaking::merge`]);
//! - [`compliance`]: the protocol checker for any UGI engine, a client on the same session.
//!
//! The command lines that drive all this (`otau-arena`, its fastchess spellings, `otau
//! selfplay`) live in [`crate::cli`]. The protocol and file formats are documented in
//! `protocol/arena.md`.

pub mod compliance;
pub mod config;
pub mod engine;
pub mod game;
pub mod matchmaking;
pub mod output;
pub mod pairing;
pub mod records;
pub mod system;
