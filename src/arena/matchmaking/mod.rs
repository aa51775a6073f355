//! Playing: one game refereed, a whole schedule run by workers, how a run is played, its files,
//! and shards joined into one run.

pub mod merge;
pub mod referee;
pub mod run_files;
pub mod run_options;
pub mod tournament;
