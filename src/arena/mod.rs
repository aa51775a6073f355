//! The arena: engine-vs-engine matches, refereed by the library's own rules.
//!
//! One folder per concern, as fastchess lays out its tree:
//! - [`config`]: what a run is (engines, game, schedule, openings, adjudication: the records'
//!   header), how it is played ([`config::run_options`]), engines kept in cutechess's
//!   `engines.json` ([`config::engines_file`]) and the engine programs pinned for `--resume`
//!   ([`config::programs`]);
//! - [`engine`]: an engine as the arena drives it: its process ([`engine::process`]: spawn
//!   without a shell, process groups, the bounded reader, stderr logs, the guardian that kills
//!   what the arena leaves behind), the built-in players in process ([`engine::builtin`]), the
//!   UGI session over the wire ([`engine::client`]) and the check of every engine before the
//!   first game ([`engine::preflight`]);
//! - [`game`]: one game: the [`game::referee`] (every move checked, every termination named),
//!   the clocks ([`game::clock`]), adjudication beyond the rules ([`game::adjudication`]) and
//!   the openings ([`game::openings`]);
//! - [`matchmaking`]: who plays whom: the [`matchmaking::pairing::Pairing`] every tournament
//!   kind implements (round robin and gauntlet in [`matchmaking::schedule`], the knockout's
//!   bracket in [`matchmaking::knockout`]; where a new kind goes: [`matchmaking`]) and running a
//!   whole run on any of them ([`matchmaking::tournament`]: workers, engine pools, forfeits,
//!   resume);
//! - [`records`]: what was played, as JSON lines ([`records::events`], the termination kinds
//!   in [`records::termination`], written by [`records::writer`], read back and checked by
//!   [`records::reading`]), as PGN ([`records::pgn`]), joined from shards ([`records::merge`]),
//!   rated ([`records::rate`]) and turned into the statistics' input and the running standings
//!   ([`records::standings`]);
//! - [`output`]: every file and line a command writes: the safety of each output file
//!   ([`output::files`]), a run's files ([`output::run_files`]), what the user sees
//!   ([`output::progress`]), the live page's state ([`output::live`]) and the protocol log
//!   ([`output::protocol_log`]);
//! - [`system`]: the operating system's signals: Ctrl-C and a closed output
//!   ([`system::interrupt`]), Ctrl-Z and the clock that excludes pauses ([`system::pause`]);
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
pub mod records;
pub mod system;
