//! Every file and line a command writes, other than the records themselves: the safety of each
//! output file, a run's files, progress, the live page's state and the protocol log.

pub mod files;
pub mod live;
pub mod progress;
pub mod protocol_log;
pub mod run_files;
