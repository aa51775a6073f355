//! UGI on the wire: every line either side writes, as typed messages with `parse` and
//! `Display`, so the protocol's text is read and written in one place.
//!
//! - [`command`]: GUI to engine (`ugi`, `setoption`, `position`, `go` with its limits, `query`,
//!   ...), parsed by the engine ([`crate::ugi`]) and the arena's fake engines, written by the
//!   arena's client ([`crate::arena::engine::client`]) and the compliance checker;
//! - [`reply`]: engine to GUI (`id`, option declarations, `ugiok`, `readyok`, `info` with its
//!   fields, `bestmove`, `response`), written by the engine, read by the arena and the checker.
//!
//! The module knows the games' vocabulary at most, never the engine, the search or the arena
//! that use it.

pub mod command;
pub mod reply;

pub use command::{
    parse, CommandError, GoCommand, GuiCommand, Parsed, PositionCommand, PositionLine, Query, Start,
};
pub use reply::{
    info_string, BadOption, BestMove, InfoField, InfoKey, InfoLine, OptionDecl, OptionKind, Reply,
    ScoreBound, ScoreKind, Value,
};
