//! An engine as the arena drives it: its process, the built-in players, the UGI session over the
//! wire, and the check of every engine before the first game.

pub mod builtin;
pub mod client;
pub mod preflight;
pub mod process;
pub mod protocol_log;
pub mod sandbox;
