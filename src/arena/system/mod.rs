//! The operating system's signals: Ctrl-C, SIGTERM and a closed output stop a run cleanly;
//! Ctrl-Z pauses it without charging an engine.

pub mod files;
pub mod guardian;
pub mod interrupt;
pub mod pause;
pub mod process_groups;
mod signals;
