//! otau: rules, engine and arena for two-row mancala games (Toguz Kumalak, Giuthi, Modiar).
//!
//! Module map, one concern each:
//! - [`games`]: positions, move generation and the end rules of every game (the one rules core
//!   the engine and the arena referee share);
//! - [`games::notation`]: position strings and move tokens (part of the rules core);
//! - [`pgn`]: reading PGN game records;
//! - [`input`]: the one bounded opener of the files a user names as input;
//! - [`names`]: what a player's name may be, and how any name is shown;
//! - [`perft`]: move-path enumeration, the rules' correctness and speed check;
//! - [`play`]: a terminal game against the engine (`otau play`);
//! - [`search`]: the engine behind `go` (and the baseline players);
//! - [`eval`]: static evaluation of every game (and its tuner);
//! - [`stats`]: Elo, pentanomial, SPRT, joint ratings and the HTML report;
//! - [`cli`]: the `otau` command line and its subcommands (the binary parses and dispatches);
//! - [`arena`]: engine-vs-engine matches (the `otau-arena` binary);
//! - [`web`]: the pages that watch a run and replay its games, `otau web`'s play page, and their
//!   HTTP server;
//! - [`tables`]: games and endgames solved once: the Toguz Kumalak endgame tables, Modiar's
//!   solution, the proofs of Bestemshe and of Giuthi's small boards, and the probe the search
//!   asks them through;
//! - [`sync`]: the one poisoned-lock recovery;
//! - [`key_values`]: the one reader of `key=value` lists (option lists, a page's query);
//! - [`ugi`]: the engine protocol front end and the protocol's typed messages ([`ugi::wire`]).

// Every public item says why it is there (issue #30); `.ci/run`'s clippy -D warnings makes a
// missing one an error.
#![warn(missing_docs)]

pub mod arena;
pub mod cli;
pub mod eval;
pub mod games;
pub mod input;
pub mod key_values;
pub mod names;
pub mod perft;
pub mod pgn;
pub mod play;
pub mod search;
pub mod stats;
pub mod sync;
pub mod tables;
pub mod ugi;
pub mod web;

/// The Rust example of `protocol/writing-an-engine.md` ("Using otau's rules from Rust"), compiled
/// and run by `cargo test --doc` so the page cannot drift from the crate's API.
#[cfg(doctest)]
#[doc = include_str!("../protocol/writing-an-engine.md")]
pub struct WritingAnEngine;
