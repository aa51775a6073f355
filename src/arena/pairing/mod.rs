//! Who plays whom: round robin and gauntlet ([`schedule`], with shards) and the knockout's
//! bracket ([`knockout`]), whose later rounds depend on the results.

pub mod knockout;
pub mod schedule;
