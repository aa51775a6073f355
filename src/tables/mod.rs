//! Tables: games and endgames solved once by retrograde analysis and looked up by the search
//! instead of searched.
//!
//! - [`toguz`]: the Toguz Kumalak endgame tables, every position with few stones on the board,
//!   built by `otau tables`; an engine without the file plays on without them (a build takes up
//!   to a minute and the engine must answer at once).
//! - [`modiar`]: Modiar (2x3), solved completely, built on first use; `otau solve` prints it.
//!
//! Both keep here only what is their game's (the index of a position, the moves and values of
//! their rules); they share the layered fixpoint they are built by ([`fixpoint`]), the file format with its header and checksum ([`file`]), the cache
//! directory ([`cache`]), the process-wide slot a table is read into once ([`slot`]), and the
//! interface the search probes them through beside the evaluation ([`probe`]). Later runs (an
//! engine process per arena game, say) load a table in a fraction of a second.

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
