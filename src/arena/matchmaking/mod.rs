//! Who plays whom, and running a whole schedule of games.

pub mod knockout;
pub mod schedule;
pub mod tournament;
