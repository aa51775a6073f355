//! Playing: one game refereed, a whole run played by workers on any pairing, how a run is
//! played, its files, and shards joined into one run.

pub mod merge;
pub mod referee;
pub mod run_files;
pub mod run_options;
pub mod tournament;
