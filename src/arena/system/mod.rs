//! The operating system's signals: Ctrl-C, SIGTERM and a closed output stop a run cleanly;
//! Ctrl-Z pauses it without charging an engine.

pub mod interrupt;
pub mod pause;
mod signals;
