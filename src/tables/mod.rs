//! Tables: games and endgames solved once (by retrograde analysis, or by a proof search over
//! endgame tables) and looked up by the search instead of searched.
//!
//! Each game's solver, one folder a game, keeps only what is its game's (the index of a
//! position, the moves and values of its rules):
//!
//! - [`toguz`]: the Toguz Kumalak endgame tables, every position with few stones on the board,
//!   built by `otau tables`; an engine without the file plays on without them (a build takes up
//!   to a minute and the engine must answer at once).
//! - [`modiar`]: Modiar (2x3), solved completely, built on first use; `otau solve` prints it.
//! - [`giuthi`]: Giuthi's small boards, every position with few seeds on the board, and the
//!   start's result by proof search over them.
//! - [`bestemshe`]: Bestemshe (2x5) solved from the start by proof search over Toguz tables of
//!   its board, the proof file and the engine's play from it.
//!
//! The machinery they share, one folder a concern:
//!
//! - [`retrograde`]: building by retrograde analysis: the layered fixpoint
//!   ([`retrograde::fixpoint`]) and the index of a board among the boards of its stone count
//!   ([`retrograde::board_index`]).
//! - [`proof_search`]: df-pn over a [`proof_search::ProofGame`] and the proof tree anyone can
//!   re-check ([`proof_search::tree`]).
//! - [`storage`]: the file format with its header, checksum and digest
//!   ([`storage::file_format`]), the cache folder ([`storage::cache`]), the process-wide slot a
//!   table is read into once ([`storage::slot`]). Later runs (an engine process per arena game,
//!   say) load a table in a fraction of a second.
//! - [`decided`]: a result decided without playing on ([`Decided`]: win, draw or loss).
//! - [`probe`]: what the search asks of the tables beside the evaluation ([`Probe`]).
//!
//! The commands that build and print tables (`otau tables`, `otau solve`) are `crate::cli`'s.

pub mod bestemshe;
pub mod decided;
pub mod giuthi;
pub mod modiar;
pub mod probe;
pub mod proof_search;
pub mod retrograde;
pub mod storage;
pub mod toguz;

pub use decided::Decided;
pub use probe::{Probe, Solved, TableBounds};
pub use storage::cache::{
    cache_dir, file_name, report_problem, take_problems, usable_cache_dir, CACHE_DIR_ENV,
};
